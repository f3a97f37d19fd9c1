// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
// Counter-based random arrays: Philox-4x32-10 known answers, determinism (a pure function of seed
// and index: any order, any thread count), and statistics of 10^6 values.
//
// Statistical thresholds. Every test uses fixed seeds, so it passes or fails the same way on every
// run; the bounds are set so that a correct generator would fail with probability below about
// 1e-3 per check if the seed were drawn at random: means within 5 standard errors, chi-square over
// 20 bins (19 degrees of freedom) below 43.82, its 0.999 quantile.

#include <tack/arrays/random.hpp>
#include <tack/core/concepts.hpp>
#include <tack/core/error.hpp>
#include <tack/detail/philox.hpp>

#include <gtest/gtest.h>

#include "common/tack_test.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <set>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

namespace {

using tack::index_t;
namespace ta = tack::arrays;

constexpr index_t n_stats = 1'000'000;
constexpr double chi2_19_p999 = 43.82;  // 0.999 quantile of chi-square with 19 degrees of freedom

// Known-answer vectors of Philox-4x32-10 published with the generator (Random123's kat_vectors).
TEST(Philox, KnownAnswers) {
  using tack::detail::philox4x32;
  auto a = philox4x32<10>({{0, 0, 0, 0}}, 0, 0);
  EXPECT_EQ(a.v[0], 0x6627e8d5u);
  EXPECT_EQ(a.v[1], 0xe169c58du);
  EXPECT_EQ(a.v[2], 0xbc57ac4cu);
  EXPECT_EQ(a.v[3], 0x9b00dbd8u);
  auto b = philox4x32<10>({{0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu}}, 0xffffffffu,
                          0xffffffffu);
  EXPECT_EQ(b.v[0], 0x408f276du);
  EXPECT_EQ(b.v[1], 0x41c83b0eu);
  EXPECT_EQ(b.v[2], 0xa20bc7c6u);
  EXPECT_EQ(b.v[3], 0x6d5451fdu);
  auto c = philox4x32<10>({{0x243f6a88u, 0x85a308d3u, 0x13198a2eu, 0x03707344u}}, 0xa4093822u,
                          0x299f31d0u);
  EXPECT_EQ(c.v[0], 0xd16cfe09u);
  EXPECT_EQ(c.v[1], 0x94fdccebu);
  EXPECT_EQ(c.v[2], 0x5001e420u);
  EXPECT_EQ(c.v[3], 0x24126ea1u);
}

TEST(RandomBits, ArePhiloxOfTheIndexUnderTheSeed) {
  const std::uint64_t seed = 0x0123456789abcdefull;
  auto r32 = ta::random_bits(10, seed);
  auto r64 = ta::random_bits<std::uint64_t>(10, seed);
  static_assert(std::is_same_v<decltype(r32)::value_type, std::uint32_t>);
  static_assert(std::is_same_v<decltype(r64)::value_type, std::uint64_t>);
  static_assert(std::is_trivially_copyable_v<decltype(r32)>);
  static_assert(!tack::writable_array<decltype(r32)>);
  for (index_t i = 0; i < 10; ++i) {
    auto b =
        tack::detail::philox4x32<10>({{std::uint32_t(i), 0u, 0u, 0u}}, 0x89abcdefu, 0x01234567u);
    EXPECT_EQ(r32[i], b.v[0]);
    EXPECT_EQ(r64[i], (std::uint64_t(b.v[0]) << 32) | b.v[1]);
    EXPECT_EQ(r32[i], std::uint32_t(r64[i] >> 32));  // the 32-bit value is the high half
  }
  // The high index word reaches the counter too.
  auto b = tack::detail::philox4x32<10>({{7u, 2u, 0u, 0u}}, 5u, 0u);
  EXPECT_EQ(ta::random_bits(index_t(3) << 32, 5)[(index_t(2) << 32) + 7], b.v[0]);
}

TEST(RandomBits, EachBitIsSetHalfTheTime) {
  auto r = ta::random_bits(n_stats, 2024);
  std::vector<index_t> ones(32, 0);
  for (index_t i = 0; i < r.size(); ++i) {
    const std::uint32_t x = r[i];
    for (int b = 0; b < 32; ++b) ones[b] += (x >> b) & 1u;
  }
  const double se = std::sqrt(0.25 / double(n_stats));
  for (int b = 0; b < 32; ++b) {
    EXPECT_NEAR(double(ones[b]) / double(n_stats), 0.5, 5 * se) << "bit " << b;
  }
}

TEST(RandomUniform, IsAPureFunctionOfSeedAndIndex) {
  auto a = ta::random_uniform<float>(1000, 42);
  auto b = ta::random_uniform<float>(1000, 42);
  auto c = ta::random_uniform<float>(1000, 43);
  auto longer = ta::random_uniform<float>(5000, 42);
  int differ = 0;
  for (index_t i = 0; i < 1000; ++i) {
    EXPECT_EQ(a[i], b[i]);
    EXPECT_EQ(a[i], longer[i]);  // the length does not change the values
    differ += a[i] != c[i];
  }
  EXPECT_GT(differ, 990);
  // Reading in reverse, twice, or one element alone gives the same values.
  std::vector<float> forward(a.begin(), a.end());
  for (index_t i = 999; i >= 0; --i) EXPECT_EQ(a[i], forward[std::size_t(i)]);
  EXPECT_EQ(ta::random_uniform<float>(1'000'000, 42)[777], forward[777]);
}

TEST(RandomUniform, IsTheSameForEveryThreadCount) {
  const index_t n = 200'000;
  auto r = ta::random_normal<double>(n, 99);
  std::vector<double> serial(static_cast<std::size_t>(n));
  for (index_t i = 0; i < n; ++i) serial[std::size_t(i)] = r[i];
  for (int threads : {2, 3, 7}) {
    std::vector<double> parallel(static_cast<std::size_t>(n));
    std::vector<std::thread> pool;
    for (int t = 0; t < threads; ++t) {
      pool.emplace_back([&, t] {
        // Interleaved indices: each thread sees a different subsequence, in its own order.
        for (index_t i = n - 1 - t; i >= 0; i -= threads) parallel[std::size_t(i)] = r[i];
      });
    }
    for (auto& th : pool) th.join();
    EXPECT_EQ(parallel, serial) << threads << " threads";
  }
}

TEST(RandomUniform, FloatIsTheTop24BitsAndDoubleTheTop53) {
  auto bits = ta::random_bits<std::uint64_t>(100, 7);
  auto f = ta::random_uniform<float>(100, 7);
  auto d = ta::random_uniform<double>(100, 7);
  for (index_t i = 0; i < 100; ++i) {
    EXPECT_EQ(f[i], float(bits[i] >> 40) * 0x1p-24f);
    EXPECT_EQ(d[i], double(bits[i] >> 11) * 0x1p-53);
  }
}

template <class T>
void check_uniform_statistics(std::uint64_t seed) {
  auto u = ta::random_uniform<T>(n_stats, seed);
  static_assert(std::is_same_v<typename decltype(u)::value_type, T>);
  double sum = 0, sum2 = 0;
  std::vector<index_t> bins(20, 0);
  for (index_t i = 0; i < u.size(); ++i) {
    const double x = u[i];
    ASSERT_GE(x, 0.0);
    ASSERT_LT(x, 1.0);
    sum += x;
    sum2 += x * x;
    bins[std::size_t(x * 20)] += 1;
  }
  const double n = double(n_stats);
  const double mean = sum / n, var = sum2 / n - mean * mean;
  EXPECT_NEAR(mean, 0.5, 5 * std::sqrt(1.0 / 12.0 / n));
  // sd of the sample variance of U(0,1): sqrt((1/80 - 1/144) / n).
  EXPECT_NEAR(var, 1.0 / 12.0, 5 * std::sqrt((1.0 / 80 - 1.0 / 144) / n));
  const double expected = n / 20;
  double chi2 = 0;
  for (index_t c : bins) chi2 += (double(c) - expected) * (double(c) - expected) / expected;
  EXPECT_LT(chi2, chi2_19_p999) << "seed " << seed;
}

TEST(RandomUniform, MeanVarianceAndChiSquareFloat) {
  check_uniform_statistics<float>(1);
  check_uniform_statistics<float>(123456789);
}
TEST(RandomUniform, MeanVarianceAndChiSquareDouble) {
  check_uniform_statistics<double>(2);
  check_uniform_statistics<double>(0xdeadbeefcafeull);
}

TEST(RandomUniform, ScaledToLoHi) {
  auto u = ta::random_uniform<double>(n_stats, 5, -3.0, 5.0);
  double sum = 0, lo = 1e9, hi = -1e9;
  for (index_t i = 0; i < u.size(); ++i) {
    sum += u[i];
    lo = std::min(lo, double(u[i]));
    hi = std::max(hi, double(u[i]));
  }
  EXPECT_NEAR(sum / double(n_stats), 1.0, 5 * 8 * std::sqrt(1.0 / 12.0 / double(n_stats)));
  EXPECT_GE(lo, -3.0);
  EXPECT_LE(hi, 5.0);
  EXPECT_LT(lo, -2.99);
  EXPECT_GT(hi, 4.99);
  auto degenerate = ta::random_uniform<float>(3, 5, 2.0f, 2.0f);
  EXPECT_EQ(degenerate[1], 2.0f);
}

TEST(RandomUniform, RefusedArguments) {
  EXPECT_THROW_MSG(ta::random_uniform<float>(10, 1, 2.0f, 1.0f), tack::value_error,
                   "random_uniform", "lo = 2");
  EXPECT_THROW((void)ta::random_uniform<double>(-1, 1), tack::value_error);
  EXPECT_THROW((void)ta::random_normal<double>(-1, 1), tack::value_error);
  EXPECT_THROW((void)ta::random_bits(-1, 1), tack::value_error);
}

double normal_cdf(double x) { return 0.5 * std::erfc(-x / std::sqrt(2.0)); }

template <class T>
void check_normal_statistics(std::uint64_t seed) {
  auto z = ta::random_normal<T>(n_stats, seed);
  static_assert(std::is_same_v<typename decltype(z)::value_type, T>);
  const double n = double(n_stats);
  double s1 = 0, s2 = 0, s3 = 0, s4 = 0;
  index_t tail = 0;
  // 20 bins: (-inf, -3), 18 bins of width 1/3 over [-3, 3), [3, inf).
  std::vector<index_t> bins(20, 0);
  for (index_t i = 0; i < z.size(); ++i) {
    const double x = z[i];
    ASSERT_TRUE(std::isfinite(x));
    s1 += x;
    s2 += x * x;
    s3 += x * x * x;
    s4 += x * x * x * x;
    tail += std::abs(x) > 3.0;
    const int b = x < -3 ? 0 : x >= 3 ? 19 : 1 + std::min(17, int((x + 3) * 3));
    bins[std::size_t(b)] += 1;
  }
  const double mean = s1 / n, var = s2 / n - mean * mean;
  EXPECT_NEAR(mean, 0.0, 5 / std::sqrt(n));
  EXPECT_NEAR(var, 1.0, 5 * std::sqrt(2.0 / n));
  EXPECT_NEAR(s3 / n, 0.0, 5 * std::sqrt(15.0 / n));  // skewness (sd of x^3 is sqrt(15))
  EXPECT_NEAR(s4 / n, 3.0, 5 * std::sqrt(96.0 / n));  // kurtosis (var of x^4 is 105 - 9)
  const double p_tail = 2 * normal_cdf(-3.0);
  EXPECT_NEAR(double(tail) / n, p_tail, 5 * std::sqrt(p_tail / n));
  double chi2 = 0;
  for (int b = 0; b < 20; ++b) {
    const double lo = b == 0 ? -INFINITY : -3.0 + (b - 1) / 3.0;
    const double hi = b == 19 ? INFINITY : -3.0 + b / 3.0;
    const double expected = n * (normal_cdf(hi) - normal_cdf(lo));
    chi2 += (double(bins[std::size_t(b)]) - expected) * (double(bins[std::size_t(b)]) - expected) /
            expected;
  }
  EXPECT_LT(chi2, chi2_19_p999) << "seed " << seed;
}

TEST(RandomNormal, MomentsTailAndChiSquareFloat) {
  check_normal_statistics<float>(11);
  check_normal_statistics<float>(1u << 31);
}
TEST(RandomNormal, MomentsTailAndChiSquareDouble) {
  check_normal_statistics<double>(12);
  check_normal_statistics<double>(987654321987ull);
}

TEST(RandomNormal, PinnedValues) {
  // The transform uses only once-rounded operations, so these bits are the same on every
  // platform and device (arrays_backend_test compares the GPU's); a change here changes every
  // user's random streams.
  auto z = ta::random_normal<double>(4, 42);
  auto f = ta::random_normal<float>(4, 42);
  auto u = ta::random_uniform<float>(4, 42, -1.0f, 3.0f);
  const double zs[] = {0x1.c5e30047aa1d8p-1, -0x1.40bc8bc52b056p-3, -0x1.f9f57c1b69dfep-2,
                       -0x1.5c1ac2af49655p-1};
  const float fs[] = {-0x1.f0bcb2p-1f, -0x1.2bc02ap-4f, -0x1.590c8cp-2f, -0x1.84d9e4p-2f};
  const float us[] = {0x1.73abcp+0f, 0x1.79b642p+1f, 0x1.26d804p+1f, 0x1.eb1c1p+0f};
  for (index_t i = 0; i < 4; ++i) {
    EXPECT_EQ(z[i], zs[i]) << i;
    EXPECT_EQ(f[i], fs[i]) << i;
    EXPECT_EQ(u[i], us[i]) << i;
  }
}

TEST(RandomNormal, IsBoxMullerOfThePhiloxBits) {
  // The same transform computed with the std:: functions agrees to rounding.
  auto z = ta::random_normal<double>(64, 42);
  auto f = ta::random_normal<float>(64, 42);
  for (index_t i = 0; i < 64; ++i) {
    auto b = tack::detail::philox4x32<10>({{std::uint32_t(i), 0u, 0u, 0u}}, 42u, 0u);
    const double u1 = double(((std::uint64_t(b.v[0]) << 32 | b.v[1]) >> 11) + 1) * 0x1p-53;
    const double u2 = double((std::uint64_t(b.v[2]) << 32 | b.v[3]) >> 11) * 0x1p-53;
    const double ref = std::sqrt(-2 * std::log(u1)) * std::cos(2 * M_PI * u2);
    EXPECT_NEAR(z[i], ref, 1e-14 * (1 + std::abs(ref))) << i;
    const double v1 = double((b.v[0] >> 8) + 1) * 0x1p-24;
    const double v2 = double(b.v[1] >> 8) * 0x1p-24;
    const double reff = std::sqrt(-2 * std::log(v1)) * std::cos(2 * M_PI * v2);
    EXPECT_NEAR(f[i], reff, 1e-6 * (1 + std::abs(reff))) << i;
  }
}

}  // namespace
