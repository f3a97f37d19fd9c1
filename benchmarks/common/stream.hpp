// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
#pragma once
/// @file STREAM-like reference kernels, measured in the same run as the library: a plain loop (what a
/// user writes), glibc `memcpy`, and copies and fills with non-temporal (streaming) stores, which are
/// the machine's practical bandwidth limit for arrays larger than the last-level cache. Each takes a
/// thread count and splits the range into one contiguous piece per OpenMP thread, as the library does.
/// `tack::bench::stream_copy(dst, src, n, 2);`

#include <tack/config.hpp>

#include <cstddef>
#include <cstdint>
#include <cstring>

#if defined(__x86_64__)
#include <immintrin.h>
#endif
#if TACK_HAS_OPENMP
#include <omp.h>
#endif

namespace tack::bench {
namespace detail {

// Runs body(begin, end) on `threads` contiguous pieces of [0, n).
template <class Body>
void split(std::size_t n, int threads, Body body) {
#if TACK_HAS_OPENMP
  if (threads > 1) {
#pragma omp parallel num_threads(threads)
    {
      const auto t = static_cast<std::size_t>(omp_get_thread_num());
      const auto k = static_cast<std::size_t>(omp_get_num_threads());
      // Piece boundaries on multiples of 8 doubles (64 bytes) so no two threads share a line.
      auto at = [&](std::size_t i) { return i >= k ? n : (n / k * i) & ~std::size_t{7}; };
      body(at(t), at(t + 1));
    }
    return;
  }
#endif
  (void)threads;
  body(std::size_t{0}, n);
}

// The plain loops are compiled without loop-pattern distribution: GCC otherwise turns the copy loop
// into a memcpy call, and the reference would no longer be the loop a user writes.
#if defined(__GNUC__) && !defined(__clang__)
#define TACK_BENCH_PLAIN_LOOP [[gnu::noinline, gnu::optimize("no-tree-loop-distribute-patterns")]]
#else
#define TACK_BENCH_PLAIN_LOOP [[gnu::noinline]]
#endif

TACK_BENCH_PLAIN_LOOP inline void plain_copy_piece(double* __restrict dst,
                                                   const double* __restrict src, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) dst[i] = src[i];
}

TACK_BENCH_PLAIN_LOOP inline void plain_fill_piece(double* __restrict dst, double v,
                                                   std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) dst[i] = v;
}

[[gnu::noinline]] inline void stream_copy_piece(double* __restrict dst,
                                                const double* __restrict src, std::size_t n) {
  std::size_t i = 0;
#if defined(__AVX__)
  for (; i < n && (reinterpret_cast<std::uintptr_t>(dst + i) & 31); ++i) dst[i] = src[i];
  for (; i + 8 <= n; i += 8) {
    _mm256_stream_pd(dst + i, _mm256_loadu_pd(src + i));
    _mm256_stream_pd(dst + i + 4, _mm256_loadu_pd(src + i + 4));
  }
  _mm_sfence();
#elif defined(__SSE2__)
  for (; i < n && (reinterpret_cast<std::uintptr_t>(dst + i) & 15); ++i) dst[i] = src[i];
  for (; i + 8 <= n; i += 8) {
    _mm_stream_pd(dst + i, _mm_loadu_pd(src + i));
    _mm_stream_pd(dst + i + 2, _mm_loadu_pd(src + i + 2));
    _mm_stream_pd(dst + i + 4, _mm_loadu_pd(src + i + 4));
    _mm_stream_pd(dst + i + 6, _mm_loadu_pd(src + i + 6));
  }
  _mm_sfence();
#endif
  for (; i < n; ++i) dst[i] = src[i];
}

[[gnu::noinline]] inline void stream_fill_piece(double* __restrict dst, double v, std::size_t n) {
  std::size_t i = 0;
#if defined(__AVX__)
  for (; i < n && (reinterpret_cast<std::uintptr_t>(dst + i) & 31); ++i) dst[i] = v;
  const __m256d x = _mm256_set1_pd(v);
  for (; i + 8 <= n; i += 8) {
    _mm256_stream_pd(dst + i, x);
    _mm256_stream_pd(dst + i + 4, x);
  }
  _mm_sfence();
#elif defined(__SSE2__)
  for (; i < n && (reinterpret_cast<std::uintptr_t>(dst + i) & 15); ++i) dst[i] = v;
  const __m128d x = _mm_set1_pd(v);
  for (; i + 8 <= n; i += 8) {
    _mm_stream_pd(dst + i, x);
    _mm_stream_pd(dst + i + 2, x);
    _mm_stream_pd(dst + i + 4, x);
    _mm_stream_pd(dst + i + 6, x);
  }
  _mm_sfence();
#endif
  for (; i < n; ++i) dst[i] = v;
}

}  // namespace detail

/// `dst[i] = src[i]` as a plain loop (vectorized, ordinary stores).
inline void plain_copy(double* dst, const double* src, std::size_t n, int threads = 1) {
  detail::split(n, threads, [&](std::size_t b, std::size_t e) {
    detail::plain_copy_piece(dst + b, src + b, e - b);
  });
}

/// glibc `memcpy`, one call per thread's piece.
inline void memcpy_copy(double* dst, const double* src, std::size_t n, int threads = 1) {
  detail::split(n, threads, [&](std::size_t b, std::size_t e) {
    std::memcpy(dst + b, src + b, (e - b) * sizeof(double));
  });
}

/// STREAM copy with non-temporal stores: the bandwidth limit of a copy beyond the LLC.
inline void stream_copy(double* dst, const double* src, std::size_t n, int threads = 1) {
  detail::split(n, threads, [&](std::size_t b, std::size_t e) {
    detail::stream_copy_piece(dst + b, src + b, e - b);
  });
}

/// `dst[i] = v` as a plain loop (ordinary stores: each line is read before it is written).
inline void plain_fill(double* dst, double v, std::size_t n, int threads = 1) {
  detail::split(n, threads,
                [&](std::size_t b, std::size_t e) { detail::plain_fill_piece(dst + b, v, e - b); });
}

/// Fill with non-temporal stores: the bandwidth limit of a fill beyond the LLC.
inline void stream_fill(double* dst, double v, std::size_t n, int threads = 1) {
  detail::split(n, threads, [&](std::size_t b, std::size_t e) {
    detail::stream_fill_piece(dst + b, v, e - b);
  });
}

}  // namespace tack::bench
