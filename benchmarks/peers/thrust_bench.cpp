// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
// Thrust with its OpenMP backend (`thrust::omp::par`, Debian's libthrust-dev) as the peer of the
// algorithms, on 2 threads, over the same memory (tack arrays' raw pointers):
// - `thrust_reduce_t2`: `tack::sum` of 2^25 doubles against `thrust::reduce`.
// - `thrust_scan_t2`: `tack::inclusive_scan` of 2^24 doubles against `thrust::inclusive_scan`.
// - `thrust_sort_t2`: `tack::sort` of 2^22 floats against `thrust::sort` (input restored outside
//   the timed region).
// - `thrust_transform_counting_t2`: `tack::sum(transform(counting(n), f))` against
//   `thrust::transform_reduce` over a `counting_iterator` (the fancy-iterator form).
// Without Thrust or without OpenMP every group reports a skip with the reason.
#include "common/bench_util.hpp"

#include <tack/tack.hpp>

#if __has_include(<thrust/reduce.h>) && TACK_HAS_OPENMP
#define TACK_BENCH_THRUST 1
#include <thrust/functional.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/reduce.h>
#include <thrust/scan.h>
#include <thrust/sort.h>
#include <thrust/system/omp/execution_policy.h>
#include <thrust/transform_reduce.h>
#else
#define TACK_BENCH_THRUST 0
#endif

#include <cstring>
#include <random>

namespace {
using namespace tack::bench;
using tack::index_t;

struct poly {
  TACK_HOST_DEVICE double operator()(double x) const { return x * 0.5 + 1.0; }
};

#if TACK_BENCH_THRUST
constexpr int t = 2;

void reduce(benchmark::State& state, bool thrust_) {
  if (!threads(state, t)) return;
  const auto n = static_cast<index_t>(large_n);
  auto a = tack::full<double>(n, 0.25);
  for (auto _ : state) {
    double s = thrust_ ? thrust::reduce(thrust::omp::par, a.data(), a.data() + n, 0.0)
                       : tack::sum(a);
    benchmark::DoNotOptimize(s);
  }
  state.SetBytesProcessed(state.iterations() * n * 8);
}

void scan(benchmark::State& state, bool thrust_) {
  if (!threads(state, t)) return;
  const auto n = index_t{1} << 24;
  auto a = tack::full<double>(n, 0.25);
  auto out = tack::zeros<double>(n);
  for (auto _ : state) {
    if (thrust_) {
      thrust::inclusive_scan(thrust::omp::par, a.data(), a.data() + n, out.data());
    } else {
      tack::inclusive_scan(a, out);
    }
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(state.iterations() * n * 16);
}

void sort(benchmark::State& state, bool thrust_) {
  if (!threads(state, t)) return;
  const auto n = index_t{1} << 22;
  auto source = tack::empty<float>(n);
  std::mt19937 gen(12345);
  std::uniform_real_distribution<float> dist(-1000.0f, 1000.0f);
  for (index_t i = 0; i < n; ++i) source.data()[i] = dist(gen);
  auto a = tack::empty<float>(n);
  for (auto _ : state) {
    state.PauseTiming();
    std::memcpy(a.data(), source.data(), static_cast<std::size_t>(n) * sizeof(float));
    state.ResumeTiming();
    if (thrust_) {
      thrust::sort(thrust::omp::par, a.data(), a.data() + n);
    } else {
      tack::sort(a);
    }
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations() * n);
}

void transform_counting(benchmark::State& state, bool thrust_) {
  if (!threads(state, t)) return;
  const auto n = static_cast<index_t>(large_n);
  for (auto _ : state) {
    double s = 0;
    if (thrust_) {
      s = thrust::transform_reduce(thrust::omp::par, thrust::counting_iterator<double>(0.0),
                                   thrust::counting_iterator<double>(double(n)), poly{}, 0.0,
                                   thrust::plus<double>{});
    } else {
      s = tack::sum(tack::arrays::transform(tack::arrays::counting<double>(n), poly{}));
    }
    benchmark::DoNotOptimize(s);
  }
  state.SetItemsProcessed(state.iterations() * n);
}
#endif

const int registered = [] {
#if TACK_BENCH_THRUST
  add("thrust_reduce_t2", "tack_sum", [](auto& s) { reduce(s, false); });
  add("thrust_reduce_t2", "ref_thrust_omp", [](auto& s) { reduce(s, true); });
  add("thrust_scan_t2", "tack_inclusive_scan", [](auto& s) { scan(s, false); });
  add("thrust_scan_t2", "ref_thrust_omp", [](auto& s) { scan(s, true); });
  add("thrust_sort_t2", "tack_sort", [](auto& s) { sort(s, false); })->Iterations(3);
  add("thrust_sort_t2", "ref_thrust_omp", [](auto& s) { sort(s, true); })->Iterations(3);
  add("thrust_transform_counting_t2", "tack_sum", [](auto& s) { transform_counting(s, false); });
  add("thrust_transform_counting_t2", "ref_thrust_omp",
      [](auto& s) { transform_counting(s, true); });
#else
  add("thrust_reduce_t2", "ref_thrust_omp", [](benchmark::State& s) {
    s.SkipWithError("Thrust (libthrust-dev) or OpenMP not found: no Thrust peer");
    for (auto _ : s) {
    }
  });
#endif
  return 0;
}();

}  // namespace
