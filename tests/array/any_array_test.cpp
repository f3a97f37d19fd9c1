// SPDX-License-Identifier: BSD-3-Clause
// tack::any_array, tack::stack_array and tack::soa (docs/reference/arrays.md).
#include <tack/array/any_array.hpp>
#include <tack/array/factories.hpp>
#include <tack/array/soa.hpp>
#include <tack/array/stack_array.hpp>
#include <tack/types/vec.hpp>

#include <gtest/gtest.h>

#include "common/tack_test.hpp"

TEST(AnyArray, HoldsAndRecovers) {
  auto a = tack::zeros<tack::vec3f>({4, 2});
  tack::any_array any = a;
  EXPECT_TRUE(any.has_value());
  EXPECT_EQ(any.dtype().name(), std::string_view("vec3(f32)"));
  EXPECT_EQ(any.rank(), 2);
  EXPECT_EQ(any.shape(), (std::vector<tack::index_t>{4, 2}));
  EXPECT_EQ(any.size(), 8);
  auto back = any.as<tack::vec3f, 2>();
  back(0, 0) = {1, 2, 3};
  EXPECT_EQ(a(0, 0), (tack::vec3f{1, 2, 3}));  // shares memory
  EXPECT_THROW_MSG((any.as<float, 2>()), tack::type_error, "as<f32, 2>", "vec3(f32)");
  EXPECT_THROW_MSG((any.as<tack::vec3f, 1>()), tack::type_error, "as<vec3(f32), 1>");
  tack::any_array empty;
  EXPECT_THROW_MSG(empty.shape(), tack::value_error, "no array");
}

TEST(AnyArray, ReadOnlyHandlesStayReadOnly) {
  tack::any_array any = tack::array_from({1, 2}).as_const();
  EXPECT_TRUE(any.is_const());
  EXPECT_EQ((any.as<const int, 1>()(1)), 2);
  EXPECT_THROW_MSG((any.as<int, 1>()), tack::read_only_error, "as<const T, R>");
}

TEST(AnyArray, VisitCallsWithTheTypedArray) {
  tack::any_array any = tack::array_from({1.5, 2.5});
  double total = any.visit([](auto a) { return static_cast<double>(a.size()); });
  EXPECT_EQ(total, 2.0);
  std::string seen;
  tack::any_array vecs = tack::zeros<tack::vec2d>(3);
  vecs.visit([&](auto a) { seen = std::string(a.dtype().name()); });
  EXPECT_EQ(seen, "vec2(f64)");
  tack::any_array rank4 = tack::zeros<float>({1, 1, 1, 1});
  EXPECT_THROW_MSG(rank4.visit([](auto) {}), tack::type_error, "rank 4");
}

TEST(StackArray, ValueSemantics) {
  tack::stack_array<int, 3> s{{4, 5, 6}};
  static_assert(std::is_trivially_copyable_v<tack::stack_array<int, 3>>);
  EXPECT_EQ(s.size(), 3);
  EXPECT_EQ(s[1], 5);
  auto t = s;
  t[1] = 7;
  EXPECT_EQ(s[1], 5);
  EXPECT_FALSE(s == t);
  int sum = 0;
  for (int v : s) sum += v;
  EXPECT_EQ(sum, 15);
}

TEST(Soa, WrapsComponentsWithoutCopy) {
  auto x = tack::array_from<float>({1, 2, 3});
  auto y = tack::array_from<float>({4, 5, 6});
  auto z = tack::array_from<float>({7, 8, 9});
  auto pos = tack::soa(x, y, z);
  static_assert(std::is_same_v<decltype(pos), tack::array<tack::vec3f, 1>>);
  EXPECT_EQ(pos.layout(), tack::layout::soa);
  EXPECT_EQ(pos.dtype().name(), std::string_view("vec3(f32)"));
  EXPECT_EQ(pos.shape(), (std::array<tack::index_t, 1>{3}));
  EXPECT_EQ(pos.to_vector()[1], (tack::vec3f{2, 5, 8}));
  EXPECT_EQ(pos.components()[2].data(), z.data());  // no copy
  x(0) = 10;
  EXPECT_EQ(pos.to_vector()[0], (tack::vec3f{10, 4, 7}));
  auto aos = pos.copy({.layout = tack::layout::aos});
  EXPECT_EQ(aos.layout(), tack::layout::aos);
  EXPECT_TRUE(tack::array_equal(aos, pos));
  auto back = aos.copy({.layout = tack::layout::soa});
  EXPECT_TRUE(tack::array_equal(back, pos));
  tack::copyto(pos, aos.rows(0, 3));
  EXPECT_THROW_MSG(pos.data(), tack::value_error, "structure-of-arrays", "components()");
  EXPECT_THROW_MSG(pos(0), tack::value_error, "structure-of-arrays", "soa_view()");
}

TEST(Soa, RefusalsNameTheComponents) {
  auto x = tack::zeros<float>(3);
  auto short_y = tack::zeros<float>(2);
  EXPECT_THROW_MSG(tack::soa(x, short_y), tack::value_error, "component 1", "shape (2)",
                   "shape (3)");
  std::vector<float> host(3);
  auto ro = tack::from_ptr(host.data(), {3});
  auto p = tack::soa(x, ro);
  EXPECT_TRUE(p.read_only());
  EXPECT_THROW(p.fill({1, 2}), tack::read_only_error);
  EXPECT_THROW_MSG((tack::empty<float>(3, {.layout = tack::layout::soa})), tack::value_error, "soa",
                   "f32");
}

TEST(Soa, FactoriesInSoaLayout) {
  auto vel = tack::zeros<tack::vec3f>(5, {.layout = tack::layout::soa});
  EXPECT_EQ(vel.layout(), tack::layout::soa);
  EXPECT_EQ(vel.components().size(), 3u);
  vel.fill({1, 2, 3});
  EXPECT_EQ(vel.components()[1].to_vector(), (std::vector<float>(5, 2.0f)));
  auto like = tack::ones_like(vel);
  EXPECT_EQ(like.layout(), tack::layout::soa);
  EXPECT_EQ(like.to_vector()[4], (tack::vec3f{1, 1, 1}));
  auto d = vel.astype<double>();
  EXPECT_EQ(d.layout(), tack::layout::soa);
  EXPECT_EQ(d.to_vector()[0], (tack::vec3d{1, 2, 3}));
  auto sv = vel.soa_view();
  tack::vec3f got = sv[2];
  EXPECT_EQ(got, (tack::vec3f{1, 2, 3}));
  EXPECT_THROW_MSG(tack::zeros<tack::vec3f>(2).soa_view(), tack::value_error, "aos");
}
