// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
#pragma once
/// @file `tack::mat<T, R, C>`: a small row-major matrix (R, C in 1..4) held in registers, usable on
/// host and device. Rows are `tack::vec<T, C>`, stored one after the other, so a `mat3d`
/// is nine contiguous doubles (72 bytes). Linear algebra: `transpose`, `determinant`, `inverse`,
/// matrix × vector, matrix × matrix, `tack::identity<T, N>()`.
///
/// Operators follow the rules of vec.hpp: `+ -` need two matrices of the same type, a scalar is
/// converted to `T` (`mat3f * 2.0` is a `mat3f`), and integer matrices refuse floating scalars.
/// `*` between matrices is the matrix product (there is no component-wise matrix product).

#include <tack/core/macros.hpp>
#include <tack/core/precondition.hpp>
#include <tack/types/vec.hpp>

#include <cstddef>
#include <limits>
#include <type_traits>

namespace tack {

namespace detail {

// Brace construction with the wrong shape; see vec_value_count for why the numbers are spelled out.
#define TACK_IMPL_MAT_ROWS(E, G)                                         \
  static_assert(!(Expected == E && Got == G),                            \
                "tack::mat<T, " #E ", C>: expected " #E " rows, got " #G \
                "; write one braced row per matrix row, e.g. tack::mat2f{{a, b}, {c, d}}");
#define TACK_IMPL_MAT_COLS(E, G)                                                   \
  static_assert(!(Expected == E && Got == G),                                      \
                "tack::mat<T, R, " #E ">: expected " #E " values per row, got " #G \
                "; write one braced row per matrix row, e.g. tack::mat2f{{a, b}, {c, d}}");
#define TACK_IMPL_MAT_COUNTS(M, E) M(E, 1) M(E, 2) M(E, 3) M(E, 4) M(E, 5) M(E, 6) M(E, 7) M(E, 8)
// A sequence of macro calls, which clang-format cannot lay out stably:
// clang-format off
template <int Expected, int Got>
TACK_INLINE constexpr void mat_row_count() {
  TACK_IMPL_MAT_COUNTS(TACK_IMPL_MAT_ROWS, 1) TACK_IMPL_MAT_COUNTS(TACK_IMPL_MAT_ROWS, 2)
  TACK_IMPL_MAT_COUNTS(TACK_IMPL_MAT_ROWS, 3) TACK_IMPL_MAT_COUNTS(TACK_IMPL_MAT_ROWS, 4)
  static_assert(Got <= 8,
                "tack::mat<T, R, C>: wrong number of rows in braces; give exactly R "
                "braced rows, e.g. tack::mat2f{{a, b}, {c, d}}");
}
template <int Expected, int Got>
TACK_INLINE constexpr void mat_col_count() {
  TACK_IMPL_MAT_COUNTS(TACK_IMPL_MAT_COLS, 1) TACK_IMPL_MAT_COUNTS(TACK_IMPL_MAT_COLS, 2)
  TACK_IMPL_MAT_COUNTS(TACK_IMPL_MAT_COLS, 3) TACK_IMPL_MAT_COUNTS(TACK_IMPL_MAT_COLS, 4)
  static_assert(Got <= 8,
                "tack::mat<T, R, C>: wrong number of values in a row; give exactly C "
                "values per row, e.g. tack::mat2f{{a, b}, {c, d}}");
}
// clang-format on
#undef TACK_IMPL_MAT_COUNTS
#undef TACK_IMPL_MAT_COLS
#undef TACK_IMPL_MAT_ROWS

/// The first row length in `Ks...` that differs from `C`, or 0 when all match.
template <int C, std::size_t... Ks>
constexpr int first_bad_row_length() {
  int bad = 0;
  ((bad = (bad == 0 && static_cast<int>(Ks) != C) ? static_cast<int>(Ks) : bad), ...);
  return bad;
}

/// Refuses matrix operators between different shapes or component types.
template <class T, int R, int C, class U, int R2, int C2>
TACK_INLINE constexpr bool check_same_mat() {
  if constexpr (R != R2 || C != C2) {
    static_assert(R == R2 && C == C2, "tack::mat: + and - need two matrices of the same shape");
  } else {
    static_assert(std::is_same_v<T, U>,
                  "tack::mat: operators need the same component type; "
                  "convert one operand first, e.g. tack::mat3d(a) + b");
  }
  return R == R2 && C == C2 && std::is_same_v<T, U>;
}

}  // namespace detail

/// An R×C matrix of arithmetic type `T`, R and C in 1..4, stored row by row: trivially copyable,
/// standard layout, `R * C * sizeof(T)` bytes. `mat3f m;` is uninitialized, `mat3f{}` is zero.
///
/// Brace construction takes exactly R braced rows of exactly C values each (`mat2f{{a, b}, {c, d}}`)
/// or R row vectors; another shape fails to compile with "expected R rows" / "expected C values per
/// row". `m[i]` is row `i` (a `vec<T, C>&`), `m(i, j)` the entry in row `i`, column `j`.
/// `tack::mat2f m{{1, 2}, {3, 4}}; m(0, 1) = 5; tack::vec2f r = m * tack::vec2f{1, 1};`
template <class T, int R, int C>
struct mat {
  static_assert(R >= 1 && R <= 4 && C >= 1 && C <= 4,
                "tack::mat<T, R, C>: R and C must be between 1 and 4; use an array with extra "
                "dimensions for larger blocks");
  static_assert(std::is_arithmetic_v<T> && !std::is_const_v<T> && !std::is_volatile_v<T>,
                "tack::mat<T, R, C>: T must be an unqualified arithmetic type (float, double, a "
                "fixed-width integer or bool)");

