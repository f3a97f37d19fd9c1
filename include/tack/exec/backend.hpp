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

// What a kernel launch compiles to depends on the compiler: under nvcc in a CUDA build a launch on
// a CUDA device runs the CUDA backend; elsewhere it is refused at run time. Templates whose bodies
// differ this way would be one entity with two definitions when a program mixes .cu and .cpp files
// (an ODR violation: the linker keeps either body). Everything that dispatches to a backend is
// therefore declared inside an inline namespace named after the compilation mode, so the two
// versions have different symbols. Code that calls the dispatchers from templates (launch,
// algorithms) should open the same namespace.
#if TACK_HAS_CUDA && defined(__CUDACC__)
#define TACK_IMPL_KERNEL_ABI_BEGIN inline namespace kernels_cuda {
#else
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

/// True for the three backend tags. `static_assert(tack::is_backend_v<tack::serial_backend>);`
template <class B>
inline constexpr bool is_backend_v = std::is_same_v<std::remove_cvref_t<B>, serial_backend> ||
                                     std::is_same_v<std::remove_cvref_t<B>, openmp_backend> ||
                                     std::is_same_v<std::remove_cvref_t<B>, cuda_backend>;

/// A backend tag (constrains the overloads whose first argument names the backend). Not named
/// `backend`: that is the namespace of backend internals (`tack::backend::cuda`).
template <class B>
concept backend_tag = is_backend_v<B>;

TACK_IMPL_KERNEL_ABI_BEGIN
/// Whether this translation unit can run kernels on backend `B`: serial always, OpenMP when tack is
/// built with it, CUDA in a CUDA build and only in code compiled by nvcc (the kernels are templates
/// that only nvcc can compile). `if constexpr (tack::backend_available_v<tack::openmp_backend>) ...`
template <class B>
inline constexpr bool backend_available_v = std::is_same_v<B, serial_backend> ||
                                            (std::is_same_v<B, openmp_backend> &&
                                             TACK_HAS_OPENMP) ||
#if TACK_HAS_CUDA && defined(__CUDACC__)
                                            std::is_same_v<B, cuda_backend>;
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
  } else if constexpr (std::is_same_v<Backend, openmp_backend> && !TACK_HAS_OPENMP) {
    static_assert(sizeof(Backend) == 0,
                  "tack: tack::openmp_backend needs tack built with OpenMP "
                  "(TACK_ENABLE_OPENMP=ON); use tack::serial_backend");
  }
}

TACK_IMPL_KERNEL_ABI_END

}  // namespace detail
}  // namespace tack
