// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
#pragma once
/// @file The stable merge sort that `tack::sort(a, comp)` runs on device memory, written once over
/// `tack::parallel_for` so that the same source runs on every backend (the tests run it on the
/// serial and OpenMP backends; `sort` calls it with the CUDA backend).
///
/// Two kinds of passes, each one `parallel_for` whose threads share nothing:
/// - tiles: thread `t` sorts elements `[t * merge_sort_tile, (t + 1) * merge_sort_tile)` by
///   insertion sort (stable: an element moves left only past strictly greater ones);
/// - rounds: runs of `width` sorted elements are merged pairwise into runs of `2 * width`. Thread
///   `t` writes outputs `[t * merge_sort_chunk, (t + 1) * merge_sort_chunk)`; it finds where its
///   outputs start in the two runs by a binary search along the merge path (`merge_corank`), then
///   merges sequentially. Ties take the left run, so the merge is stable.
/// The rounds alternate between the data and a scratch array of the same element type, layout and
/// device. When the number of rounds is odd the tiles are sorted from the data into the scratch,
/// so that the last round always writes the data and nothing is copied back.
///
/// Elements are read through the kernel views (`tack::view` for AoS, `tack::soa_view` for SoA,
/// whose proxies are converted to values before they reach the comparator), so the comparator
/// always sees `const T&`. `merge_sort_by_key` sorts `{key, position}` entries the same way and
/// then gathers the values.

#include <tack/array/array.hpp>
#include <tack/array/factories.hpp>
#include <tack/core/index.hpp>
#include <tack/core/macros.hpp>
#include <tack/exec/backend.hpp>
#include <tack/exec/parallel_for.hpp>
#include <tack/memory/memory_space.hpp>
#include <tack/view/soa_view.hpp>
#include <tack/view/view.hpp>

#include <type_traits>
#include <utility>

namespace tack::detail {

/// Elements one thread sorts by insertion sort before the merge rounds.
inline constexpr index_t merge_sort_tile = 32;
/// Outputs one thread merges in a round. It divides `merge_sort_tile`, so every run width (a
/// power-of-two multiple of the tile) is a multiple of it and a thread's outputs lie in one merge.
inline constexpr index_t merge_sort_chunk = 32;
static_assert(merge_sort_tile % merge_sort_chunk == 0);

/// Element `i` of `v` as a comparator argument: the element itself (a reference) for pointers and
/// AoS views, the value read through the proxy for SoA views.
/// `comp(sort_value(v, i), sort_value(v, j))`
template <class V>
TACK_FORCEINLINE constexpr decltype(auto) sort_value(const V& v, index_t i) {
  if constexpr (is_soa_ref_v<std::remove_cvref_t<decltype(v[i])>>) {
    return static_cast<typename std::remove_cvref_t<decltype(v[i])>::value_type>(v[i]);
  } else {
    return v[i];
  }
}

/// How many of the first `k` merged outputs of runs `a[a0, a0 + m)` and `b[b0, b0 + l)` come from
/// the first run (the merge-path co-rank; ties take the first run first, as `std::merge` does).
/// `index_t i = merge_corank(k, p, 0, m, p + m, 0, l, comp);`
TACK_EXEC_CHECK_DISABLE
template <class A, class B, class Comp>
TACK_HOST_DEVICE constexpr index_t merge_corank(index_t k, const A& a, index_t a0, index_t m,
                                                const B& b, index_t b0, index_t l,
                                                const Comp& comp) {
  index_t lo = k > l ? k - l : 0;
  index_t hi = k < m ? k : m;
  while (lo < hi) {
    const index_t i = lo + (hi - lo) / 2;
    const index_t j = k - i;
    // a[i] belongs before b[j - 1] (ties go to `a`): more of `a` is in the first k.
    if (j > 0 && !comp(sort_value(b, b0 + j - 1), sort_value(a, a0 + i))) {
      lo = i + 1;
    } else {
      hi = i;
    }
  }
  return lo;
}

/// The tile pass: thread `t` insertion-sorts tile `t` of `src` into the same positions of `dst`
/// (`dst` may be `src`). `parallel_for(b, tiles, merge_sort_tiles<V, C>{data, scratch, n, comp});`
template <class V, class Comp>
struct merge_sort_tiles {
  V src;
  V dst;
  index_t n;
  Comp comp;

