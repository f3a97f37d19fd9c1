// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
#pragma once
/// @file Sorting rank-1 `tack::array`s in place: `sort(a)` and `sort_by_key(keys, values)` for
/// scalars in ascending order, `sort(a, comp)` and `sort_by_key(keys, values, comp)` for any
/// element type in the order a comparator gives.
///
/// **Scalars, ascending.** NaNs go last, as in NumPy. On the CPU, from 4096 elements, a radix sort
/// (`detail::radix_sort_host`: one pass per key byte, each pass split over the OpenMP threads);
/// below that and for `bool`, the parallel comparison sort of the next paragraph. `sort` is not
/// stable (equal keys are indistinguishable anyway); `sort_by_key` is
/// stable (ties keep the values' order), so its result does not depend on the thread count.
/// Arrays in device memory are sorted on their GPU (`detail::gpu_sort`, src/gpu/sort.cpp): the
/// vendor's radix sort, CUB's with CUDA and rocPRIM's with HIP (floating-point keys: NaNs moved to
/// the end first, keeping their bits); `sort_by_key` sorts the keys with their positions (stable)
/// and permutes the values on the device. In a build without a GPU backend they are a
/// `device_error`.
///
/// **Any element type, with a comparator.** Always stable, so the result is the same on every
/// backend and thread count. Host memory: one block per thread sorted with `std::stable_sort`,
/// then rounds of pairwise merges, each split into independent pieces by merge-path co-ranks so
/// that every round keeps all threads busy (`detail::parallel_sort`; AoS elements, `std::string` and other objects included, in place; SoA elements gathered into
/// one buffer and scattered back). Device memory: a merge sort written once over
/// `tack::parallel_for` (algorithms/detail/merge_sort.hpp), run on the GPU backend (CUDA or HIP),
/// so the comparator is called in kernels and must be callable on the device (a functor with a
/// `TACK_HOST_DEVICE operator()`, or a `TACK_LAMBDA`), and the call must be compiled by the GPU
/// compiler (nvcc or hipcc).
/// `sort_by_key` sorts `{key, position}` entries and then moves the values.

#include <tack/algorithms/detail/merge_sort.hpp>
#include <tack/algorithms/detail/radix_sort.hpp>
#include <tack/algorithms/reduce.hpp>
#include <tack/array/array.hpp>
#include <tack/config.hpp>
#include <tack/detail/gpu_runtime.hpp>
#include <tack/exec/backend.hpp>
#include <tack/exec/backend/all.hpp>
#include <tack/exec/parallel_for.hpp>
#include <tack/exec/threads.hpp>

#include <algorithm>
#include <concepts>
#include <cstddef>
#include <functional>
#include <new>
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

/// Room for `n` elements that the host sorts write before they read: raw storage for trivially
/// copyable `T` (assignments create the elements; `T` needs no default constructor), else `n`
/// default-constructed objects. `sort_buffer<T> tmp(n); tmp[0] = x;`
template <class T>
class sort_buffer {
  static constexpr bool raw_ = std::is_trivially_copyable_v<T>;

public:
  explicit sort_buffer(index_t n) {
    const auto count = static_cast<std::size_t>(n > 0 ? n : 1);
    if constexpr (raw_) {
      data_ = static_cast<T*>(::operator new (count * sizeof(T), std::align_val_t{alignof(T)}));
    } else {
      data_ = new T[count];
    }
  }
  ~sort_buffer() {
    if constexpr (raw_) {
      ::operator delete (data_, std::align_val_t{alignof(T)});
    } else {
      delete[] data_;
    }
  }
  sort_buffer(const sort_buffer&) = delete;
  sort_buffer& operator=(const sort_buffer&) = delete;

  /// The first element. `std::sort(tmp.get(), tmp.get() + n);`
  T* get() const noexcept { return data_; }
  /// Element `i`. `tmp[i] = x;`
  T& operator[](index_t i) const noexcept { return data_[i]; }

private:
  T* data_ = nullptr;
};

