// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
#pragma once
/// @file The indexing protocol: any type with `operator[](index_t) const` and `size()` is
/// a readable array; the library's own arrays have no privileged path.

#include <tack/core/index.hpp>

#include <concepts>
#include <type_traits>
#include <utility>

namespace tack {

template <class T, int N>
struct vec;

/// `a[i]` reads a value and `a.size()` gives the length.
/// `static_assert(tack::readable_array<tack::view<const float>>);`
template <class A>
concept readable_array = requires(const A& a, index_t i) {
  a[i];
  { a.size() } -> std::convertible_to<index_t>;
};

/// The value type read from a readable array (`a[i]` decayed; proxies convert to it through
/// their `value_type` member when they have one).
template <class A>
struct array_value {
  using raw = std::remove_cvref_t<decltype(std::declval<const A&>()[index_t{}])>;
  template <class R>
  static auto pick(int) -> typename R::value_type;
  template <class R>
  static auto pick(long) -> R;
  using type = decltype(pick<raw>(0));
};
/// `tack::array_value_t<tack::view<const float>>` is `float`.
template <class A>
using array_value_t = typename array_value<A>::type;

/// `a[i] = v` stores (a stored array, or an implicit array that writes through).
template <class A>
concept writable_array = readable_array<A> && requires(A& a, index_t i, array_value_t<A> v) {
  a[i] = v;
};

/// Every element has a real address: `&a[i]` is a pointer to the value type (atomics need this).
template <class A>
concept addressable_array = writable_array<A> && requires(A& a, index_t i) {
  { &a[i] } -> std::convertible_to<const array_value_t<A>*>;
};

/// Several indices arrive as one vector: `a[tack::vec<index_t, N>{i, j, k}]` reads
/// element `(i, j, k)` and `a.shape()` gives the `N` extents, row-major like the flat `a[k]`.
/// Implicit arrays of rank 2 and 3 (`cartesian_product`, `uniform_coordinates`, `function` over
/// a shape) and user classes with those members satisfy it.
/// `static_assert(tack::multi_index_array<decltype(tack::arrays::uniform_coordinates({2, 2, 2})), 3>);`
template <class A, int N>
concept multi_index_array = readable_array<A> && requires(const A& a, const vec<index_t, N>& ix) {
  a[ix];
  a.shape()[0];
};

}  // namespace tack
