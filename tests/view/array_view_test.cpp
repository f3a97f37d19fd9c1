// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
// tack::array_view / tack::mc_array_view: the examples of Axom's core containers documentation,
// whose printed outputs are reproduced here exactly.

#include <tack/array/factories.hpp>
#include <tack/exec/launch.hpp>
#include <tack/view/array_view.hpp>
#include <tack/view/mdview.hpp>

#include <gtest/gtest.h>

#include "common/tack_test.hpp"

#include <algorithm>
#include <array>
#include <iterator>
#include <numeric>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

namespace {

using tack::index_t;

// Axom prints an MCArrayView as "[ [2, 5] [6, 11] [1, 4] ]".
template <class T>
std::string axom_format(const tack::mc_array_view<T>& c) {
  std::ostringstream out;
  out << "[ ";
  for (index_t i = 0; i < c.extent(0); ++i) {
    out << "[";
    for (index_t j = 0; j < c.extent(1); ++j) out << (j ? ", " : "") << c(i, j);
    out << "] ";
  }
  out << "]";
  return out.str();
}

// "Array a = [2, 5, 6, 11, 1, 4]"
std::string flat_format(const std::vector<int>& a) {
  std::ostringstream out;
  out << "[";
  for (std::size_t i = 0; i < a.size(); ++i) out << (i ? ", " : "") << a[i];
  out << "]";
  return out.str();
}

TEST(ArrayView, McArrayViewReadsAFlatBufferAsTuples) {
  std::vector<int> a{2, 5, 6, 11, 1, 4};
  EXPECT_EQ("Array a = " + flat_format(a), "Array a = [2, 5, 6, 11, 1, 4]");
  tack::mc_array_view<int> c(a.data(), 3, 2);
  EXPECT_EQ("MCArrayView c with " + std::to_string(c.extent(0)) + " " +
                std::to_string(c.extent(1)) + "-tuples = " + axom_format(c),
            "MCArrayView c with 3 2-tuples = [ [2, 5] [6, 11] [1, 4] ]");
  // "Array a and MCArrayView c use the same memory, a's internal buffer."
  EXPECT_EQ(c.data(), a.data());
}

TEST(ArrayView, WritesThroughTheViewReachTheBuffer) {
  std::vector<int> a{2, 5, 6, 11, 1, 4};
  tack::mc_array_view<int> c(a.data(), 3, 2);
  c(0, 0) = 1;
  c(1, 1) = 9;
  EXPECT_EQ("Array a = " + flat_format(a), "Array a = [1, 5, 6, 9, 1, 4]");
  EXPECT_EQ(axom_format(c), "[ [1, 5] [6, 9] [1, 4] ]");
}

TEST(ArrayView, IterationVisitsElementsInIndexOrder) {
  std::vector<int> a{1, 5, 6, 9, 1, 4};
  tack::mc_array_view<int> c(a.data(), 3, 2);
  std::ostringstream indexed;
  for (index_t i = 0; i < c.extent(0); ++i) {
    for (index_t j = 0; j < c.extent(1); ++j) {
      indexed << "In ArrayView c, index (" << i << ", " << j << ") yields " << c(i, j) << "\n";
    }
  }
  EXPECT_EQ(indexed.str(),
            "In ArrayView c, index (0, 0) yields 1\n"
            "In ArrayView c, index (0, 1) yields 5\n"
            "In ArrayView c, index (1, 0) yields 6\n"
            "In ArrayView c, index (1, 1) yields 9\n"
            "In ArrayView c, index (2, 0) yields 1\n"
            "In ArrayView c, index (2, 1) yields 4\n");
  std::ostringstream range_for;
  range_for << "Range-based for loop over ArrayView c yields:";
  for (const int value : c) range_for << " " << value;
  EXPECT_EQ(range_for.str(), "Range-based for loop over ArrayView c yields: 1 5 6 9 1 4");
  std::ostringstream standard_for;
  standard_for << "Standard for loop over ArrayView c yields:";
  for (index_t i = 0; i < c.size(); ++i) standard_for << " " << c[i];
  EXPECT_EQ(standard_for.str(), "Standard for loop over ArrayView c yields: 1 5 6 9 1 4");
}

// Axom: "creates a 2D array of 4-tuples and uses an ArrayView to access the 3rd item in each
// 4-tuple".
TEST(ArrayView, SpacingSeesTheThirdComponentOfEachFourTuple) {
  constexpr int n0 = 2, n1 = 3, m = 4;
  std::vector<std::string> tuples;
  for (int i = 0; i < n0; ++i) {
    for (int j = 0; j < n1; ++j) {
      for (int k = 0; k < m; ++k) {
        // A stream, not string `+`: g++ 12 warns falsely (-Wrestrict, GCC bug 105329) on the
        // concatenation at -O2.
        std::ostringstream name;
        name << "(" << i << "," << j << ")." << k;
        tuples.push_back(name.str());
      }
    }
  }
  tack::array_view<std::string, 2> a(tuples.data() + 2, {n0, n1}, m);
  std::ostringstream out;
  out << "Third components of 2D array of 4-tuples:";
  for (index_t i = 0; i < a.extent(0); ++i) {
    for (index_t j = 0; j < a.extent(1); ++j) {
      out << " a(" << i << "," << j << ") = " << a(i, j);
    }
  }
  EXPECT_EQ(out.str(),
            "Third components of 2D array of 4-tuples: a(0,0) = (0,0).2 a(0,1) = (0,1).2 "
            "a(0,2) = (0,2).2 a(1,0) = (1,0).2 a(1,1) = (1,1).2 a(1,2) = (1,2).2");
  EXPECT_EQ(a.spacing(), 4);
  EXPECT_EQ(a.stride(0), 12);
  EXPECT_EQ(a.stride(1), 4);
  EXPECT_EQ(a.size(), 6);
  // operator[] indexes the flat sequence: data()[k * spacing].
  for (index_t k = 0; k < a.size(); ++k) {
    EXPECT_EQ(&a[k], tuples.data() + 2 + k * 4);
  }
  // Iteration follows the spacing too.
  std::vector<std::string> seen(a.begin(), a.end());
  ASSERT_EQ(seen.size(), 6u);
  EXPECT_EQ(seen.front(), "(0,0).2");
  EXPECT_EQ(seen.back(), "(1,2).2");
}

TEST(ArrayView, RankOneWithSpacingAndIteratorAlgorithms) {
  std::vector<double> memory(10);
  std::iota(memory.begin(), memory.end(), 0.0);
  tack::array_view<double> evens(memory.data(), 5, 2);
  EXPECT_EQ(evens.size(), 5);
  EXPECT_EQ(evens[4], 8.0);
  EXPECT_EQ(evens(3), 6.0);
  EXPECT_EQ(std::accumulate(evens.begin(), evens.end(), 0.0), 0.0 + 2 + 4 + 6 + 8);
  EXPECT_EQ(std::distance(evens.begin(), evens.end()), 5);
  static_assert(std::random_access_iterator<tack::array_view<double>::iterator>);
  auto it = evens.begin();
  it += 3;
  EXPECT_EQ(*it, 6.0);
  EXPECT_EQ(it[-1], 4.0);
  EXPECT_EQ(*(it - 2), 2.0);
  EXPECT_TRUE(evens.begin() < it);
  // Sorting through the view touches only every other element.
  std::sort(evens.begin(), evens.end(), std::greater<>());
  EXPECT_EQ(memory, (std::vector<double>{8, 1, 6, 3, 4, 5, 2, 7, 0, 9}));
  // A default-constructed view is empty.
  tack::array_view<double> none;
  EXPECT_EQ(none.size(), 0);
  EXPECT_EQ(none.begin(), none.end());
}

TEST(ArrayView, IsAStridedMdview) {
  std::vector<int> memory{2, 5, 6, 11, 1, 4};
  tack::mc_array_view<int> c(memory.data(), 3, 2);
  static_assert(
      std::is_base_of_v<tack::mdview<int, tack::dextents<2>, tack::layout_stride>, decltype(c)>);
  const tack::mdview<int, tack::dextents<2>, tack::layout_stride>& md = c;
  EXPECT_EQ(md(2, 1), 4);
  EXPECT_EQ(md.stride(0), 2);
  EXPECT_TRUE(md.is_exhaustive());
  EXPECT_EQ((c.shape()), (std::array<index_t, 2>{3, 2}));
  static_assert(std::is_trivially_copyable_v<decltype(c)>);
  // Read-only view of the same memory.
  tack::mc_array_view<const int> r = c;
  EXPECT_EQ(r(1, 1), 11);
  static_assert(std::is_same_v<decltype(r(0, 0)), const int&>);
  static_assert(!std::is_convertible_v<tack::mc_array_view<const int>, tack::mc_array_view<int>>);
  // A 3-D view over a spaced buffer.
  std::vector<int> cube(2 * 2 * 3 * 2);
  std::iota(cube.begin(), cube.end(), 0);
  tack::array_view<int, 3> odd(cube.data() + 1, {2, 2, 3}, 2);
  EXPECT_EQ(odd(1, 1, 2), 1 + 2 * (6 + 3 + 2));
  EXPECT_EQ(odd.required_span_size(), 1 + 2 * 11);
}

// Views cannot resize: they have no growth members at all (Axom's note).
template <class V>
constexpr bool can_grow = requires(V v) {
  v.resize(1);
}
|| requires(V v) { v.push_back(0); }
|| requires(V v) { v.insert(0, 0); }
|| requires(V v) { v.reserve(1); };
static_assert(!can_grow<tack::array_view<int>>);
static_assert(!can_grow<tack::mc_array_view<int>>);

// ---- array_view from arrays and shapes; the memory-space parameter --------------------------------

// Non-templated functions taking views by value, as Axom's kernels do.
int sum_of(tack::array_view<const int> v) {
  int s = 0;
  for (int x : v) s += x;
  return s;
}
void scale(tack::array_view<int, 2> v, int by) {
  for (index_t i = 0; i < v.extent(0); ++i)
    for (index_t j = 0; j < v.extent(1); ++j) v(i, j) *= by;
}
index_t host_only(tack::array_view<int, 1, tack::memory_space::host> v) { return v.size(); }

TEST(ArrayView, ArraysConvertImplicitly) {
  auto a = tack::array_from<int>({1, 2, 3, 4, 5, 6});
  EXPECT_EQ(sum_of(a), 21);
  auto m = a.reshape({2, 3});
  scale(m, 10);
  EXPECT_EQ(a[5], 60);
  tack::array_view<int, 2> v = m;
  EXPECT_EQ(v.data(), a.data());
  EXPECT_EQ(v.shape(), (std::array<index_t, 2>{2, 3}));
  EXPECT_EQ(v.spacing(), 1);
  // A row view converts to a view of its rows.
  EXPECT_EQ(sum_of(a.rows(1, 3)), 20 + 30);
  // A read-only handle converts only to a view of const elements.
  EXPECT_EQ(sum_of(a.as_const()), 210);
  static_assert(std::is_convertible_v<tack::array<const int>, tack::array_view<const int>>);
  static_assert(!std::is_convertible_v<tack::array<const int>, tack::array_view<int>>);
  static_assert(!std::is_convertible_v<tack::array<int>, tack::array_view<float>>);
  static_assert(!std::is_convertible_v<tack::array<int, 2>, tack::array_view<int>>);
}

// A kernel with concrete parameter types: launch hands it the arrays as array_views.
struct add_index {
  TACK_HOST_DEVICE void operator()(index_t i, tack::array_view<int> out,
                                   tack::array_view<const int> in) const {
    out[i] = in[i] + static_cast<int>(i);
  }
};

TEST(ArrayView, NonTemplatedKernelsTakeArraysAsViews) {
  auto in = tack::array_from<int>({10, 20, 30});
  auto out = tack::zeros<int>(3);
  tack::launch(3, add_index{}, out, in.as_const());
  EXPECT_EQ(out.to_vector(), (std::vector<int>{10, 21, 32}));
  add_index{}(1, out, in);  // and on the host, through the array's own conversion
  EXPECT_EQ(out[1], 21);
}

TEST(ArrayView, ConversionChecksWhatItCannotKnowAtCompileTime) {
  // Read-only memory in a mutable handle: no mutable view.
  const std::vector<int> memory{1, 2, 3};
  auto borrowed = tack::from_ptr(const_cast<int*>(memory.data()), {3});
  EXPECT_THROW_MSG((void)tack::array_view<int>(borrowed), tack::read_only_error, "array_view",
                   "read-only");
  EXPECT_EQ(sum_of(borrowed.as_const()), 6);
  // SoA arrays have no single pointer.
  auto soa = tack::zeros<tack::vec3f>(2, {.layout = tack::layout::soa});
  EXPECT_THROW_MSG((void)tack::array_view<tack::vec3f>(soa), tack::value_error, "array_view",
                   "structure-of-arrays");
  // A dynamic array becomes a view of a fixed space only where its memory is.
  auto host = tack::array_from<int>({1, 2});
  EXPECT_EQ(host_only(host), 2);
  auto device = tack::empty<int>({4}, {.allocator = tack::test::fake_device_allocator()});
  EXPECT_THROW_MSG(host_only(device), tack::value_error, "cannot view", "memory space host",
                   "its memory is device");
  tack::array_view<int, 1, tack::memory_space::device> on_device = device;
  EXPECT_EQ(on_device.size(), 4);
  // A fixed-space array converts to its own space and to dynamic, without a check.
  tack::array<int, 1, tack::memory_space::host> fixed;
  fixed.push_back(7);
  tack::array_view<int, 1, tack::memory_space::host> same = fixed;
  tack::array_view<int> any = fixed;
  EXPECT_EQ(same[0] + any[0], 14);
}

TEST(ArrayView, MemorySpaceParameter) {
  std::vector<int> memory{1, 2, 3, 4};
  using host_view = tack::array_view<int, 1, tack::memory_space::host>;
  host_view h(memory.data(), 4);
  // A fixed space becomes dynamic implicitly, and dynamic a fixed space only explicitly.
  tack::array_view<int> d = h;
  tack::array_view<const int, 1, tack::memory_space::host> hc = h;
  EXPECT_EQ(d[3] + hc[2], 7);
  static_assert(std::is_convertible_v<host_view, tack::array_view<int>>);
  static_assert(!std::is_convertible_v<tack::array_view<int>, host_view>);
  static_assert(std::is_constructible_v<host_view, tack::array_view<int>>);
  static_assert(
      !std::is_constructible_v<tack::array_view<int, 1, tack::memory_space::device>, host_view>);
  host_view back(d);
  EXPECT_EQ(back.data(), memory.data());
  static_assert(std::is_trivially_copyable_v<host_view>);
  static_assert(
      std::is_same_v<tack::array_view<int>, tack::array_view<int, 1, tack::memory_space::dynamic>>);
}

TEST(ArrayView, ShapesFromTackShapeAndStdArray) {
  std::vector<std::string> s(24);
  for (std::size_t k = 0; k < s.size(); ++k) s[k] = std::to_string(k);
  tack::array_view a(s.data(), tack::shape{2, 3}, 4);  // deduces array_view<std::string, 2>
  static_assert(std::is_same_v<decltype(a), tack::array_view<std::string, 2>>);
  EXPECT_EQ(a(1, 2), "20");
  tack::array_view b(s.data() + 1, std::array<index_t, 3>{2, 3, 4});
  static_assert(std::is_same_v<decltype(b), tack::array_view<std::string, 3>>);
  EXPECT_EQ(b(1, 0, 0), "13");
  tack::array_view<std::string, 2> c(s.data(), tack::shape{3, 2});
  EXPECT_EQ(c(2, 1), "5");
  tack::array_view<std::string> d(s.data(), tack::shape{6}, 4);
  EXPECT_EQ(d[5], "20");
}

}  // namespace
