// SPDX-License-Identifier: BSD-3-Clause
// Interpolation refuses at compile time a field of integers and points that are not vec3f or vec3d.
// CASE 1: interpolation needs a floating-point element type
// CASE 2: a point is a vec3f or a vec3d
// CASE 3: interpolation needs a floating-point element type
#include <tack/array/factories.hpp>
#include <tack/dataset/field.hpp>
#include <tack/dataset/uniform_grid.hpp>
#include <tack/types/vec.hpp>

int main() {
  namespace td = tack::dataset;
  const td::uniform_grid g({2, 2, 2});
  const td::field<float> f(td::H1(g), tack::zeros<float>(g.n_points()));
  const auto points = tack::zeros<tack::vec3d>(4);
  (void)f.interpolate(tack::vec3f{0.5f, 0.5f, 0.5f});
  (void)f.interpolate(points);
#if TACK_COMPILE_FAIL_CASE == 1
  const td::field<int> counts(td::H1(g), tack::zeros<int>(g.n_points()));
  (void)counts.interpolate(tack::vec3d{0.5, 0.5, 0.5});
#elif TACK_COMPILE_FAIL_CASE == 2
  (void)f.interpolate(tack::vec<int, 3>{0, 0, 0});
#elif TACK_COMPILE_FAIL_CASE == 3
  const td::field<int> counts(td::H1(g), tack::zeros<int>(g.n_points()));
  (void)counts.interpolate(points);
#endif
  return 0;
}
