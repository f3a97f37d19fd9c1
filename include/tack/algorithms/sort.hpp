// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
#pragma once
/// @file Sorting rank-1 `tack::array`s of scalars in place: `sort(a)`,
/// `sort_by_key(keys, values)`.
///
/// Ascending; NaNs go last, as in NumPy. On the CPU with several threads (OpenMP): one block per
/// thread sorted with `std::sort`, then rounds of pairwise merges, each merge split into
/// independent pieces by merge-path co-ranks so that every round, the last included, keeps all
/// threads busy. `sort` is not stable (equal keys are indistinguishable anyway); `sort_by_key` is
/// stable (ties keep the values' order), so its result does not depend on the thread count.
/// Arrays in device memory are sorted on their GPU (`detail::cuda_sort`, src/cuda/sort.cu): CUB's
/// radix sort (floating-point keys: NaNs moved to the end first, keeping their bits);
/// `sort_by_key` sorts the keys with their positions (stable) and permutes the values on the
/// device. In a build without CUDA they are a `device_error`.

#include <tack/algorithms/reduce.hpp>
#include <tack/array/array.hpp>
#include <tack/config.hpp>
#include <tack/detail/cuda_runtime.hpp>
#include <tack/exec/backend.hpp>
#include <tack/exec/parallel_for.hpp>
#include <tack/exec/threads.hpp>

