// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
#pragma once
/// @file The building blocks the two CPU backends share: the fixed block decomposition of
/// reductions and scans, the vectorizable pairwise reduction of one block, and the capture of the
/// first exception thrown by a kernel.
///
/// Why a fixed decomposition: a reduction's result depends on how its operands are grouped. The
/// blocks here depend on `n` alone (never on the thread count), threads take whole blocks, and the
/// block partials are combined in a fixed pairwise tree, so serial and OpenMP runs with any number
/// of threads give bit-identical results.

#include <tack/core/index.hpp>
#include <tack/core/macros.hpp>
#include <tack/exec/ops.hpp>

#if defined(__GNUC__) && defined(__x86_64__) && !defined(__CUDACC__) && !defined(__HIP__)
#include <cpuid.h>
#endif

#include <atomic>
#include <concepts>
#include <cstdint>
#include <exception>
#include <type_traits>

namespace tack::detail {

/// Blocks of a reduction or scan over `[0, n)`: at least `min_block` indices each (so that the
/// per-block work hides the cost of a thread), at most `max_blocks` of them (so the partials stay
/// small), balanced to within one index. Depends on `n` only.
struct cpu_blocks {
  static constexpr index_t min_block = 1024;
  static constexpr index_t max_blocks = 1024;

  index_t n = 0;
  index_t count = 1;

