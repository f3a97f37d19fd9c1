// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
// A build without CUDA: every CUDA entry point reports that CUDA is not part of this build.
#include <tack/config.hpp>

#if !TACK_HAS_CUDA
#include <tack/core/error.hpp>
#include <tack/detail/cuda_runtime.hpp>

#include <string>

namespace tack::detail {
namespace {
[[noreturn]] void no_cuda(const char* what) {
  throw device_error(std::string("tack: ") + what +
                     " needs CUDA, but tack was built without it (configure with "
                     "TACK_ENABLE_CUDA=ON on a machine with nvcc)");
}
}  // namespace

int cuda_device_count() noexcept { return 0; }
void* cuda_malloc_device(std::size_t, int) { no_cuda("device memory allocation"); }
void* cuda_malloc_unified(std::size_t, int) { no_cuda("unified memory allocation"); }
void* cuda_malloc_pinned(std::size_t) { no_cuda("pinned memory allocation"); }
void cuda_free_device(void*, int) noexcept {}
void cuda_free_unified(void*, int) noexcept {}
void cuda_free_pinned(void*) noexcept {}
void cuda_set_pool_release_threshold(int, std::uint64_t) { no_cuda("a device memory pool"); }
std::size_t cuda_pool_reserved_bytes(int) { no_cuda("a device memory pool"); }
std::size_t cuda_pool_used_bytes(int) { no_cuda("a device memory pool"); }
void cuda_trim_pool(int, std::size_t) { no_cuda("a device memory pool"); }
void cuda_memcpy(void*, const void*, std::size_t, cuda_copy_kind) { no_cuda("a device copy"); }
void cuda_memcpy_async(void*, const void*, std::size_t, cuda_copy_kind) {
  no_cuda("a device copy");
}
void cuda_memset(void*, int, std::size_t) { no_cuda("a device fill"); }
void cuda_synchronize() {}
bool cuda_host_pageable(const void*) { return true; }
void cuda_fill(void*, const void*, std::size_t, std::size_t) { no_cuda("a device fill"); }
void cuda_memmove(void*, const void*, std::size_t) { no_cuda("a device copy"); }
void cuda_copy_components(const component_span&, const component_span&, std::size_t) {
  no_cuda("a device copy across layouts or scalar types");
}
void cuda_sort(void*, std::size_t, scalar_kind, int, std::int64_t*) { no_cuda("a device sort"); }
void cuda_permute(void*, std::size_t, const std::int64_t*, std::size_t, int) {
  no_cuda("a device permutation");
}
void cuda_stream_wait_for_device(int, std::intptr_t) { no_cuda("a DLPack stream hand-over"); }
std::intptr_t cuda_stream_create(int) { no_cuda("a CUDA stream"); }
void cuda_stream_destroy(int, std::intptr_t) noexcept {}
void cuda_stream_synchronize(int, std::intptr_t, const char*) { no_cuda("a CUDA stream"); }
bool cuda_stream_idle(int, std::intptr_t, const char*) { no_cuda("a CUDA stream"); }
void cuda_synchronize_device(int, const char*) {}
}  // namespace tack::detail
#endif
