// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
#pragma once
/// @file Counter-based random arrays: `random_bits`, `random_uniform`, `random_normal`.
///
/// Element `i` of a random array with seed `s` is a pure function of `(s, i)`: one Philox-4x32-10
/// block (tack/detail/philox.hpp) with counter `i` and key `s`. Nothing is stored and there is no
/// generator state, so the values do not depend on the device, the number of threads or the order
/// of evaluation, and any element can be read alone (`r[1'000'000]` costs one block).
///
/// Bit-identical on every device: the bits are integer arithmetic; uniform values scale them
/// exactly; the normal transform uses this file's own logarithm and cosine, built from additions,
/// multiplications and divisions that are rounded once each (`__fmul_rn`-style intrinsics on the
/// GPU, which nvcc never fuses into FMAs). This holds as long as the host compiler does not fuse
/// either (GCC and Clang fuse only with `-ffp-contract=fast` on a target with FMA instructions,
/// e.g. `-march=native`); the `std::` math functions, which differ between libm and CUDA by an
/// ulp or so, are not used.

#include <tack/arrays/implicit.hpp>
#include <tack/detail/philox.hpp>

#include <bit>
#include <cmath>
#include <cstdint>
#include <type_traits>

namespace tack::arrays {

namespace detail {

// ---- once-rounded arithmetic ---------------------------------------------------------------------

TACK_FORCEINLINE float mul_rn(float a, float b) {
#if TACK_IMPL_DEVICE_PASS
  return __fmul_rn(a, b);
#else
  return a * b;
#endif
}
TACK_FORCEINLINE double mul_rn(double a, double b) {
#if TACK_IMPL_DEVICE_PASS
  return __dmul_rn(a, b);
#else
  return a * b;
#endif
}
TACK_FORCEINLINE float add_rn(float a, float b) {
#if TACK_IMPL_DEVICE_PASS
  return __fadd_rn(a, b);
#else
  return a + b;
#endif
}
TACK_FORCEINLINE double add_rn(double a, double b) {
#if TACK_IMPL_DEVICE_PASS
  return __dadd_rn(a, b);
#else
  return a + b;
#endif
}
TACK_FORCEINLINE float sqrt_rn(float a) {
#if TACK_IMPL_DEVICE_PASS
  return __fsqrt_rn(a);
#else
  return std::sqrt(a);
#endif
}
TACK_FORCEINLINE double sqrt_rn(double a) {
#if TACK_IMPL_DEVICE_PASS
  return __dsqrt_rn(a);
#else
  return std::sqrt(a);
#endif
}

/// Mantissa bits a uniform value of type `T` carries: 24 for float, 53 for double.
template <class T>
inline constexpr int uniform_bits = std::is_same_v<T, float> ? 24 : 53;

/// `2^-bits` as `T` (exact).
template <class T>
TACK_FORCEINLINE constexpr T inverse_power_of_two(int bits) {
  T r = T(1);
  for (int b = 0; b < bits; ++b) r *= T(0.5);
  return r;
}

/// The top `uniform_bits<T>` bits of a Philox block as an integer: word 0 for float, words 0 and 1
/// for double (`word` selects the pair: 0 uses words 0-1, 1 uses words 2-3).
template <class T>
TACK_FORCEINLINE constexpr std::uint64_t uniform_integer(const tack::detail::philox4x32_block& b,
                                                         int word) {
  if constexpr (std::is_same_v<T, float>) {
    return b.v[word] >> 8;
  } else {
    const std::uint64_t x = (static_cast<std::uint64_t>(b.v[2 * word]) << 32) | b.v[2 * word + 1];
    return x >> 11;
  }
}

/// `log(k * 2^-bits)` for an integer `1 <= k <= 2^bits`, from once-rounded operations:
/// `k = m * 2^e` with `m` in `[sqrt(1/2), sqrt(2))`, `log m = 2 atanh(s)`, `s = (m - 1) / (m + 1)`
/// (|s| <= 0.172, so a short odd series converges), plus `(e - bits) log 2`.
template <class T>
TACK_INLINE T log_of_dyadic(std::uint64_t k, int bits) {
  int e = std::bit_width(k) - 1;
  // m = k / 2^e is exact: k has at most `bits` significant bits and dividing by 2^e only
  // shifts the exponent.
  T m = static_cast<T>(k) / static_cast<T>(std::uint64_t(1) << e);
  if (m > T(1.4142135623730951)) {
    m = m * T(0.5);
    e += 1;
  }
  const T s = (m - T(1)) / add_rn(m, T(1));
  const T s2 = mul_rn(s, s);
  // Horner evaluation of 1 + s2/3 + s2^2/5 + ... (terms until below the type's precision).
  constexpr int terms = std::is_same_v<T, float> ? 6 : 13;
  T poly = T(1) / T(2 * terms - 1);
  for (int n = terms - 2; n >= 0; --n) {
    poly = add_rn(mul_rn(poly, s2), T(1) / T(2 * n + 1));
  }
  const T log_m = mul_rn(mul_rn(T(2), s), poly);
  // ln 2 split in a high part exact in T times small integers and a low correction.
  // (16 and 32 significant bits: `exponent * ln2_hi` is exact for |exponent| <= 64.)
  constexpr T ln2_hi = std::is_same_v<T, float> ? T(0.693145751953125) : T(0.6931471806019545);
  constexpr T ln2_lo =
      std::is_same_v<T, float> ? T(1.4286068203094173e-06) : T(-4.2009150726810846e-11);
  const T exponent = static_cast<T>(e - bits);
  return add_rn(add_rn(mul_rn(exponent, ln2_hi), mul_rn(exponent, ln2_lo)), log_m);
}

/// `cos(2 pi j 2^-bits)` for an integer `0 <= j < 2^bits`, from once-rounded operations: the
/// quadrant and the reflection about 1/8 turn are exact integer steps, then a Taylor polynomial
/// of cos or sin on an angle of at most pi/4.
template <class T>
TACK_INLINE T cos_two_pi_dyadic(std::uint64_t j, int bits) {
  const std::uint64_t quarter = std::uint64_t(1) << (bits - 2);
  const std::uint64_t quadrant = j >> (bits - 2);
  std::uint64_t r = j & (quarter - 1);  // angle within the quadrant, in units of 2^-bits turns
  // In the quadrant, cos(2 pi t) is (cos x, -sin x, -cos x, sin x) for x = 2 pi r 2^-bits.
  bool use_sin = (quadrant & 1) != 0;
  const bool negate = quadrant == 1 || quadrant == 2;
  if (r > quarter / 2) {
    // cos x = sin(pi/2 - x), sin x = cos(pi/2 - x): keep the angle at most pi/4.
    r = quarter - r;
    use_sin = !use_sin;
  }
  constexpr T two_pi =
      std::is_same_v<T, float> ? T(6.28318530717958647692f) : T(6.28318530717958647692);
  const T x = mul_rn(two_pi, static_cast<T>(r) * inverse_power_of_two<T>(bits));
  const T x2 = mul_rn(x, x);
  constexpr int terms = std::is_same_v<T, float> ? 6 : 10;
  T value;
  if (use_sin) {
    // sin x = x (1 - x^2/3! + x^4/5! - ...), Horner from the last term.
    T poly = T(1);
    for (int n = terms - 1; n >= 1; --n) {
      poly = add_rn(T(1), -mul_rn(mul_rn(poly, x2), T(1) / T((2 * n) * (2 * n + 1))));
    }
    value = mul_rn(x, poly);
  } else {
    // cos x = 1 - x^2/2! + x^4/4! - ...
    T poly = T(1);
    for (int n = terms - 1; n >= 1; --n) {
      poly = add_rn(T(1), -mul_rn(mul_rn(poly, x2), T(1) / T((2 * n - 1) * (2 * n))));
    }
    value = poly;
  }
  return negate ? -value : value;
}

}  // namespace detail

/// Element `i` is random bits of type `T` (`std::uint32_t` or `std::uint64_t`) from
/// Philox-4x32-10 with counter `i` and key `seed`.
template <class T>
struct random_bits_fn {
  static constexpr bool computes_from_index = true;  // reads no memory
  std::uint64_t seed;
  TACK_FORCEINLINE constexpr T operator()(index_t i) const {
    const auto b = tack::detail::philox_for_index(seed, static_cast<std::uint64_t>(i));
    if constexpr (sizeof(T) == 4) {
      return b.v[0];
    } else {
      return (static_cast<std::uint64_t>(b.v[0]) << 32) | b.v[1];
    }
  }
};

/// Element `i` is `lo + (hi - lo) * u` with `u` uniform in `[0, 1)` on the grid of `2^-24`
/// (float) or `2^-53` (double).
template <class T>
struct random_uniform_fn {
  static constexpr bool computes_from_index = true;  // reads no memory
  std::uint64_t seed;
  T lo;
  T hi;
  TACK_FORCEINLINE T operator()(index_t i) const {
    const auto b = tack::detail::philox_for_index(seed, static_cast<std::uint64_t>(i));
    const T u = static_cast<T>(detail::uniform_integer<T>(b, 0)) *
                detail::inverse_power_of_two<T>(detail::uniform_bits<T>);
    return detail::add_rn(lo, detail::mul_rn(hi - lo, u));
  }
};

/// Element `i` is a standard normal value by the Box–Muller transform of two uniform values of
/// the block: `sqrt(-2 log u1) cos(2 pi u2)`, `u1` in `(0, 1]`, `u2` in `[0, 1)`.
template <class T>
struct random_normal_fn {
  static constexpr bool computes_from_index = true;  // reads no memory
  std::uint64_t seed;
  TACK_FORCEINLINE T operator()(index_t i) const {
    constexpr int bits = detail::uniform_bits<T>;
    const auto b = tack::detail::philox_for_index(seed, static_cast<std::uint64_t>(i));
    const std::uint64_t k = detail::uniform_integer<T>(b, 0) + 1;  // u1 = k 2^-bits in (0, 1]
    const std::uint64_t j = detail::uniform_integer<T>(b, 1);      // u2 = j 2^-bits in [0, 1)
    const T radius = detail::sqrt_rn(detail::mul_rn(T(-2), detail::log_of_dyadic<T>(k, bits)));
    return detail::mul_rn(radius, detail::cos_two_pi_dyadic<T>(j, bits));
  }
};

/// `n` random bits per element, a pure function of `(seed, i)`: `T` is `std::uint32_t` (the
/// default, word 0 of the Philox block) or `std::uint64_t` (words 0 and 1, word 0 high), so the
/// 32-bit value is the high half of the 64-bit one.
/// `auto bits = tack::arrays::random_bits(1000, 42);  // std::uint32_t elements`
template <class T = std::uint32_t>
auto random_bits(index_t n, std::uint64_t seed) {
  static_assert(std::is_same_v<T, std::uint32_t> || std::is_same_v<T, std::uint64_t>,
                "tack::arrays::random_bits<T>: T is std::uint32_t or std::uint64_t; for other "
                "types cast the bits (tack::arrays::cast<U>) or use random_uniform");
  tack::arrays::detail::check_length("tack::arrays::random_bits", n);
  return implicit_array<random_bits_fn<T>>(random_bits_fn<T>{seed}, n);
}

/// `n` values uniform in `[lo, hi)` (`float` or `double`), a pure function of `(seed, i)`: the
/// same on every device and thread count. `u` takes the `2^24` (float) or `2^53` (double) values
/// `k 2^-bits`; the result is `lo + (hi - lo) * u`, rounded once per operation (so with `lo != 0`
/// rounding may reach `hi` itself). `lo > hi` is a `value_error`.
/// `auto u = tack::arrays::random_uniform<float>(1'000'000, 42);`
template <class T>
auto random_uniform(index_t n, std::uint64_t seed, T lo = T(0), T hi = T(1)) {
  static_assert(std::is_same_v<T, float> || std::is_same_v<T, double>,
                "tack::arrays::random_uniform<T>: T is float or double; for random integers use "
                "tack::arrays::random_bits");
  tack::arrays::detail::check_length("tack::arrays::random_uniform", n);
  if (!(lo <= hi)) {
    throw value_error("tack::arrays::random_uniform: lo must not exceed hi, got lo = " +
                      std::to_string(lo) + " and hi = " + std::to_string(hi));
  }
  return implicit_array<random_uniform_fn<T>>(random_uniform_fn<T>{seed, lo, hi}, n);
}

/// `n` standard normal values (mean 0, standard deviation 1; `float` or `double`), a pure function
/// of `(seed, i)` computed by Box–Muller from one Philox block per element; the same bits on every
/// device and thread count. Scale with an expression: `mu + sigma * random_normal<float>(n, s)`.
/// `auto z = tack::arrays::random_normal<double>(1'000'000, 7);`
template <class T>
auto random_normal(index_t n, std::uint64_t seed) {
  static_assert(std::is_same_v<T, float> || std::is_same_v<T, double>,
                "tack::arrays::random_normal<T>: T is float or double");
  tack::arrays::detail::check_length("tack::arrays::random_normal", n);
  return implicit_array<random_normal_fn<T>>(random_normal_fn<T>{seed}, n);
}

}  // namespace tack::arrays
