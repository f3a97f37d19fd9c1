// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
// Implicit arrays (issue 6, "Performance"), 2^25 elements unless said:
// - `sum_transform_counting_*`: `tack::sum(transform(counting(n), f))` against the hand loop
//   `#pragma omp simd reduction(+:s)` over `f(i)` (on 2 threads: `parallel for simd`), with a
//   64-bit counter (`counting<double>`, and a hand loop over index_t) and a 32-bit one
//   (`counting<int32_t>`, and a hand loop over int32: the one GCC 12 vectorizes).
//   Target: >= 0.9. With Debian's libthrust-dev installed (found by `__has_include`), Thrust's
//   `transform_iterator` over `counting_iterator` on its OpenMP system (`thrust::omp::par`) and on
//   its sequential one (`thrust::cpp::par`) run side by side: target, tack at least as fast.
// - `gather`: `copyto(out, permutation(idx, values))` against `out[i] = values[idx[i]]` on raw
//   pointers (a random permutation of 2^24 int32 indices). Target: <= 1.05 (time ratio).
// - `compose3`: `copyto(out, permutation(idx, transform(counting(n), f)))`, a permutation of a
//   transform of a counting array, against `out[i] = f(double(idx[i]))`. Target: <= 1.05.
// - `axpy_expr`: `copyto(out, a + s * b)` against the hand-written triad. Target: <= 1.03.
// `copyto` from an implicit array runs one host thread (array/copyto.hpp), so its references do.
#include "common/bench_util.hpp"

#include <tack/algorithms/reduce.hpp>
#include <tack/array/copyto.hpp>
#include <tack/array/factories.hpp>
#include <tack/arrays/counting.hpp>
#include <tack/arrays/expressions.hpp>
#include <tack/arrays/permutation.hpp>
#include <tack/arrays/transform.hpp>
#include <tack/exec/threads.hpp>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <random>
#include <string>

#if __has_include(<thrust/iterator/transform_iterator.h>) && TACK_HAS_OPENMP
#define TACK_BENCH_THRUST 1
#include <thrust/functional.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#include <thrust/reduce.h>
#include <thrust/system/cpp/execution_policy.h>
#include <thrust/system/omp/execution_policy.h>
#else
#define TACK_BENCH_THRUST 0
#endif

