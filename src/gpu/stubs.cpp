// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
// A build without a GPU backend: every GPU entry point (tack/detail/gpu_runtime.hpp) reports that
// no GPU backend is part of this build. Compiled by the host compiler in place of src/gpu/*.cpp.
#include <tack/config.hpp>

#if !TACK_HAS_CUDA && !TACK_HAS_HIP
#include <tack/core/error.hpp>
#include <tack/detail/gpu_runtime.hpp>

#include <string>

namespace tack::detail {
namespace {
[[noreturn]] void no_gpu(const char* what) {
  throw device_error(std::string("tack: ") + what +
                     " needs a GPU backend, but tack was built without one (configure with "
                     "TACK_ENABLE_CUDA=ON on a machine with nvcc, or TACK_ENABLE_HIP=ON on a "
                     "machine with hipcc)");
}
}  // namespace

int gpu_device_count() noexcept { return 0; }
void* gpu_malloc_device(std::size_t, int) { no_gpu("device memory allocation"); }
void* gpu_malloc_unified(std::size_t, int) { no_gpu("unified memory allocation"); }
void* gpu_malloc_pinned(std::size_t) { no_gpu("pinned memory allocation"); }
void gpu_free_device(void*, int) noexcept {}
void gpu_free_unified(void*, int) noexcept {}
void gpu_free_pinned(void*) noexcept {}
void gpu_set_pool_release_threshold(int, std::uint64_t) { no_gpu("a device memory pool"); }
std::size_t gpu_pool_reserved_bytes(int) { no_gpu("a device memory pool"); }
std::size_t gpu_pool_used_bytes(int) { no_gpu("a device memory pool"); }
void gpu_trim_pool(int, std::size_t) { no_gpu("a device memory pool"); }
void gpu_memcpy(void*, const void*, std::size_t, gpu_copy_kind) { no_gpu("a device copy"); }
void gpu_memcpy_async(void*, const void*, std::size_t, gpu_copy_kind) { no_gpu("a device copy"); }
void gpu_memset(void*, int, std::size_t) { no_gpu("a device fill"); }
void gpu_synchronize() {}
bool gpu_host_pageable(const void*) { return true; }
void gpu_fill(void*, const void*, std::size_t, std::size_t) { no_gpu("a device fill"); }
void gpu_memmove(void*, const void*, std::size_t) { no_gpu("a device copy"); }
void gpu_copy_components(const component_span&, const component_span&, std::size_t) {
  no_gpu("a device copy across layouts or scalar types");
}
void gpu_sort(void*, std::size_t, scalar_kind, int, std::int64_t*) { no_gpu("a device sort"); }
void gpu_permute(void*, std::size_t, const std::int64_t*, std::size_t, int) {
  no_gpu("a device permutation");
}
void gpu_stream_wait_for_device(int, std::intptr_t) { no_gpu("a DLPack stream hand-over"); }
std::intptr_t gpu_stream_create(int) { no_gpu("a GPU stream"); }
void gpu_stream_destroy(int, std::intptr_t) noexcept {}
void gpu_stream_synchronize(int, std::intptr_t, const char*) { no_gpu("a GPU stream"); }
bool gpu_stream_idle(int, std::intptr_t, const char*) { no_gpu("a GPU stream"); }
void gpu_synchronize_device(int, const char*) {}
}  // namespace tack::detail
#endif
