// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
#pragma once
/// @file The GPU runtime calls and device kernels the host library needs, behind plain C++
/// declarations so that host translation units never include a GPU vendor's headers. A build has
/// one GPU backend at most (CUDA or HIP, `gpu_device_kind`); these functions reach it. Defined by
/// src/gpu/*.cpp, compiled by nvcc (CUDA) or hipcc (HIP) through the name layer of
/// exec/backend/<vendor>/api.hpp, when tack is built with a GPU backend, and by
/// src/gpu/stubs.cpp (which report "no GPU backend") otherwise; the table of current streams is in
/// src/exec/stream.cpp. Every function that touches device memory makes the device it names
/// current for the call. Copies, fills and kernels go to the thread's current stream of that
/// device (`tack::stream_scope`): on the default stream they synchronize before they return
/// (tack's operations look synchronous); on a `tack::stream` only those that touch host memory
/// wait, and only for that stream (tack/exec/stream.hpp). Device ordinals are those of the build's
/// GPU kind.

#include <tack/memory/device.hpp>
#include <tack/types/scalar.hpp>

#include <cstddef>
#include <cstdint>
#include <string>

namespace tack::detail {

struct component_span;

/// The kind of device the build's GPU backend drives: `device_kind::cuda`, `device_kind::hip`, or
/// `device_kind::cpu` in a build without a GPU backend.
inline constexpr device_kind gpu_device_kind = TACK_HAS_CUDA  ? device_kind::cuda
                                               : TACK_HAS_HIP ? device_kind::hip
                                                              : device_kind::cpu;

/// The vendor's name of the build's GPU backend for messages: "CUDA", "HIP" or "no GPU backend".
inline constexpr const char* gpu_backend_name = TACK_HAS_CUDA  ? "CUDA"
                                                : TACK_HAS_HIP ? "HIP"
                                                               : "no GPU backend";

/// The first GPU of the build's GPU backend: what device or unified memory asked of the CPU, or of
/// a `memory_space::device` array type, lives on (`cuda:0` in a build without a GPU backend, so
/// that messages name a GPU). `auto d = tack::detail::first_gpu();`
constexpr device first_gpu() noexcept {
  return device(gpu_device_kind == device_kind::cpu ? device_kind::cuda : gpu_device_kind, 0);
}

/// Why GPU device `d` is not available, for the end of a `device_error`: the build has no backend
/// for its kind (saying which option turns it on), or the driver reports fewer devices.
/// `throw device_error(op + ": " + d.str() + " is not available" + gpu_unavailable_reason(d));`
std::string gpu_unavailable_reason(const device& d);

/// Number of devices the build's GPU driver reports (0 without a GPU backend or a driver).
int gpu_device_count() noexcept;

/// The current stream of GPU device `device_id` on this thread (a `cudaStream_t` / `hipStream_t`
/// as an integer; 0: the default stream, where tack works synchronously). Set by
/// `tack::stream_scope`.
std::intptr_t current_gpu_stream(int device_id) noexcept;
/// Whether any device has a current stream other than the default one on this thread.
bool any_current_gpu_stream() noexcept;
/// Makes `stream` the current stream of `device_id` on this thread; returns the previous one.
std::intptr_t exchange_current_gpu_stream(int device_id, std::intptr_t stream);

/// A new blocking stream on `device_id` (`cudaStreamCreate` / `hipStreamCreate`), its destruction
/// (never throws; the driver releases it once its work is done), waiting for it, and whether its
/// work is done. `what` names the stream in a `device_error` (a kernel that failed on the device
/// included).
std::intptr_t gpu_stream_create(int device_id);
void gpu_stream_destroy(int device_id, std::intptr_t stream) noexcept;
void gpu_stream_synchronize(int device_id, std::intptr_t stream, const char* what);
bool gpu_stream_idle(int device_id, std::intptr_t stream, const char* what);
/// Waits for all work on device `device_id` (`cudaDeviceSynchronize`); `what` names the caller.
void gpu_synchronize_device(int device_id, const char* what);

/// Device memory from device `device_id`'s stream-ordered pool (`cudaMallocFromPoolAsync` /
/// `hipMallocFromPoolAsync` on the default stream, from a memory pool of tack's with its release
/// threshold raised, so a freed block is reused by the next allocation without a device
/// synchronization); `cudaMalloc` / `hipMalloc` where the device has no memory pools. Managed
/// memory (`cudaMallocManaged`) and pinned host memory (`cudaHostAlloc` / `hipHostMalloc`,
/// portable). Failures: `out_of_memory` naming the size and the device, `device_error` naming the
/// call, the file and the vendor's message.
void* gpu_malloc_device(std::size_t bytes, int device_id);
void* gpu_malloc_unified(std::size_t bytes, int device_id);
void* gpu_malloc_pinned(std::size_t bytes);
/// The matching frees; never throw (they run in destructors). A device block goes back to the
/// pool in stream order (`cudaFreeAsync`).
void gpu_free_device(void* p, int device_id) noexcept;
void gpu_free_unified(void* p, int device_id) noexcept;
void gpu_free_pinned(void* p) noexcept;

/// Bytes a device's pool keeps reserved once its blocks are freed (the release threshold).
void gpu_set_pool_release_threshold(int device_id, std::uint64_t bytes);
/// Bytes a device's pool holds from the driver (`...MemPoolAttrReservedMemCurrent`) and hands out
/// (`...MemPoolAttrUsedMemCurrent`); 0 without memory pools.
std::size_t gpu_pool_reserved_bytes(int device_id);
std::size_t gpu_pool_used_bytes(int device_id);
/// Returns a device pool's unused memory to the driver, keeping at least `keep_bytes` reserved.
void gpu_trim_pool(int device_id, std::size_t keep_bytes);

/// The kinds of copy `gpu_memcpy` performs; `any` lets the driver infer from the pointers (UVA).
enum class gpu_copy_kind { host_to_device, device_to_host, device_to_device, any };
/// Synchronous copy of `bytes` bytes; throws device_error naming the vendor's error. A host <->
/// device copy of pageable host memory of at least `staging_plan::min_bytes` goes through two
/// pinned staging buffers in chunks (`staging_plan`), the host copy of one chunk overlapping the
/// DMA of the previous one.
void gpu_memcpy(void* dst, const void* src, std::size_t bytes, gpu_copy_kind kind);
/// Starts an asynchronous copy on the current stream of the current device.
void gpu_memcpy_async(void* dst, const void* src, std::size_t bytes, gpu_copy_kind kind);
/// Sets `bytes` bytes at `p` (device memory) to `value`.
void gpu_memset(void* p, int value, std::size_t bytes);
/// Waits for all work on the current device; throws device_error.
void gpu_synchronize();
/// Whether `p` is ordinary pageable host memory (not pinned, registered, managed or device).
bool gpu_host_pageable(const void* p);

/// Fills `count` elements of `size` bytes at `dst` (device memory) with the pattern at `value`
/// (host memory), on the device.
void gpu_fill(void* dst, const void* value, std::size_t size, std::size_t count);
/// Device-to-device copy where the ranges may overlap (memmove's result), through device scratch.
void gpu_memmove(void* dst, const void* src, std::size_t bytes);
/// The component-wise copy of `copy_components` with both sides in memory the device reaches.
void gpu_copy_components(const component_span& dst, const component_span& src, std::size_t n);

/// Sorts `n` scalars of kind `kind` at `keys` (device memory of `device_id`) ascending, NaNs last:
/// the vendor's radix sort (CUB with CUDA, rocPRIM with HIP), after moving NaNs to the end for
/// floating-point keys. With `permutation` non-null (`n` int64 in device memory), the sort is
/// stable and `permutation[i]` receives the original position of the key now at `i`.
void gpu_sort(void* keys, std::size_t n, scalar_kind kind, int device_id,
              std::int64_t* permutation);
/// Reorders `n` elements of `element_bytes` bytes at `data` (device memory) so that element `i`
/// becomes the old element `permutation[i]`.
void gpu_permute(void* data, std::size_t element_bytes, const std::int64_t* permutation,
                 std::size_t n, int device_id);

/// The DLPack protocol's producer side: makes the consumer's `stream` wait for the work tack queued
/// on device `device_id` (an event recorded on the default stream). `stream` is the protocol's
/// code for the build's GPU kind: CUDA: 1 the legacy default stream, 2 the per-thread default
/// stream, > 2 a `cudaStream_t`; ROCm: 0 the default stream, > 2 a `hipStream_t`.
void gpu_stream_wait_for_device(int device_id, std::intptr_t stream);

}  // namespace tack::detail
