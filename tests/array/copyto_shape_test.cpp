// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
// tack::copyto from a source of rank > 1 (a 2-D or 3-D implicit array, a 2-D kernel view) needs
// the destination's shape, not only its element count (the shapes must match); a rank-1
// source fills any destination of its size in row-major order.

#include <tack/array/copyto.hpp>
#include <tack/array/factories.hpp>
#include <tack/arrays/counting.hpp>
#include <tack/arrays/function.hpp>
#include <tack/arrays/uniform_coordinates.hpp>
#include <tack/view/view.hpp>

#include <gtest/gtest.h>

#include "common/tack_test.hpp"

#include <vector>

namespace {

using tack::index_t;
namespace ta = tack::arrays;

TEST(CopytoShape, ARankTwoSourceNeedsTheSameShape) {
  auto grid = ta::function({3, 2}, [](tack::vec<index_t, 2> k) { return double(k[0] * 2 + k[1]); });
  auto same = tack::zeros<double>({3, 2});
  tack::copyto(same, grid);
  EXPECT_EQ(same(2, 1), 5.0);
  auto transposed = tack::zeros<double>({2, 3});  // six elements too
  EXPECT_THROW_MSG(tack::copyto(transposed, grid), tack::value_error, "tack::copyto",
                   "the source's shape (3, 2)", "the destination's shape (2, 3)",
                   transposed.describe());
  EXPECT_EQ(transposed(1, 2), 0.0);  // nothing written
  auto flat = tack::zeros<double>({6});
  EXPECT_THROW_MSG(tack::copyto(flat, grid), tack::value_error, "(3, 2)", "(6)");
}

TEST(CopytoShape, ARankThreeSourceNeedsTheSameShape) {
  auto pts = ta::uniform_coordinates({4, 3, 2});  // shape (2, 3, 4)
  auto out = tack::zeros<tack::vec3f>({2, 3, 4});
  tack::copyto(out, pts);
  EXPECT_EQ(out(1, 2, 3), (tack::vec3f{3, 2, 1}));
  auto other = tack::zeros<tack::vec3f>({4, 3, 2});
  EXPECT_THROW_MSG(tack::copyto(other, pts), tack::value_error, "(2, 3, 4)", "(4, 3, 2)");
}

TEST(CopytoShape, AKernelViewOfRankTwoToo) {
  std::vector<int> memory{1, 2, 3, 4, 5, 6};
  tack::view<const int, 2> v(memory.data(), {2, 3});
  auto ok = tack::zeros<int>({2, 3});
  tack::copyto(ok, v);
  EXPECT_EQ(ok(1, 0), 4);
  auto wrong = tack::zeros<int>({3, 2});
  EXPECT_THROW_MSG(tack::copyto(wrong, v), tack::value_error, "(2, 3)", "(3, 2)");
}

TEST(CopytoShape, ARankOneSourceFillsAnyShapeOfItsSize) {
  auto m = tack::zeros<double>({2, 3});
  tack::copyto(m, ta::counting<double>(6));
  EXPECT_EQ(m(1, 2), 5.0);
  EXPECT_THROW_MSG(tack::copyto(m, ta::counting<double>(5)), tack::value_error, "5 elements", "6");
}

}  // namespace
