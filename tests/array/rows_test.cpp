// SPDX-License-Identifier: BSD-3-Clause
// Row views (a.rows(i, j), a[slice(i, j)]): every rule of docs/reference/views.md "Row views"
// that the host API can show: bounds, empty ranges, refused steps, views of views, lifetime,
// read-only roots, shared write versions, SoA rows and export refused on a view.
// Kernel-side rules (kernels writing views, atomics, disjointness) are in tests/exec.
#include <tack/array/factories.hpp>
#include <tack/array/format.hpp>
#include <tack/array/soa.hpp>
#include <tack/types/mat.hpp>
#include <tack/types/vec.hpp>

#include <gtest/gtest.h>

#include "common/tack_test.hpp"

using tack::index_t;

TEST(Rows, SeedExample) {
  // rows = tack.zeros((6, 3)); middle = rows[2:4]; middle.fill(1.0)
  auto rows = tack::zeros<double>({6, 3});
  auto middle = rows[tack::slice(2, 4)];
  middle.fill(1.0);
  EXPECT_EQ(rows(3, 0), 1.0);
  EXPECT_EQ(rows(4, 0), 0.0);
  EXPECT_EQ(rows(1, 2), 0.0);
  EXPECT_EQ(middle.shape(), (std::array<index_t, 2>{2, 3}));
  EXPECT_TRUE(middle.is_view());
  EXPECT_EQ(middle.describe(), "array<f64, 2> shape (2, 3) on cpu, view of rows [2, 4) of 6");
}

TEST(Rows, PythonBounds) {
  auto a = tack::array_from({0, 1, 2, 3, 4, 5});
  EXPECT_EQ(a.rows(-2, 6).to_vector(), (std::vector<int>{4, 5}));   // negative from the end
  EXPECT_EQ(a.rows(4, 100).to_vector(), (std::vector<int>{4, 5}));  // clamped
  EXPECT_EQ(a.rows(-100, 2).to_vector(), (std::vector<int>{0, 1}));
  EXPECT_EQ(a[tack::slice(3, tack::slice::end)].to_vector(), (std::vector<int>{3, 4, 5}));
  EXPECT_EQ(a.rows(-3, -1).to_vector(), (std::vector<int>{3, 4}));
}

TEST(Rows, EmptyRangeGivesANewEmptyArray) {
  auto a = tack::array_from({0, 1, 2});
  for (auto e : {a.rows(2, 2), a.rows(3, 1), a.rows(10, 20)}) {
    EXPECT_EQ(e.size(), 0);
    EXPECT_FALSE(e.is_view());
    EXPECT_EQ(e.device(), a.device());
  }
  auto m = tack::zeros<float>({4, 3});
  EXPECT_EQ(m.rows(1, 1).shape(), (std::array<index_t, 2>{0, 3}));
}

TEST(Rows, StepOtherThanOneIsRefused) {
  auto a = tack::zeros<float>(10);
  EXPECT_THROW_MSG(a[tack::slice(0, 10, 2)], tack::value_error, "step 2", "tack::arrays::strided",
                   "array<f32, 1> shape (10)");
}

TEST(Rows, ViewsOfViewsAreViewsOfTheRoot) {
  auto a = tack::array_from({0, 1, 2, 3, 4, 5, 6, 7});
  auto v = a.rows(2, 7);  // 2..6
  auto w = v.rows(1, 3);  // 3, 4
  EXPECT_EQ(w.to_vector(), (std::vector<int>{3, 4}));
  EXPECT_EQ(w.describe(), "array<i32, 1> shape (2) on cpu, view of rows [3, 5) of 8");
  w(0) = 30;
  EXPECT_EQ(a(3), 30);
  EXPECT_EQ(v(1), 30);
  EXPECT_EQ(v.rows(-1, 100).to_vector(),
            (std::vector<int>{6}));  // bounds of the view, not the root
}

TEST(Rows, AViewKeepsItsRootAlive) {
  auto v = tack::array_from({1, 2, 3, 4}).rows(1, 3);
  EXPECT_EQ(v.to_vector(), (std::vector<int>{2, 3}));
  auto owner = std::make_shared<int>(0);
  std::weak_ptr<int> watch = owner;
  std::vector<float> host(6, 1.0f);
  auto borrowed = tack::from_ptr(host.data(), {6}, {.owner = owner});
  owner.reset();
  auto view = borrowed.rows(0, 2);
  borrowed = tack::zeros<float>(1);
  EXPECT_FALSE(watch.expired());
  view = tack::zeros<float>(1);
  EXPECT_TRUE(watch.expired());
}

TEST(Rows, ReadOnlyRootsGiveReadOnlyViews) {
  std::vector<float> host(6, 1.0f);
  auto ro = tack::from_ptr(host.data(), {3, 2});
  auto v = ro.rows(1, 2);
  EXPECT_TRUE(v.read_only());
  EXPECT_THROW_MSG(v.fill(2.0f), tack::read_only_error, "read-only", "view of rows [1, 2) of 3");
  EXPECT_THROW_MSG(v(0, 0) = 3.0f, tack::read_only_error, "as_const()");
  EXPECT_EQ(v.as_const()(0, 1), 1.0f);
  EXPECT_EQ(host[2], 1.0f);  // nothing written
}

TEST(Rows, WriteVersionIsSharedByTheRootAndAllViews) {
  auto a = tack::zeros<float>({6, 3});
  auto v1 = a.rows(0, 2);
  auto v2 = a.rows(4, 6);
  const auto start = a.version();
  EXPECT_EQ(v1.version(), start);
  v2.fill(1.0f);
  EXPECT_GT(a.version(), start);
  EXPECT_EQ(v1.version(), a.version());
  EXPECT_EQ(v2.version(), a.version());
  const auto after = a.version();
  tack::copyto(v1, tack::ones<float>({2, 3}));
  EXPECT_GT(v2.version(), after);
}

