// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
#pragma once
/// @file `tack::arrays::counting`: `start, start + step, start + 2 step, ...` (DESIGN §6).

#include <tack/arrays/implicit.hpp>

#include <bit>
#include <cstdint>
#include <type_traits>

namespace tack::arrays {
namespace detail {

/// `T(i)` for an index `i >= 0`, as `static_cast<T>(i)` computes it, in a form a vectorizer can
/// use. x86-64 has no vector int64 -> double conversion before AVX-512DQ, so GCC leaves
/// `static_cast<double>(i)` scalar and a loop over it stays scalar (or, forced by `omp simd`,
/// assembles vectors from scalar conversions, which is slower still). Here the two 32-bit halves
/// become doubles by placing them in the mantissas of 2^84 and 2^52: two integer ops, one exact
/// subtraction and one correctly rounded addition, all vectorizable, equal to the cast for every
/// `i` in [0, 2^63). A floating-point `T` narrower than double rounds that double once more, which
/// equals the direct cast while `i < 2^53` (every double there is exact).
template <class T>
TACK_FORCEINLINE constexpr T index_to(index_t i) {
  if constexpr (std::is_floating_point_v<T> && sizeof(T) <= sizeof(double)) {
#if !defined(__CUDA_ARCH__)
    if (!std::is_constant_evaluated()) {
      const auto u = static_cast<std::uint64_t>(i);
      const double high =
          std::bit_cast<double>((u >> 32) | 0x4530000000000000ull) - 0x1.00000001p84;
      const double low = std::bit_cast<double>((u & 0xffffffffull) | 0x4330000000000000ull);
      return static_cast<T>(high + low);
    }
#endif
    return static_cast<T>(i);
  } else if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
    // Only the low bits of `i` matter to wrapping arithmetic; the conversion is modular.
    return static_cast<T>(i);
  } else {
    return static_cast<T>(i);
  }
}

/// The unsigned type integer arithmetic on `T` wraps in (at least `unsigned`: narrower unsigned
/// types promote to `int`, whose products can overflow).
template <class T>
using wrapping_t = std::conditional_t<(sizeof(T) < sizeof(unsigned)), unsigned,
                                      std::make_unsigned_t<T>>;

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
  /// Runs `g` with `counting_unit_step_fn` when the step is 1 (same elements: `1 * x == x`
  /// exactly, also in floating point), else with this functor.
  template <class G>
  decltype(auto) visit_form(G&& g) const {
    if (step == T(1)) return g(counting_unit_step_fn<T>{start});
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

/// `n` values `start + step * i`; stores nothing. The length, start and step are run-time members:
/// `counting<int>(5)` and `counting<int>(7)` have the same type.
/// `auto a = tack::arrays::counting<double>(100, 0.0, 0.5);  // 0, 0.5, 1, ...`
/// @param n length (negative is a `value_error`)
template <class T>
auto counting(index_t n, T start = T(0), T step = T(1)) {
  detail::check_length("tack::arrays::counting", n);
  return implicit_array<counting_fn<T>>(counting_fn<T>{start, step}, n);
}

}  // namespace tack::arrays
