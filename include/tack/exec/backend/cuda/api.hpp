// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
#pragma once
/// @file The CUDA name layer: every CUDA runtime type, constant and call the shared GPU code uses
/// (exec/backend/gpu/ and src/gpu/), under a vendor-neutral name in `tack::backend::gpu::api`.
/// exec/backend/hip/api.hpp defines the same names over HIP; a new GPU backend starts with a file
/// like this one (docs/architecture.md, "Adding a backend"). Only for code compiled by nvcc in a
/// CUDA build (exec/backend/gpu/api.hpp picks the layer).

#include <tack/config.hpp>

#if TACK_HAS_CUDA && defined(__CUDACC__)

#include <tack/exec/backend.hpp>
#include <tack/memory/device.hpp>

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

/// A CUDA runtime call's name for messages: `TACK_IMPL_GPU_NAME("Memcpy")` is `"cudaMemcpy"`.
#define TACK_IMPL_GPU_NAME(suffix) "cuda" suffix
/// The vendor's name as a string literal, for messages built at compile time.
#define TACK_IMPL_GPU_VENDOR "CUDA"

namespace tack::backend::gpu::api {

/// The backend tag, device kind and vendor name of this layer. `api::kind == device_kind::cuda`
using backend_tag = tack::cuda_backend;
inline constexpr device_kind kind = device_kind::cuda;
inline constexpr const char* vendor = "CUDA";
/// The compiler that builds this backend's kernels, for messages.
inline constexpr const char* compiler = "nvcc";

using error_t = cudaError_t;
using stream_t = cudaStream_t;
using event_t = cudaEvent_t;
using mem_pool_t = cudaMemPool_t;
using memcpy_kind = cudaMemcpyKind;

inline constexpr error_t success = cudaSuccess;
inline constexpr error_t error_memory_allocation = cudaErrorMemoryAllocation;
inline constexpr error_t error_not_ready = cudaErrorNotReady;
inline constexpr memcpy_kind host_to_device = cudaMemcpyHostToDevice;
inline constexpr memcpy_kind device_to_host = cudaMemcpyDeviceToHost;
inline constexpr memcpy_kind device_to_device = cudaMemcpyDeviceToDevice;
inline constexpr memcpy_kind memcpy_default = cudaMemcpyDefault;
/// The stream tack works on when no `tack::stream` is current: the legacy default stream, which
/// every blocking stream waits for and is waited for by.
inline const stream_t default_stream = cudaStreamLegacy;
inline const char* const host_alloc_name = "cudaHostAlloc";

inline error_t get_last_error() { return cudaGetLastError(); }
inline const char* error_name(error_t e) { return cudaGetErrorName(e); }
inline const char* error_string(error_t e) { return cudaGetErrorString(e); }

inline error_t get_device_count(int* n) { return cudaGetDeviceCount(n); }
inline error_t get_device(int* id) { return cudaGetDevice(id); }
inline error_t set_device(int id) { return cudaSetDevice(id); }
inline error_t device_synchronize() { return cudaDeviceSynchronize(); }

inline error_t stream_create(stream_t* s) { return cudaStreamCreate(s); }
/// A stream that does not order with the default stream (as PyTorch's and CuPy's are).
inline error_t stream_create_non_blocking(stream_t* s) {
  return cudaStreamCreateWithFlags(s, cudaStreamNonBlocking);
}
inline error_t stream_destroy(stream_t s) { return cudaStreamDestroy(s); }
inline error_t stream_synchronize(stream_t s) { return cudaStreamSynchronize(s); }
inline error_t stream_query(stream_t s) { return cudaStreamQuery(s); }
/// Whether `s` is a non-blocking stream (`cudaStreamNonBlocking`), which does not order with the
/// default stream.
inline error_t stream_is_non_blocking(stream_t s, bool* non_blocking) {
  unsigned flags = 0;
  const error_t e = cudaStreamGetFlags(s, &flags);
  *non_blocking = (flags & cudaStreamNonBlocking) != 0;
  return e;
}
inline error_t stream_wait_event(stream_t s, event_t e) { return cudaStreamWaitEvent(s, e, 0); }
/// An event without timing (cheaper to record).
inline error_t event_create(event_t* e) {
  return cudaEventCreateWithFlags(e, cudaEventDisableTiming);
}
/// An event that records time (for benchmarks' timers).
inline error_t event_create_timed(event_t* e) { return cudaEventCreate(e); }
/// Milliseconds between two recorded timed events.
inline error_t event_elapsed_ms(float* ms, event_t start, event_t stop) {
  return cudaEventElapsedTime(ms, start, stop);
}
inline error_t event_record(event_t e, stream_t s) { return cudaEventRecord(e, s); }
inline error_t event_synchronize(event_t e) { return cudaEventSynchronize(e); }
inline error_t event_destroy(event_t e) { return cudaEventDestroy(e); }

inline error_t memcpy(void* d, const void* s, std::size_t n, memcpy_kind k) {
  return cudaMemcpy(d, s, n, k);
}
inline error_t memcpy_async(void* d, const void* s, std::size_t n, memcpy_kind k, stream_t st) {
  return cudaMemcpyAsync(d, s, n, k, st);
}
inline error_t memset(void* p, int v, std::size_t n) { return cudaMemset(p, v, n); }
inline error_t memset_async(void* p, int v, std::size_t n, stream_t s) {
  return cudaMemsetAsync(p, v, n, s);
}

inline error_t malloc(void** p, std::size_t n) { return cudaMalloc(p, n); }
inline error_t free(void* p) { return cudaFree(p); }
inline error_t malloc_managed(void** p, std::size_t n) { return cudaMallocManaged(p, n); }
inline error_t free_managed(void* p) { return cudaFree(p); }
/// Pinned host memory every device may use (portable).
inline error_t host_alloc(void** p, std::size_t n) {
  return cudaHostAlloc(p, n, cudaHostAllocPortable);
}
inline error_t host_free(void* p) { return cudaFreeHost(p); }

/// Whether device `id` supports stream-ordered memory pools.
inline error_t memory_pools_supported(int id, bool* supported) {
  int v = 0;
  const error_t e = cudaDeviceGetAttribute(&v, cudaDevAttrMemoryPoolsSupported, id);
  *supported = v != 0;
  return e;
}
/// A new pool of device memory on device `id` (pinned allocations, no IPC handles).
inline error_t mem_pool_create(mem_pool_t* pool, int id) {
  cudaMemPoolProps props{};
  props.allocType = cudaMemAllocationTypePinned;
  props.handleTypes = cudaMemHandleTypeNone;
  props.location.type = cudaMemLocationTypeDevice;
  props.location.id = id;
  return cudaMemPoolCreate(pool, &props);
}
inline error_t mem_pool_set_release_threshold(mem_pool_t pool, std::uint64_t bytes) {
  return cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &bytes);
}
inline error_t mem_pool_reserved(mem_pool_t pool, std::uint64_t* bytes) {
  return cudaMemPoolGetAttribute(pool, cudaMemPoolAttrReservedMemCurrent, bytes);
}
inline error_t mem_pool_used(mem_pool_t pool, std::uint64_t* bytes) {
  return cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemCurrent, bytes);
}
inline error_t mem_pool_trim_to(mem_pool_t pool, std::size_t keep) {
  return cudaMemPoolTrimTo(pool, keep);
}
inline error_t malloc_from_pool_async(void** p, std::size_t n, mem_pool_t pool, stream_t s) {
  return cudaMallocFromPoolAsync(p, n, pool, s);
}
inline error_t free_async(void* p, stream_t s) { return cudaFreeAsync(p, s); }

/// What a pointer points to.
enum class memory_kind { pageable, host, device, managed };
/// The kind of memory at `p` and the device it belongs to (`cudaPointerGetAttributes`).
inline error_t pointer_info(const void* p, memory_kind* kind, int* device) {
  cudaPointerAttributes a{};
  const error_t e = cudaPointerGetAttributes(&a, p);
  *device = a.device;
  *kind = a.type == cudaMemoryTypeDevice    ? memory_kind::device
          : a.type == cudaMemoryTypeManaged ? memory_kind::managed
          : a.type == cudaMemoryTypeHost    ? memory_kind::host
                                            : memory_kind::pageable;
  return e;
}

/// The stream a DLPack consumer names with the protocol's code for CUDA (1: the legacy default
/// stream, 2: the per-thread default stream, > 2: a `cudaStream_t`).
inline stream_t dlpack_stream(std::intptr_t code) {
  return code == 1   ? cudaStreamLegacy
         : code == 2 ? cudaStreamPerThread
                     : reinterpret_cast<stream_t>(code);
}

}  // namespace tack::backend::gpu::api

#endif  // TACK_HAS_CUDA && __CUDACC__
