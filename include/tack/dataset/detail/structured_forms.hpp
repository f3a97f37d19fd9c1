// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
#pragma once
/// @file Kernel forms of the structured meshes: `uniform_form` (with the CPU kernel's prefetch of
/// a cell's corners) and `rectilinear_form`, each locating a point's stencil on its grid.

#include <tack/core/index.hpp>
#include <tack/core/macros.hpp>
#include <tack/dataset/detail/stencil.hpp>
#include <tack/types/item.hpp>

#include <cstddef>
#include <cstdint>
#include <initializer_list>

namespace tack::dataset::detail {

/// How many points ahead the CPU kernel asks for the corner values of a uniform grid's cell.
inline constexpr index_t prefetch_distance = 16;

/// A uniform grid on the kernel side: point dimensions, origin, 1 / spacing, and what the CPU
/// kernel's prefetch needs (the same in single precision, the corner offsets in bytes per value).
struct uniform_form {
  index_t dims[3];
  double origin[3];
  double inv_spacing[3];
  float origin_f[3];
  float inv_spacing_f[3];

  /// The kernel form of the grid `dims`, `origin`, `spacing`.
  static uniform_form make(const index_t (&dims)[3], const double (&origin)[3],
                           const double (&spacing)[3]) {
    uniform_form f{};
    for (int d = 0; d < 3; ++d) {
      f.dims[d] = dims[d];
      f.origin[d] = origin[d];
      f.inv_spacing[d] = 1.0 / spacing[d];
      f.origin_f[d] = static_cast<float>(origin[d]);
      f.inv_spacing_f[d] = static_cast<float>(f.inv_spacing[d]);
    }
    return f;
  }

  template <class P>
  TACK_HOST_DEVICE stencil locate(const P& p, bool cells) const {
    index_t i[3];
    double t[3];
    for (int d = 0; d < 3; ++d) {
      const double f = (static_cast<double>(p[d]) - origin[d]) * inv_spacing[d];
      if (!axis_cell(f, dims[d], i[d], t[d])) return stencil{};
    }
    return structured_stencil(dims, i, t, cells);
  }

  /// The field at `p` straight from the cell's corners: the cell index by truncation (no `floor`
  /// call), weights in the values' precision, and seven linear blends of the eight corners (an
  /// axis of one point steps 0 with weight 0, so every grid takes the same path). The result is
  /// `locate` + `combine`'s, without the stencil's arrays.
  template <class T, class V, class P>
  TACK_HOST_DEVICE T interpolate(const V& values, const P& p, bool cells) const {
    using S = scalar_t<T>;
    index_t i[3];
    S t[3];
    for (int d = 0; d < 3; ++d) {
      const double f = (static_cast<double>(p[d]) - origin[d]) * inv_spacing[d];
      const index_t n = dims[d];
      if (!(f >= -param_tol) || !(f <= static_cast<double>(n - 1) + param_tol))
        return nan_value<T>();
      const index_t last = n > 1 ? n - 2 : 0;  // the last cell's lower point
      index_t k = f > 0 ? static_cast<index_t>(f) : 0;
      k = k > last ? last : k;
      const double r = n > 1 ? f - static_cast<double>(k) : 0.0;
      i[d] = k;
      t[d] = static_cast<S>(r < 0 ? 0 : (r > 1 ? 1 : r));
    }
    if (cells) {
      const index_t cx = dims[0] > 1 ? dims[0] - 1 : 1, cy = dims[1] > 1 ? dims[1] - 1 : 1;
      return static_cast<T>(values[i[0] + cx * (i[1] + cy * i[2])]);
    }
    const index_t sx = dims[0] > 1 ? 1 : 0;
    const index_t sy = dims[1] > 1 ? dims[0] : 0;
    const index_t sz = dims[2] > 1 ? dims[0] * dims[1] : 0;
    const index_t b = i[0] + dims[0] * (i[1] + dims[1] * i[2]);
    const S ux = S(1) - t[0], uy = S(1) - t[1], uz = S(1) - t[2];
    const T c00 = static_cast<T>(values[b]) * ux + static_cast<T>(values[b + sx]) * t[0];
    const T c10 = static_cast<T>(values[b + sy]) * ux + static_cast<T>(values[b + sy + sx]) * t[0];
    const T c01 = static_cast<T>(values[b + sz]) * ux + static_cast<T>(values[b + sz + sx]) * t[0];
    const T c11 =
        static_cast<T>(values[b + sz + sy]) * ux + static_cast<T>(values[b + sz + sy + sx]) * t[0];
    return (c00 * uy + c10 * t[1]) * uz + (c01 * uy + c11 * t[1]) * t[2];
  }

