// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
#pragma once
/// @file Atomics usable in kernels on every backend: `tack::atomic_add`, `atomic_min`,
/// `atomic_max`, `atomic_exchange` and `atomic_compare_exchange`. Each returns the value the target
/// held before.
///
/// Targets:
/// - a scalar lvalue: `float`, `double`, or a 32- or 64-bit integer (what GPUs have atomics for) —
///   an element of a view, a component `v[i][c]`, a matrix entry `m(i, j)`;
/// - a `tack::vec` / `tack::mat` lvalue: one atomic per component, in component order. This is
///   not one atomic operation on the whole value: another thread may see some components updated
///   and others not yet, and the returned "old" value gathers each component's old value;
/// - a proxy: any object with a `value_type` member and `component(c)` returning a real scalar
///   reference (`tack::soa_ref<T>`, what an SoA view's `v[i]` returns): per component, likewise.
///
/// An rvalue that is not such a proxy has no address (an implicit array's `a[i]` is computed, not
/// stored): "no address, no atomics" is refused at compile time. Store the values into a
/// `tack::array` first and apply the atomic to its view.
///
/// Ordering: relaxed, like CUDA's `atomicAdd`. Atomics order nothing but themselves; a kernel's
/// writes are visible to the host when the launch (or `tack::fence()`) returns.
/// Host implementation: `std::atomic_ref`; device: the intrinsics CUDA and HIP share (`atomicAdd`,
/// `atomicMin`, `atomicCAS` ...), min / max of floating-point values (and of signed 64-bit
/// integers on HIP) by a compare-and-swap loop.

#include <tack/core/macros.hpp>
#include <tack/exec/atomic_kind.hpp>
#include <tack/types/item.hpp>

#include <cstdint>
#include <type_traits>
#include <utility>

// The scalar atomics of the target being compiled: the GPU intrinsics in the device pass of nvcc
// or hipcc (the same names in CUDA and HIP),
// std::atomic_ref on the host. Each defines `device_atomic` / `device_atomic_cas` or
// `host_atomic` / `host_atomic_cas` in tack::detail.
#if TACK_IMPL_DEVICE_PASS
#include <tack/exec/backend/gpu/atomic.hpp>
#else
#include <tack/exec/backend/cpu/atomic.hpp>
#endif

