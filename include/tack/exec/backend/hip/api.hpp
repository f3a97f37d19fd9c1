// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
#pragma once
/// @file The HIP name layer: every HIP runtime type, constant and call the shared GPU code uses
/// (exec/backend/gpu/ and src/gpu/), under the vendor-neutral names of exec/backend/cuda/api.hpp
/// in `tack::backend::gpu::api`. Only for code compiled by hipcc (clang in HIP mode) in a HIP
/// build (exec/backend/gpu/api.hpp picks the layer). Written against ROCm 5.2 (Debian 12's hipcc).

#include <tack/config.hpp>

#if TACK_HAS_HIP && defined(__HIP__)

#include <tack/exec/backend.hpp>
#include <tack/memory/device.hpp>

#include <hip/hip_runtime.h>

#include <cstddef>
#include <cstdint>

/// A HIP runtime call's name for messages: `TACK_IMPL_GPU_NAME("Memcpy")` is `"hipMemcpy"`.
#define TACK_IMPL_GPU_NAME(suffix) "hip" suffix
/// The vendor's name as a string literal, for messages built at compile time.
#define TACK_IMPL_GPU_VENDOR "HIP"

namespace tack::backend::gpu::api {

/// The backend tag, device kind and vendor name of this layer. `api::kind == device_kind::hip`
using backend_tag = tack::hip_backend;
inline constexpr device_kind kind = device_kind::hip;
inline constexpr const char* vendor = "HIP";
/// The compiler that builds this backend's kernels, for messages.
inline constexpr const char* compiler = "hipcc";

using error_t = hipError_t;
using stream_t = hipStream_t;
using event_t = hipEvent_t;
using mem_pool_t = hipMemPool_t;
using memcpy_kind = hipMemcpyKind;

inline constexpr error_t success = hipSuccess;
inline constexpr error_t error_memory_allocation = hipErrorOutOfMemory;
inline constexpr error_t error_not_ready = hipErrorNotReady;
inline constexpr memcpy_kind host_to_device = hipMemcpyHostToDevice;
inline constexpr memcpy_kind device_to_host = hipMemcpyDeviceToHost;
inline constexpr memcpy_kind device_to_device = hipMemcpyDeviceToDevice;
inline constexpr memcpy_kind memcpy_default = hipMemcpyDefault;
/// The stream tack works on when no `tack::stream` is current: the null stream, which every
/// blocking stream waits for and is waited for by (HIP's null stream has the legacy semantics).
inline const stream_t default_stream = nullptr;
inline const char* const host_alloc_name = "hipHostMalloc";

inline error_t get_last_error() { return hipGetLastError(); }
inline const char* error_name(error_t e) { return hipGetErrorName(e); }
inline const char* error_string(error_t e) { return hipGetErrorString(e); }

inline error_t get_device_count(int* n) { return hipGetDeviceCount(n); }
inline error_t get_device(int* id) { return hipGetDevice(id); }
inline error_t set_device(int id) { return hipSetDevice(id); }
inline error_t device_synchronize() { return hipDeviceSynchronize(); }

inline error_t stream_create(stream_t* s) { return hipStreamCreate(s); }
/// A stream that does not order with the default stream (as PyTorch's and CuPy's are).
inline error_t stream_create_non_blocking(stream_t* s) {
  return hipStreamCreateWithFlags(s, hipStreamNonBlocking);
}
inline error_t stream_destroy(stream_t s) { return hipStreamDestroy(s); }
inline error_t stream_synchronize(stream_t s) { return hipStreamSynchronize(s); }
inline error_t stream_query(stream_t s) { return hipStreamQuery(s); }
/// Whether `s` is a non-blocking stream (`hipStreamNonBlocking`), which does not order with the
/// null stream.
inline error_t stream_is_non_blocking(stream_t s, bool* non_blocking) {
  unsigned flags = 0;
  const error_t e = hipStreamGetFlags(s, &flags);
  *non_blocking = (flags & hipStreamNonBlocking) != 0;
  return e;
}
inline error_t stream_wait_event(stream_t s, event_t e) { return hipStreamWaitEvent(s, e, 0); }
/// An event without timing (cheaper to record).
inline error_t event_create(event_t* e) {
  return hipEventCreateWithFlags(e, hipEventDisableTiming);
}
/// An event that records time (for benchmarks' timers).
inline error_t event_create_timed(event_t* e) { return hipEventCreate(e); }
/// Milliseconds between two recorded timed events.
inline error_t event_elapsed_ms(float* ms, event_t start, event_t stop) {
  return hipEventElapsedTime(ms, start, stop);
}
inline error_t event_record(event_t e, stream_t s) { return hipEventRecord(e, s); }
inline error_t event_synchronize(event_t e) { return hipEventSynchronize(e); }
inline error_t event_destroy(event_t e) { return hipEventDestroy(e); }

inline error_t memcpy(void* d, const void* s, std::size_t n, memcpy_kind k) {
  return hipMemcpy(d, s, n, k);
}
inline error_t memcpy_async(void* d, const void* s, std::size_t n, memcpy_kind k, stream_t st) {
  return hipMemcpyAsync(d, s, n, k, st);
}
inline error_t memset(void* p, int v, std::size_t n) { return hipMemset(p, v, n); }
inline error_t memset_async(void* p, int v, std::size_t n, stream_t s) {
  return hipMemsetAsync(p, v, n, s);
}

inline error_t malloc(void** p, std::size_t n) { return hipMalloc(p, n); }
inline error_t free(void* p) { return hipFree(p); }
inline error_t malloc_managed(void** p, std::size_t n) {
  return hipMallocManaged(p, n, hipMemAttachGlobal);
}
inline error_t free_managed(void* p) { return hipFree(p); }
/// Pinned host memory every device may use (portable).
inline error_t host_alloc(void** p, std::size_t n) {
  return hipHostMalloc(p, n, hipHostMallocPortable);
}
inline error_t host_free(void* p) { return hipHostFree(p); }

/// Whether device `id` supports stream-ordered memory pools.
inline error_t memory_pools_supported(int id, bool* supported) {
  int v = 0;
  const error_t e = hipDeviceGetAttribute(&v, hipDeviceAttributeMemoryPoolsSupported, id);
  *supported = v != 0;
  return e;
}
/// A new pool of device memory on device `id` (pinned allocations, no IPC handles).
inline error_t mem_pool_create(mem_pool_t* pool, int id) {
  hipMemPoolProps props{};
  props.allocType = hipMemAllocationTypePinned;
  props.handleTypes = hipMemHandleTypeNone;
  props.location.type = hipMemLocationTypeDevice;
  props.location.id = id;
  return hipMemPoolCreate(pool, &props);
}
inline error_t mem_pool_set_release_threshold(mem_pool_t pool, std::uint64_t bytes) {
  return hipMemPoolSetAttribute(pool, hipMemPoolAttrReleaseThreshold, &bytes);
}
inline error_t mem_pool_reserved(mem_pool_t pool, std::uint64_t* bytes) {
  return hipMemPoolGetAttribute(pool, hipMemPoolAttrReservedMemCurrent, bytes);
}
inline error_t mem_pool_used(mem_pool_t pool, std::uint64_t* bytes) {
  return hipMemPoolGetAttribute(pool, hipMemPoolAttrUsedMemCurrent, bytes);
}
inline error_t mem_pool_trim_to(mem_pool_t pool, std::size_t keep) {
  return hipMemPoolTrimTo(pool, keep);
}
inline error_t malloc_from_pool_async(void** p, std::size_t n, mem_pool_t pool, stream_t s) {
  return hipMallocFromPoolAsync(p, n, pool, s);
}
inline error_t free_async(void* p, stream_t s) { return hipFreeAsync(p, s); }

/// What a pointer points to.
enum class memory_kind { pageable, host, device, managed };
/// The kind of memory at `p` and the device it belongs to (`hipPointerGetAttributes`). ROCm 5.2
/// answers hipErrorInvalidValue for memory it does not know: ordinary pageable host memory, which
/// this reports as success.
inline error_t pointer_info(const void* p, memory_kind* kind, int* device) {
  hipPointerAttribute_t a{};
  const error_t e = hipPointerGetAttributes(&a, p);
  *device = a.device;
  if (e == hipErrorInvalidValue) {
    (void)hipGetLastError();
    *kind = memory_kind::pageable;
    *device = 0;
    return hipSuccess;
  }
  *kind = a.isManaged                           ? memory_kind::managed
          : a.memoryType == hipMemoryTypeDevice ? memory_kind::device
          : a.memoryType == hipMemoryTypeHost   ? memory_kind::host
                                                : memory_kind::pageable;
  return e;
}

/// The stream a DLPack consumer names with the protocol's code for ROCm (0: the default stream,
/// > 2: a `hipStream_t`; 1 and 2 are refused before this is called).
inline stream_t dlpack_stream(std::intptr_t code) {
  return code == 0 ? nullptr : reinterpret_cast<stream_t>(code);
}

}  // namespace tack::backend::gpu::api

#endif  // TACK_HAS_HIP && __HIP__
