// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
#pragma once
/// @file Element types as a family: `tack::item<T, E...>` names a scalar, vector or
/// matrix by its extents, the traits `scalar_t` / `components_v` describe any element, and the
/// concept `tack::element` says what an array may hold.

#include <tack/types/mat.hpp>
#include <tack/types/scalar.hpp>
#include <tack/types/vec.hpp>

#include <type_traits>

namespace tack {

namespace detail {
template <class T, int... E>
struct item_type {
  static_assert(sizeof...(E) <= 2,
                "tack::item<T, E...>: give no extent (a scalar), one (a "
                "vector) or two (a matrix); use an array for more dimensions");
  using type = T;
};
template <class T, int N>
struct item_type<T, N> {
  using type = vec<T, N>;
};
template <class T, int R, int C>
struct item_type<T, R, C> {
  using type = mat<T, R, C>;
};

template <class T>
struct element_traits {
  using scalar = T;
  static constexpr int components = 1;
  static constexpr int rank = 0;
  static constexpr int rows = 1;
  static constexpr int cols = 1;
};
template <class T, int N>
struct element_traits<vec<T, N>> {
  using scalar = T;
  static constexpr int components = N;
  static constexpr int rank = 1;
  static constexpr int rows = N;
  static constexpr int cols = 1;
};
template <class T, int R, int C>
struct element_traits<mat<T, R, C>> {
  using scalar = T;
  static constexpr int components = R * C;
  static constexpr int rank = 2;
  static constexpr int rows = R;
  static constexpr int cols = C;
};
}  // namespace detail

/// `item<T>` is `T`, `item<T, N>` is `vec<T, N>`, `item<T, R, C>` is `mat<T, R, C>`: one name for
/// the element types a kernel holds in registers:
/// `tack::item<double, 3, 3> m = tack::identity<double, 3>();`
template <class T, int... E>
using item = typename detail::item_type<T, E...>::type;

/// The component type: `float` for `vec3f`, `mat3f` and `float` itself. cv-qualifiers of the
/// element are dropped (`scalar_t<const vec3f>` is `float`). Any non-vector, non-matrix type maps
/// to itself. `tack::scalar_t<tack::mat3d> x = 0.0;`
template <class T>
using scalar_t = typename detail::element_traits<std::remove_cv_t<T>>::scalar;

/// Scalar components per element: 1 for a scalar, N for `vec<T, N>`, R·C for `mat<T, R, C>`.
/// `static_assert(tack::components_v<tack::mat3f> == 9);`
template <class T>
inline constexpr int components_v = detail::element_traits<std::remove_cv_t<T>>::components;

/// How many component axes an element adds to an array's storage shape: 0 (scalar), 1 (vector) or
/// 2 (matrix). `static_assert(tack::component_rank_v<tack::vec3f> == 1);`
template <class T>
inline constexpr int component_rank_v = detail::element_traits<std::remove_cv_t<T>>::rank;

/// The component axes' extents: a vector is (N), a matrix (R, C); unused axes are 1.
/// `static_assert(tack::component_rows_v<tack::mat<float, 2, 3>> == 2);`
template <class T>
inline constexpr int component_rows_v = detail::element_traits<std::remove_cv_t<T>>::rows;
/// `static_assert(tack::component_cols_v<tack::mat<float, 2, 3>> == 3);`
template <class T>
inline constexpr int component_cols_v = detail::element_traits<std::remove_cv_t<T>>::cols;

/// What a tack array may hold: a tack scalar (`float`, `double`, `std::int8_t` … `std::uint64_t`,
/// `bool`), or a `vec` / `mat` of one. cv-qualifiers are ignored (`array<const T>` holds `T`).
/// `template <tack::element T> void store(T value);`
template <class T>
concept element = is_scalar_v<T> ||((is_vec_v<T> || is_mat_v<T>)&&is_scalar_v<scalar_t<T>>);

namespace detail {
/// `x` converted to element type `To` as `astype` converts: each component with
/// `convert_scalar` (floats into integers saturate, NaN gives 0), so implicit casts
/// (`tack::arrays::cast`), `astype` and kernels compiled from Python agree on every value.
/// `tack::detail::convert_element<tack::vec2i>(tack::vec2f{3e9f, NAN})` is `{2147483647, 0}`.
template <class To, class From>
TACK_HOST_DEVICE constexpr To convert_element(const From& x) {
  if constexpr (is_vec_v<To>) {
    To out{};
    for (int c = 0; c < To::length; ++c) {
      out[c] = convert_scalar<typename To::scalar_type>(x[c]);
    }
    return out;
  } else if constexpr (is_mat_v<To>) {
    To out{};
    for (int r = 0; r < To::rows; ++r) {
      for (int c = 0; c < To::cols; ++c) {
        out(r, c) = convert_scalar<typename To::scalar_type>(x(r, c));
      }
    }
    return out;
  } else if constexpr (std::is_arithmetic_v<From>) {
    return convert_scalar<To>(x);
  } else {
    return static_cast<To>(x);
  }
}
}  // namespace detail

}  // namespace tack
