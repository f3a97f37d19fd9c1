// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
#pragma once
/// @file `tack::arrays::transform`: element `i` is `f(a[i])`; with an inverse, stores
/// `a[i] = inverse(v)`.

#include <tack/arrays/implicit.hpp>

#include <tuple>
#include <type_traits>
#include <utility>

namespace tack::arrays {

namespace detail {
/// Marks a transform without an inverse (read-only).
struct no_inverse {};

/// The writable element of a transform with an inverse: reads `f(ref)`, stores `ref = inv(v)`.
template <class R, class Fn, class Inv, class T>
struct transform_ref : proxy_base<transform_ref<R, Fn, Inv, T>, T> {
  R ref;
  const Fn* fn;
  const Inv* inv;
  TACK_INLINE constexpr transform_ref(R r, const Fn* f, const Inv* i)
      : ref(static_cast<R>(r)), fn(f), inv(i) {}
  TACK_IMPL_ARRAYS_PROXY_ASSIGN(transform_ref, T)
  TACK_EXEC_CHECK_DISABLE
  TACK_FORCEINLINE constexpr T get() const { return (*fn)(static_cast<element_value_t<R>>(ref)); }
  TACK_EXEC_CHECK_DISABLE
  TACK_FORCEINLINE constexpr void set(const T& v) const {
    assign_through<R>(ref, static_cast<element_value_t<R>>((*inv)(v)));
  }
};
}  // namespace detail

/// Element `i` is `fn(a[i])`; with an inverse (and a writable `a`), `t[i] = v` stores
/// `a[i] = inv(v)` through a proxy.
template <class A, class Fn, class Inv = detail::no_inverse>
struct transform_fn {
  A a;
  Fn fn;
  Inv inv;

  using inner_reference = detail::reference_t<A>;
  using inner_value = detail::value_t<A>;
  using result = std::remove_cvref_t<std::invoke_result_t<const Fn&, inner_value>>;
  /// Writable exactly when there is an inverse and `a` is writable.
  static constexpr bool writable =
      !std::is_same_v<Inv, detail::no_inverse> && detail::is_writable_reference_v<inner_reference>;
  using returned =
      std::conditional_t<writable, detail::transform_ref<inner_reference, Fn, Inv, result>,
                         computed_t<result>>;

  TACK_EXEC_CHECK_DISABLE
  TACK_FORCEINLINE constexpr returned operator()(index_t i) const {
    if constexpr (writable) {
      return returned(a[i], &fn, &inv);
    } else {
      return fn(detail::read(a, i));
    }
  }

  auto operands() const { return std::tie(a); }
  template <class K>
  auto rebind(const K& k) const {
    return transform_fn<K, Fn, Inv>{k, fn, inv};
  }
};

/// A read-only array whose element `i` is `fn(a[i])`, computed when read. `a` is any readable
/// array or handle (kept alive); `fn` must be callable where the kernel runs (a functor with a
/// `TACK_HOST_DEVICE operator()` or a `TACK_LAMBDA`).
/// `auto celsius = tack::arrays::transform(kelvin, to_celsius{});`
template <class A, class Fn>
requires detail::array_operand<A> && std::is_invocable_v<const Fn&, detail::value_t<A>>
auto transform(A a, Fn fn) {
  index_t n = a.size();
  return implicit_array<transform_fn<A, Fn>>(transform_fn<A, Fn>{std::move(a), std::move(fn), {}},
                                             n);
}

/// With an inverse: reads `fn(a[i])`, and `t[i] = v` stores `a[i] = inverse(v)` (writable when
/// `a` is). `auto celsius = tack::arrays::transform(kelvin, to_celsius{}, to_kelvin{});`
template <class A, class Fn, class Inv>
requires detail::array_operand<A> && std::is_invocable_v<const Fn&, detail::value_t<A>>
auto transform(A a, Fn fn, Inv inverse) {
  static_assert(
      std::is_invocable_v<const Inv&, std::invoke_result_t<const Fn&, detail::value_t<A>>>,
      "tack::arrays::transform: the inverse must accept what the function returns");
  index_t n = a.size();
  return implicit_array<transform_fn<A, Fn, Inv>>(
      transform_fn<A, Fn, Inv>{std::move(a), std::move(fn), std::move(inverse)}, n);
}

}  // namespace tack::arrays