namespace {
using namespace tack::bench;
using tack::index_t;

// A cheap polynomial: vectorizes when the loop does, so the loop structure decides the rate.
struct poly {
  TACK_HOST_DEVICE double operator()(double x) const { return (x * 1e-9 + 0.5) * x * 1e-9 + 0.25; }
};

// ---- sum(transform(counting(n), f)) -------------------------------------------------------------
[[gnu::noipa]] double hand_sum_poly(index_t n, [[maybe_unused]] int t) {
  double s = 0;
  const poly f{};
  if (t == 1) {
    TACK_BENCH_OMP(omp simd reduction(+ : s))
    for (index_t i = 0; i < n; ++i) s += f(static_cast<double>(i));
  } else {
    TACK_BENCH_OMP(omp parallel for simd schedule(static) reduction(+ : s) num_threads(t))
    for (index_t i = 0; i < n; ++i) s += f(static_cast<double>(i));
  }
  return s;
}

// The same over a 32-bit counter: GCC 12 vectorizes int32 -> double conversions but no int64 ->
// double one, even under `omp simd` with AVX-512DQ (the loop above stays scalar), so this is the
// vectorized hand loop of the target (n = 2^25 fits).
[[gnu::noipa]] double hand_sum_poly_i32(index_t n, [[maybe_unused]] int t) {
  double s = 0;
  const poly f{};
  const auto m = static_cast<std::int32_t>(n);
  if (t == 1) {
    TACK_BENCH_OMP(omp simd reduction(+ : s))
    for (std::int32_t i = 0; i < m; ++i) s += f(static_cast<double>(i));
  } else {
    TACK_BENCH_OMP(omp parallel for simd schedule(static) reduction(+ : s) num_threads(t))
    for (std::int32_t i = 0; i < m; ++i) s += f(static_cast<double>(i));
  }
  return s;
}

enum class sum_kind { tack, tack_i32, hand, hand_i32, thrust_omp, thrust_seq };

void sum_transform_counting(benchmark::State& state, sum_kind k, int t) {
  if (!threads(state, t)) return;
  const auto n = static_cast<index_t>(large_n);
  const auto arr = tack::arrays::transform(tack::arrays::counting<double>(n), poly{});
  const auto arr_i32 = tack::arrays::transform(tack::arrays::counting<std::int32_t>(n), poly{});
  for (auto _ : state) {
    double s = 0;
    switch (k) {
      case sum_kind::tack:
        s = tack::sum(arr);
        break;
      case sum_kind::tack_i32:
        s = tack::sum(arr_i32);
        break;
      case sum_kind::hand:
        s = hand_sum_poly(n, t);
        break;
      case sum_kind::hand_i32:
        s = hand_sum_poly_i32(n, t);
        break;
#if TACK_BENCH_THRUST
      case sum_kind::thrust_omp:
      case sum_kind::thrust_seq: {
        auto first =
            thrust::make_transform_iterator(thrust::counting_iterator<double>(0.0), poly{});
        s = k == sum_kind::thrust_omp ? thrust::reduce(thrust::omp::par, first, first + n, 0.0)
                                      : thrust::reduce(thrust::cpp::par, first, first + n, 0.0);
        break;
      }
#else
      case sum_kind::thrust_omp:
      case sum_kind::thrust_seq:
        break;
#endif
    }
    benchmark::DoNotOptimize(s);
  }
  state.SetItemsProcessed(state.iterations() * n);
}

// ---- copyto of implicit arrays ------------------------------------------------------------------
struct gather_data {
  index_t n;
  tack::array<std::int32_t> idx;
  tack::array<double> values, a, b, out;
  explicit gather_data(index_t count) : n(count) {
    idx = tack::empty<std::int32_t>(n);
    std::iota(idx.data(), idx.data() + n, 0);
    std::shuffle(idx.data(), idx.data() + n, std::mt19937(7));
    values = tack::empty<double>(n);
    for (index_t i = 0; i < n; ++i) values.data()[i] = 0.5 + static_cast<double>(i % 977);
    a = values.copy();
    b = values.copy();
    out = tack::full<double>(n, -1.0);
  }
};

[[gnu::noipa]] void hand_gather(double* out, const std::int32_t* idx, const double* v, index_t n) {
  for (index_t i = 0; i < n; ++i) out[i] = v[idx[i]];
}
[[gnu::noipa]] void hand_compose3(double* out, const std::int32_t* idx, index_t n) {
  const poly f{};
  for (index_t i = 0; i < n; ++i) out[i] = f(static_cast<double>(idx[i]));
}
[[gnu::noipa]] void hand_axpy(double* out, const double* a, const double* b, double s, index_t n) {
  for (index_t i = 0; i < n; ++i) out[i] = a[i] + s * b[i];
}

enum class copy_kind { gather, compose3, axpy };

void copy_implicit(benchmark::State& state, copy_kind k, bool use_tack) {
  if (!threads(state, 1)) return;
  const auto n = static_cast<index_t>(k == copy_kind::axpy ? large_n : large_n / 2);
  gather_data d(n);
  const double s = 3.0;
  const auto idx = d.idx.as_const();
  const auto values = d.values.as_const();
  for (auto _ : state) {
    switch (k) {
      case copy_kind::gather:
        if (use_tack)
          tack::copyto(d.out, tack::arrays::permutation(idx, values));
        else
          hand_gather(d.out.data(), d.idx.data(), d.values.data(), n);
        break;
      case copy_kind::compose3:
        if (use_tack)
          tack::copyto(
              d.out, tack::arrays::permutation(
                         idx, tack::arrays::transform(tack::arrays::counting<double>(n), poly{})));
        else
          hand_compose3(d.out.data(), d.idx.data(), n);
        break;
      case copy_kind::axpy:
        if (use_tack)
          tack::copyto(d.out, d.a.as_const() + s * d.b.as_const());
        else
          hand_axpy(d.out.data(), d.a.data(), d.b.data(), s, n);
        break;
    }
    benchmark::ClobberMemory();
  }
  const std::int64_t bytes = k == copy_kind::axpy ? 24 : k == copy_kind::gather ? 20 : 12;
  state.SetItemsProcessed(state.iterations() * n);
  state.SetBytesProcessed(state.iterations() * n * bytes);
}

[[maybe_unused]] const bool registered = [] {
  for (int t : {1, 2}) {
    const std::string g = "sum_transform_counting_t" + std::to_string(t);
    add(g, "tack_sum", [t](auto& s) { sum_transform_counting(s, sum_kind::tack, t); });
    add(g, "tack_sum_counting_i32",
        [t](auto& s) { sum_transform_counting(s, sum_kind::tack_i32, t); });
    add(g, "ref_hand_simd", [t](auto& s) { sum_transform_counting(s, sum_kind::hand, t); });
    add(g, "ref_hand_simd_i32", [t](auto& s) { sum_transform_counting(s, sum_kind::hand_i32, t); });
#if TACK_BENCH_THRUST
    // Not ref_*: the target is "tack at least as fast", read from the two rates.
    if (t == 2)
      add(g, "thrust_omp", [](auto& s) { sum_transform_counting(s, sum_kind::thrust_omp, 2); });
    if (t == 1)
      add(g, "thrust_seq", [](auto& s) { sum_transform_counting(s, sum_kind::thrust_seq, 1); });
#endif
  }
  add("gather", "tack_copyto_permutation",
      [](auto& s) { copy_implicit(s, copy_kind::gather, true); });
  add("gather", "ref_hand_loop", [](auto& s) { copy_implicit(s, copy_kind::gather, false); });
  add("compose3", "tack_copyto_perm_transform_counting",
      [](auto& s) { copy_implicit(s, copy_kind::compose3, true); });
  add("compose3", "ref_hand_loop", [](auto& s) { copy_implicit(s, copy_kind::compose3, false); });
  add("axpy_expr", "tack_copyto_a_plus_s_b",
      [](auto& s) { copy_implicit(s, copy_kind::axpy, true); });
  add("axpy_expr", "ref_hand_triad", [](auto& s) { copy_implicit(s, copy_kind::axpy, false); });
  return true;
}();

}  // namespace
