// SPDX-License-Identifier: BSD-3-Clause
// Implicit arrays of rank 2 and 3 (several indices arrive as one vec<index_t, N>):
// a(i, j, k), a[vec], shape(), extent(d), the flat row-major a[k], user classes, reductions and
// copyto into a tack::array of the same shape.
#include <tack/algorithms/reduce.hpp>
#include <tack/array/copyto.hpp>
#include <tack/array/factories.hpp>
#include <tack/arrays/all.hpp>
#include <tack/core/concepts.hpp>
#include <tack/types/vec.hpp>

#include <gtest/gtest.h>

#include "common/tack_test.hpp"

#include <array>
#include <vector>

using tack::index_t;
namespace ta = tack::arrays;
using idx3 = tack::vec<index_t, 3>;
using idx2 = tack::vec<index_t, 2>;

namespace {
// A user class joining the protocol: flat and vector indexing, size and shape.
struct checkerboard {
  index_t rows = 3, cols = 4;
  TACK_HOST_DEVICE int operator[](idx2 k) const { return int((k[0] + k[1]) % 2); }
  TACK_HOST_DEVICE int operator[](index_t i) const { return (*this)[idx2{i / cols, i % cols}]; }
  TACK_HOST_DEVICE index_t size() const { return rows * cols; }
  TACK_HOST_DEVICE std::array<index_t, 2> shape() const { return {rows, cols}; }
};
}  // namespace

static_assert(tack::multi_index_array<checkerboard, 2>);
static_assert(tack::multi_index_array<decltype(ta::uniform_coordinates({2, 2, 2})), 3>);
static_assert(!tack::multi_index_array<decltype(ta::counting<int>(3)), 2>);

TEST(MultiIndex, UniformCoordinatesAreRank3WithXFastest) {
  auto pts = ta::uniform_coordinates({4, 3, 2}, tack::vec3f{0, 0, 0}, tack::vec3f{1, 10, 100});
  static_assert(decltype(pts)::rank == 3);
  EXPECT_EQ(pts.shape(), (std::array<index_t, 3>{2, 3, 4}));
  EXPECT_EQ(pts.extent(0), 2);
  EXPECT_EQ(pts.extent(2), 4);
  for (index_t k = 0; k < 2; ++k)
    for (index_t j = 0; j < 3; ++j)
      for (index_t i = 0; i < 4; ++i) {
        const tack::vec3f expected{float(i), 10.0f * float(j), 100.0f * float(k)};
        EXPECT_EQ(pts(k, j, i), expected);
        EXPECT_EQ((pts[idx3{k, j, i}]), expected);
        EXPECT_EQ(pts[i + 4 * (j + 3 * k)], expected);  // flat, row-major
      }
}

TEST(MultiIndex, CartesianProductOfTwoAndThreeAxes) {
  auto xs = ta::counting<double>(3, 0.5), ys = ta::counting<double>(2, 10.0);
  auto p2 = ta::cartesian_product(xs, ys);
  static_assert(decltype(p2)::rank == 2);
  EXPECT_EQ(p2.shape(), (std::array<index_t, 2>{2, 3}));
  EXPECT_EQ(p2(1, 2), (tack::vec2d{2.5, 11.0}));
  EXPECT_EQ((p2[idx2{1, 2}]), p2[5]);
  auto p3 = ta::cartesian_product(xs, ys, ta::counting<double>(4, 100.0));
  EXPECT_EQ(p3.shape(), (std::array<index_t, 3>{4, 2, 3}));
  EXPECT_EQ(p3(3, 1, 2), (tack::vec3d{2.5, 11.0, 103.0}));
  EXPECT_EQ(p3(3, 1, 2), p3[2 + 3 * (1 + 2 * 3)]);
}

TEST(MultiIndex, FunctionOverAShape) {
  auto f = ta::function({2, 3, 4}, [](idx3 k) { return double(100 * k[0] + 10 * k[1] + k[2]); });
  static_assert(decltype(f)::rank == 3);
  EXPECT_EQ(f.size(), 24);
  EXPECT_EQ(f(1, 2, 3), 123.0);
  EXPECT_EQ(f[23], 123.0);  // the flat index splits row-major
  EXPECT_EQ(f[4], 10.0);
  EXPECT_THROW_MSG((void)ta::function({2, -1}, [](idx2) { return 0; }), tack::value_error,
                   "tack::arrays::function", "-1");
  // extents whose element count does not fit an index
  const index_t big = index_t{3} << 31;
  EXPECT_THROW_MSG((void)ta::function({big, big}, [](idx2) { return 0; }), tack::value_error,
                   "tack::arrays::function", "(6442450944, 6442450944)", "more elements");
  EXPECT_THROW_MSG(
      (void)ta::uniform_coordinates({index_t{1} << 22, index_t{1} << 22, index_t{1} << 21}),
      tack::value_error, "tack::arrays::uniform_coordinates", "more elements");
  EXPECT_THROW_MSG(
      (void)ta::uniform_coordinates({index_t{1} << 40, index_t{1} << 40}, tack::vec2f{0, 0}),
      tack::value_error, "tack::arrays::uniform_coordinates", "more elements");
  const auto axis = ta::counting<float>(index_t{1} << 32);
  EXPECT_THROW_MSG((void)ta::cartesian_product(axis, axis), tack::value_error,
                   "tack::arrays::cartesian_product", "more elements");
}

TEST(MultiIndex, ReductionsReadEveryElement) {
  auto f = ta::function({2, 3}, [](idx2 k) { return double(k[0] * 3 + k[1]); });
  EXPECT_EQ(tack::sum(f), 15.0);
  EXPECT_EQ(tack::max(f), 5.0);
  auto pts = ta::uniform_coordinates({2, 2, 2});
  EXPECT_EQ(tack::sum(pts), 12.0f);  // four points at 1 on each axis
}

TEST(MultiIndex, CopyIntoAnArrayOfTheSameShape) {
  auto pts = ta::uniform_coordinates({3, 2, 2});
  auto out = tack::zeros<tack::vec3f>({2, 2, 3});
  tack::copyto(out, pts);
  for (index_t k = 0; k < 2; ++k)
    for (index_t j = 0; j < 2; ++j)
      for (index_t i = 0; i < 3; ++i) EXPECT_EQ(out(k, j, i), pts(k, j, i));
  auto grid = tack::zeros<int>({3, 4});
  tack::copyto(grid, checkerboard{});
  EXPECT_EQ(grid(1, 2), 1);
  EXPECT_EQ(grid(2, 2), 0);
}
