// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
// Atomics on every backend the build has: histograms of every supported scalar type, min / max
// (negative values, floating point through the CAS loop), exchange and compare-exchange returning
// the old value, vector components, whole vectors and matrices (per component), and SoA-style
// proxies (value_type + component(c)).
// Compiled by nvcc in CUDA builds and hipcc in HIP builds: kernels are functors or typed
// TACK_LAMBDAs in free functions.
#include <tack/exec/atomic.hpp>
#include <tack/exec/parallel_for.hpp>
#include <tack/types/mat.hpp>
#include <tack/types/vec.hpp>

#include <gtest/gtest.h>

#include "common/tack_test.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <type_traits>
#include <vector>

namespace {

using tack::index_t;
using tack::test::shared_buffer;

constexpr index_t items = 200'000;
constexpr index_t bins = 17;

template <class Backend, class T>
void check_histogram() {
  shared_buffer<Backend, T> hist(bins);
  T* h = hist.data();
  tack::parallel_for(
      Backend{}, items, TACK_LAMBDA(index_t i) { tack::atomic_add(h[i % bins], T(1)); });
  T total = 0;
  for (index_t b = 0; b < bins; ++b) {
    const index_t expected = items / bins + (b < items % bins ? 1 : 0);
    EXPECT_EQ(hist[b], static_cast<T>(expected)) << "bin " << b;
    total += hist[b];
  }
  EXPECT_EQ(total, static_cast<T>(items));
}

// The old values returned by atomic_add on one counter are a permutation of 0 .. n-1.
template <class Backend, class T>
void check_add_returns_old() {
  const index_t n = 50'000;
  shared_buffer<Backend, T> counter(1);
  shared_buffer<Backend, T> olds(n);
  T* c = counter.data();
  T* o = olds.data();
  tack::parallel_for(
      Backend{}, n, TACK_LAMBDA(index_t i) { o[i] = tack::atomic_add(c[0], T(1)); });
  EXPECT_EQ(counter[0], static_cast<T>(n));
  auto seen = olds.to_vector();
  std::sort(seen.begin(), seen.end());
  for (index_t i = 0; i < n; ++i) ASSERT_EQ(seen[static_cast<std::size_t>(i)], static_cast<T>(i));
}

TACK_INLINE long long signed_value(index_t i) { return (i * 7919) % 20011 - 10000; }

template <class Backend, class T>
void check_min_max() {
  const index_t n = 100'003;
  shared_buffer<Backend, T> lo(1);
  shared_buffer<Backend, T> hi(1);
  lo[0] = T(1000);
  hi[0] = std::is_signed_v<T> ? T(-1000) : T(0);
  T* l = lo.data();
  T* h = hi.data();
  tack::parallel_for(
      Backend{}, n, TACK_LAMBDA(index_t i) {
        const long long v = std::is_signed_v<T> ? signed_value(i) : signed_value(i) + 10000;
        tack::atomic_min(l[0], static_cast<T>(v));
        tack::atomic_max(h[0], static_cast<T>(v));
      });
  long long want_lo = 1000;
  long long want_hi = std::is_signed_v<T> ? -1000 : 0;
  for (index_t i = 0; i < n; ++i) {
    const long long v = std::is_signed_v<T> ? signed_value(i) : signed_value(i) + 10000;
    want_lo = std::min(want_lo, v);
    want_hi = std::max(want_hi, v);
  }
  EXPECT_EQ(lo[0], static_cast<T>(want_lo));
  EXPECT_EQ(hi[0], static_cast<T>(want_hi));
}

// Every value handed to atomic_exchange comes back exactly once (as an old value or as the
// final contents), and so does the initial value.
template <class Backend, class T>
void check_exchange() {
  const index_t n = 40'000;
  shared_buffer<Backend, T> slot(1);
  shared_buffer<Backend, T> olds(n);
  slot[0] = T(-1);
  T* s = slot.data();
  T* o = olds.data();
  tack::parallel_for(
      Backend{}, n,
      TACK_LAMBDA(index_t i) { o[i] = tack::atomic_exchange(s[0], static_cast<T>(i)); });
  auto all = olds.to_vector();
  all.push_back(slot[0]);
  std::sort(all.begin(), all.end());
  EXPECT_EQ(all[0], T(-1));
  for (index_t i = 0; i < n; ++i)
    ASSERT_EQ(all[static_cast<std::size_t>(i) + 1], static_cast<T>(i));
}

// Claiming slots: exactly one index wins each slot, and the slot holds the winner.
template <class Backend, class T>
void check_compare_exchange() {
  const index_t n = 60'000;
  const index_t slots = 97;
  shared_buffer<Backend, T> owner(slots);
  shared_buffer<Backend, int> won(n);
  for (index_t k = 0; k < slots; ++k) owner[k] = T(-1);
  T* ow = owner.data();
  int* w = won.data();
  tack::parallel_for(
      Backend{}, n, TACK_LAMBDA(index_t i) {
        const T old = tack::atomic_compare_exchange(ow[i % slots], T(-1), static_cast<T>(i));
        w[i] = old == T(-1) ? 1 : 0;
      });
  std::vector<int> wins(static_cast<std::size_t>(slots), 0);
  for (index_t i = 0; i < n; ++i) {
    if (won[i]) {
      wins[static_cast<std::size_t>(i % slots)] += 1;
      EXPECT_EQ(owner[i % slots], static_cast<T>(i)) << "slot " << i % slots;
    }
  }
  for (index_t k = 0; k < slots; ++k) EXPECT_EQ(wins[static_cast<std::size_t>(k)], 1) << k;
}

template <class Backend>
void check_vector_targets() {
  using tack::vec3f;
  shared_buffer<Backend, vec3f> sums(4);
  shared_buffer<Backend, tack::vec<int, 2>> ranges(1);
  shared_buffer<Backend, tack::mat<double, 2, 2>> mats(1);
  ranges[0] = tack::vec<int, 2>{1 << 30, -(1 << 30)};
  vec3f* s = sums.data();
  tack::vec<int, 2>* r = ranges.data();
  tack::mat<double, 2, 2>* m = mats.data();
  tack::parallel_for(
      Backend{}, items, TACK_LAMBDA(index_t i) {
        tack::atomic_add(s[i % 4], vec3f{1.0f, 2.0f, 0.5f});  // a whole vector, per component
        tack::atomic_add(s[i % 4][1], 1.0f);                  // one component
        const int v = static_cast<int>(signed_value(i));
        tack::atomic_min(r[0], tack::vec<int, 2>{v, 1 << 30});     // component 0 tracks the minimum
        tack::atomic_max(r[0], tack::vec<int, 2>{-(1 << 30), v});  // component 1 the maximum
        tack::atomic_add(m[0], 1.0);  // a scalar operand goes to every component
        tack::atomic_add(m[0](1, 0), 2.0);
      });
  for (index_t b = 0; b < 4; ++b) {
    const float count = static_cast<float>(items / 4);
    EXPECT_EQ(sums[b][0], count);
    EXPECT_EQ(sums[b][1], 3.0f * count);
    EXPECT_EQ(sums[b][2], 0.5f * count);
  }
  EXPECT_EQ(ranges[0][0], -10000);
  EXPECT_EQ(ranges[0][1], 10010);  // the largest (i * 7919) % 20011 - 10000 reached
  EXPECT_EQ(mats[0](0, 0), static_cast<double>(items));
  EXPECT_EQ(mats[0](0, 1), static_cast<double>(items));
  EXPECT_EQ(mats[0](1, 0), 3.0 * static_cast<double>(items));
  EXPECT_EQ(mats[0](1, 1), static_cast<double>(items));
}

// A structure-of-arrays element reference like tack::soa_ref<vec3d>: value_type and component(c)
// returning a real reference into each component array.
struct soa3_ref {
  using value_type = tack::vec3d;
  double* x;
  double* y;
  double* z;
  TACK_HOST_DEVICE double& component(int c) const { return c == 0 ? *x : (c == 1 ? *y : *z); }
};
struct soa3 {
  double* x;
  double* y;
  double* z;
  TACK_HOST_DEVICE soa3_ref operator[](index_t i) const { return soa3_ref{x + i, y + i, z + i}; }
};

template <class Backend>
void check_proxy_targets() {
  const index_t n = 8;
  shared_buffer<Backend, double> x(n);
  shared_buffer<Backend, double> y(n);
  shared_buffer<Backend, double> z(n);
  const soa3 v{x.data(), y.data(), z.data()};
  tack::parallel_for(
      Backend{}, items, TACK_LAMBDA(index_t i) {
        tack::atomic_add(v[i % n], tack::vec3d{1.0, -1.0, 0.25});  // the proxy is an rvalue
        tack::atomic_max(v[i % n].component(2), 0.0);
      });
  for (index_t k = 0; k < n; ++k) {
    const double count = static_cast<double>(items / n);
    EXPECT_EQ(x[k], count);
    EXPECT_EQ(y[k], -count);
    EXPECT_EQ(z[k], 0.25 * count);
  }
}

template <class Backend>
void check_float_minmax_special_values() {
  shared_buffer<Backend, float> f(2);
  shared_buffer<Backend, double> d(2);
  f[0] = 0.0f;
  f[1] = 0.0f;
  d[0] = 0.0;
  d[1] = 0.0;
  float* fp = f.data();
  double* dp = d.data();
  tack::parallel_for(
      Backend{}, items, TACK_LAMBDA(index_t i) {
        const double v = static_cast<double>(signed_value(i)) * 1e-3;
        tack::atomic_min(fp[0], static_cast<float>(v));
        tack::atomic_max(fp[1], static_cast<float>(v));
        tack::atomic_min(dp[0], v);
        tack::atomic_max(dp[1], v);
      });
  EXPECT_EQ(f[0], static_cast<float>(-10000 * 1e-3));
  EXPECT_EQ(f[1], static_cast<float>(10010 * 1e-3));
  EXPECT_EQ(d[0], -10000 * 1e-3);
  EXPECT_EQ(d[1], 10010 * 1e-3);
}

template <class Backend>
class atomic_backend : public tack::test::backend_test<Backend> {};

TYPED_TEST_SUITE(atomic_backend, tack::test::backends, tack::test::backend_names);

TYPED_TEST(atomic_backend, histogram_of_every_scalar_type) {
  check_histogram<TypeParam, std::int32_t>();
  check_histogram<TypeParam, std::uint32_t>();
  check_histogram<TypeParam, std::int64_t>();
  check_histogram<TypeParam, std::uint64_t>();
  check_histogram<TypeParam, float>();  // counts below 2^24 are exact
  check_histogram<TypeParam, double>();
}

TYPED_TEST(atomic_backend, add_returns_the_old_value) {
  check_add_returns_old<TypeParam, std::int32_t>();
  check_add_returns_old<TypeParam, std::uint64_t>();
  check_add_returns_old<TypeParam, double>();
}

TYPED_TEST(atomic_backend, min_and_max_of_integers) {
  check_min_max<TypeParam, std::int32_t>();
  check_min_max<TypeParam, std::uint32_t>();
  check_min_max<TypeParam, std::int64_t>();
  check_min_max<TypeParam, std::uint64_t>();
}

TYPED_TEST(atomic_backend, min_and_max_of_floating_point) {
  check_min_max<TypeParam, float>();
  check_min_max<TypeParam, double>();
  check_float_minmax_special_values<TypeParam>();
}

TYPED_TEST(atomic_backend, exchange) {
  check_exchange<TypeParam, std::int32_t>();
  check_exchange<TypeParam, std::int64_t>();
  check_exchange<TypeParam, float>();
  check_exchange<TypeParam, double>();
}

TYPED_TEST(atomic_backend, compare_exchange_claims_each_slot_once) {
  check_compare_exchange<TypeParam, std::int32_t>();
  check_compare_exchange<TypeParam, std::int64_t>();
  check_compare_exchange<TypeParam, float>();
  check_compare_exchange<TypeParam, double>();
}

TYPED_TEST(atomic_backend, vector_and_matrix_targets) { check_vector_targets<TypeParam>(); }
TYPED_TEST(atomic_backend, proxy_targets) { check_proxy_targets<TypeParam>(); }

// ---- host semantics, one thread -----------------------------------------------------------------

TEST(atomic_host, return_values_and_types) {
  int i = 5;
  static_assert(std::is_same_v<decltype(tack::atomic_add(i, 3)), int>);
  EXPECT_EQ(tack::atomic_add(i, 3), 5);
  EXPECT_EQ(i, 8);
  EXPECT_EQ(tack::atomic_min(i, 10), 8);
  EXPECT_EQ(i, 8);
  EXPECT_EQ(tack::atomic_min(i, -2), 8);
  EXPECT_EQ(i, -2);
  EXPECT_EQ(tack::atomic_max(i, 4), -2);
  EXPECT_EQ(i, 4);
  EXPECT_EQ(tack::atomic_exchange(i, 11), 4);
  EXPECT_EQ(i, 11);
  EXPECT_EQ(tack::atomic_compare_exchange(i, 10, 20), 11) << "a failed exchange returns the value";
  EXPECT_EQ(i, 11);
  EXPECT_EQ(tack::atomic_compare_exchange(i, 11, 20), 11);
  EXPECT_EQ(i, 20);

  float f = 1.5f;
  EXPECT_EQ(tack::atomic_add(f, 1), 1.5f) << "the operand converts to the target's type";
  EXPECT_EQ(f, 2.5f);
  // Compare-exchange compares bits: -0.0 does not match +0.0.
  float z = -0.0f;
  EXPECT_EQ(std::signbit(tack::atomic_compare_exchange(z, 0.0f, 1.0f)), true);
  EXPECT_TRUE(std::signbit(z));

  tack::vec3f v{1, 2, 3};
  const tack::vec3f old = tack::atomic_add(v, tack::vec3f{10, 20, 30});
  static_assert(std::is_same_v<std::remove_const_t<decltype(old)>, tack::vec3f>);
  EXPECT_EQ(old, (tack::vec3f{1, 2, 3}));
  EXPECT_EQ(v, (tack::vec3f{11, 22, 33}));
  EXPECT_EQ(tack::atomic_max(v, 25.0f), (tack::vec3f{11, 22, 33}));
  EXPECT_EQ(v, (tack::vec3f{25, 25, 33}));

  double xs[3] = {1, 2, 3};
  const soa3_ref proxy{&xs[0], &xs[1], &xs[2]};
  const tack::vec3d before = tack::atomic_exchange(proxy, tack::vec3d{7, 8, 9});
  EXPECT_EQ(before, (tack::vec3d{1, 2, 3}));
  EXPECT_EQ(xs[0], 7.0);
  EXPECT_EQ(xs[2], 9.0);
}

}  // namespace
