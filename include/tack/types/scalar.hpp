// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
#pragma once
/// @file Scalar element types: the aliases `tack::f32` … `tack::u64`, the run-time tag
/// `tack::scalar_kind`, and the trait `tack::is_scalar_v` that says which C++ types are tack scalars.

#include <tack/core/macros.hpp>

#include <cstdint>
#include <limits>
#include <type_traits>

namespace tack {

/// 32-bit float. `tack::f32 x = 1.5f;`
using f32 = float;
/// 64-bit float. `tack::f64 x = 1.5;`
using f64 = double;
/// Signed integers. `tack::i32 n = -3;`
using i8 = std::int8_t;
using i16 = std::int16_t;
using i32 = std::int32_t;
using i64 = std::int64_t;
/// Unsigned integers. `tack::u8 byte = 255;`
using u8 = std::uint8_t;
using u16 = std::uint16_t;
using u32 = std::uint32_t;
using u64 = std::uint64_t;

/// The component type of an element, known at run time (`tack::dtype::kind()`).
/// The enumerators follow the alias names; `boolean` is `bool` (named "bool").
/// `if (a.dtype().kind() == tack::scalar_kind::f32) { ... }`
enum class scalar_kind : std::uint8_t { f32, f64, i8, i16, i32, i64, u8, u16, u32, u64, boolean };

/// How many scalar kinds exist (for tables indexed by `scalar_kind`).
inline constexpr int scalar_kind_count = 11;

namespace detail {
template <class T>
struct scalar_kind_of {
  static constexpr bool known = false;
};
// One specialization per listed type. Only these are tack scalars: `long long` or `char` are
// distinct C++ types with no fixed width in the standard, and silently mapping them would make a
// dtype depend on the platform. Users write `std::int64_t` (or `tack::i64`) instead.
#define TACK_IMPL_SCALAR_KIND(Type, Kind)                   \
  template <>                                               \
  struct scalar_kind_of<Type> {                             \
    static constexpr bool known = true;                     \
    static constexpr scalar_kind value = scalar_kind::Kind; \
  };
TACK_IMPL_SCALAR_KIND(float, f32)
TACK_IMPL_SCALAR_KIND(double, f64)
TACK_IMPL_SCALAR_KIND(std::int8_t, i8)
TACK_IMPL_SCALAR_KIND(std::int16_t, i16)
TACK_IMPL_SCALAR_KIND(std::int32_t, i32)
TACK_IMPL_SCALAR_KIND(std::int64_t, i64)
TACK_IMPL_SCALAR_KIND(std::uint8_t, u8)
TACK_IMPL_SCALAR_KIND(std::uint16_t, u16)
TACK_IMPL_SCALAR_KIND(std::uint32_t, u32)
TACK_IMPL_SCALAR_KIND(std::uint64_t, u64)
TACK_IMPL_SCALAR_KIND(bool, boolean)
#undef TACK_IMPL_SCALAR_KIND
}  // namespace detail

/// True for the tack scalar types: `float`, `double`, `std::int8_t` … `std::uint64_t`, `bool`
/// (cv-qualifiers ignored, as `std::is_arithmetic_v` does).
/// `static_assert(tack::is_scalar_v<float> && !tack::is_scalar_v<long double>);`
template <class T>
inline constexpr bool is_scalar_v = detail::scalar_kind_of<std::remove_cv_t<T>>::known;

/// The `scalar_kind` of a tack scalar type. `static_assert(tack::scalar_kind_of_v<double> ==
/// tack::scalar_kind::f64);`
template <class T>
requires is_scalar_v<T>
inline constexpr scalar_kind scalar_kind_of_v = detail::scalar_kind_of<std::remove_cv_t<T>>::value;

/// Bytes per value of a scalar kind. `tack::scalar_kind_size(tack::scalar_kind::f64) == 8`
constexpr int scalar_kind_size(scalar_kind k) noexcept {
  switch (k) {
    case scalar_kind::f32:
      return 4;
    case scalar_kind::f64:
      return 8;
    case scalar_kind::i8:
      return 1;
    case scalar_kind::i16:
      return 2;
    case scalar_kind::i32:
      return 4;
    case scalar_kind::i64:
      return 8;
    case scalar_kind::u8:
      return 1;
    case scalar_kind::u16:
      return 2;
    case scalar_kind::u32:
      return 4;
    case scalar_kind::u64:
      return 8;
    case scalar_kind::boolean:
      return static_cast<int>(sizeof(bool));
  }
  return 0;
}

/// The short name of a scalar kind, in static storage: `"f32"`, `"i64"`, `"bool"`.
/// `std::puts(tack::scalar_kind_name(tack::scalar_kind::u8));  // u8`
constexpr const char* scalar_kind_name(scalar_kind k) noexcept {
  switch (k) {
    case scalar_kind::f32:
      return "f32";
    case scalar_kind::f64:
      return "f64";
    case scalar_kind::i8:
      return "i8";
    case scalar_kind::i16:
      return "i16";
    case scalar_kind::i32:
      return "i32";
    case scalar_kind::i64:
      return "i64";
    case scalar_kind::u8:
      return "u8";
    case scalar_kind::u16:
      return "u16";
    case scalar_kind::u32:
      return "u32";
    case scalar_kind::u64:
      return "u64";
    case scalar_kind::boolean:
      return "bool";
  }
  return "?";
}

/// Whether a kind is `f32` or `f64`. `tack::is_floating_kind(tack::scalar_kind::f32) == true`
constexpr bool is_floating_kind(scalar_kind k) noexcept {
  return k == scalar_kind::f32 || k == scalar_kind::f64;
}

/// Whether a kind is a signed integer (`i8` … `i64`). Floats are signed too but answer false here.
/// `tack::is_signed_integer_kind(tack::scalar_kind::i16) == true`
constexpr bool is_signed_integer_kind(scalar_kind k) noexcept {
  return k == scalar_kind::i8 || k == scalar_kind::i16 || k == scalar_kind::i32 ||
         k == scalar_kind::i64;
}

/// Whether a kind is an unsigned integer (`u8` … `u64`); `bool` answers false.
/// `tack::is_unsigned_integer_kind(tack::scalar_kind::u32) == true`
constexpr bool is_unsigned_integer_kind(scalar_kind k) noexcept {
  return k == scalar_kind::u8 || k == scalar_kind::u16 || k == scalar_kind::u32 ||
         k == scalar_kind::u64;
}

namespace detail {
/// `x` converted to `To` as `astype` does: a floating-point value converted to an integer type
/// saturates (below the range: the minimum; above: the maximum; NaN: 0), which C++ leaves
/// undefined; every other conversion is `static_cast` (IEEE rounding; to `bool`: nonzero). Host
/// and device; kernels compiled from Python store with it too.
/// `tack::detail::convert_scalar<std::int8_t>(300.0f) == 127`
template <class To, class From>
TACK_HOST_DEVICE constexpr To convert_scalar(From x) noexcept {
  if constexpr (std::is_floating_point_v<From> && std::is_integral_v<To> &&
                !std::is_same_v<To, bool>) {
    if (x != x) return To(0);
    // Both bounds are powers of two (or 0), exact in every floating-point type.
    constexpr From lo = static_cast<From>(std::numeric_limits<To>::min());
    constexpr From hi = static_cast<From>(std::numeric_limits<To>::max() / 2 + 1) * From(2);
    if (x <= lo) return std::numeric_limits<To>::min();
    if (x >= hi) return std::numeric_limits<To>::max();
    return static_cast<To>(x);
  } else {
    return static_cast<To>(x);
  }
}
}  // namespace detail

}  // namespace tack
