// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
// Lazy array expressions: operators and NumPy-named functions between arrays and scalars, element
// types combining as the elements do, laziness, refused shapes and devices, and which types get
// the operators (not std::vector; a user's type only when it opts in).

#include <tack/array/copyto.hpp>
#include <tack/array/factories.hpp>
#include <tack/arrays/constant.hpp>
#include <tack/arrays/counting.hpp>
#include <tack/arrays/expressions.hpp>
#include <tack/core/concepts.hpp>
#include <tack/core/error.hpp>
#include <tack/memory/device.hpp>
#include <tack/types/mat.hpp>
#include <tack/types/vec.hpp>
#include <tack/view/soa_view.hpp>
#include <tack/view/view.hpp>

#include <gtest/gtest.h>

#include "common/tack_test.hpp"

#include <cmath>
#include <limits>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

namespace {

using tack::index_t;
using tack::mat3f;
using tack::vec3f;
namespace ta = tack::arrays;

TEST(Expressions, ArithmeticBetweenViewsAndScalars) {
  std::vector<float> a{1, 2, 3}, b{10, 20, 30};
  tack::view<float> va(a.data(), 3), vb(b.data(), 3);
  auto e = va + 2.0f * vb - 1.0f;
  static_assert(ta::is_implicit_array_v<decltype(e)>);
  static_assert(std::is_same_v<decltype(e)::value_type, float>);
  static_assert(std::is_trivially_copyable_v<decltype(e)>);
  static_assert(!tack::writable_array<decltype(e)>);
  ASSERT_EQ(e.size(), 3);
  EXPECT_EQ(e[0], 20.0f);
  EXPECT_EQ(e[2], 62.0f);
  auto q = (vb / va) * (-va);
  EXPECT_EQ(q[1], -20.0f);
  auto s = 1.0f - va / 2.0f;
  EXPECT_EQ(s[1], 0.0f);
}

TEST(Expressions, AreLazy) {
  std::vector<double> a{1, 2};
  tack::view<double> va(a.data(), 2);
  auto sq = va * va;
  a[1] = 5;
  EXPECT_EQ(sq[1], 25.0);
}

TEST(Expressions, BetweenImplicitArrays) {
  auto e = ta::counting<int>(4) * ta::counting<int>(4) + ta::constant(1, 4);
  std::vector<int> got(e.begin(), e.end());
  EXPECT_EQ(got, (std::vector<int>{1, 2, 5, 10}));
}

TEST(Expressions, ElementTypesCombineAsTheElementsDo) {
  std::vector<vec3f> p{{1, 2, 3}, {4, 5, 6}};
  tack::view<vec3f> vp(p.data(), 2);
  auto scaled = vp * 2.0f;
  static_assert(std::is_same_v<decltype(scaled)::value_type, vec3f>);
  EXPECT_EQ(scaled[1], (vec3f{8, 10, 12}));
  auto summed = vp + vp;
  EXPECT_EQ(summed[0], (vec3f{2, 4, 6}));
  auto shifted = vp + vec3f{1, 1, 1};  // a vector broadcast to every index
  EXPECT_EQ(shifted[0], (vec3f{2, 3, 4}));
  std::vector<mat3f> m(2, tack::identity<float, 3>());
  m[1] = 2.0f * m[1];
  auto mv = tack::view<mat3f>(m.data(), 2) * vp;
  static_assert(std::is_same_v<decltype(mv)::value_type, vec3f>);
  EXPECT_EQ(mv[0], (vec3f{1, 2, 3}));
  EXPECT_EQ(mv[1], (vec3f{8, 10, 12}));
  auto promoted = ta::counting<float>(2) * 0.5;  // float * double is double
  static_assert(std::is_same_v<decltype(promoted)::value_type, double>);
}

TEST(Expressions, SoaOperandsReadAsValues) {
  std::vector<float> x{1, 2}, y{3, 4}, z{5, 6};
  tack::soa_view<vec3f> v({x.data(), y.data(), z.data()}, {2});
  auto e = v * 2.0f + v;
  static_assert(std::is_same_v<decltype(e)::value_type, vec3f>);
  EXPECT_EQ(e[1], (vec3f{6, 12, 18}));
  auto n = -v;
  EXPECT_EQ(n[0], (vec3f{-1, -3, -5}));
}

TEST(Expressions, MathFunctions) {
  std::vector<double> a{4, -9, 0.25};
  tack::view<double> va(a.data(), 3);
  auto r = tack::sqrt(tack::abs(va));
  EXPECT_EQ(r[0], 2.0);
  EXPECT_EQ(r[1], 3.0);
  EXPECT_EQ(r[2], 0.5);
  EXPECT_DOUBLE_EQ(tack::exp(va)[2], std::exp(0.25));
  EXPECT_DOUBLE_EQ(tack::log(tack::abs(va))[1], std::log(9.0));
  EXPECT_DOUBLE_EQ(tack::sin(va)[0], std::sin(4.0));
  EXPECT_DOUBLE_EQ(tack::cos(va)[0], std::cos(4.0));
  EXPECT_DOUBLE_EQ(tack::pow(va, 2.0)[1], 81.0);
  EXPECT_DOUBLE_EQ(tack::pow(2.0, va)[0], 16.0);
  EXPECT_EQ(tack::minimum(va, 0.0)[0], 0.0);
  EXPECT_EQ(tack::minimum(va, 0.0)[1], -9.0);
  EXPECT_EQ(tack::maximum(va, ta::constant(1.0, 3))[2], 1.0);
  auto i = tack::abs(ta::counting<int>(3, -1));
  static_assert(std::is_same_v<decltype(i)::value_type, int>);
  EXPECT_EQ(i[0], 1);
  auto si = tack::sqrt(ta::counting<int>(5));  // integers give double, as std::sqrt does
  static_assert(std::is_same_v<decltype(si)::value_type, double>);
  EXPECT_EQ(si[4], 2.0);
  // On scalars the functions are the usual ones.
  EXPECT_EQ(tack::sqrt(16.0f), 4.0f);
  EXPECT_EQ(tack::maximum(2, 3), 3);
}

TEST(Expressions, MinimumAndMaximumPropagateNaN) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  std::vector<double> a{nan, 1.0}, b{0.0, nan};
  tack::view<double> va(a.data(), 2), vb(b.data(), 2);
  EXPECT_TRUE(std::isnan(tack::minimum(va, vb)[0]));
  EXPECT_TRUE(std::isnan(tack::minimum(va, vb)[1]));
  EXPECT_TRUE(std::isnan(tack::maximum(va, vb)[0]));
  EXPECT_TRUE(std::isnan(tack::maximum(va, vb)[1]));
}

