// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
#pragma once
/// @file The few CUDA runtime calls the host library needs, behind plain C++ declarations so that
/// host translation units never include CUDA headers. Defined in src/cuda/runtime.cu when tack is
/// built with CUDA, and by src/cuda_stubs.cpp (which report "no CUDA") otherwise.

#include <cstddef>

namespace tack::detail {

/// Number of CUDA devices the driver reports (0 without CUDA or without a driver).
int cuda_device_count() noexcept;

/// cudaMalloc / cudaMallocManaged / cudaMallocHost; throw out_of_memory or device_error.
void* cuda_malloc_device(std::size_t bytes, int device_id);
void* cuda_malloc_unified(std::size_t bytes, int device_id);
void* cuda_malloc_pinned(std::size_t bytes);
/// The matching frees; never throw (they run in destructors).
void cuda_free_device(void* p, int device_id) noexcept;
void cuda_free_unified(void* p, int device_id) noexcept;
void cuda_free_pinned(void* p) noexcept;

/// The kinds of copy `cuda_memcpy` performs; `any` lets the driver infer from the pointers (UVA).
enum class cuda_copy_kind { host_to_device, device_to_host, device_to_device, any };
/// Synchronous copy of `bytes` bytes; throws device_error naming the CUDA error.
void cuda_memcpy(void* dst, const void* src, std::size_t bytes, cuda_copy_kind kind);
/// Starts an asynchronous copy on the default stream.
void cuda_memcpy_async(void* dst, const void* src, std::size_t bytes, cuda_copy_kind kind);
/// Sets `bytes` bytes at `p` (device memory) to `value`.
void cuda_memset(void* p, int value, std::size_t bytes);
/// Waits for all work on the current device (cudaDeviceSynchronize); throws device_error.
void cuda_synchronize();

}  // namespace tack::detail
