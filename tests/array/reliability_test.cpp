// SPDX-License-Identifier: BSD-3-Clause
// Adversarial inputs that once reached undefined behaviour (each runs in the ASan+UBSan build):
// growth whose arguments alias the array, copies between overlapping views, shapes whose size
// overflows, and float-to-integer conversions out of range.
#include <tack/array/factories.hpp>
#include <tack/array/soa.hpp>
#include <tack/arrays/view.hpp>
#include <tack/interop/dlpack.hpp>
#include <tack/types/mat.hpp>
#include <tack/types/vec.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>
#include <span>
#include <vector>

#include "common/tack_test.hpp"

using tack::index_t;

namespace {
std::vector<int> iota_vector(int n, int start = 0) {
  std::vector<int> v(static_cast<std::size_t>(n));
  std::iota(v.begin(), v.end(), start);
  return v;
}
}  // namespace

// ---- growth whose values live in the array itself ------------------------------------------------

TEST(GrowthAliasing, PushBackOfOwnElementWhenReallocating) {
  for (int n = 1; n < 40; ++n) {
    auto a = tack::array_from(iota_vector(n, 10));
    a.shrink();  // full: the next push_back reallocates
    ASSERT_EQ(a.capacity(), a.size());
    a.push_back(a[0]);
    a.push_back(a[n - 1]);
    auto expect = iota_vector(n, 10);
    expect.push_back(10);
    expect.push_back(10 + n - 1);
    EXPECT_EQ(a.to_vector(), expect) << n;
  }
}

TEST(GrowthAliasing, InsertOfOwnElementWhenReallocatingAndShifting) {
  auto a = tack::array_from(iota_vector(8));
  a.shrink();
  a.insert(0, a[5]);  // reallocates; the shift would also move a[5]
  EXPECT_EQ(a.to_vector(), (std::vector<int>{5, 0, 1, 2, 3, 4, 5, 6, 7}));
  a.reserve(100);
  a.insert(1, a[8]);  // no reallocation: the shift moves the value's slot
  EXPECT_EQ(a.to_vector(), (std::vector<int>{5, 7, 0, 1, 2, 3, 4, 5, 6, 7}));
  a.shrink();
  a.insert(2, 3, a[0]);
  EXPECT_EQ(a.to_vector(), (std::vector<int>{5, 7, 5, 5, 5, 0, 1, 2, 3, 4, 5, 6, 7}));
  auto v = tack::array_from<tack::vec3f>({1.f, 2.f, 3.f, 4.f, 5.f, 6.f});
  v.shrink();
  v.emplace_back(v[1]);
  v.resize(6, v[0]);  // resize's value is read before the reallocation too
  EXPECT_EQ(v.to_vector(), (std::vector<tack::vec3f>{
                               {1, 2, 3}, {4, 5, 6}, {4, 5, 6}, {1, 2, 3}, {1, 2, 3}, {1, 2, 3}}));
}

TEST(GrowthAliasing, InsertOfSpanOverOwnElements) {
  auto a = tack::array_from(iota_vector(6));
  a.shrink();
  a.insert(2, std::span<const int>(a.data() + 1, 4));  // reallocates
  EXPECT_EQ(a.to_vector(), (std::vector<int>{0, 1, 1, 2, 3, 4, 2, 3, 4, 5}));
  a.reserve(64);
  a.insert(0, std::span<const int>(a.data(), 3));  // within the capacity: the shift moves them
  EXPECT_EQ(a.to_vector(), (std::vector<int>{0, 1, 1, 0, 1, 1, 2, 3, 4, 2, 3, 4, 5}));
  a.shrink();
  a.append(std::span<const int>(a.data(), static_cast<std::size_t>(a.size())));
  EXPECT_EQ(a.size(), 26);
  EXPECT_EQ(a(25), 5);
  EXPECT_EQ(a(13), 0);
  // rank 2: rows of the array itself
  auto m = tack::array_from<int>({{1, 2}, {3, 4}});
  m.insert(1, std::span<const int>(m.data(), 4));
  EXPECT_EQ(m.to_vector(), (std::vector<int>{1, 2, 1, 2, 3, 4, 3, 4}));
}

