// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
// Views (issue 4, "Performance"):
// - `rows_create`: creating a host row view `a.rows(i, j)`, in ns, with the heap allocations per
//   creation (`allocs`, from the counting global operator new). Target: <= 8 ns, 0 allocations.
//   Reference: copying a `std::shared_ptr` plus an offset, what a handle built on the standard
//   library's reference count costs (a Kokkos managed subview: 6.5 ns on a Zen 4 build
//   machine). tack's handles hold their own count (detail/counted_ptr.hpp), which is cheaper.
// - `kview_rows_loop`: `v.rows(b, e)` of a kernel view taken inside a loop over blocks, against
//   indexing the root view with the block's offset and against raw pointers. In cache (2^14
//   doubles, blocks of 64), where a per-block cost would show. Target: ratio <= 1.02.
// - `triad_*`: STREAM triad `a[i] = b[i] + s * c[i]` over 2^25 doubles through `tack::view<double>`
//   and `tack::mdview<double, dextents<1>, layout_right>` against raw pointers, the same OpenMP
//   loop for all three. Target: ratio <= 1.02.
#include "common/alloc_counter.hpp"
#include "common/bench_util.hpp"

#include <tack/array/factories.hpp>
#include <tack/array/soa.hpp>
#include <tack/exec/threads.hpp>
#include <tack/types/vec.hpp>
#include <tack/view/layout_right.hpp>
#include <tack/view/mdview.hpp>
#include <tack/view/view.hpp>

#include <cstdint>
#include <memory>
#include <string>
#include <thread>