namespace tack {
namespace detail {

/// The scalar types with atomics on every backend.
template <class T>
inline constexpr bool atomic_scalar_v = std::is_same_v<T, float> || std::is_same_v<T, double> ||
                                        (std::is_integral_v<T> && !std::is_same_v<T, bool> &&
                                         (sizeof(T) == 4 || sizeof(T) == 8));

/// A proxy reference an atomic can go through: `value_type` plus `component(c)` returning a
/// non-const lvalue reference to the component type.
template <class P>
concept atomic_proxy = requires {
  typename std::remove_cvref_t<P>::value_type;
}
&&requires(const std::remove_cvref_t<P>& p) {
  { p.component(0) } -> std::same_as<scalar_t<typename std::remove_cvref_t<P>::value_type>&>;
};

/// One scalar atomic of kind `Kind` on `*p`.
template <atomic_kind Kind, class T>
TACK_FORCEINLINE T scalar_atomic(T* p, T v) {
#if TACK_IMPL_DEVICE_PASS
  return device_atomic<Kind>(p, v);
#else
  return host_atomic<Kind>(p, v);
#endif
}

template <class T>
TACK_FORCEINLINE T scalar_atomic_cas(T* p, T expected, T desired) {
#if TACK_IMPL_DEVICE_PASS
  return device_atomic_cas(p, expected, desired);
#else
  return host_atomic_cas(p, expected, desired);
#endif
}

/// Component `c` of a vector or matrix value (both keep their components behind `data()`); a
/// scalar is its own component 0.
template <class E>
TACK_FORCEINLINE constexpr auto& atomic_component(E& value, [[maybe_unused]] int c) noexcept {
  if constexpr (std::is_arithmetic_v<std::remove_const_t<E>>) {
    return value;
  } else {
    return value.data()[c];
  }
}

/// The operand of a per-component atomic on an element of type `E`: `v` converted to `E`, or a
/// scalar `v` given to every component (as `v[i] += 1.0f` does).
template <class E, class V>
TACK_FORCEINLINE E atomic_operand(const V& v) {
  if constexpr (std::is_arithmetic_v<V> && !std::is_arithmetic_v<E>) {
    E e;
    for (int c = 0; c < components_v<E>; ++c) {
      atomic_component(e, c) = static_cast<scalar_t<E>>(v);
    }
    return e;
  } else {
    return static_cast<E>(v);
  }
}

/// The refusals, one message each; callers fence them with `if constexpr`.
template <class R>
TACK_INLINE constexpr void atomic_refuse() {
  using T = std::remove_cvref_t<R>;
  if constexpr (!std::is_lvalue_reference_v<R> && !atomic_proxy<R>) {
    static_assert(sizeof(R) == 0,
                  "tack atomics: the target is a value with no storage behind it (an implicit "
                  "array's element is computed, not stored): no address, no atomics. Store the "
                  "values into a tack::array (tack::copyto) and apply the atomic to its view");
  } else if constexpr (std::is_const_v<std::remove_reference_t<R>>) {
    static_assert(sizeof(R) == 0,
                  "tack atomics: the target is const (a read-only view); atomics need writable "
                  "memory: pass the array without as_const()");
  } else if constexpr (is_scalar_v<T>) {
    static_assert(sizeof(R) == 0,
                  "tack atomics: this scalar type has no atomics on every backend; use float, "
                  "double or a 32- or 64-bit integer");
  } else {
    static_assert(sizeof(R) == 0,
                  "tack atomics: the target must be a float, double or 32/64-bit integer lvalue, "
                  "a tack::vec or tack::mat of them, or a proxy with value_type and component(c) "
                  "returning a scalar reference");
  }
}

/// What an atomic can target, classified once.
enum class atomic_target { scalar, item, proxy, invalid };

template <class R>
constexpr atomic_target classify_atomic_target() {
  using T = std::remove_reference_t<R>;
  if constexpr (std::is_lvalue_reference_v<R> && !std::is_const_v<T> &&
                atomic_scalar_v<std::remove_cv_t<T>>) {
    return atomic_target::scalar;
  } else if constexpr (std::is_lvalue_reference_v<R> && !std::is_const_v<T> &&
                       (is_vec_v<T> || is_mat_v<T>)) {
    return atomic_scalar_v<scalar_t<T>> ? atomic_target::item : atomic_target::invalid;
  } else if constexpr (atomic_proxy<R>) {
    return atomic_scalar_v<scalar_t<typename std::remove_cvref_t<R>::value_type>>
               ? atomic_target::proxy
               : atomic_target::invalid;
  } else {
    return atomic_target::invalid;
  }
}

/// The element an atomic on `R` reads: `R` itself, or a proxy's `value_type`.
template <class R, bool Proxy>
struct atomic_element {
  using type = std::remove_cvref_t<R>;
};
template <class R>
struct atomic_element<R, true> {
  using type = typename std::remove_cvref_t<R>::value_type;
};

/// Applies `Kind` to the target `ref`: a scalar directly; a vector, matrix or proxy per component.
template <atomic_kind Kind, class R, class V>
TACK_FORCEINLINE auto atomic_apply(R&& ref, const V& v) {
  constexpr atomic_target target = classify_atomic_target<R&&>();
  if constexpr (target == atomic_target::scalar) {
    using T = std::remove_cvref_t<R>;
    return scalar_atomic<Kind>(&ref, static_cast<T>(v));
  } else if constexpr (target == atomic_target::item || target == atomic_target::proxy) {
    using E = typename atomic_element<R, target == atomic_target::proxy>::type;
    const E value = atomic_operand<E>(v);
    E old;
    for (int c = 0; c < components_v<E>; ++c) {
      scalar_t<E>* slot;
      if constexpr (target == atomic_target::proxy) {
        slot = &ref.component(c);
      } else {
        slot = &atomic_component(ref, c);
      }
      atomic_component(old, c) = scalar_atomic<Kind>(slot, atomic_component(value, c));
    }
    return old;
  } else {
    atomic_refuse<R&&>();
    return 0;
  }
}

}  // namespace detail

/// Atomically adds `v` to `ref`; returns the old value. Vectors, matrices and proxies add per
/// component (see the file comment). `tack::atomic_add(hist[bin], 1);`
template <class R, class V>
TACK_FORCEINLINE auto atomic_add(R&& ref, const V& v) {
  return detail::atomic_apply<detail::atomic_kind::add>(std::forward<R>(ref), v);
}

/// Atomically stores `min(ref, v)`; returns the old value. `tack::atomic_min(lo[0], x[i]);`
template <class R, class V>
TACK_FORCEINLINE auto atomic_min(R&& ref, const V& v) {
  return detail::atomic_apply<detail::atomic_kind::min>(std::forward<R>(ref), v);
}

/// Atomically stores `max(ref, v)`; returns the old value. `tack::atomic_max(hi[0], x[i]);`
template <class R, class V>
TACK_FORCEINLINE auto atomic_max(R&& ref, const V& v) {
  return detail::atomic_apply<detail::atomic_kind::max>(std::forward<R>(ref), v);
}

/// Atomically stores `v`; returns the old value. `int prev = tack::atomic_exchange(flag[0], 1);`
template <class R, class V>
TACK_FORCEINLINE auto atomic_exchange(R&& ref, const V& v) {
  return detail::atomic_apply<detail::atomic_kind::exchange>(std::forward<R>(ref), v);
}

/// Atomically stores `desired` if `ref` holds `expected` (compared bit for bit); returns the old
/// value, so the exchange happened when it equals `expected`. Scalars only: a vector compared
/// per component could succeed for some components and fail for others.
/// `if (tack::atomic_compare_exchange(owner[k], -1, i) == -1) { /* claimed */ }`
template <class R, class V, class W>
TACK_FORCEINLINE auto atomic_compare_exchange(R&& ref, const V& expected, const W& desired) {
  constexpr detail::atomic_target target = detail::classify_atomic_target<R&&>();
  if constexpr (target == detail::atomic_target::scalar) {
    using T = std::remove_cvref_t<R>;
    return detail::scalar_atomic_cas<T>(&ref, static_cast<T>(expected), static_cast<T>(desired));
  } else if constexpr (target == detail::atomic_target::item ||
                       target == detail::atomic_target::proxy) {
    static_assert(sizeof(R) == 0,
                  "tack::atomic_compare_exchange: a vector or matrix is not one atomic word; "
                  "compare-exchange its components one at a time (v[i][c], or "
                  "proxy.component(c))");
    return 0;
  } else {
    detail::atomic_refuse<R&&>();
    return 0;
  }
}

}  // namespace tack
