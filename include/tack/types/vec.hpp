// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
#pragma once
/// @file `tack::vec<T, N>`: a small fixed-length vector held in registers, usable on host and device
///. Component-wise arithmetic, `dot`, `cross`, `norm`, `normalize`.
///
/// Arithmetic rules (documented here because every operator follows them):
/// - vector ⊕ vector needs the same length and component type; mixing `vec3f` and `vec3d` is refused
///   at compile time (convert one side explicitly: `tack::vec3d(a) + b`).
/// - vector ⊕ scalar converts the scalar to `T` and keeps the vector's type: `vec3f * 2.0` is a
///   `vec3f` (as a NumPy `float32` array times a Python float stays `float32`). An integer vector
///   with a floating-point scalar is refused at compile time, since the scalar would be truncated
///   (`vec3i * 0.5` would silently be zero).
/// - Integer results are converted back to `T`, so small integer types wrap as in NumPy.

#include <tack/core/macros.hpp>
#include <tack/core/precondition.hpp>

#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

namespace tack {

template <class T, int N>
struct vec;

namespace detail {

/// A `false` that depends on template arguments, for `static_assert` in discarded branches.
template <class...>
inline constexpr bool dependent_false_v = false;

/// Type of `norm(v)`: `T` for floating-point components, `double` for integers.
template <class T>
using norm_type = std::conditional_t<std::is_floating_point_v<T>, T, double>;

/// Square root by Newton's iteration, for constant evaluation only (`std::sqrt` is not constexpr in
/// C++20, and device code cannot rely on <cmath>). Starting above the root makes the iterates
/// decrease monotonically, so "stop when it no longer decreases" terminates; the result is within
/// one ulp of the correctly rounded root.
template <class F>
TACK_INLINE constexpr F constexpr_sqrt(F x) {
  if (x != x || x < F(0)) {
    return std::numeric_limits<F>::quiet_NaN();
  }
  if (x == F(0) || x == std::numeric_limits<F>::infinity()) {
    return x;
  }
  F r = x > F(1) ? x : F(1);
  for (;;) {
    const F next = F(0.5) * (r + x / r);
    if (!(next < r)) {
      return r;
    }
    r = next;
  }
}

/// Run-time square root that works in both nvcc passes: `::sqrtf`/`::sqrt` (CUDA math functions) on
/// the device, `std::sqrt` on the host.
TACK_INLINE float runtime_sqrt(float x) {
#if TACK_IMPL_DEVICE_PASS
  return ::sqrtf(x);
#else
  return std::sqrt(x);
#endif
}
TACK_INLINE double runtime_sqrt(double x) {
#if TACK_IMPL_DEVICE_PASS
  return ::sqrt(x);
#else
  return std::sqrt(x);
#endif
}

/// Square root for `float`/`double`, usable in constant expressions and in kernels.
template <class F>
TACK_INLINE constexpr F scalar_sqrt(F x) {
  static_assert(std::is_floating_point_v<F>, "tack::detail::scalar_sqrt: float or double only");
  if (std::is_constant_evaluated()) {
    return constexpr_sqrt(x);
  }
  return runtime_sqrt(x);
}

/// Refuses a floating-point scalar with an integer vector/matrix (see the file comment).
template <class T, class S>
TACK_INLINE constexpr void check_scalar_operand() {
  static_assert(!(std::is_integral_v<T> && std::is_floating_point_v<S>),
                "tack::vec/tack::mat: an integer vector or matrix combined with a floating-point "
                "scalar would truncate the scalar; convert the vector first, e.g. "
                "tack::vec3d(v) * 0.5");
}

/// Refuses component-wise operators between vectors of different lengths or component types.
template <class T, int N, class U, int M>
TACK_INLINE constexpr bool check_same_vec() {
  if constexpr (N != M) {
    static_assert(N == M,
                  "tack::vec: component-wise operators need two vectors of the same length");
  } else {
    static_assert(std::is_same_v<T, U>,
                  "tack::vec: component-wise operators need the same component type; convert one "
                  "operand first, e.g. tack::vec3d(a) + b");
  }
  return N == M && std::is_same_v<T, U>;
}

// Brace construction with the wrong number of values. A static_assert message must be a string
// literal in C++20, so the counts are spelled out for the common lengths (expected 1..16, given
// 1..17); beyond that a generic message is printed. Only the assertion for the actual pair fails.
#define TACK_IMPL_VEC_COUNT(E, G)                                         \
  static_assert(!(Expected == E && Got == G),                             \
                "tack::vec<T, " #E ">: expected " #E " values, got " #G   \
                "; give one value per component, or use tack::vec<T, " #E \
                ">::filled(x) to broadcast one value");
// A sequence of macro calls, which clang-format cannot lay out stably:
// clang-format off
#define TACK_IMPL_VEC_COUNTS(E)                                                                \
  TACK_IMPL_VEC_COUNT(E, 1) TACK_IMPL_VEC_COUNT(E, 2) TACK_IMPL_VEC_COUNT(E, 3)                \
  TACK_IMPL_VEC_COUNT(E, 4) TACK_IMPL_VEC_COUNT(E, 5) TACK_IMPL_VEC_COUNT(E, 6)                \
  TACK_IMPL_VEC_COUNT(E, 7) TACK_IMPL_VEC_COUNT(E, 8) TACK_IMPL_VEC_COUNT(E, 9)                \
  TACK_IMPL_VEC_COUNT(E, 10) TACK_IMPL_VEC_COUNT(E, 11) TACK_IMPL_VEC_COUNT(E, 12)             \
  TACK_IMPL_VEC_COUNT(E, 13) TACK_IMPL_VEC_COUNT(E, 14) TACK_IMPL_VEC_COUNT(E, 15)             \
  TACK_IMPL_VEC_COUNT(E, 16) TACK_IMPL_VEC_COUNT(E, 17)
template <int Expected, int Got>
TACK_INLINE constexpr void vec_value_count() {
  TACK_IMPL_VEC_COUNTS(1) TACK_IMPL_VEC_COUNTS(2) TACK_IMPL_VEC_COUNTS(3) TACK_IMPL_VEC_COUNTS(4)
  TACK_IMPL_VEC_COUNTS(5) TACK_IMPL_VEC_COUNTS(6) TACK_IMPL_VEC_COUNTS(7) TACK_IMPL_VEC_COUNTS(8)
  TACK_IMPL_VEC_COUNTS(9) TACK_IMPL_VEC_COUNTS(10) TACK_IMPL_VEC_COUNTS(11)
  TACK_IMPL_VEC_COUNTS(12) TACK_IMPL_VEC_COUNTS(13) TACK_IMPL_VEC_COUNTS(14)
  TACK_IMPL_VEC_COUNTS(15) TACK_IMPL_VEC_COUNTS(16)
  static_assert(Expected <= 16 && Got <= 17,
                "tack::vec<T, N>: wrong number of values in braces; give exactly N values (one per "
                "component), or use tack::vec<T, N>::filled(x) to broadcast one value");
}
// clang-format on
#undef TACK_IMPL_VEC_COUNTS
#undef TACK_IMPL_VEC_COUNT

}  // namespace detail

/// A vector of `N` components of arithmetic type `T`: trivially copyable, standard layout, exactly
/// `N * sizeof(T)` bytes with `T`'s alignment (no padding: `sizeof(vec3f) == 12`), so arrays of
/// vectors are interleaved scalars. `vec3f v;` is uninitialized (like `float`), `vec3f{}` is zero.
///
/// Brace construction takes exactly `N` values (converted to `T` with `static_cast`); any other
/// count fails to compile with "expected N values, got M". `filled(x)` broadcasts one value.
///
/// The class has no `size()` and no `value_type` on purpose: a `vec` is one element, and those names
/// would make it look like an array to `tack::readable_array` and `tack::array_value_t`.
/// `tack::vec3f v{1, 0, 0}; v[1] = 2; auto w = 2.0f * v + tack::vec3f::filled(1);`
template <class T, int N>
struct vec {
  static_assert(N >= 1, "tack::vec<T, N>: N must be at least 1");
  static_assert(std::is_arithmetic_v<T> && !std::is_const_v<T> && !std::is_volatile_v<T>,
                "tack::vec<T, N>: T must be an unqualified arithmetic type (float, double, a "
                "fixed-width integer or bool); use tack::mat<T, R, C> for matrices");

