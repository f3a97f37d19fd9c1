// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
// mean / variance / stddev: counts of scalar components, result types, ddof, every layout, row
// views, implicit arrays and expressions, accuracy on large float arrays, thread-count
// independence, and the errors (empty arrays, bad ddof).
#include <tack/algorithms/statistics.hpp>
#include <tack/array/array.hpp>
#include <tack/array/factories.hpp>
#include <tack/arrays/counting.hpp>
#include <tack/arrays/expressions.hpp>
#include <tack/exec/threads.hpp>
#include <tack/types/vec.hpp>

#include <gtest/gtest.h>

#include "common/tack_test.hpp"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

namespace {

using tack::index_t;

class statistics_test : public tack::test::restores_num_threads {};

TEST_F(statistics_test, mean_of_scalars_and_result_types) {
  auto d = tack::array_from<double>({1, 2, 3, 4});
  EXPECT_EQ(tack::mean(d), 2.5);
  auto f = tack::array_from<float>({1.f, 2.f});
  static_assert(std::is_same_v<decltype(tack::mean(f)), float>);
  EXPECT_EQ(tack::mean(f), 1.5f);
  // integers are averaged in double, without overflow
  auto i = tack::array_from<std::int8_t>({100, 100, 101});
  static_assert(std::is_same_v<decltype(tack::mean(i)), double>);
  EXPECT_DOUBLE_EQ(tack::mean(i), 301.0 / 3.0);
  auto b = tack::array_from<bool>({true, false, false, false});
  EXPECT_EQ(tack::mean(b), 0.25);
}

TEST_F(statistics_test, vector_arrays_count_scalar_components) {
  // 2 elements, 6 components 1..6: mean 3.5, population variance 35/12
  for (tack::layout layout : {tack::layout::aos, tack::layout::soa}) {
    auto v = tack::array_from<tack::vec3d>({1., 2., 3., 4., 5., 6.}, {.layout = layout});
    ASSERT_EQ(v.layout(), layout);
    EXPECT_DOUBLE_EQ(tack::mean(v), 3.5);
    EXPECT_DOUBLE_EQ(tack::variance(v), 35.0 / 12.0);
    EXPECT_DOUBLE_EQ(tack::variance(v, tack::ddof{1}), 3.5);  // 17.5 / 5
    EXPECT_DOUBLE_EQ(tack::stddev(v, tack::ddof{1}), std::sqrt(3.5));
    EXPECT_DOUBLE_EQ(tack::mean(v.rows(1, 2)), 5.0);
    EXPECT_DOUBLE_EQ(tack::variance(v.rows(1, 2)), 2.0 / 3.0);
  }
}

TEST_F(statistics_test, implicit_arrays_and_expressions) {
  // 0..n-1: mean (n-1)/2, population variance (n^2 - 1) / 12
  const index_t n = 1001;
  auto c = tack::arrays::counting<double>(n);
  EXPECT_DOUBLE_EQ(tack::mean(c), 500.0);
  EXPECT_NEAR(tack::variance(c), (double(n) * n - 1) / 12.0, 1e-9);
  EXPECT_NEAR(tack::stddev(c), std::sqrt((double(n) * n - 1) / 12.0), 1e-12);
  EXPECT_DOUBLE_EQ(tack::mean(tack::arrays::counting<int>(4, 10)), 11.5);
  auto a = tack::array_from<double>({1, 2, 3});
  auto b = tack::array_from<double>({3, 2, 1});
  EXPECT_DOUBLE_EQ(tack::mean(a + b), 4.0);
  EXPECT_DOUBLE_EQ(tack::variance(a + b), 0.0);
  EXPECT_DOUBLE_EQ(tack::variance(a * b), 2.0 / 9.0);  // 3 4 3: mean 10/3
}

TEST_F(statistics_test, variance_is_accurate_far_from_zero) {
  // A large offset ruins the one-pass E[x^2] - E[x]^2 in float; two passes keep it.
  const index_t n = 1'000'000;
  auto a = tack::empty<float>(n);
  float* p = a.data();
  for (index_t i = 0; i < n; ++i) p[i] = 10000.0f + float(i % 2);  // variance 0.25
  EXPECT_NEAR(tack::mean(a), 10000.5f, 1e-3f);
  EXPECT_NEAR(tack::variance(a), 0.25f, 1e-3f);
  EXPECT_NEAR(tack::stddev(a), 0.5f, 1e-3f);
}

TEST_F(statistics_test, same_bits_for_one_and_two_threads) {
  const index_t n = 2'000'003;
  auto a = tack::empty<float>(n);
  float* p = a.data();
  std::uint64_t s = 1;
  for (index_t i = 0; i < n; ++i) {
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    p[i] = static_cast<float>(s >> 40) / 16777216.0f;
  }
  tack::set_num_threads(1);
  const float m1 = tack::mean(a), v1 = tack::variance(a);
  tack::set_num_threads(2);
  const float m2 = tack::mean(a), v2 = tack::variance(a);
  EXPECT_EQ(std::memcmp(&m1, &m2, sizeof m1), 0);
  EXPECT_EQ(std::memcmp(&v1, &v2, sizeof v1), 0);
  EXPECT_NEAR(m1, 0.5f, 1e-3f);
  EXPECT_NEAR(v1, 1.0f / 12.0f, 1e-3f);
  EXPECT_EQ(tack::variance(a), v2);
}

TEST_F(statistics_test, empty_arrays_are_value_errors) {
  auto e = tack::zeros<double>(0);
  std::string msg = tack::test::error_message([&] { (void)tack::mean(e); });
  EXPECT_NE(msg.find("tack::mean"), std::string::npos) << msg;
  EXPECT_NE(msg.find(e.describe()), std::string::npos) << msg;
  EXPECT_NE(msg.find("empty"), std::string::npos) << msg;
  msg = tack::test::error_message([&] { (void)tack::variance(tack::arrays::counting<float>(0)); });
  EXPECT_NE(msg.find("tack::variance"), std::string::npos) << msg;
  EXPECT_NE(msg.find("empty"), std::string::npos) << msg;
  msg = tack::test::error_message([&] { (void)tack::stddev(e); });
  EXPECT_NE(msg.find("empty"), std::string::npos) << msg;
}

TEST_F(statistics_test, bad_ddof_is_a_value_error_naming_it) {
  auto v = tack::array_from<tack::vec2d>({1., 2., 3., 4.});  // 4 values
  std::string msg = tack::test::error_message([&] { (void)tack::variance(v, tack::ddof{4}); });
  EXPECT_NE(msg.find("tack::variance"), std::string::npos) << msg;
  EXPECT_NE(msg.find("ddof = 4"), std::string::npos) << msg;
  EXPECT_NE(msg.find("4 values"), std::string::npos) << msg;
  msg = tack::test::error_message([&] { (void)tack::stddev(v, tack::ddof{-1}); });
  EXPECT_NE(msg.find("ddof = -1"), std::string::npos) << msg;
  EXPECT_DOUBLE_EQ(tack::variance(v, tack::ddof{3}), 5.0);  // squares 2.25 + 0.25 + 0.25 + 2.25 = 5
  // with an explicit count, ddof counts against n
  EXPECT_THROW_MSG(tack::variance(v, 2, tack::ddof{2}), tack::value_error, "tack::variance",
                   "ddof = 2", "2 values");
  EXPECT_DOUBLE_EQ(tack::variance(v, 2, tack::ddof{1}), 0.5);  // 1, 2
}

TEST_F(statistics_test, explicit_count_takes_the_first_components_in_storage_order) {
  // vec3f elements (1, 2, 3), (4, 5, 6), (7, 8, 9): component c of element i is number 3i + c,
  // in both layouts
  for (tack::layout layout : {tack::layout::aos, tack::layout::soa}) {
    auto v = tack::array_from<tack::vec3f>({1.f, 2.f, 3.f, 4.f, 5.f, 6.f, 7.f, 8.f, 9.f},
                                           {.layout = layout});
    static_assert(std::is_same_v<decltype(tack::mean(v, 2)), float>);
    EXPECT_EQ(tack::mean(v, 1), 1.f);
    EXPECT_EQ(tack::mean(v, 2), 1.5f);
    EXPECT_EQ(tack::mean(v, 4), 2.5f);  // 1 2 3 4: crosses into element 1
    EXPECT_EQ(tack::mean(v, 9), tack::mean(v));
    EXPECT_EQ(tack::variance(v, 4), 1.25f);  // deviations 1.5 0.5 0.5 1.5
    EXPECT_EQ(tack::variance(v, 4, tack::ddof{1}), 5.f / 3.f);
    EXPECT_EQ(tack::stddev(v, 4), std::sqrt(1.25f));
    EXPECT_EQ(tack::variance(v, 9), tack::variance(v));
    EXPECT_EQ(tack::variance(v, 1), 0.f);
    EXPECT_EQ(tack::mean(v.rows(1, 3), 3), 5.f);  // a row view starts at its first row
    EXPECT_THROW_MSG(tack::mean(v, 10), tack::value_error, "tack::mean", "n = 10", v.describe(),
                     "has 9");
    EXPECT_THROW_MSG(tack::variance(v, -1), tack::value_error, "tack::variance", "n = -1",
                     v.describe());
    EXPECT_THROW_MSG(tack::stddev(v, 0), tack::value_error, "tack::variance", "n = 0",
                     v.describe());
  }
  // the same over a scalar array, an implicit array, and an empty array
  auto d = tack::array_from<double>({4, 1, 7});
  EXPECT_EQ(tack::mean(d, 2), 2.5);
  EXPECT_DOUBLE_EQ(tack::mean(tack::arrays::counting<int>(100), 10), 4.5);
  auto e = tack::zeros<double>(0);
  EXPECT_THROW_MSG(tack::mean(e, 1), tack::value_error, "tack::mean", e.describe(), "empty");
  // a large array: the first n agree with a plain sum of the first n
  std::vector<float> big(100000);
  for (std::size_t i = 0; i < big.size(); ++i) big[i] = static_cast<float>(i % 7);
  auto b = tack::array_from(big);
  double expect = 0;
  for (std::size_t i = 0; i < 77777; ++i) expect += big[i];
  EXPECT_NEAR(tack::mean(b, 77777), expect / 77777, 1e-4);
}

}  // namespace
