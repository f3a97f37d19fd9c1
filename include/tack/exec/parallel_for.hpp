// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
#pragma once
/// @file `tack::parallel_for`: run a kernel once per index, on a device or a named backend
///.
///
/// The kernel is a function object called as `f(i)` (or `f(i, j[, k])` over a `tack::range`) with
/// `tack::index_t` indices, in no particular order and possibly concurrently: iterations must not
/// depend on each other. Code that nvcc compiles passes functors or `TACK_LAMBDA(tack::index_t i)
/// { ... }`, never generic lambdas. Kernels are copied to the device (GPU) or to each thread
/// (OpenMP), so they hold views and values, never host handles.
///
/// Where it runs: `parallel_for(n, f)` on `tack::default_device()`; `parallel_for(device, n, f)` on
/// that device's backend (CPU: OpenMP when tack has it and `tack::num_threads() > 1`, else serial;
/// a CUDA or HIP device: the GPU backend, only in code compiled by nvcc or hipcc);
/// `parallel_for(tack::serial_backend{}, n, f)` on a named backend. An exception thrown by a CPU
/// kernel reaches the caller once, after every thread has stopped; GPU kernels cannot throw.
/// Launches on a GPU wait for the kernel,
/// except on a `tack::stream` (`parallel_for(stream, n, f)` or inside a `tack::stream_scope`).

#include <tack/core/index.hpp>
#include <tack/core/macros.hpp>
#include <tack/exec/backend.hpp>
#include <tack/exec/backend/all.hpp>
#include <tack/exec/range.hpp>
#include <tack/exec/stream.hpp>
#include <tack/memory/device.hpp>

#include <concepts>
#include <string>
#include <type_traits>

