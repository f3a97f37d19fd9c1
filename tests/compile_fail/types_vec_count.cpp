// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
// Brace construction of a vector with the wrong number of values says how many were expected.
// CASE 1: tack::vec<T, 3>: expected 3 values, got 2
// CASE 2: tack::vec<T, 3>: expected 3 values, got 4
// CASE 3: tack::vec<T, 2>: expected 2 values, got 1
// CASE 4: tack::vec<T, N>: wrong number of values in braces

#include <tack/types/vec.hpp>

int main() {
  // Case 0: the valid forms compile.
  constexpr tack::vec3f ok{1, 0, 0};
  constexpr tack::vec3f zero{};
  constexpr tack::vec3f copy = ok;
  constexpr auto ones = tack::vec3f::filled(1);
  static_assert(ok[0] + zero[0] + copy[0] + ones[0] == 3.0f);
#if TACK_COMPILE_FAIL_CASE == 1
  tack::vec3f v{1, 0};
#elif TACK_COMPILE_FAIL_CASE == 2
  tack::vec3f v{1, 0, 0, 1};
#elif TACK_COMPILE_FAIL_CASE == 3
  tack::vec2f v{1.0f};  // broadcasting must be spelled vec2f::filled(1.0f)
#elif TACK_COMPILE_FAIL_CASE == 4
  tack::vec<float, 20> v{1, 2};
#endif
#if TACK_COMPILE_FAIL_CASE != 0
  (void)v;
#endif
  return 0;
}
