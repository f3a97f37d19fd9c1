// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
#pragma once
/// @file Allocation counters: a replacement global `operator new`/`delete` that counts calls and
/// bytes (what `std::vector` allocates; tack's buffers come from its allocator registry and bypass
/// it). Include this header in exactly one translation unit per executable: it defines the global
/// replacement operators.
/// `auto before = tack::bench::new_calls(); v.push_back(1); auto calls = tack::bench::new_calls() - before;`

#include <atomic>
#include <cstddef>
#include <cstdlib>
#include <new>

#ifdef TACK_BENCH_ALLOC_COUNTER_INCLUDED
#error "benchmarks/common/alloc_counter.hpp defines operator new: include it in one file only"
#endif
#define TACK_BENCH_ALLOC_COUNTER_INCLUDED 1

// ThreadSanitizer's runtime defines the global allocation functions itself (clang links them
// statically), so under TSan nothing is replaced and nothing is counted.
#if defined(__SANITIZE_THREAD__)
#define TACK_BENCH_COUNTS_ALLOCATIONS 0
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define TACK_BENCH_COUNTS_ALLOCATIONS 0
#endif
#endif
#ifndef TACK_BENCH_COUNTS_ALLOCATIONS
#define TACK_BENCH_COUNTS_ALLOCATIONS 1
#endif

namespace tack::bench {
/// Whether `new_calls()` counts (false under ThreadSanitizer). `if (tack::bench::counts_allocations)`
inline constexpr bool counts_allocations = TACK_BENCH_COUNTS_ALLOCATIONS != 0;

namespace detail {
inline std::atomic<long> new_calls{0};
inline std::atomic<long long> new_bytes{0};
}  // namespace detail

/// Calls of the global `operator new` so far. `long n = tack::bench::new_calls();`
inline long new_calls() { return detail::new_calls.load(std::memory_order_relaxed); }
/// Bytes requested from the global `operator new` so far.
inline long long new_bytes() { return detail::new_bytes.load(std::memory_order_relaxed); }

}  // namespace tack::bench

#if TACK_BENCH_COUNTS_ALLOCATIONS
// ---- the replacement global allocation functions -------------------------------------------------
// GCC's -Wmismatched-new-delete sees the std::free below pair with the std::malloc of the
// replacement operator new once both are inlined into a caller; they do pair, by construction.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"
#endif
// Only the plain and aligned forms need replacing: the nothrow and array forms call these.

void* operator new(std::size_t bytes) {
  tack::bench::detail::new_calls.fetch_add(1, std::memory_order_relaxed);
  tack::bench::detail::new_bytes.fetch_add(static_cast<long long>(bytes),
                                           std::memory_order_relaxed);
  if (void* p = std::malloc(bytes ? bytes : 1)) return p;
  throw std::bad_alloc();
}
void* operator new(std::size_t bytes, std::align_val_t align) {
  tack::bench::detail::new_calls.fetch_add(1, std::memory_order_relaxed);
  tack::bench::detail::new_bytes.fetch_add(static_cast<long long>(bytes),
                                           std::memory_order_relaxed);
  const auto a = static_cast<std::size_t>(align);
  if (void* p = std::aligned_alloc(a, bytes ? (bytes + a - 1) / a * a : a)) return p;
  throw std::bad_alloc();
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete(void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete(void* p, std::size_t, std::align_val_t) noexcept { std::free(p); }
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif
#endif  // TACK_BENCH_COUNTS_ALLOCATIONS
