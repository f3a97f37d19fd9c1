// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
#pragma once
/// @file `tack::arrays::uniform_coordinates`: the point coordinates of a 2-D or 3-D uniform grid,
/// x fastest, as a rank-2 or rank-3 implicit array.

#include <tack/arrays/implicit.hpp>
#include <tack/types/vec.hpp>

#include <array>
#include <cstddef>
#include <string>
#include <type_traits>

namespace tack::arrays {

/// Point `i = ix + nx * (iy + ny * iz)` is `origin + spacing * (ix, iy, iz)` component-wise; as a
/// rank-3 array of shape `(nz, ny, nx)`, element `(iz, iy, ix)` is the same point.
template <class T>
struct uniform_coordinates_fn {
  static constexpr bool computes_from_index = true;  // reads no memory
  static constexpr int rank = 3;
  index_t nx;
  index_t ny;
  vec<T, 3> origin;
  vec<T, 3> spacing;
  index_t nz = 0;

  /// `(nz, ny, nx)`: row-major with x fastest, the flat order.
  TACK_HOST_DEVICE constexpr std::array<index_t, 3> shape() const noexcept { return {nz, ny, nx}; }

  /// Point `(ix, iy, iz)` from the index vector `(iz, iy, ix)`.
  TACK_FORCEINLINE constexpr computed_t<vec<T, 3>> operator()(const vec<index_t, 3>& k) const {
    return vec<T, 3>{origin[0] + spacing[0] * static_cast<T>(k[2]),
                     origin[1] + spacing[1] * static_cast<T>(k[1]),
                     origin[2] + spacing[2] * static_cast<T>(k[0])};
  }

  TACK_FORCEINLINE constexpr computed_t<vec<T, 3>> operator()(index_t i) const {
    const index_t ix = i % nx;
    const index_t r = i / nx;
    const index_t iy = r % ny;
    const index_t iz = r / ny;
    return vec<T, 3>{origin[0] + spacing[0] * static_cast<T>(ix),
                     origin[1] + spacing[1] * static_cast<T>(iy),
                     origin[2] + spacing[2] * static_cast<T>(iz)};
  }
};

/// Point `i = ix + nx * iy` is `origin + spacing * (ix, iy)` component-wise; as a rank-2 array of
/// shape `(ny, nx)`, element `(iy, ix)` is the same point.
template <class T>
struct uniform_coordinates_2d_fn {
  static constexpr bool computes_from_index = true;  // reads no memory
  static constexpr int rank = 2;
  index_t nx;
  index_t ny;
  vec<T, 2> origin;
  vec<T, 2> spacing;

  /// `(ny, nx)`: row-major with x fastest, the flat order.
  TACK_HOST_DEVICE constexpr std::array<index_t, 2> shape() const noexcept { return {ny, nx}; }

  /// Point `(ix, iy)` from the index vector `(iy, ix)`.
  TACK_FORCEINLINE constexpr computed_t<vec<T, 2>> operator()(const vec<index_t, 2>& k) const {
    return vec<T, 2>{origin[0] + spacing[0] * static_cast<T>(k[1]),
                     origin[1] + spacing[1] * static_cast<T>(k[0])};
  }

