// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
// transform (read-only, and writable through an inverse) and cast: values, element types,
// composition with other implicit arrays, and which results can be stored into.

#include <tack/arrays/cast.hpp>
#include <tack/arrays/counting.hpp>
#include <tack/arrays/transform.hpp>
#include <tack/core/concepts.hpp>
#include <tack/types/vec.hpp>
#include <tack/view/soa_view.hpp>
#include <tack/view/view.hpp>

#include <gtest/gtest.h>

#include <cstdint>
#include <type_traits>
#include <vector>

namespace {

using tack::index_t;
using tack::vec3d;
using tack::vec3f;
namespace ta = tack::arrays;

struct to_celsius {
  TACK_HOST_DEVICE double operator()(double kelvin) const { return kelvin - 273.15; }
};
struct to_kelvin {
  TACK_HOST_DEVICE double operator()(double celsius) const { return celsius + 273.15; }
};
struct norm2 {
  TACK_HOST_DEVICE float operator()(const vec3f& v) const {
    return v[0] * v[0] + v[1] * v[1] + v[2] * v[2];
  }
};
struct scale_vec {
  TACK_HOST_DEVICE vec3f operator()(const vec3f& v) const { return 2.0f * v; }
};
struct halve_vec {
  TACK_HOST_DEVICE vec3f operator()(const vec3f& v) const { return 0.5f * v; }
};

TEST(Transform, AppliesTheFunctionWhenRead) {
  std::vector<double> k{273.15, 300.0, 0.0};
  tack::view<double> kv(k.data(), 3);
  auto c = ta::transform(kv, to_celsius{});
  ASSERT_EQ(c.size(), 3);
  EXPECT_DOUBLE_EQ(c[0], 0.0);
  EXPECT_DOUBLE_EQ(c[1], 300.0 - 273.15);
  k[2] = 10.0;  // lazily evaluated: sees the current value
  EXPECT_DOUBLE_EQ(c[2], 10.0 - 273.15);
  static_assert(!tack::writable_array<decltype(c)>);
  static_assert(std::is_trivially_copyable_v<decltype(c)>);
}

TEST(Transform, ChangesTheElementType) {
  std::vector<vec3f> p{{1, 2, 2}, {0, 3, 4}};
  auto n = ta::transform(tack::view<vec3f>(p.data(), 2), norm2{});
  static_assert(std::is_same_v<decltype(n)::value_type, float>);
  EXPECT_EQ(n[0], 9.0f);
  EXPECT_EQ(n[1], 25.0f);
}

TEST(Transform, OfAComputedArrayAndOfATransform) {
  auto t = ta::transform(ta::transform(ta::counting<double>(3, 1.0), to_kelvin{}), to_celsius{});
  EXPECT_NEAR(t[2], 3.0, 1e-12);
  static_assert(!tack::writable_array<decltype(t)>);
  auto lambda = ta::transform(ta::counting<int>(4), [](int i) { return i * i; });
  EXPECT_EQ(lambda[3], 9);
}

TEST(Transform, WithAnInverseStoresTheInverseOfTheValue) {
  std::vector<double> k{273.15, 300.0};
  auto c = ta::transform(tack::view<double>(k.data(), 2), to_celsius{}, to_kelvin{});
  static_assert(tack::writable_array<decltype(c)>);
  static_assert(std::is_same_v<decltype(c)::value_type, double>);
  static_assert(std::is_same_v<tack::array_value_t<decltype(c)>, double>);
  c[1] = 100.0;
  EXPECT_DOUBLE_EQ(k[1], 373.15);
  EXPECT_DOUBLE_EQ(c[1], 100.0);
  c[0] += 5.0;
  EXPECT_DOUBLE_EQ(k[0], 278.15);
  double read = c[0];
  EXPECT_DOUBLE_EQ(read, 5.0);
  c[0] = c[1];  // proxy to proxy copies the value
  EXPECT_DOUBLE_EQ(k[0], 373.15);
}

TEST(Transform, WithAnInverseOverSoaStorage) {
  std::vector<float> x{1, 2}, y{3, 4}, z{5, 6};
  tack::soa_view<vec3f> v({x.data(), y.data(), z.data()}, {2});
  auto doubled = ta::transform(v, scale_vec{}, halve_vec{});
  static_assert(tack::writable_array<decltype(doubled)>);
  EXPECT_EQ(vec3f(doubled[1]), (vec3f{4, 8, 12}));
  doubled[0] = vec3f{10, 20, 30};
  EXPECT_EQ(x[0], 5.0f);
  EXPECT_EQ(y[0], 10.0f);
  EXPECT_EQ(z[0], 15.0f);
}

TEST(Transform, WithAnInverseOverAComputedArrayIsReadOnly) {
  auto t = ta::transform(ta::counting<double>(3), to_celsius{}, to_kelvin{});
  static_assert(!tack::writable_array<decltype(t)>);
  EXPECT_DOUBLE_EQ(t[0], -273.15);
}

TEST(Transform, WithAnInverseOverAReadOnlyViewIsReadOnly) {
  const std::vector<double> k{1.0};
  auto t = ta::transform(tack::view<const double>(k.data(), 1), to_celsius{}, to_kelvin{});
  static_assert(!tack::writable_array<decltype(t)>);
}

TEST(Cast, ConvertsEachElementWhenRead) {
  auto c = ta::cast<float>(ta::counting<int>(5, -2));
  static_assert(std::is_same_v<decltype(c)::value_type, float>);
  EXPECT_EQ(c[0], -2.0f);
  EXPECT_EQ(c[4], 2.0f);
  std::vector<double> d{1.5, 2.75};
  auto i = ta::cast<std::int32_t>(tack::view<double>(d.data(), 2));
  EXPECT_EQ(i[0], 1);
  EXPECT_EQ(i[1], 2);
  static_assert(!tack::writable_array<decltype(i)>);
}

TEST(Cast, BetweenVectorPrecisions) {
  std::vector<vec3d> p{{1.25, 2.5, 3.75}};
  auto f = ta::cast<vec3f>(tack::view<vec3d>(p.data(), 1));
  static_assert(std::is_same_v<decltype(f)::value_type, vec3f>);
  EXPECT_EQ(f[0], (vec3f{1.25f, 2.5f, 3.75f}));
}

}  // namespace
