// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
// cartesian_product and uniform_coordinates: grid points with x varying fastest (VTK's order),
// 2-D and 3-D, any readable coordinate arrays, empty axes, and refused dimensions.

#include <tack/arrays/cartesian_product.hpp>
#include <tack/arrays/counting.hpp>
#include <tack/arrays/uniform_coordinates.hpp>
#include <tack/core/concepts.hpp>
#include <tack/core/error.hpp>
#include <tack/types/vec.hpp>
#include <tack/view/view.hpp>

#include <gtest/gtest.h>

#include "common/tack_test.hpp"

#include <array>
#include <string>
#include <type_traits>
#include <vector>

namespace {

using tack::index_t;
using tack::vec2d;
using tack::vec3f;
namespace ta = tack::arrays;

TEST(CartesianProduct, ThreeAxesXFastest) {
  std::vector<float> xs{0, 1, 2}, ys{10, 20}, zs{-1, -2};
  tack::view<float> x(xs.data(), 3), y(ys.data(), 2), z(zs.data(), 2);
  auto p = ta::cartesian_product(x, y, z);
  static_assert(std::is_same_v<decltype(p)::value_type, vec3f>);
  ASSERT_EQ(p.size(), 12);
  index_t i = 0;
  for (index_t k = 0; k < 2; ++k)
    for (index_t j = 0; j < 2; ++j)
      for (index_t l = 0; l < 3; ++l, ++i) EXPECT_EQ(p[i], (vec3f{xs[l], ys[j], zs[k]})) << i;
  EXPECT_EQ(p[1], (vec3f{1, 10, -1}));
  EXPECT_EQ(p[3], (vec3f{0, 20, -1}));
  EXPECT_EQ(p[6], (vec3f{0, 10, -2}));
  static_assert(std::is_trivially_copyable_v<decltype(p)>);
  static_assert(!tack::writable_array<decltype(p)>);
}

TEST(CartesianProduct, TwoAxesOfComputedCoordinates) {
  auto p = ta::cartesian_product(ta::counting<double>(4, 0.0, 0.25), ta::counting<double>(3, 1.0));
  static_assert(std::is_same_v<decltype(p)::value_type, vec2d>);
  ASSERT_EQ(p.size(), 12);
  EXPECT_EQ(p[0], (vec2d{0.0, 1.0}));
  EXPECT_EQ(p[5], (vec2d{0.25, 2.0}));
  EXPECT_EQ(p[11], (vec2d{0.75, 3.0}));
}

TEST(CartesianProduct, AnEmptyAxisGivesAnEmptyArray) {
  auto p =
      ta::cartesian_product(ta::counting<float>(3), ta::counting<float>(0), ta::counting<float>(2));
  EXPECT_EQ(p.size(), 0);
}

TEST(UniformCoordinates, PointsOfAUniformGrid) {
  auto p = ta::uniform_coordinates({3, 2, 2}, vec3f{1, 2, 3}, vec3f{0.5f, 1, 2});
  static_assert(std::is_same_v<decltype(p)::value_type, vec3f>);
  ASSERT_EQ(p.size(), 12);
  EXPECT_EQ(p[0], (vec3f{1, 2, 3}));
  EXPECT_EQ(p[1], (vec3f{1.5f, 2, 3}));
  EXPECT_EQ(p[2], (vec3f{2, 2, 3}));
  EXPECT_EQ(p[3], (vec3f{1, 3, 3}));
  EXPECT_EQ(p[6], (vec3f{1, 2, 5}));
  EXPECT_EQ(p[11], (vec3f{2, 3, 5}));
  static_assert(std::is_trivially_copyable_v<decltype(p)>);
  static_assert(!tack::writable_array<decltype(p)>);
}

TEST(UniformCoordinates, DefaultsToUnitSpacingAtTheOrigin) {
  auto p = ta::uniform_coordinates({2, 2, 2});
  ASSERT_EQ(p.size(), 8);
  EXPECT_EQ(p[7], (vec3f{1, 1, 1}));
  auto d = ta::uniform_coordinates<double>(std::array<index_t, 3>{2, 1, 1});
  static_assert(std::is_same_v<decltype(d)::value_type, tack::vec3d>);
  EXPECT_EQ(d[1], (tack::vec3d{1, 0, 0}));
  auto from_vec = ta::uniform_coordinates(tack::vec3i{4, 1, 1});
  EXPECT_EQ(from_vec.size(), 4);
}

TEST(UniformCoordinates, MatchesTheCartesianProductOfItsAxes) {
  const vec3f origin{-1, 0, 2}, spacing{0.25f, 0.5f, 1};
  auto u = ta::uniform_coordinates({5, 4, 3}, origin, spacing);
  auto c = ta::cartesian_product(ta::counting<float>(5, origin[0], spacing[0]),
                                 ta::counting<float>(4, origin[1], spacing[1]),
                                 ta::counting<float>(3, origin[2], spacing[2]));
  ASSERT_EQ(u.size(), c.size());
  for (index_t i = 0; i < u.size(); ++i) EXPECT_EQ(u[i], c[i]) << i;
}

TEST(UniformCoordinates, NegativeDimensionIsAValueError) {
  EXPECT_THROW_MSG(ta::uniform_coordinates({2, -1, 2}), tack::value_error, "uniform_coordinates",
                   "-1");
}

}  // namespace