// ---- copies between overlapping arrays -------------------------------------------------------------

TEST(CopyOverlap, RowsOverlappingByOneElementBothDirections) {
  for (int n : {6, 100, 5000}) {  // small copies and ones past the copy's thread threshold
    auto a = tack::array_from(iota_vector(n));
    tack::copyto(a.rows(1, n), a.rows(0, n - 1));  // forward: every element moves up by one
    auto expect = iota_vector(n);
    std::copy_backward(expect.begin(), expect.end() - 1, expect.end());
    EXPECT_EQ(a.to_vector(), expect) << n;
    auto b = tack::array_from(iota_vector(n));
    tack::copyto(b.rows(0, n - 1), b.rows(1, n));  // backward
    auto expect_b = iota_vector(n);
    std::copy(expect_b.begin() + 1, expect_b.end(), expect_b.begin());
    EXPECT_EQ(b.to_vector(), expect_b) << n;
  }
  // The example: rows(1, 6) <- rows(0, 5) of six rows of 3.
  auto m = tack::array_from<int>(
      {{0, 1, 2}, {3, 4, 5}, {6, 7, 8}, {9, 10, 11}, {12, 13, 14}, {15, 16, 17}});
  tack::copyto(m.rows(1, 6), m.rows(0, 5));
  EXPECT_EQ(m.to_vector(),
            (std::vector<int>{0, 1, 2, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14}));
}

TEST(CopyOverlap, LargeCopyOverlappingByOneElement) {
  // Past the streaming threshold of the host copy (8 MiB), where threads split the copy.
  const int n = 3 << 20;
  auto a = tack::array_from(iota_vector(n));
  tack::copyto(a.rows(1, n), a.rows(0, n - 1));
  auto v = a.to_vector();
  EXPECT_EQ(v[0], 0);
  EXPECT_EQ(v[1], 0);
  for (int i = 2; i < n; ++i) ASSERT_EQ(v[static_cast<std::size_t>(i)], i - 1) << i;
}

TEST(CopyOverlap, SoaAndAcrossLayouts) {
  std::vector<tack::vec3f> values;
  for (int i = 0; i < 7; ++i) values.push_back({float(i), float(10 + i), float(20 + i)});
  auto s = tack::array_from(values, {.layout = tack::layout::soa});
  tack::copyto(s.rows(1, 7), s.rows(0, 6));
  auto expect = values;
  std::copy_backward(expect.begin(), expect.end() - 1, expect.end());
  EXPECT_EQ(s.to_vector(), expect);
  auto s2 = tack::array_from(values, {.layout = tack::layout::soa});
  tack::copyto(s2.rows(0, 6), s2.rows(1, 7));
  auto expect2 = values;
  std::copy(expect2.begin() + 1, expect2.end(), expect2.begin());
  EXPECT_EQ(s2.to_vector(), expect2);

  // A SoA array whose components are rows of one float array (x, y, z of 4 elements each, laid
  // out as 12 floats), copied into an AoS view of the same 12 floats: element loops across layouts.
  auto flat = tack::array_from<float>({0, 1, 2, 3, 10, 11, 12, 13, 20, 21, 22, 23});
  auto soa = tack::soa(flat.rows(0, 4), flat.rows(4, 8), flat.rows(8, 12));
  auto aos = flat.reshape({4, 3}).as_elements<tack::vec3f>();
  tack::copyto(aos, soa);
  EXPECT_EQ(flat.to_vector(), (std::vector<float>{0, 10, 20, 1, 11, 21, 2, 12, 22, 3, 13, 23}));
  // and back: an AoS source overlapping a SoA destination
  auto flat2 = tack::array_from<float>({0, 10, 20, 1, 11, 21, 2, 12, 22, 3, 13, 23});
  auto soa2 = tack::soa(flat2.rows(0, 4), flat2.rows(4, 8), flat2.rows(8, 12));
  tack::copyto(soa2, flat2.reshape({4, 3}).as_elements<tack::vec3f>());
  EXPECT_EQ(flat2.to_vector(), (std::vector<float>{0, 1, 2, 3, 10, 11, 12, 13, 20, 21, 22, 23}));
}

