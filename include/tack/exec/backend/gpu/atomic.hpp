// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
#pragma once
/// @file The GPU backend's scalar atomics for exec/atomic.hpp, in the device pass of nvcc or hipcc:
/// `device_atomic<Kind>(p, v)` and `device_atomic_cas(p, expected, desired)` over the intrinsics
/// CUDA and HIP share by name (`atomicAdd`, `atomicMin`, `atomicCAS` ...), min / max of
/// floating-point values (and of signed 64-bit integers on HIP) by a compare-and-swap loop.

#include <tack/core/macros.hpp>
#include <tack/exec/atomic_kind.hpp>

#include <type_traits>

#if TACK_IMPL_DEVICE_PASS
namespace tack::detail {

// The atomics take int / unsigned / long long / unsigned long long; std::int64_t is `long` on
// Linux, so 64-bit integers go through the type of the same size and signedness.
template <class T>
using gpu_atomic_int_t =
    std::conditional_t<sizeof(T) == 4, std::conditional_t<std::is_signed_v<T>, int, unsigned int>,
                       std::conditional_t<std::is_signed_v<T>, long long, unsigned long long>>;

// Bits of a float / double (or a signed 64-bit integer) in the integer type atomicCAS takes.
__device__ inline int atomic_bits(float v) { return __float_as_int(v); }
__device__ inline unsigned long long atomic_bits(double v) {
  return static_cast<unsigned long long>(__double_as_longlong(v));
}
__device__ inline unsigned long long atomic_bits(long long v) {
  return static_cast<unsigned long long>(v);
}
__device__ inline float atomic_from_bits(int b, float) { return __int_as_float(b); }
__device__ inline double atomic_from_bits(unsigned long long b, double) {
  return __longlong_as_double(static_cast<long long>(b));
}
__device__ inline long long atomic_from_bits(unsigned long long b, long long) {
  return static_cast<long long>(b);
}

// min / max without an intrinsic (floating-point values; signed 64-bit integers on HIP, whose
// ROCm 5.2 headers have no atomicMin(long long*)): retry a compare-and-swap while the new value
// still beats the stored one.
template <atomic_kind Kind, class T>
__device__ inline T device_atomic_cas_minmax(T* p, T v) {
  using bits_t = decltype(atomic_bits(v));
  auto* bp = reinterpret_cast<bits_t*>(p);
  bits_t old_bits = *reinterpret_cast<volatile bits_t*>(bp);
  T old = atomic_from_bits(old_bits, T{});
  while (Kind == atomic_kind::min ? (v < old) : (old < v)) {
    const bits_t assumed = old_bits;
    old_bits = atomicCAS(bp, assumed, atomic_bits(v));
    old = atomic_from_bits(old_bits, T{});
    if (old_bits == assumed) break;
  }
  return old;
}

/// `Kind` applied to `*p` with `v`; returns the old value.
template <atomic_kind Kind, class T>
__device__ inline T device_atomic(T* p, T v) {
  if constexpr (std::is_floating_point_v<T>) {
    if constexpr (Kind == atomic_kind::add) {
      return atomicAdd(p, v);
    } else if constexpr (Kind == atomic_kind::exchange) {
      using bits_t = decltype(atomic_bits(v));
      return atomic_from_bits(atomicExch(reinterpret_cast<bits_t*>(p), atomic_bits(v)), T{});
    } else {
      return device_atomic_cas_minmax<Kind>(p, v);
    }
  } else {
    using U = gpu_atomic_int_t<T>;
    // 64-bit signed add and exchange go through unsigned long long: two's complement gives the
    // same bits, and CUDA has no signed 64-bit atomicAdd / atomicExch.
    using W = std::conditional_t<sizeof(T) == 8, unsigned long long, U>;
    if constexpr (Kind == atomic_kind::add) {
      return static_cast<T>(atomicAdd(reinterpret_cast<W*>(p), static_cast<W>(v)));
    } else if constexpr (Kind == atomic_kind::exchange) {
      return static_cast<T>(atomicExch(reinterpret_cast<W*>(p), static_cast<W>(v)));
#if defined(__HIP_DEVICE_COMPILE__)
    } else if constexpr (std::is_same_v<U, long long>) {
      return static_cast<T>(device_atomic_cas_minmax<Kind>(reinterpret_cast<long long*>(p),
                                                           static_cast<long long>(v)));
#endif
    } else if constexpr (Kind == atomic_kind::min) {
      return static_cast<T>(atomicMin(reinterpret_cast<U*>(p), static_cast<U>(v)));
    } else {
      return static_cast<T>(atomicMax(reinterpret_cast<U*>(p), static_cast<U>(v)));
    }
  }
}

/// Stores `desired` if `*p == expected`; returns the old value.
template <class T>
__device__ inline T device_atomic_cas(T* p, T expected, T desired) {
  if constexpr (std::is_floating_point_v<T>) {
    using bits_t = decltype(atomic_bits(expected));
    return atomic_from_bits(
        atomicCAS(reinterpret_cast<bits_t*>(p), atomic_bits(expected), atomic_bits(desired)), T{});
  } else {
    using W = std::conditional_t<sizeof(T) == 8, unsigned long long, gpu_atomic_int_t<T>>;
    return static_cast<T>(
        atomicCAS(reinterpret_cast<W*>(p), static_cast<W>(expected), static_cast<W>(desired)));
  }
}

}  // namespace tack::detail
#endif  // TACK_IMPL_DEVICE_PASS