  /// The component type. `tack::vec3f::scalar_type` is `float`.
  using scalar_type = T;
  /// The number of components. `static_assert(tack::vec3f::length == 3);`
  static constexpr int length = N;

  /// Trivial: leaves the components uninitialized; `vec3f{}` value-initializes them to zero.
  vec() = default;

  /// One value per component, converted to `T`. `tack::vec3f v{1, 0, 0};`
  template <class... Args>
  requires(sizeof...(Args) == N && (std::is_convertible_v<Args, T> && ...))
      TACK_HOST_DEVICE constexpr explicit(N == 1) vec(Args... values)
      : data_{static_cast<T>(values)...} {}

  /// The wrong number of values: refused with "expected N values, got M" (this overload exists only
  /// to print that message instead of "no matching constructor").
  template <class... Args>
  requires(sizeof...(Args) != N && sizeof...(Args) >= 1 && (std::is_convertible_v<Args, T> && ...))
      TACK_HOST_DEVICE constexpr explicit(sizeof...(Args) == 1) vec(Args...)
      : data_{} {
    detail::vec_value_count<N, static_cast<int>(sizeof...(Args))>();
  }

  /// Converts each component with `static_cast`. `tack::vec3d d{...}; auto f = tack::vec3f(d);`
  template <class U>
  requires(!std::is_same_v<U, T>) TACK_HOST_DEVICE constexpr explicit vec(const vec<U, N>& other)
      : data_{} {
    for (int i = 0; i < N; ++i) {
      data_[i] = static_cast<T>(other[i]);
    }
  }

