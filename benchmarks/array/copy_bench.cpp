// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
// copy(), fill() and copyto() against a plain loop, glibc memcpy and STREAM kernels with streaming
// (non-temporal) stores, for arrays far beyond the last-level cache (2^25 doubles = 256 MiB) on one
// and two OpenMP threads, and for small in-cache arrays (2^12 doubles = 32 KiB) on one thread.
// The references run on the raw pointers of tack arrays, so both sides use the same (huge-page,
// already touched) memory and only the kernels differ. Bytes/s count what a kernel reads plus what
// it writes (a copy moves 16 bytes per double, a fill 8), as STREAM does.
//
// Groups `copy_*` time `a.copy()` in a loop, which allocates: the destination is the block the
// previous iteration freed, kept by the default host allocator's cache of large blocks
// (tack::set_host_cache_limit) or by a pool allocator (tack::make_pool_allocator); one untimed copy
// warms either. `faults` shows it: 0 when every timed copy reused memory. `ref_vector_copy` pays
// first touch every time (glibc returns blocks this large to the system).
#include "common/bench_util.hpp"
#include "common/stream.hpp"

#include <tack/array/factories.hpp>

#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

namespace {
using namespace tack::bench;

// Not zero: these VMs write zero pages about 2.5x faster than any other byte, so a zero fill would
// flatter every variant (benchmarks/goals.toml, the arrays area: "Fills use 1.25, never zero").
constexpr double fill_value = 1.25;

// Bytes from `src` to `dst` modulo 4096. glibc's memcpy on these Zen machines (rep movsb) runs
// ~20x slower when this is 1..31 (measured for 4 KiB to 256 KiB): the small-copy results report it.
[[gnu::noinline]] double alias_of(const void* dst, const void* src) {
  return static_cast<double>(
      (reinterpret_cast<std::uintptr_t>(dst) - reinterpret_cast<std::uintptr_t>(src)) & 4095);
}

// A source with distinct non-zero values and a touched destination. Large arrays are two
// allocations (2 MiB-aligned huge-page blocks). Small ones are two row views of one allocation with
// `gap` bytes between them, which fixes their distance modulo 4 KiB (see alias_of): 2048 by
// default, 16 for the group that shows the memcpy trap. Two separate small allocations would sit
// wherever malloc puts them, and the result would depend on the heap's history.
struct pair_of_arrays {
  tack::array<double> src, dst;
  explicit pair_of_arrays(std::size_t n, std::optional<tack::allocator_id> alloc = std::nullopt,
                          std::size_t gap = 2048) {
    const auto rows = static_cast<tack::index_t>(n);
    if (n >= large_n) {
      src = tack::empty<double>(n, {.allocator = alloc});
      dst = tack::empty<double>(n, {.allocator = alloc});
    } else {
      const auto g = static_cast<tack::index_t>(gap / sizeof(double));
      auto both = tack::empty<double>(2 * rows + g, {.allocator = alloc});
      src = both.rows(0, rows);
      dst = both.rows(rows + g, 2 * rows + g);
    }
    double* s = src.data();
    for (std::size_t i = 0; i < n; ++i) s[i] = 0.5 + static_cast<double>(i % 1021);
    dst.fill(-1.0);
  }
};

void finish(benchmark::State& state, std::size_t n, std::size_t bytes_per_value) {
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * n));
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * n * bytes_per_value));
}

// ---- copy into an existing array -------------------------------------------------------------------
enum class kernel { tack, plain, memcpy_, stream };

