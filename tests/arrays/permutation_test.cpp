// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
// permutation: a gather on reads, a scatter on stores; any integer index array; debug-mode bounds
// checks on the index read (this file turns TACK_BOUNDS_CHECK on).

#define TACK_BOUNDS_CHECK 1
#include <tack/arrays/counting.hpp>
#include <tack/arrays/function.hpp>
#include <tack/arrays/permutation.hpp>
#include <tack/core/concepts.hpp>
#include <tack/core/error.hpp>
#include <tack/core/precondition.hpp>
#include <tack/types/vec.hpp>
#include <tack/view/view.hpp>

#include <gtest/gtest.h>

#include "common/tack_test.hpp"

#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

namespace {

using tack::index_t;
namespace ta = tack::arrays;

class Permutation : public ::testing::Test {
protected:
  void SetUp() override {
    previous_ = tack::set_precondition_handler(tack::throwing_precondition_handler);
  }
  void TearDown() override { tack::set_precondition_handler(previous_); }
  tack::precondition_handler previous_ = nullptr;
};

TEST_F(Permutation, GathersValuesByIndex) {
  std::vector<double> values{10, 11, 12, 13};
  std::vector<std::int32_t> order{3, 0, 0, 2};
  auto p = ta::permutation(tack::view<std::int32_t>(order.data(), 4),
                           tack::view<double>(values.data(), 4));
  ASSERT_EQ(p.size(), 4);
  EXPECT_EQ(p[0], 13);
  EXPECT_EQ(p[1], 10);
  EXPECT_EQ(p[2], 10);
  EXPECT_EQ(p[3], 12);
  static_assert(std::is_same_v<decltype(p)::value_type, double>);
}

TEST_F(Permutation, ComputedIndicesReverseAnArray) {
  std::vector<int> values{1, 2, 3, 4, 5};
  auto reversed =
      ta::permutation(ta::counting<index_t>(5, 4, -1), tack::view<int>(values.data(), 5));
  std::vector<int> got(reversed.begin(), reversed.end());
  EXPECT_EQ(got, (std::vector<int>{5, 4, 3, 2, 1}));
}

TEST_F(Permutation, StoresScatter) {
  std::vector<float> values(5, 0.0f);
  std::vector<std::uint8_t> where{4, 1, 3};
  auto p = ta::permutation(tack::view<std::uint8_t>(where.data(), 3),
                           tack::view<float>(values.data(), 5));
  static_assert(tack::writable_array<decltype(p)>);
  p[0] = 1.0f;
  p[1] = 2.0f;
  p[2] += 3.0f;
  EXPECT_EQ(values, (std::vector<float>{0, 2, 0, 3, 1}));
}

TEST_F(Permutation, OfComputedValuesIsReadOnly) {
  auto p = ta::permutation(ta::counting<int>(3, 2), ta::counting<float>(10, 0.0f, 0.5f));
  static_assert(!tack::writable_array<decltype(p)>);
  EXPECT_EQ(p[2], 2.0f);
}

TEST_F(Permutation, IndexOutOfRangeNamesTheIndexAndTheValuesSize) {
  std::vector<float> values(4, 0.0f);
  std::vector<index_t> idx{0, 7, -1};
  auto p = ta::permutation(tack::view<index_t>(idx.data(), 3), tack::view<float>(values.data(), 4));
  EXPECT_EQ(p[0], 0.0f);
  EXPECT_THROW_MSG(p[1], tack::index_error, "permutation", "index 7", "position 1", "size 4");
  // A store is checked too.
  EXPECT_THROW_MSG(p[2] = 1.0f, tack::index_error, "index -1", "size 4");
  EXPECT_EQ(values, (std::vector<float>(4, 0.0f)));  // nothing written
}

TEST_F(Permutation, ImplicitArrayIndexPastItsSizeIsChecked) {
  auto c = ta::counting<int>(3);
  EXPECT_THROW_MSG(c[3], tack::index_error, "index 3", "size 3");
}

}  // namespace
