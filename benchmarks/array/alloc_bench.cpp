// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
// Allocation: `tack::empty` must cost no pass over memory (1 GiB in under 1 ms), and
// `tack::zeros<double>(2^25)` against `std::vector<double>(2^25)` and `calloc` with FIRST TOUCH
// INCLUDED: every variant ends with the same pass that writes one double per 4 KiB page, so every
// page is resident and writable at the end of each iteration whatever the allocator did lazily.
// `faults` counts page faults per iteration (one per 4 KiB page, or one per 2 MiB huge page).
#include "common/bench_util.hpp"

#include <tack/array/factories.hpp>

#include <cstdint>
#include <cstdlib>
#include <vector>

namespace {
using namespace tack::bench;

constexpr std::size_t gib_n = (std::size_t{1} << 30) / sizeof(double);

void finish(benchmark::State& state, std::size_t n, std::int64_t faults) {
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * n));
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * n * sizeof(double)));
  per_iteration(state, "faults", static_cast<double>(faults));
}

// Huge-page coverage of the last array built, outside the timed loop.
template <class Make>
void report_huge(benchmark::State& state, Make make) {
  const long before = anon_huge_kib();
  auto keep = make();
  const long after = anon_huge_kib();
  state.counters["huge_MiB"] = before < 0 ? -1.0 : static_cast<double>(after - before) / 1024.0;
}

// ---- empty: creation and destruction of a 1 GiB array ------------------------------------------
void tack_empty_1gib(benchmark::State& state) {
  const auto f0 = page_faults();
  for (auto _ : state) {
    auto a = tack::empty<double>(gib_n);
    benchmark::DoNotOptimize(a.data());
  }
  per_iteration(state, "faults", static_cast<double>(page_faults() - f0));
}

void malloc_1gib(benchmark::State& state) {
  const auto f0 = page_faults();
  for (auto _ : state) {
    void* p = std::malloc(gib_n * sizeof(double));
    benchmark::DoNotOptimize(p);
    std::free(p);
  }
  per_iteration(state, "faults", static_cast<double>(page_faults() - f0));
}

// ---- zeros, first touch included ------------------------------------------------------------------
constexpr std::size_t n = large_n;

void tack_zeros(benchmark::State& state) {
  const auto f0 = page_faults();
  for (auto _ : state) {
    auto a = tack::zeros<double>(n);
    touch_pages(a.data(), n * sizeof(double));
  }
  finish(state, n, page_faults() - f0);
  report_huge(state, [] {
    auto a = tack::zeros<double>(n);
    touch_pages(a.data(), n * sizeof(double));
    return a;
  });
}

void vector_zeros(benchmark::State& state) {
  const auto f0 = page_faults();
  for (auto _ : state) {
    std::vector<double> v(n);
    touch_pages(v.data(), n * sizeof(double));
  }
  finish(state, n, page_faults() - f0);
  report_huge(state, [] {
    std::vector<double> v(n);
    touch_pages(v.data(), n * sizeof(double));
    return v;
  });
}

// calloc gets fresh (zero) pages from mmap for large blocks and skips the fill, as tack does, but
// on 4 KiB pages: it separates "no fill pass" from "huge pages".
void calloc_zeros(benchmark::State& state) {
  const auto f0 = page_faults();
  for (auto _ : state) {
    auto* p = static_cast<double*>(std::calloc(n, sizeof(double)));
    touch_pages(p, n * sizeof(double));
    std::free(p);
  }
  finish(state, n, page_faults() - f0);
}

[[maybe_unused]] const bool registered = [] {
  add("empty_1GiB", "tack", tack_empty_1gib)->Unit(benchmark::kMicrosecond);
  add("empty_1GiB", "ref_malloc", malloc_1gib)->Unit(benchmark::kMicrosecond);
  add("zeros_touched", "tack", tack_zeros);
  add("zeros_touched", "ref_vector", vector_zeros);
  add("zeros_touched", "ref_calloc", calloc_zeros);
  return true;
}();

}  // namespace