// Pointers, iterators and kernel views of a writable handle may be written through, so taking one
// moves the version (as a(i) does); the read-only handle's do not.
TEST(Rows, WritablePointersAndViewsMoveTheVersion) {
  auto a = tack::zeros<float>({6});
  auto v = a.version();
  (void)a.as_const().data();
  (void)a.as_const().view();
  for (const float& x : a.as_const()) (void)x;
  EXPECT_EQ(a.version(), v);
  (void)a.data();
  EXPECT_GT(a.version(), v);
  v = a.version();
  for (float& x : a) x = 1.0f;
  EXPECT_GT(a.version(), v);
  v = a.version();
  (void)a.rows(1, 3).view();
  EXPECT_GT(a.version(), v);
  auto s = tack::zeros<tack::vec3f>(4, {.layout = tack::layout::soa});
  const auto sv = s.version();
  (void)s.as_const().soa_view();
  EXPECT_EQ(s.version(), sv);
  (void)s.soa_view();
  EXPECT_GT(s.version(), sv);
}

TEST(Rows, HostWritesReachTheParent) {
  auto a = tack::zeros<int>({4, 2});
  auto v = a.rows(1, 3);
  v(1, 1) = 7;
  EXPECT_EQ(a(2, 1), 7);
  tack::copyto(v, {1, 2, 3, 4});
  EXPECT_EQ(tack::to_string(a), "[[0, 0], [1, 2], [3, 4], [0, 0]]");
}

TEST(Rows, VectorAndMatrixRows) {
  auto v = tack::zeros<tack::vec3f>(5);
  v.rows(1, 2).fill({1, 2, 3});
  EXPECT_EQ(v(1), (tack::vec3f{1, 2, 3}));
  EXPECT_EQ(v(2), (tack::vec3f{0, 0, 0}));
  auto m = tack::zeros<tack::mat2d>({3, 2});
  m.rows(2, 3).fill(tack::identity<double, 2>());
  EXPECT_EQ(m(2, 1), (tack::identity<double, 2>()));
  EXPECT_EQ(m(1, 1), (tack::mat2d{}));
}

TEST(Rows, CopiesAndReshapesOfViews) {
  auto a = tack::array_from<int>({{1, 2}, {3, 4}, {5, 6}});
  auto v = a.rows(1, 3);
  auto c = v.copy();
  EXPECT_FALSE(c.is_view());
  EXPECT_EQ(tack::to_string(c), "[[3, 4], [5, 6]]");
  auto flat = v.reshape({4});
  EXPECT_EQ(flat.to_vector(), (std::vector<int>{3, 4, 5, 6}));
  flat(0) = 30;
  EXPECT_EQ(a(1, 0), 30);
  EXPECT_THROW_MSG(v.reshape({3}), tack::value_error, "reshape", "(3)", "4 elements");
  EXPECT_THROW_MSG(a.reshape({2, -3}), tack::value_error, "-3");
}

TEST(Rows, ElementViews) {
  auto pts = tack::array_from<float>({{1, 2, 3}, {4, 5, 6}});
  auto v = pts.as_elements<tack::vec3f>();
  static_assert(std::is_same_v<decltype(v), tack::array<tack::vec3f, 1>>);
  EXPECT_EQ(v(1), (tack::vec3f{4, 5, 6}));
  v(0) = {7, 8, 9};
  EXPECT_EQ(pts(0, 2), 9.0f);
  auto back = v.as_scalars();
  EXPECT_EQ(back.shape(), (std::array<index_t, 2>{2, 3}));
  EXPECT_THROW_MSG(tack::zeros<float>({2, 4}).as_elements<tack::vec3f>(), tack::value_error,
                   "(2, 4)", "vec3(f32)");
  auto mats = tack::zeros<double>({5, 3, 3}).as_elements<tack::mat3d>();
  EXPECT_EQ(mats.size(), 5);
}

TEST(Rows, SoaArraysSliceComponentByComponent) {
  auto x = tack::array_from<float>({0, 1, 2, 3});
  auto y = tack::array_from<float>({10, 11, 12, 13});
  auto p = tack::soa(x, y);
  auto v = p.rows(1, 3);
  EXPECT_EQ(v.layout(), tack::layout::soa);
  EXPECT_TRUE(v.is_view());
  EXPECT_EQ(v.to_vector(), (std::vector<tack::vec2f>{{1, 11}, {2, 12}}));
  v.fill({-1, -2});
  EXPECT_EQ(x.to_vector(), (std::vector<float>{0, -1, -1, 3}));
  EXPECT_EQ(y(2), -2.0f);
  EXPECT_EQ(v.components()[0].describe(),
            "array<f32, 1> shape (2) on cpu, view of rows [1, 3) of 4");
  EXPECT_THROW_MSG(v.export_memory(), tack::value_error, "structure-of-arrays");
}

TEST(Rows, SeparateRowsAreDisjointByteRanges) {
  auto a = tack::zeros<double>({6, 3});
  auto r1 = tack::detail::array_access::byte_range(a.rows(0, 2));
  auto r2 = tack::detail::array_access::byte_range(a.rows(2, 4));
  auto root = tack::detail::array_access::byte_range(a);
  EXPECT_LE(r1.second, r2.first);    // disjoint
  EXPECT_LT(root.first, r1.second);  // the root overlaps its views
  EXPECT_GT(root.second, r2.first);
}
