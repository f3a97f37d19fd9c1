// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
#pragma once
/// @file `tack::parallel_reduce`: combine one value per index with an associative op.
///
/// `parallel_reduce([device | backend,] n, init, f, op = tack::ops::plus{})` returns
/// `op(init, f(0) op f(1) op ... op f(n - 1))` (`init` when `n == 0`). The result type is the type
/// of `init`, as with `std::reduce` (`0` instead of `0.0` truncates); each `f(i)` is converted to it.
///
/// Grouping, determinism and accuracy. The op must be associative; the backends regroup it, and
/// keep its operands in index order unless it is commutative (`tack::ops::commutative_v`: the
/// built-in ops, or a user op declaring `static constexpr bool commutative = true`), so a product
/// of matrices reduces correctly:
/// - CPU (serial and OpenMP alike): `[0, n)` is cut into at most 1024 blocks fixed by `n` alone
///   (exec/backend/cpu/blocks.hpp); each block is reduced pairwise, with leaves of 16 (floats)
///   or 8 (doubles) independent accumulators that vectorize; the block results are combined in a
///   fixed pairwise tree. The result is bit-identical for every thread count and every run, and a
///   floating-point sum's rounding error grows like log(n), not n as in a strict-order loop.
/// - CUDA and HIP: a fixed two-pass block tree (exec/backend/gpu/parallel_reduce.hpp),
///   bit-identical from run to run; it needs `Op::identity<T>()`. It can differ from the CPU in the
///   last bits.
///
/// Algorithms reduce any readable array `a` with
/// `tack::parallel_reduce(dev, a.size(), init, TACK_LAMBDA(tack::index_t i) { return a[i]; }, op)`.

#include <tack/core/index.hpp>
#include <tack/core/macros.hpp>
#include <tack/exec/backend.hpp>
#include <tack/exec/backend/all.hpp>
#include <tack/exec/ops.hpp>
#include <tack/memory/device.hpp>

#include <type_traits>

namespace tack {
namespace detail {

/// Refuses, at compile time, a value function or op that does not fit the result type `T`.
// The same chain of checks as check_scan_kernel (parallel_scan.hpp), kept apart on purpose: a
// static_assert message must be a string literal, and each names its own operation and argument.
template <class T, class F, class Op>
constexpr bool check_reduce_kernel() {
  if constexpr (!std::is_invocable_v<const F&, index_t>) {
    static_assert(std::is_invocable_v<const F&, index_t>,
                  "tack::parallel_reduce: f must be callable as f(tack::index_t i) and return the "
                  "value to combine; write a functor or TACK_LAMBDA(tack::index_t i) { ... }");
    return false;
  } else if constexpr (!std::is_convertible_v<std::invoke_result_t<const F&, index_t>, T>) {
    static_assert(std::is_convertible_v<std::invoke_result_t<const F&, index_t>, T>,
                  "tack::parallel_reduce: f(i) must return a value convertible to the type of "
                  "init (the result type)");
    return false;
  } else if constexpr (!std::is_invocable_r_v<T, const Op&, const T&, const T&>) {
    static_assert(std::is_invocable_r_v<T, const Op&, const T&, const T&>,
                  "tack::parallel_reduce: op must be callable as op(T, T) -> T with T the type of "
                  "init; see tack::ops::plus");
    return false;
  } else {
    return true;
  }
}

}  // namespace detail

TACK_IMPL_KERNEL_ABI_BEGIN

/// `op(init, f(0) op ... op f(n - 1))` on `backend` (a tag). `n < 0` is a `value_error`.
/// `double s = tack::parallel_reduce(tack::serial_backend{}, n, 0.0, f, tack::ops::plus{});`
template <backend_tag Backend, class T, class F, class Op = ops::plus>
T parallel_reduce(Backend, index_t n, T init, const F& f, Op op = {}) {
  detail::require_backend<Backend>();
  if constexpr (backend_available_v<Backend> && detail::check_reduce_kernel<T, F, Op>()) {
    if (n < 0) detail::throw_negative_count("tack::parallel_reduce", n);
    if (n == 0) return init;
    return op(init, detail::parallel_reduce_impl<Backend>::template run<T>(n, f, op));
  } else {
    return init;
  }
}

/// `op(init, f(0) op ... op f(n - 1))` on device `d`'s backend.
/// `float m = tack::parallel_reduce(a.device(), n, -INFINITY, f, tack::ops::max{});`
template <class T, class F, class Op = ops::plus>
T parallel_reduce(const device& d, index_t n, T init, const F& f, Op op = {}) {
  if (n < 0) detail::throw_negative_count("tack::parallel_reduce", n);
  return detail::with_backend_of(d, "tack::parallel_reduce", [&](auto backend) {
    return tack::parallel_reduce(backend, n, init, f, op);
  });
}

/// `op(init, f(0) op ... op f(n - 1))` on `tack::default_device()`.
/// `double s = tack::parallel_reduce(n, 0.0, TACK_LAMBDA(tack::index_t i) { return x[i]; });`
template <class T, class F, class Op = ops::plus>
T parallel_reduce(index_t n, T init, const F& f, Op op = {}) {
  return tack::parallel_reduce(default_device(), n, init, f, op);
}

TACK_IMPL_KERNEL_ABI_END

}  // namespace tack
