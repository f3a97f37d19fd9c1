// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
// sum / reduce / transform_reduce / min / max / minmax / dot over stored arrays (AoS, SoA, rank 2,
// row views), implicit arrays, expressions and kernel views; scalar components in to_vector order;
// accuracy against long double on 1e7 floats; bit-identical results for 1 and 2 threads; errors.
#include <tack/algorithms/reduce.hpp>
#include <tack/algorithms/statistics.hpp>
#include <tack/array/array.hpp>
#include <tack/array/factories.hpp>
#include <tack/arrays/constant.hpp>
#include <tack/arrays/counting.hpp>
#include <tack/arrays/expressions.hpp>
#include <tack/arrays/function.hpp>
#include <tack/arrays/random.hpp>
#include <tack/arrays/transform.hpp>
#include <tack/exec/threads.hpp>
#include <tack/memory/allocator.hpp>
#include <tack/types/mat.hpp>
#include <tack/types/vec.hpp>

#include <gtest/gtest.h>

#include "common/tack_test.hpp"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

namespace {

using tack::index_t;

class reduce_test : public tack::test::restores_num_threads {};

// Deterministic pseudo-random floats in [0, 1).
std::vector<float> random_floats(index_t n, std::uint64_t seed) {
  std::vector<float> v(static_cast<std::size_t>(n));
  std::uint64_t s = seed;
  for (auto& x : v) {
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    x = static_cast<float>(s >> 40) / static_cast<float>(1ull << 24);
  }
  return v;
}

// A vec3f array (n elements, component c of element i = 10 * i + c) in the given layout.
tack::array<tack::vec3f> numbered_vec3(index_t n, tack::layout layout) {
  std::vector<float> c(static_cast<std::size_t>(3 * n));
  for (std::size_t k = 0; k < c.size(); ++k) c[k] = float(10 * (k / 3) + k % 3);
  return tack::array_from_components<tack::vec3f>(std::span<const float>(c), {.layout = layout});
}

bool same_bits(float a, float b) { return std::memcmp(&a, &b, sizeof a) == 0; }

struct square {
  double operator()(double x) const { return x * x; }
};

// A user's array type: indexable, with a length, trivially copyable; read on the CPU.
struct ramp {
  index_t n;
  double operator[](index_t i) const { return 0.5 * double(i); }
  index_t size() const { return n; }
};

struct abs_difference {
  double operator()(double x, double y) const { return std::fabs(x - y); }
};

TEST_F(reduce_test, sum_of_scalars_and_result_types) {
  auto a = tack::array_from<int>({3, 5, 7, 11});
  static_assert(std::is_same_v<decltype(tack::sum(a)), int>);
  EXPECT_EQ(tack::sum(a), 26);
  auto d = tack::array_from<double>({0.5, 0.25});
  EXPECT_EQ(tack::sum(d), 0.75);
  auto b = tack::array_from<bool>({true, false, true, true});
  static_assert(std::is_same_v<decltype(tack::sum(b)), index_t>);
  EXPECT_EQ(tack::sum(b), 3);
}

TEST_F(reduce_test, sum_of_empty_is_zero) {
  EXPECT_EQ(tack::sum(tack::zeros<float>(0)), 0.0f);
  EXPECT_EQ(tack::sum(tack::zeros<tack::vec3f>(0, {.layout = tack::layout::soa})), 0.0f);
  EXPECT_EQ(tack::sum(tack::arrays::counting<int>(0)), 0);
}

TEST_F(reduce_test, vector_arrays_sum_their_components_in_every_layout) {
  for (tack::layout layout : {tack::layout::aos, tack::layout::soa}) {
    const index_t n = 1000;
    auto a = numbered_vec3(n, layout);
    static_assert(std::is_same_v<decltype(tack::sum(a)), float>);
    // sum over i of (30 i + 3) = 30 n (n - 1) / 2 + 3 n
    EXPECT_EQ(tack::sum(a), float(15 * n * (n - 1) + 3 * n)) << "layout " << int(layout);
    EXPECT_EQ(tack::min(a), 0.0f);
    EXPECT_EQ(tack::max(a), float(10 * (n - 1) + 2));
  }
}

TEST_F(reduce_test, aos_and_soa_give_bit_identical_float_sums) {
  const index_t n = 100'003;
  const std::vector<float> values = random_floats(3 * n, 7);
  auto aos = tack::array_from_components<tack::vec3f>(std::span<const float>(values));
  auto soa = aos.copy({.layout = tack::layout::soa});
  ASSERT_EQ(soa.layout(), tack::layout::soa);
  EXPECT_TRUE(same_bits(tack::sum(aos), tack::sum(soa)));
  auto flat = tack::array_from<float>(values);
  EXPECT_TRUE(same_bits(tack::sum(aos), tack::sum(flat)));  // the same 3n values, same order
}

TEST_F(reduce_test, matrices_rank2_and_row_views) {
  std::vector<float> c(36);
  for (std::size_t k = 0; k < c.size(); ++k) c[k] = float(k);
  auto m = tack::array_from_components<tack::mat3f>(std::span<const float>(c),
                                                    {.layout = tack::layout::soa});
  ASSERT_EQ(m.layout(), tack::layout::soa);
  EXPECT_EQ(tack::sum(m), float(35 * 36 / 2));
  EXPECT_EQ(tack::max(m), 35.0f);
  auto aos = m.copy({.layout = tack::layout::aos});
  EXPECT_EQ(tack::sum(aos), float(35 * 36 / 2));
  // component k pairs with component k across layouts: the sum of k^2
  EXPECT_EQ(tack::dot(m, aos), float(35 * 36 * 71 / 6));

  auto grid = tack::array_from<int>({{1, 2, 3}, {4, 5, 6}, {7, 8, 9}});
  EXPECT_EQ(tack::sum(grid), 45);
  EXPECT_EQ(tack::sum(grid.rows(1, 3)), 39);
  EXPECT_EQ(tack::min(grid.rows(1, 3)), 4);

  for (tack::layout layout : {tack::layout::aos, tack::layout::soa}) {
    auto v = numbered_vec3(10, layout);
    auto middle = v.rows(2, 4);  // elements 2 and 3: 20+21+22 + 30+31+32
    EXPECT_EQ(tack::sum(middle), 156.0f);
    EXPECT_EQ(tack::minmax(middle), std::make_pair(20.0f, 32.0f));
  }
}

TEST_F(reduce_test, implicit_arrays_expressions_and_views) {
  EXPECT_EQ(tack::sum(tack::arrays::counting<double>(101)), 5050.0);
  EXPECT_EQ(tack::sum(tack::arrays::counting<index_t>(1'000'001)), index_t(500'000'500'000));
  EXPECT_EQ(tack::min(tack::arrays::counting<int>(5, 3, -2)), -5);
  EXPECT_EQ(tack::max(tack::arrays::counting<int>(5, 3, -2)), 3);
  auto sq = tack::arrays::function(4, [](index_t i) { return double(i * i); });
  EXPECT_EQ(tack::sum(sq), 14.0);

  auto a = tack::array_from<double>({1, 2, 3, 4});
  auto b = tack::array_from<double>({5, 6, 7, 8});
  EXPECT_EQ(tack::sum(a * b), 70.0);
  EXPECT_EQ(tack::sum(a + 2.0 * b), 62.0);
  EXPECT_EQ(tack::max(a - b), -4.0);

  // A vec3f expression: the sum of the components of 2 * v.
  for (tack::layout layout : {tack::layout::aos, tack::layout::soa}) {
    auto v = numbered_vec3(3, layout);  // components 0..2, 10..12, 20..22: sum 99
    EXPECT_EQ(tack::sum(v * 2.0f), 198.0f);
    EXPECT_EQ(tack::sum(tack::arrays::transform(v, [](tack::vec3f x) { return x[0]; })), 30.0f);
  }

  // Kernel views and a user type read directly.
  std::vector<float> host = {1, 2, 3, 4, 5};
  tack::view<float> view(host.data(), index_t(host.size()));
  EXPECT_EQ(tack::sum(view), 15.0f);
  EXPECT_EQ(tack::minmax(view.rows(1, 3)), std::make_pair(2.0f, 3.0f));
}

TEST_F(reduce_test, read_only_handles_and_user_types) {
  auto a = tack::array_from<float>({1.f, 2.f, 4.f});
  EXPECT_EQ(tack::sum(a.as_const()), 7.0f);
  std::vector<float> host = {1.f, -2.f, 8.f};
  auto borrowed = tack::from_ptr(host.data(), {3});  // read-only memory can be reduced
  ASSERT_TRUE(borrowed.read_only());
  EXPECT_EQ(tack::minmax(borrowed), std::make_pair(-2.0f, 8.0f));
  EXPECT_EQ(tack::dot(borrowed, a), 29.0f);
  EXPECT_EQ(tack::sum(ramp{5}), 5.0);
  EXPECT_EQ(tack::max(ramp{5}), 2.0);
  EXPECT_EQ(tack::dot(ramp{3}, tack::arrays::counting<double>(3)), 2.5);
  EXPECT_THROW_MSG(tack::min(ramp{0}), tack::value_error, "array of 0 elements");
}

TEST_F(reduce_test, reduce_and_transform_reduce) {
  auto a = tack::array_from<double>({1, 2, 3, 4});
  EXPECT_EQ(tack::reduce(a, 1.0, tack::ops::multiplies{}), 24.0);
  EXPECT_EQ(tack::reduce(a, 10.0, tack::ops::plus{}), 20.0);
  EXPECT_EQ(tack::reduce(tack::zeros<double>(0), 10.0, tack::ops::plus{}), 10.0);
  EXPECT_EQ(tack::transform_reduce(a, 0.0, tack::ops::plus{}, square{}), 30.0);
  // init's type is the result type: a float array summed into double
  auto f = tack::array_from<float>({0.5f, 0.25f});
  static_assert(std::is_same_v<decltype(tack::reduce(f, 0.0, tack::ops::plus{})), double>);
  // components, not elements: the product of all 6 components
  auto v =
      tack::array_from<tack::vec3f>({1.f, 2.f, 3.f, 4.f, 5.f, 6.f}, {.layout = tack::layout::soa});
  EXPECT_EQ(tack::reduce(v, 1.0f, tack::ops::multiplies{}), 720.0f);

  auto b = tack::array_from<double>({4, 4, 4, 4});
  EXPECT_EQ(tack::transform_reduce(a, b, 0.0, tack::ops::plus{}, abs_difference{}), 6.0);
  EXPECT_EQ(tack::transform_reduce(a, b, 0.0, tack::ops::max{}, abs_difference{}), 3.0);
}

TEST_F(reduce_test, minmax_of_scalars_and_integers) {
  auto a = tack::array_from<std::int16_t>({5, -3, 12, 0});
  auto [lo, hi] = tack::minmax(a);
  static_assert(std::is_same_v<decltype(lo), std::int16_t>);
  EXPECT_EQ(lo, -3);
  EXPECT_EQ(hi, 12);
  auto big = tack::arrays::function(
      100'000, [](index_t i) { return double((i * 7919) % 100'000) - 50'000; });
  EXPECT_EQ(tack::minmax(big), std::make_pair(-50'000.0, 49'999.0));
  EXPECT_EQ(tack::min(big), -50'000.0);
  EXPECT_EQ(tack::max(big), 49'999.0);
  auto inf = tack::array_from<float>({std::numeric_limits<float>::infinity(), 1.0f});
  EXPECT_EQ(tack::max(inf), std::numeric_limits<float>::infinity());
  EXPECT_EQ(tack::min(inf), 1.0f);
}

TEST_F(reduce_test, dot_pairs_components_whatever_the_layouts) {
  const index_t n = 1000;  // every partial sum is an integer below 2^24: exact in float
  auto a = numbered_vec3(n, tack::layout::aos);
  auto b =
      tack::full<tack::vec3f>(n, tack::vec3f{1.0f, -1.0f, 2.0f}, {.layout = tack::layout::soa});
  // sum over i of (10i) - (10i + 1) + 2 (10i + 2) = 20 i + 3
  const float expected = float(10 * n * (n - 1) + 3 * n);
  EXPECT_EQ(tack::dot(a, b), expected);
  EXPECT_EQ(tack::dot(b, a), expected);
  EXPECT_EQ(tack::dot(a.copy({.layout = tack::layout::soa}), b), expected);
  EXPECT_EQ(tack::dot(a, b.copy({.layout = tack::layout::aos})), expected);
  // mixed element precision: float * double is double
  auto x = tack::array_from<float>({1.f, 2.f});
  auto y = tack::array_from<double>({3.0, 4.0});
  static_assert(std::is_same_v<decltype(tack::dot(x, y)), double>);
  EXPECT_EQ(tack::dot(x, y), 11.0);
  EXPECT_EQ(tack::dot(x, tack::arrays::counting<float>(2, 1.0f)), 5.0f);
  EXPECT_EQ(tack::dot(tack::zeros<float>(0), tack::zeros<float>(0)), 0.0f);
}

TEST_F(reduce_test, accuracy_of_ten_million_floats) {
  const index_t n = 10'000'000;
  const std::vector<float> values = random_floats(n, 42);
  long double exact = 0;
  float strict = 0;
  for (float x : values) {
    exact += x;
    strict += x;
  }
  auto a = tack::array_from<float>(values);
  const float s = tack::sum(a);
  const long double err = std::fabs(static_cast<long double>(s) - exact);
  const long double strict_err = std::fabs(static_cast<long double>(strict) - exact);
  EXPECT_LT(err, strict_err / 100) << "tack " << double(err) << " strict " << double(strict_err);
  EXPECT_LT(err / exact, 1e-6L);
  // mean and dot of the same values are as accurate
  const float d = tack::dot(a, tack::arrays::constant(1.0f, n));
  EXPECT_TRUE(same_bits(d, s));
}

// Sums of arrays computed from the index (counting, random, constant and compositions of them)
// let the vectorizer group each leaf (detail::regrouped_plus); they must stay as accurate and as
// deterministic as the fixed-lane sums of stored arrays.
TEST_F(reduce_test, computed_arrays_sum_accurately_and_identically_on_every_thread_count) {
  namespace ta = tack::arrays;
  const index_t n = 10'000'000;
  const auto r = ta::random_uniform<float>(n, 42, 0.0f, 1.0f);
  static_assert(ta::detail::computes_from_index_v<std::remove_cvref_t<decltype(r)>>);
  long double exact = 0;
  float strict = 0;
  for (index_t i = 0; i < n; ++i) {
    exact += r[i];
    strict += r[i];
  }
  tack::set_num_threads(1);
  const float s1 = tack::sum(r);
  const long double err = std::fabs(static_cast<long double>(s1) - exact);
  const long double strict_err = std::fabs(static_cast<long double>(strict) - exact);
  EXPECT_LT(err, strict_err / 100) << "tack " << double(err) << " strict " << double(strict_err);
  EXPECT_LT(err / exact, 1e-6L);
  for (int t : {2, 3, 7}) {
    tack::set_num_threads(t);
    EXPECT_TRUE(same_bits(tack::sum(r), s1)) << t << " threads";
  }
  // Integer sums are exact whatever the grouping; every length around the vector and leaf sizes.
  // (m stays below 46341, so that the int32 sum of 2i cannot overflow.)
  for (index_t m : {index_t{1}, index_t{2}, index_t{63}, index_t{64}, index_t{65}, index_t{1023},
                    index_t{1025}, index_t{4097}, index_t{40'009}}) {
    const auto c = ta::counting<std::int64_t>(m, -5, 3);
    EXPECT_EQ(tack::sum(c), m * -5 + 3 * (m * (m - 1) / 2)) << m;
    const auto twice = ta::counting<std::int32_t>(m) * 2;
    static_assert(ta::detail::computes_from_index_v<std::remove_cvref_t<decltype(twice)>>);
    EXPECT_EQ(tack::sum(twice), static_cast<std::int32_t>(m * (m - 1))) << m;
    EXPECT_DOUBLE_EQ(tack::mean(ta::constant(2.5, m)), 2.5) << m;
  }
}

TEST_F(reduce_test, arrays_read_from_memory_are_not_computed_from_the_index) {
  namespace ta = tack::arrays;
  static_assert(!ta::detail::computes_from_index_v<tack::view<float>>);
  std::vector<float> data(4, 1.0f);
  const auto mixed = ta::counting<float>(4) + tack::view<float>(data.data(), 4);
  static_assert(!ta::detail::computes_from_index_v<std::remove_cvref_t<decltype(mixed)>>);
  // A user's functor is assumed to read memory unless it says otherwise.
  const auto f = ta::function(4, [](index_t i) { return double(i); });
  static_assert(!ta::detail::computes_from_index_v<std::remove_cvref_t<decltype(f)>>);
  EXPECT_EQ(tack::sum(mixed), 10.0f);
  EXPECT_EQ(tack::sum(f), 6.0);
}

TEST_F(reduce_test, bit_identical_for_one_and_two_threads_and_repeated_runs) {
  const index_t n = 3'000'017;
  const std::vector<float> values = random_floats(n, 3);
  auto a = tack::array_from<float>(values);
  auto v = tack::array_from_components<tack::vec3f>(
      std::span<const float>(values.data(), 3 * 1'000'000), {.layout = tack::layout::soa});
  tack::set_num_threads(1);
  const float s1 = tack::sum(a), d1 = tack::dot(a, a), v1 = tack::sum(v);
  const auto m1 = tack::minmax(a);
  tack::set_num_threads(2);
  const float s2 = tack::sum(a), d2 = tack::dot(a, a), v2 = tack::sum(v);
  EXPECT_TRUE(same_bits(s1, s2));
  EXPECT_TRUE(same_bits(d1, d2));
  EXPECT_TRUE(same_bits(v1, v2));
  EXPECT_EQ(m1, tack::minmax(a));
  for (int run = 0; run < 3; ++run) {
    EXPECT_TRUE(same_bits(tack::sum(a), s2));
    EXPECT_TRUE(same_bits(tack::sum(v), v2));
  }
}

TEST_F(reduce_test, empty_min_max_minmax_throw_naming_the_array) {
  auto e = tack::zeros<float>(0);
  EXPECT_THROW_MSG(tack::min(e), tack::value_error, "tack::min", e.describe(), "empty");
  EXPECT_THROW_MSG(tack::max(tack::zeros<tack::vec3f>(5, {.layout = tack::layout::soa}).rows(2, 2)),
                   tack::value_error, "tack::max", "soa");
  EXPECT_THROW_MSG(tack::minmax(tack::arrays::counting<int>(0)), tack::value_error, "tack::minmax",
                   "implicit array of 0 elements");
}

TEST_F(reduce_test, dot_of_different_sizes_names_both) {
  auto a = tack::zeros<float>(3);
  auto b = tack::zeros<float>(4);
  EXPECT_THROW_MSG(tack::dot(a, b), tack::value_error, "tack::dot", "3 elements", "4 elements");
  EXPECT_THROW((void)tack::transform_reduce(a, tack::arrays::counting<float>(2), 0.0,
                                            tack::ops::plus{}, abs_difference{}),
               tack::value_error);
}

TEST_F(reduce_test, runs_on_the_arrays_device_and_refuses_mixed_devices) {
  auto d = tack::empty<float>(4, {.allocator = tack::test::fake_device_allocator()});
  const tack::device gpu = tack::detail::first_gpu();  // cuda:0, or hip:0 in a HIP build
  ASSERT_EQ(d.device(), gpu);
  // this translation unit cannot run kernels on a GPU: the reduction says so, naming itself
  EXPECT_THROW_MSG(tack::sum(d), tack::device_error, "tack::sum", gpu.str());
  EXPECT_THROW((void)tack::minmax(d), tack::device_error);
  EXPECT_THROW_MSG(tack::dot(tack::zeros<float>(4), d), tack::value_error, "tack::dot", "cpu",
                   gpu.str());
}

}  // namespace

// The CPU leaves prefetch ahead only through readers that say where consecutive operands live:
// stored AoS views (packed vectors included) and the readers built on them; never SoA views or
// computed arrays, whose operands have no address.
TEST(Reduce, PrefetchingReadersAndEdges) {
  using tack::detail::component_reader;
  using tack::detail::prefetches_operands_v;
  static_assert(prefetches_operands_v<double, component_reader<tack::view<double, 1>>>);
  static_assert(prefetches_operands_v<float, component_reader<tack::view<const float, 2>>>);
  static_assert(prefetches_operands_v<double, component_reader<tack::view<tack::vec3d, 1>>>);
  static_assert(!prefetches_operands_v<double, component_reader<tack::soa_view<tack::vec3d, 1>>>);
  static_assert(!prefetches_operands_v<std::int8_t, component_reader<tack::view<std::int8_t, 1>>>);
  // Sums ending at every offset of the last leaf and page: the prefetch runs past the end and must
  // change nothing (ASan builds check that no read does).
  for (tack::index_t n : {255, 256, 257, 511, 512, 513, 4095, 4096, 4097}) {
    auto a = tack::empty<double>(n);
    for (tack::index_t i = 0; i < n; ++i) a(i) = static_cast<double>(i % 7);
    double expect = 0;
    for (tack::index_t i = 0; i < n; ++i) expect += static_cast<double>(i % 7);
    EXPECT_EQ(tack::sum(a), expect) << n;
    EXPECT_EQ(tack::max(a), 6.0) << n;
  }
}