  /// The component type. `tack::mat3d::scalar_type` is `double`.
  using scalar_type = T;
  /// The type of one row. `tack::mat2x3f`-like `mat<float, 2, 3>::row_type` is `vec<float, 3>`.
  using row_type = vec<T, C>;
  /// The shape. `static_assert(tack::mat3f::rows == 3 && tack::mat3f::cols == 3);`
  static constexpr int rows = R;
  static constexpr int cols = C;

  /// Trivial: leaves the entries uninitialized; `mat3f{}` value-initializes them to zero.
  mat() = default;

  /// Row by row. `tack::mat2f m{{1, 2}, {3, 4}};`
  /// Each row is a braced list of `T` (as for a `T[C]` array, so narrowing a variable is refused).
  template <std::size_t... Ks>
  requires(sizeof...(Ks) >= 1) TACK_HOST_DEVICE constexpr mat(const T (&... values)[Ks]) : rows_{} {
    if constexpr (sizeof...(Ks) != R) {
      detail::mat_row_count<R, static_cast<int>(sizeof...(Ks))>();
    } else if constexpr (constexpr int bad = detail::first_bad_row_length<C, Ks...>(); bad != 0) {
      detail::mat_col_count<C, bad>();
    } else {
      int r = 0;
      (set_row(r++, values), ...);
    }
  }

  /// From R row vectors. `tack::mat3f m{e0, e1, e2};`
  template <class... Rows>
  requires(sizeof...(Rows) >= 1 && (std::is_same_v<std::remove_cvref_t<Rows>, vec<T, C>> && ...))
      TACK_HOST_DEVICE constexpr explicit(sizeof...(Rows) == 1) mat(const Rows&... row_vectors)
      : rows_{} {
    if constexpr (sizeof...(Rows) != R) {
      detail::mat_row_count<R, static_cast<int>(sizeof...(Rows))>();
    } else {
      int r = 0;
      ((rows_[r++] = row_vectors), ...);
    }
  }

  /// A flat list of scalars is refused: the row structure must be visible in the source. (This
  /// overload exists only to say so instead of "no matching constructor".)
  template <class... Args>
  requires(sizeof...(Args) >= 1 && (std::is_arithmetic_v<Args> && ...))
      TACK_HOST_DEVICE constexpr explicit mat(Args...)
      : rows_{} {
    static_assert(
        detail::dependent_false_v<Args...>,
        "tack::mat<T, R, C>: give the values row by row, e.g. tack::mat2f{{a, b}, {c, d}}, "
        "or use tack::mat<T, R, C>::filled(x) to broadcast one value");
  }