#include <algorithm>
#include <functional>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace tack {
namespace detail {

/// Ascending order with NaNs last (a strict weak order even with NaNs, which `<` is not).
struct sort_less {
  template <class T>
  constexpr bool operator()(const T& a, const T& b) const {
    if constexpr (std::is_floating_point_v<T>) {
      return a < b || (b != b && a == a);
    } else {
      return a < b;
    }
  }
};

/// Elements below which sorting in parallel does not pay off, and the least a thread sorts.
inline constexpr index_t parallel_sort_threshold = 1 << 15;
inline constexpr index_t parallel_sort_min_block = 1 << 13;

/// How many of the first `k` merged outputs of `a[0, m)` and `b[0, l)` come from `a` (merge path
/// co-rank; ties take `a` first, as `std::merge` does).
template <class T, class Comp>
index_t merge_corank(index_t k, const T* a, index_t m, const T* b, index_t l, const Comp& comp) {
  index_t lo = k > l ? k - l : 0;
  index_t hi = k < m ? k : m;
  while (lo < hi) {
    const index_t i = lo + (hi - lo) / 2;
    const index_t j = k - i;
    // a[i] belongs before b[j - 1] (ties go to `a`): more of `a` is in the first k.
    if (j > 0 && !comp(b[j - 1], a[i])) {
      lo = i + 1;
    } else {
      hi = i;
    }
  }
  return lo;
}

/// Sorts `data[0, n)` with `comp` (a strict weak order), in parallel on the OpenMP backend when
/// it is available, several threads are configured and `n` is large enough.
template <class T, class Comp>
void parallel_sort(T* data, index_t n, const Comp& comp) {
  const int threads = num_threads();
  if constexpr (backend_available_v<openmp_backend>) {
    if (threads > 1 && n >= parallel_sort_threshold) {
      index_t blocks = n / parallel_sort_min_block;
      if (blocks > threads) blocks = threads;
      std::vector<index_t> bounds(static_cast<std::size_t>(blocks) + 1);
      for (index_t b = 0; b <= blocks; ++b) {
        bounds[static_cast<std::size_t>(b)] = b * (n / blocks) + std::min(b, n % blocks);
      }
      tack::parallel_for(openmp_backend{}, blocks, [&](index_t b) {
        const auto ub = static_cast<std::size_t>(b);
        std::sort(data + bounds[ub], data + bounds[ub + 1], comp);
      });

      // Merge rounds: runs 2r and 2r + 1 into one; each merge cut into pieces of about `piece`
      // outputs, every piece an independent std::merge between co-ranks.
      // (Not std::vector: std::vector<bool> has no data().)
      const std::unique_ptr<T[]> buffer(new T[static_cast<std::size_t>(n)]);
      T* src = data;
      T* dst = buffer.get();
      const index_t piece = std::max<index_t>(parallel_sort_min_block, n / (4 * threads) + 1);
      struct task {
        index_t a0, a1, b1, k0, k1;  // runs [a0, a1) and [a1, b1); outputs [k0, k1) of the merge
      };
      std::vector<task> tasks;
      while (bounds.size() > 2) {
        tasks.clear();
        std::vector<index_t> merged;
        for (std::size_t r = 0; r + 1 < bounds.size(); r += 2) {
          const index_t a0 = bounds[r];
          const index_t a1 = bounds[r + 1];
          const index_t b1 = r + 2 < bounds.size() ? bounds[r + 2] : a1;  // a lone last run
          merged.push_back(a0);
          for (index_t k0 = 0; k0 < b1 - a0; k0 += piece) {
            tasks.push_back({a0, a1, b1, k0, std::min(k0 + piece, b1 - a0)});
          }
        }
        merged.push_back(n);
        tack::parallel_for(openmp_backend{}, static_cast<index_t>(tasks.size()), [&](index_t t) {
          const task& w = tasks[static_cast<std::size_t>(t)];
          const T* a = src + w.a0;
          const T* b = src + w.a1;
          const index_t m = w.a1 - w.a0, l = w.b1 - w.a1;
          const index_t i0 = merge_corank(w.k0, a, m, b, l, comp);
          const index_t i1 = merge_corank(w.k1, a, m, b, l, comp);
          std::merge(a + i0, a + i1, b + (w.k0 - i0), b + (w.k1 - i1), dst + w.a0 + w.k0, comp);
        });
        std::swap(src, dst);
        bounds = std::move(merged);
      }
      if (src != data) {
        const index_t chunks = (n + piece - 1) / piece;
        tack::parallel_for(openmp_backend{}, chunks, [&](index_t c) {
          const index_t b = c * piece, e = std::min(n, b + piece);
          std::copy(src + b, src + e, data + b);
        });
      }
      return;
    }
  }
  (void)threads;
  std::sort(data, data + n, comp);
}

/// Checks a sort target: writable; in device memory only in a build with CUDA.
template <class T, int R, memory_space S>
void require_sortable(const char* op, const char* role, const array<T, R, S>& a) {
  if (a.read_only()) {
    throw read_only_error(std::string(op) + ": " + role + a.describe() + " is read-only");
  }
  if (!TACK_HAS_CUDA && !a.host_accessible()) {
    throw device_error(std::string(op) + ": " + role + a.describe() +
                       " is in device memory; sorting device memory needs the CUDA backend's "
                       "sort, and tack was built without CUDA (configure with "
                       "TACK_ENABLE_CUDA=ON); or sort a host copy (a.to_device(tack::cpu())) and "
                       "copy it back");
  }
}

/// `sort_by_key` on the device: keys and values in the same device's memory (a `value_error`
/// naming both otherwise); the values are permuted as the keys' positions say, each byte range
/// of them (one for AoS, one per component for SoA) on the device.
template <class K, int RK, memory_space SK, class V, int RV, memory_space SV>
void sort_by_key_on_device(const array<K, RK, SK>& keys, const array<V, RV, SV>& values) {
  if (keys.host_accessible() || values.host_accessible() || keys.device() != values.device()) {
    throw value_error("tack::sort_by_key: the keys (" + keys.describe() + ") and the values (" +
                      values.describe() + ") must both be in host memory or both in the memory "
                      "of one GPU; move one with to_device()");
  }
  if constexpr (!array<V, RV, SV>::holds_objects) {
    const auto n = static_cast<std::size_t>(keys.size());
    const int id = keys.device().id();
    const buffer positions = buffer::allocate(keys.device(), n * sizeof(std::int64_t));
    auto* permutation = static_cast<std::int64_t*>(positions.data());
    cuda_sort(keys.data(), n, scalar_kind_of_v<K>, id, permutation);
    if (values.layout() == layout::aos) {
      cuda_permute(reinterpret_cast<void*>(array_access::byte_range(values).first), sizeof(V),
                   permutation, n, id);
    } else if constexpr (array<V, RV, SV>::can_be_soa) {
      for (const auto& c : values.components()) {
        cuda_permute(reinterpret_cast<void*>(array_access::byte_range(c).first),
                     sizeof(scalar_t<V>), permutation, n, id);
      }
    }
  }
}

/// A key and the position it came from: `sort_by_key` sorts these, ties by position (stable).
template <class K>
struct keyed_index {
  K key;
  index_t index;
};

}  // namespace detail