  /// Every component set to `value`. `auto ones = tack::vec3f::filled(1);`
  TACK_HOST_DEVICE static constexpr vec filled(T value) {
    vec v{};
    for (int i = 0; i < N; ++i) {
      v.data_[i] = value;
    }
    return v;
  }

  /// Component `i` (checked in bounds-checked builds). `v[2] = 1.0f;`
  TACK_HOST_DEVICE constexpr T& operator[](int i) {
    TACK_EXPECTS(i >= 0 && i < N, "tack::vec<T, %d>::operator[]: index %d is outside [0, %d)", N, i,
                 N);
    return data_[i];
  }
  /// Component `i` (read-only).
  TACK_HOST_DEVICE constexpr const T& operator[](int i) const {
    TACK_EXPECTS(i >= 0 && i < N, "tack::vec<T, %d>::operator[]: index %d is outside [0, %d)", N, i,
                 N);
    return data_[i];
  }

  /// Named components for N <= 4. `float height = p.z();`
  TACK_HOST_DEVICE constexpr T& x() { return data_[0]; }
  TACK_HOST_DEVICE constexpr const T& x() const { return data_[0]; }
  TACK_HOST_DEVICE constexpr T& y() requires(N >= 2) { return data_[1]; }
  TACK_HOST_DEVICE constexpr const T& y() const requires(N >= 2) { return data_[1]; }
  TACK_HOST_DEVICE constexpr T& z() requires(N >= 3) { return data_[2]; }
  TACK_HOST_DEVICE constexpr const T& z() const requires(N >= 3) { return data_[2]; }
  TACK_HOST_DEVICE constexpr T& w() requires(N >= 4) { return data_[3]; }
  TACK_HOST_DEVICE constexpr const T& w() const requires(N >= 4) { return data_[3]; }

