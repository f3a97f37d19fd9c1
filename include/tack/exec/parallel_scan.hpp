// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
#pragma once
/// @file `tack::parallel_scan`: prefix combinations.
///
/// The form. `parallel_scan([device | backend,] n, init, value, store, op = tack::ops::plus{})`
/// reads `value(i)` (the i-th input, converted to `T`, the type of `init`) and calls
/// `store(i, exclusive, inclusive)` once per index with
///   `exclusive = init op value(0) op ... op value(i - 1)` and `inclusive = exclusive op value(i)`;
/// it returns the total `init op value(0) op ... op value(n - 1)` (`init` when `n == 0`), which is
/// the last `inclusive` bit for bit. The op must be associative, as for `std::inclusive_scan`;
/// operands stay in index order, so it need not commute.
/// Both prefixes are given so that one primitive serves `inclusive_scan` (store `inclusive`;
/// pass `op.identity<T>()` as `init`) and `exclusive_scan` (store `exclusive`), in place too:
/// every backend reads `value(i)` before it calls `store(i, ...)`, and `store(i, ...)` only after
/// every read of `value(i)`, so the input may be the output when `value(i)` reads element `i`
/// only. Chosen over Kokkos' single `f(i, partial, final)` functor because the op stays in the
/// library (the GPU and the CPU group it as they need) and kernels stay simple typed lambdas,
/// which nvcc requires.
///
/// Determinism. CPU with several threads: two passes over blocks fixed by `n` (block sums reduced
/// pairwise, prefixes of the blocks combined in order, each block then scanned in order) — the
/// same bits for every thread count >= 2 and every run. CPU with one thread (serial backend, or
/// `tack::num_threads() == 1`): one strict pass in index order. CUDA and HIP: three fixed
/// passes (exec/backend/gpu/parallel_scan.hpp), needing `Op::identity<T>()`. Floating-point results
/// of these groupings differ in the last bits; integers agree everywhere.
///
/// `auto total = tack::parallel_scan(n, 0, TACK_LAMBDA(tack::index_t i) { return counts[i]; },
///     TACK_LAMBDA(tack::index_t i, int excl, int) { offsets[i] = excl; });`

#include <tack/core/index.hpp>
#include <tack/core/macros.hpp>
#include <tack/exec/backend.hpp>
#include <tack/exec/backend/all.hpp>
#include <tack/exec/ops.hpp>
#include <tack/memory/device.hpp>

#include <type_traits>

namespace tack {
namespace detail {

/// Refuses, at compile time, value / store functions or an op that do not fit `T`.
// The same chain of checks as check_reduce_kernel (parallel_reduce.hpp), kept apart on purpose: a
// static_assert message must be a string literal, and each names its own operation and argument.
template <class T, class V, class S, class Op>
constexpr bool check_scan_kernel() {
  if constexpr (!std::is_invocable_v<const V&, index_t>) {
    static_assert(
        std::is_invocable_v<const V&, index_t>,
        "tack::parallel_scan: value must be callable as value(tack::index_t i) and return "
        "the i-th input");
    return false;
  } else if constexpr (!std::is_convertible_v<std::invoke_result_t<const V&, index_t>, T>) {
    static_assert(std::is_convertible_v<std::invoke_result_t<const V&, index_t>, T>,
                  "tack::parallel_scan: value(i) must return a value convertible to the type of "
                  "init");
    return false;
  } else if constexpr (!std::is_invocable_v<const S&, index_t, const T&, const T&>) {
    static_assert(std::is_invocable_v<const S&, index_t, const T&, const T&>,
                  "tack::parallel_scan: store must be callable as store(tack::index_t i, T "
                  "exclusive, T inclusive) with T the type of init");
    return false;
  } else if constexpr (!std::is_invocable_r_v<T, const Op&, const T&, const T&>) {
    static_assert(std::is_invocable_r_v<T, const Op&, const T&, const T&>,
                  "tack::parallel_scan: op must be callable as op(T, T) -> T with T the type of "
                  "init; see tack::ops::plus");
    return false;
  } else {
    return true;
  }
}

}  // namespace detail

TACK_IMPL_KERNEL_ABI_BEGIN

/// Scan on `backend` (a tag); see the file comment. `n < 0` is a `value_error`.
/// `tack::parallel_scan(tack::serial_backend{}, n, 0.0, value, store);`
template <backend_tag Backend, class T, class V, class S, class Op = ops::plus>
T parallel_scan(Backend, index_t n, T init, const V& value, const S& store, Op op = {}) {
  detail::require_backend<Backend>();
  if constexpr (backend_available_v<Backend> && detail::check_scan_kernel<T, V, S, Op>()) {
    if (n < 0) detail::throw_negative_count("tack::parallel_scan", n);
    if (n == 0) return init;
    return detail::parallel_scan_impl<Backend>::template run<T>(n, init, value, store, op);
  } else {
    return init;
  }
}

/// Scan on device `d`'s backend. `tack::parallel_scan(a.device(), n, 0, value, store);`
template <class T, class V, class S, class Op = ops::plus>
T parallel_scan(const device& d, index_t n, T init, const V& value, const S& store, Op op = {}) {
  if (n < 0) detail::throw_negative_count("tack::parallel_scan", n);
  return detail::with_backend_of(d, "tack::parallel_scan", [&](auto backend) {
    return tack::parallel_scan(backend, n, init, value, store, op);
  });
}

/// Scan on `tack::default_device()`. `tack::parallel_scan(n, 0.0, value, store);`
template <class T, class V, class S, class Op = ops::plus>
T parallel_scan(index_t n, T init, const V& value, const S& store, Op op = {}) {
  return tack::parallel_scan(default_device(), n, init, value, store, op);
}

TACK_IMPL_KERNEL_ABI_END

}  // namespace tack