TEST(Expressions, MathIsComponentWiseOnVectors) {
  std::vector<vec3f> p{{4, 9, 16}, {-1, 2, -3}};
  tack::view<vec3f> vp(p.data(), 2);
  EXPECT_EQ(tack::sqrt(vp)[0], (vec3f{2, 3, 4}));
  EXPECT_EQ(tack::abs(vp)[1], (vec3f{1, 2, 3}));
  EXPECT_EQ(tack::maximum(vp, 0.0f)[1], (vec3f{0, 2, 0}));
  EXPECT_EQ(tack::minimum(vp, vp * 2.0f)[1], (vec3f{-2, 2, -6}));
  EXPECT_EQ(tack::pow(vp, 2.0f)[1], (vec3f{1, 4, 9}));
}

TEST(Expressions, DifferentSizesIsAValueErrorNamingBothSizes) {
  std::string m =
      tack::test::error_message([] { (void)(ta::counting<int>(5) + ta::counting<int>(7)); });
  EXPECT_NE(m.find("operator+"), std::string::npos) << m;
  EXPECT_NE(m.find("5 and 7"), std::string::npos) << m;
  m = tack::test::error_message(
      [] { (void)tack::minimum(ta::counting<int>(2), ta::counting<int>(3)); });
  EXPECT_NE(m.find("minimum"), std::string::npos) << m;
  EXPECT_NE(m.find("2 and 3"), std::string::npos) << m;
}

