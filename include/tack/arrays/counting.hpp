// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
#pragma once
/// @file `tack::arrays::counting`: `start, start + step, start + 2 step, ...`.

#include <tack/arrays/implicit.hpp>
#include <tack/core/error.hpp>
#include <tack/core/macros.hpp>

#include <bit>
#include <cstdint>
#include <string>
#include <type_traits>

namespace tack::arrays {
namespace detail {

/// The largest length of a floating-point `counting`: its indices stay below 2^52, where
/// `index_to` is exact (and where every index is a distinct, exact double).
inline constexpr index_t max_floating_counting_length = index_t{1} << 52;

/// `T(i)` for an index `0 <= i < 2^52`, as `static_cast<T>(i)` computes it, in a form a
/// vectorizer can use. x86-64 has no vector int64 -> double conversion before AVX-512DQ, so GCC
/// leaves `static_cast<double>(i)` scalar and a loop over it stays scalar (or, forced by
/// `omp simd`, assembles vectors from scalar conversions, slower still). Placing `i` in the
/// mantissa of 2^52 and subtracting 2^52 is exact below 2^52 and costs an `or` and a subtraction,
/// in vectors or not. (A version exact to 2^63 takes six operations and doubled the instructions
/// of scalar loops over `counting<double>`; lengths are limited instead.) With AVX-512DQ the
/// conversion is one vector instruction (`vcvtqq2pd`), cheaper than the trick, and is used as is.
template <class T>
TACK_FORCEINLINE constexpr T index_to(index_t i) {
  if constexpr (std::is_floating_point_v<T> && sizeof(T) <= sizeof(double)) {
#if !TACK_IMPL_DEVICE_PASS && !defined(__AVX512DQ__)
    if (!std::is_constant_evaluated()) {
#if defined(__GNUC__)
      // An index the compiler knows to fit in 32 bits (one read from an int32 array, as in a
      // permutation) converts with one instruction, scalar or vector.
      if (__builtin_constant_p(static_cast<std::int32_t>(i) == i) &&
          static_cast<std::int32_t>(i) == i) {
        return static_cast<T>(static_cast<std::int32_t>(i));
      }
#endif
      const auto bits = static_cast<std::uint64_t>(i) | 0x4330000000000000ull;  // 2^52 + i
      return static_cast<T>(std::bit_cast<double>(bits) - 0x1p52);
    }
#endif
    return static_cast<T>(i);
  } else {
    // Integers: only the low bits of `i` matter to wrapping arithmetic; the conversion is modular.
    return static_cast<T>(i);
  }
}

/// The unsigned type integer arithmetic on `T` wraps in (at least `unsigned`: narrower unsigned
/// types promote to `int`, whose products can overflow).
template <class T>
using wrapping_t =
    std::conditional_t<(sizeof(T) < sizeof(unsigned)), unsigned, std::make_unsigned_t<T>>;

/// `a + b` and `a * b` for integers without signed overflow: computed modulo 2^width (C++20
/// defines the conversion back), so an element that T can represent comes out right whatever the
/// intermediate values. Other types: the plain operators.
template <class T>
TACK_FORCEINLINE constexpr T wrapping_add(T a, T b) {
  if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
    return static_cast<T>(static_cast<wrapping_t<T>>(a) + static_cast<wrapping_t<T>>(b));
  } else {
    return a + b;
  }
}
template <class T>
TACK_FORCEINLINE constexpr T wrapping_mul(T a, T b) {
  if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
    return static_cast<T>(static_cast<wrapping_t<T>>(a) * static_cast<wrapping_t<T>>(b));
  } else {
    return a * b;
  }
}

}  // namespace detail

template <class T>
struct counting_unit_step_fn;
template <class T>
struct counting_index_fn;

/// Element `i` is `start + step * T(i)`, computed from the index (no accumulated rounding).
/// Integer elements wrap like unsigned arithmetic instead of overflowing in between.
template <class T>
struct counting_fn {
  static constexpr bool computes_from_index = true;  // reads no memory
  T start{};
  T step{1};
  TACK_FORCEINLINE constexpr computed_t<T> operator()(index_t i) const {
    return detail::wrapping_add(start, detail::wrapping_mul(step, detail::index_to<T>(i)));
  }
  /// Runs `g` with the cheapest functor that gives the same elements: `counting_index_fn` for
  /// start 0 and step 1, `counting_unit_step_fn` for step 1, else this one. Exact in floating point
  /// too: `1 * x == x`, and `0 + x == x` for every `x = T(i)`, `i >= 0` (never -0).
  template <class G>
  decltype(auto) visit_form(G&& g) const {
    if (step == T(1)) {
      if (start == T(0)) return g(counting_index_fn<T>{});
      return g(counting_unit_step_fn<T>{start});
    }
    return g(*this);
  }
};

/// The form of `counting` that `launch` and the algorithms run when the step is 1:
/// `start + T(i)`, no multiply (for 32-bit integers without SSE4.1's `pmulld`, the multiply is
/// the most expensive part of the element). Converts to `counting_fn`.
template <class T>
struct counting_unit_step_fn {
  static constexpr bool computes_from_index = true;  // reads no memory
  T start{};
  TACK_FORCEINLINE constexpr computed_t<T> operator()(index_t i) const {
    return detail::wrapping_add(start, detail::index_to<T>(i));
  }
  TACK_INLINE constexpr operator counting_fn<T>() const { return counting_fn<T>{start, T(1)}; }
};

/// The form of `counting` that `launch` and the algorithms run for start 0 and step 1 (the
/// default): `T(i)`, the loop a user writes by hand. Converts to `counting_fn`.
template <class T>
struct counting_index_fn {
  static constexpr bool computes_from_index = true;  // reads no memory
  TACK_FORCEINLINE constexpr computed_t<T> operator()(index_t i) const {
    return detail::index_to<T>(i);
  }
  TACK_INLINE constexpr operator counting_fn<T>() const { return counting_fn<T>{T(0), T(1)}; }
};

/// `n` values `start + step * i`; stores nothing. The length, start and step are run-time
/// members: `counting<int>(5)` and `counting<int>(7)` have the same type. A floating-point `T`
/// allows up to 2^52 elements (a `value_error` past that).
/// `auto a = tack::arrays::counting<double>(100, 0.0, 0.5);  // 0, 0.5, 1, ...`
/// @param n length (negative is a `value_error`)
template <class T>
auto counting(index_t n, T start = T(0), T step = T(1)) {
  detail::check_length("tack::arrays::counting", n);
  if constexpr (std::is_floating_point_v<T>) {
    if (n > detail::max_floating_counting_length) {
      throw value_error(
          "tack::arrays::counting: length " + std::to_string(n) +
          " is more than 2^52 = " + std::to_string(detail::max_floating_counting_length) +
          " elements, past which indices are not exact in floating point; use an "
          "integer counting (and tack::arrays::cast) for longer ranges");
    }
  }
  return implicit_array<counting_fn<T>>(counting_fn<T>{start, step}, n);
}

}  // namespace tack::arrays
