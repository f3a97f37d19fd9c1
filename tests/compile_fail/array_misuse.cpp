// SPDX-License-Identifier: BSD-3-Clause
// Misuses of tack::array that must not compile, each with a message that says what to do.
// CASE 1: no slice assignment
// CASE 2: Rank must be between 1 and 8
// CASE 3: the element type must be an object type
// CASE 4: source and destination element types differ
// CASE 5: must be a tack::vec or tack::mat of the array's scalar type
// CASE 6: astype<U>: an element type U must have the same component dimensions
// CASE 7: astype_dimensions<tack::vec<float, 4>, tack::mat<float, 2, 2> >
#include <tack/array/factories.hpp>
#include <tack/types/mat.hpp>
#include <tack/types/vec.hpp>

int main() {
  auto a = tack::zeros<float>({6, 3});
  auto b = tack::zeros<float>({2, 3});
#if TACK_COMPILE_FAIL_CASE == 0
  tack::copyto(a.rows(2, 4), b);
  auto v = a.as_elements<tack::vec3f>();
  (void)v;
#elif TACK_COMPILE_FAIL_CASE == 1
  a.rows(2, 4) = b;
#elif TACK_COMPILE_FAIL_CASE == 2
  tack::array<float, 0> zero_dimensional;
#elif TACK_COMPILE_FAIL_CASE == 3
  tack::array<void> no_elements;
#elif TACK_COMPILE_FAIL_CASE == 4
  tack::copyto(a, tack::zeros<double>({6, 3}));
#elif TACK_COMPILE_FAIL_CASE == 5
  auto v = a.as_elements<tack::vec3d>();
#elif TACK_COMPILE_FAIL_CASE == 6 || TACK_COMPILE_FAIL_CASE == 7
  // as many components (4), other dimensions: the message names both types
  auto m = tack::zeros<tack::vec4f>(3).astype<tack::mat2f>();
#endif
  return 0;
}
