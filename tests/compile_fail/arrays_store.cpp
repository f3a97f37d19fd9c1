// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
// Storing into a computed array does not compile: its elements are values, returned as `const T`
// for class types, so the store is refused by the language (there is no assignable operator[]
// for a static_assert to live in without making tack::writable_array true; see implicit.hpp).
// Through the library's entry points (tack::copyto, tack::fill) the refusal is a static_assert
// that says what to store into instead (cases 6 and 7). `components` is writable in kernels but
// is not storage: copyto and fill into it point to tack::soa (cases 8 and 9). Case 0 shows the
// writable neighbours compile.
// CASE 1: lvalue required as left operand of assignment
// CASE 2: lvalue required as left operand of assignment
// CASE 3: const tack::vec<float, 3>.* argument discards qualifiers
// CASE 4: lvalue required as left operand of assignment
// CASE 5: const tack::vec<float, 3>.* argument discards qualifiers
// CASE 6: tack::copyto: the destination is a computed array.*tack::array.*transform with an inverse
// CASE 7: tack::fill: the destination is a computed array
// CASE 8: tack::copyto: tack::arrays::components is an implicit array, not storage.*tack::soa
// CASE 9: tack::fill: tack::arrays::components is an implicit array, not storage.*tack::soa

#include <tack/array/copyto.hpp>
#include <tack/arrays/all.hpp>
#include <tack/view/view.hpp>

struct twice {
  float operator()(float x) const { return 2 * x; }
};
struct half {
  float operator()(float x) const { return x / 2; }
};

int main() {
  float storage[4] = {};
  tack::view<float> stored(storage, 4);
  auto writable_view = tack::arrays::view(stored, 0, 2);
  writable_view[0] = 1.0f;
  auto inverse = tack::arrays::transform(stored, twice{}, half{});
  inverse[1] = 4.0f;
  auto c = tack::arrays::counting<int>(4);
  auto t = tack::arrays::transform(stored, twice{});
  auto pts = tack::arrays::uniform_coordinates({2, 2, 1});
  (void)c[0];
  (void)t[0];
  (void)pts[0];
  float other[4] = {};
  auto xy = tack::arrays::components(stored, tack::view<float>(other, 4));
  xy[0] = tack::vec2f{1.0f, 2.0f};  // element stores, as a kernel makes them, compile
#if TACK_COMPILE_FAIL_CASE == 1
  c[0] = 1;  // counting is computed
#elif TACK_COMPILE_FAIL_CASE == 2
  t[0] = 1.0f;  // a transform without an inverse
#elif TACK_COMPILE_FAIL_CASE == 3
  pts[0] = tack::vec3f{};  // a computed vector is const
#elif TACK_COMPILE_FAIL_CASE == 4
  tack::arrays::view(c, 0, 2)[0] = 1;  // a view of a computed array
#elif TACK_COMPILE_FAIL_CASE == 5
  tack::arrays::constant(tack::vec3f{}, 4)[0] = tack::vec3f{};  // a constant vector
#elif TACK_COMPILE_FAIL_CASE == 6
  tack::copyto(t, stored);  // a transform without an inverse, through the library
#elif TACK_COMPILE_FAIL_CASE == 7
  tack::fill(c, 0);
#elif TACK_COMPILE_FAIL_CASE == 8
  tack::copyto(xy, tack::arrays::constant(tack::vec2f{}, 4));  // components is not storage
#elif TACK_COMPILE_FAIL_CASE == 9
  tack::fill(xy, tack::vec2f{});
#endif
  tack::copyto(inverse, stored);
  tack::fill(writable_view, 2.0f);
  return 0;
}