  /// The `N` contiguous components. `std::memcpy(dst, v.data(), sizeof v);`
  TACK_HOST_DEVICE constexpr T* data() noexcept { return data_; }
  TACK_HOST_DEVICE constexpr const T* data() const noexcept { return data_; }

  /// Component-wise compound assignment. `v += w; v *= 2;`
  TACK_HOST_DEVICE constexpr vec& operator+=(const vec& o) {
    for (int i = 0; i < N; ++i) {
      data_[i] = static_cast<T>(data_[i] + o.data_[i]);
    }
    return *this;
  }
  TACK_HOST_DEVICE constexpr vec& operator-=(const vec& o) {
    for (int i = 0; i < N; ++i) {
      data_[i] = static_cast<T>(data_[i] - o.data_[i]);
    }
    return *this;
  }
  TACK_HOST_DEVICE constexpr vec& operator*=(const vec& o) {
    for (int i = 0; i < N; ++i) {
      data_[i] = static_cast<T>(data_[i] * o.data_[i]);
    }
    return *this;
  }
  TACK_HOST_DEVICE constexpr vec& operator/=(const vec& o) {
    for (int i = 0; i < N; ++i) {
      data_[i] = static_cast<T>(data_[i] / o.data_[i]);
    }
    return *this;
  }
  /// With a scalar, converted to `T` first (see the file comment for the rules).
  template <class S>
  requires std::is_arithmetic_v<S> TACK_HOST_DEVICE constexpr vec& operator+=(S s) {
    detail::check_scalar_operand<T, S>();
    const T t = static_cast<T>(s);
    for (int i = 0; i < N; ++i) {
      data_[i] = static_cast<T>(data_[i] + t);
    }
    return *this;
  }
  template <class S>
  requires std::is_arithmetic_v<S> TACK_HOST_DEVICE constexpr vec& operator-=(S s) {
    detail::check_scalar_operand<T, S>();
    const T t = static_cast<T>(s);
    for (int i = 0; i < N; ++i) {
      data_[i] = static_cast<T>(data_[i] - t);
    }
    return *this;
  }
  template <class S>
  requires std::is_arithmetic_v<S> TACK_HOST_DEVICE constexpr vec& operator*=(S s) {
    detail::check_scalar_operand<T, S>();
    const T t = static_cast<T>(s);
    for (int i = 0; i < N; ++i) {
      data_[i] = static_cast<T>(data_[i] * t);
    }
    return *this;
  }
  /// Divides each component by `s` (a true division, not a multiplication by `1 / s`, so that
  /// results are correctly rounded).
  template <class S>
  requires std::is_arithmetic_v<S> TACK_HOST_DEVICE constexpr vec& operator/=(S s) {
    detail::check_scalar_operand<T, S>();
    const T t = static_cast<T>(s);
    for (int i = 0; i < N; ++i) {
      data_[i] = static_cast<T>(data_[i] / t);
    }
    return *this;
  }

private:
  T data_[N >= 1 ? N : 1];
};

/// Aliases for the common vectors. `tack::vec3f p{0, 0, 1};`
using vec2f = vec<float, 2>;
using vec3f = vec<float, 3>;
using vec4f = vec<float, 4>;
using vec2d = vec<double, 2>;
using vec3d = vec<double, 3>;
using vec4d = vec<double, 4>;
/// `int32` components. `tack::vec3i cell{1, 2, 3};`
using vec3i = vec<std::int32_t, 3>;

/// True for `tack::vec<T, N>` (cv-qualifiers ignored). `static_assert(tack::is_vec_v<tack::vec3f>);`
template <class T>
inline constexpr bool is_vec_v = false;
template <class T, int N>
inline constexpr bool is_vec_v<vec<T, N>> = true;
template <class T>
inline constexpr bool is_vec_v<const T> = is_vec_v<T>;
template <class T>
inline constexpr bool is_vec_v<volatile T> = is_vec_v<T>;
template <class T>
inline constexpr bool is_vec_v<const volatile T> = is_vec_v<T>;

// ---- arithmetic -----------------------------------------------------------------------------

/// Component-wise sum, difference, product and quotient of two vectors of the same type.
/// `tack::vec3f c = a + b;`
template <class T, int N, class U, int M>
TACK_INLINE constexpr vec<T, N> operator+(const vec<T, N>& a, const vec<U, M>& b) {
  vec<T, N> r = a;
  if constexpr (detail::check_same_vec<T, N, U, M>()) {
    r += b;
  }
  return r;
}
/// `tack::vec3f d = a - b;`
template <class T, int N, class U, int M>
TACK_INLINE constexpr vec<T, N> operator-(const vec<T, N>& a, const vec<U, M>& b) {
  vec<T, N> r = a;
  if constexpr (detail::check_same_vec<T, N, U, M>()) {
    r -= b;
  }
  return r;
}
/// Component-wise (Hadamard) product. `tack::vec3f s = scale * v;`
template <class T, int N, class U, int M>
TACK_INLINE constexpr vec<T, N> operator*(const vec<T, N>& a, const vec<U, M>& b) {
  vec<T, N> r = a;
  if constexpr (detail::check_same_vec<T, N, U, M>()) {
    r *= b;
  }
  return r;
}
/// Component-wise quotient. `tack::vec3f q = a / b;`
template <class T, int N, class U, int M>
TACK_INLINE constexpr vec<T, N> operator/(const vec<T, N>& a, const vec<U, M>& b) {
  vec<T, N> r = a;
  if constexpr (detail::check_same_vec<T, N, U, M>()) {
    r /= b;
  }
  return r;
}

/// Vector with a scalar on either side; the scalar is converted to `T` and the result is a
/// `vec<T, N>` (`vec3f * 2.0` is a `vec3f`). `auto w = 0.5f * (a + b);`
template <class T, int N, class S>
requires std::is_arithmetic_v<S> TACK_INLINE constexpr vec<T, N> operator+(const vec<T, N>& v,
                                                                           S s) {
  vec<T, N> r = v;
  return r += s;
}
template <class T, int N, class S>
requires std::is_arithmetic_v<S> TACK_INLINE constexpr vec<T, N> operator+(S s,
                                                                           const vec<T, N>& v) {
  vec<T, N> r = v;
  return r += s;
}
template <class T, int N, class S>
requires std::is_arithmetic_v<S> TACK_INLINE constexpr vec<T, N> operator-(const vec<T, N>& v,
                                                                           S s) {
  vec<T, N> r = v;
  return r -= s;
}
/// `s - v` is `{s - v[0], s - v[1], ...}`.
template <class T, int N, class S>
requires std::is_arithmetic_v<S> TACK_INLINE constexpr vec<T, N> operator-(S s,
                                                                           const vec<T, N>& v) {
  detail::check_scalar_operand<T, S>();
  vec<T, N> r = v;
  for (int i = 0; i < N; ++i) {
    r[i] = static_cast<T>(static_cast<T>(s) - v[i]);
  }
  return r;
}
template <class T, int N, class S>
requires std::is_arithmetic_v<S> TACK_INLINE constexpr vec<T, N> operator*(const vec<T, N>& v,
                                                                           S s) {
  vec<T, N> r = v;
  return r *= s;
}
template <class T, int N, class S>
requires std::is_arithmetic_v<S> TACK_INLINE constexpr vec<T, N> operator*(S s,
                                                                           const vec<T, N>& v) {
  vec<T, N> r = v;
  return r *= s;
}
template <class T, int N, class S>
requires std::is_arithmetic_v<S> TACK_INLINE constexpr vec<T, N> operator/(const vec<T, N>& v,
                                                                           S s) {
  vec<T, N> r = v;
  return r /= s;
}
/// `s / v` is `{s / v[0], s / v[1], ...}`. `auto inv = 1.0f / v;`
template <class T, int N, class S>
requires std::is_arithmetic_v<S> TACK_INLINE constexpr vec<T, N> operator/(S s,
                                                                           const vec<T, N>& v) {
  detail::check_scalar_operand<T, S>();
  vec<T, N> r = v;
  for (int i = 0; i < N; ++i) {
    r[i] = static_cast<T>(static_cast<T>(s) / v[i]);
  }
  return r;
}

/// Component-wise negation. `auto back = -forward;`
template <class T, int N>
TACK_INLINE constexpr vec<T, N> operator-(const vec<T, N>& v) {
  vec<T, N> r = v;
  for (int i = 0; i < N; ++i) {
    r[i] = static_cast<T>(-v[i]);
  }
  return r;
}
/// Unary plus: the vector itself.
template <class T, int N>
TACK_INLINE constexpr vec<T, N> operator+(const vec<T, N>& v) {
  return v;
}

/// True when every component compares equal (so a NaN component makes vectors unequal); `!=` is
/// its negation. `assert((tack::vec2f{1, 2} == tack::vec2f{1, 2}));`
template <class T, int N>
TACK_INLINE constexpr bool operator==(const vec<T, N>& a, const vec<T, N>& b) {
  for (int i = 0; i < N; ++i) {
    if (!(a[i] == b[i])) {
      return false;
    }
  }
  return true;
}

// ---- geometry -------------------------------------------------------------------------------

/// Sum of the component products, in `T` and in index order. `float c = tack::dot(a, b);`
template <class T, int N>
TACK_INLINE constexpr T dot(const vec<T, N>& a, const vec<T, N>& b) {
  T s = static_cast<T>(a[0] * b[0]);
  for (int i = 1; i < N; ++i) {
    s = static_cast<T>(s + a[i] * b[i]);
  }
  return s;
}

/// The cross product of 3-vectors (a 3-vector), or of 2-vectors (the scalar z component of the 3-D
/// cross product, `a.x * b.y - a.y * b.x`). `auto n = tack::cross(e1, e2);`
template <class T, int N>
TACK_INLINE constexpr auto cross(const vec<T, N>& a, const vec<T, N>& b) {
  if constexpr (N == 3) {
    return vec<T, 3>{a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2],
                     a[0] * b[1] - a[1] * b[0]};
  } else if constexpr (N == 2) {
    return static_cast<T>(a[0] * b[1] - a[1] * b[0]);
  } else {
    static_assert(
        detail::dependent_false_v<T>,
        "tack::cross: defined for 3-vectors (giving a 3-vector) and 2-vectors (giving the "
        "scalar z component); other lengths have no cross product");
    return T{};
  }
}