TEST(CopyOverlap, SpanOverOwnElementsAndDeviceAwareCopy) {
  auto a = tack::array_from(iota_vector(10));
  tack::copyto(a.rows(2, 10), std::span<const int>(a.data(), 8));
  EXPECT_EQ(a.to_vector(), (std::vector<int>{0, 1, 0, 1, 2, 3, 4, 5, 6, 7}));
  std::vector<int> raw = iota_vector(10);
  tack::detail::copy_bytes(raw.data(), true, raw.data() + 1, true, 9 * sizeof(int));
  EXPECT_EQ(raw, (std::vector<int>{1, 2, 3, 4, 5, 6, 7, 8, 9, 9}));
  raw = iota_vector(10);
  tack::detail::copy_bytes(raw.data() + 1, true, raw.data(), true, 9 * sizeof(int));
  EXPECT_EQ(raw, (std::vector<int>{0, 0, 1, 2, 3, 4, 5, 6, 7, 8}));
}

TEST(CopyOverlap, ImplicitSourceOverStoredMemory) {
  // A computed source that reads the destination's own memory (a row view read through the
  // implicit-array path) is read completely before the first store.
  auto a = tack::array_from(iota_vector(8));
  tack::copyto(a.rows(1, 8), tack::arrays::view(a, 0, 7));
  EXPECT_EQ(a.to_vector(), (std::vector<int>{0, 0, 1, 2, 3, 4, 5, 6}));
  // into a destination that is not a tack::array (the store_on_host path), backward
  auto b = tack::array_from(iota_vector(8));
  tack::copyto(tack::arrays::view(b, 0, 7), tack::arrays::view(b, 1, 7));
  EXPECT_EQ(b.to_vector(), (std::vector<int>{1, 2, 3, 4, 5, 6, 7, 7}));
  auto c = tack::array_from(iota_vector(8));
  tack::copyto(tack::arrays::view(c, 1, 7), tack::arrays::view(c, 0, 7));
  EXPECT_EQ(c.to_vector(), (std::vector<int>{0, 0, 1, 2, 3, 4, 5, 6}));
}

// ---- shapes whose size overflows ----------------------------------------------------------------

TEST(ShapeOverflow, FactoriesRefuseWithTheShape) {
  const index_t big = index_t{1} << 40;
  EXPECT_THROW_MSG(tack::zeros<float>(tack::shape{big, big}), tack::value_error, "tack::array",
                   "shape (1099511627776, 1099511627776)", "f32", "too large");
  EXPECT_THROW_MSG(tack::empty<double>({index_t{1} << 61}), tack::value_error,
                   "shape (2305843009213693952)", "f64", "too large");
  EXPECT_THROW_MSG(tack::empty<tack::vec3f>(index_t{1} << 62, {.layout = tack::layout::soa}),
                   tack::value_error, "shape (4611686018427387904)", "too large");
  EXPECT_THROW_MSG(tack::full(tack::shape{big, big, big}, 1), tack::value_error,
                   "shape (1099511627776, 1099511627776, 1099511627776)");
  EXPECT_THROW_MSG(tack::empty<float>({0}, {.capacity = index_t{1} << 62}), tack::value_error,
                   "shape (0) with a capacity of 4611686018427387904 rows", "too large");
  // trailing extents that overflow even with no rows
  EXPECT_THROW_MSG(tack::empty<float>({0, big, big}), tack::value_error,
                   "shape (0, 1099511627776, 1099511627776)", "too large");
  // a zero trailing extent after huge ones: size() multiplies them all
  EXPECT_THROW_MSG(tack::empty<float>({big, big, 0}), tack::value_error,
                   "shape (1099511627776, 1099511627776, 0)", "too large");
  float x = 0;
  EXPECT_THROW_MSG(tack::from_ptr(&x, tack::shape{big, big}), tack::value_error, "tack::from_ptr",
                   "shape (1099511627776, 1099511627776)", "too large");
}