namespace tack {
namespace detail {

/// Refuses, at compile time, a kernel that cannot be called with `Rank` indices.
template <int Rank, class F>
constexpr bool check_for_kernel() {
  if constexpr (Rank == 1) {
    static_assert(std::is_invocable_v<const F&, index_t>,
                  "tack::parallel_for: the kernel must be callable as f(tack::index_t i) const; "
                  "write a functor or TACK_LAMBDA(tack::index_t i) { ... }");
    return std::is_invocable_v<const F&, index_t>;
  } else if constexpr (Rank == 2) {
    static_assert(std::is_invocable_v<const F&, index_t, index_t>,
                  "tack::parallel_for over tack::range{nx, ny}: the kernel must be callable as "
                  "f(tack::index_t i, tack::index_t j) const");
    return std::is_invocable_v<const F&, index_t, index_t>;
  } else {
    static_assert(std::is_invocable_v<const F&, index_t, index_t, index_t>,
                  "tack::parallel_for over tack::range{nx, ny, nz}: the kernel must be callable "
                  "as f(tack::index_t i, tack::index_t j, tack::index_t k) const");
    return std::is_invocable_v<const F&, index_t, index_t, index_t>;
  }
}

/// Checks the extents of `r` (none negative, product representable); returns the product.
template <int Rank>
index_t checked_range_size(const range<Rank>& r) {
  index_t size = 1;
  bool overflow = false;
  bool empty = false;
  for (int d = 0; d < Rank; ++d) {
    if (r.extent(d) < 0) {
      std::string text = "{";
      for (int e = 0; e < Rank; ++e) text += (e ? ", " : "") + std::to_string(r.extent(e));
      throw value_error("tack::parallel_for: tack::range" + text + "} has a negative extent (" +
                        std::to_string(r.extent(d)) + " in dimension " + std::to_string(d) +
                        "); extents must be >= 0");
    }
    empty = empty || r.extent(d) == 0;
    overflow = overflow || __builtin_mul_overflow(size, r.extent(d), &size);
  }
  if (empty) return 0;
  if (overflow) {
    throw value_error(
        "tack::parallel_for: the range's extents multiply to more than 2^63 - 1 "
        "iterations");
  }
  return size;
}

}  // namespace detail

TACK_IMPL_KERNEL_ABI_BEGIN

/// Runs `f(i)` for every `i` in `[0, n)` on `backend` (a tag: `tack::serial_backend{}`,
/// `tack::openmp_backend{}`, `tack::cuda_backend{}`). `n < 0` is a `value_error`; `n == 0` runs
/// nothing. `tack::parallel_for(tack::serial_backend{}, n, TACK_LAMBDA(tack::index_t i) { y[i] =
/// 2 * x[i]; });`
template <backend_tag Backend, class F>
void parallel_for(Backend, index_t n, const F& f) {
  detail::require_backend<Backend>();
  if constexpr (backend_available_v<Backend> && detail::check_for_kernel<1, F>()) {
    if (n < 0) detail::throw_negative_count("tack::parallel_for", n);
    if (n == 0) return;
    detail::parallel_for_impl<Backend>::run(n, f);
  }
}

/// Runs `f(i, j[, k])` over every index of `r` on `backend`; the last index varies fastest.
/// A negative extent is a `value_error`; an empty range runs nothing.
/// `tack::parallel_for(tack::openmp_backend{}, tack::range{ny, nx}, kernel);`
template <backend_tag Backend, int Rank, class F>
void parallel_for(Backend, const range<Rank>& r, const F& f) {
  detail::require_backend<Backend>();
  if constexpr (backend_available_v<Backend> && detail::check_for_kernel<Rank, F>()) {
    if (detail::checked_range_size(r) == 0) return;
    detail::parallel_for_impl<Backend>::run(r, f);
  }
}

/// Runs `f(i)` for every `i` in `[0, n)` on device `d`'s backend.
/// `tack::parallel_for(a.device(), a.size(), TACK_LAMBDA(tack::index_t i) { v[i] = 0; });`
template <class F>
void parallel_for(const device& d, index_t n, const F& f) {
  if (n < 0) detail::throw_negative_count("tack::parallel_for", n);
  detail::with_backend_of(d, "tack::parallel_for",
                          [&](auto backend) { tack::parallel_for(backend, n, f); });
}

/// Runs `f(i, j[, k])` over `r` on device `d`'s backend.
template <int Rank, class F>
void parallel_for(const device& d, const range<Rank>& r, const F& f) {
  (void)detail::checked_range_size(r);
  detail::with_backend_of(d, "tack::parallel_for",
                          [&](auto backend) { tack::parallel_for(backend, r, f); });
}

/// Queues `f(i)` for every `i` in `[0, n)` on stream `s` (tack/exec/stream.hpp): on a GPU device
/// it returns once the kernel is queued (`s.synchronize()` waits); on the CPU it runs now.
/// `tack::parallel_for(s, n, TACK_LAMBDA(tack::index_t i) { v[i] = 0; });`
template <class F>
void parallel_for(const stream& s, index_t n, const F& f) {
  const stream_scope on(s);
  tack::parallel_for(s.device(), n, f);
}

/// Queues `f(i, j[, k])` over `r` on stream `s`.
template <int Rank, class F>
void parallel_for(const stream& s, const range<Rank>& r, const F& f) {
  const stream_scope on(s);
  tack::parallel_for(s.device(), r, f);
}

/// Runs `f(i)` for every `i` in `[0, n)` on `tack::default_device()`.
/// `tack::parallel_for(n, TACK_LAMBDA(tack::index_t i) { y[i] += a * x[i]; });`
template <class F>
void parallel_for(index_t n, const F& f) {
  tack::parallel_for(default_device(), n, f);
}

/// Runs `f(i, j[, k])` over `r` on `tack::default_device()`.
/// `tack::parallel_for(tack::range{nx, ny}, TACK_LAMBDA(tack::index_t i, tack::index_t j) {...});`
template <int Rank, class F>
void parallel_for(const range<Rank>& r, const F& f) {
  tack::parallel_for(default_device(), r, f);
}

TACK_IMPL_KERNEL_ABI_END

}  // namespace tack
