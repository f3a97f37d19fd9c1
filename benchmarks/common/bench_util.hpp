// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
#pragma once
/// @file Shared helpers of the benchmarks: sizes, page-touch passes, page-fault and huge-page
/// counters, OpenMP thread control, and the naming rule scripts/run-benchmarks relies on.
///
/// Naming rule: every benchmark is registered as `<group>:<variant>`. Variants whose name starts with
/// `ref_` are the references of their group; scripts/run-benchmarks prints, for every other variant,
/// the ratio of each reference's median time to the variant's median time (> 1: faster than the
/// reference). `tack::bench::add("copy_large_t1", "tack_copyto", fn);`

#include <benchmark/benchmark.h>

#include <tack/config.hpp>
#include <tack/exec/threads.hpp>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <utility>

#include <sys/resource.h>

#if TACK_HAS_OPENMP
#include <omp.h>
#endif

namespace tack::bench {

/// 2^25 doubles = 256 MiB: far beyond any last-level cache of the build machines (32 MiB).
inline constexpr std::size_t large_n = std::size_t{1} << 25;
/// 2^12 doubles = 32 KiB: fits in L1/L2, where call overheads rather than bandwidth decide.
inline constexpr std::size_t small_n = std::size_t{1} << 12;
/// The base page size the touch passes step by.
inline constexpr std::size_t page_bytes = 4096;

/// Registers `fn` under `<group>:<variant>`, timed by the wall clock (the kernels use threads and
/// the kernel's page-fault work counts as system time, which CPU time would hide).
/// `add("fill_large_t1", "tack_fill", [](benchmark::State& s) { ... });`
template <class F>
benchmark::internal::Benchmark* add(const std::string& group, const std::string& variant, F&& fn) {
  return benchmark::RegisterBenchmark((group + ":" + variant).c_str(), std::forward<F>(fn))
      ->UseRealTime()
      ->Unit(benchmark::kMillisecond);
}

/// Minor + major page faults of the process so far (software counters work in the VM; hardware
/// counters do not). A pass over fresh memory costs one fault per 4 KiB page, or one per 2 MiB when
/// the block is on transparent huge pages. `auto f0 = page_faults();`
inline std::int64_t page_faults() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return static_cast<std::int64_t>(u.ru_minflt) + static_cast<std::int64_t>(u.ru_majflt);
}

/// KiB of anonymous memory currently on transparent huge pages (`AnonHugePages` of
/// /proc/self/smaps_rollup), or -1 when the kernel does not say. `auto kib = anon_huge_kib();`
inline long anon_huge_kib() {
  std::FILE* f = std::fopen("/proc/self/smaps_rollup", "r");
  if (!f) return -1;
  char line[256];
  long kib = -1;
  while (std::fgets(line, sizeof line, f)) {
    if (std::strncmp(line, "AnonHugePages:", 14) == 0) {
      kib = std::strtol(line + 14, nullptr, 10);
      break;
    }
  }
  std::fclose(f);
  return kib;
}

/// Writes one double per 4 KiB page of `[p, p + bytes)`: the cheapest pass that makes every page
/// resident. Applied identically to every variant of a first-touch comparison. `touch_pages(p, n * 8);`
inline void touch_pages(void* p, std::size_t bytes) {
  auto* c = static_cast<unsigned char*>(p);
  for (std::size_t off = 0; off < bytes; off += page_bytes) {
    const double one = 1.0;
    std::memcpy(c + off, &one, sizeof one);
  }
  benchmark::ClobberMemory();
}

/// Whether `threads` OpenMP threads can be asked for in this build.
inline bool threads_available(int threads) {
#if TACK_HAS_OPENMP
  return threads >= 1;
#else
  return threads == 1;
#endif
}

/// Sets the OpenMP thread count the library's host copy and fill use (`omp_get_max_threads()`).
/// Skips the benchmark (with a reason) when the build cannot run that many. `use_threads(state, 2);`
inline bool use_threads(benchmark::State& state, int threads) {
  if (!threads_available(threads)) {
    state.SkipWithError("tack was built without OpenMP: only one thread");
    return false;
  }
#if TACK_HAS_OPENMP
  omp_set_num_threads(threads);
#endif
  return true;
}

/// Reports `total` (summed over the timed loop) as a per-iteration average counter.
/// `per_iteration(state, "faults", double(page_faults() - f0));`
inline void per_iteration(benchmark::State& state, const char* name, double total) {
  state.counters[name] = benchmark::Counter(total, benchmark::Counter::kAvgIterations);
}

/// Sets tack's thread count to `t` for a `t`-thread variant, or skips it (use_threads).
inline bool threads(benchmark::State& state, int t) {
  if (!use_threads(state, t)) return false;
  tack::set_num_threads(t);
  return true;
}

}  // namespace tack::bench

// The hand-written references' OpenMP pragmas: without OpenMP their loops run serially (and the
// two-thread variants skip themselves, use_threads), without an unknown-pragma warning.
#if TACK_HAS_OPENMP
#define TACK_BENCH_OMP(x) _Pragma(#x)
#else
#define TACK_BENCH_OMP(x)
#endif
