// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
#pragma once
/// @file The CUDA runtime calls and device kernels the host library needs, behind plain C++
/// declarations so that host translation units never include CUDA headers. Defined in
/// src/cuda/*.cu when tack is built with CUDA, and by src/cuda/stubs.cpp (which report "no CUDA")
/// otherwise; the table of current streams is in src/exec/stream.cpp. Every function that touches
/// device memory makes the device it names current for the call. Copies, fills and kernels go to
/// the thread's current stream of that device (`tack::stream_scope`): on the legacy default stream
/// they synchronize before they return (tack's operations look synchronous); on a `tack::stream`
/// only those that touch host memory wait, and only for that stream (tack/exec/stream.hpp).

#include <tack/types/scalar.hpp>

#include <cstddef>
#include <cstdint>

namespace tack::detail {

struct component_span;

/// Number of CUDA devices the driver reports (0 without CUDA or without a driver).
int cuda_device_count() noexcept;

/// The current stream of CUDA device `device_id` on this thread (a `cudaStream_t` as an integer;
/// 0: the legacy default stream, where tack works synchronously). Set by `tack::stream_scope`.
std::intptr_t current_cuda_stream(int device_id) noexcept;
/// Whether any device has a current stream other than the legacy default one on this thread.
bool any_current_cuda_stream() noexcept;
/// Makes `stream` the current stream of `device_id` on this thread; returns the previous one.
std::intptr_t exchange_current_cuda_stream(int device_id, std::intptr_t stream);

/// A new blocking stream on `device_id` (`cudaStreamCreate`), its destruction (never throws; the
/// driver releases it once its work is done), waiting for it, and whether its work is done.
/// `what` names the stream in a `device_error` (a kernel that failed on the device included).
std::intptr_t cuda_stream_create(int device_id);
void cuda_stream_destroy(int device_id, std::intptr_t stream) noexcept;
void cuda_stream_synchronize(int device_id, std::intptr_t stream, const char* what);
bool cuda_stream_idle(int device_id, std::intptr_t stream, const char* what);
/// Waits for all work on device `device_id` (`cudaDeviceSynchronize`); `what` names the caller.
void cuda_synchronize_device(int device_id, const char* what);

/// Device memory from device `device_id`'s stream-ordered pool (`cudaMallocAsync` on the legacy
/// default stream, from a memory pool of tack's with its release threshold raised, so a
/// freed block is reused by the next allocation without a device synchronization); `cudaMalloc`
/// where the device has no memory pools. Managed memory (`cudaMallocManaged`) and pinned host
/// memory (`cudaHostAlloc`, portable). Failures: `out_of_memory` naming the size and the device,
/// `device_error` naming the call, the file and the CUDA message.
void* cuda_malloc_device(std::size_t bytes, int device_id);
void* cuda_malloc_unified(std::size_t bytes, int device_id);
void* cuda_malloc_pinned(std::size_t bytes);
/// The matching frees; never throw (they run in destructors). A device block goes back to the
/// pool in stream order (`cudaFreeAsync`).
void cuda_free_device(void* p, int device_id) noexcept;
void cuda_free_unified(void* p, int device_id) noexcept;
void cuda_free_pinned(void* p) noexcept;

/// Bytes a device's pool keeps reserved once its blocks are freed (the release threshold).
void cuda_set_pool_release_threshold(int device_id, std::uint64_t bytes);
/// Bytes a device's pool holds from the driver (`cudaMemPoolAttrReservedMemCurrent`) and hands out
/// (`cudaMemPoolAttrUsedMemCurrent`); 0 without memory pools.
std::size_t cuda_pool_reserved_bytes(int device_id);
std::size_t cuda_pool_used_bytes(int device_id);
/// Returns a device pool's unused memory to the driver, keeping at least `keep_bytes` reserved.
void cuda_trim_pool(int device_id, std::size_t keep_bytes);

/// The kinds of copy `cuda_memcpy` performs; `any` lets the driver infer from the pointers (UVA).
enum class cuda_copy_kind { host_to_device, device_to_host, device_to_device, any };
/// Synchronous copy of `bytes` bytes; throws device_error naming the CUDA error. A host <-> device
/// copy of pageable host memory of at least `staging_plan::min_bytes` goes through two pinned
/// staging buffers in chunks (`staging_plan`), the host copy of one chunk overlapping the DMA of
/// the previous one.
void cuda_memcpy(void* dst, const void* src, std::size_t bytes, cuda_copy_kind kind);
/// Starts an asynchronous copy on the current stream of the current device.
void cuda_memcpy_async(void* dst, const void* src, std::size_t bytes, cuda_copy_kind kind);
/// Sets `bytes` bytes at `p` (device memory) to `value`.
void cuda_memset(void* p, int value, std::size_t bytes);
/// Waits for all work on the current device (cudaDeviceSynchronize); throws device_error.
void cuda_synchronize();
/// Whether `p` is ordinary pageable host memory (not pinned, registered, managed or device).
bool cuda_host_pageable(const void* p);

/// Fills `count` elements of `size` bytes at `dst` (device memory) with the pattern at `value`
/// (host memory), on the device.
void cuda_fill(void* dst, const void* value, std::size_t size, std::size_t count);
/// Device-to-device copy where the ranges may overlap (memmove's result), through device scratch.
void cuda_memmove(void* dst, const void* src, std::size_t bytes);
/// The component-wise copy of `copy_components` with both sides in memory the device reaches.
void cuda_copy_components(const component_span& dst, const component_span& src, std::size_t n);

/// Sorts `n` scalars of kind `kind` at `keys` (device memory of `device_id`) ascending, NaNs last:
/// CUB's radix sort (after moving NaNs to the end for floating-point keys). With `permutation`
/// non-null (`n` int64 in device memory), the sort is stable and `permutation[i]` receives the
/// original position of the key now at `i`.
void cuda_sort(void* keys, std::size_t n, scalar_kind kind, int device_id,
               std::int64_t* permutation);
/// Reorders `n` elements of `element_bytes` bytes at `data` (device memory) so that element `i`
/// becomes the old element `permutation[i]`.
void cuda_permute(void* data, std::size_t element_bytes, const std::int64_t* permutation,
                  std::size_t n, int device_id);

/// The DLPack protocol's producer side: makes the consumer's `stream` (1: the legacy default
/// stream, 2: the per-thread default stream, > 2: a `cudaStream_t`) wait for the work tack queued
/// on device `device_id` (an event recorded on the legacy default stream).
void cuda_stream_wait_for_device(int device_id, std::intptr_t stream);

}  // namespace tack::detail
