// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
#pragma once
/// @file `tack::arrays::counting`: `start, start + step, start + 2 step, ...` (DESIGN §6).

#include <tack/arrays/implicit.hpp>

namespace tack::arrays {

/// Element `i` is `start + step * T(i)`, computed from the index (no accumulated rounding).
template <class T>
struct counting_fn {
  T start{};
  T step{1};
  TACK_FORCEINLINE constexpr computed_t<T> operator()(index_t i) const {
    return start + step * static_cast<T>(i);
  }
};

/// `n` values `start + step * i`; stores nothing. The length, start and step are run-time members:
/// `counting<int>(5)` and `counting<int>(7)` have the same type.
/// `auto a = tack::arrays::counting<double>(100, 0.0, 0.5);  // 0, 0.5, 1, ...`
/// @param n length (negative is a `value_error`)
template <class T>
auto counting(index_t n, T start = T(0), T step = T(1)) {
  detail::check_length("tack::arrays::counting", n);
  return implicit_array<counting_fn<T>>(counting_fn<T>{start, step}, n);
}

}  // namespace tack::arrays