TEST(ShapeOverflow, ReshapeRefusesWithTheShape) {
  auto a = tack::zeros<float>({16});
  const index_t big = index_t{1} << 40;
  // 2^40 * 2^40 * 2^40 * 2^4 wraps to 16 elements in 64 bits
  EXPECT_THROW_MSG(a.reshape(tack::shape{big, big, big, index_t{16}}), tack::value_error,
                   "tack::array::reshape",
                   "shape (1099511627776, 1099511627776, 1099511627776, 16)", "too large");
}

TEST(ShapeOverflow, GrowthRefusesWithTheShape) {
  auto a = tack::zeros<float>({4, 3});
  EXPECT_THROW_MSG(a.resize(index_t{1} << 62), tack::value_error, "tack::array::resize",
                   "shape (4611686018427387904, 3)", "too large");
  EXPECT_THROW_MSG(a.reserve(index_t{1} << 62), tack::value_error, "tack::array::reserve",
                   "shape (4611686018427387904, 3)", "too large");
  auto b = tack::zeros<int>(4);
  EXPECT_THROW_MSG(b.insert(1, std::numeric_limits<index_t>::max(), 0), tack::value_error,
                   "tack::array::insert", "adding 9223372036854775807 rows", b.describe());
  EXPECT_THROW_MSG(b.insert(1, std::numeric_limits<index_t>::max() / 2, 0), tack::value_error,
                   "tack::array::insert", "shape (4611686018427387907)", "too large");
  // a huge growth ratio asks for the most rows that fit (no overflow), which the allocator refuses
  b.shrink();
  b.set_resize_ratio(1e300);
  EXPECT_THROW(b.push_back(1), tack::out_of_memory);
  b.set_resize_ratio(2);
  b.push_back(1);
  EXPECT_EQ(b.to_vector(), (std::vector<int>{0, 0, 0, 0, 1}));
  EXPECT_EQ(a.shape(), (std::array<index_t, 2>{4, 3}));  // the refusals changed nothing
}

namespace {
int dlpack_deletes = 0;
void count_delete(tack::dlpack::DLManagedTensorVersioned* m) {
  ++dlpack_deletes;
  delete m;
}
}  // namespace

TEST(ShapeOverflow, DlpackImportRefusesWithTheShape) {
  static float value = 0;
  static std::int64_t shape[2] = {std::int64_t{1} << 40, std::int64_t{1} << 40};
  static std::int64_t strides[2] = {std::int64_t{1} << 40, 1};
  for (bool typed : {true, false}) {
    dlpack_deletes = 0;
    auto* m = new tack::dlpack::DLManagedTensorVersioned{};
    m->version = {tack::dlpack::major_version, 0};
    m->deleter = &count_delete;
    m->dl_tensor.data = &value;
    m->dl_tensor.device = {tack::dlpack::kDLCPU, 0};
    m->dl_tensor.ndim = 2;
    m->dl_tensor.dtype = {tack::dlpack::kDLFloat, 32, 1};
    m->dl_tensor.shape = shape;
    m->dl_tensor.strides = strides;
    if (typed) {
      EXPECT_THROW_MSG((tack::from_dlpack<float, 2>(m)), tack::value_error, "tack::from_dlpack",
                       "shape (1099511627776, 1099511627776)", "too large");
    } else {
      EXPECT_THROW_MSG(tack::from_dlpack(m), tack::value_error, "tack::from_dlpack",
                       "shape (1099511627776, 1099511627776)", "too large");
    }
    EXPECT_EQ(dlpack_deletes, 1);
  }
}

// ---- astype from floating point to integers ----------------------------------------------------

