// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
// uniform_coordinates of a 2-D grid: a rank-2 implicit array of shape (ny, nx), indexed as
// a(j, i) and a[vec2], read by the algorithms and copied into an array of the same shape; the
// braced-list and std::array forms pick 2-D or 3-D by the number of dimensions.

#include <tack/algorithms/reduce.hpp>
#include <tack/array/copyto.hpp>
#include <tack/array/factories.hpp>
#include <tack/arrays/uniform_coordinates.hpp>
#include <tack/core/concepts.hpp>
#include <tack/types/vec.hpp>

#include <gtest/gtest.h>

#include "common/tack_test.hpp"

#include <array>
#include <type_traits>

namespace {

using tack::index_t;
using tack::vec2d;
using tack::vec2f;
namespace ta = tack::arrays;

TEST(UniformCoordinates2D, RankTwoXFastest) {
  auto p = ta::uniform_coordinates({3, 2}, vec2f{1, 2}, vec2f{0.5f, 10});
  static_assert(std::is_same_v<decltype(p)::value_type, vec2f>);
  static_assert(decltype(p)::rank == 2);
  static_assert(std::is_trivially_copyable_v<decltype(p)>);
  static_assert(!tack::writable_array<decltype(p)>);
  EXPECT_EQ(p.size(), 6);
  EXPECT_EQ(p.shape(), (std::array<index_t, 2>{2, 3}));
  for (index_t j = 0; j < 2; ++j) {
    for (index_t i = 0; i < 3; ++i) {
      const vec2f expected{1 + 0.5f * static_cast<float>(i), 2 + 10 * static_cast<float>(j)};
      EXPECT_EQ(p(j, i), expected);
      EXPECT_EQ((p[tack::vec<index_t, 2>{j, i}]), expected);
      EXPECT_EQ(p[i + 3 * j], expected);
    }
  }
}

TEST(UniformCoordinates2D, DimensionsFromArraysAndVectors) {
  auto d = ta::uniform_coordinates<double>(std::array<index_t, 2>{2, 4});
  static_assert(std::is_same_v<decltype(d)::value_type, vec2d>);
  EXPECT_EQ(d.shape(), (std::array<index_t, 2>{4, 2}));
  EXPECT_EQ(d(3, 1), (vec2d{1, 3}));
  auto from_vec = ta::uniform_coordinates(tack::vec<int, 2>{4, 1});
  EXPECT_EQ(from_vec.shape(), (std::array<index_t, 2>{1, 4}));
  EXPECT_EQ(from_vec[3], (vec2f{3, 0}));
  // Three dimensions still give the 3-D form.
  auto three = ta::uniform_coordinates({2, 2, 2});
  static_assert(decltype(three)::rank == 3);
  auto empty = ta::uniform_coordinates({0, 5});
  EXPECT_EQ(empty.size(), 0);
}

TEST(UniformCoordinates2D, AlgorithmsAndCopyto) {
  auto p = ta::uniform_coordinates({4, 3});
  // x: 0..3 on each of 3 rows; y: 0..2 on each of 4 columns.
  EXPECT_EQ(tack::sum(p), 30.0f);  // the sum of every component
  auto out = tack::zeros<vec2f>({3, 4});
  tack::copyto(out, p);
  EXPECT_EQ(out(2, 3), (vec2f{3, 2}));
  EXPECT_EQ(out(1, 0), (vec2f{0, 1}));
}

TEST(UniformCoordinates2D, NegativeDimensionsAreRefused) {
  EXPECT_THROW_MSG(ta::uniform_coordinates({2, -1}), tack::value_error, "uniform_coordinates",
                   "(2, -1)");
}

}  // namespace
