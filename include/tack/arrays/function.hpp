// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
#pragma once
/// @file `tack::arrays::function`: element `i` is `f(i)` for any callable.

#include <tack/arrays/implicit.hpp>

#include <array>
#include <type_traits>
#include <utility>

namespace tack::arrays {

/// Calls the user's function on the index. A function returning a value gives a computed array;
/// one returning an lvalue reference (a lookup into the user's own storage) gives a writable one.
template <class Fn>
struct function_fn {
  Fn fn;
  using result = std::invoke_result_t<const Fn&, index_t>;
  using returned =
      std::conditional_t<std::is_lvalue_reference_v<result>, result, computed_t<result>>;

  TACK_EXEC_CHECK_DISABLE
  TACK_FORCEINLINE constexpr returned operator()(index_t i) const { return fn(i); }
};

/// `n` elements, element `i` is `f(i)`. `f` must be callable on the device for kernels that run
/// there (a functor with a `TACK_HOST_DEVICE operator()`, or a `TACK_LAMBDA`).
/// `auto squares = tack::arrays::function(10, [](tack::index_t i) { return double(i * i); });`
/// @param n length (negative is a `value_error`)
template <class Fn>
requires std::is_invocable_v<const Fn&, index_t>
auto function(index_t n, Fn f) {
  detail::check_length("tack::arrays::function", n);
  return implicit_array<function_fn<Fn>>(function_fn<Fn>{std::move(f)}, n);
}

/// Calls the user's function on an index vector; the flat index is split row-major.
template <class Fn, int N>
struct function_nd_fn {
  static constexpr int rank = N;
  Fn fn;
  std::array<index_t, std::size_t(N)> extents;
  using result = std::invoke_result_t<const Fn&, vec<index_t, N>>;
  using returned =
      std::conditional_t<std::is_lvalue_reference_v<result>, result, computed_t<result>>;

  /// The extents, row-major.
  TACK_HOST_DEVICE constexpr std::array<index_t, std::size_t(N)> shape() const noexcept {
    return extents;
  }
  TACK_EXEC_CHECK_DISABLE
  TACK_FORCEINLINE constexpr returned operator()(const vec<index_t, N>& k) const { return fn(k); }
  TACK_EXEC_CHECK_DISABLE
  TACK_FORCEINLINE constexpr returned operator()(index_t i) const {
    vec<index_t, N> k{};
    for (int d = N - 1; d > 0; --d) {
      k[d] = i % extents[std::size_t(d)];
      i /= extents[std::size_t(d)];
    }
    k[0] = i;
    return fn(k);
  }
};

/// A rank-2 or rank-3 array of shape `extents`: element `(i, j[, k])` is `f(tack::vec<index_t, N>{i,
/// j[, k]})`, and the flat `a[k]` splits `k` row-major. A negative extent is a `value_error`.
/// `auto t = tack::arrays::function({2, 3}, [](tack::vec<tack::index_t, 2> k) { return k[0] * 10 + k[1]; });`
template <class Fn, std::size_t N>
requires(N >= 2 && N <= 3 && std::is_invocable_v<const Fn&, vec<index_t, int(N)>>) auto function(
    const index_t (&extents)[N], Fn f) {
  std::array<index_t, N> e{};
  for (std::size_t d = 0; d < N; ++d) e[d] = extents[d];
  const index_t total = detail::checked_element_count("tack::arrays::function", e);
  return implicit_array<function_nd_fn<Fn, int(N)>>(function_nd_fn<Fn, int(N)>{std::move(f), e},
                                                    total);
}

}  // namespace tack::arrays