// Two multi-dimensional operands must have one shape, not only one size; a flat operand (another
// expression's result, a counting array) matches any operand of its size.
TEST(Expressions, DifferentShapesIsAValueErrorNamingBothShapes) {
  const auto a = tack::ones<float>({2, 3});
  const auto b = tack::ones<float>({3, 2});
  EXPECT_THROW_MSG((void)(a + b), tack::value_error, "operator+", "(2, 3) and (3, 2)",
                   "same shape");
  EXPECT_THROW_MSG((void)tack::maximum(a, b), tack::value_error, "maximum", "(2, 3) and (3, 2)");
  auto out = tack::zeros<float>({2, 3});
  tack::copyto(out, (a + a) + a);  // the flat result of a + a with a (2, 3) array
  EXPECT_EQ(out.to_vector(), std::vector<float>(6, 3.0f));
  tack::copyto(out, a * ta::counting<float>(6));
  EXPECT_EQ(out.to_vector()[5], 5.0f);
}

// The operators are found by argument-dependent lookup for tack's own types; a user's type in
// another namespace brings them in with using-declarations (they still apply only to operands).
using tack::operator+;
using tack::operator*;

// An array that says which device it lives on (as tack::array does) and converts itself to a
// kernel form: the expression operators accept it because it has visit_kernel_form.
struct on_device {
  tack::device where;
  index_t n = 3;
  float operator[](index_t i) const { return float(i); }
  index_t size() const { return n; }
  tack::device device() const { return where; }
  template <class F>
  decltype(auto) visit_kernel_form(F&& f) const {
    return f(ta::counting<float>(n));
  }
};

TEST(Expressions, MixingDevicesIsAValueErrorNamingBoth) {
  on_device cpu{tack::cpu()}, gpu{tack::cuda(1)};
  static_assert(ta::is_array_expression_operand_v<on_device>);
  const std::string m = tack::test::error_message([&] { (void)(cpu * gpu); });
  EXPECT_NE(m.find("operator*"), std::string::npos) << m;
  EXPECT_NE(m.find("cpu"), std::string::npos) << m;
  EXPECT_NE(m.find("cuda:1"), std::string::npos) << m;
  auto same = cpu + cpu;
  EXPECT_EQ(same.device(), tack::cpu());
  EXPECT_EQ(same[2], 4.0f);
  auto scaled = gpu * 2.0f;
  EXPECT_EQ(scaled.device(), tack::cuda(1));
  EXPECT_FALSE((ta::counting<float>(3) * 2.0f).device().has_value());
}

template <class A, class B>
concept addable = requires(A a, B b) {
  a + b;
};
template <class A, class B>
concept multipliable = requires(A a, B b) {
  a* b;
};

struct user_indexable {
  float operator[](index_t i) const { return float(i); }
  index_t size() const { return 4; }
};
struct user_opted_in {
  float operator[](index_t i) const { return float(2 * i); }
  index_t size() const { return 4; }
};

}  // namespace

template <>
struct tack::arrays::is_array_expression_operand<user_opted_in> : std::true_type {};

namespace {

TEST(Expressions, OperatorsDoNotApplyToUnrelatedTypes) {
  static_assert(!addable<std::vector<float>, std::vector<float>>);
  static_assert(!addable<std::vector<float>, float>);
  static_assert(!multipliable<float, std::vector<float>>);
  static_assert(!addable<std::span<float>, std::span<float>>);
  static_assert(!addable<user_indexable, user_indexable>);  // indexable is not enough
  static_assert(!addable<tack::view<float>, std::vector<float>>);
  // Elements keep their own operators.
  static_assert(std::is_same_v<decltype(vec3f{} + vec3f{}), vec3f>);
  static_assert(std::is_same_v<decltype(1.0f + 2.0f), float>);
  // Operands must be able to combine: vec3f + mat3f elements is not an expression.
  static_assert(!addable<tack::view<vec3f>, tack::view<mat3f>>);
}

TEST(Expressions, AUserTypeOptsInBySpecializingTheTrait) {
  static_assert(ta::is_array_expression_operand_v<user_opted_in>);
  static_assert(addable<user_opted_in, float>);
  auto e = user_opted_in{} + 1.0f;
  EXPECT_EQ(e[3], 7.0f);
  auto f = user_opted_in{} * ta::counting<float>(4);
  EXPECT_EQ(f[3], 18.0f);
}

}  // namespace
