// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
// tack::vec<T, N>: construction, access, arithmetic rules, geometry, printing.

// Bounds checks on for this file whatever the build type, so out-of-range access is testable.
#undef TACK_BOUNDS_CHECK
#define TACK_BOUNDS_CHECK 1

#include <tack/core/error.hpp>
#include <tack/core/precondition.hpp>
#include <tack/types/format.hpp>
#include <tack/types/vec.hpp>

#include <gtest/gtest.h>

#include "common/tack_test.hpp"

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <sstream>
#include <string>
#include <type_traits>

namespace {

using tack::vec;
using tack::vec2d;
using tack::vec2f;
using tack::vec3d;
using tack::vec3f;
using tack::vec3i;
using tack::vec4f;

// Installs the throwing precondition handler for one test, restoring the previous one after.
class VecChecked : public ::testing::Test {
protected:
  void SetUp() override {
    previous_ = tack::set_precondition_handler(tack::throwing_precondition_handler);
  }
  void TearDown() override { tack::set_precondition_handler(previous_); }
  tack::precondition_handler previous_ = nullptr;
};

TEST(Vec, BraceConstructionConvertsEachValue) {
  const vec3f v{1, 2.5, 3.0f};
  EXPECT_EQ(v[0], 1.0f);
  EXPECT_EQ(v[1], 2.5f);
  EXPECT_EQ(v[2], 3.0f);
  const vec3i w{1, 2, 3};
  EXPECT_EQ(w[2], 3);
  // Copy-list-initialization works for the exact count (returning `{x, y, z}` from a function).
  const vec2d d = {0.25, -1};
  EXPECT_EQ(d[0], 0.25);
  EXPECT_EQ(d[1], -1.0);
}

TEST(Vec, EmptyBracesAreZeroAndFilledBroadcasts) {
  const vec4f z{};
  for (int i = 0; i < 4; ++i) {
    EXPECT_EQ(z[i], 0.0f) << i;
  }
  const auto f = vec<std::int16_t, 5>::filled(-7);
  for (int i = 0; i < 5; ++i) {
    EXPECT_EQ(f[i], -7) << i;
  }
  const auto one = vec<double, 1>{4.0};
  EXPECT_EQ(one[0], 4.0);
}

TEST(Vec, ExplicitConversionBetweenComponentTypes) {
  const vec3d d{1.5, -2.25, 1e40};
  const vec3f f(d);
  EXPECT_EQ(f[0], 1.5f);
  EXPECT_EQ(f[1], -2.25f);
  EXPECT_TRUE(std::isinf(f[2]));  // out of float range: static_cast semantics
  const vec3i i(vec3f{1.9f, -1.9f, 0.0f});
  EXPECT_EQ(i, (vec3i{1, -1, 0}));  // truncation toward zero, as static_cast does
}

TEST(Vec, IndexAndNamedComponentsReferToStorage) {
  vec4f v{};
  v[1] = 5;
  v.z() = 6;
  v.w() += 7;
  v.x() = v.y() + 1;
  EXPECT_EQ(v, (vec4f{6, 5, 6, 7}));
  EXPECT_EQ(v.data(), &v[0]);
  EXPECT_EQ(v.data() + 3, &v[3]);
  EXPECT_EQ(vec3f::length, 3);
}

TEST_F(VecChecked, OutOfRangeIndexIsReportedWithIndexAndLength) {
  vec3f v{1, 2, 3};
  EXPECT_THROW_MSG(v[3], tack::index_error, "tack::vec<T, 3>::operator[]", "index 3", "[0, 3)");
  const vec3f& c = v;
  EXPECT_THROW((void)c[-1], tack::index_error);
  EXPECT_NO_THROW((void)c[2]);
}

TEST(Vec, ComponentWiseArithmetic) {
  const vec3f a{1, 2, 3};
  const vec3f b{4, -5, 0.5f};
  EXPECT_EQ(a + b, (vec3f{5, -3, 3.5f}));
  EXPECT_EQ(a - b, (vec3f{-3, 7, 2.5f}));
  EXPECT_EQ(a * b, (vec3f{4, -10, 1.5f}));
  EXPECT_EQ(a / b, (vec3f{0.25f, -0.4f, 6}));
  EXPECT_EQ(-a, (vec3f{-1, -2, -3}));
  EXPECT_EQ(+a, a);
}

TEST(Vec, ScalarOnEitherSide) {
  const vec3f a{1, 2, 4};
  EXPECT_EQ(a * 2.0f, (vec3f{2, 4, 8}));
  EXPECT_EQ(2.0f * a, (vec3f{2, 4, 8}));
  EXPECT_EQ(a + 1.0f, (vec3f{2, 3, 5}));
  EXPECT_EQ(1.0f + a, (vec3f{2, 3, 5}));
  EXPECT_EQ(a - 1.0f, (vec3f{0, 1, 3}));
  EXPECT_EQ(1.0f - a, (vec3f{0, -1, -3}));  // s - v, not v - s
  EXPECT_EQ(a / 2.0f, (vec3f{0.5f, 1, 2}));
  EXPECT_EQ(4.0f / a, (vec3f{4, 2, 1}));  // s / v component-wise
}

TEST(Vec, MixedScalarTypesKeepTheVectorType) {
  const vec3f a{1, 2, 3};
  // A double or int scalar is converted to float; the result stays vec3f (documented rule).
  static_assert(std::is_same_v<decltype(a * 2.0), vec3f>);
  static_assert(std::is_same_v<decltype(3 * a), vec3f>);
  static_assert(std::is_same_v<decltype(a / 2L), vec3f>);
  EXPECT_EQ(a * 0.1, a * 0.1f);  // 0.1 is rounded to float first, then multiplied in float
  EXPECT_EQ(3 * a, (vec3f{3, 6, 9}));
  const vec3d d{1, 2, 3};
  EXPECT_EQ(d * 0.1f, d * static_cast<double>(0.1f));
  // Integer vectors with integer scalars stay integers.
  const vec3i n{7, -7, 8};
  EXPECT_EQ(n / 2, (vec3i{3, -3, 4}));
  EXPECT_EQ(n * std::int64_t{2}, (vec3i{14, -14, 16}));
}

TEST(Vec, SmallIntegerTypesWrapLikeNumPy) {
  const vec<std::uint8_t, 2> a{250, 10};
  const vec<std::uint8_t, 2> b{10, 10};
  EXPECT_EQ(a + b, (vec<std::uint8_t, 2>{4, 20}));
  const vec<std::int8_t, 2> c{127, -128};
  EXPECT_EQ(c + 1, (vec<std::int8_t, 2>{-128, -127}));
}

TEST(Vec, CompoundAssignment) {
  vec3f v{1, 2, 3};
  v += vec3f{1, 1, 1};
  EXPECT_EQ(v, (vec3f{2, 3, 4}));
  v -= vec3f{2, 2, 2};
  EXPECT_EQ(v, (vec3f{0, 1, 2}));
  v *= vec3f{5, 5, 0.5f};
  EXPECT_EQ(v, (vec3f{0, 5, 1}));
  v /= vec3f{1, 5, 4};
  EXPECT_EQ(v, (vec3f{0, 1, 0.25f}));
  v += 1;
  v *= 2.0;
  v -= 1.0f;
  v /= 2;
  EXPECT_EQ(v, (vec3f{0.5f, 1.5f, 0.75f}));
  // Compound operators return the object itself.
  EXPECT_EQ(&(v += 1), &v);
}

TEST(Vec, EqualityIsComponentWiseAndNaNIsUnequal) {
  EXPECT_TRUE((vec2f{1, 2} == vec2f{1, 2}));
  EXPECT_TRUE((vec2f{1, 2} != vec2f{1, 3}));
  EXPECT_TRUE((vec2f{1, 2} != vec2f{0, 2}));
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const vec2f n{nan, 1};
  EXPECT_FALSE(n == n);
  EXPECT_TRUE(n != n);
  EXPECT_TRUE((vec2f{0.0f, 1} == vec2f{-0.0f, 1}));
}

TEST(Vec, DotAndCross) {
  const vec3d a{1, 2, 3};
  const vec3d b{-4, 5, 0.5};
  EXPECT_EQ(tack::dot(a, b), -4 + 10 + 1.5);
  const vec3d c = tack::cross(a, b);
  EXPECT_EQ(c, (vec3d{2 * 0.5 - 3 * 5, 3 * -4 - 1 * 0.5, 1 * 5 - 2 * -4}));
  EXPECT_DOUBLE_EQ(tack::dot(c, a), 0.0);
  EXPECT_DOUBLE_EQ(tack::dot(c, b), 0.0);
  EXPECT_EQ(tack::cross(b, a), -c);
  // Right-handed basis.
  EXPECT_EQ(tack::cross(vec3f{0, 1, 0}, vec3f{0, 0, 1}), (vec3f{1, 0, 0}));
  // 2-vectors: the scalar z component.
  static_assert(std::is_same_v<decltype(tack::cross(vec2f{}, vec2f{})), float>);
  EXPECT_EQ(tack::cross(vec2f{2, 0}, vec2f{1, 3}), 6.0f);
  EXPECT_EQ(tack::cross(vec2f{1, 3}, vec2f{2, 0}), -6.0f);
  EXPECT_EQ(tack::cross(vec3i{1, 0, 0}, vec3i{0, 1, 0}), (vec3i{0, 0, 1}));
}

TEST(Vec, NormAndNormalize) {
  EXPECT_EQ(tack::norm(vec3f{2, 3, 6}), 7.0f);
  EXPECT_EQ(tack::norm(vec<double, 4>{1, 1, 1, 1}), 2.0);
  static_assert(std::is_same_v<decltype(tack::norm(vec3i{})), double>);
  EXPECT_DOUBLE_EQ(tack::norm(vec3i{1, 1, 1}), std::sqrt(3.0));
  const vec3f n = tack::normalize(vec3f{0, 3, 4});
  EXPECT_FLOAT_EQ(n[0], 0.0f);
  EXPECT_FLOAT_EQ(n[1], 0.6f);
  EXPECT_FLOAT_EQ(n[2], 0.8f);
  std::mt19937 gen(7);
  std::uniform_real_distribution<double> u(-100.0, 100.0);
  for (int k = 0; k < 100; ++k) {
    const vec3d v{u(gen), u(gen), u(gen)};
    EXPECT_NEAR(tack::norm(tack::normalize(v)), 1.0, 4 * std::numeric_limits<double>::epsilon());
  }
}

TEST(Vec, NormalizingZeroGivesNaNNotAValidDirection) {
  const vec3f n = tack::normalize(vec3f{});
  for (int i = 0; i < 3; ++i) {
    EXPECT_TRUE(std::isnan(n[i])) << i;
  }
}

TEST(Vec, ConstexprSqrtMatchesTheLibraryWithinOneUlp) {
  // norm() uses Newton's iteration during constant evaluation and ::sqrt at run time; both must
  // agree closely or constexpr and run-time results would drift apart.
  std::mt19937 gen(11);
  std::uniform_real_distribution<double> exponent(-300.0, 300.0);
  for (int k = 0; k < 2000; ++k) {
    const double x = std::pow(10.0, exponent(gen));
    const double expect = std::sqrt(x);
    const double got = tack::detail::constexpr_sqrt(x);
    EXPECT_LE(std::fabs(got - expect), std::nextafter(expect, INFINITY) - expect) << x;
    const float xf = static_cast<float>(std::pow(10.0, exponent(gen) / 10.0));
    const float ef = std::sqrt(xf);
    EXPECT_LE(std::fabs(tack::detail::constexpr_sqrt(xf) - ef), std::nextafter(ef, INFINITY) - ef)
        << xf;
  }
  EXPECT_EQ(tack::detail::constexpr_sqrt(0.0), 0.0);
  EXPECT_EQ(tack::detail::constexpr_sqrt(4.0), 2.0);
  EXPECT_TRUE(std::isnan(tack::detail::constexpr_sqrt(-1.0)));
  EXPECT_TRUE(std::isinf(tack::detail::constexpr_sqrt(INFINITY)));
  EXPECT_TRUE(std::isnan(tack::detail::constexpr_sqrt(std::nan(""))));
}

TEST(Vec, ToStringAndStream) {
  EXPECT_EQ(tack::to_string(vec3f{1, 0, 0}), "[1, 0, 0]");
  EXPECT_EQ(tack::to_string(vec2f{0.1f, -2.5f}), "[0.1, -2.5]");
  EXPECT_EQ(tack::to_string(vec<std::int8_t, 2>{-3, 65}), "[-3, 65]");  // numbers, not chars
  EXPECT_EQ(tack::to_string(vec<bool, 2>{true, false}), "[true, false]");
  EXPECT_EQ(tack::to_string(2.5), "2.5");
  std::ostringstream os;
  os << vec3i{1, -2, 3};
  EXPECT_EQ(os.str(), "[1, -2, 3]");
}

}  // namespace