  /// Converts each entry with `static_cast`. `auto f = tack::mat3f(some_mat3d);`
  template <class U>
  requires(!std::is_same_v<U, T>) TACK_HOST_DEVICE constexpr explicit mat(const mat<U, R, C>& other)
      : rows_{} {
    for (int i = 0; i < R; ++i) {
      rows_[i] = vec<T, C>(other[i]);
    }
  }

  /// Every entry set to `value`. `auto m = tack::mat3f::filled(0.5f);`
  TACK_HOST_DEVICE static constexpr mat filled(T value) {
    mat m{};
    for (int i = 0; i < R; ++i) {
      m.rows_[i] = vec<T, C>::filled(value);
    }
    return m;
  }

  /// Row `i`, by reference. `m[0] = tack::vec3f{1, 0, 0};`
  TACK_HOST_DEVICE constexpr vec<T, C>& operator[](int i) {
    TACK_EXPECTS(i >= 0 && i < R, "tack::mat<T, %d, %d>::operator[]: row %d is outside [0, %d)", R,
                 C, i, R);
    return rows_[i];
  }
  TACK_HOST_DEVICE constexpr const vec<T, C>& operator[](int i) const {
    TACK_EXPECTS(i >= 0 && i < R, "tack::mat<T, %d, %d>::operator[]: row %d is outside [0, %d)", R,
                 C, i, R);
    return rows_[i];
  }

  /// The entry in row `i`, column `j`. `m(1, 2) = 0.0f;`
  TACK_HOST_DEVICE constexpr T& operator()(int i, int j) {
    TACK_EXPECTS(i >= 0 && i < R && j >= 0 && j < C,
                 "tack::mat<T, %d, %d>::operator(): index (%d, %d) is outside the matrix", R, C, i,
                 j);
    return rows_[i].data()[j];
  }
  TACK_HOST_DEVICE constexpr const T& operator()(int i, int j) const {
    TACK_EXPECTS(i >= 0 && i < R && j >= 0 && j < C,
                 "tack::mat<T, %d, %d>::operator(): index (%d, %d) is outside the matrix", R, C, i,
                 j);
    return rows_[i].data()[j];
  }

  /// Column `j`, copied into a vector. `tack::vec3f axis = m.col(2);`
  TACK_HOST_DEVICE constexpr vec<T, R> col(int j) const {
    TACK_EXPECTS(j >= 0 && j < C, "tack::mat<T, %d, %d>::col: column %d is outside [0, %d)", R, C,
                 j, C);
    vec<T, R> v{};
    for (int i = 0; i < R; ++i) {
      v[i] = rows_[i].data()[j];
    }
    return v;
  }

  /// The R×C entries, row after row (the layout of `T[R][C]`). `std::memcpy(dst, m.data(), sizeof m);`
  TACK_HOST_DEVICE constexpr T* data() noexcept { return rows_[0].data(); }
  TACK_HOST_DEVICE constexpr const T* data() const noexcept { return rows_[0].data(); }

  /// Entry-wise `+=` and `-=` with a matrix of the same type. `m += tack::identity<float, 3>();`
  TACK_HOST_DEVICE constexpr mat& operator+=(const mat& o) {
    for (int i = 0; i < R; ++i) {
      rows_[i] += o.rows_[i];
    }
    return *this;
  }
  TACK_HOST_DEVICE constexpr mat& operator-=(const mat& o) {
    for (int i = 0; i < R; ++i) {
      rows_[i] -= o.rows_[i];
    }
    return *this;
  }
  /// `m *= b` is `m = m * b` (the matrix product; square `b` only, so the shape is kept).
  TACK_HOST_DEVICE constexpr mat& operator*=(const mat<T, C, C>& b);
  /// Entry-wise with a scalar, converted to `T` first. `m *= 2; m /= 4;`
  template <class S>
  requires std::is_arithmetic_v<S> TACK_HOST_DEVICE constexpr mat& operator*=(S s) {
    for (int i = 0; i < R; ++i) {
      rows_[i] *= s;
    }
    return *this;
  }
  template <class S>
  requires std::is_arithmetic_v<S> TACK_HOST_DEVICE constexpr mat& operator/=(S s) {
    for (int i = 0; i < R; ++i) {
      rows_[i] /= s;
    }
    return *this;
  }

private:
  template <std::size_t K>
  TACK_HOST_DEVICE constexpr void set_row(int r, const T (&v)[K]) {
    for (int j = 0; j < C; ++j) {
      rows_[r].data()[j] = v[j];
    }
  }