/// Sorts a rank-1 array of scalars in place, ascending (NaNs last); device memory on its GPU (a
/// `device_error` in a build without CUDA); a read-only array is a `read_only_error`.
/// `tack::sort(a);`
template <class T, int R, memory_space S>
void sort(const array<T, R, S>& a) {
  if constexpr (std::is_const_v<T>) {
    static_assert(!std::is_const_v<T>,
                  "tack::sort: sorts in place; pass a writable array, not array<const T>");
  } else if constexpr (!is_scalar_v<T>) {
    static_assert(is_scalar_v<T>,
                  "tack::sort: sorts arrays of scalars; sort vector or matrix elements by a key "
                  "with tack::sort_by_key(keys, values)");
  } else if constexpr (R != 1) {
    static_assert(R == 1, "tack::sort: sorts rank-1 arrays; sort every element of a multi-"
                          "dimensional array through a.reshape({a.size()})");
  } else {
    detail::require_sortable("tack::sort", "", a);
    if (a.size() < 2) return;
    if (!a.host_accessible()) {
      detail::cuda_sort(a.data(), static_cast<std::size_t>(a.size()), scalar_kind_of_v<T>,
                        a.device().id(), nullptr);
      a.bump_version();
      return;
    }
    T* const data = a.data();
    if constexpr (std::is_floating_point_v<T>) {
      // NaNs go last in one pass first, so that the sort itself compares with a plain `<` (a
      // strict weak order once there are no NaNs): the NaN-aware comparator costs at every
      // comparison, the pass once (docs/performance-kernels.md).
      T* const numbers_end = std::partition(data, data + a.size(), [](T x) { return x == x; });
      detail::parallel_sort(data, static_cast<index_t>(numbers_end - data), std::less<T>{});
    } else {
      detail::parallel_sort(data, a.size(), detail::sort_less{});
    }
    a.bump_version();
  }
}

/// Sorts `keys` (a rank-1 array of scalars) ascending, NaNs last, and reorders `values` (a rank-1
/// array of any element type and layout) the same way; stable. Sizes must match (`value_error`
/// naming both). `tack::sort_by_key(cell_ids, particles);`
template <class K, int RK, memory_space SK, class V, int RV, memory_space SV>
void sort_by_key(const array<K, RK, SK>& keys, const array<V, RV, SV>& values) {
  if constexpr (std::is_const_v<K> || std::is_const_v<V>) {
    static_assert(!std::is_const_v<K> && !std::is_const_v<V>,
                  "tack::sort_by_key: sorts in place; pass writable arrays, not array<const T>");
  } else if constexpr (!is_scalar_v<K>) {
    static_assert(is_scalar_v<K>, "tack::sort_by_key: the keys must be scalars");
  } else if constexpr (RK != 1 || RV != 1) {
    static_assert(RK == 1 && RV == 1,
                  "tack::sort_by_key: sorts rank-1 arrays; reshape({n}) multi-dimensional ones");
  } else {
    detail::require_sortable("tack::sort_by_key", "the keys ", keys);
    detail::require_sortable("tack::sort_by_key", "the values ", values);
    const index_t n = keys.size();
    if (values.size() != n) {
      throw value_error("tack::sort_by_key: sizes differ: " + std::to_string(n) + " keys (" +
                        keys.describe() + ") and " + std::to_string(values.size()) + " values (" +
                        values.describe() + ")");
    }
    if (n < 2) return;
    if (!keys.host_accessible() || !values.host_accessible()) {
      detail::sort_by_key_on_device(keys, values);
      keys.bump_version();
      values.bump_version();
      return;
    }
    using entry = detail::keyed_index<K>;
    std::vector<entry> items(static_cast<std::size_t>(n));
    K* kp = keys.data();
    for (index_t i = 0; i < n; ++i) items[static_cast<std::size_t>(i)] = entry{kp[i], i};
    detail::parallel_sort(items.data(), n, [](const entry& a, const entry& b) {
      const detail::sort_less less;
      if (less(a.key, b.key)) return true;
      if (less(b.key, a.key)) return false;
      return a.index < b.index;
    });
    for (index_t i = 0; i < n; ++i) kp[i] = items[static_cast<std::size_t>(i)].key;
    values.visit_kernel_form([&](const auto& vv) {
      const std::unique_ptr<V[]> moved(new V[static_cast<std::size_t>(n)]);
      for (index_t i = 0; i < n; ++i) {
        moved[static_cast<std::size_t>(i)] =
            static_cast<V>(vv[items[static_cast<std::size_t>(i)].index]);
      }
      for (index_t i = 0; i < n; ++i) vv[i] = moved[static_cast<std::size_t>(i)];
    });
    keys.bump_version();
    values.bump_version();
  }
}

}  // namespace tack
