// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
#pragma once
/// @file Kernel-side basics of the dataset meshes: the reader of a query's points, the
/// interpolation stencil (up to 8 values and their weights) with `combine`, and the structured
/// grids' per-axis cells and stencil. Everything here works on kernel forms (views), never on handles.

#include <tack/core/index.hpp>
#include <tack/core/macros.hpp>
#include <tack/types/item.hpp>
#include <tack/types/scalar.hpp>
#include <tack/types/vec.hpp>

#include <cmath>
#include <type_traits>

namespace tack::dataset::detail {

/// Parametric tolerance of "inside a cell" (a point on a face belongs to both cells).
inline constexpr double param_tol = 1e-6;

/// Points as the mesh forms and the interpolation kernel read them: `vec3` of `S` (f32 or f64) in
/// either layout, each point read as a `vec3d`. Every form computes in double, so the conversion is
/// exact and the result is the one a typed view gives. The layout is a run-time stride, so one
/// kernel serves AoS and SoA points (the element type stays a template parameter: a run-time
/// branch on it was slower, docs/decisions.md "Interpolation reads every kind of points").
/// `auto pts = tack::dataset::detail::read_points(points.view());  tack::vec3d p = pts[0];`
template <class S>
struct point_reader {
  const S* coord[3] = {nullptr, nullptr, nullptr};  // each coordinate of point 0
  index_t step = 3;  // scalars from one point's coordinate to the next point's: 3 AoS, 1 SoA
  index_t n = 0;

  TACK_HOST_DEVICE index_t size() const { return n; }
  TACK_HOST_DEVICE vec<double, 3> operator[](index_t i) const {
    const index_t k = i * step;
    return vec<double, 3>{static_cast<double>(coord[0][k]), static_cast<double>(coord[1][k]),
                          static_cast<double>(coord[2][k])};
  }
};

/// The reader of a kernel form of `vec3` points (`view` or `soa_view`, of f32 or f64).
template <class Points>
auto read_points(const Points& points) {
  using P = std::remove_const_t<typename Points::value_type>;
  using S = scalar_t<P>;
  static_assert(is_vec_v<P> && components_v<P> == 3 &&
                    (std::is_same_v<S, float> || std::is_same_v<S, double>),
                "tack::dataset: points are vec3 of f32 or f64");
  static_assert(sizeof(P) == 3 * sizeof(S), "tack::dataset: a vec3 is three packed coordinates");
  point_reader<S> r;
  r.n = points.size();
  if constexpr (requires { points.component(0); }) {
    r.step = 1;
    for (int d = 0; d < 3; ++d) r.coord[d] = points.component(d).data();
  } else {
    r.step = 3;
    const S* first = reinterpret_cast<const S*>(points.data());
    for (int d = 0; d < 3; ++d) r.coord[d] = first + d;
  }
  return r;
}

/// The values a point interpolates from: `n` indices (points for H1, one cell for L2) and their
/// weights; `n == 0` means the point is outside the mesh.
struct stencil {
  int n = 0;
  index_t idx[8];
  double w[8];
};

/// Combines `values[idx[k]] * w[k]`; `T` a floating scalar, vector or matrix.
template <class T, class V>
TACK_HOST_DEVICE inline T combine(const V& values, const stencil& s) {
  using S = scalar_t<T>;
  if (s.n == 8) {
    T r = static_cast<T>(values[s.idx[0]]) * static_cast<S>(s.w[0]);
    for (int k = 1; k < 8; ++k) r += static_cast<T>(values[s.idx[k]]) * static_cast<S>(s.w[k]);
    return r;
  }
  T r = static_cast<T>(values[s.idx[0]]) * static_cast<S>(s.w[0]);
  for (int k = 1; k < s.n; ++k) r += static_cast<T>(values[s.idx[k]]) * static_cast<S>(s.w[k]);
  return r;
}

/// A value with every component NaN.
template <class T>
TACK_HOST_DEVICE inline T nan_value() {
  using S = scalar_t<T>;
  if constexpr (is_scalar_v<T>) {
    return static_cast<T>(NAN);
  } else {
    T r{};
    S* p = reinterpret_cast<S*>(&r);
    for (int c = 0; c < components_v<T>; ++c) p[c] = static_cast<S>(NAN);
    return r;
  }
}

/// Axis position of `f` (fractional point index) on an axis of `n` points: the lower point `i`
/// and the fraction `t`; false when outside `[0, n - 1]` (with the tolerance).
TACK_HOST_DEVICE inline bool axis_cell(double f, index_t n, index_t& i, double& t) {
  if (!(f >= -param_tol) || !(f <= static_cast<double>(n - 1) + param_tol)) return false;
  if (n == 1) {
    i = 0;
    t = 0;
    return true;
  }
  double fl = std::floor(f);
  if (fl < 0) fl = 0;
  if (fl > static_cast<double>(n - 2)) fl = static_cast<double>(n - 2);
  i = static_cast<index_t>(fl);
  t = f - fl;
  t = t < 0 ? 0 : (t > 1 ? 1 : t);
  return true;
}

/// The stencil of a structured grid of `dims` points from per-axis cells `(i, t)`: trilinear
/// weights over the cell's points (H1), or the cell itself (L2).
TACK_HOST_DEVICE inline stencil structured_stencil(const index_t (&dims)[3], const index_t (&i)[3],
                                                   const double (&t)[3], bool cells) {
  stencil s;
  if (cells) {
    index_t c[3];
    for (int d = 0; d < 3; ++d) c[d] = dims[d] > 1 ? dims[d] - 1 : 1;
    s.n = 1;
    s.idx[0] = i[0] + c[0] * (i[1] + c[1] * i[2]);
    s.w[0] = 1;
    return s;
  }
  const int nx = dims[0] > 1 ? 2 : 1, ny = dims[1] > 1 ? 2 : 1, nz = dims[2] > 1 ? 2 : 1;
  for (int kz = 0; kz < nz; ++kz) {
    for (int ky = 0; ky < ny; ++ky) {
      for (int kx = 0; kx < nx; ++kx) {
        const double w = (kx ? t[0] : 1 - t[0]) * (ky ? t[1] : 1 - t[1]) * (kz ? t[2] : 1 - t[2]);
        s.idx[s.n] = (i[0] + kx) + dims[0] * ((i[1] + ky) + dims[1] * (i[2] + kz));
        s.w[s.n] = w;
        ++s.n;
      }
    }
  }
  return s;
}

/// How many consecutive keys of `total` share one of `buckets` groups (`grouped_buckets`).
TACK_HOST_DEVICE inline index_t bucket_group(index_t total, index_t buckets) {
  return buckets > 0 && total > buckets ? (total + buckets - 1) / buckets : 1;
}
/// `total` keys grouped into at most `limit` groups of consecutive keys: the number of groups.
inline index_t grouped_buckets(index_t total, index_t limit) {
  const index_t group = total > limit ? (total + limit - 1) / limit : 1;
  return (total + group - 1) / group;
}

}  // namespace tack::dataset::detail