  vec<T, C> rows_[R >= 1 ? R : 1];
};

/// Aliases for the common square matrices. `tack::mat3d rotation = tack::identity<double, 3>();`
using mat2f = mat<float, 2, 2>;
using mat3f = mat<float, 3, 3>;
using mat4f = mat<float, 4, 4>;
using mat2d = mat<double, 2, 2>;
using mat3d = mat<double, 3, 3>;
using mat4d = mat<double, 4, 4>;

/// True for `tack::mat<T, R, C>` (cv-qualifiers ignored). `static_assert(tack::is_mat_v<tack::mat3f>);`
template <class T>
inline constexpr bool is_mat_v = false;
template <class T, int R, int C>
inline constexpr bool is_mat_v<mat<T, R, C>> = true;
template <class T>
inline constexpr bool is_mat_v<const T> = is_mat_v<T>;
template <class T>
inline constexpr bool is_mat_v<volatile T> = is_mat_v<T>;
template <class T>
inline constexpr bool is_mat_v<const volatile T> = is_mat_v<T>;

/// The N×N identity matrix. `auto i3 = tack::identity<float, 3>();`
template <class T, int N>
TACK_INLINE constexpr mat<T, N, N> identity() {
  mat<T, N, N> m{};
  for (int i = 0; i < N; ++i) {
    m(i, i) = T(1);
  }
  return m;
}

// ---- arithmetic -----------------------------------------------------------------------------

/// Entry-wise sum and difference of two matrices of the same type. `auto s = a + b;`
template <class T, int R, int C, class U, int R2, int C2>
TACK_INLINE constexpr mat<T, R, C> operator+(const mat<T, R, C>& a, const mat<U, R2, C2>& b) {
  mat<T, R, C> r = a;
  if constexpr (detail::check_same_mat<T, R, C, U, R2, C2>()) {
    r += b;
  }
  return r;
}
template <class T, int R, int C, class U, int R2, int C2>
TACK_INLINE constexpr mat<T, R, C> operator-(const mat<T, R, C>& a, const mat<U, R2, C2>& b) {
  mat<T, R, C> r = a;
  if constexpr (detail::check_same_mat<T, R, C, U, R2, C2>()) {
    r -= b;
  }
  return r;
}
/// Entry-wise negation. `auto n = -m;`
template <class T, int R, int C>
TACK_INLINE constexpr mat<T, R, C> operator-(const mat<T, R, C>& m) {
  mat<T, R, C> r = m;
  for (int i = 0; i < R; ++i) {
    r[i] = -m[i];
  }
  return r;
}
/// Unary plus: the matrix itself.
template <class T, int R, int C>
TACK_INLINE constexpr mat<T, R, C> operator+(const mat<T, R, C>& m) {
  return m;
}

/// Matrix times scalar (either side) and matrix divided by scalar, entry-wise; the scalar is
/// converted to `T`. `auto half = 0.5f * m;`
template <class T, int R, int C, class S>
requires std::is_arithmetic_v<S> TACK_INLINE constexpr mat<T, R, C> operator*(const mat<T, R, C>& m,
                                                                              S s) {
  mat<T, R, C> r = m;
  return r *= s;
}
template <class T, int R, int C, class S>
requires std::is_arithmetic_v<S> TACK_INLINE constexpr mat<T, R, C> operator*(
    S s, const mat<T, R, C>& m) {
  mat<T, R, C> r = m;
  return r *= s;
}
template <class T, int R, int C, class S>
requires std::is_arithmetic_v<S> TACK_INLINE constexpr mat<T, R, C> operator/(const mat<T, R, C>& m,
                                                                              S s) {
  mat<T, R, C> r = m;
  return r /= s;
}

/// Matrix × column vector: `(m * v)[i] = dot(m[i], v)`. The vector has C components of type `T`.
/// `tack::vec3f y = rotation * x;`
template <class T, int R, int C, class U, int N>
TACK_INLINE constexpr vec<T, R> operator*(const mat<T, R, C>& m, const vec<U, N>& v) {
  vec<T, R> r{};
  if constexpr (N != C) {
    static_assert(N == C,
                  "tack::mat * tack::vec: the vector needs as many components as the matrix "
                  "has columns");
  } else if constexpr (!std::is_same_v<T, U>) {
    static_assert(std::is_same_v<T, U>,
                  "tack::mat * tack::vec: operands need the same component "
                  "type; convert one first, e.g. tack::mat3d(m) * v");
  } else {
    for (int i = 0; i < R; ++i) {
      r[i] = dot(m[i], v);
    }
  }
  return r;
}

/// Matrix product: an R×K matrix times a K×C matrix is R×C. `auto ab = a * b;`
template <class T, int R, int K, class U, int K2, int C>
TACK_INLINE constexpr mat<T, R, C> operator*(const mat<T, R, K>& a, const mat<U, K2, C>& b) {
  mat<T, R, C> r{};
  if constexpr (K != K2) {
    static_assert(K == K2,
                  "tack::mat * tack::mat: the left matrix needs as many columns as the "
                  "right one has rows");
  } else if constexpr (!std::is_same_v<T, U>) {
    static_assert(std::is_same_v<T, U>,
                  "tack::mat * tack::mat: operands need the same component "
                  "type; convert one first, e.g. tack::mat3d(a) * b");
  } else {
    for (int i = 0; i < R; ++i) {
      for (int j = 0; j < C; ++j) {
        T s = static_cast<T>(a(i, 0) * b(0, j));
        for (int k = 1; k < K; ++k) {
          s = static_cast<T>(s + a(i, k) * b(k, j));
        }
        r(i, j) = s;
      }
    }
  }
  return r;
}

template <class T, int R, int C>
TACK_HOST_DEVICE constexpr mat<T, R, C>& mat<T, R, C>::operator*=(const mat<T, C, C>& b) {
  *this = *this * b;
  return *this;
}

/// True when every entry compares equal; `!=` is its negation.
template <class T, int R, int C>
TACK_INLINE constexpr bool operator==(const mat<T, R, C>& a, const mat<T, R, C>& b) {
  for (int i = 0; i < R; ++i) {
    if (!(a[i] == b[i])) {
      return false;
    }
  }
  return true;
}

// ---- linear algebra -------------------------------------------------------------------------

/// The C×R matrix with rows and columns exchanged. `auto mt = tack::transpose(m);`
template <class T, int R, int C>
TACK_INLINE constexpr mat<T, C, R> transpose(const mat<T, R, C>& m) {
  mat<T, C, R> t{};
  for (int i = 0; i < R; ++i) {
    for (int j = 0; j < C; ++j) {
      t(j, i) = m(i, j);
    }
  }
  return t;
}

/// The determinant of a square matrix (up to 4×4), by cofactor expansion, in `T` (exact for
/// integers that do not overflow). Constant-evaluable. `double d = tack::determinant(m);`
template <class T, int R, int C>
TACK_INLINE constexpr T determinant(const mat<T, R, C>& m) {
  if constexpr (R != C) {
    static_assert(R == C, "tack::determinant: needs a square matrix");
    return T{};
  } else if constexpr (R == 1) {
    return m(0, 0);
  } else if constexpr (R == 2) {
    return static_cast<T>(m(0, 0) * m(1, 1) - m(0, 1) * m(1, 0));
  } else if constexpr (R == 3) {
    return static_cast<T>(m(0, 0) * (m(1, 1) * m(2, 2) - m(1, 2) * m(2, 1)) +
                          m(0, 1) * (m(1, 2) * m(2, 0) - m(1, 0) * m(2, 2)) +
                          m(0, 2) * (m(1, 0) * m(2, 1) - m(1, 1) * m(2, 0)));
  } else {
    // Laplace expansion by complementary minors: the 2×2 minors of rows 0-1 (s) pair with those of
    // rows 2-3 (c) on the complementary columns; 6 + 6 products instead of four 3×3 determinants.
    const auto s01 = m(0, 0) * m(1, 1) - m(0, 1) * m(1, 0);
    const auto s02 = m(0, 0) * m(1, 2) - m(0, 2) * m(1, 0);
    const auto s03 = m(0, 0) * m(1, 3) - m(0, 3) * m(1, 0);
    const auto s12 = m(0, 1) * m(1, 2) - m(0, 2) * m(1, 1);
    const auto s13 = m(0, 1) * m(1, 3) - m(0, 3) * m(1, 1);
    const auto s23 = m(0, 2) * m(1, 3) - m(0, 3) * m(1, 2);
    const auto c01 = m(2, 0) * m(3, 1) - m(2, 1) * m(3, 0);
    const auto c02 = m(2, 0) * m(3, 2) - m(2, 2) * m(3, 0);
    const auto c03 = m(2, 0) * m(3, 3) - m(2, 3) * m(3, 0);
    const auto c12 = m(2, 1) * m(3, 2) - m(2, 2) * m(3, 1);
    const auto c13 = m(2, 1) * m(3, 3) - m(2, 3) * m(3, 1);
    const auto c23 = m(2, 2) * m(3, 3) - m(2, 3) * m(3, 2);
    return static_cast<T>(s01 * c23 - s02 * c13 + s03 * c12 + s12 * c03 - s13 * c02 + s23 * c01);
  }
}

/// The inverse of a square floating-point matrix (up to 4×4): the adjugate divided by the
/// determinant. A singular matrix (determinant exactly 0) gives a matrix of NaN, so that a failed
/// inversion never passes for a valid result; nearly singular matrices are inverted as they are
/// (check `determinant` or the residual when that matters). Constant-evaluable.
/// `tack::mat3d inv = tack::inverse(m);  // inv * m ≈ identity`
template <class T, int R, int C>
TACK_INLINE constexpr mat<T, R, C> inverse(const mat<T, R, C>& m) {
  if constexpr (R != C) {
    static_assert(R == C, "tack::inverse: needs a square matrix");
    return m;
  } else if constexpr (!std::is_floating_point_v<T>) {
    static_assert(
        std::is_floating_point_v<T>,
        "tack::inverse: needs floating-point entries (the inverse of an integer matrix is "
        "not an integer matrix); convert first, e.g. tack::inverse(tack::mat3d(m))");
    return m;
  } else {
    mat<T, R, C> inv{};
    T det{};
    if constexpr (R == 1) {
      det = m(0, 0);
      inv(0, 0) = T(1);
    } else if constexpr (R == 2) {
      det = m(0, 0) * m(1, 1) - m(0, 1) * m(1, 0);
      inv = mat<T, 2, 2>{{m(1, 1), -m(0, 1)}, {-m(1, 0), m(0, 0)}};
    } else if constexpr (R == 3) {
      // inv(j, i) = cofactor(i, j): the adjugate is the transposed cofactor matrix.
      inv(0, 0) = m(1, 1) * m(2, 2) - m(1, 2) * m(2, 1);
      inv(1, 0) = m(1, 2) * m(2, 0) - m(1, 0) * m(2, 2);
      inv(2, 0) = m(1, 0) * m(2, 1) - m(1, 1) * m(2, 0);
      inv(0, 1) = m(0, 2) * m(2, 1) - m(0, 1) * m(2, 2);
      inv(1, 1) = m(0, 0) * m(2, 2) - m(0, 2) * m(2, 0);
      inv(2, 1) = m(0, 1) * m(2, 0) - m(0, 0) * m(2, 1);
      inv(0, 2) = m(0, 1) * m(1, 2) - m(0, 2) * m(1, 1);
      inv(1, 2) = m(0, 2) * m(1, 0) - m(0, 0) * m(1, 2);
      inv(2, 2) = m(0, 0) * m(1, 1) - m(0, 1) * m(1, 0);
      det = m(0, 0) * inv(0, 0) + m(0, 1) * inv(1, 0) + m(0, 2) * inv(2, 0);
    } else {
      // 2×2 minors of rows 0-1 (s) and rows 2-3 (c); every 3×3 cofactor is a row entry times
      // three of them, so the 16 cofactors share 12 products.
      const T s01 = m(0, 0) * m(1, 1) - m(0, 1) * m(1, 0);
      const T s02 = m(0, 0) * m(1, 2) - m(0, 2) * m(1, 0);
      const T s03 = m(0, 0) * m(1, 3) - m(0, 3) * m(1, 0);
      const T s12 = m(0, 1) * m(1, 2) - m(0, 2) * m(1, 1);
      const T s13 = m(0, 1) * m(1, 3) - m(0, 3) * m(1, 1);
      const T s23 = m(0, 2) * m(1, 3) - m(0, 3) * m(1, 2);
      const T c01 = m(2, 0) * m(3, 1) - m(2, 1) * m(3, 0);
      const T c02 = m(2, 0) * m(3, 2) - m(2, 2) * m(3, 0);
      const T c03 = m(2, 0) * m(3, 3) - m(2, 3) * m(3, 0);
      const T c12 = m(2, 1) * m(3, 2) - m(2, 2) * m(3, 1);
      const T c13 = m(2, 1) * m(3, 3) - m(2, 3) * m(3, 1);
      const T c23 = m(2, 2) * m(3, 3) - m(2, 3) * m(3, 2);
      // Cofactors of rows 0 and 1 expand their 3×3 minors along the other of those rows (c terms);
      // rows 2 and 3 along the other of rows 2-3 (s terms). inv(j, i) = cofactor(i, j).
      inv(0, 0) = m(1, 1) * c23 - m(1, 2) * c13 + m(1, 3) * c12;
      inv(1, 0) = -(m(1, 0) * c23 - m(1, 2) * c03 + m(1, 3) * c02);
      inv(2, 0) = m(1, 0) * c13 - m(1, 1) * c03 + m(1, 3) * c01;
      inv(3, 0) = -(m(1, 0) * c12 - m(1, 1) * c02 + m(1, 2) * c01);
      inv(0, 1) = -(m(0, 1) * c23 - m(0, 2) * c13 + m(0, 3) * c12);
      inv(1, 1) = m(0, 0) * c23 - m(0, 2) * c03 + m(0, 3) * c02;
      inv(2, 1) = -(m(0, 0) * c13 - m(0, 1) * c03 + m(0, 3) * c01);
      inv(3, 1) = m(0, 0) * c12 - m(0, 1) * c02 + m(0, 2) * c01;
      inv(0, 2) = m(3, 1) * s23 - m(3, 2) * s13 + m(3, 3) * s12;
      inv(1, 2) = -(m(3, 0) * s23 - m(3, 2) * s03 + m(3, 3) * s02);
      inv(2, 2) = m(3, 0) * s13 - m(3, 1) * s03 + m(3, 3) * s01;
      inv(3, 2) = -(m(3, 0) * s12 - m(3, 1) * s02 + m(3, 2) * s01);
      inv(0, 3) = -(m(2, 1) * s23 - m(2, 2) * s13 + m(2, 3) * s12);
      inv(1, 3) = m(2, 0) * s23 - m(2, 2) * s03 + m(2, 3) * s02;
      inv(2, 3) = -(m(2, 0) * s13 - m(2, 1) * s03 + m(2, 3) * s01);
      inv(3, 3) = m(2, 0) * s12 - m(2, 1) * s02 + m(2, 2) * s01;
      det = s01 * c23 - s02 * c13 + s03 * c12 + s12 * c03 - s13 * c02 + s23 * c01;
    }
    if (det == T(0)) {
      return mat<T, R, C>::filled(std::numeric_limits<T>::quiet_NaN());
    }
    return inv / det;
  }
}

}  // namespace tack
