// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
#pragma once
/// @file `tack::arrays::view`: `count` consecutive elements of an array from `start`.
/// Not to be confused with the kernel view class `tack::view<T, Rank>`: this is an implicit
/// array over any readable array, stored or computed.

#include <tack/arrays/implicit.hpp>

#include <string>
#include <tuple>
#include <utility>

namespace tack::arrays {

/// Element `i` is `a[start + i]`; stores into `a` when `a` is writable.
template <class A>
struct view_fn {
  A a;
  index_t start;

  TACK_EXEC_CHECK_DISABLE
  TACK_FORCEINLINE constexpr detail::reference_t<A> operator()(index_t i) const {
    return a[start + i];
  }

  auto operands() const { return std::tie(a); }
  template <class K>
  auto rebind(const K& k) const {
    return view_fn<K>{k, start};
  }
};

/// Elements `[start, start + count)` of `a`, without copying; writable when `a` is (a store lands
/// in `a`). A range outside `[0, a.size())` is an `index_error` naming start, count and size.
/// `auto middle = tack::arrays::view(a, 2, 3);  // a[2], a[3], a[4]`
template <class A>
requires detail::array_operand<A>
auto view(A a, index_t start, index_t count) {
  const index_t n = a.size();
  if (start < 0 || count < 0 || start > n || count > n - start) {
    throw index_error("tack::arrays::view: elements [" + std::to_string(start) + ", " +
                      std::to_string(start) + " + " + std::to_string(count) +
                      ") are outside an array of size " + std::to_string(n) +
                      " (start and count must be non-negative and start + count <= size)");
  }
  return implicit_array<view_fn<A>>(view_fn<A>{std::move(a), start}, count);
}

}  // namespace tack::arrays
