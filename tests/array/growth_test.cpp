// SPDX-License-Identifier: BSD-3-Clause
// Axom-style growth of tack::array (push_back, insert, erase, resize, reserve, shrink): rules,
// capacity, refusals, views across reallocation.
#include <tack/array/factories.hpp>
#include <tack/array/format.hpp>
#include <tack/array/soa.hpp>
#include <tack/types/vec.hpp>

#include <gtest/gtest.h>

#include "common/tack_test.hpp"

using tack::index_t;

TEST(Growth, CapacityFollowsTheRatioRule) {
  tack::array<double> a;
  EXPECT_EQ(a.capacity(), 0);
  EXPECT_EQ(a.resize_ratio(), 2.0);
  a.push_back(1);  // max(0 * 2 + 0.5, 1) = 1
  EXPECT_EQ(a.capacity(), 1);
  a.push_back(2);  // max(1 * 2 + 0.5, 2) = 2
  EXPECT_EQ(a.capacity(), 2);
  a.push_back(3);  // max(2 * 2 + 0.5, 3) = 4
  EXPECT_EQ(a.capacity(), 4);
  a.push_back(4);
  EXPECT_EQ(a.capacity(), 4);
  a.push_back(5);
  EXPECT_EQ(a.capacity(), 8);
  a.set_resize_ratio(1.5);
  for (int i = 0; i < 4; ++i) a.push_back(6 + i);  // 9 > 8: max(8 * 1.5 + 0.5, 9) = 12
  EXPECT_EQ(a.capacity(), 12);
  EXPECT_EQ(a.size(), 9);
  a.insert(0, 10, 0.0);  // needed 19 > max(12 * 1.5 + 0.5) = 18 -> 19
  EXPECT_EQ(a.capacity(), 19);
}

TEST(Growth, ReservedCapacityNeverReallocates) {
  tack::array<int> a;
  a.reserve(100);
  EXPECT_EQ(a.capacity(), 100);
  const int* before = a.data();
  for (int i = 0; i < 100; ++i) a.push_back(i);
  EXPECT_EQ(a.data(), before);
  EXPECT_EQ(a.capacity(), 100);
  a.reserve(10);  // never shrinks
  EXPECT_EQ(a.capacity(), 100);
  auto b = tack::zeros<int>(5, {.capacity = 50});
  EXPECT_EQ(b.capacity(), 50);
  EXPECT_EQ(b.size(), 5);
}

TEST(Growth, InsertEraseResizeClearShrink) {
  auto a = tack::array_from({1, 2, 3, 4, 5});
  a.erase(1);
  EXPECT_EQ(tack::to_string(a), "[1, 3, 4, 5]");
  a.erase(1, 3);
  EXPECT_EQ(tack::to_string(a), "[1, 5]");
  a.insert(1, std::vector<int>{7, 8});
  EXPECT_EQ(tack::to_string(a), "[1, 7, 8, 5]");
  a.insert(4, 2, 9);
  EXPECT_EQ(tack::to_string(a), "[1, 7, 8, 5, 9, 9]");
  a.append({10, 11});
  EXPECT_EQ(a.size(), 8);
  a.append(tack::array_from({12}));
  EXPECT_EQ(a(8), 12);
  a.resize(3);
  EXPECT_EQ(tack::to_string(a), "[1, 7, 8]");
  a.resize(5, -1);
  EXPECT_EQ(tack::to_string(a), "[1, 7, 8, -1, -1]");
  a.resize(6);
  EXPECT_EQ(a(5), 0);
  a.emplace_back(42);
  EXPECT_EQ(a(6), 42);
  const index_t cap = a.capacity();
  a.clear();
  EXPECT_EQ(a.size(), 0);
  EXPECT_EQ(a.capacity(), cap);
  a.push_back(3);
  a.shrink();
  EXPECT_EQ(a.capacity(), 1);
  EXPECT_EQ(tack::to_string(a), "[3]");
}

