// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
// tack::view<T, Rank>: the kernel view of interleaved and scalar arrays (docs/reference/views.md).

#include <tack/core/concepts.hpp>
#include <tack/types/vec.hpp>
#include <tack/view/array_view.hpp>
#include <tack/view/view.hpp>

#include <gtest/gtest.h>

#include <array>
#include <numeric>
#include <type_traits>
#include <vector>

namespace {

using tack::index_t;

TEST(KernelView, StaticProperties) {
  static_assert(std::is_trivially_copyable_v<tack::view<float>>);
  static_assert(std::is_trivially_copyable_v<tack::view<const tack::vec3f, 3>>);
  // Pointer, one extent per dimension, and the two bounds-info integers: nothing else.
  static_assert(sizeof(tack::view<float, 1>) == sizeof(float*) + 3 * sizeof(index_t));
  static_assert(sizeof(tack::view<float, 2>) == sizeof(float*) + 4 * sizeof(index_t));
  static_assert(tack::view<float, 3>::rank == 3);
  static_assert(std::is_same_v<tack::view<const float>::value_type, float>);
  static_assert(std::is_same_v<tack::view<const float>::element_type, const float>);
  // The indexing protocol: readable_array, writable_array, addressable_array.
  static_assert(tack::addressable_array<tack::view<float>>);
  static_assert(tack::readable_array<tack::view<const float>>);
  static_assert(!tack::writable_array<tack::view<const float>>);
  static_assert(std::is_same_v<tack::array_value_t<tack::view<tack::vec3f>>, tack::vec3f>);
}

TEST(KernelView, RankOneReadsAndWrites) {
  std::vector<float> memory{1, 2, 3, 4, 5, 6};
  tack::view<float> v(memory.data(), 6);
  EXPECT_EQ(v.size(), 6);
  EXPECT_EQ(v.extent(0), 6);
  EXPECT_EQ(v.data(), memory.data());
  EXPECT_FALSE(v.empty());
  v[2] = 30.0f;
  v(5) += 1.0f;
  EXPECT_EQ(memory[2], 30.0f);
  EXPECT_EQ(memory[5], 7.0f);
  EXPECT_EQ(&v[4], &v(4));
  EXPECT_EQ(std::accumulate(v.begin(), v.end(), 0.0f), 1 + 2 + 30 + 4 + 5 + 7);
  // Braced extents and std::array extents build the same view.
  tack::view<float> braced(memory.data(), {6});
  tack::view<float> from_array(memory.data(), std::array<index_t, 1>{6});
  EXPECT_EQ(braced.size(), 6);
  EXPECT_EQ(from_array.size(), 6);
  EXPECT_EQ(v.root_rows(), 6);
  EXPECT_EQ(v.root_row_offset(), 0);
}

TEST(KernelView, MultiIndexIsRowMajor) {
  std::vector<int> memory(2 * 3 * 4);
  std::iota(memory.begin(), memory.end(), 0);
  tack::view<int, 3> v(memory.data(), {2, 3, 4});
  EXPECT_EQ(v.size(), 24);
  EXPECT_EQ(v.extent(0), 2);
  EXPECT_EQ(v.extent(1), 3);
  EXPECT_EQ(v.extent(2), 4);
  for (index_t i = 0; i < 2; ++i) {
    for (index_t j = 0; j < 3; ++j) {
      for (index_t k = 0; k < 4; ++k) EXPECT_EQ(v(i, j, k), (i * 3 + j) * 4 + k);
    }
  }
  // operator[] is the flat sequence.
  EXPECT_EQ(v[13], 13);
  EXPECT_EQ(&v[23], &v(1, 2, 3));
  EXPECT_EQ((v.shape()), (std::array<index_t, 3>{2, 3, 4}));
  // Unsigned and narrow indices.
  EXPECT_EQ(v(std::size_t{1}, short{2}, 3u), 23);
}

TEST(KernelView, RowsAreViewsOfTheSameMemory) {
  std::vector<double> memory(6 * 3);
  std::iota(memory.begin(), memory.end(), 0.0);
  tack::view<double, 2> rows(memory.data(), {6, 3});
  auto middle = rows.rows(2, 4);
  static_assert(std::is_same_v<decltype(middle), tack::view<double, 2>>);
  EXPECT_EQ(middle.extent(0), 2);
  EXPECT_EQ(middle.extent(1), 3);
  EXPECT_EQ(middle.data(), memory.data() + 6);
  EXPECT_EQ(middle.root_row_offset(), 2);
  EXPECT_EQ(middle.root_rows(), 6);
  EXPECT_EQ(middle(0, 0), 6.0);
  EXPECT_EQ(middle(1, 2), 11.0);
  // Writes land in the root; rows outside the range are untouched (rows 2 and 3 of 6).
  for (double& x : middle) x = 1.0;
  EXPECT_EQ(memory[3 * 3 + 0], 1.0);
  EXPECT_EQ(memory[4 * 3 + 0], 12.0);
  EXPECT_EQ(memory[2 * 3 - 1], 5.0);
  // Rows of rows are rows of the root.
  auto inner = middle.rows(1, 2);
  EXPECT_EQ(inner.data(), memory.data() + 9);
  EXPECT_EQ(inner.root_row_offset(), 3);
  EXPECT_EQ(inner.root_rows(), 6);
  // An empty range is an empty view at that position.
  auto none = rows.rows(4, 4);
  EXPECT_TRUE(none.empty());
  EXPECT_EQ(none.size(), 0);
  EXPECT_EQ(none.data(), memory.data() + 12);
  // The whole range is the view itself.
  auto all = rows.rows(0, 6);
  EXPECT_EQ(all.data(), rows.data());
  EXPECT_EQ(all.size(), rows.size());
}

TEST(KernelView, RowViewConstructorRecordsTheRoot) {
  std::vector<float> memory(6);
  tack::view<float> row_view(memory.data() + 2, {2}, 2, 6);
  EXPECT_EQ(row_view.size(), 2);
  EXPECT_EQ(row_view.root_row_offset(), 2);
  EXPECT_EQ(row_view.root_rows(), 6);
  tack::view<float, 2> with_array(memory.data(), std::array<index_t, 2>{1, 3}, 1, 2);
  EXPECT_EQ(with_array.root_row_offset(), 1);
  EXPECT_EQ(with_array.root_rows(), 2);
}

TEST(KernelView, ConstViewFromWritableView) {
  std::vector<tack::vec3f> memory(4, tack::vec3f{1, 2, 3});
  tack::view<tack::vec3f> w(memory.data(), 4);
  tack::view<const tack::vec3f> r = w;
  static_assert(std::is_convertible_v<tack::view<float>, tack::view<const float>>);
  static_assert(!std::is_convertible_v<tack::view<const float>, tack::view<float>>);
  static_assert(std::is_same_v<decltype(r[0]), const tack::vec3f&>);
  w[3][1] = 7.0f;
  EXPECT_EQ(r[3][1], 7.0f);
  EXPECT_EQ(r.size(), 4);
  // Bounds info travels with the conversion.
  tack::view<const tack::vec3f> rr = w.rows(1, 3);
  EXPECT_EQ(rr.root_row_offset(), 1);
  EXPECT_EQ(rr.root_rows(), 4);
}

TEST(KernelView, ConvertsToMdviewAndArrayView) {
  std::vector<int> memory(12);
  std::iota(memory.begin(), memory.end(), 0);
  tack::view<int, 2> v(memory.data(), {4, 3});
  tack::mdview<int, tack::dextents<2>> md = v;
  EXPECT_EQ(md.extent(0), 4);
  EXPECT_EQ(md.extent(1), 3);
  EXPECT_EQ(&md(3, 2), &v(3, 2));
  tack::mdview<const int, tack::dextents<2>> cmd = v;
  EXPECT_EQ(cmd(1, 1), 4);
  tack::array_view<int, 2> av = v;
  EXPECT_EQ(av.spacing(), 1);
  EXPECT_EQ(&av(2, 0), &v(2, 0));
  tack::array_view<const int, 2> cav = v;
  EXPECT_EQ(cav[11], 11);
  // A row view converts with its offset pointer.
  tack::mdview<int, tack::dextents<2>> rows = v.rows(1, 3);
  EXPECT_EQ(rows(0, 0), 3);
  EXPECT_EQ(rows.extent(0), 2);
}

TEST(KernelView, DefaultIsNullAndEmpty) {
  tack::view<float, 2> v;
  EXPECT_EQ(v.data(), nullptr);
  EXPECT_EQ(v.size(), 0);
  EXPECT_TRUE(v.empty());
  EXPECT_EQ(v.begin(), v.end());
}

}  // namespace
