// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
// push_back of 2^25 doubles into tack::array<double> and std::vector<double>, without reserve, with
// reserve, and into capacity that is already touched (which isolates the per-element cost from the
// first touch of fresh memory, the dominant cost of the first two). Each iteration builds and frees
// the whole container, so allocation, first touch, reallocation copies and the final free are timed
// for both sides alike.
#include "common/alloc_counter.hpp"
#include "common/bench_util.hpp"

#include <tack/array/factories.hpp>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <vector>

#include <sys/mman.h>

namespace {
using namespace tack::bench;
constexpr std::size_t n = large_n;

// The tack side is what users write: `tack::array<double> a;` with the default allocator. (A
// counting wrapper around the allocator would hide any allocator-specific growth path.) `allocs`
// counts the global operator new calls: the vector's reallocations, and for tack its handle
// bookkeeping only, since tack's buffers come from its allocator (aligned_alloc / mmap).
tack::array<double> new_tack_array() { return tack::array<double>(); }

void finish(benchmark::State& state, long allocs, std::int64_t faults) {
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * n));
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * n * sizeof(double)));
  per_iteration(state, "allocs", static_cast<double>(allocs));
  per_iteration(state, "faults", static_cast<double>(faults));
}

template <bool Reserve>
void tack_push_back(benchmark::State& state) {
  const long a0 = new_calls();
  const auto f0 = page_faults();
  for (auto _ : state) {
    auto a = new_tack_array();
    if constexpr (Reserve) a.reserve(static_cast<tack::index_t>(n));
    for (std::size_t i = 0; i < n; ++i) a.push_back(static_cast<double>(i));
    benchmark::DoNotOptimize(a.data());
    benchmark::ClobberMemory();
  }
  finish(state, new_calls() - a0, page_faults() - f0);
}

template <bool Reserve>
void vector_push_back(benchmark::State& state) {
  const long a0 = new_calls();
  const auto f0 = page_faults();
  for (auto _ : state) {
    std::vector<double> v;
    if constexpr (Reserve) v.reserve(n);
    for (std::size_t i = 0; i < n; ++i) v.push_back(static_cast<double>(i));
    benchmark::DoNotOptimize(v.data());
    benchmark::ClobberMemory();
  }
  finish(state, new_calls() - a0, page_faults() - f0);
}

// Capacity reserved and touched before timing; each iteration clears and refills.
void tack_push_back_touched(benchmark::State& state) {
  auto a = new_tack_array();
  a.reserve(static_cast<tack::index_t>(n));
  for (std::size_t i = 0; i < n; ++i) a.push_back(0.5);
  const long a0 = new_calls();
  const auto f0 = page_faults();
  for (auto _ : state) {
    a.clear();
    for (std::size_t i = 0; i < n; ++i) a.push_back(static_cast<double>(i));
    benchmark::DoNotOptimize(a.data());
    benchmark::ClobberMemory();
  }
  finish(state, new_calls() - a0, page_faults() - f0);
}

void vector_push_back_touched(benchmark::State& state) {
  std::vector<double> v(n, 0.5);
  const long a0 = new_calls();
  const auto f0 = page_faults();
  for (auto _ : state) {
    v.clear();
    for (std::size_t i = 0; i < n; ++i) v.push_back(static_cast<double>(i));
    benchmark::DoNotOptimize(v.data());
    benchmark::ClobberMemory();
  }
  finish(state, new_calls() - a0, page_faults() - f0);
}

// ---- prototypes of library changes (not the library's code) ----------------------------------------
// proto_fastpath: the library's push_back fast path (root, room left, growable, host, writable),
// inlined into the caller and operating on the real tack storage, with the write version bumped by a
// relaxed load and store instead of an atomic read-modify-write (`lock add`, which serializes the
// loop). Growth of one array from several threads is not supported anyway, so the RMW buys nothing.
// The Atomic variant keeps the RMW to separate the two effects. A full array grows through the
// library's own push_back, so growth costs are the library's.
template <bool Atomic>
class proto_appender {
public:
  explicit proto_appender(tack::array<double> a)
      : a_(std::move(a)),
        st_(tack::detail::array_access::storage_of(a_).get()),
        bs_(static_cast<tack::detail::buffer_state*>(st_->buf.keep_alive().get())) {}

  void push_back(double v) {
    const tack::index_t n = st_->extents[0];
    if (static_cast<std::size_t>(n + 1) * sizeof(double) <= bs_->capacity && st_->growable &&
        bs_->host_accessible && !bs_->read_only) [[likely]] {
      static_cast<double*>(bs_->data)[n] = v;
      st_->extents[0] = n + 1;
      if constexpr (Atomic) {
        bs_->version.fetch_add(1, std::memory_order_relaxed);
      } else {
        bs_->version.store(bs_->version.load(std::memory_order_relaxed) + 1,
                           std::memory_order_relaxed);
      }
      return;
    }
    a_.push_back(v);  // the library's growth
  }
  const tack::array<double>& array() const { return a_; }

private:
  tack::array<double> a_;
  tack::detail::storage* st_;
  tack::detail::buffer_state* bs_;
};

template <bool Atomic, bool Reserve>
void proto_push_back(benchmark::State& state) {
  const long a0 = new_calls();
  const auto f0 = page_faults();
  for (auto _ : state) {
    auto a = new_tack_array();
    if constexpr (Reserve) a.reserve(static_cast<tack::index_t>(n));
    proto_appender<Atomic> p(std::move(a));
    for (std::size_t i = 0; i < n; ++i) p.push_back(static_cast<double>(i));
    benchmark::DoNotOptimize(p.array().data());
    benchmark::ClobberMemory();
  }
  finish(state, new_calls() - a0, page_faults() - f0);
}

