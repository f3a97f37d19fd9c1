// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
// tack::soa_view and its element proxy tack::soa_ref: component pointers, a proxy that
// reads as T, assigns, compounds and exposes one component as a real reference.

#include <tack/core/concepts.hpp>
#include <tack/types/item.hpp>
#include <tack/view/soa_view.hpp>

#include <gtest/gtest.h>

#include <array>
#include <type_traits>
#include <vector>

namespace {

using tack::index_t;
using tack::vec3f;

// Three component arrays of n floats and the view over them.
struct soa3 {
  std::vector<float> x, y, z;
  explicit soa3(index_t n) : x(std::size_t(n)), y(std::size_t(n)), z(std::size_t(n)) {}
  tack::soa_view<vec3f> view() {
    return tack::soa_view<vec3f>({x.data(), y.data(), z.data()}, {index_t(x.size())});
  }
};

TEST(SoaView, StaticProperties) {
  using V = tack::soa_view<vec3f>;
  static_assert(std::is_trivially_copyable_v<V>);
  static_assert(std::is_trivially_copyable_v<tack::soa_view<const tack::mat3d, 2>>);
  static_assert(V::components == 3 && V::rank == 1);
  static_assert(tack::soa_view<tack::mat2f, 3>::components == 4);
  static_assert(std::is_same_v<V::scalar_type, float>);
  static_assert(std::is_same_v<tack::soa_view<const vec3f>::scalar_type, const float>);
  static_assert(std::is_same_v<V::reference, tack::soa_ref<vec3f>>);
  static_assert(std::is_same_v<tack::soa_view<const vec3f>::reference, const vec3f>);
  // The proxy exposes what atomics and the indexing protocol need.
  static_assert(std::is_same_v<tack::soa_ref<vec3f>::value_type, vec3f>);
  static_assert(
      std::is_same_v<decltype(std::declval<tack::soa_ref<vec3f>>().component(0)), float&>);
  static_assert(tack::writable_array<V>);
  static_assert(!tack::addressable_array<V>);  // no element has an address
  static_assert(std::is_same_v<tack::array_value_t<V>, vec3f>);
  static_assert(tack::readable_array<tack::soa_view<const vec3f>>);
  static_assert(!tack::writable_array<tack::soa_view<const vec3f>>);
  static_assert(std::is_same_v<tack::array_value_t<tack::soa_view<const vec3f>>, vec3f>);
}

TEST(SoaView, ReadsGatherAndWritesScatterComponents) {
  soa3 s(4);
  auto v = s.view();
  EXPECT_EQ(v.size(), 4);
  EXPECT_EQ(v.extent(0), 4);
  v[1] = vec3f{1, 2, 3};
  EXPECT_EQ(s.x[1], 1.0f);
  EXPECT_EQ(s.y[1], 2.0f);
  EXPECT_EQ(s.z[1], 3.0f);
  s.z[2] = 9.0f;
  const vec3f p = v[2];
  EXPECT_EQ(p, (vec3f{0, 0, 9}));
  EXPECT_EQ(v[1].get(), (vec3f{1, 2, 3}));
  // Components are real references into the component arrays.
  EXPECT_EQ(&v[3][0], &s.x[3]);
  EXPECT_EQ(&v[3].component(2), &s.z[3]);
  EXPECT_EQ(v.component_data(1), s.y.data());
  v[3][1] = 5.0f;
  v[3].component(2) = 6.0f;
  EXPECT_EQ(s.y[3], 5.0f);
  EXPECT_EQ(s.z[3], 6.0f);
}

TEST(SoaView, ProxyAssignmentCopiesValuesAndNeverRebinds) {
  soa3 s(3);
  auto v = s.view();
  v[0] = vec3f{1, 2, 3};
  auto r = v[1];  // a proxy for element 1
  r = v[0];       // copies element 0's value into element 1
  EXPECT_EQ(v[1].get(), (vec3f{1, 2, 3}));
  v[0] = vec3f{4, 5, 6};
  EXPECT_EQ(v[1].get(), (vec3f{1, 2, 3}));  // element 1 kept its value: r was not rebound
  r = vec3f{7, 8, 9};
  EXPECT_EQ(s.x[1], 7.0f);
  EXPECT_EQ(s.x[0], 4.0f);
}

TEST(SoaView, CompoundAssignment) {
  soa3 s(1);
  auto v = s.view();
  v[0] = vec3f{1, 2, 3};
  v[0] += vec3f{1, 1, 1};
  EXPECT_EQ(v[0].get(), (vec3f{2, 3, 4}));
  v[0] -= vec3f{2, 2, 2};
  EXPECT_EQ(v[0].get(), (vec3f{0, 1, 2}));
  v[0] *= 3.0f;
  EXPECT_EQ(v[0].get(), (vec3f{0, 3, 6}));
  v[0] /= 3.0f;
  EXPECT_EQ(v[0].get(), (vec3f{0, 1, 2}));
  v[0] += 1.0f;
  EXPECT_EQ(v[0].get(), (vec3f{1, 2, 3}));
  v[0] -= 1.0f;
  EXPECT_EQ(v[0].get(), (vec3f{0, 1, 2}));
  v[0] *= vec3f{2, 3, 4};  // component-wise for vectors
  EXPECT_EQ(v[0].get(), (vec3f{0, 3, 8}));
  v[0] /= vec3f{1, 3, 2};
  EXPECT_EQ(v[0].get(), (vec3f{0, 1, 4}));
}

TEST(SoaView, ArithmeticAndComparisonForwardToT) {
  soa3 s(3);
  auto v = s.view();
  v[0] = vec3f{1, 2, 3};
  v[1] = vec3f{10, 20, 30};
  v[2] = v[0] + v[1];
  EXPECT_EQ(v[2].get(), (vec3f{11, 22, 33}));
  v[2] = 2.0f * v[0];
  EXPECT_EQ(v[2].get(), (vec3f{2, 4, 6}));
  v[2] = v[1] / 10.0f - v[0];
  EXPECT_EQ(v[2].get(), (vec3f{0, 0, 0}));
  v[2] = vec3f{1, 1, 1} - v[0];
  EXPECT_EQ(v[2].get(), (vec3f{0, -1, -2}));
  v[2] = -v[0];
  EXPECT_EQ(v[2].get(), (vec3f{-1, -2, -3}));
  EXPECT_TRUE(v[0] == (vec3f{1, 2, 3}));
  EXPECT_TRUE((vec3f{1, 2, 3}) == v[0]);
  EXPECT_TRUE(v[0] != v[1]);
  EXPECT_FALSE(v[0] == (vec3f{1, 2, 4}));
  v[2] = v[0];
  EXPECT_TRUE(v[0] == v[2]);
  // A proxy passes where a T is expected.
  auto norm2 = [](const vec3f& a) { return a[0] * a[0] + a[1] * a[1] + a[2] * a[2]; };
  EXPECT_EQ(norm2(v[0]), 14.0f);
}

TEST(SoaView, MatrixElementsAndMatrixProduct) {
  std::array<std::vector<double>, 4> c;
  for (auto& comp : c) comp.assign(2, 0.0);
  tack::soa_view<tack::mat2d> m({c[0].data(), c[1].data(), c[2].data(), c[3].data()}, 2);
  m[0] = tack::mat2d{{1, 2}, {3, 4}};
  // Components are stored row after row: (0,0) (0,1) (1,0) (1,1).
  EXPECT_EQ(c[0][0], 1.0);
  EXPECT_EQ(c[1][0], 2.0);
  EXPECT_EQ(c[2][0], 3.0);
  EXPECT_EQ(c[3][0], 4.0);
  m[1] = m[0];
  m[1] *= tack::mat2d{{0, 1}, {1, 0}};  // the matrix product, not component-wise
  EXPECT_EQ(m[1].get(), (tack::mat2d{{2, 1}, {4, 3}}));
  const tack::vec2d x = m[0] * tack::vec2d{1, 1};
  EXPECT_EQ(x, (tack::vec2d{3, 7}));
}

TEST(SoaView, ConstViewReturnsValues) {
  soa3 s(2);
  auto w = s.view();
  w[1] = vec3f{4, 5, 6};
  tack::soa_view<const vec3f> r = w;
  static_assert(std::is_same_v<decltype(r[0]), const vec3f>);
  EXPECT_EQ(r[1], (vec3f{4, 5, 6}));
  EXPECT_EQ(r(1), (vec3f{4, 5, 6}));
  EXPECT_EQ(r.component_data(2), s.z.data());
  static_assert(!std::is_convertible_v<tack::soa_view<const vec3f>, tack::soa_view<vec3f>>);
}

TEST(SoaView, MultiIndexAndRows) {
  constexpr index_t rows = 6, cols = 2;
  std::array<std::vector<float>, 3> c;
  for (auto& comp : c) comp.assign(std::size_t(rows * cols), 0.0f);
  tack::soa_view<vec3f, 2> v(std::array<float*, 3>{c[0].data(), c[1].data(), c[2].data()},
                             std::array<index_t, 2>{rows, cols});
  EXPECT_EQ(v.size(), 12);
  EXPECT_EQ(v.extent(1), 2);
  EXPECT_EQ((v.shape()), (std::array<index_t, 2>{6, 2}));
  v(3, 1) = vec3f{1, 2, 3};
  EXPECT_EQ(c[0][3 * 2 + 1], 1.0f);
  EXPECT_EQ(v[7].get(), (vec3f{1, 2, 3}));
  auto middle = v.rows(2, 4);
  EXPECT_EQ(middle.extent(0), 2);
  EXPECT_EQ(middle.root_row_offset(), 2);
  EXPECT_EQ(middle.root_rows(), 6);
  for (int k = 0; k < 3; ++k) EXPECT_EQ(middle.component_data(k), c[std::size_t(k)].data() + 4);
  EXPECT_EQ(middle(1, 1).get(), (vec3f{1, 2, 3}));
  middle[0] = vec3f{9, 9, 9};
  EXPECT_EQ(c[2][4], 9.0f);
  EXPECT_EQ(c[2][3], 0.0f);
  // One component as a scalar view, with the same shape and bounds info.
  tack::view<float, 2> ys = middle.component(1);
  EXPECT_EQ(ys.data(), c[1].data() + 4);
  EXPECT_EQ(ys.extent(0), 2);
  EXPECT_EQ(ys.root_row_offset(), 2);
  EXPECT_EQ(ys(1, 1), 2.0f);
  // Rows of rows.
  auto inner = middle.rows(1, 2);
  EXPECT_EQ(inner.root_row_offset(), 3);
  EXPECT_EQ(inner(0, 1).get(), (vec3f{1, 2, 3}));
}

TEST(SoaView, DefaultIsEmpty) {
  tack::soa_view<vec3f> v;
  EXPECT_EQ(v.size(), 0);
  EXPECT_TRUE(v.empty());
  EXPECT_EQ(v.component_data(0), nullptr);
}

}  // namespace
