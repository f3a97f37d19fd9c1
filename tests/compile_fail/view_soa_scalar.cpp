// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
// soa_view splits vector and matrix components; a scalar element type is refused with one message.
// CASE 1: use tack::view<T> for scalar arrays
// CASE 2: T must be tack::vec<S, N> or tack::mat<S, R, C>
#include <tack/types/item.hpp>
#include <tack/view/soa_view.hpp>

struct particle {
  float x, y;
};

int main() {
  float x[4] = {}, y[4] = {};
  tack::soa_view<tack::vec2f> ok({x, y}, 4);
  ok[0] = tack::vec2f{1, 2};
#if TACK_COMPILE_FAIL_CASE == 1
  tack::soa_view<float> scalar;
  (void)scalar;
#elif TACK_COMPILE_FAIL_CASE == 2
  tack::soa_view<particle> other;
  (void)other;
#endif
  return int(x[0]);
}