template <bool Atomic>
void proto_push_back_touched(benchmark::State& state) {
  auto a = new_tack_array();
  a.reserve(static_cast<tack::index_t>(n));
  for (std::size_t i = 0; i < n; ++i) a.push_back(0.5);
  const long a0 = new_calls();
  const auto f0 = page_faults();
  for (auto _ : state) {
    a.clear();
    proto_appender<Atomic> p(a);
    for (std::size_t i = 0; i < n; ++i) p.push_back(static_cast<double>(i));
    benchmark::DoNotOptimize(p.array().data());
    benchmark::ClobberMemory();
  }
  finish(state, new_calls() - a0, page_faults() - f0);
}

// proto_mremap: growth that does not copy. Blocks of 2 MiB and more are 2 MiB-aligned anonymous
// mappings on transparent huge pages, as the library's host allocator makes them; growing one asks
// the kernel to move its page tables into a larger aligned mapping (mremap), so the values already
// written are neither copied nor is fresh memory touched for them: only the new half is touched.
// Same growth rule (capacity * 2 + 0.5) and the fast path above.
class proto_mremap_array {
public:
  static constexpr std::size_t huge = std::size_t{2} << 20;
  proto_mremap_array() = default;
  proto_mremap_array(const proto_mremap_array&) = delete;
  proto_mremap_array& operator=(const proto_mremap_array&) = delete;
  ~proto_mremap_array() { release(data_, cap_ * sizeof(double)); }

  void reserve(std::size_t c) {
    if (c > cap_) regrow(c);
  }
  void push_back(double v) {
    if (size_ == cap_) [[unlikely]]
      regrow(std::max(static_cast<std::size_t>(static_cast<double>(cap_) * 2.0 + 0.5), size_ + 1));
    data_[size_++] = v;
    version_.store(version_.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
  }
  double* data() const { return data_; }

private:
  static std::size_t round_up(std::size_t v, std::size_t a) { return (v + a - 1) / a * a; }
  // A 2 MiB-aligned reservation of `bytes` (rounded up), PROT_NONE unless `usable`.
  static void* reserve_aligned(std::size_t bytes, bool usable) {
    const std::size_t size = round_up(bytes, huge);
    void* raw = mmap(nullptr, size + huge, usable ? PROT_READ | PROT_WRITE : PROT_NONE,
                     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (raw == MAP_FAILED) throw std::bad_alloc();
    const auto base = reinterpret_cast<std::uintptr_t>(raw);
    const auto aligned = round_up(base, huge);
    if (aligned > base) munmap(raw, aligned - base);
    if (base + huge > aligned)
      munmap(reinterpret_cast<void*>(aligned + size), base + huge - aligned);
    return reinterpret_cast<void*>(aligned);
  }
  static void release(double* p, std::size_t bytes) {
    if (!p) return;
    if (bytes < huge)
      std::free(p);
    else
      munmap(p, round_up(bytes, huge));
  }
  void regrow(std::size_t new_cap) {
    const std::size_t old_bytes = cap_ * sizeof(double), new_bytes = new_cap * sizeof(double);
    double* fresh;
    if (new_bytes < huge) {
      fresh = static_cast<double*>(std::aligned_alloc(64, round_up(new_bytes, 64)));
      if (!fresh) throw std::bad_alloc();
      if (size_) std::memcpy(fresh, data_, size_ * sizeof(double));
      release(data_, old_bytes);
    } else if (old_bytes < huge) {
      fresh = static_cast<double*>(reserve_aligned(new_bytes, true));
      madvise(fresh, round_up(new_bytes, huge), MADV_HUGEPAGE);
      if (size_) std::memcpy(fresh, data_, size_ * sizeof(double));
      release(data_, old_bytes);
    } else {
      void* target = reserve_aligned(new_bytes, false);
      void* moved = mremap(data_, round_up(old_bytes, huge), round_up(new_bytes, huge),
                           MREMAP_MAYMOVE | MREMAP_FIXED, target);
      if (moved == MAP_FAILED) throw std::bad_alloc();
      fresh = static_cast<double*>(moved);
      madvise(fresh, round_up(new_bytes, huge), MADV_HUGEPAGE);
    }
    data_ = fresh;
    cap_ = new_cap;
  }

  double* data_ = nullptr;
  std::size_t size_ = 0, cap_ = 0;
  std::atomic<std::uint64_t> version_{0};
};

template <bool Reserve>
void proto_mremap_push_back(benchmark::State& state) {
  const auto f0 = page_faults();
  for (auto _ : state) {
    proto_mremap_array a;
    if constexpr (Reserve) a.reserve(n);
    for (std::size_t i = 0; i < n; ++i) a.push_back(static_cast<double>(i));
    benchmark::DoNotOptimize(a.data());
    benchmark::ClobberMemory();
  }
  finish(state, 0, page_faults() - f0);
}

[[maybe_unused]] const bool registered = [] {
  add("push_back", "tack", tack_push_back<false>);
  add("push_back", "ref_vector", vector_push_back<false>);
  add("push_back_reserve", "tack", tack_push_back<true>);
  add("push_back_reserve", "ref_vector", vector_push_back<true>);
  add("push_back_touched", "tack", tack_push_back_touched);
  add("push_back_touched", "ref_vector", vector_push_back_touched);
  add("push_back", "proto_fastpath", proto_push_back<false, false>);
  add("push_back", "proto_mremap", proto_mremap_push_back<false>);
  add("push_back_reserve", "proto_fastpath", proto_push_back<false, true>);
  add("push_back_reserve", "proto_mremap", proto_mremap_push_back<true>);
  add("push_back_touched", "proto_fastpath", proto_push_back_touched<false>);
  add("push_back_touched", "proto_atomic", proto_push_back_touched<true>);
  return true;
}();

}  // namespace
