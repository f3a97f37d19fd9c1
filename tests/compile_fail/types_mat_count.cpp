// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
// Brace construction of a matrix with the wrong shape says how many rows / values were expected.
// CASE 1: tack::mat<T, R, 2>: expected 2 values per row, got 3
// CASE 2: tack::mat<T, 2, C>: expected 2 rows, got 3
// CASE 3: tack::mat<T, R, 2>: expected 2 values per row, got 1
// CASE 4: tack::mat<T, R, C>: give the values row by row
// CASE 5: tack::mat<T, 3, C>: expected 3 rows, got 2

#include <tack/types/mat.hpp>

int main() {
  // Case 0: the valid forms compile.
  constexpr tack::mat2f ok{{1, 2}, {3, 4}};
  constexpr tack::mat2f zero{};
  constexpr tack::mat2f rows{tack::vec2f{1, 2}, tack::vec2f{3, 4}};
  static_assert(ok == rows && zero(1, 1) == 0.0f);
#if TACK_COMPILE_FAIL_CASE == 1
  tack::mat2f m{{1, 2, 3}, {4, 5, 6}};
#elif TACK_COMPILE_FAIL_CASE == 2
  tack::mat2f m{{1, 2}, {3, 4}, {5, 6}};
#elif TACK_COMPILE_FAIL_CASE == 3
  tack::mat2f m{{1, 2}, {3}};
#elif TACK_COMPILE_FAIL_CASE == 4
  tack::mat2f m{1, 2, 3, 4};
#elif TACK_COMPILE_FAIL_CASE == 5
  tack::mat3f m{tack::vec3f{1, 0, 0}, tack::vec3f{0, 1, 0}};
#endif
#if TACK_COMPILE_FAIL_CASE != 0
  (void)m;
#endif
  return 0;
}