TEST(Growth, RowsOfMultidimensionalArrays) {
  auto m = tack::array_from<float>({{1, 2}, {3, 4}});
  m.append({5, 6});
  EXPECT_EQ(m.shape(), (std::array<index_t, 2>{3, 2}));
  m.erase(0);
  EXPECT_EQ(tack::to_string(m), "[[3, 4], [5, 6]]");
  m.resize(3, 9.0f);
  EXPECT_EQ(tack::to_string(m), "[[3, 4], [5, 6], [9, 9]]");
  EXPECT_THROW_MSG(m.append({1, 2, 3}), tack::value_error, "3 values", "rows of 2");
}

TEST(Growth, BadPositionsAndRatios) {
  auto a = tack::array_from({1, 2, 3});
  EXPECT_THROW_MSG(a.insert(4, 0), tack::index_error, "position 4", "[0, 3]");
  EXPECT_THROW_MSG(a.insert(-1, 0), tack::index_error, "position -1");
  EXPECT_THROW_MSG(a.erase(3), tack::index_error, "[3, 4)", "[0, 3)");
  EXPECT_THROW_MSG(a.erase(2, 1), tack::index_error, "[2, 1)");
  EXPECT_THROW_MSG(a.resize(-2), tack::value_error, "-2");
  EXPECT_THROW_MSG(a.reserve(-2), tack::value_error, "-2");
  EXPECT_THROW_MSG(a.set_resize_ratio(0.5), tack::value_error, "set_resize_ratio", "0.5", ">= 1");
  EXPECT_EQ(a.resize_ratio(), 2.0);
  EXPECT_THROW_MSG(a.insert(0, -3, 1), tack::value_error, "count -3");
  EXPECT_EQ(tack::to_string(a), "[1, 2, 3]");  // nothing lost
}

TEST(Growth, ViewsAndReadOnlyArraysRefuseGrowth) {
  auto a = tack::array_from({1, 2, 3, 4});
  auto v = a.rows(1, 3);
  EXPECT_THROW_MSG(v.push_back(1), tack::value_error, "push_back", "view", "rows [1, 3) of 4");
  EXPECT_THROW_MSG(v.resize(1), tack::value_error, "resize", "view");
  EXPECT_THROW_MSG(a.reshape({2, 2}).append({1, 2}), tack::value_error, "append", "view");
  std::vector<int> host{1, 2};
  auto ro = tack::from_ptr(host.data(), {2});
  EXPECT_THROW_MSG(ro.push_back(3), tack::value_error, "borrowed");
}

TEST(Growth, ViewsSurviveReallocationAndReportShrink) {
  auto a = tack::array_from({0, 1, 2, 3, 4, 5});
  auto v = a.rows(2, 4);
  const int* before = a.data();
  for (int i = 0; i < 100; ++i) a.push_back(i);  // reallocates
  EXPECT_NE(a.data(), before);
  EXPECT_EQ(v.to_vector(), (std::vector<int>{2, 3}));  // takes the root's new memory
  v(0) = 20;
  EXPECT_EQ(a(2), 20);
  a.resize(3);  // row 3 no longer exists
  EXPECT_THROW_MSG(v.to_vector(), tack::index_error, "rows [2, 4) of 3", "no longer exists");
  EXPECT_THROW_MSG(v(0), tack::index_error, "no longer exists");
  a.resize(6);  // the rows are back (with new values)
  EXPECT_EQ(v.to_vector().size(), 2u);
}

TEST(Growth, HandlesOfOneRootAgree) {
  tack::array<int> a;
  auto b = a;  // shares the root: growth through one is seen by the other
  a.push_back(1);
  b.push_back(2);
  EXPECT_EQ(a.size(), 2);
  EXPECT_EQ(tack::to_string(b), "[1, 2]");
}

TEST(Growth, GrowthBumpsTheVersion) {
  tack::array<int> a;
  const auto v0 = a.version();
  a.push_back(1);
  EXPECT_GT(a.version(), v0);
  const auto v1 = a.version();
  a.erase(0);
  EXPECT_GT(a.version(), v1);
}

