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

/// A list of types: the parameter pack of a table of types. `tack::type_list<float, double>{}`
template <class... Ts>
struct type_list {
  /// How many types the list holds.
  static constexpr int size = static_cast<int>(sizeof...(Ts));
};

/// The scalar types, in `scalar_kind` order: the one table of tack's scalar types. Everything that
/// dispatches on a `scalar_kind` goes through `visit_scalar_kind`, so adding a type means adding
/// it here and to the enum, and to the names other libraries give it (NumPy, DLPack, MPI, VTK).
/// `tack::visit_scalar_kind(k, [&]<class S>() { ... })`
using scalar_types = type_list<f32, f64, i8, i16, i32, i64, u8, u16, u32, u64, bool>;

/// How many scalar kinds exist (for tables indexed by `scalar_kind`).
inline constexpr int scalar_kind_count = scalar_types::size;

namespace detail {
template <class T, class... Ts>
constexpr int index_in(type_list<Ts...>) noexcept {
  int i = 0, found = -1;
  ((std::is_same_v<T, Ts> ? (found = found < 0 ? i : found, ++i) : ++i), ...);
  return found;
}

template <int I, class F, class T, class... Rest>
constexpr decltype(auto) visit_at(int k, F& f, type_list<T, Rest...>) {
  if constexpr (sizeof...(Rest) == 0) {
    return f.template operator()<T>();
  } else {
    if (k == I) return f.template operator()<T>();
    return visit_at<I + 1>(k, f, type_list<Rest...>{});
  }
}

struct size_of_scalar {
  template <class S>
  constexpr int operator()() const noexcept {
    return static_cast<int>(sizeof(S));
  }
};

// Only the table's types are tack scalars: `long long` or `char` are distinct C++ types with no
// fixed width in the standard, and silently mapping them would make a dtype depend on the
// platform. Users write `std::int64_t` (or `tack::i64`) instead.
template <class T>
struct scalar_kind_of {
  static constexpr int index = index_in<T>(scalar_types{});
  static constexpr bool known = index >= 0;
  static constexpr scalar_kind value = static_cast<scalar_kind>(known ? index : 0);
};
}  // namespace detail

/// Calls `f.template operator()<S>()` with the scalar type of kind `k` and returns what it
/// returns (every call returns the same type). `std::size_t bytes = tack::visit_scalar_kind(k,
/// []<class S>() { return sizeof(S); });`
template <class F>
constexpr decltype(auto) visit_scalar_kind(scalar_kind k, F&& f) {
  return detail::visit_at<0>(static_cast<int>(k), f, scalar_types{});
}

/// `visit_scalar_kind` among the types of `list` only, for code instantiated for fewer types:
/// `k` must be the kind of one of them (otherwise the last type is used).
/// `tack::visit_scalar_kind(k, f, tack::type_list<float, double>{})`
template <class F, class... Ts>
constexpr decltype(auto) visit_scalar_kind(scalar_kind k, F&& f, type_list<Ts...> list) {
  static_assert(((detail::scalar_kind_of<Ts>::known) && ...),
                "tack::visit_scalar_kind: the list holds a type that is not a tack scalar");
  constexpr int kinds[] = {static_cast<int>(detail::scalar_kind_of<Ts>::value)...};
  int at = 0;
  while (at + 1 < static_cast<int>(sizeof...(Ts)) && kinds[at] != static_cast<int>(k)) ++at;
  return detail::visit_at<0>(at, f, list);
}

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

static_assert(scalar_kind_of_v<bool> == scalar_kind::boolean &&
                  scalar_kind_of_v<u64> == scalar_kind::u64 && scalar_kind_count == 11,
              "tack::scalar_types must list the types in the order of scalar_kind's enumerators");

/// Bytes per value of a scalar kind. `tack::scalar_kind_size(tack::scalar_kind::f64) == 8`
constexpr int scalar_kind_size(scalar_kind k) noexcept {
  return visit_scalar_kind(k, detail::size_of_scalar{});
}

/// The short name of a scalar kind, in static storage: `"f32"`, `"i64"`, `"bool"`.
/// `std::puts(tack::scalar_kind_name(tack::scalar_kind::u8));  // u8`
constexpr const char* scalar_kind_name(scalar_kind k) noexcept {
  constexpr const char* names[scalar_kind_count] = {"f32", "f64", "i8",  "i16", "i32", "i64",
                                                     "u8",  "u16", "u32", "u64", "bool"};
  const int i = static_cast<int>(k);
  return i >= 0 && i < scalar_kind_count ? names[i] : "?";
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

/// The kind NumPy 2 gives the result of an operation on two arrays of kinds `a` and `b` (the
/// same kind: itself; `bool` with anything: the other; integers of one signedness: the wider;
/// mixed signedness: the signed kind wide enough for both, or `f64` past 64 bits; `f32` with an
/// integer of up to 16 bits: `f32`, wider: `f64`). Python's run-time compositions and kernels
/// follow it. `static_assert(tack::promote_kinds(tack::scalar_kind::u8, tack::scalar_kind::i8) ==
/// tack::scalar_kind::i16);`
constexpr scalar_kind promote_kinds(scalar_kind a, scalar_kind b) noexcept {
  using K = scalar_kind;
  if (a == b) return a;
  if (a == K::boolean) return b;
  if (b == K::boolean) return a;
  const int sa = scalar_kind_size(a), sb = scalar_kind_size(b);
  if (is_floating_kind(a) || is_floating_kind(b)) {
    if (a == K::f64 || b == K::f64) return K::f64;
    const int integer_size = is_floating_kind(a) ? sb : sa;  // f32 holds 16-bit integers exactly
    return integer_size <= 2 ? K::f32 : K::f64;
  }
  if (is_signed_integer_kind(a) == is_signed_integer_kind(b)) return sa >= sb ? a : b;
  const K s = is_signed_integer_kind(a) ? a : b, u = is_signed_integer_kind(a) ? b : a;
  const int ss = scalar_kind_size(s), us = scalar_kind_size(u);
  if (ss > us) return s;
  if (us == 1) return K::i16;
  if (us == 2) return K::i32;
  if (us == 4) return K::i64;
  return K::f64;
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
