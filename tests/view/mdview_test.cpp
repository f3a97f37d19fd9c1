// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
// tack::extents, the three layouts and tack::mdview / make_view (docs/reference/views.md).

#include <tack/core/error.hpp>
#include <tack/memory/buffer.hpp>
#include <tack/memory/device.hpp>
#include <tack/view/make_view.hpp>
#include <tack/view/mdview.hpp>

#include <gtest/gtest.h>

#include "common/tack_test.hpp"

#include <array>
#include <cstddef>
#include <numeric>
#include <string>
#include <type_traits>
#include <vector>

namespace {

using tack::dyn;
using tack::index_t;

// ---- extents ----------------------------------------------------------------------------------

TEST(Extents, StaticAndDynamicExtents) {
  using E = tack::extents<3, dyn, 4>;
  static_assert(E::rank() == 3);
  static_assert(E::rank_dynamic() == 1);
  static_assert(E::static_extent(0) == 3 && E::static_extent(1) == dyn && E::static_extent(2) == 4);
  const E e(5);
  EXPECT_EQ(e.extent(0), 3);
  EXPECT_EQ(e.extent(1), 5);
  EXPECT_EQ(e.extent(2), 4);
  EXPECT_EQ(e.size(), 60);
  // One value per dimension gives the same extents.
  EXPECT_EQ(E(3, 5, 4), e);
  EXPECT_FALSE(E(6) == e);
  EXPECT_EQ((e.to_array()), (std::array<index_t, 3>{3, 5, 4}));
}

TEST(Extents, StaticExtentsCostNoStorage) {
  static_assert(std::is_empty_v<tack::extents<3, 4>>);
  static_assert(sizeof(tack::extents<3, dyn>) == sizeof(index_t));
  static_assert(sizeof(tack::dextents<3>) == 3 * sizeof(index_t));
  static_assert(std::is_trivially_copyable_v<tack::dextents<2>>);
  // A fully static row-major view is one pointer; each dynamic extent adds one integer.
  static_assert(sizeof(tack::mdview<float, tack::extents<3, 4>>) == sizeof(float*));
  static_assert(sizeof(tack::mdview<double, tack::extents<3, dyn>>) ==
                sizeof(double*) + sizeof(index_t));
  EXPECT_EQ((tack::extents<3, 4>{}.size()), 12);
}

TEST(Extents, AreConstexpr) {
  constexpr tack::extents<2, dyn> e(7);
  static_assert(e.extent(1) == 7 && e.size() == 14);
  constexpr tack::extents<> scalar;
  static_assert(scalar.rank() == 0 && scalar.size() == 1);
  constexpr tack::extents<0, dyn> empty(5);
  static_assert(empty.size() == 0);
}

TEST(Extents, DextentsAndDeduction) {
  static_assert(std::is_same_v<tack::dextents<2>, tack::extents<dyn, dyn>>);
  static_assert(std::is_same_v<tack::dextents<0>, tack::extents<>>);
  tack::extents e(6, 3);
  static_assert(std::is_same_v<decltype(e), tack::dextents<2>>);
  EXPECT_EQ(e.extent(0), 6);
  EXPECT_EQ(e.extent(1), 3);
  const tack::dextents<2> from_array(std::array<index_t, 2>{2, 9});
  EXPECT_EQ(from_array.size(), 18);
  static_assert(tack::is_extents_v<tack::dextents<1>> && !tack::is_extents_v<int>);
}

TEST(Extents, ConvertBetweenStaticAndDynamic) {
  const tack::extents<3, 4> fixed;
  const tack::dextents<2> dynamic = fixed;  // implicit: nothing to check
  EXPECT_EQ(dynamic.extent(0), 3);
  EXPECT_EQ(dynamic.extent(1), 4);
  const tack::extents<3, dyn> back(dynamic);  // explicit: the 3 is checked when checks are on
  EXPECT_EQ(back.extent(1), 4);
  static_assert(std::is_convertible_v<tack::extents<3, 4>, tack::dextents<2>>);
  static_assert(!std::is_convertible_v<tack::dextents<2>, tack::extents<3, 4>>);
  static_assert(std::is_constructible_v<tack::extents<3, 4>, tack::dextents<2>>);
  // Static extents that disagree cannot convert at all.
  static_assert(!std::is_constructible_v<tack::extents<3, 4>, tack::extents<3, 5>>);
  // Ranks must agree.
  static_assert(!std::is_constructible_v<tack::dextents<2>, tack::dextents<3>>);
}

// ---- layouts ----------------------------------------------------------------------------------

TEST(Layout, RightIsRowMajor) {
  const tack::layout_right::mapping<tack::extents<2, 3, 4>> m;
  EXPECT_EQ(m(0, 0, 0), 0);
  EXPECT_EQ(m(0, 0, 1), 1);
  EXPECT_EQ(m(0, 1, 0), 4);
  EXPECT_EQ(m(1, 0, 0), 12);
  EXPECT_EQ(m(1, 2, 3), 23);
  EXPECT_EQ(m.stride(0), 12);
  EXPECT_EQ(m.stride(1), 4);
  EXPECT_EQ(m.stride(2), 1);
  EXPECT_EQ(m.required_span_size(), 24);
  static_assert(m.is_always_unique() && m.is_always_exhaustive() && m.is_always_strided());
  static_assert(std::is_empty_v<decltype(m)>);
}

TEST(Layout, LeftIsColumnMajor) {
  const tack::layout_left::mapping<tack::dextents<3>> m(tack::dextents<3>(2, 3, 4));
  EXPECT_EQ(m(1, 0, 0), 1);
  EXPECT_EQ(m(0, 1, 0), 2);
  EXPECT_EQ(m(0, 0, 1), 6);
  EXPECT_EQ(m(1, 2, 3), 1 + 2 * 2 + 3 * 6);
  EXPECT_EQ(m.stride(0), 1);
  EXPECT_EQ(m.stride(1), 2);
  EXPECT_EQ(m.stride(2), 6);
  EXPECT_EQ(m.required_span_size(), 24);
  EXPECT_TRUE(m.is_exhaustive());
}

TEST(Layout, StrideWithGaps) {
  using M = tack::layout_stride::mapping<tack::dextents<2>>;
  const M m(tack::dextents<2>(2, 3), {12, 4});  // every 4th element, rows 12 apart
  EXPECT_EQ(m(0, 0), 0);
  EXPECT_EQ(m(0, 2), 8);
  EXPECT_EQ(m(1, 1), 16);
  EXPECT_EQ(m.stride(0), 12);
  EXPECT_EQ(m.stride(1), 4);
  EXPECT_EQ(m.required_span_size(), 1 + 1 * 12 + 2 * 4);
  EXPECT_FALSE(m.is_exhaustive());
  EXPECT_TRUE(m.is_unique());
  EXPECT_EQ((m.strides()), (std::array<index_t, 2>{12, 4}));
  // An empty extent needs no memory.
  EXPECT_EQ(M(tack::dextents<2>(0, 3), {3, 1}).required_span_size(), 0);
}

TEST(Layout, StrideFromRightAndLeft) {
  const tack::dextents<2> e(3, 5);
  const tack::layout_stride::mapping<tack::dextents<2>> right(
      tack::layout_right::mapping<tack::dextents<2>>{e});
  EXPECT_EQ(right.stride(0), 5);
  EXPECT_EQ(right.stride(1), 1);
  EXPECT_TRUE(right.is_exhaustive());
  const tack::layout_stride::mapping<tack::dextents<2>> left(
      tack::layout_left::mapping<tack::dextents<2>>{e});
  EXPECT_EQ(left.stride(0), 1);
  EXPECT_EQ(left.stride(1), 3);
  for (index_t i = 0; i < 3; ++i) {
    for (index_t j = 0; j < 5; ++j) EXPECT_EQ(left(i, j), i + 3 * j);
  }
  // Default construction is row-major over zero extents; mappings compare by extents and strides.
  EXPECT_EQ(right, (tack::layout_stride::mapping<tack::dextents<2>>(e, {5, 1})));
  EXPECT_FALSE(right == left);
}

// ---- mdview -----------------------------------------------------------------------------------

// layout_right over (C, N) is structure-of-arrays, over a tack::buffer: &v(c, i) - v.data() ==
// c * N + i.
TEST(Mdview, SoaProofPointerArithmeticMatchesClosedFormOverAFullSweep) {
  constexpr std::size_t C = 3, N = 11;
  auto chunk = tack::buffer::allocate(tack::cpu(), C * N * sizeof(double));
  auto v = tack::make_view<double, C, dyn>(chunk, N);
  static_assert(std::is_same_v<decltype(v), tack::mdview<double, tack::extents<3, dyn>>>);
  EXPECT_EQ(v.data(), chunk.data());
  EXPECT_EQ(v.extent(0), 3);
  EXPECT_EQ(v.extent(1), 11);
  for (std::size_t c = 0; c < C; ++c) {
    for (std::size_t i = 0; i < N; ++i) {
      EXPECT_EQ(&v(c, i) - v.data(), static_cast<std::ptrdiff_t>(c * N + i));
    }
  }
}

TEST(Mdview, MakeViewOverAPointerWritesReachTheMemory) {
  std::vector<double> memory(33, 0.0);
  auto v = tack::make_view<double, 3, dyn>(memory.data(), 11);
  v(2, 10) = 7.5;
  v(1, 0) = -1.0;
  EXPECT_EQ(memory[32], 7.5);
  EXPECT_EQ(memory[11], -1.0);
  EXPECT_EQ(v.size(), 33);
  EXPECT_EQ(v.stride(0), 11);
  EXPECT_EQ(v.stride(1), 1);
  EXPECT_EQ(v.required_span_size(), 33);
  // A fully static view takes no run-time extent; a fully dynamic one takes each.
  auto s = tack::make_view<double, 3, 11>(memory.data());
  EXPECT_EQ(&s(2, 10), &memory[32]);
  auto d = tack::make_view<double, dyn, dyn>(memory, 11, 3);
  EXPECT_EQ(&d(10, 2), &memory[32]);
  // From void* (a buffer's pointer type).
  void* raw = memory.data();
  auto r = tack::make_view<const double, dyn>(raw, 33);
  EXPECT_EQ(r[32], 7.5);
}

TEST(Mdview, MakeViewRefusesMemoryThatIsTooSmall) {
  auto chunk = tack::buffer::allocate(tack::cpu(), 10 * sizeof(double));
  EXPECT_THROW_MSG((tack::make_view<double, 3, dyn>(chunk, 11)), tack::value_error,
                   "tack::make_view", "3 x 11", "264 bytes", "80");
  std::vector<float> small(5);
  EXPECT_THROW((void)(tack::make_view<float, dyn>(small, 6)), tack::value_error);
  EXPECT_NO_THROW((void)(tack::make_view<float, dyn>(small, 5)));
}

TEST(Mdview, MakeViewRefusesWritableViewsOfReadOnlyMemory) {
  std::vector<double> memory(4, 1.0);
  auto ro = tack::buffer::borrow(memory.data(), memory.size() * sizeof(double), tack::cpu(),
                                 /*read_only=*/true);
  EXPECT_THROW_MSG((tack::make_view<double, dyn>(ro, 4)), tack::read_only_error,
                   "make_view<const T");
  auto v = tack::make_view<const double, dyn>(ro, 4);
  EXPECT_EQ(v[3], 1.0);
}

TEST(Mdview, MakeViewRefusesMisalignedMemory) {
  std::vector<double> memory(4);
  auto bytes =
      tack::buffer::borrow(reinterpret_cast<char*>(memory.data()) + 1, 16, tack::cpu(), false);
  EXPECT_THROW_MSG((tack::make_view<double, 2>(bytes)), tack::value_error, "aligned to 8 bytes");
}

TEST(Mdview, LayoutLeftInterleavesComponents) {
  constexpr index_t C = 3, N = 11;
  std::vector<float> memory(C * N);
  tack::mdview<float, tack::extents<C, dyn>, tack::layout_left> v(memory.data(), N);
  for (index_t c = 0; c < C; ++c) {
    for (index_t i = 0; i < N; ++i) EXPECT_EQ(&v(c, i) - v.data(), c + i * C);
  }
  EXPECT_EQ(v.stride(0), 1);
  EXPECT_EQ(v.stride(1), 3);
  EXPECT_TRUE(v.is_exhaustive());
}

TEST(Mdview, LayoutStrideSeesEveryOtherColumn) {
  std::vector<int> memory(24);
  std::iota(memory.begin(), memory.end(), 0);
  using M = tack::layout_stride::mapping<tack::dextents<2>>;
  // A 4x3 view of the even columns of a 4x6 row-major matrix.
  tack::mdview<int, tack::dextents<2>, tack::layout_stride> v(memory.data(),
                                                              M(tack::dextents<2>(4, 3), {6, 2}));
  for (index_t i = 0; i < 4; ++i) {
    for (index_t j = 0; j < 3; ++j) EXPECT_EQ(v(i, j), int(6 * i + 2 * j));
  }
  EXPECT_EQ(v.size(), 12);
  EXPECT_EQ(v.required_span_size(), 1 + 3 * 6 + 2 * 2);
  EXPECT_FALSE(v.is_exhaustive());
  v(3, 2) = -1;
  EXPECT_EQ(memory[22], -1);
  // Deduced from the mapping.
  tack::mdview deduced(memory.data(), M(tack::dextents<2>(4, 3), {6, 2}));
  static_assert(std::is_same_v<decltype(deduced), decltype(v)>);
  // A row-major view converts to a strided one.
  tack::mdview<int, tack::dextents<2>> rm(memory.data(), 4, 6);
  tack::mdview<const int, tack::dextents<2>, tack::layout_stride> as_strided(rm);
  EXPECT_EQ(as_strided(2, 5), 17);
  EXPECT_EQ(as_strided.stride(0), 6);
}

TEST(Mdview, ConstConversionAndTrivialCopy) {
  std::vector<float> memory(6, 2.0f);
  tack::mdview<float, tack::dextents<2>> w(memory.data(), 2, 3);
  tack::mdview<const float, tack::dextents<2>> r = w;  // implicit
  static_assert(std::is_convertible_v<decltype(w), decltype(r)>);
  static_assert(!std::is_convertible_v<decltype(r), decltype(w)>);
  static_assert(std::is_trivially_copyable_v<decltype(w)>);
  static_assert(
      std::is_trivially_copyable_v<tack::mdview<float, tack::dextents<3>, tack::layout_stride>>);
  static_assert(std::is_same_v<decltype(r(0, 0)), const float&>);
  static_assert(std::is_same_v<decltype(r)::value_type, float>);
  w(1, 2) = 4.0f;
  EXPECT_EQ(r(1, 2), 4.0f);
  EXPECT_EQ(r.extents(), w.extents());
}

TEST(Mdview, RankOneOperatorBracketAndDeduction) {
  std::vector<int> memory{1, 2, 3, 4};
  tack::mdview v(memory.data(), 4);
  static_assert(std::is_same_v<decltype(v), tack::mdview<int, tack::dextents<1>>>);
  EXPECT_EQ(v[2], 3);
  EXPECT_EQ(&v[3], &v(3));
  EXPECT_FALSE(v.empty());
  EXPECT_TRUE((tack::mdview<int, tack::dextents<1>>(memory.data(), 0).empty()));
  // Unsigned and narrow indices work too.
  EXPECT_EQ(v[std::size_t{1}], 2);
  EXPECT_EQ(v(short{0}), 1);
}

TEST(Mdview, RankZeroViewHoldsOneElement) {
  double x = 4.5;
  tack::mdview<double, tack::extents<>> v(&x);
  EXPECT_EQ(v.size(), 1);
  EXPECT_EQ(v(), 4.5);
  v() = 1.0;
  EXPECT_EQ(x, 1.0);
}

}  // namespace
