// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
#pragma once
/// @file `tack::arrays::constant`: one value repeated `n` times.

#include <tack/arrays/implicit.hpp>

namespace tack::arrays {

/// Every element is `value`.
template <class T>
struct constant_fn {
  static constexpr bool computes_from_index = true;  // reads no memory
  T value;
  TACK_FORCEINLINE constexpr computed_t<T> operator()(index_t) const { return value; }
};

/// `n` copies of `value` (any element type); stores one value.
/// `auto ones = tack::arrays::constant(1.0f, 1000);`
/// @param n length (negative is a `value_error`)
template <class T>
auto constant(T value, index_t n) {
  detail::check_length("tack::arrays::constant", n);
  return implicit_array<constant_fn<T>>(constant_fn<T>{value}, n);
}

}  // namespace tack::arrays