/// Runs `f(i)` for `i` in `[0, n)` on the host: on the OpenMP backend when it is available,
/// several threads are configured and `n` is large enough, else in a loop.
template <class F>
void host_for(index_t n, const F& f) {
  if constexpr (backend_available_v<openmp_backend>) {
    if (num_threads() > 1 && n >= parallel_sort_threshold) {
      tack::parallel_for(openmp_backend{}, n, f);
      return;
    }
  }
  for (index_t i = 0; i < n; ++i) f(i);
}

/// `std::merge` of `[a, a_end)` and `[b, b_end)` into `out` that moves the elements (ties take
/// `a` first). Not `std::merge` over move iterators: that would hand the comparator rvalues, and a
/// comparator taking its arguments by value would move from the elements.
template <class T, class Comp>
void move_merge(T* a, T* a_end, T* b, T* b_end, T* out, const Comp& comp) {
  while (a != a_end && b != b_end) {
    if (comp(*b, *a)) {
      *out++ = std::move(*b++);
    } else {
      *out++ = std::move(*a++);
    }
  }
  out = std::move(a, a_end, out);
  std::move(b, b_end, out);
}

/// Sorts `data[0, n)` with `comp` (a strict weak order), in parallel on the OpenMP backend when
/// it is available, several threads are configured and `n` is large enough: one block per thread
/// sorted with `std::sort` (`std::stable_sort` when `Stable`), then rounds of pairwise merges,
/// each merge cut into independent pieces between merge-path co-ranks. Merges take ties from the
/// left run, so with `Stable` equal elements keep their order whatever the thread count.
/// `parallel_sort<true>(p, n, comp);`
template <bool Stable = false, class T, class Comp>
void parallel_sort(T* data, index_t n, const Comp& comp) {
  const auto sort_block = [&comp](T* first, T* last) {
    if constexpr (Stable) {
      std::stable_sort(first, last, comp);
    } else {
      std::sort(first, last, comp);
    }
  };
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
        sort_block(data + bounds[ub], data + bounds[ub + 1]);
      });

      // Merge rounds: runs 2r and 2r + 1 into one; each merge cut into pieces of about `piece`
      // outputs, every piece an independent merge between co-ranks. Elements move (objects such
      // as std::string are not copied), so every co-rank is found before anything moves: a
      // search reads elements that another piece moves.
      const sort_buffer<T> buffer(n);
      T* src = data;
      T* dst = buffer.get();
      const index_t piece = std::max<index_t>(parallel_sort_min_block, n / (4 * threads) + 1);
      struct task {
        index_t a0, a1, b1, k0, k1;  // runs [a0, a1) and [a1, b1); outputs [k0, k1) of the merge
        index_t i0, i1;              // how many of outputs k0 and k1 come from the first run
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
            tasks.push_back({a0, a1, b1, k0, std::min(k0 + piece, b1 - a0), 0, 0});
          }
        }
        merged.push_back(n);
        const auto count = static_cast<index_t>(tasks.size());
        tack::parallel_for(openmp_backend{}, count, [&](index_t t) {
          task& w = tasks[static_cast<std::size_t>(t)];
          const T* const a = src + w.a0;
          const T* const b = src + w.a1;
          const index_t m = w.a1 - w.a0, l = w.b1 - w.a1;
          w.i0 = merge_corank(w.k0, a, 0, m, b, 0, l, comp);
          w.i1 = merge_corank(w.k1, a, 0, m, b, 0, l, comp);
        });
        tack::parallel_for(openmp_backend{}, count, [&](index_t t) {
          const task& w = tasks[static_cast<std::size_t>(t)];
          T* const a = src + w.a0;
          T* const b = src + w.a1;
          move_merge(a + w.i0, a + w.i1, b + (w.k0 - w.i0), b + (w.k1 - w.i1), dst + w.a0 + w.k0,
                     comp);
        });
        std::swap(src, dst);
        bounds = std::move(merged);
      }
      if (src != data) {
        const index_t chunks = (n + piece - 1) / piece;
        tack::parallel_for(openmp_backend{}, chunks, [&](index_t c) {
          const index_t b = c * piece, e = std::min(n, b + piece);
          std::move(src + b, src + e, data + b);
        });
      }
      return;
    }
  }
  (void)threads;
  sort_block(data, data + n);
}