void copy_into(benchmark::State& state, std::size_t n, int threads, kernel k,
               std::size_t gap = 2048) {
  if (!use_threads(state, threads)) return;
  pair_of_arrays p(n, std::nullopt, gap);
  double* d = p.dst.data();
  const double* s = p.src.data();
  for (auto _ : state) {
    switch (k) {
      case kernel::tack:
        tack::copyto(p.dst, p.src);
        break;
      case kernel::plain:
        plain_copy(d, s, n, threads);
        break;
      case kernel::memcpy_:
        memcpy_copy(d, s, n, threads);
        break;
      case kernel::stream:
        stream_copy(d, s, n, threads);
        break;
    }
    benchmark::ClobberMemory();
  }
  finish(state, n, 2 * sizeof(double));
  if (n < large_n) state.counters["alias"] = alias_of(d, s);
}

// ---- a.copy(): allocation included ---------------------------------------------------------------------
void tack_copy(benchmark::State& state, std::size_t n, int threads, bool pool) {
  if (!use_threads(state, threads)) return;
  std::optional<tack::allocator_id> alloc;
  if (pool) alloc = tack::make_pool_allocator(tack::get_allocator(tack::memory_space::host));
  pair_of_arrays p(n, alloc);
  // The timed copies reuse this block: the pool, or the default host allocator's cache of freed
  // large blocks, is warm, as in any loop that copies (the first copy of a run pays first touch).
  (void)p.src.copy();
  const auto f0 = page_faults();
  double alias = 0;
  for (auto _ : state) {
    auto b = p.src.copy();
    benchmark::DoNotOptimize(b.data());
    if (n < large_n) alias = alias_of(b.data(), p.src.data());
  }
  per_iteration(state, "faults", static_cast<double>(page_faults() - f0));
  finish(state, n, 2 * sizeof(double));
  if (n < large_n) state.counters["alias"] = alias;
  if (pool) tack::release_pool(*alloc);
}

// `std::vector` copy construction: malloc + memcpy. For small vectors the two blocks' distance
// modulo 4 KiB is up to malloc (reported as `alias`), so this reference can fall into the memcpy trap.
void vector_copy(benchmark::State& state, std::size_t n) {
  std::vector<double> src(n);
  for (std::size_t i = 0; i < n; ++i) src[i] = 0.5 + static_cast<double>(i % 1021);
  double alias = 0;
  {
    std::vector<double> b(src);  // malloc hands the timed loop the same block again
#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ >= 12
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wuse-after-free"  // GCC 12 false positive: b is alive here
#endif
    alias = alias_of(b.data(), src.data());
#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ >= 12
#pragma GCC diagnostic pop
#endif
  }
  const auto f0 = page_faults();
  for (auto _ : state) {
    std::vector<double> b(src);
    benchmark::DoNotOptimize(b.data());
  }
  per_iteration(state, "faults", static_cast<double>(page_faults() - f0));
  finish(state, n, 2 * sizeof(double));
  if (n < large_n) state.counters["alias"] = alias;
}

// Allocation + plain loop: what copy() costs at best without placement accidents. The block is
// malloc'ed 4 KiB larger and the copy lands 2 KiB (mod 4 KiB) away from the source, like the
// copyto groups, since a forward loop stalls on 4K aliasing when its destination sits a few bytes
// after its source modulo 4 KiB.
void new_plain_copy(benchmark::State& state, std::size_t n) {
  pair_of_arrays p(n);
  const double* s = p.src.data();
  const auto want = (reinterpret_cast<std::uintptr_t>(s) + 2048) & 4095;
  double alias = 0;
  for (auto _ : state) {
    auto* raw = static_cast<unsigned char*>(std::malloc(n * sizeof(double) + 4096));
    const auto at = (want - (reinterpret_cast<std::uintptr_t>(raw) & 4095)) & 4095;
    auto* b = reinterpret_cast<double*>(raw + at);
    plain_copy(b, s, n);
    benchmark::DoNotOptimize(b);
    alias = alias_of(b, s);
    std::free(raw);
  }
  finish(state, n, 2 * sizeof(double));
  state.counters["alias"] = alias;
}

