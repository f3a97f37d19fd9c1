// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
// concatenate: any number of parts of the same element type, reads and stores going to the part
// holding the index, mixed stored/computed and AoS/SoA parts, empty parts.

#include <tack/arrays/cast.hpp>
#include <tack/arrays/concatenate.hpp>
#include <tack/arrays/constant.hpp>
#include <tack/arrays/counting.hpp>
#include <tack/core/concepts.hpp>
#include <tack/types/vec.hpp>
#include <tack/view/soa_view.hpp>
#include <tack/view/view.hpp>

#include <gtest/gtest.h>

#include <type_traits>
#include <vector>

namespace {

using tack::index_t;
using tack::vec3f;
namespace ta = tack::arrays;

TEST(Concatenate, TwoParts) {
  auto c = ta::concatenate(ta::counting<int>(3), ta::counting<int>(2, 100));
  ASSERT_EQ(c.size(), 5);
  std::vector<int> v(c.begin(), c.end());
  EXPECT_EQ(v, (std::vector<int>{0, 1, 2, 100, 101}));
  static_assert(!tack::writable_array<decltype(c)>);
  static_assert(std::is_trivially_copyable_v<decltype(c)>);
}

TEST(Concatenate, ManyPartsIncludingEmptyOnes) {
  auto c = ta::concatenate(ta::constant(1, 0), ta::constant(2, 2), ta::constant(3, 0),
                           ta::counting<int>(3, 7), ta::constant(9, 1));
  std::vector<int> v(c.begin(), c.end());
  EXPECT_EQ(v, (std::vector<int>{2, 2, 7, 8, 9, 9}));
  auto e = ta::concatenate(ta::constant(1, 0), ta::constant(1, 0));
  EXPECT_EQ(e.size(), 0);
}

TEST(Concatenate, StoresIntoThePartHoldingTheIndex) {
  std::vector<float> a(3, 0.0f), b(2, 0.0f);
  auto c = ta::concatenate(tack::view<float>(a.data(), 3), tack::view<float>(b.data(), 2));
  static_assert(tack::writable_array<decltype(c)>);
  static_assert(std::is_same_v<decltype(c[0]), float&>);  // the parts' own reference
  for (index_t i = 0; i < 5; ++i) c[i] = float(i + 1);
  EXPECT_EQ(a, (std::vector<float>{1, 2, 3}));
  EXPECT_EQ(b, (std::vector<float>{4, 5}));
}

TEST(Concatenate, AoSAndSoAPartsWriteThroughAProxy) {
  std::vector<vec3f> aos{{1, 1, 1}};
  std::vector<float> x{2, 3}, y{2, 3}, z{2, 3};
  auto c = ta::concatenate(tack::view<vec3f>(aos.data(), 1),
                           tack::soa_view<vec3f>({x.data(), y.data(), z.data()}, {2}));
  static_assert(tack::writable_array<decltype(c)>);
  static_assert(std::is_same_v<tack::array_value_t<decltype(c)>, vec3f>);
  EXPECT_EQ(vec3f(c[0]), (vec3f{1, 1, 1}));
  EXPECT_EQ(vec3f(c[2]), (vec3f{3, 3, 3}));
  c[0] = vec3f{7, 8, 9};
  c[2] = vec3f{4, 5, 6};
  c[1] += vec3f{1, 1, 1};
  EXPECT_EQ(aos[0], (vec3f{7, 8, 9}));
  EXPECT_EQ(x[1], 4.0f);
  EXPECT_EQ(z[1], 6.0f);
  EXPECT_EQ(y[0], 3.0f);
  EXPECT_EQ((c[2] + vec3f{1, 1, 1}), (vec3f{5, 6, 7}));  // proxies take part in arithmetic
}

TEST(Concatenate, StoredAndComputedPartsAreReadOnly) {
  std::vector<double> a{1, 2};
  auto c = ta::concatenate(tack::view<double>(a.data(), 2), ta::counting<double>(2, 3.0));
  static_assert(!tack::writable_array<decltype(c)>);
  std::vector<double> v(c.begin(), c.end());
  EXPECT_EQ(v, (std::vector<double>{1, 2, 3, 4}));
}

TEST(Concatenate, CastMakesElementTypesAgree) {
  auto c = ta::concatenate(ta::counting<float>(2), ta::cast<float>(ta::counting<int>(2, 5)));
  EXPECT_EQ(c[3], 6.0f);
}

}  // namespace