  explicit constexpr cpu_blocks(index_t n_) noexcept : n(n_) {
    const index_t wanted = (n_ + min_block - 1) / min_block;
    count = wanted < 1 ? 1 : (wanted > max_blocks ? max_blocks : wanted);
  }
  /// First index of block `b` (`begin(count) == n`), without overflow for any `n`.
  constexpr index_t begin(index_t b) const noexcept {
    const index_t q = n / count;
    const index_t r = n % count;
    return b * q + (b < r ? b : r);
  }
  /// The blocks thread `t` of `threads` takes: `[first, last)`, contiguous, balanced.
  constexpr index_t first_of_thread(int t, int threads) const noexcept {
    return count * t / threads;
  }
};

/// Accumulators per leaf: enough independent chains to fill the vector registers (16 floats,
/// 8 doubles), fewer for wide element types that would spill.
template <class T>
inline constexpr int reduce_lanes = sizeof(T) <= 4 ? 16 : (sizeof(T) <= 8 ? 8 : 4);

/// Indices per leaf of the pairwise tree: each accumulator sums at most 32 values in order.
template <class T>
inline constexpr index_t reduce_leaf_size = 32 * reduce_lanes<T>;

/// How far ahead of its loop a leaf over stored operands asks for memory: one software prefetch
/// per 64-byte iteration, 1 KiB ahead, non-temporal (the values are read once), so that a
/// thread's read stream does not wait on the hardware prefetcher alone. The distance and hint
/// were chosen by measurement (docs/decisions.md, "Reductions").
inline constexpr std::uintptr_t reduce_prefetch_bytes = 1024;

/// Whether a CPUID leaf-1 signature (`eax`) of an AMD CPU is a Zen 3: family 19h, models 00h-0Fh,
/// 20h-2Fh, 40h-5Fh (a Zen 4 is family 19h model 10h-1Fh, 60h-7Fh, A0h-AFh).
/// `is_zen3_signature(0x00A00F11) == true` (EPYC Milan), `is_zen3_signature(0x00A10F11) == false`.
constexpr bool is_zen3_signature(unsigned eax) noexcept {
  const unsigned base = (eax >> 8) & 0xFu;
  const unsigned family = base + (base == 0xFu ? (eax >> 20) & 0xFFu : 0u);
  const unsigned model = ((eax >> 4) & 0xFu) | (((eax >> 16) & 0xFu) << 4);
  return family == 0x19u && (model <= 0x0Fu || (model >= 0x20u && model <= 0x2Fu) ||
                             (model >= 0x40u && model <= 0x5Fu));
}

/// Whether the leaves prefetch on this CPU: on the CPUs where it was measured to pay, AMD Zen 3.
/// On a Zen 4 the same prefetches made `sum` of stored doubles slower on one and two threads; on
/// CPUs not measured the hardware prefetcher is left to it. Read once, at start-up (compilers'
/// `__builtin_cpu_is` cannot tell: GCC 12 calls a Zen 4 "znver3").
inline const bool reduce_prefetch_pays = [] {
#if defined(__GNUC__) && defined(__x86_64__) && !TACK_IMPL_DEVICE_PASS && !defined(__CUDACC__) && \
    !defined(__HIP__)
  unsigned a = 0, b = 0, c = 0, d = 0;
  // "AuthenticAMD" in ebx, edx, ecx
  if (!__get_cpuid(0, &a, &b, &c, &d) || b != 0x68747541u || d != 0x69746e65u || c != 0x444d4163u) {
    return false;
  }
  return __get_cpuid(1, &a, &b, &c, &d) && is_zen3_signature(a);
#else
  return false;
#endif
}();

/// Whether a leaf prefetches: the reader says where its operands live (`operand_address(j)`,
/// consecutive scalars) and one lane iteration covers at least a cache line. GCC and Clang only.
template <class T, class F>
inline constexpr bool prefetches_operands_v =
#if defined(__GNUC__) && !TACK_IMPL_DEVICE_PASS
    requires(const F& f, index_t j) {
  { f.operand_address(j) } -> std::same_as<std::uintptr_t>;
}
&&reduce_lanes<T> * sizeof(T) >= 64;
#else
    false;
#endif

/// Combines `f(begin) ... f(end - 1)` (`end > begin`) with `reduce_lanes<T>` independent
/// accumulators, which breaks the dependency chain of a strict-order loop: the loop vectorizes and
/// rounding errors grow with `len / lanes` instead of `len` (a strict-order sum never
/// vectorizes). The accumulators are combined pairwise, in a fixed order.
template <class T, class F, class Op>
inline T reduce_leaf(index_t begin, index_t end, const F& f, const Op& op) {
  constexpr int lanes = reduce_lanes<T>;
  if (end - begin < 2 * lanes) {
    T acc = static_cast<T>(f(begin));
    for (index_t i = begin + 1; i < end; ++i) acc = op(acc, static_cast<T>(f(i)));
    return acc;
  }
  T acc[lanes];
  for (int k = 0; k < lanes; ++k) acc[k] = static_cast<T>(f(begin + k));
  index_t i = begin + lanes;
  for (; i + lanes <= end; i += lanes) {
    if constexpr (prefetches_operands_v<T, F>) {
      if (reduce_prefetch_pays)
        __builtin_prefetch(
            reinterpret_cast<const void*>(f.operand_address(i) + reduce_prefetch_bytes), 0, 0);
    }
    for (int k = 0; k < lanes; ++k) acc[k] = op(acc[k], static_cast<T>(f(i + k)));
  }
  for (int k = 0; i < end; ++i, ++k) acc[k] = op(acc[k], static_cast<T>(f(i)));
  for (int width = lanes / 2; width >= 1; width /= 2) {
    for (int k = 0; k < width; ++k) acc[k] = op(acc[k], acc[k + width]);
  }
  return acc[0];
}

/// Whether a leaf leaves the grouping of its operands to the compiler's vectorizer: sums of
/// arithmetic scalars asked for with `regrouped_plus`. For values computed from the index, OpenMP's
/// `simd reduction` gives the loop a hand-written reduction has (vector partial sums, a vector
/// induction), where the lane loop of `reduce_leaf` is vectorized across its lanes with the index
/// arithmetic left scalar. For values read from memory the lane loop is faster (four vector
/// accumulators against the one or two of `simd reduction`, whose add latency then limits a
/// thread's read rate): `ops::plus` keeps it (figures in docs/performance.md).
template <class T, class Op>
inline constexpr bool vectorizer_sum_v =
    std::is_same_v<Op, regrouped_plus>&& std::is_arithmetic_v<T> && !std::is_same_v<T, bool>;

/// Indices per leaf of a `vectorizer_sum_v` reduction: larger leaves than `reduce_leaf_size`
/// because each costs a horizontal sum and a mispredicted loop exit; each vector lane still sums
/// at most `1024 / width` values in order (256 for doubles with SSE2, 128 with AVX2).
inline constexpr index_t vectorizer_leaf_size = 1024;

#if defined(_OPENMP) && !TACK_IMPL_DEVICE_PASS
// (The reduction variable is always named `sum`: _Pragma takes one string literal.)
#define TACK_IMPL_SIMD_SUM _Pragma("omp simd reduction(+ : sum)")
#else
#define TACK_IMPL_SIMD_SUM
#endif

/// `f(begin) + ... + f(end - 1)` (`0 < end - begin <= vectorizer_leaf_size`) grouped by the
/// vectorizer. Not inlined, so that every call of one instantiation, from either backend and any
/// thread, runs the same machine code and groups the same way: the sum is bit-identical for every
/// thread count and backend (the tests check it), though another compiler or `-march` may round
/// differently. The index inside the leaf is 32-bit, so the vectorizer keeps a 32-bit induction
/// (kernels that narrow the index, such as `counting<int>`, then need no 64-bit vector lanes);
/// with AVX-512DQ, floating-point sums keep a 64-bit index, which converts to floating point in
/// one vector instruction where a 32-bit one must first be widened.
template <class T, class F>
TACK_IMPL_NOINLINE T reduce_leaf_vectorized_sum(index_t begin, index_t end, const F& f) {
#if defined(__AVX512DQ__)
  using leaf_index = std::conditional_t<std::is_floating_point_v<T>, index_t, int>;
#else
  using leaf_index = int;
#endif
  T sum = static_cast<T>(f(begin));
  const auto len = static_cast<leaf_index>(end - begin);
  TACK_IMPL_SIMD_SUM
  for (leaf_index j = 1; j < len; ++j) sum += static_cast<T>(f(begin + j));
  return sum;
}

/// Combines `f(begin) ... f(end - 1)` (`end > begin`) in index order, one operand at a time: the
/// leaf for ops that do not commute (`ops::commutative_v`), whose operands may not be interleaved
/// across lanes.
template <class T, class F, class Op>
inline T reduce_leaf_in_order(index_t begin, index_t end, const F& f, const Op& op) {
  T acc = static_cast<T>(f(begin));
  for (index_t i = begin + 1; i < end; ++i) acc = op(acc, static_cast<T>(f(i)));
  return acc;
}

/// Pairwise (cascade) combination of `f(begin) ... f(end - 1)`: halves down to leaves, so the
/// rounding error grows like log2(len) (NumPy sums this way). Deterministic for given bounds. The
/// halves are combined left operand first, so an op that does not commute keeps its order.
template <class T, class F, class Op>
T reduce_pairwise(index_t begin, index_t end, const F& f, const Op& op) {
  const index_t len = end - begin;
  if constexpr (vectorizer_sum_v<T, Op>) {
    if (len <= vectorizer_leaf_size) return reduce_leaf_vectorized_sum<T>(begin, end, f);
  } else if constexpr (!ops::commutative_v<Op, T>) {
    if (len <= reduce_leaf_size<T>) return reduce_leaf_in_order<T>(begin, end, f, op);
  } else {
    if (len <= reduce_leaf_size<T>) return reduce_leaf<T>(begin, end, f, op);
  }
  // Split on a multiple of 64 indices (of the lane count for lane leaves) so that every leaf but
  // the last is whole vectors.
  constexpr index_t grain = vectorizer_sum_v<T, Op> ? 64 : reduce_lanes<T>;
  index_t half = len / 2;
  half -= half % grain;
  const T left = reduce_pairwise<T>(begin, begin + half, f, op);
  return op(left, reduce_pairwise<T>(begin + half, end, f, op));
}

/// Combines blocks `[first, last)` of `blocks` (`last > first`): each block pairwise, then the
/// blocks' results in the same tree as `combine_partials`, so a run that reduces the blocks on
/// several threads and combines the stored partials gets the same bits.
template <class T, class F, class Op>
T reduce_blocks(const cpu_blocks& blocks, index_t first, index_t last, const F& f, const Op& op) {
  if (last - first == 1) return reduce_pairwise<T>(blocks.begin(first), blocks.begin(last), f, op);
  const index_t half = (last - first) / 2;
  const T left = reduce_blocks<T>(blocks, first, first + half, f, op);
  return op(left, reduce_blocks<T>(blocks, first + half, last, f, op));
}

/// Pairwise combination of `count > 0` partials, in their order.
template <class T, class Op>
T combine_partials(const T* partials, index_t count, const Op& op) {
  if (count == 1) return partials[0];
  const index_t half = count / 2;
  const T left = combine_partials(partials, half, op);
  return op(left, combine_partials(partials + half, count - half, op));
}

/// Calls `store(i, exclusive, inclusive)` for `i` in `[begin, end)` with the running prefix
/// started at `prefix`, in index order; returns the prefix after `end - 1`.
template <class T, class V, class S, class Op>
inline T scan_sequential(index_t begin, index_t end, T prefix, const V& value, const S& store,
                         const Op& op) {
  for (index_t i = begin; i < end; ++i) {
    const T inclusive = op(prefix, static_cast<T>(value(i)));
    store(i, prefix, inclusive);
    prefix = inclusive;
  }
  return prefix;
}

/// Calls `g(f_local)` with a copy of the kernel made by the calling thread. Kernels hold pointers;
/// a kernel read through a reference to shared memory must be reloaded after every store it makes
/// (the store might alias it), which stops vectorization. A local copy cannot alias.
template <class F, class G>
inline void with_local_kernel(const F& f, const G& g) {
  if constexpr (std::is_copy_constructible_v<F>) {
    const F local(f);
    g(local);
  } else {
    g(f);
  }
}

/// Whether a functor runs a range of indices itself (`f.run_range(begin, end)` on the calling
/// thread): `launch`'s restrict functor does, so that its loop takes the view pointers as
/// `restrict` parameters. The CPU backends call it instead of looping over `f(i)`.
template <class F>
concept has_run_range = requires(const F& f, index_t i) {
  f.run_range(i, i);
};

/// The first exception thrown by any thread of a parallel region. Threads check `stopped()` before
/// each chunk of work, so they stop soon after a failure; the caller rethrows after the region,
/// once every thread has left it (an exception must never leave an OpenMP region).
class first_exception {
public:
  /// Whether some thread has failed (relaxed: a late observer only does a little extra work).
  bool stopped() const noexcept { return failed_.load(std::memory_order_relaxed); }

  /// Records `std::current_exception()` if no thread did before; call from a catch block.
  void capture() noexcept {
    if (!claimed_.exchange(true, std::memory_order_acq_rel)) error_ = std::current_exception();
    failed_.store(true, std::memory_order_relaxed);
  }

  /// Rethrows the recorded exception, if any. Call after the region has joined.
  void rethrow_if_failed() const {
    if (error_) std::rethrow_exception(error_);
  }

private:
  std::atomic<bool> failed_{false};
  std::atomic<bool> claimed_{false};
  std::exception_ptr error_;
};

}  // namespace tack::detail
