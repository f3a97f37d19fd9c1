// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
// view (a stretch of an array) and strided (every k-th element): values, stores landing in the
// wrapped array, composition, and refused ranges and steps (exception type and message).

#include <tack/arrays/counting.hpp>
#include <tack/arrays/strided.hpp>
#include <tack/arrays/view.hpp>
#include <tack/core/concepts.hpp>
#include <tack/core/error.hpp>
#include <tack/types/vec.hpp>
#include <tack/view/soa_view.hpp>
#include <tack/view/view.hpp>

#include <gtest/gtest.h>

#include "common/tack_test.hpp"

#include <limits>
#include <string>
#include <type_traits>
#include <vector>

namespace {

using tack::index_t;
using tack::vec3f;
namespace ta = tack::arrays;

TEST(View, ReadsAStretch) {
  auto v = ta::view(ta::counting<int>(10), 3, 4);
  ASSERT_EQ(v.size(), 4);
  EXPECT_EQ(v[0], 3);
  EXPECT_EQ(v[3], 6);
  static_assert(!tack::writable_array<decltype(v)>);
}

TEST(View, StoresIntoTheWrappedArray) {
  std::vector<float> data{0, 1, 2, 3, 4, 5};
  auto v = ta::view(tack::view<float>(data.data(), 6), 2, 3);
  static_assert(tack::writable_array<decltype(v)>);
  static_assert(tack::addressable_array<decltype(v)>);  // a real address: float&
  v[0] = 20;
  v[2] += 40;
  EXPECT_EQ(data, (std::vector<float>{0, 1, 20, 3, 44, 5}));
  EXPECT_EQ(&v[1], &data[3]);
}

TEST(View, OfAViewAndEmptyViews) {
  auto vv = ta::view(ta::view(ta::counting<int>(10), 2, 6), 1, 2);
  EXPECT_EQ(vv[0], 3);
  EXPECT_EQ(vv[1], 4);
  EXPECT_EQ(ta::view(ta::counting<int>(3), 3, 0).size(), 0);
  EXPECT_EQ(ta::view(ta::counting<int>(3), 0, 0).size(), 0);
}

TEST(View, OutOfRangeIsAnIndexErrorNamingStartCountAndSize) {
  auto c = ta::counting<int>(5);
  std::string m = tack::test::error_message<tack::index_error>([&] { (void)ta::view(c, 3, 4); });
  EXPECT_NE(m.find("tack::arrays::view"), std::string::npos) << m;
  EXPECT_NE(m.find("[3, 3 + 4)"), std::string::npos) << m;
  EXPECT_NE(m.find("size 5"), std::string::npos) << m;
  m = tack::test::error_message<tack::index_error>([&] { (void)ta::view(c, -1, 2); });
  EXPECT_NE(m.find("-1"), std::string::npos) << m;
  m = tack::test::error_message<tack::index_error>([&] { (void)ta::view(c, 0, -2); });
  EXPECT_NE(m.find("-2"), std::string::npos) << m;
}

TEST(Strided, EveryStepthElementFromTheOffset) {
  auto s = ta::strided(ta::counting<int>(10), 3);
  ASSERT_EQ(s.size(), 4);  // 0 3 6 9
  EXPECT_EQ(s[3], 9);
  auto o = ta::strided(ta::counting<int>(10), 3, 2);
  ASSERT_EQ(o.size(), 3);  // 2 5 8
  EXPECT_EQ(o[0], 2);
  EXPECT_EQ(o[2], 8);
  EXPECT_EQ(ta::strided(ta::counting<int>(10), 1).size(), 10);
  EXPECT_EQ(ta::strided(ta::counting<int>(10), 20).size(), 1);
  EXPECT_EQ(ta::strided(ta::counting<int>(10), 2, 10).size(), 0);
  EXPECT_EQ(ta::strided(ta::counting<int>(0), 2).size(), 0);
  EXPECT_EQ(ta::strided(ta::counting<int>(10), std::numeric_limits<index_t>::max(), 3).size(), 1);
}

TEST(Strided, StoresIntoTheWrappedArray) {
  std::vector<int> data(7, 0);
  auto s = ta::strided(tack::view<int>(data.data(), 7), 2, 1);
  static_assert(tack::writable_array<decltype(s)>);
  for (index_t i = 0; i < s.size(); ++i) s[i] = int(10 + i);
  EXPECT_EQ(data, (std::vector<int>{0, 10, 0, 11, 0, 12, 0}));
}

TEST(Strided, OverSoaVectorsWritesEveryComponent) {
  std::vector<float> x(4, 0), y(4, 0), z(4, 0);
  tack::soa_view<vec3f> v({x.data(), y.data(), z.data()}, {4});
  auto s = ta::strided(v, 2);
  static_assert(tack::writable_array<decltype(s)>);
  s[1] = vec3f{1, 2, 3};
  EXPECT_EQ(x[2], 1.0f);
  EXPECT_EQ(y[2], 2.0f);
  EXPECT_EQ(z[2], 3.0f);
  EXPECT_EQ(vec3f(v[2]), (vec3f{1, 2, 3}));
}

TEST(Strided, StepZeroOrNegativeIsAValueErrorNamingStridedAndTheStep) {
  auto c = ta::counting<int>(5);
  std::string m = tack::test::error_message<tack::value_error>([&] { (void)ta::strided(c, 0); });
  EXPECT_NE(m.find("strided"), std::string::npos) << m;
  EXPECT_NE(m.find("got 0"), std::string::npos) << m;
  m = tack::test::error_message<tack::value_error>([&] { (void)ta::strided(c, -2); });
  EXPECT_NE(m.find("strided"), std::string::npos) << m;
  EXPECT_NE(m.find("-2"), std::string::npos) << m;
}

TEST(Strided, OffsetOutsideTheArrayIsAnIndexError) {
  auto c = ta::counting<int>(5);
  std::string m = tack::test::error_message<tack::index_error>([&] { (void)ta::strided(c, 1, 6); });
  EXPECT_NE(m.find("offset 6"), std::string::npos) << m;
  EXPECT_NE(m.find("size 5"), std::string::npos) << m;
  m = tack::test::error_message<tack::index_error>([&] { (void)ta::strided(c, 1, -1); });
  EXPECT_NE(m.find("offset -1"), std::string::npos) << m;
}

}  // namespace