/// Sorts scalars `data[0, n)` (no NaNs) ascending on the host: the radix sort from
/// `radix_sort_threshold` elements, else (and for `bool`) the comparison sort.
/// `sort_scalars_on_host(p, n);`
template <class T>
void sort_scalars_on_host(T* data, index_t n) {
  if constexpr (radix_sortable_v<T>) {
    if (n >= radix_sort_threshold) {
      const sort_buffer<T> scratch(n);
      radix_sort_host(data, n, scratch.get());
      return;
    }
  }
  parallel_sort(data, n, sort_less{});
}

/// Checks a sort target: writable; in device memory only in a build with a GPU backend.
template <class T, int R, memory_space S>
void require_sortable(const char* op, const char* role, const array<T, R, S>& a) {
  if (a.read_only()) {
    throw read_only_error(std::string(op) + ": " + role + a.describe() + " is read-only");
  }
  if (!a.host_accessible() && a.device().kind() != gpu_device_kind) {
    throw device_error(std::string(op) + ": " + role + a.describe() +
                       " is in device memory; sorting it needs the " +
                       (a.device().is_hip() ? "HIP" : "CUDA") + " backend's sort" +
                       gpu_unavailable_reason(a.device()) +
                       "; or sort a host copy (a.to_device(tack::cpu())) and copy it back");
  }
}

/// Checks that `sort_by_key`'s arrays, not both in host memory, are both in one GPU's memory: a
/// `value_error` naming both otherwise.
template <class K, int RK, memory_space SK, class V, int RV, memory_space SV>
void require_one_device(const array<K, RK, SK>& keys, const array<V, RV, SV>& values) {
  if (keys.host_accessible() || values.host_accessible() || keys.device() != values.device()) {
    throw value_error("tack::sort_by_key: the keys (" + keys.describe() + ") and the values (" +
                      values.describe() +
                      ") must both be in host memory or both in the memory "
                      "of one GPU; move one with to_device()");
  }
}

/// `sort_by_key` of scalar keys on the device: keys and values in the same device's memory (a
/// `value_error` naming both otherwise); the values are permuted as the keys' positions say, each
/// byte range of them (one for AoS, one per component for SoA) on the device.
template <class K, int RK, memory_space SK, class V, int RV, memory_space SV>
void sort_by_key_on_device(const array<K, RK, SK>& keys, const array<V, RV, SV>& values) {
  require_one_device(keys, values);
  if constexpr (!array<V, RV, SV>::holds_objects) {
    const auto n = static_cast<std::size_t>(keys.size());
    const int id = keys.device().id();
    const buffer positions = buffer::allocate(keys.device(), n * sizeof(std::int64_t));
    auto* permutation = static_cast<std::int64_t*>(positions.data());
    gpu_sort(keys.data(), n, scalar_kind_of_v<K>, id, permutation);
    if (values.layout() == layout::aos) {
      gpu_permute(reinterpret_cast<void*>(array_access::byte_range(values).first), sizeof(V),
                  permutation, n, id);
    } else if constexpr (array<V, RV, SV>::can_be_soa) {
      for (const auto& c : values.components()) {
        gpu_permute(reinterpret_cast<void*>(array_access::byte_range(c).first), sizeof(scalar_t<V>),
                    permutation, n, id);
      }
    }
  }
}

/// Checks that `sort_by_key`'s arrays have one size and share no memory (the values would be
/// permuted while the keys are read): a `value_error` naming both arrays otherwise.
template <class K, int RK, memory_space SK, class V, int RV, memory_space SV>
void require_same_size(const array<K, RK, SK>& keys, const array<V, RV, SV>& values) {
  if (values.size() != keys.size()) {
    throw value_error("tack::sort_by_key: sizes differ: " + std::to_string(keys.size()) +
                      " keys (" + keys.describe() + ") and " + std::to_string(values.size()) +
                      " values (" + values.describe() + ")");
  }
  if (arrays_overlap(keys, values)) {
    throw value_error("tack::sort_by_key: the keys (" + keys.describe() + ") and the values (" +
                      values.describe() +
                      ") share memory; sort one array with tack::sort, or "
                      "pass a copy of the keys (keys.copy())");
  }
}

