// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
// Element types that cannot be combined are refused at compile time with a message that says what
// to do instead. Case 0 shows the valid neighbours compile.
// CASE 1: tack::arrays::concatenate: every part must have the same element type; convert the parts that differ with tack::arrays::cast<T>
// CASE 2: tack::arrays::components: every component array must have the same scalar type
// CASE 3: tack::arrays::components: every component array must hold scalars
// CASE 4: tack::arrays::cartesian_product: the coordinate arrays must hold the same scalar type
// CASE 5: tack::arrays::permutation: the indices must be an array of integers
// CASE 6: tack::arrays::random_uniform<T>: T is float or double
// CASE 7: tack::arrays::random_bits<T>: T is std::uint32_t or std::uint64_t
// CASE 8: tack::arrays::cast<U>: the element type of the array does not convert to U

#include <tack/arrays/all.hpp>

#include <cstdint>

int main() {
  namespace ta = tack::arrays;
  auto f = ta::counting<float>(3);
  auto d = ta::counting<double>(3);
  auto i = ta::counting<int>(3);
  auto ok1 = ta::concatenate(f, ta::cast<float>(d), f);
  auto ok2 = ta::components(f, ta::cast<float>(d));
  auto ok3 = ta::cartesian_product(d, d, d);
  auto ok4 = ta::permutation(i, f);
  auto ok5 = ta::random_uniform<double>(3, 1);
  auto ok6 = ta::random_bits<std::uint64_t>(3, 1);
  auto ok7 = ta::cast<tack::vec3d>(ta::uniform_coordinates({1, 1, 1}));
  (void)ok1[0], (void)ok2[0], (void)ok3[0], (void)ok4[0], (void)ok5[0], (void)ok6[0], (void)ok7[0];
#if TACK_COMPILE_FAIL_CASE == 1
  (void)ta::concatenate(f, d);
#elif TACK_COMPILE_FAIL_CASE == 2
  (void)ta::components(f, d, f);
#elif TACK_COMPILE_FAIL_CASE == 3
  (void)ta::components(ta::uniform_coordinates({1, 1, 1}), f);
#elif TACK_COMPILE_FAIL_CASE == 4
  (void)ta::cartesian_product(f, d);
#elif TACK_COMPILE_FAIL_CASE == 5
  (void)ta::permutation(f, d);
#elif TACK_COMPILE_FAIL_CASE == 6
  (void)ta::random_uniform<int>(3, 1);
#elif TACK_COMPILE_FAIL_CASE == 7
  (void)ta::random_bits<float>(3, 1);
#elif TACK_COMPILE_FAIL_CASE == 8
  (void)ta::cast<tack::vec2f>(ta::uniform_coordinates({1, 1, 1}));
#endif
  return 0;
}