// ---- fill ------------------------------------------------------------------------------------------
void fill(benchmark::State& state, std::size_t n, int threads, kernel k) {
  if (!use_threads(state, threads)) return;
  auto a = tack::empty<double>(n);
  a.fill(-1.0);
  double* d = a.data();
  for (auto _ : state) {
    switch (k) {
      case kernel::tack:
        a.fill(fill_value);
        break;
      case kernel::plain:
        plain_fill(d, fill_value, n, threads);
        break;
      case kernel::stream:
        stream_fill(d, fill_value, n, threads);
        break;
      case kernel::memcpy_:
        break;
    }
    benchmark::ClobberMemory();
  }
  finish(state, n, sizeof(double));
}

[[maybe_unused]] const bool registered = [] {
  for (int t : {1, 2}) {
    const std::string s = "_t" + std::to_string(t);
    const std::size_t n = large_n;
    add("copyto_large" + s, "tack_copyto", [=](auto& st) { copy_into(st, n, t, kernel::tack); });
    add("copyto_large" + s, "ref_plain_loop",
        [=](auto& st) { copy_into(st, n, t, kernel::plain); });
    add("copyto_large" + s, "ref_memcpy", [=](auto& st) { copy_into(st, n, t, kernel::memcpy_); });
    add("copyto_large" + s, "ref_stream_nt",
        [=](auto& st) { copy_into(st, n, t, kernel::stream); });
    add("copy_large" + s, "tack_copy", [=](auto& st) { tack_copy(st, n, t, false); });
    add("copy_large" + s, "tack_copy_pool", [=](auto& st) { tack_copy(st, n, t, true); });
    add("copy_large" + s, "ref_stream_nt", [=](auto& st) { copy_into(st, n, t, kernel::stream); });
    if (t == 1) add("copy_large" + s, "ref_vector_copy", [=](auto& st) { vector_copy(st, n); });
    add("fill_large" + s, "tack_fill", [=](auto& st) { fill(st, n, t, kernel::tack); });
    add("fill_large" + s, "ref_plain_loop", [=](auto& st) { fill(st, n, t, kernel::plain); });
    add("fill_large" + s, "ref_stream_nt", [=](auto& st) { fill(st, n, t, kernel::stream); });
  }
  // Small arrays stay on one thread in the library (threads cost more than they bring below 1 MiB).
  const std::size_t n = small_n;
  auto us = [](benchmark::internal::Benchmark* b) { b->Unit(benchmark::kMicrosecond); };
  us(add("copyto_small", "tack_copyto", [=](auto& st) { copy_into(st, n, 1, kernel::tack); }));
  us(add("copyto_small", "ref_plain_loop", [=](auto& st) { copy_into(st, n, 1, kernel::plain); }));
  us(add("copyto_small", "ref_memcpy", [=](auto& st) { copy_into(st, n, 1, kernel::memcpy_); }));
  // The same with the destination 16 bytes (mod 4 KiB) after the source: glibc memcpy's slow case.
  us(add("copyto_small_alias16", "tack_copyto",
         [=](auto& st) { copy_into(st, n, 1, kernel::tack, 16); }));
  us(add("copyto_small_alias16", "ref_plain_loop",
         [=](auto& st) { copy_into(st, n, 1, kernel::plain, 16); }));
  us(add("copyto_small_alias16", "ref_memcpy",
         [=](auto& st) { copy_into(st, n, 1, kernel::memcpy_, 16); }));
  us(add("copy_small", "tack_copy", [=](auto& st) { tack_copy(st, n, 1, false); }));
  us(add("copy_small", "ref_new_plain_loop", [=](auto& st) { new_plain_copy(st, n); }));
  us(add("copy_small", "ref_vector_copy", [=](auto& st) { vector_copy(st, n); }));
  us(add("fill_small", "tack_fill", [=](auto& st) { fill(st, n, 1, kernel::tack); }));
  us(add("fill_small", "ref_plain_loop", [=](auto& st) { fill(st, n, 1, kernel::plain); }));
  return true;
}();

}  // namespace
