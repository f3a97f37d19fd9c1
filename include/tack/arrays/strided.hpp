// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
#pragma once
/// @file `tack::arrays::strided`: every `step`-th element of an array from `offset`.
/// Row views (`a[tack::slice(i, j, step)]`) refuse a step other than 1 and name this array.

#include <tack/arrays/implicit.hpp>

#include <string>
#include <tuple>
#include <utility>

namespace tack::arrays {

/// Element `i` is `a[offset + i * step]`; stores into `a` when `a` is writable.
template <class A>
struct strided_fn {
  A a;
  index_t step;
  index_t offset;

  TACK_EXEC_CHECK_DISABLE
  TACK_FORCEINLINE constexpr detail::reference_t<A> operator()(index_t i) const {
    return a[offset + i * step];
  }

  auto operands() const { return std::tie(a); }
  template <class K>
  auto rebind(const K& k) const {
    return strided_fn<K>{k, step, offset};
  }
};

/// `a[offset], a[offset + step], ...` up to the end of `a`, without copying: `ceil((size - offset)
/// / step)` elements. Writable when `a` is. A step <= 0 is a `value_error` naming strided and the
/// step; an offset outside `[0, size]` is an `index_error`.
/// `auto odd = tack::arrays::strided(a, 2, 1);  // a[1], a[3], ...`
template <class A>
requires detail::array_operand<A>
auto strided(A a, index_t step, index_t offset = 0) {
  if (step <= 0) {
    throw value_error("tack::arrays::strided: step must be positive, got " + std::to_string(step));
  }
  const index_t n = a.size();
  if (offset < 0 || offset > n) {
    throw index_error("tack::arrays::strided: offset " + std::to_string(offset) +
                      " is outside an array of size " + std::to_string(n));
  }
  // ceil((n - offset) / step), written so that a huge step cannot overflow.
  const index_t count = n == offset ? 0 : 1 + (n - offset - 1) / step;
  return implicit_array<strided_fn<A>>(strided_fn<A>{std::move(a), step, offset}, count);
}

}  // namespace tack::arrays