TEST(Growth, SoaArraysGrowComponentByComponent) {
  auto a = tack::zeros<tack::vec3f>(2, {.layout = tack::layout::soa});
  a.push_back({1, 2, 3});
  a.insert(0, tack::vec3f{4, 5, 6});
  EXPECT_EQ(a.size(), 4);
  auto v = a.to_vector();
  EXPECT_EQ(v[0], (tack::vec3f{4, 5, 6}));
  EXPECT_EQ(v[3], (tack::vec3f{1, 2, 3}));
  EXPECT_EQ(a.components()[1].to_vector(), (std::vector<float>{5, 0, 0, 2}));
  a.erase(0, 2);
  EXPECT_EQ(a.size(), 2);
  EXPECT_EQ(a.layout(), tack::layout::soa);
}

// Growth changes every component or none: a component that refuses (its memory is exported)
// leaves the others as they were.
TEST(Growth, SoaGrowthThatFailsChangesNoComponent) {
  auto a = tack::zeros<tack::vec2f>({4}, {.layout = tack::layout::soa});
  a.shrink();  // no spare capacity: growing must reallocate, which the export refuses
  const auto exported = a.components()[1].export_memory();
  EXPECT_THROW_MSG(a.push_back(tack::vec2f{1, 2}), tack::value_error, "push_back");
  EXPECT_THROW_MSG(a.resize(9), tack::value_error, "resize");
  EXPECT_EQ(a.size(), 4);
  EXPECT_EQ(a.components()[0].size(), 4);
  EXPECT_EQ(a.components()[1].size(), 4);
  EXPECT_EQ(a.to_vector(), std::vector<tack::vec2f>(4, tack::vec2f{0, 0}));
}

// soa(z, z) would grow z twice.
TEST(Growth, SoaOfOneArrayTwiceRefusesGrowth) {
  auto z = tack::zeros<float>({2});
  auto zz = tack::soa(z, z);
  EXPECT_THROW_MSG(zz.push_back(tack::vec2f{1, 2}), tack::value_error, "push_back",
                   "components 0 and 1 are the same array");
  EXPECT_EQ(z.size(), 2);
  EXPECT_EQ(zz.to_vector(), std::vector<tack::vec2f>(2, tack::vec2f{0, 0}));
}

// A component resized through its own handle leaves components of different lengths: every use of
// the SoA array is then refused instead of reading past the shorter one.
TEST(Growth, SoaWhoseComponentGrewAloneIsRefused) {
  auto x = tack::zeros<float>({3});
  auto y = tack::zeros<float>({3});
  auto s = tack::soa(x, y);
  x.push_back(7.0f);
  EXPECT_THROW_MSG((void)s.size(), tack::value_error, "component 1", "resized through its own");
  EXPECT_THROW_MSG((void)s.to_vector(), tack::value_error, "no longer have one shape");
  EXPECT_THROW_MSG((void)s.soa_view(), tack::value_error, "no longer have one shape");
  y.push_back(8.0f);  // the same length again
  EXPECT_EQ(s.size(), 4);
  EXPECT_EQ(s.to_vector().back(), (tack::vec2f{7, 8}));
}

TEST(Growth, VectorElements) {
  tack::array<tack::vec2d> pts;
  pts.emplace_back(1.0, 2.0);
  pts.push_back({3, 4});
  EXPECT_EQ(pts(1), (tack::vec2d{3, 4}));
}

TEST(Growth, LargeGrowthKeepsEveryValue) {
  // Past 2 MiB the host allocator grows whole mappings in place (mremap): values must survive,
  // and views must follow the moved memory.
  tack::array<double> a;
  for (int i = 0; i < 3 * 1024 * 1024; ++i) a.push_back(i);
  auto v = a.rows(1000, 1003);
  for (int i = 0; i < 1024 * 1024; ++i) a.push_back(-i);
  EXPECT_EQ(a.size(), 4 * 1024 * 1024);
  auto values = a.to_vector();
  for (std::size_t i = 0; i < values.size(); i += 4093) {
    const double expect = i < 3u * 1024 * 1024 ? double(i) : -double(i - 3u * 1024 * 1024);
    ASSERT_EQ(values[i], expect) << i;
  }
  EXPECT_EQ(v.to_vector(), (std::vector<double>{1000, 1001, 1002}));
  a.reserve(a.capacity() * 2);
  EXPECT_EQ(a(3 * 1024 * 1024 - 1), 3.0 * 1024 * 1024 - 1);
}
