// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
// make_view<T, E...>: one run-time extent per tack::dyn, and const memory needs a const view.
// CASE 1: pass one run-time extent per tack::dyn in E
// CASE 2: pass one run-time extent per tack::dyn in E
// CASE 3: the memory is const; use tack::make_view<const T, ...>
// CASE 4: the pointer must point to T
#include <tack/view/make_view.hpp>
#include <tack/view/mdview.hpp>

int main() {
  double memory[33] = {};
  auto v = tack::make_view<double, 3, tack::dyn>(memory, 11);
  const void* raw = memory;
  auto r = tack::make_view<const double, tack::dyn>(raw, 33);
  double total = v(2, 10) + r[32];
#if TACK_COMPILE_FAIL_CASE == 1
  auto w = tack::make_view<double, 3, tack::dyn>(memory);  // the dyn extent is missing
  total += w(0, 0);
#elif TACK_COMPILE_FAIL_CASE == 2
  auto w = tack::make_view<double, 3, 11>(memory, 11);  // no dyn, one value too many
  total += w(0, 0);
#elif TACK_COMPILE_FAIL_CASE == 3
  auto w = tack::make_view<double, tack::dyn>(raw, 33);  // writable view of const memory
  total += w[0];
#elif TACK_COMPILE_FAIL_CASE == 4
  float floats[4] = {};
  auto w = tack::make_view<double, 2>(floats);  // float* is not a double*
  total += w[0];
#endif
  return int(total);
}
