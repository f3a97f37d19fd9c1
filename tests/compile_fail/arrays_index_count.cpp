// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
// An implicit array takes as many indices as its rank: a(k, j, i) for uniform_coordinates (rank
// 3), a(j, i) for a cartesian product of two axes, a(i) for counting; a[k] is the flat element.
// CASE 1: implicit array takes as many indices as its rank
// CASE 2: implicit array takes as many indices as its rank
// CASE 3: implicit array takes as many indices as its rank

#include <tack/arrays/all.hpp>

int main() {
  auto pts = tack::arrays::uniform_coordinates({2, 2, 2});
  auto xy = tack::arrays::cartesian_product(tack::arrays::counting<float>(2),
                                            tack::arrays::counting<float>(3));
  auto c = tack::arrays::counting<int>(4);
  (void)pts(1, 1, 1);
  (void)pts[3];
  (void)xy(2, 1);
  (void)c(2);
#if TACK_COMPILE_FAIL_CASE == 1
  (void)pts(1, 1);
#elif TACK_COMPILE_FAIL_CASE == 2
  (void)xy(1, 1, 1);
#elif TACK_COMPILE_FAIL_CASE == 3
  (void)c(1, 2);
#endif
  return 0;
}