TEST(AstypeSaturates, OutOfRangeAndNan) {
  const float inf = std::numeric_limits<float>::infinity();
  const float nan = std::numeric_limits<float>::quiet_NaN();
  auto f = tack::array_from<float>(
      {-1e30f, -129.f, -128.5f, -1.9f, -0.5f, 0.f, 1.9f, 127.9f, 128.f, 1e30f, inf, -inf, nan});
  EXPECT_EQ(f.astype<std::int8_t>().to_vector(),
            (std::vector<std::int8_t>{-128, -128, -128, -1, 0, 0, 1, 127, 127, 127, 127, -128, 0}));
  EXPECT_EQ(f.astype<std::uint8_t>().to_vector(),
            (std::vector<std::uint8_t>{0, 0, 0, 0, 0, 0, 1, 127, 128, 255, 255, 0, 0}));
  const auto i32 = std::numeric_limits<std::int32_t>::max();
  EXPECT_EQ(
      f.astype<std::int32_t>().to_vector(),
      (std::vector<std::int32_t>{std::numeric_limits<std::int32_t>::min(), -129, -128, -1, 0, 0, 1,
                                 127, 128, i32, i32, std::numeric_limits<std::int32_t>::min(), 0}));
  // the edges of int64 and uint64 in double: 2^63 is out of range, the double below it is not
  const double two63 = 9223372036854775808.0;
  auto d = tack::array_from<double>({two63, std::nextafter(two63, 0.0), -two63, -1e300,
                                     std::numeric_limits<double>::quiet_NaN(), 2 * two63, -1.0});
  const auto i64 = d.astype<std::int64_t>().to_vector();
  EXPECT_EQ(i64[0], std::numeric_limits<std::int64_t>::max());
  EXPECT_EQ(i64[1], std::int64_t{9223372036854774784});
  EXPECT_EQ(i64[2], std::numeric_limits<std::int64_t>::min());
  EXPECT_EQ(i64[3], std::numeric_limits<std::int64_t>::min());
  EXPECT_EQ(i64[4], 0);
  const auto u64 = d.astype<std::uint64_t>().to_vector();
  EXPECT_EQ(u64[0], std::uint64_t{1} << 63);
  EXPECT_EQ(u64[5], std::numeric_limits<std::uint64_t>::max());
  EXPECT_EQ(u64[6], 0u);
  // vector elements convert component by component, in either layout
  for (auto l : {tack::layout::aos, tack::layout::soa}) {
    auto v = tack::array_from(
        std::vector<tack::vec3f>{{nan, 1e10f, -1e10f}, {2.5f, -2.5f, 40000.f}}, {.layout = l});
    auto s = v.astype<std::int16_t>();
    EXPECT_EQ(s.layout(), l);
    EXPECT_EQ(s.to_vector(),
              (std::vector<tack::vec<std::int16_t, 3>>{{0, 32767, -32768}, {2, -2, 32767}}));
  }
}

// ---- which component of a SoA array refuses writes ---------------------------------------------

TEST(SoaReadOnly, TheRefusalNamesTheComponent) {
  static const float ys[3] = {4, 5, 6};
  auto x = tack::array_from<float>({1, 2, 3});
  auto y = tack::from_ptr(const_cast<float*>(ys), tack::shape{3});  // borrowed without writable
  auto z = tack::array_from<float>({7, 8, 9});
  auto p = tack::soa(x, y, z);
  ASSERT_TRUE(p.read_only());
  EXPECT_EQ(p.read_only_component(), 1);
  EXPECT_EQ(tack::soa(x, z).read_only_component(), -1);
  EXPECT_EQ(tack::array_from<float>({1}).read_only_component(), -1);
  EXPECT_THROW_MSG(p.soa_view(), tack::read_only_error, "tack::array::soa_view", p.describe(),
                   "(component 1, " + y.describe() + ")", "as_const()");
  EXPECT_THROW_MSG(p.rows(1, 3).fill(tack::vec3f{}), tack::read_only_error, "component 1");
  EXPECT_EQ(p.as_const().soa_view()[2], (tack::vec3f{3, 6, 9}));
}
