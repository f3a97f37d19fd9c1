// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
#pragma once
/// @file Backend tags and the dispatch templates each backend specializes.
///
/// A backend is an empty tag type. The public entry points (`parallel_for`, `parallel_reduce`,
/// `parallel_scan`) forward to `detail::parallel_for_impl<Backend>` and friends, which each backend
/// specializes in `exec/backend/<name>/` (as Kokkos specializes `Impl::ParallelFor` per execution
/// space). `exec/backend/all.hpp` includes the specializations this translation unit can use.

#include <tack/core/error.hpp>
#include <tack/core/index.hpp>
#include <tack/core/macros.hpp>
#include <tack/exec/threads.hpp>
#include <tack/memory/device.hpp>

#include <string>
#include <type_traits>

// What a kernel launch compiles to depends on the compiler: under the GPU compiler of the build's
// GPU backend (nvcc in a CUDA build, clang's HIP mode in a HIP build) a launch on that backend's
// device runs its kernels; elsewhere it is refused at run time. Templates whose bodies
// differ this way would be one entity with two definitions when a program mixes .cu and .cpp files
// (an ODR violation: the linker keeps either body). Everything that dispatches to a backend is
// therefore declared inside an inline namespace named after the compilation mode, so the versions
// have different symbols. Code that calls the dispatchers from templates (launch,
// algorithms) should open the same namespace.
/// 1 where this translation unit can run tack's GPU kernels: compiled by nvcc in a CUDA build, or
/// by clang in HIP mode (hipcc) in a HIP build.
#if TACK_HAS_CUDA && defined(__CUDACC__)
#define TACK_IMPL_GPU_KERNELS 1
#define TACK_IMPL_KERNEL_ABI_BEGIN inline namespace kernels_cuda {
#elif TACK_HAS_HIP && defined(__HIP__)
#define TACK_IMPL_GPU_KERNELS 1
#define TACK_IMPL_KERNEL_ABI_BEGIN inline namespace kernels_hip {
#else
#define TACK_IMPL_GPU_KERNELS 0
#define TACK_IMPL_KERNEL_ABI_BEGIN inline namespace kernels_host {
#endif
#define TACK_IMPL_KERNEL_ABI_END }

