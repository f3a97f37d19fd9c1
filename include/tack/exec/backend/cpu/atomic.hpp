// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
#pragma once
/// @file The CPU backends' scalar atomics for exec/atomic.hpp: `host_atomic<Kind>(p, v)` and
/// `host_atomic_cas(p, expected, desired)` over `std::atomic_ref`, relaxed.

#include <tack/exec/atomic_kind.hpp>

#include <atomic>

namespace tack::detail {

/// `Kind` applied to `*p` with `v`; returns the old value.
template <atomic_kind Kind, class T>
inline T host_atomic(T* p, T v) {
  std::atomic_ref<T> ref(*p);
  if constexpr (Kind == atomic_kind::add) {
    return ref.fetch_add(v, std::memory_order_relaxed);
  } else if constexpr (Kind == atomic_kind::exchange) {
    return ref.exchange(v, std::memory_order_relaxed);
  } else {
    T old = ref.load(std::memory_order_relaxed);
    while (Kind == atomic_kind::min ? (v < old) : (old < v)) {
      if (ref.compare_exchange_weak(old, v, std::memory_order_relaxed)) break;
    }
    return old;
  }
}

/// Stores `desired` if `*p == expected`; returns the old value.
template <class T>
inline T host_atomic_cas(T* p, T expected, T desired) {
  std::atomic_ref<T> ref(*p);
  // On failure `expected` receives the current value; on success it already is the old value.
  ref.compare_exchange_strong(expected, desired, std::memory_order_relaxed);
  return expected;
}

}  // namespace tack::detail
