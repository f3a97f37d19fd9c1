// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
// Kernels and algorithms on the CPU (issue 5, "Performance"):
// - `triad_*`, `copy_*`, `scale_*`: 2^25 doubles through `tack::launch` (kernel functors with a
//   template call operator) against the same loop hand-written as `#pragma omp parallel for` on
//   raw pointers. Target: >= 0.97 of the hand loop, and >= 85 % of the machine's STREAM triad with
//   all cores (the hand triad is STREAM's triad: 35.9 GB/s on 2 threads of the Zen 4 build
//   machine).
// - `sum_*`: `tack::sum` of 2^25 doubles against a strict-order `omp parallel for reduction` loop
//   (each thread adds in index order: what an unvectorized reduction does) and a vectorized
//   `omp simd reduction` loop. Targets: >= 1.4x the strict loop on 2 threads; >= NumPy's
//   `a.sum()` on one thread (31.2 GB/s on the build machine).
// - `launch_empty`: `tack::launch` of an empty kernel over 1 element, with no array and with three
//   arrays. Target: overhead <= 2 us. References: a call through a noinline function, and an empty
//   `#pragma omp parallel` region on 2 threads.
// - `sort_*`: `tack::sort` of 2^24 floats against `std::sort`. Target: >= 1.5x on 2 threads. The
//   input is restored from a shuffled copy before each sort, outside the timed region.
// - `sort_comp_*`: `tack::sort(a, comp)` (stable, any element type) of 10^7 floats against
//   `std::stable_sort` with the same comparator, restored the same way. No target: it records what
//   the stable parallel sort gains over the sequential standard one.
#include "common/alloc_counter.hpp"
#include "common/bench_util.hpp"
#include "common/stream.hpp"

#include <tack/algorithms/reduce.hpp>
#include <tack/algorithms/sort.hpp>
#include <tack/array/factories.hpp>
#include <tack/exec/launch.hpp>
#include <tack/exec/threads.hpp>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>

