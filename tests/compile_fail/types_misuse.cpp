// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
// Element-type misuse refused at compile time with a message that says what to do instead.
// CASE 1: integer vector or matrix combined with a floating-point scalar would truncate
// CASE 2: component-wise operators need the same component type
// CASE 3: component-wise operators need two vectors of the same length
// CASE 4: tack::cross: defined for 3-vectors
// CASE 5: tack::inverse: needs floating-point entries
// CASE 6: tack::determinant: needs a square matrix
// CASE 7: tack::dtype_of<T>: T must be a tack element type
// CASE 8: tack::normalize: needs floating-point components
// CASE 9: the vector needs as many components as the matrix has columns
// CASE 10: tack::vec<T, N>: N must be at least 1
// CASE 11: tack::mat<T, R, C>: R and C must be between 1 and 4
// CASE 12: tack::vec<T, N>: T must be an unqualified arithmetic type
// CASE 13: tack::item<T, E...>: give no extent
// CASE 14: the left matrix needs as many columns as the right one has rows

#include <tack/types/dtype.hpp>
#include <tack/types/item.hpp>
#include <tack/types/mat.hpp>
#include <tack/types/vec.hpp>

int main() {
  // Case 0: the valid neighbours of each misuse compile.
  tack::vec3i n{1, 2, 3};
  tack::vec3f f{1, 2, 3};
  auto a = n * 2 + tack::vec3i(f);
  auto b = tack::vec3d(f) + tack::vec3d{};
  auto c = tack::cross(f, f);
  auto d = tack::inverse(tack::mat3d(tack::identity<std::int32_t, 3>()));
  auto e = tack::determinant(tack::mat2f{});
  constexpr auto g = tack::dtype_of<tack::vec3i>();
  auto h = tack::normalize(tack::vec3d(n));
  auto k = tack::mat<float, 2, 3>{} * f;
  tack::item<float, 2, 2> m = tack::mat2f{};
  (void)a, (void)b, (void)c, (void)d, (void)e, (void)g, (void)h, (void)k, (void)m;
#if TACK_COMPILE_FAIL_CASE == 1
  auto x = n * 0.5;
#elif TACK_COMPILE_FAIL_CASE == 2
  auto x = f + tack::vec3d{};
#elif TACK_COMPILE_FAIL_CASE == 3
  auto x = f - tack::vec2f{};
#elif TACK_COMPILE_FAIL_CASE == 4
  auto x = tack::cross(tack::vec4f{}, tack::vec4f{});
#elif TACK_COMPILE_FAIL_CASE == 5
  auto x = tack::inverse(tack::identity<std::int32_t, 3>());
#elif TACK_COMPILE_FAIL_CASE == 6
  auto x = tack::determinant(tack::mat<float, 2, 3>{});
#elif TACK_COMPILE_FAIL_CASE == 7
  auto x = tack::dtype_of<long double>();
#elif TACK_COMPILE_FAIL_CASE == 8
  auto x = tack::normalize(n);
#elif TACK_COMPILE_FAIL_CASE == 9
  auto x = tack::mat3f{} * tack::vec2f{};
#elif TACK_COMPILE_FAIL_CASE == 10
  tack::vec<float, 0> x;
#elif TACK_COMPILE_FAIL_CASE == 11
  tack::mat<float, 5, 5> x;
#elif TACK_COMPILE_FAIL_CASE == 12
  tack::vec<tack::vec3f, 2> x;
#elif TACK_COMPILE_FAIL_CASE == 13
  tack::item<float, 2, 2, 2> x;
#elif TACK_COMPILE_FAIL_CASE == 14
  auto x = tack::mat<float, 2, 3>{} * tack::mat2f{};
#endif
#if TACK_COMPILE_FAIL_CASE != 0
  (void)x;
#endif
  return 0;
}
