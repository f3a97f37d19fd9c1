// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
// parallel_reduce on every backend the build has: exact integer results around every block
// boundary, min / max / product / logical ops, an op that does not commute (operands kept in index
// order), vector values, determinism (bit-identical floats run after run and, on the CPU, for
// every thread count) and accuracy against long double.
// Compiled by nvcc in CUDA builds and hipcc in HIP builds: kernels are functors or typed
// TACK_LAMBDAs in free functions.
#include <tack/exec/parallel_reduce.hpp>
#include <tack/exec/threads.hpp>
#include <tack/types/mat.hpp>
#include <tack/types/vec.hpp>

#include <gtest/gtest.h>

#include "common/tack_test.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

namespace {

using tack::index_t;
using tack::test::shared_buffer;

// Reproducible pseudo-random values (a 64-bit mix of the index), the same on host and device.
TACK_INLINE std::uint64_t mix(std::uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}
// A float in [0, 1) with 24 random bits.
TACK_INLINE float unit_float(index_t i) {
  return static_cast<float>(mix(static_cast<std::uint64_t>(i)) >> 40) * (1.0f / 16777216.0f);
}

struct index_value {
  TACK_HOST_DEVICE long long operator()(index_t i) const { return i; }
};

template <class Backend>
void check_integer_sums() {
  // Sizes around the leaves (16 lanes, 512-index leaves), the 1024-index blocks and the cap of
  // 1024 blocks.
  for (index_t n :
       {index_t{1}, index_t{2}, index_t{15}, index_t{16}, index_t{17}, index_t{31}, index_t{32},
        index_t{33}, index_t{511}, index_t{513}, index_t{1023}, index_t{1025}, index_t{2047},
        index_t{4097}, index_t{1'000'003}, index_t{1'048'576 + 7}}) {
    const long long got = tack::parallel_reduce(Backend{}, n, 0LL, index_value{});
    ASSERT_EQ(got, n * (n - 1) / 2) << "n = " << n;
    const long long with_init =
        tack::parallel_reduce(Backend{}, n, 1000LL, index_value{}, tack::ops::plus{});
    ASSERT_EQ(with_init, 1000 + n * (n - 1) / 2) << "n = " << n;
  }
  EXPECT_EQ(tack::parallel_reduce(Backend{}, 0, 42LL, index_value{}), 42) << "n == 0 gives init";
}

template <class Backend>
void check_min_max() {
  const index_t n = 200'003;
  shared_buffer<Backend, double> x(n);
  for (index_t i = 0; i < n; ++i) x[i] = static_cast<double>(unit_float(i)) * 1000.0 - 500.0;
  x[77'777] = -1234.5;  // a unique minimum
  x[n - 1] = 987654.0;  // the maximum at the very end
  const double* xp = x.data();
  const auto value = TACK_LAMBDA(index_t i) { return xp[i]; };
  using tack::ops::max;
  using tack::ops::min;
  EXPECT_EQ(tack::parallel_reduce(Backend{}, n, min::identity<double>(), value, min{}), -1234.5);
  EXPECT_EQ(tack::parallel_reduce(Backend{}, n, max::identity<double>(), value, max{}), 987654.0);
  // init takes part: it wins when it is beyond every value.
  EXPECT_EQ(tack::parallel_reduce(Backend{}, n, -5000.0, value, min{}), -5000.0);
  EXPECT_EQ(tack::parallel_reduce(Backend{}, 1, 1e9, value, max{}), 1e9);
  EXPECT_EQ(tack::parallel_reduce(Backend{}, 1, -1e9, value, max{}), x[0]);
  // Integer min / max and their identities.
  const auto ivalue = TACK_LAMBDA(index_t i) { return static_cast<int>(i % 1000) - 300; };
  EXPECT_EQ(tack::parallel_reduce(Backend{}, n, min::identity<int>(), ivalue, min{}), -300);
  EXPECT_EQ(tack::parallel_reduce(Backend{}, n, max::identity<int>(), ivalue, max{}), 699);
}

template <class Backend>
void check_product_and_logic() {
  // 2^i for every i % 20 == 0 ... keeps the product exact: 2^(number of such i) in a double.
  const auto factor = TACK_LAMBDA(index_t i) { return i % 20 == 0 ? 2.0 : 1.0; };
  EXPECT_EQ(tack::parallel_reduce(Backend{}, 1000, 1.0, factor, tack::ops::multiplies{}),
            std::ldexp(1.0, 50));
  const auto below = TACK_LAMBDA(index_t i) { return i < 5000; };
  EXPECT_TRUE(tack::parallel_reduce(Backend{}, 5000, true, below, tack::ops::logical_and{}));
  EXPECT_FALSE(tack::parallel_reduce(Backend{}, 5001, true, below, tack::ops::logical_and{}));
  const auto is_1234 = TACK_LAMBDA(index_t i) { return i == 1234; };
  EXPECT_TRUE(tack::parallel_reduce(Backend{}, 5000, false, is_1234, tack::ops::logical_or{}));
  EXPECT_FALSE(tack::parallel_reduce(Backend{}, 1000, false, is_1234, tack::ops::logical_or{}));
}

struct unimodular_value {
  TACK_HOST_DEVICE tack::test::m2 operator()(index_t i) const {
    return tack::test::unimodular_at(i);
  }
};

// An op that does not commute (matrix products) keeps its operands in index order: in leaves, in
// the tree over leaves and blocks, in GPU tiles and in the pass over block partials.
template <class Backend>
void check_non_commutative() {
  using tack::test::m2;
  const int saved = tack::num_threads();
  for (int threads : {1, 2, 3}) {
    tack::set_num_threads(threads);
    for (index_t n : {index_t{1}, index_t{3}, index_t{20}, index_t{257}, index_t{513},
                      index_t{1025}, index_t{4097}, index_t{300'007}, index_t{1'048'576 + 7}}) {
      m2 expected{1, 0, 0, 1};
      for (index_t i = 0; i < n; ++i) {
        expected = tack::test::m2_product{}(expected, tack::test::unimodular_at(i));
      }
      const m2 got = tack::parallel_reduce(Backend{}, n, m2{1, 0, 0, 1}, unimodular_value{},
                                           tack::test::m2_product{});
      ASSERT_EQ(got, expected) << "n = " << n << ", " << threads << " threads";
      // init is the leftmost operand.
      const m2 init{1, 3, 0, 1};
      EXPECT_EQ(
          tack::parallel_reduce(Backend{}, n, init, unimodular_value{}, tack::test::m2_product{}),
          tack::test::m2_product{}(init, expected))
          << "n = " << n;
    }
  }
  tack::set_num_threads(saved);
  static_assert(!tack::ops::commutative_v<tack::test::m2_product, m2>);
  static_assert(tack::ops::commutative_v<tack::ops::plus, float>);
  static_assert(tack::ops::commutative_v<tack::ops::multiplies, double>);
  static_assert(!tack::ops::commutative_v<tack::ops::multiplies, tack::mat2f>);
}

template <class Backend>
void check_vector_values() {
  const index_t n = 30'011;
  const auto v = TACK_LAMBDA(index_t i) { return tack::vec<long long, 3>{i, 2 * i, -1}; };
  const auto got = tack::parallel_reduce(Backend{}, n, tack::vec<long long, 3>{0, 0, 5}, v);
  EXPECT_EQ(got[0], n * (n - 1) / 2);
  EXPECT_EQ(got[1], n * (n - 1));
  EXPECT_EQ(got[2], 5 - n);
  // Floats: every partial sum of small integers is exact.
  const auto vf = TACK_LAMBDA(index_t i) {
    return tack::vec3f{1.0f, static_cast<float>(i % 4), 0.5f};
  };
  const auto gotf = tack::parallel_reduce(Backend{}, index_t{10'000}, tack::vec3f{}, vf);
  EXPECT_EQ(gotf[0], 10000.0f);
  EXPECT_EQ(gotf[1], 15000.0f);
  EXPECT_EQ(gotf[2], 5000.0f);
}

template <class Backend>
void check_float_determinism() {
  const index_t n = 1'000'000;
  shared_buffer<Backend, float> x(n);
  for (index_t i = 0; i < n; ++i) x[i] = unit_float(i) - 0.25f;
  const float* xp = x.data();
  const auto value = TACK_LAMBDA(index_t i) { return xp[i]; };
  const float first = tack::parallel_reduce(Backend{}, n, 0.0f, value);
  for (int run = 0; run < 10; ++run) {
    const float again = tack::parallel_reduce(Backend{}, n, 0.0f, value);
    ASSERT_EQ(std::memcmp(&first, &again, sizeof first), 0)
        << "run " << run << ": " << again << " != " << first;
  }
}

template <class Backend>
void check_float_accuracy() {
  const index_t n = 10'000'000;
  shared_buffer<Backend, float> x(n);
  long double exact = 0;
  float strict = 0.0f;  // what a loop in index order computes
  for (index_t i = 0; i < n; ++i) {
    x[i] = unit_float(i);
    exact += x[i];
    strict += x[i];
  }
  const float* xp = x.data();
  const float got = tack::parallel_reduce(
      Backend{}, n, 0.0f, TACK_LAMBDA(index_t i) { return xp[i]; });
  const double err = std::fabs(static_cast<double>(static_cast<long double>(got) - exact));
  const double strict_err =
      std::fabs(static_cast<double>(static_cast<long double>(strict) - exact));
  const double relative = err / static_cast<double>(exact);
  // A float sum of 10^7 values in [0, 1): strict order loses several digits (each addend falls
  // below the running sum's ulp), a pairwise sum keeps the error near one float ulp.
  EXPECT_LT(relative, 1e-6) << "sum " << got << ", exact " << static_cast<double>(exact);
  EXPECT_LT(err * 100, strict_err) << "error " << err << " vs strict-order error " << strict_err;
}

template <class Backend>
void check_negative_count() {
  EXPECT_THROW_MSG(tack::parallel_reduce(Backend{}, -1, 0, index_value{}), tack::value_error,
                   "tack::parallel_reduce", "n = -1");
}

template <class Backend>
class reduce_backend : public tack::test::backend_test<Backend> {};

TYPED_TEST_SUITE(reduce_backend, tack::test::backends, tack::test::backend_names);

TYPED_TEST(reduce_backend, integer_sums_are_exact) { check_integer_sums<TypeParam>(); }
TYPED_TEST(reduce_backend, min_and_max) { check_min_max<TypeParam>(); }
TYPED_TEST(reduce_backend, product_and_logical_ops) { check_product_and_logic<TypeParam>(); }
TYPED_TEST(reduce_backend, vector_values) { check_vector_values<TypeParam>(); }
TYPED_TEST(reduce_backend, keeps_the_order_of_operands) { check_non_commutative<TypeParam>(); }
TYPED_TEST(reduce_backend, float_sum_is_bit_identical_run_after_run) {
  check_float_determinism<TypeParam>();
}
TYPED_TEST(reduce_backend, float_sum_beats_strict_order) { check_float_accuracy<TypeParam>(); }
TYPED_TEST(reduce_backend, negative_count_is_a_value_error) { check_negative_count<TypeParam>(); }

// ---- CPU: the grouping depends on n alone ------------------------------------------------------

std::vector<float> test_floats(index_t n) {
  std::vector<float> x(static_cast<std::size_t>(n));
  for (index_t i = 0; i < n; ++i) x[static_cast<std::size_t>(i)] = unit_float(i) * 2.0f - 0.7f;
  return x;
}

float cpu_sum(index_t n, const float* xp) {
  return tack::parallel_reduce(
      tack::cpu(), n, 0.0f, TACK_LAMBDA(index_t i) { return xp[i]; });
}
float serial_sum(index_t n, const float* xp) {
  return tack::parallel_reduce(
      tack::serial_backend{}, n, 0.0f, TACK_LAMBDA(index_t i) { return xp[i]; });
}
#if TACK_HAS_OPENMP
float openmp_sum(index_t n, const float* xp) {
  return tack::parallel_reduce(
      tack::openmp_backend{}, n, 0.0f, TACK_LAMBDA(index_t i) { return xp[i]; });
}
#endif
float default_device_sum(index_t n, const float* xp) {
  return tack::parallel_reduce(
      n, 0.0f, TACK_LAMBDA(index_t i) { return xp[i]; });
}

TEST(reduce_cpu, same_bits_for_every_thread_count_and_backend) {
  const int saved = tack::num_threads();
  for (index_t n : {index_t{100}, index_t{5000}, index_t{1'000'000}, index_t{3'000'017}}) {
    const auto x = test_floats(n);
    const float serial = serial_sum(n, x.data());
    for (int t : {1, 2, 3, 4, 7, 16}) {
      tack::set_num_threads(t);
      const float got = cpu_sum(n, x.data());
      EXPECT_EQ(std::memcmp(&got, &serial, sizeof got), 0)
          << "n = " << n << ", " << t << " threads: " << got << " != " << serial;
#if TACK_HAS_OPENMP
      const float omp = openmp_sum(n, x.data());
      EXPECT_EQ(std::memcmp(&omp, &serial, sizeof omp), 0) << "n = " << n << ", " << t;
#endif
    }
  }
  tack::set_num_threads(saved);
}

// regrouped_plus lets the vectorizer group each leaf (the reduction algorithms use it for arrays
// computed from the index): still the same bits on every thread count and on both CPU backends.
struct wave {
  TACK_HOST_DEVICE float operator()(index_t i) const {
    return static_cast<float>(i % 1000) * 0.001f - 0.3f;
  }
};

TEST(reduce_cpu, regrouped_sums_give_the_same_bits_for_every_thread_count_and_backend) {
  const int saved = tack::num_threads();
  for (index_t n : {index_t{1}, index_t{7}, index_t{64}, index_t{1025}, index_t{5000},
                    index_t{1'000'000}, index_t{3'000'017}}) {
    const tack::detail::regrouped_plus op{};
    const float serial = tack::parallel_reduce(tack::serial_backend{}, n, 0.0f, wave{}, op);
    long double exact = 0;
    for (index_t i = 0; i < n; ++i) exact += wave{}(i);
    EXPECT_NEAR(serial, static_cast<double>(exact), 1e-6 * static_cast<double>(n)) << n;
    for (int t : {1, 2, 3, 16}) {
      tack::set_num_threads(t);
      const float got = tack::parallel_reduce(tack::cpu(), n, 0.0f, wave{}, op);
      EXPECT_EQ(std::memcmp(&got, &serial, sizeof got), 0) << "n = " << n << ", " << t;
#if TACK_HAS_OPENMP
      const float omp = tack::parallel_reduce(tack::openmp_backend{}, n, 0.0f, wave{}, op);
      EXPECT_EQ(std::memcmp(&omp, &serial, sizeof omp), 0) << "n = " << n << ", " << t;
#endif
    }
  }
  tack::set_num_threads(saved);
}

TEST(reduce_cpu, default_device_overload) {
  const auto x = test_floats(1000);
  const float got = default_device_sum(1000, x.data());
  long double exact = 0;
  for (float v : x) exact += v;
  EXPECT_NEAR(got, static_cast<double>(exact), 1e-3);
}

struct half_value {
  TACK_HOST_DEVICE double operator()(index_t) const { return 0.5; }
};

TEST(reduce_cpu, result_type_is_the_type_of_init) {
  // As with std::reduce: an int init truncates each value (documented), a double init does not.
  EXPECT_EQ(tack::parallel_reduce(tack::cpu(), 10, 0, half_value{}), 0);
  EXPECT_EQ(tack::parallel_reduce(tack::cpu(), 10, 0.0, half_value{}), 5.0);
  static_assert(
      std::is_same_v<decltype(tack::parallel_reduce(tack::cpu(), 10, 0.0f, half_value{})), float>);
}

TEST(reduce_cpu, leaves_prefetch_on_zen3_signatures_only) {
  // CPUID leaf-1 eax: family 19h is base F + extended 0A, the model's high nibble in bits 16-19.
  using tack::detail::is_zen3_signature;
  EXPECT_TRUE(is_zen3_signature(0x00A00F11u));   // EPYC Milan, model 01h
  EXPECT_TRUE(is_zen3_signature(0x00A20F12u));   // Ryzen 5000 (Vermeer), model 21h
  EXPECT_TRUE(is_zen3_signature(0x00A50F00u));   // Cezanne, model 50h
  EXPECT_FALSE(is_zen3_signature(0x00A10F11u));  // EPYC Genoa (Zen 4), model 11h
  EXPECT_FALSE(is_zen3_signature(0x00A60F12u));  // Ryzen 7000 (Zen 4), model 61h
  EXPECT_FALSE(is_zen3_signature(0x00B00F21u));  // Zen 5, family 1Ah
  EXPECT_FALSE(is_zen3_signature(0x00830F10u));  // Zen 2, family 17h
  EXPECT_FALSE(is_zen3_signature(0x000806F8u));  // Intel Sapphire Rapids, family 6
}

}  // namespace