namespace {
using namespace tack::bench;
using tack::index_t;

// ---- the kernels --------------------------------------------------------------------------------
struct triad_k {
  template <class A, class B, class C>
  TACK_HOST_DEVICE void operator()(index_t i, const A& a, const B& b, const C& c, double s) const {
    a[i] = b[i] + s * c[i];
  }
};
struct copy_k {
  template <class A, class B>
  TACK_HOST_DEVICE void operator()(index_t i, const A& a, const B& b) const {
    a[i] = b[i];
  }
};
struct scale_k {
  template <class A, class B>
  TACK_HOST_DEVICE void operator()(index_t i, const A& a, const B& b, double s) const {
    a[i] = s * b[i];
  }
};
struct empty_k {
  template <class... A>
  TACK_HOST_DEVICE void operator()(index_t, const A&...) const {}
};

// The hand-written references: static schedule, one contiguous share per thread, as tack's OpenMP
// backend. GCC would turn the copy loop into memcpy calls; the attribute keeps it a loop.
[[gnu::noipa]] void omp_triad(double* a, const double* b, const double* c, double s, index_t n,
                              [[maybe_unused]] int t) {
  TACK_BENCH_OMP(omp parallel for schedule(static) num_threads(t))
  for (index_t i = 0; i < n; ++i) a[i] = b[i] + s * c[i];
}
TACK_BENCH_PLAIN_LOOP void omp_copy(double* a, const double* b, index_t n, [[maybe_unused]] int t) {
  TACK_BENCH_OMP(omp parallel for schedule(static) num_threads(t))
  for (index_t i = 0; i < n; ++i) a[i] = b[i];
}
[[gnu::noipa]] void omp_scale(double* a, const double* b, double s, index_t n,
                              [[maybe_unused]] int t) {
  TACK_BENCH_OMP(omp parallel for schedule(static) num_threads(t))
  for (index_t i = 0; i < n; ++i) a[i] = s * b[i];
}

enum class op { triad, copy, scale };
enum class kernel { tack, omp };

void stream_op(benchmark::State& state, op o, kernel k, int t) {
  if (!threads(state, t)) return;
  const auto n = static_cast<index_t>(large_n);
  auto a = tack::full<double>(n, -1.0);
  auto b = tack::full<double>(n, 0.5);
  auto c = tack::full<double>(n, 2.0);
  const auto cpu = tack::cpu();
  for (auto _ : state) {
    if (k == kernel::tack) {
      switch (o) {
        case op::triad:
          tack::launch(cpu, n, triad_k{}, a, b.as_const(), c.as_const(), 3.0);
          break;
        case op::copy:
          tack::launch(cpu, n, copy_k{}, a, b.as_const());
          break;
        case op::scale:
          tack::launch(cpu, n, scale_k{}, a, b.as_const(), 3.0);
          break;
      }
    } else {
      switch (o) {
        case op::triad:
          omp_triad(a.data(), b.data(), c.data(), 3.0, n, t);
          break;
        case op::copy:
          omp_copy(a.data(), b.data(), n, t);
          break;
        case op::scale:
          omp_scale(a.data(), b.data(), 3.0, n, t);
          break;
      }
    }
    benchmark::ClobberMemory();
  }
  const std::int64_t bytes = o == op::triad ? 24 : 16;
  state.SetItemsProcessed(state.iterations() * n);
  state.SetBytesProcessed(state.iterations() * n * bytes);
}

// ---- sum ----------------------------------------------------------------------------------------
[[gnu::noipa]] double omp_sum_strict(const double* a, index_t n, [[maybe_unused]] int t) {
  double s = 0;
  TACK_BENCH_OMP(omp parallel for schedule(static) reduction(+ : s) num_threads(t))
  for (index_t i = 0; i < n; ++i) s += a[i];
  return s;
}
[[gnu::noipa]] double omp_sum_simd(const double* a, index_t n, [[maybe_unused]] int t) {
  double s = 0;
  TACK_BENCH_OMP(omp parallel for simd schedule(static) reduction(+ : s) num_threads(t))
  for (index_t i = 0; i < n; ++i) s += a[i];
  return s;
}

enum class summer { tack, strict, simd };

void sum(benchmark::State& state, summer k, int t) {
  if (!threads(state, t)) return;
  const auto n = static_cast<index_t>(large_n);
  auto a = tack::empty<double>(n);
  double* p = a.data();
  for (index_t i = 0; i < n; ++i) p[i] = 0.25 + static_cast<double>(i % 1000) * 1e-3;
  for (auto _ : state) {
    double s = 0;
    switch (k) {
      case summer::tack:
        s = tack::sum(a);
        break;
      case summer::strict:
        s = omp_sum_strict(p, n, t);
        break;
      case summer::simd:
        s = omp_sum_simd(p, n, t);
        break;
    }
    benchmark::DoNotOptimize(s);
  }
  state.SetItemsProcessed(state.iterations() * n);
  state.SetBytesProcessed(state.iterations() * n * 8);
}

// ---- launch overhead ----------------------------------------------------------------------------
[[gnu::noipa]] void call_empty(index_t n, const double* p) {
  for (index_t i = 0; i < n; ++i) benchmark::DoNotOptimize(p);
}

enum class empty_kind {
  tack_no_args,
  tack_three_arrays,
  tack_parallel_for,
  direct_call,
  omp_region
};

void launch_empty(benchmark::State& state, empty_kind k) {
  if (!threads(state, 2)) return;
  auto a = tack::zeros<double>(16);
  auto b = tack::zeros<double>(16);
  auto c = tack::zeros<double>(16);
  const auto cpu = tack::cpu();
  const long calls0 = new_calls();
  for (auto _ : state) {
    switch (k) {
      // One scalar argument: launch with no argument at all warns in launch.hpp (unused lambdas).
      case empty_kind::tack_no_args:
        tack::launch(cpu, 1, empty_k{}, 1.0);
        break;
      case empty_kind::tack_three_arrays:
        tack::launch(cpu, 1, empty_k{}, a, b.as_const(), c.as_const(), 2.0);
        break;
      case empty_kind::tack_parallel_for:
        tack::parallel_for(cpu, 1, [](index_t) {});
        break;
      case empty_kind::direct_call:
        call_empty(1, a.data());
        break;
      case empty_kind::omp_region: {
        TACK_BENCH_OMP(omp parallel num_threads(2))
        benchmark::DoNotOptimize(a);
        break;
      }
    }
    benchmark::ClobberMemory();
  }
  per_iteration(state, "allocs", static_cast<double>(new_calls() - calls0));
  state.SetItemsProcessed(state.iterations());
}

// ---- sort ---------------------------------------------------------------------------------------
// `std::sort` with NaNs last, the order tack::sort gives: a reference that tells the cost of the
// NaN-aware comparison (`a < b || (b != b && a == a)`) apart from the cost of the algorithm.
struct nan_last_less {
  bool operator()(float a, float b) const { return a < b || (b != b && a == a); }
};

enum class sorter { tack, std_sort, std_sort_nan_last };

void sort(benchmark::State& state, sorter k, int t) {
  if (!threads(state, t)) return;
  const auto n = static_cast<index_t>(std::size_t{1} << 24);
  auto source = tack::empty<float>(n);
  std::mt19937 gen(12345);
  std::uniform_real_distribution<float> dist(-1000.0f, 1000.0f);
  for (index_t i = 0; i < n; ++i) source.data()[i] = dist(gen);
  auto a = tack::empty<float>(n);
  for (auto _ : state) {
    state.PauseTiming();
    std::memcpy(a.data(), source.data(), static_cast<std::size_t>(n) * sizeof(float));
    state.ResumeTiming();
    switch (k) {
      case sorter::tack:
        tack::sort(a);
        break;
      case sorter::std_sort:
        std::sort(a.data(), a.data() + n);
        break;
      case sorter::std_sort_nan_last:
        std::sort(a.data(), a.data() + n, nan_last_less{});
        break;
    }
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations() * n);
}

// The comparator both stable sorts of `sort_comp` receive.
struct float_less {
  bool operator()(float a, float b) const { return a < b; }
};

enum class stable_sorter { tack, std_stable_sort };

void sort_comp(benchmark::State& state, stable_sorter k, int t) {
  if (!threads(state, t)) return;
  const index_t n = 10'000'000;
  auto source = tack::empty<float>(n);
  std::mt19937 gen(54321);
  std::uniform_real_distribution<float> dist(-1000.0f, 1000.0f);
  for (index_t i = 0; i < n; ++i) source.data()[i] = dist(gen);
  auto a = tack::empty<float>(n);
  for (auto _ : state) {
    state.PauseTiming();
    std::memcpy(a.data(), source.data(), static_cast<std::size_t>(n) * sizeof(float));
    state.ResumeTiming();
    switch (k) {
      case stable_sorter::tack:
        tack::sort(a, float_less{});
        break;
      case stable_sorter::std_stable_sort:
        std::stable_sort(a.data(), a.data() + n, float_less{});
        break;
    }
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations() * n);
}

[[maybe_unused]] const bool registered = [] {
  for (int t : {1, 2}) {
    const std::string s = "_t" + std::to_string(t);
    add("triad" + s, "tack_launch", [t](auto& st) { stream_op(st, op::triad, kernel::tack, t); });
    add("triad" + s, "ref_omp_loop", [t](auto& st) { stream_op(st, op::triad, kernel::omp, t); });
    add("copy" + s, "tack_launch", [t](auto& st) { stream_op(st, op::copy, kernel::tack, t); });
    add("copy" + s, "ref_omp_loop", [t](auto& st) { stream_op(st, op::copy, kernel::omp, t); });
    add("scale" + s, "tack_launch", [t](auto& st) { stream_op(st, op::scale, kernel::tack, t); });
    add("scale" + s, "ref_omp_loop", [t](auto& st) { stream_op(st, op::scale, kernel::omp, t); });
    add("sum" + s, "tack_sum", [t](auto& st) { sum(st, summer::tack, t); });
    add("sum" + s, "ref_omp_strict", [t](auto& st) { sum(st, summer::strict, t); });
    add("sum" + s, "ref_omp_simd", [t](auto& st) { sum(st, summer::simd, t); });
  }
  auto ns = [](benchmark::internal::Benchmark* b) { b->Unit(benchmark::kNanosecond); };
  ns(add("launch_empty", "tack_launch_scalar",
         [](auto& st) { launch_empty(st, empty_kind::tack_no_args); }));
  ns(add("launch_empty", "tack_launch_3_arrays",
         [](auto& st) { launch_empty(st, empty_kind::tack_three_arrays); }));
  ns(add("launch_empty", "tack_parallel_for",
         [](auto& st) { launch_empty(st, empty_kind::tack_parallel_for); }));
  ns(add("launch_empty", "ref_direct_call",
         [](auto& st) { launch_empty(st, empty_kind::direct_call); }));
  ns(add("launch_empty", "ref_omp_region_t2",
         [](auto& st) { launch_empty(st, empty_kind::omp_region); }));
  for (int t : {1, 2}) {
    const std::string s = "sort_t" + std::to_string(t);
    add(s, "tack_sort", [t](auto& st) { sort(st, sorter::tack, t); })->Iterations(3);
    add(s, "ref_std_sort", [t](auto& st) { sort(st, sorter::std_sort, t); })->Iterations(3);
    if (t == 1)
      add(s, "std_sort_nan_last", [](auto& st) {
        sort(st, sorter::std_sort_nan_last, 1);
      })->Iterations(3);
  }
  for (int t : {1, 2}) {
    const std::string s = "sort_comp_t" + std::to_string(t);
    add(s, "tack_sort_comp", [t](auto& st) {
      sort_comp(st, stable_sorter::tack, t);
    })->Iterations(3);
    add(s, "ref_std_stable_sort", [t](auto& st) {
      sort_comp(st, stable_sorter::std_stable_sort, t);
    })->Iterations(3);
  }
  return true;
}();

}  // namespace