  TACK_FORCEINLINE constexpr computed_t<vec<T, 2>> operator()(index_t i) const {
    return vec<T, 2>{origin[0] + spacing[0] * static_cast<T>(i % nx),
                     origin[1] + spacing[1] * static_cast<T>(i / nx)};
  }
};

namespace detail {
/// How many point dimensions `Dims` holds when its type says so (`std::array`, `tack::vec`, a C
/// array), else 0 (any type indexable by 0..2 is read as 3-D, as before).
template <class Dims>
struct point_dims_count : std::integral_constant<int, 0> {};
template <class I, std::size_t N>
struct point_dims_count<std::array<I, N>> : std::integral_constant<int, static_cast<int>(N)> {};
template <class I, int N>
struct point_dims_count<vec<I, N>> : std::integral_constant<int, N> {};
template <class I, std::size_t N>
struct point_dims_count<I[N]> : std::integral_constant<int, static_cast<int>(N)> {};

[[noreturn]] inline void refuse_point_dims(const std::string& dims) {
  throw value_error(
      "tack::arrays::uniform_coordinates: point dimensions must be non-negative, "
      "got " +
      dims);
}
}  // namespace detail

/// The `nx * ny * nz` points of a uniform grid with `point_dims = {nx, ny, nz}` points per axis,
/// x fastest (VTK's order); a negative dimension is a `value_error`. It is a rank-3 array of shape
/// `(nz, ny, nx)`: `pts(k, j, i)` is point `(i, j, k)`, and the flat `pts[i + nx * (j + ny * k)]`
/// the same one. `point_dims` is anything
/// indexable by 0..2 (a braced list, `std::array`, `tack::vec3i`).
/// `auto pts = tack::arrays::uniform_coordinates({3, 2, 2}, tack::vec3f{0, 0, 0},
///                                               tack::vec3f{0.5f, 1, 1});  // pts[1] == {0.5, 0, 0}`
template <class T = float, class Dims = std::array<index_t, 3>>
requires(detail::point_dims_count<Dims>::value == 3 ||
         detail::point_dims_count<Dims>::value ==
             0) auto uniform_coordinates(const Dims& point_dims,
                                         vec<T, 3> origin = vec<T, 3>{0, 0, 0},
                                         vec<T, 3> spacing = vec<T, 3>{1, 1, 1}) {
  const index_t nx = static_cast<index_t>(point_dims[0]);
  const index_t ny = static_cast<index_t>(point_dims[1]);
  const index_t nz = static_cast<index_t>(point_dims[2]);
  if (nx < 0 || ny < 0 || nz < 0) {
    throw value_error(
        "tack::arrays::uniform_coordinates: point dimensions must be non-negative, "
        "got (" +
        std::to_string(nx) + ", " + std::to_string(ny) + ", " + std::to_string(nz) + ")");
  }
  return implicit_array<uniform_coordinates_fn<T>>(
      uniform_coordinates_fn<T>{nx, ny, origin, spacing, nz},
      detail::checked_element_count("tack::arrays::uniform_coordinates",
                                    std::array<index_t, 3>{nx, ny, nz}));
}
/// A braced list of three point dimensions: `uniform_coordinates({3, 2, 2}, origin, spacing)`.
template <class T = float>
auto uniform_coordinates(const index_t (&point_dims)[3], vec<T, 3> origin = vec<T, 3>{0, 0, 0},
                         vec<T, 3> spacing = vec<T, 3>{1, 1, 1}) {
  return uniform_coordinates<T>(std::array<index_t, 3>{point_dims[0], point_dims[1], point_dims[2]},
                                origin, spacing);
}

/// The `nx * ny` points of a 2-D uniform grid with `point_dims = {nx, ny}`, x fastest: a rank-2
/// array of shape `(ny, nx)` of `vec<T, 2>`, where `pts(j, i)` is point `(i, j)` and the flat
/// `pts[i + nx * j]` the same one. A negative dimension is a `value_error`.
/// `auto pts = tack::arrays::uniform_coordinates({3, 2}, tack::vec2f{0, 0}, tack::vec2f{0.5f, 1});
///  // pts(1, 2) == {1.0, 1.0}`
template <class T = float, class Dims>
requires(detail::point_dims_count<Dims>::value ==
         2) auto uniform_coordinates(const Dims& point_dims, vec<T, 2> origin = vec<T, 2>{0, 0},
                                     vec<T, 2> spacing = vec<T, 2>{1, 1}) {
  const index_t nx = static_cast<index_t>(point_dims[0]);
  const index_t ny = static_cast<index_t>(point_dims[1]);
  if (nx < 0 || ny < 0) {
    detail::refuse_point_dims("(" + std::to_string(nx) + ", " + std::to_string(ny) + ")");
  }
  return implicit_array<uniform_coordinates_2d_fn<T>>(
      uniform_coordinates_2d_fn<T>{nx, ny, origin, spacing},
      detail::checked_element_count("tack::arrays::uniform_coordinates",
                                    std::array<index_t, 2>{nx, ny}));
}
/// A braced list of two point dimensions: `uniform_coordinates({3, 2}, origin, spacing)`.
template <class T = float>
auto uniform_coordinates(const index_t (&point_dims)[2], vec<T, 2> origin = vec<T, 2>{0, 0},
                         vec<T, 2> spacing = vec<T, 2>{1, 1}) {
  return uniform_coordinates<T>(std::array<index_t, 2>{point_dims[0], point_dims[1]}, origin,
                                spacing);
}

}  // namespace tack::arrays