namespace tack {

/// Runs kernels on the calling thread, in index order. Always available.
/// `tack::parallel_for(tack::serial_backend{}, n, f);`
struct serial_backend {};

/// Runs kernels on a team of `tack::num_threads()` OpenMP threads (the CPU default when tack is
/// built with OpenMP). `tack::parallel_for(tack::openmp_backend{}, n, f);`
struct openmp_backend {};

/// Runs kernels on the current CUDA device. Only usable in code compiled by nvcc in a CUDA build.
/// `tack::parallel_for(tack::cuda_backend{}, n, f);`
struct cuda_backend {};

/// Runs kernels on the current HIP device (an AMD GPU). Only usable in code compiled by hipcc
/// (clang in HIP mode) in a HIP build. `tack::parallel_for(tack::hip_backend{}, n, f);`
struct hip_backend {};

/// True for the GPU backend tags (CUDA, HIP): their kernels run on a device, never on the CPU.
/// `if constexpr (tack::is_gpu_backend_v<B>) ...`
template <class B>
inline constexpr bool is_gpu_backend_v = std::is_same_v<std::remove_cvref_t<B>, cuda_backend> ||
                                         std::is_same_v<std::remove_cvref_t<B>, hip_backend>;

/// True for the backend tags. `static_assert(tack::is_backend_v<tack::serial_backend>);`
template <class B>
inline constexpr bool is_backend_v =
    std::is_same_v<std::remove_cvref_t<B>, serial_backend> ||
    std::is_same_v<std::remove_cvref_t<B>, openmp_backend> || is_gpu_backend_v<B>;

/// The device a backend's kernels run on by default: `tack::cuda(0)` for CUDA, `tack::hip(0)` for
/// HIP, the CPU otherwise. `auto d = tack::backend_device<tack::hip_backend>();  // hip:0`
template <class B>
constexpr device backend_device() noexcept {
  if constexpr (std::is_same_v<std::remove_cvref_t<B>, cuda_backend>) {
    return cuda(0);
  } else if constexpr (std::is_same_v<std::remove_cvref_t<B>, hip_backend>) {
    return hip(0);
  } else {
    return cpu();
  }
}

/// A backend tag (constrains the overloads whose first argument names the backend). Not named
/// `backend`: that is the namespace of backend internals (`tack::backend::cuda`).
template <class B>
concept backend_tag = is_backend_v<B>;

TACK_IMPL_KERNEL_ABI_BEGIN
/// Whether this translation unit can run kernels on backend `B`: serial always, OpenMP when tack is
/// built with it, CUDA in a CUDA build and only in code compiled by nvcc, HIP in a HIP build and
/// only in code compiled by hipcc (the kernels are templates that only those compilers compile).
/// `if constexpr (tack::backend_available_v<tack::openmp_backend>) ...`
template <class B>
inline constexpr bool backend_available_v = std::is_same_v<B, serial_backend> ||
                                            (std::is_same_v<B, openmp_backend> &&
                                             TACK_HAS_OPENMP) ||
#if TACK_HAS_CUDA && defined(__CUDACC__)
                                            std::is_same_v<B, cuda_backend>;
#elif TACK_HAS_HIP && defined(__HIP__)
                                            std::is_same_v<B, hip_backend>;
#else
                                            false;
#endif
TACK_IMPL_KERNEL_ABI_END

namespace detail {

/// `parallel_for_impl<B>::run(n, f)` calls `f(i)` for `i` in `[0, n)`, `n > 0`;
/// `run(tack::range<R>, f)` calls `f(i, j[, k])` over the range. Specialized per backend.
template <class Backend>
struct parallel_for_impl;

/// `parallel_reduce_impl<B>::run(n, f, op)` returns the combination of `f(0) ... f(n - 1)` with
/// `op`, `n > 0`, in an order fixed by `n` alone. Specialized per backend.
template <class Backend>
struct parallel_reduce_impl;

/// `parallel_scan_impl<B>::run(n, init, value, store, op)` calls `store(i, exclusive, inclusive)`
/// for every `i` and returns the total, `n > 0`. Specialized per backend.
template <class Backend>
struct parallel_scan_impl;

/// `op: n = -3 is negative; the number of iterations must be >= 0` as a `value_error`.
[[noreturn]] inline void throw_negative_count(const char* op, index_t n) {
  throw value_error(std::string(op) + ": n = " + std::to_string(n) +
                    " is negative; the number of iterations must be >= 0");
}

TACK_IMPL_KERNEL_ABI_BEGIN
/// The compile-time refusal of a backend this translation unit cannot use. Callers fence the
/// backend's use with `if constexpr (backend_available_v<Backend>)` so that one error prints.
template <class Backend>
constexpr void require_backend() {
  if constexpr (std::is_same_v<Backend, cuda_backend> && !TACK_HAS_CUDA) {
    static_assert(sizeof(Backend) == 0,
                  "tack: tack::cuda_backend needs a CUDA build of tack; configure with "
                  "TACK_ENABLE_CUDA=ON, or use tack::serial_backend / tack::openmp_backend");
  } else if constexpr (std::is_same_v<Backend, cuda_backend> && !backend_available_v<Backend>) {
    static_assert(sizeof(Backend) == 0,
                  "tack: tack::cuda_backend kernels must be compiled by nvcc; compile this file "
                  "as CUDA (a .cu file, or set_source_files_properties(... LANGUAGE CUDA))");
  } else if constexpr (std::is_same_v<Backend, hip_backend> && !TACK_HAS_HIP) {
    static_assert(sizeof(Backend) == 0,
                  "tack: tack::hip_backend needs a HIP build of tack; configure with "
                  "TACK_ENABLE_HIP=ON, or use tack::serial_backend / tack::openmp_backend");
  } else if constexpr (std::is_same_v<Backend, hip_backend> && !backend_available_v<Backend>) {
    static_assert(sizeof(Backend) == 0,
                  "tack: tack::hip_backend kernels must be compiled by hipcc; compile this file "
                  "as HIP (a .hip file, or set_source_files_properties(... LANGUAGE HIP))");
  } else if constexpr (std::is_same_v<Backend, openmp_backend> && !TACK_HAS_OPENMP) {
    static_assert(sizeof(Backend) == 0,
                  "tack: tack::openmp_backend needs tack built with OpenMP "
                  "(TACK_ENABLE_OPENMP=ON); use tack::serial_backend");
  }
}

TACK_IMPL_KERNEL_ABI_END

}  // namespace detail
}  // namespace tack
