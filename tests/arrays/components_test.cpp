// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
// components (a vector array from scalar arrays) and extract_component (a scalar array from a
// vector or matrix array): values, component stores, both layouts, and refused arguments.

#include <tack/array/copyto.hpp>
#include <tack/array/factories.hpp>
#include <tack/array/soa.hpp>
#include <tack/arrays/components.hpp>
#include <tack/arrays/constant.hpp>
#include <tack/arrays/counting.hpp>
#include <tack/arrays/extract_component.hpp>
#include <tack/arrays/uniform_coordinates.hpp>
#include <tack/core/concepts.hpp>
#include <tack/core/error.hpp>
#include <tack/exec/launch.hpp>
#include <tack/types/mat.hpp>
#include <tack/types/vec.hpp>
#include <tack/view/soa_view.hpp>
#include <tack/view/view.hpp>

#include <gtest/gtest.h>

#include "common/tack_test.hpp"

#include <string>
#include <type_traits>
#include <vector>

namespace {

using tack::index_t;
using tack::vec2f;
using tack::vec3f;
using tack::vec4f;
namespace ta = tack::arrays;

TEST(Components, BuildsVectorsFromScalarArrays) {
  auto p =
      ta::components(ta::counting<float>(3), ta::constant(5.0f, 3), ta::counting<float>(3, 10));
  static_assert(std::is_same_v<decltype(p)::value_type, vec3f>);
  ASSERT_EQ(p.size(), 3);
  EXPECT_EQ(p[2], (vec3f{2, 5, 12}));
  static_assert(!tack::writable_array<decltype(p)>);
  auto q = ta::components(ta::counting<float>(2), ta::counting<float>(2));
  static_assert(std::is_same_v<decltype(q)::value_type, vec2f>);
  auto r = ta::components(ta::counting<float>(1), ta::counting<float>(1), ta::counting<float>(1),
                          ta::constant(1.0f, 1));
  EXPECT_EQ(r[0], (vec4f{0, 0, 0, 1}));
}

TEST(Components, StoresWriteEachComponentToItsArray) {
  std::vector<double> x(3, 0), y(3, 0), z(3, 0);
  auto p = ta::components(tack::view<double>(x.data(), 3), tack::view<double>(y.data(), 3),
                          tack::view<double>(z.data(), 3));
  static_assert(tack::writable_array<decltype(p)>);
  static_assert(std::is_same_v<tack::array_value_t<decltype(p)>, tack::vec3d>);
  p[1] = tack::vec3d{1, 2, 3};
  p[2] = p[1];
  p[2] += tack::vec3d{1, 1, 1};
  EXPECT_EQ(x, (std::vector<double>{0, 1, 2}));
  EXPECT_EQ(y, (std::vector<double>{0, 2, 3}));
  EXPECT_EQ(z, (std::vector<double>{0, 3, 4}));
  tack::vec3d v = p[2];
  EXPECT_EQ(v, (tack::vec3d{2, 3, 4}));
  EXPECT_EQ(p[2] * 2.0, (tack::vec3d{4, 6, 8}));
  p[0][1] = 9.0;  // one component through the proxy
  EXPECT_EQ(y[0], 9.0);
}

TEST(Components, DifferentLengthsIsAValueErrorNamingBothLengths) {
  const std::string m = tack::test::error_message([] {
    (void)ta::components(ta::counting<float>(5), ta::counting<float>(5), ta::counting<float>(7));
  });
  EXPECT_NE(m.find("components"), std::string::npos) << m;
  EXPECT_NE(m.find("5"), std::string::npos) << m;
  EXPECT_NE(m.find("7"), std::string::npos) << m;
  EXPECT_NE(m.find("(z)"), std::string::npos) << m;
}

TEST(ExtractComponent, ReadsOneComponent) {
  auto pts = ta::uniform_coordinates({2, 3, 1}, vec3f{0, 0, 0}, vec3f{1, 10, 100});
  auto y = ta::extract_component(pts, 1);
  static_assert(std::is_same_v<decltype(y)::value_type, float>);
  ASSERT_EQ(y.size(), 6);
  EXPECT_EQ(y[0], 0.0f);
  EXPECT_EQ(y[2], 10.0f);
  EXPECT_EQ(y[5], 20.0f);
  static_assert(!tack::writable_array<decltype(y)>);
}

TEST(ExtractComponent, WritesTheComponentOfAoSAndSoAStorage) {
  std::vector<vec3f> aos(2, vec3f{0, 0, 0});
  auto za = ta::extract_component(tack::view<vec3f>(aos.data(), 2), 2);
  static_assert(tack::writable_array<decltype(za)>);
  za[1] = 5.0f;
  EXPECT_EQ(aos[1], (vec3f{0, 0, 5}));
  std::vector<float> x(2, 0), y(2, 0), z(2, 0);
  auto ys = ta::extract_component(tack::soa_view<vec3f>({x.data(), y.data(), z.data()}, {2}), 1);
  static_assert(tack::writable_array<decltype(ys)>);
  ys[0] = 3.0f;
  EXPECT_EQ(y[0], 3.0f);
  EXPECT_EQ(x[0], 0.0f);
}

TEST(ExtractComponent, MatrixComponentsCountRowByRow) {
  std::vector<tack::mat2f> m{tack::mat2f{{1, 2}, {3, 4}}};
  auto c = ta::extract_component(tack::view<tack::mat2f>(m.data(), 1), 2);
  EXPECT_EQ(c[0], 3.0f);
  c[0] = 30.0f;
  EXPECT_EQ(m[0](1, 0), 30.0f);
}

TEST(ExtractComponent, OfComponentsGivesTheComponentArrayBack) {
  std::vector<float> x{1, 2}, y{3, 4};
  auto p = ta::components(tack::view<float>(x.data(), 2), tack::view<float>(y.data(), 2));
  auto py = ta::extract_component(p, 1);
  static_assert(tack::writable_array<decltype(py)>);
  EXPECT_EQ(py[1], 4.0f);
  py[1] = 40.0f;
  EXPECT_EQ(y[1], 40.0f);
}

TEST(ExtractComponent, ComponentPastTheCountIsAValueErrorNamingTheCount) {
  auto pts = ta::uniform_coordinates({2, 2, 2});
  std::string m = tack::test::error_message([&] { (void)ta::extract_component(pts, 3); });
  EXPECT_NE(m.find("extract_component"), std::string::npos) << m;
  EXPECT_NE(m.find("component 3"), std::string::npos) << m;
  EXPECT_NE(m.find("3 components"), std::string::npos) << m;
  EXPECT_NE(m.find("vec3(f32)"), std::string::npos) << m;
  m = tack::test::error_message([&] { (void)ta::extract_component(pts, -1); });
  EXPECT_NE(m.find("component -1"), std::string::npos) << m;
  m = tack::test::error_message([] { (void)ta::extract_component(ta::counting<float>(2), 1); });
  EXPECT_NE(m.find("1 component "), std::string::npos) << m;
  EXPECT_EQ(ta::extract_component(ta::counting<float>(2), 0)[1], 1.0f);
}

}  // namespace

namespace {
struct store_vec2 {
  template <class P>
  TACK_HOST_DEVICE void operator()(index_t i, const P& p) const {
    p[i] = tack::vec2f{float(i), float(10 * i)};
  }
};
}  // namespace

// components is an implicit array: kernels store through it (copyto and fill into it do not
// compile: tests/compile_fail/arrays_store.cpp); tack::soa over the same arrays is the storage.
TEST(Components, KernelsStoreThroughAndSoaIsTheStorage) {
  auto x = tack::zeros<float>(3), y = tack::zeros<float>(3);
  tack::launch(tack::cpu(), 3, store_vec2{}, ta::components(x, y));
  EXPECT_EQ(x.to_vector(), (std::vector<float>{0, 1, 2}));
  EXPECT_EQ(y.to_vector(), (std::vector<float>{0, 10, 20}));
  auto xy = tack::soa(x, y);
  tack::fill(xy, tack::vec2f{4, 5});
  EXPECT_EQ(x.to_vector(), (std::vector<float>{4, 4, 4}));
  EXPECT_EQ(y.to_vector(), (std::vector<float>{5, 5, 5}));
}