  /// CPU only: asks the cache for the corners of the cell of point `i + prefetch_distance` (H1,
  /// interleaved values, whose addresses are known), so that the corner loads of several points
  /// are in flight at once.
  // Force-inlined, as every prefetch function here: GCC marks a function that only prefetches
  // as pure and drops the calls to it, unless it is inlined first.
  template <class V, class Pts>
  TACK_FORCEINLINE void prefetch(const V& values, const Pts& pts, index_t i, index_t n,
                                 bool cells) const {
#if !TACK_IMPL_DEVICE_PASS
    if constexpr (requires { &values[0]; }) {
      if (!cells && i + prefetch_distance < n) prefetch_corners(values, pts[i + prefetch_distance]);
    }
#else
    (void)values;
    (void)pts;
    (void)i;
    (void)n;
    (void)cells;
#endif
  }

  /// The prefetches of `prefetch` for one point (host code). The address is only a hint: it is
  /// computed in single precision, clamped into the grid (NaN to 0) and formed as an integer, so
  /// that a point outside the grid asks for some other line and nothing is dereferenced.
  template <class V, class P>
  inline TACK_IMPL_ALWAYS_INLINE void prefetch_corners(const V& values, const P& p) const {
    index_t b = 0, stride = 1;
    for (int d = 0; d < 3; ++d) {
      float f = (static_cast<float>(p[d]) - origin_f[d]) * inv_spacing_f[d];
      const float top = static_cast<float>(dims[d] - 1);
      f = f > 0 ? f : 0;
      f = f < top ? f : top;
      b += stride * static_cast<index_t>(f);
      stride *= dims[d];
    }
    constexpr std::size_t bytes = sizeof(values[0]);
    const std::uintptr_t first =
        reinterpret_cast<std::uintptr_t>(&values[0]) + static_cast<std::size_t>(b) * bytes;
    const std::size_t sy = static_cast<std::size_t>(dims[0]) * bytes;
    const std::size_t sz = static_cast<std::size_t>(dims[0] * dims[1]) * bytes;
    for (const std::uintptr_t k : {first, first + sy, first + sz, first + sy + sz}) {
      __builtin_prefetch(reinterpret_cast<const void*>(k));
      __builtin_prefetch(reinterpret_cast<const void*>(k + 2 * bytes - 1));
    }
  }
};

/// A rectilinear grid on the kernel side: three increasing coordinate axes (views of doubles).
template <class Axis>
struct rectilinear_form {
  Axis axes[3];
  index_t dims[3];

  template <class P>
  TACK_HOST_DEVICE stencil locate(const P& p, bool cells) const {
    index_t i[3];
    double t[3];
    for (int d = 0; d < 3; ++d) {
      const double x = static_cast<double>(p[d]);
      const index_t n = dims[d];
      const double lo = axes[d][0], hi = axes[d][n - 1];
      const double tol = param_tol * (hi > lo ? hi - lo : 1.0);
      if (!(x >= lo - tol) || !(x <= hi + tol)) return stencil{};
      if (n == 1) {
        i[d] = 0;
        t[d] = 0;
        continue;
      }
      index_t a = 0, b = n - 1;  // axes[a] <= x < axes[b] (or x at the end)
      while (b - a > 1) {
        const index_t m = a + (b - a) / 2;
        if (axes[d][m] <= x) {
          a = m;
        } else {
          b = m;
        }
      }
      i[d] = a;
      const double x0 = axes[d][a], x1 = axes[d][a + 1];
      double f = (x - x0) / (x1 - x0);
      t[d] = f < 0 ? 0 : (f > 1 ? 1 : f);
    }
    return structured_stencil(dims, i, t, cells);
  }
};

}  // namespace tack::dataset::detail
