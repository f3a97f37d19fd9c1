// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
// operator() of a view takes exactly one index per dimension; the error says how many.
// CASE 1: rank-2 view takes exactly 2 indices, one per dimension
// CASE 2: rank-3 view takes exactly 3 indices, one per dimension
// CASE 3: rank-1 view takes exactly 1 index, one per dimension
// CASE 4: rank-2 view takes exactly 2 indices, one per dimension
// CASE 5: rank-2 view takes exactly 2 indices, one per dimension
// CASE 6: operator\[\] takes one index and exists on rank-1 views
#include <tack/types/item.hpp>
#include <tack/view/array_view.hpp>
#include <tack/view/mdview.hpp>
#include <tack/view/soa_view.hpp>
#include <tack/view/view.hpp>

int main() {
  float memory[12] = {};
  tack::view<float, 2> v(memory, {4, 3});
  tack::mdview<float, tack::dextents<3>> m(memory, 2, 2, 3);
  tack::view<float> one(memory, 12);
  tack::mc_array_view<float> c(memory, 6, 2);
  float* comps[3] = {memory, memory + 4, memory + 8};
  tack::soa_view<tack::vec3f, 2> s(comps, {2, 2});
  float total = v(1, 2) + m(1, 1, 2) + one(3) + c(5, 1) + s(1, 1)[0];
#if TACK_COMPILE_FAIL_CASE == 1
  total += v(1);  // a rank-2 view with one index
#elif TACK_COMPILE_FAIL_CASE == 2
  total += m(1, 2);  // a rank-3 mdview with two indices
#elif TACK_COMPILE_FAIL_CASE == 3
  total += one(1, 2);  // a rank-1 view with two indices
#elif TACK_COMPILE_FAIL_CASE == 4
  total += c(1, 1, 0);  // an MCArrayView with three indices
#elif TACK_COMPILE_FAIL_CASE == 5
  total += s(3)[0];  // a rank-2 soa_view with one index
#elif TACK_COMPILE_FAIL_CASE == 6
  tack::mdview<float, tack::dextents<2>> m2(memory, 4, 3);
  total += m2[1];  // operator[] on a rank-2 mdview
#endif
  return int(total);
}