/// Moves `items[i].key` to `keys[i]` and element `items[i].index` of `values` to `values[i]`,
/// for every `i`, on the host: the end of `sort_by_key` once its entries are sorted.
template <class K, memory_space SK, class V, memory_space SV>
void reorder_on_host(const array<K, 1, SK>& keys, const array<V, 1, SV>& values,
                     const sort_buffer<keyed_index<K>>& items) {
  const index_t n = keys.size();
  keys.visit_kernel_form(
      [&](const auto& kv) { host_for(n, [&](index_t i) { kv[i] = std::move(items[i].key); }); });
  values.visit_kernel_form([&](const auto& vv) {
    const sort_buffer<V> moved(n);
    host_for(n, [&](index_t i) { moved[i] = static_cast<V>(std::move(vv[items[i].index])); });
    host_for(n, [&](index_t i) { vv[i] = std::move(moved[i]); });
  });
}

/// `sort_by_key` on the host: `{key, position}` entries (the keys copied, so a throwing
/// comparator leaves the arrays as they were) sorted by `less` with `parallel_sort<Stable>`,
/// then keys and values moved into their places.
template <bool Stable, class K, memory_space SK, class V, memory_space SV, class Less>
void sort_by_key_on_host(const array<K, 1, SK>& keys, const array<V, 1, SV>& values,
                         const Less& less) {
  const index_t n = keys.size();
  using entry = keyed_index<K>;
  const sort_buffer<entry> items(n);
  keys.visit_kernel_form([&](const auto& kv) {
    host_for(n, [&](index_t i) { items[i] = entry{static_cast<K>(kv[i]), i}; });
  });
  parallel_sort<Stable>(items.get(), n, less);
  reorder_on_host(keys, values, items);
}

/// `sort(a, comp)` on the host: AoS elements (objects included) sorted where they are when the
/// comparator cannot throw (`noexcept`); otherwise, and for SoA elements, gathered into one
/// buffer, sorted there and moved back, so that a comparator that throws leaves the array as it
/// was (sorting in place would lose the elements `std::stable_sort` holds in its own buffer).
template <class T, memory_space S, class Comp>
void stable_sort_on_host(const array<T, 1, S>& a, const Comp& comp) {
  const index_t n = a.size();
  if (a.layout() == layout::aos) {
    T* p = a.data();
    if constexpr (std::is_nothrow_invocable_v<const Comp&, const T&, const T&>) {
      parallel_sort<true>(p, n, comp);
    } else {
      const sort_buffer<T> elements(n);
      host_for(n, [&](index_t i) { elements[i] = p[i]; });
      parallel_sort<true>(elements.get(), n, comp);
      host_for(n, [&](index_t i) { p[i] = std::move(elements[i]); });
    }
  } else if constexpr (array<T, 1, S>::can_be_soa) {
    const auto sv = a.soa_view();
    const sort_buffer<T> elements(n);
    host_for(n, [&](index_t i) { elements[i] = static_cast<T>(sv[i]); });
    parallel_sort<true>(elements.get(), n, comp);
    host_for(n, [&](index_t i) { sv[i] = elements[i]; });
  }
}

/// Whether `comp(x, y)` compiles for two `const T&` and gives something convertible to `bool`:
/// what `sort(a, comp)` asks of a comparator. `static_assert(element_order<std::less<>, int>);`
template <class Comp, class T>
concept element_order = requires(const Comp& comp, const T& x, const T& y) {
  { comp(x, y) } -> std::convertible_to<bool>;
};

/// Whether `Comp` is the closure type of an nvcc `__device__` lambda, which host code cannot call.
template <class Comp>
inline constexpr bool is_device_lambda_v =
#if defined(__CUDACC__) && defined(__CUDACC_EXTENDED_LAMBDA__)
    __nv_is_extended_device_lambda_closure_type(Comp);