  TACK_HOST_DEVICE void operator()(index_t t) const {
    using value_type = typename V::value_type;
    const index_t begin = t * merge_sort_tile;
    const index_t end = begin + merge_sort_tile < n ? begin + merge_sort_tile : n;
    for (index_t i = begin; i < end; ++i) {
      const value_type x = src[i];  // read before the shifts below may overwrite it (src == dst)
      index_t j = i;
      while (j > begin) {
        const value_type y = dst[j - 1];  // each element read once per step, compared and moved
        if (!comp(x, y)) break;
        dst[j] = y;
        --j;
      }
      dst[j] = x;
    }
  }
};

/// One merge round: runs `[p * 2w, p * 2w + w)` and `[p * 2w + w, (p + 1) * 2w)` of `src` (the
/// last ones cut at `n`) merged into the same positions of `dst`, `merge_sort_chunk` outputs per
/// thread. `parallel_for(b, chunks, merge_sort_round<V, C>{src, dst, n, width, comp});`
template <class V, class Comp>
struct merge_sort_round {
  V src;
  V dst;
  index_t n;
  index_t width;
  Comp comp;

  TACK_HOST_DEVICE void operator()(index_t t) const {
    const index_t out = t * merge_sort_chunk;
    const index_t a0 = out - out % (2 * width);  // where this thread's merge begins
    const index_t a1 = a0 + width < n ? a0 + width : n;
    const index_t b1 = a1 + width < n ? a1 + width : n;
    const index_t m = a1 - a0;
    const index_t l = b1 - a1;
    const index_t k0 = out - a0;
    const index_t k1 = k0 + merge_sort_chunk < m + l ? k0 + merge_sort_chunk : m + l;
    index_t i = merge_corank(k0, src, a0, m, src, a1, l, comp);
    index_t j = k0 - i;
    // The heads of both runs, each element read once: compared, then stored from the register.
    // A run with nothing left keeps a stale head that is never compared (`m >= 1` always: the
    // merge starts before `n`; an empty second run reads the first run's head).
    using value_type = typename V::value_type;
    value_type x = src[a0 + (i < m ? i : m - 1)];
    value_type y = src[l > 0 ? a1 + (j < l ? j : l - 1) : a0];
    for (index_t k = k0; k < k1; ++k) {
      // The first run's element unless the second run's is strictly smaller (ties: first run).
      if (j >= l || (i < m && !comp(y, x))) {
        dst[a0 + k] = x;
        if (++i < m) x = src[a0 + i];
      } else {
        dst[a0 + k] = y;
        if (++j < l) y = src[a1 + j];
      }
    }
  }
};

/// A key and the position it came from: `sort_by_key` sorts these by key (stably, or ties by
/// position) and then moves the values as the positions say.
template <class K>
struct keyed_index {
  K key;
  index_t index;
};

/// Orders `keyed_index` entries by `comp` on their keys. `key_order<Comp>{comp}(x, y)`
template <class Comp>
struct key_order {
  Comp comp;
  template <class E>
  TACK_HOST_DEVICE bool operator()(const E& x, const E& y) const {
    return comp(x.key, y.key);
  }
};

/// `items[i] = {keys[i], i}`. `parallel_for(b, n, keyed_index_fill<KV, E>{kv, items.view()});`
template <class KV, class E>
struct keyed_index_fill {
  KV keys;
  E items;
  TACK_HOST_DEVICE void operator()(index_t i) const {
    using key_type = typename KV::value_type;
    items[i] = keyed_index<key_type>{static_cast<key_type>(keys[i]), i};
  }
};

/// `keys[i] = items[i].key; staged[i] = values[items[i].index]`: the sorted keys back in place,
/// the values in their new order in `staged`.
template <class KV, class VV, class E>
struct keyed_index_gather {
  KV keys;
  VV values;
  VV staged;
  E items;
  TACK_HOST_DEVICE void operator()(index_t i) const {
    const auto& item = items[i];
    keys[i] = item.key;
    staged[i] = values[item.index];
  }
};

/// `dst[i] = src[i]`. `parallel_for(b, n, copy_elements<V>{dst, src});`
template <class V>
struct copy_elements {
  V dst;
  V src;
  TACK_HOST_DEVICE void operator()(index_t i) const { dst[i] = src[i]; }
};

/// The kernel view of `a` of type `V` (`a.view()` or `a.soa_view()`), for an array whose layout
/// is known to match `V`. `auto sv = kernel_form_as<decltype(vv)>(staged);`
template <class V, class A>
V kernel_form_as(const A& a) {
  if constexpr (std::is_same_v<V, typename A::aos_kernel_view>) {
    return a.view();
  } else {
    return a.soa_view();
  }
}

TACK_IMPL_KERNEL_ABI_BEGIN

/// Sorts the `n` elements of kernel view `data` stably by `comp` on `Backend`, using `scratch` (a
/// view of the same type over `n` other elements; unused when `n <= merge_sort_tile`).
/// `merge_sort_views(tack::serial_backend{}, a.view(), tmp.view(), n, comp);`
template <backend_tag Backend, class V, class Comp>
void merge_sort_views(Backend backend, const V& data, const V& scratch, index_t n,
                      const Comp& comp) {
  if (n < 2) return;
  int rounds = 0;
  for (index_t width = merge_sort_tile; width < n; width *= 2) ++rounds;
  const bool tiles_to_scratch = rounds % 2 == 1;
  const index_t tiles = (n + merge_sort_tile - 1) / merge_sort_tile;
  using order = std::decay_t<Comp>;  // a function becomes a pointer to it
  tack::parallel_for(backend, tiles,
                     merge_sort_tiles<V, order>{data, tiles_to_scratch ? scratch : data, n, comp});
  V src = tiles_to_scratch ? scratch : data;
  V dst = tiles_to_scratch ? data : scratch;
  const index_t chunks = (n + merge_sort_chunk - 1) / merge_sort_chunk;
  for (index_t width = merge_sort_tile; width < n; width *= 2) {
    tack::parallel_for(backend, chunks, merge_sort_round<V, order>{src, dst, n, width, comp});
    std::swap(src, dst);
  }
}

/// Sorts rank-1 array `a` (trivially copyable elements, either layout, in memory `Backend` runs
/// on) stably by `comp` with the merge sort above; the scratch is an `empty_like(a)`. No checks:
/// `tack::sort(a, comp)` makes them and calls this for device memory.
/// `tack::detail::merge_sort(tack::openmp_backend{}, a, comp);`
template <backend_tag Backend, class T, memory_space S, class Comp>
void merge_sort(Backend backend, const array<T, 1, S>& a, const Comp& comp) {
  static_assert(std::is_trivially_copyable_v<T>,
                "tack::detail::merge_sort: sorts trivially copyable elements (what device memory "
                "holds); host arrays of objects are sorted by tack::sort on the host");
  const index_t n = a.size();
  if (n < 2) return;
  // A single tile is sorted in place: no scratch then.
  const array<T, 1, S> scratch = n > merge_sort_tile ? tack::empty_like(a) : a;
  if (a.layout() == layout::aos) {
    merge_sort_views(backend, a.view(), scratch.view(), n, comp);
  } else if constexpr (array<T, 1, S>::can_be_soa) {
    merge_sort_views(backend, a.soa_view(), scratch.soa_view(), n, comp);
  }
  a.bump_version();
}

/// Sorts rank-1 `keys` (trivially copyable, either layout) stably by `comp` and moves `values`
/// (same size, trivially copyable, either layout, the same memory) the same way, on `Backend`:
/// the merge sort above over `{key, position}` entries, then one gather pass and one copy pass.
/// No checks: `tack::sort_by_key(keys, values, comp)` makes them and calls this for device memory.
/// `tack::detail::merge_sort_by_key(tack::serial_backend{}, keys, values, comp);`
template <backend_tag Backend, class K, memory_space SK, class V, memory_space SV, class Comp>
void merge_sort_by_key(Backend backend, const array<K, 1, SK>& keys, const array<V, 1, SV>& values,
                       const Comp& comp) {
  static_assert(std::is_trivially_copyable_v<K> && std::is_trivially_copyable_v<V>,
                "tack::detail::merge_sort_by_key: sorts trivially copyable elements (what device "
                "memory holds); host arrays of objects are sorted by tack::sort_by_key on the "
                "host");
  const index_t n = keys.size();
  if (n < 2) return;
  options on_device;
  on_device.device = keys.device();
  const auto items = tack::empty<keyed_index<K>>(n, on_device);
  using E = typename decltype(items)::aos_kernel_view;
  const auto staged = tack::empty_like(values);
  keys.visit_kernel_form([&](const auto& kv) {
    using KV = std::remove_cvref_t<decltype(kv)>;
    tack::parallel_for(backend, n, keyed_index_fill<KV, E>{kv, items.view()});
    merge_sort(backend, items, key_order<std::decay_t<Comp>>{comp});
    values.visit_kernel_form([&](const auto& vv) {
      using VV = std::remove_cvref_t<decltype(vv)>;
      const VV sv = kernel_form_as<VV>(staged);
      tack::parallel_for(backend, n, keyed_index_gather<KV, VV, E>{kv, vv, sv, items.view()});
      tack::parallel_for(backend, n, copy_elements<VV>{vv, sv});
    });
  });
  keys.bump_version();
  values.bump_version();
}

TACK_IMPL_KERNEL_ABI_END

}  // namespace tack::detail
