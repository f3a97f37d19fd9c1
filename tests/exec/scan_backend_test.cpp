// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
// parallel_scan on every backend the build has: inclusive and exclusive prefixes around every
// block boundary, each index stored exactly once, in-place scans, a non-commutative op (the order
// of operands is kept), running max, determinism, and refused counts.
// Compiled by nvcc in CUDA builds and hipcc in HIP builds: kernels are functors or typed
// TACK_LAMBDAs in free functions.
#include <tack/exec/parallel_scan.hpp>
#include <tack/exec/threads.hpp>

#include <gtest/gtest.h>

#include "common/tack_test.hpp"

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace {

using tack::index_t;
using tack::test::shared_buffer;

TACK_INLINE long long input_value(index_t i) { return (i * 7919) % 1000 - 400; }

// Stores both prefixes and counts the calls per index.
struct record_store {
  long long* exclusive;
  long long* inclusive;
  int* calls;
  TACK_HOST_DEVICE void operator()(index_t i, long long excl, long long incl) const {
    exclusive[i] = excl;
    inclusive[i] = incl;
    calls[i] += 1;
  }
};

struct input_reader {
  TACK_HOST_DEVICE long long operator()(index_t i) const { return input_value(i); }
};

template <class Backend>
void check_prefixes(index_t n, long long init) {
  shared_buffer<Backend, long long> excl(n);
  shared_buffer<Backend, long long> incl(n);
  shared_buffer<Backend, int> calls(n);
  const long long total = tack::parallel_scan(Backend{}, n, init, input_reader{},
                                              record_store{excl.data(), incl.data(), calls.data()});
  long long running = init;
  for (index_t i = 0; i < n; ++i) {
    ASSERT_EQ(calls[i], 1) << "n = " << n << ": store(" << i << ") calls";
    ASSERT_EQ(excl[i], running) << "n = " << n << ": exclusive prefix at " << i;
    running += input_value(i);
    ASSERT_EQ(incl[i], running) << "n = " << n << ": inclusive prefix at " << i;
  }
  EXPECT_EQ(total, running) << "n = " << n;
}

template <class Backend>
void check_in_place_exclusive() {
  const index_t n = 70'001;
  shared_buffer<Backend, int> x(n);
  for (index_t i = 0; i < n; ++i) x[i] = static_cast<int>(i % 5);
  int* xp = x.data();
  const int total = tack::parallel_scan(
      Backend{}, n, 0, TACK_LAMBDA(index_t i) { return xp[i]; },
      TACK_LAMBDA(index_t i, int exclusive, int) { xp[i] = exclusive; });
  int running = 0;
  for (index_t i = 0; i < n; ++i) {
    ASSERT_EQ(x[i], running) << i;
    running += static_cast<int>(i % 5);
  }
  EXPECT_EQ(total, running);
}

template <class Backend>
void check_in_place_inclusive() {
  const index_t n = 50'000;
  shared_buffer<Backend, double> x(n);
  for (index_t i = 0; i < n; ++i) x[i] = 1.0;
  double* xp = x.data();
  tack::parallel_scan(
      Backend{}, n, 0.0, TACK_LAMBDA(index_t i) { return xp[i]; },
      TACK_LAMBDA(index_t i, double, double inclusive) { xp[i] = inclusive; });
  for (index_t i = 0; i < n; ++i) ASSERT_EQ(x[i], static_cast<double>(i + 1)) << i;
}

using tack::test::m2;
using tack::test::m2_product;
using tack::test::unimodular_at;

template <class Backend>
void check_non_commutative(index_t n) {
  shared_buffer<Backend, m2> out(n);
  m2* o = out.data();
  const m2 total = tack::parallel_scan(
      Backend{}, n, m2{1, 0, 0, 1}, TACK_LAMBDA(index_t i) { return unimodular_at(i); },
      TACK_LAMBDA(index_t i, m2, m2 inclusive) { o[i] = inclusive; }, m2_product{});
  m2 running{1, 0, 0, 1};
  for (index_t i = 0; i < n; ++i) {
    running = m2_product{}(running, unimodular_at(i));
    ASSERT_EQ(out[i], running) << "n = " << n << ", index " << i;
  }
  EXPECT_EQ(total, running) << "n = " << n;
}

template <class Backend>
void check_running_max() {
  const index_t n = 100'000;
  shared_buffer<Backend, float> out(n);
  float* o = out.data();
  const auto value = TACK_LAMBDA(index_t i) {
    return static_cast<float>((i * 104729) % 65536) - 30000.0f;
  };
  const float total = tack::parallel_scan(
      Backend{}, n, tack::ops::max::identity<float>(), value,
      TACK_LAMBDA(index_t i, float, float inclusive) { o[i] = inclusive; }, tack::ops::max{});
  float running = tack::ops::max::identity<float>();
  for (index_t i = 0; i < n; ++i) {
    const float v = static_cast<float>((i * 104729) % 65536) - 30000.0f;
    running = v > running ? v : running;
    ASSERT_EQ(out[i], running) << i;
  }
  EXPECT_EQ(total, running);
}

template <class Backend>
void check_float_determinism() {
  const index_t n = 1'000'000;
  shared_buffer<Backend, float> first(n);
  shared_buffer<Backend, float> again(n);
  float* f = first.data();
  float* g = again.data();
  const auto value = TACK_LAMBDA(index_t i) {
    return static_cast<float>((i * 2654435761u) % 1000u) * 0.001f - 0.3f;
  };
  const float t1 = tack::parallel_scan(
      Backend{}, n, 0.0f, value, TACK_LAMBDA(index_t i, float, float s) { f[i] = s; });
  for (int run = 0; run < 3; ++run) {
    const float t2 = tack::parallel_scan(
        Backend{}, n, 0.0f, value, TACK_LAMBDA(index_t i, float, float s) { g[i] = s; });
    ASSERT_EQ(std::memcmp(&t1, &t2, sizeof t1), 0) << "run " << run;
    ASSERT_EQ(std::memcmp(first.data(), again.data(), static_cast<std::size_t>(n) * sizeof(float)),
              0)
        << "run " << run;
  }
}

// The total is the last inclusive value, bit for bit (not a separately grouped sum), for float
// sums whose groupings round differently.
template <class Backend>
void check_total_is_last_inclusive() {
  for (index_t n : {index_t{5000}, index_t{1'000'003}}) {
    shared_buffer<Backend, float> out(n);
    float* o = out.data();
    const auto value = TACK_LAMBDA(index_t i) {
      return static_cast<float>((i * 2654435761u) % 1000003u) * 1.0e-5f - 4.7f;
    };
    const float total = tack::parallel_scan(
        Backend{}, n, 0.25f, value, TACK_LAMBDA(index_t i, float, float s) { o[i] = s; });
    const float last = out[n - 1];
    EXPECT_EQ(std::memcmp(&total, &last, sizeof total), 0)
        << "n = " << n << ": " << total << " != " << last;
  }
}

struct never_store {
  int* flag;
  TACK_HOST_DEVICE void operator()(index_t, int, int) const { *flag = 1; }
};
struct zero_value {
  TACK_HOST_DEVICE int operator()(index_t) const { return 0; }
};

template <class Backend>
void check_counts() {
  shared_buffer<Backend, int> flag(1);
  EXPECT_EQ(tack::parallel_scan(Backend{}, 0, 17, zero_value{}, never_store{flag.data()}), 17)
      << "n == 0 returns init";
  EXPECT_THROW_MSG(tack::parallel_scan(Backend{}, -3, 0, zero_value{}, never_store{flag.data()}),
                   tack::value_error, "tack::parallel_scan", "n = -3");
  EXPECT_EQ(flag[0], 0) << "store ran for an empty or refused scan";
}

template <class Backend>
class scan_backend : public tack::test::backend_test<Backend> {};

TYPED_TEST_SUITE(scan_backend, tack::test::backends, tack::test::backend_names);

TYPED_TEST(scan_backend, exclusive_and_inclusive_prefixes) {
  // Around the CPU blocks (1024 indices, at most 1024 blocks) and the GPU tiles (256) and blocks.
  for (index_t n : {index_t{1}, index_t{2}, index_t{255}, index_t{256}, index_t{257}, index_t{1023},
                    index_t{1024}, index_t{1025}, index_t{2049}, index_t{4096}, index_t{65'537},
                    index_t{1'048'576 + 13}}) {
    check_prefixes<TypeParam>(n, 0);
    check_prefixes<TypeParam>(n, -12345);
  }
}

TYPED_TEST(scan_backend, several_thread_counts) {
  const int saved = tack::num_threads();
  for (int t : {1, 2, 3, 8}) {
    tack::set_num_threads(t);
    check_prefixes<TypeParam>(300'007, 5);
  }
  tack::set_num_threads(saved);
}

TYPED_TEST(scan_backend, in_place_exclusive) { check_in_place_exclusive<TypeParam>(); }
TYPED_TEST(scan_backend, in_place_inclusive) { check_in_place_inclusive<TypeParam>(); }
TYPED_TEST(scan_backend, keeps_the_order_of_operands) {
  // Inside a leaf, across leaves and blocks, across GPU tiles (256) and blocks, with 1 to 3 CPU
  // threads (one thread is the sequential pass; several, the two-pass blocked scan).
  const int saved = tack::num_threads();
  for (int threads : {1, 2, 3}) {
    tack::set_num_threads(threads);
    for (index_t n : {index_t{1}, index_t{3}, index_t{20}, index_t{257}, index_t{300},
                      index_t{1025}, index_t{4097}, index_t{5000}, index_t{200'003}}) {
      check_non_commutative<TypeParam>(n);
    }
  }
  tack::set_num_threads(saved);
}
TYPED_TEST(scan_backend, running_max) { check_running_max<TypeParam>(); }
TYPED_TEST(scan_backend, float_scan_is_bit_identical_run_after_run) {
  check_float_determinism<TypeParam>();
}
TYPED_TEST(scan_backend, total_is_the_last_inclusive_value) {
  check_total_is_last_inclusive<TypeParam>();
}
TYPED_TEST(scan_backend, empty_and_negative_counts) { check_counts<TypeParam>(); }

// ---- CPU: with several threads the result does not depend on how many ------------------------

#if TACK_HAS_OPENMP
std::vector<float> omp_scan(index_t n, int threads) {
  std::vector<float> out(static_cast<std::size_t>(n));
  float* o = out.data();
  tack::set_num_threads(threads);
  tack::parallel_scan(
      tack::openmp_backend{}, n, 0.0f,
      TACK_LAMBDA(index_t i) { return static_cast<float>(i % 977) * 0.013f - 5.0f; },
      TACK_LAMBDA(index_t i, float, float s) { o[i] = s; });
  return out;
}

TEST(scan_cpu, same_bits_for_every_thread_count_above_one) {
  const int saved = tack::num_threads();
  const index_t n = 2'000'003;
  const auto two = omp_scan(n, 2);
  for (int t : {3, 4, 7}) {
    const auto other = omp_scan(n, t);
    EXPECT_EQ(std::memcmp(two.data(), other.data(), two.size() * sizeof(float)), 0)
        << t << " threads";
  }
  tack::set_num_threads(saved);
}
#endif

int default_device_count_scan(std::vector<int>& out) {
  int* o = out.data();
  return tack::parallel_scan(
      static_cast<index_t>(out.size()), 0, TACK_LAMBDA(index_t) { return 1; },
      TACK_LAMBDA(index_t i, int exclusive, int) { o[i] = exclusive; });
}

TEST(scan_cpu, default_device_overload) {
  std::vector<int> out(1000);
  EXPECT_EQ(default_device_count_scan(out), 1000);
  for (int i = 0; i < 1000; ++i) ASSERT_EQ(out[static_cast<std::size_t>(i)], i);
}

}  // namespace