#else
    false;
#endif

/// Whether `Comp` is a function or a function pointer: nothing the GPU can call.
template <class Comp>
inline constexpr bool is_function_comparator_v =
    std::is_function_v<Comp> || std::is_pointer_v<std::decay_t<Comp>>;

/// The `device_error` for a function-pointer comparator on device memory (the GPU cannot call
/// host functions through a pointer).
[[noreturn]] inline void throw_function_pointer_on_device(const char* op, const std::string& what) {
  throw device_error(std::string(op) + ": " + what +
                     " is in device memory, where a function pointer cannot be called; pass a "
                     "functor with a TACK_HOST_DEVICE operator() or a TACK_LAMBDA(const T& x, "
                     "const T& y) { ... }");
}

TACK_IMPL_KERNEL_ABI_BEGIN

/// `sort(a, comp)` on device memory: the backend-generic merge sort on the array's GPU (in code
/// compiled by the build's GPU compiler, nvcc or hipcc; elsewhere `with_backend_of` refuses with a
/// `device_error`).
template <class T, memory_space S, class Comp>
void merge_sort_on_device(const array<T, 1, S>& a, const Comp& comp) {
  if constexpr (is_function_comparator_v<Comp>) {
    throw_function_pointer_on_device("tack::sort", a.describe());
  } else {
    with_backend_of(a.device(), "tack::sort", [&](auto backend) {
      // Device memory is never on the CPU, so only the GPU backend is ever chosen here.
      if constexpr (is_gpu_backend_v<decltype(backend)>) merge_sort(backend, a, comp);
    });
  }
}

/// `sort_by_key(keys, values, comp)` on device memory, likewise.
template <class K, memory_space SK, class V, memory_space SV, class Comp>
void merge_sort_by_key_on_device(const array<K, 1, SK>& keys, const array<V, 1, SV>& values,
                                 const Comp& comp) {
  if constexpr (is_function_comparator_v<Comp>) {
    throw_function_pointer_on_device("tack::sort_by_key", "the keys " + keys.describe());
  } else {
    with_backend_of(keys.device(), "tack::sort_by_key", [&](auto backend) {
      if constexpr (is_gpu_backend_v<decltype(backend)>) {
        merge_sort_by_key(backend, keys, values, comp);
      }
    });
  }
}

TACK_IMPL_KERNEL_ABI_END

}  // namespace detail

