// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
#pragma once
/// @file `tack::arrays::cast<U>`: the elements of an array converted to `U` when read.

#include <tack/arrays/implicit.hpp>
#include <tack/types/item.hpp>

#include <tuple>
#include <type_traits>
#include <utility>

namespace tack::arrays {

/// Element `i` is `static_cast<U>(a[i])`.
template <class U, class A>
struct cast_fn {
  A a;

  TACK_EXEC_CHECK_DISABLE
  TACK_FORCEINLINE constexpr computed_t<U> operator()(index_t i) const {
    return tack::detail::convert_element<U>(detail::read(a, i));
  }

  auto operands() const { return std::tie(a); }
  template <class K>
  auto rebind(const K& k) const {
    return cast_fn<U, K>{k};
  }
};

/// A read-only array of `a`'s elements converted to `U` when read, as `astype` converts (floats
/// into integers saturate, NaN gives 0): `float` to `double`, `vec3d` to `vec3f`, an index array
/// to `float`. Nothing is stored; `a` is kept alive.
/// `auto d = tack::arrays::cast<double>(floats);`
template <class U, class A>
requires detail::array_operand<A>
auto cast(A a) {
  static_assert(
      std::is_constructible_v<U, detail::value_t<A>> ||
          requires(detail::value_t<A> v) { static_cast<U>(v); },
      "tack::arrays::cast<U>: the element type of the array does not convert to U; a "
      "vector or matrix converts only to one with the same number of components");
  index_t n = a.size();
  return implicit_array<cast_fn<U, A>>(cast_fn<U, A>{std::move(a)}, n);
}

}  // namespace tack::arrays