/// Euclidean length, `sqrt(dot(v, v))`, without rescaling (components near the square root of the
/// type's largest value overflow, as in GLM). Integer vectors give a `double`. Constant-evaluable.
/// `float len = tack::norm(tack::vec3f{3, 4, 0});  // 5`
template <class T, int N>
TACK_INLINE constexpr detail::norm_type<T> norm(const vec<T, N>& v) {
  using F = detail::norm_type<T>;
  // Started from the first square, not from 0: `0.0 + x` cannot be folded away (signed zeros),
  // so starting from 0 would add an instruction the hand-written expression does not have.
  F s = static_cast<F>(v[0]) * static_cast<F>(v[0]);
  for (int i = 1; i < N; ++i) {
    s += static_cast<F>(v[i]) * static_cast<F>(v[i]);
  }
  return detail::scalar_sqrt(s);
}

/// `v / norm(v)`. A zero vector gives NaN components (0 / 0), so the failure shows instead of
/// passing as a valid direction. Floating-point components only.
/// `tack::vec3f dir = tack::normalize(target - origin);`
template <class T, int N>
TACK_INLINE constexpr vec<T, N> normalize(const vec<T, N>& v) {
  if constexpr (!std::is_floating_point_v<T>) {
    static_assert(std::is_floating_point_v<T>,
                  "tack::normalize: needs floating-point components; convert first, e.g. "
                  "tack::normalize(tack::vec3d(v))");
    return v;
  } else {
    return v / norm(v);
  }
}

}  // namespace tack