/// Sorts a rank-1 array of scalars in place, ascending (NaNs last); device memory on its GPU (a
/// `device_error` in a build without its GPU backend); a read-only array is a `read_only_error`.
/// `tack::sort(a);`
template <class T, int R, memory_space S>
void sort(const array<T, R, S>& a) {
  if constexpr (std::is_const_v<T>) {
    static_assert(!std::is_const_v<T>,
                  "tack::sort: sorts in place; pass a writable array, not array<const T>");
  } else if constexpr (!is_scalar_v<T>) {
    static_assert(is_scalar_v<T>,
                  "tack::sort: sorts arrays of scalars in ascending order; sort other elements "
                  "with a comparator, tack::sort(a, comp), or by a key with "
                  "tack::sort_by_key(keys, values)");
  } else if constexpr (R != 1) {
    static_assert(R == 1,
                  "tack::sort: sorts rank-1 arrays; sort every element of a multi-"
                  "dimensional array through a.reshape({a.size()})");
  } else {
    detail::require_sortable("tack::sort", "", a);
    if (a.size() < 2) return;
    if (!a.host_accessible()) {
      detail::gpu_sort(a.data(), static_cast<std::size_t>(a.size()), scalar_kind_of_v<T>,
                       a.device().id(), nullptr);
      a.bump_version();
      return;
    }
    T* const data = a.data();
    if constexpr (std::is_floating_point_v<T>) {
      // NaNs go last in one pass first, so that the sort itself compares with a plain `<` (a
      // strict weak order once there are no NaNs): the NaN-aware comparator costs at every
      // comparison, the pass once (docs/decisions.md, "Sorting floats").
      T* const numbers_end = std::partition(data, data + a.size(), [](T x) { return x == x; });
      detail::sort_scalars_on_host(data, static_cast<index_t>(numbers_end - data));
    } else {
      detail::sort_scalars_on_host(data, a.size());
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
    static_assert(is_scalar_v<K>,
                  "tack::sort_by_key: the keys must be scalars; order other keys with a "
                  "comparator, tack::sort_by_key(keys, values, comp)");
  } else if constexpr (RK != 1 || RV != 1) {
    static_assert(RK == 1 && RV == 1,
                  "tack::sort_by_key: sorts rank-1 arrays; reshape({n}) multi-dimensional ones");
  } else {
    detail::require_sortable("tack::sort_by_key", "the keys ", keys);
    detail::require_sortable("tack::sort_by_key", "the values ", values);
    detail::require_same_size(keys, values);
    if (keys.size() < 2) return;
    if (!keys.host_accessible() || !values.host_accessible()) {
      detail::sort_by_key_on_device(keys, values);
      keys.bump_version();
      values.bump_version();
      return;
    }
    // std::sort with ties broken by position: stable without std::stable_sort's extra moves.
    using entry = detail::keyed_index<K>;
    detail::sort_by_key_on_host<false>(keys, values, [](const entry& a, const entry& b) {
      const detail::sort_less less;
      if (less(a.key, b.key)) return true;
      if (less(b.key, a.key)) return false;
      return a.index < b.index;
    });
    keys.bump_version();
    values.bump_version();
  }
}

TACK_IMPL_KERNEL_ABI_BEGIN

/// Sorts a rank-1 array of any element type in place, stably, in the order `comp` gives: `comp(x,
/// y)` is true when `x` goes before `y` (a strict weak order, as for `std::stable_sort`); equal
/// elements keep their order, so the result is the same on every backend and thread count. Host
/// memory (either layout; objects such as `std::string` too) is sorted on the CPU, device memory
/// on its GPU by a merge sort, where `comp` runs in kernels: there it must be a functor with a
/// `TACK_HOST_DEVICE operator()` or a `TACK_LAMBDA` (in code compiled by nvcc; a function pointer
/// is a `device_error`). In code compiled by nvcc that device path is compiled for every array
/// whose memory space is not fixed to the host, so there the comparator must be callable on the
/// device even for host arrays (or use `array<T, 1, memory_space::host>`). A read-only array is a
/// `read_only_error`.
/// `tack::sort(points, TACK_LAMBDA(const vec3f& p, const vec3f& q) { return p[2] < q[2]; });`
template <class T, int R, memory_space S, class Comp>
void sort(const array<T, R, S>& a, const Comp& comp) {
  if constexpr (std::is_const_v<T>) {
    static_assert(!std::is_const_v<T>,
                  "tack::sort: sorts in place; pass a writable array, not array<const T>");
  } else if constexpr (R != 1) {
    static_assert(R == 1,
                  "tack::sort: sorts rank-1 arrays; sort every element of a multi-"
                  "dimensional array through a.reshape({a.size()})");
  } else if constexpr (!detail::element_order<Comp, T>) {
    static_assert(detail::element_order<Comp, T>,
                  "tack::sort(a, comp): comp must be callable as comp(const T& x, const T& y), T "
                  "the element type, and return bool: true when x goes before y (a strict weak "
                  "order, as for std::stable_sort)");
  } else if constexpr (S == memory_space::device && detail::is_function_comparator_v<Comp>) {
    static_assert(!detail::is_function_comparator_v<Comp>,
                  "tack::sort(a, comp): a is in device memory, where a function pointer cannot "
                  "be called; pass a functor with a TACK_HOST_DEVICE operator() or a "
                  "TACK_LAMBDA(const T& x, const T& y) { ... }");
  } else if constexpr (detail::is_device_lambda_v<Comp>) {
    static_assert(!detail::is_device_lambda_v<Comp>,
                  "tack::sort(a, comp): comp is a __device__ lambda, which the host cannot call; "
                  "write TACK_LAMBDA(const T& x, const T& y) { ... } (__host__ __device__)");
  } else {
    detail::require_sortable("tack::sort", "", a);
    if (a.size() < 2) return;
    if constexpr (S != memory_space::device) {
      if (a.host_accessible()) {
        detail::stable_sort_on_host(a, comp);
        a.bump_version();
        return;
      }
    }
    // Only for spaces that may be device memory, which holds no objects.
    if constexpr (!host_accessible(S) && std::is_trivially_copyable_v<T>) {
      detail::merge_sort_on_device(a, comp);
    }
  }
}

/// Sorts `keys` (a rank-1 array of any element type) stably in the order `comp` gives (as in
/// `sort(a, comp)`) and reorders `values` (a rank-1 array of any element type and layout) the same
/// way. Sizes must match (`value_error` naming both), and both arrays must be in host memory or
/// in one GPU's memory (`value_error`); on a GPU `comp` runs in kernels, as for `sort(a, comp)`.
/// `tack::sort_by_key(cells, particles, TACK_LAMBDA(const vec3i& a, const vec3i& b) { ... });`
template <class K, int RK, memory_space SK, class V, int RV, memory_space SV, class Comp>
void sort_by_key(const array<K, RK, SK>& keys, const array<V, RV, SV>& values, const Comp& comp) {
  constexpr bool on_device = SK == memory_space::device || SV == memory_space::device;
  constexpr bool on_host = host_accessible(SK) || host_accessible(SV);
  if constexpr (std::is_const_v<K> || std::is_const_v<V>) {
    static_assert(!std::is_const_v<K> && !std::is_const_v<V>,
                  "tack::sort_by_key: sorts in place; pass writable arrays, not array<const T>");
  } else if constexpr (RK != 1 || RV != 1) {
    static_assert(RK == 1 && RV == 1,
                  "tack::sort_by_key: sorts rank-1 arrays; reshape({n}) multi-dimensional ones");
  } else if constexpr (!detail::element_order<Comp, K>) {
    static_assert(detail::element_order<Comp, K>,
                  "tack::sort_by_key(keys, values, comp): comp must be callable as comp(const K& "
                  "x, const K& y), K the key type, and return bool: true when x goes before y (a "
                  "strict weak order, as for std::stable_sort)");
  } else if constexpr (on_device && detail::is_function_comparator_v<Comp>) {
    static_assert(!detail::is_function_comparator_v<Comp>,
                  "tack::sort_by_key(keys, values, comp): the arrays are in device memory, where "
                  "a function pointer cannot be called; pass a functor with a TACK_HOST_DEVICE "
                  "operator() or a TACK_LAMBDA(const K& x, const K& y) { ... }");
  } else if constexpr (detail::is_device_lambda_v<Comp>) {
    static_assert(!detail::is_device_lambda_v<Comp>,
                  "tack::sort_by_key(keys, values, comp): comp is a __device__ lambda, which the "
                  "host cannot call; write TACK_LAMBDA(const K& x, const K& y) { ... } "
                  "(__host__ __device__)");
  } else {
    detail::require_sortable("tack::sort_by_key", "the keys ", keys);
    detail::require_sortable("tack::sort_by_key", "the values ", values);
    detail::require_same_size(keys, values);
    if (keys.size() < 2) return;
    if constexpr (!on_device) {
      if (keys.host_accessible() && values.host_accessible()) {
        using entry = detail::keyed_index<K>;
        detail::sort_by_key_on_host<true>(
            keys, values, [&comp](const entry& x, const entry& y) { return comp(x.key, y.key); });
        keys.bump_version();
        values.bump_version();
        return;
      }
    }
    detail::require_one_device(keys, values);
    // Only when both may be device memory, which holds no objects.
    if constexpr (!on_host && std::is_trivially_copyable_v<K> && std::is_trivially_copyable_v<V>) {
      detail::merge_sort_by_key_on_device(keys, values, comp);
    }
  }
}

TACK_IMPL_KERNEL_ABI_END

}  // namespace tack