namespace {
using namespace tack::bench;

// ---- row view creation --------------------------------------------------------------------------
template <class A>
void rows_create(benchmark::State& state, A a) {
  const tack::index_t rows = a.shape()[0];
  tack::index_t i = 0;
  const long calls0 = new_calls();
  for (auto _ : state) {
    auto v = a.rows(i, i + 2);  // the issue's `rows[2:4]`, at a moving start
    benchmark::DoNotOptimize(v);
    i = i + 3 < rows ? i + 1 : 0;
  }
  per_iteration(state, "allocs", static_cast<double>(new_calls() - calls0));
  state.SetItemsProcessed(state.iterations());
}

// What a handle on std::shared_ptr costs: a shared_ptr copy (atomic increment, and on release
// libstdc++'s two-count check and atomic decrement) plus an offset and a length.
struct counted_slice {
  std::shared_ptr<double[]> owner;
  std::size_t offset, rows;
};
void ref_shared_ptr_slice(benchmark::State& state) {
  // libstdc++ skips the atomics while the process has never started a thread: start one, as any
  // program that ran a parallel kernel has, so that the reference pays what tack's handles pay.
  std::thread([] {}).join();
  counted_slice root{std::shared_ptr<double[]>(new double[1000]), 0, 1000};
  std::size_t i = 0;
  for (auto _ : state) {
    counted_slice v{root.owner, root.offset + i, 2};
    benchmark::DoNotOptimize(v);
    i = i + 3 < root.rows ? i + 1 : 0;
  }
  state.SetItemsProcessed(state.iterations());
}

// ---- kernel-view rows() inside a loop -----------------------------------------------------------
constexpr tack::index_t loop_n = tack::index_t{1} << 14;
constexpr tack::index_t block = 64;

[[gnu::noipa]] void scale_by_rows(tack::view<double> y, tack::view<const double> x, double s) {
  for (tack::index_t b = 0; b < y.size(); b += block) {
    auto yr = y.rows(b, b + block);
    auto xr = x.rows(b, b + block);
    for (tack::index_t k = 0; k < block; ++k) yr[k] = s * xr[k] + yr[k];
  }
}
[[gnu::noipa]] void scale_by_offset(tack::view<double> y, tack::view<const double> x, double s) {
  for (tack::index_t b = 0; b < y.size(); b += block)
    for (tack::index_t k = 0; k < block; ++k) y[b + k] = s * x[b + k] + y[b + k];
}
[[gnu::noipa]] void scale_raw(double* y, const double* x, tack::index_t n, double s) {
  for (tack::index_t b = 0; b < n; b += block)
    for (tack::index_t k = 0; k < block; ++k) y[b + k] = s * x[b + k] + y[b + k];
}

enum class kind { tack_view, tack_mdview, raw };

void kview_rows_loop(benchmark::State& state, kind k, bool rows) {
  // Two row views of one allocation 2 KiB apart (mod 4 KiB): separately allocated arrays sit
  // wherever the allocator puts them, and a distance of a few bytes mod 4 KiB (4K aliasing of the
  // loads of x with the stores to y) made one variant 2x slower than another in a first version.
  constexpr tack::index_t gap = 256;
  auto both = tack::full<double>(2 * loop_n + gap, 0.5);
  auto x = both.rows(0, loop_n);
  auto y = both.rows(loop_n + gap, 2 * loop_n + gap);
  y.fill(1.0);
  for (auto _ : state) {
    if (k == kind::raw) {
      scale_raw(y.data(), x.data(), loop_n, 1e-9);
    } else if (rows) {
      scale_by_rows(y.view(), x.as_const().view(), 1e-9);
    } else {
      scale_by_offset(y.view(), x.as_const().view(), 1e-9);
    }
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations() * loop_n);
  state.SetBytesProcessed(state.iterations() * loop_n * 24);
}

// ---- STREAM triad through views -----------------------------------------------------------------
// One loop for every accessor type, so that only the accessors differ.
template <class A, class B, class C>
[[gnu::noipa]] void triad_loop(A a, B b, C c, double s, std::int64_t n, [[maybe_unused]] int t) {
  TACK_BENCH_OMP(omp parallel for schedule(static) num_threads(t))
  for (std::int64_t i = 0; i < n; ++i) a[i] = b[i] + s * c[i];
}

void triad(benchmark::State& state, int t, kind k) {
  if (!threads(state, t)) return;
  const auto n = static_cast<tack::index_t>(large_n);
  auto a = tack::empty<double>(n);
  auto b = tack::full<double>(n, 0.5);
  auto c = tack::full<double>(n, 2.0);
  a.fill(-1.0);
  using md = tack::mdview<double, tack::dextents<1>, tack::layout_right>;
  using cmd = tack::mdview<const double, tack::dextents<1>, tack::layout_right>;
  for (auto _ : state) {
    switch (k) {
      case kind::tack_view:
        triad_loop(a.view(), b.as_const().view(), c.as_const().view(), 3.0, n, t);
        break;
      case kind::tack_mdview:
        triad_loop(md(a.data(), n), cmd(b.data(), n), cmd(c.data(), n), 3.0, n, t);
        break;
      case kind::raw:
        triad_loop(a.data(), static_cast<const double*>(b.data()),
                   static_cast<const double*>(c.data()), 3.0, n, t);
        break;
    }
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations() * n);
  state.SetBytesProcessed(state.iterations() * n * 24);
}

[[maybe_unused]] const bool registered = [] {
  auto ns = [](benchmark::internal::Benchmark* b) { b->Unit(benchmark::kNanosecond); };
  ns(add("rows_create", "tack_rows_double",
         [](auto& s) { rows_create(s, tack::zeros<double>(1000)); }));
  ns(add("rows_create", "tack_rows_2d", [](auto& s) {
    rows_create(s, tack::zeros<double>({1000, 3}));
  }));
  ns(add("rows_create", "tack_rows_vec3d_aos",
         [](auto& s) { rows_create(s, tack::zeros<tack::vec3d>(1000)); }));
  ns(add("rows_create", "tack_rows_vec3d_soa", [](auto& s) {
    rows_create(s, tack::zeros<tack::vec3d>(1000, {.layout = tack::layout::soa}));
  }));
  ns(add("rows_create", "ref_shared_ptr_slice", ref_shared_ptr_slice));

  auto us = [](benchmark::internal::Benchmark* b) { b->Unit(benchmark::kMicrosecond); };
  us(add("kview_rows_loop", "tack_view_rows",
         [](auto& s) { kview_rows_loop(s, kind::tack_view, true); }));
  us(add("kview_rows_loop", "ref_view_offset",
         [](auto& s) { kview_rows_loop(s, kind::tack_view, false); }));
  us(add("kview_rows_loop", "ref_raw_pointer",
         [](auto& s) { kview_rows_loop(s, kind::raw, false); }));

  for (int t : {1, 2}) {
    const std::string g = "triad_t" + std::to_string(t);
    add(g, "tack_view", [t](auto& s) { triad(s, t, kind::tack_view); });
    add(g, "tack_mdview_right", [t](auto& s) { triad(s, t, kind::tack_mdview); });
    add(g, "ref_raw_pointer", [t](auto& s) { triad(s, t, kind::raw); });
  }
  return true;
}();

}  // namespace
