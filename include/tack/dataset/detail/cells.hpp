// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
#pragma once
/// @file Kernel-side geometry of the dataset meshes: the interpolation stencil (up to 8 values and
/// their weights) of a point in a uniform, rectilinear or unstructured mesh. Everything here is
/// `TACK_HOST_DEVICE` and works on kernel forms (views), never on handles.

#include <tack/core/index.hpp>
#include <tack/core/macros.hpp>
#include <tack/dataset/cell_type.hpp>
#include <tack/types/vec.hpp>
#include <tack/view/view.hpp>

#include <cmath>
#include <cstdint>
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

/// Solves the 3×3 system `a x = b` (rows of `a`) by Cramer's rule; false when singular.
TACK_HOST_DEVICE inline bool solve3(const double (&a)[3][3], const double (&b)[3], double (&x)[3]) {
  const double c00 = a[1][1] * a[2][2] - a[1][2] * a[2][1];
  const double c01 = a[1][2] * a[2][0] - a[1][0] * a[2][2];
  const double c02 = a[1][0] * a[2][1] - a[1][1] * a[2][0];
  const double det = a[0][0] * c00 + a[0][1] * c01 + a[0][2] * c02;
  if (det == 0 || !(std::fabs(det) > 0)) return false;
  const double inv = 1.0 / det;
  const double i00 = c00, i01 = a[0][2] * a[2][1] - a[0][1] * a[2][2],
               i02 = a[0][1] * a[1][2] - a[0][2] * a[1][1];
  const double i10 = c01, i11 = a[0][0] * a[2][2] - a[0][2] * a[2][0],
               i12 = a[0][2] * a[1][0] - a[0][0] * a[1][2];
  const double i20 = c02, i21 = a[0][1] * a[2][0] - a[0][0] * a[2][1],
               i22 = a[0][0] * a[1][1] - a[0][1] * a[1][0];
  x[0] = (i00 * b[0] + i01 * b[1] + i02 * b[2]) * inv;
  x[1] = (i10 * b[0] + i11 * b[1] + i12 * b[2]) * inv;
  x[2] = (i20 * b[0] + i21 * b[1] + i22 * b[2]) * inv;
  return true;
}

/// VTK's linear shape functions `N` and their derivatives `dN` (by r, s, t) at parametric point
/// `r` for cell types quad, pixel, hexahedron, voxel, wedge and pyramid (VTK's point orders).
TACK_HOST_DEVICE inline void shape_functions(int type, const double (&p)[3], double (&N)[8],
                                             double (&dN)[8][3]) {
  const double r = p[0], s = p[1], t = p[2];
  const double rm = 1 - r, sm = 1 - s, tm = 1 - t;
  switch (type) {
    case 9: {  // quad: (0,0) (1,0) (1,1) (0,1)
      N[0] = rm * sm;
      N[1] = r * sm;
      N[2] = r * s;
      N[3] = rm * s;
      dN[0][0] = -sm;
      dN[1][0] = sm;
      dN[2][0] = s;
      dN[3][0] = -s;
      dN[0][1] = -rm;
      dN[1][1] = -r;
      dN[2][1] = r;
      dN[3][1] = rm;
      for (int a = 0; a < 4; ++a) dN[a][2] = 0;
      break;
    }
    case 8: {  // pixel: (0,0) (1,0) (0,1) (1,1)
      N[0] = rm * sm;
      N[1] = r * sm;
      N[2] = rm * s;
      N[3] = r * s;
      dN[0][0] = -sm;
      dN[1][0] = sm;
      dN[2][0] = -s;
      dN[3][0] = s;
      dN[0][1] = -rm;
      dN[1][1] = -r;
      dN[2][1] = rm;
      dN[3][1] = r;
      for (int a = 0; a < 4; ++a) dN[a][2] = 0;
      break;
    }
    case 12:    // hexahedron: bottom (0,0) (1,0) (1,1) (0,1), then the top
    case 11: {  // voxel: x fastest, then y, then z
      for (int a = 0; a < 8; ++a) {
        int bx, by;
        const int bz = a >= 4 ? 1 : 0;
        const int q = a & 3;
        if (type == 12) {
          bx = (q == 1 || q == 2) ? 1 : 0;
          by = q >= 2 ? 1 : 0;
        } else {
          bx = q & 1;
          by = q >> 1;
        }
        const double fx = bx ? r : rm, fy = by ? s : sm, fz = bz ? t : tm;
        N[a] = fx * fy * fz;
        dN[a][0] = (bx ? 1 : -1) * fy * fz;
        dN[a][1] = (by ? 1 : -1) * fx * fz;
        dN[a][2] = (bz ? 1 : -1) * fx * fy;
      }
      break;
    }
    case 13: {  // wedge: triangle (0,0) (1,0) (0,1) at t = 0, then at t = 1
      const double l = 1 - r - s;
      N[0] = l * tm;
      N[1] = r * tm;
      N[2] = s * tm;
      N[3] = l * t;
      N[4] = r * t;
      N[5] = s * t;
      dN[0][0] = -tm;
      dN[1][0] = tm;
      dN[2][0] = 0;
      dN[3][0] = -t;
      dN[4][0] = t;
      dN[5][0] = 0;
      dN[0][1] = -tm;
      dN[1][1] = 0;
      dN[2][1] = tm;
      dN[3][1] = -t;
      dN[4][1] = 0;
      dN[5][1] = t;
      dN[0][2] = -l;
      dN[1][2] = -r;
      dN[2][2] = -s;
      dN[3][2] = l;
      dN[4][2] = r;
      dN[5][2] = s;
      break;
    }
    case 14: {  // pyramid: base quad at t = 0, apex at t = 1
      N[0] = rm * sm * tm;
      N[1] = r * sm * tm;
      N[2] = r * s * tm;
      N[3] = rm * s * tm;
      N[4] = t;
      dN[0][0] = -sm * tm;
      dN[1][0] = sm * tm;
      dN[2][0] = s * tm;
      dN[3][0] = -s * tm;
      dN[4][0] = 0;
      dN[0][1] = -rm * tm;
      dN[1][1] = -r * tm;
      dN[2][1] = r * tm;
      dN[3][1] = rm * tm;
      dN[4][1] = 0;
      dN[0][2] = -rm * sm;
      dN[1][2] = -r * sm;
      dN[2][2] = -r * s;
      dN[3][2] = -rm * s;
      dN[4][2] = 1;
      break;
    }
    default:
      break;
  }
}

/// Whether parametric point `p` lies in the reference cell of `type` (with the tolerance).
TACK_HOST_DEVICE inline bool in_reference(int type, const double (&p)[3]) {
  const double e = param_tol;
  const bool unit_rs = p[0] >= -e && p[0] <= 1 + e && p[1] >= -e && p[1] <= 1 + e;
  switch (type) {
    case 8:
    case 9:
      return unit_rs;
    case 11:
    case 12:
    case 14:
      return unit_rs && p[2] >= -e && p[2] <= 1 + e;
    case 13:
      return p[0] >= -e && p[1] >= -e && p[0] + p[1] <= 1 + e && p[2] >= -e && p[2] <= 1 + e;
    default:
      return false;
  }
}

/// The barycentric weights of `q` in the tetrahedron `x[0..3]`; false outside (with the tolerance).
TACK_HOST_DEVICE inline bool tetra_weights(const double (&x)[8][3], const double (&q)[3],
                                           double (&w)[8]) {
  double a[3][3], b[3], l[3];
  for (int d = 0; d < 3; ++d) {
    a[d][0] = x[1][d] - x[0][d];
    a[d][1] = x[2][d] - x[0][d];
    a[d][2] = x[3][d] - x[0][d];
    b[d] = q[d] - x[0][d];
  }
  if (!solve3(a, b, l)) return false;
  const double l0 = 1 - l[0] - l[1] - l[2];
  if (l[0] < -param_tol || l[1] < -param_tol || l[2] < -param_tol || l0 < -param_tol) return false;
  w[0] = l0;
  w[1] = l[0];
  w[2] = l[1];
  w[3] = l[2];
  return true;
}

/// Evaluates cell `c` (its `np` point coordinates `x`) at the point `q`: fills `w` with the H1
/// weights when `q` is inside. Simplices are solved directly; the others by Newton's method on
/// VTK's shape functions (least squares for the 2-D cells, with a distance check to the plane).
/// Not inlined on the host: one copy serves every kernel variant (it is not a template).
#if TACK_IMPL_GPU_COMPILER
TACK_HOST_DEVICE inline bool cell_weights(int type, int np, const double (&x)[8][3],
                                          const double (&q)[3], double (&w)[8]) {
#else
[[gnu::noinline]] inline bool cell_weights(int type, int np, const double (&x)[8][3],
                                           const double (&q)[3], double (&w)[8]) {
#endif
  if (type == 10) return tetra_weights(x, q, w);
  double size2 = 0;  // squared diagonal of the cell's box, for distance tolerances
  {
    double lo[3], hi[3];
    for (int d = 0; d < 3; ++d) lo[d] = hi[d] = x[0][d];
    for (int a = 1; a < np; ++a)
      for (int d = 0; d < 3; ++d) {
        lo[d] = x[a][d] < lo[d] ? x[a][d] : lo[d];
        hi[d] = x[a][d] > hi[d] ? x[a][d] : hi[d];
      }
    for (int d = 0; d < 3; ++d) size2 += (hi[d] - lo[d]) * (hi[d] - lo[d]);
  }
  const double dist_tol2 = param_tol * param_tol * (size2 > 0 ? size2 : 1.0);
  switch (type) {
    case 1: {  // vertex
      double d2 = 0;
      for (int d = 0; d < 3; ++d) d2 += (q[d] - x[0][d]) * (q[d] - x[0][d]);
      if (d2 > 1e-24 * (1 + x[0][0] * x[0][0] + x[0][1] * x[0][1] + x[0][2] * x[0][2]))
        return false;
      w[0] = 1;
      return true;
    }
    case 3: {  // line
      double e[3], r[3], ee = 0, er = 0;
      for (int d = 0; d < 3; ++d) {
        e[d] = x[1][d] - x[0][d];
        r[d] = q[d] - x[0][d];
        ee += e[d] * e[d];
        er += e[d] * r[d];
      }
      if (ee == 0) return false;
      const double t = er / ee;
      if (t < -param_tol || t > 1 + param_tol) return false;
      double d2 = 0;
      for (int d = 0; d < 3; ++d) d2 += (r[d] - t * e[d]) * (r[d] - t * e[d]);
      if (d2 > dist_tol2) return false;
      w[0] = 1 - t;
      w[1] = t;
      return true;
    }
    case 5: {  // triangle: least squares in its plane
      double e1[3], e2[3], r[3];
      for (int d = 0; d < 3; ++d) {
        e1[d] = x[1][d] - x[0][d];
        e2[d] = x[2][d] - x[0][d];
        r[d] = q[d] - x[0][d];
      }
      double a11 = 0, a12 = 0, a22 = 0, b1 = 0, b2 = 0;
      for (int d = 0; d < 3; ++d) {
        a11 += e1[d] * e1[d];
        a12 += e1[d] * e2[d];
        a22 += e2[d] * e2[d];
        b1 += e1[d] * r[d];
        b2 += e2[d] * r[d];
      }
      const double det = a11 * a22 - a12 * a12;
      if (!(std::fabs(det) > 0)) return false;
      const double u = (a22 * b1 - a12 * b2) / det, v = (a11 * b2 - a12 * b1) / det;
      if (u < -param_tol || v < -param_tol || u + v > 1 + param_tol) return false;
      double d2 = 0;
      for (int d = 0; d < 3; ++d)
        d2 += (r[d] - u * e1[d] - v * e2[d]) * (r[d] - u * e1[d] - v * e2[d]);
      if (d2 > dist_tol2) return false;
      w[0] = 1 - u - v;
      w[1] = u;
      w[2] = v;
      return true;
    }
    default:
      break;
  }
  // Newton's method on the shape functions (2-D cells: Gauss-Newton in their plane).
  const bool planar = type == 8 || type == 9;
  double p[3] = {0.5, 0.5, planar ? 0.0 : 0.5};
  if (type == 13) p[0] = p[1] = 1.0 / 3;
  if (type == 14) p[2] = 0.25;
  double N[8], dN[8][3];
  bool converged = false;
  for (int it = 0; it < 30; ++it) {
    shape_functions(type, p, N, dN);
    double res[3] = {0, 0, 0}, J[3][3] = {{0, 0, 0}, {0, 0, 0}, {0, 0, 0}};  // J[d][k] = dx_d/dp_k
    for (int a = 0; a < np; ++a)
      for (int d = 0; d < 3; ++d) {
        res[d] += N[a] * x[a][d];
        for (int k = 0; k < 3; ++k) J[d][k] += dN[a][k] * x[a][d];
      }
    for (int d = 0; d < 3; ++d) res[d] = q[d] - res[d];
    double dp[3] = {0, 0, 0};
    if (planar) {
      double a11 = 0, a12 = 0, a22 = 0, b1 = 0, b2 = 0;
      for (int d = 0; d < 3; ++d) {
        a11 += J[d][0] * J[d][0];
        a12 += J[d][0] * J[d][1];
        a22 += J[d][1] * J[d][1];
        b1 += J[d][0] * res[d];
        b2 += J[d][1] * res[d];
      }
      const double det = a11 * a22 - a12 * a12;
      if (!(std::fabs(det) > 0)) return false;
      dp[0] = (a22 * b1 - a12 * b2) / det;
      dp[1] = (a11 * b2 - a12 * b1) / det;
    } else if (!solve3(J, res, dp)) {
      return false;
    }
    for (int k = 0; k < 3; ++k) p[k] += dp[k];
    if (!(std::fabs(p[0]) < 1e6 && std::fabs(p[1]) < 1e6 && std::fabs(p[2]) < 1e6)) return false;
    if (std::fabs(dp[0]) + std::fabs(dp[1]) + std::fabs(dp[2]) < 1e-12) {
      converged = true;
      break;
    }
  }
  if (!converged || !in_reference(type, p)) return false;
  shape_functions(type, p, N, dN);
  if (planar) {
    double d2 = 0;
    for (int d = 0; d < 3; ++d) {
      double xd = 0;
      for (int a = 0; a < np; ++a) xd += N[a] * x[a][d];
      d2 += (q[d] - xd) * (q[d] - xd);
    }
    if (d2 > dist_tol2) return false;
  }
  for (int a = 0; a < np; ++a) w[a] = N[a];
  return true;
}

/// One candidate of a locator bin: a cell and its bounding box (slightly enlarged, a quick
/// rejection), stored together so that a query reads a bin's candidates from one stretch of memory
/// instead of looking each box up by cell (two 32-byte entries per cache line).
struct locator_entry {
  float lo[3];
  float hi[3];
  index_t cell;

  template <class Q>
  TACK_HOST_DEVICE bool contains(const Q& q) const {
    return !(q[0] < lo[0] || q[1] < lo[1] || q[2] < lo[2] || q[0] > hi[0] || q[1] > hi[1] ||
             q[2] > hi[2]);
  }
};

/// How many points apart the CPU kernel's prefetch stages for unstructured meshes run: the bin
/// of point `i + 3 * step` is asked of the cache, then the bin's entries (`i + 2 * step`), then
/// the candidate cells' offsets, types and connectivity (`i + step`), so that the dependent loads
/// of one query are in flight while earlier queries compute.
inline constexpr index_t locator_prefetch_step = 8;

/// An unstructured mesh with its bin locator on the kernel side. `Points` reads `vec3` points;
/// the index views read `index_t`; `Types` reads `uint8_t`; `Entries` reads `locator_entry`. Bins
/// are half-open boxes of a uniform grid over the mesh's box; a cell is listed in the bins its box
/// meets, a box face that lies on a bin face counting for one side only (so cells aligned with the
/// bins are listed once). A point within `eps` (bin units) of a bin face also searches the bin
/// across it, which finds the cells that contain it only within the tolerance.
template <class Points, class Index, class Types, class Entries>
struct unstructured_form {
  Points points;
  Index connectivity;
  Index offsets;  // n_cells + 1, from 0
  Types types;
  Index bin_start;  // n_bins + 1
  Entries entries;  // bin by bin
  index_t bins[3];
  double lo[3];
  double inv_bin[3];
  double eps[3];

  /// The bin that holds `p` (clamped onto the outer bins), or -1 when `p` is outside the mesh's
  /// box by more than the tolerance: the first bin `locate` searches.
  template <class P>
  TACK_HOST_DEVICE index_t home_bin(const P& p) const {
    index_t b = 0, stride = 1;
    for (int d = 0; d < 3; ++d) {
      const double f = (static_cast<double>(p[d]) - lo[d]) * inv_bin[d];
      const double nb = static_cast<double>(bins[d]);
      if (!(f >= -param_tol * nb - eps[d]) || !(f <= (1 + param_tol) * nb + eps[d])) return -1;
      index_t k = f > 0 ? static_cast<index_t>(f) : 0;
      k = k >= bins[d] ? bins[d] - 1 : k;
      b += stride * k;
      stride *= bins[d];
    }
    return b;
  }

  /// How many distinct `order_key`s there are: the bins, grouped so that there are at most
  /// `limit` groups (consecutive bins along x share a group).
  index_t order_buckets(index_t limit) const {
    return grouped_buckets(bins[0] * bins[1] * bins[2], limit);
  }
  /// The group of the home bin of `p` (0 outside the mesh): queries with the same key search the
  /// same few bins, cells and points. `buckets` is what `order_buckets` returned.
  template <class P>
  TACK_HOST_DEVICE index_t order_key(const P& p, index_t buckets) const {
    const index_t b = home_bin(p);
    return b < 0 ? 0 : b / bucket_group(bins[0] * bins[1] * bins[2], buckets);
  }

  /// CPU only: asks the cache for what the queries ahead of `i` will read, one stage per distance
  /// (`locator_prefetch_step`): the home bin's start for point `i + 3 * step`, its entries for
  /// `i + 2 * step`, the offsets, types and connectivity of the candidates whose boxes hold point
  /// `i + step`. Each stage reads only what the previous one brought in, except the offsets.
  template <class V, class Pts>
  TACK_FORCEINLINE void prefetch(const V&, const Pts& pts, index_t i, index_t n, bool cells) const {
#if !TACK_IMPL_DEVICE_PASS
    constexpr index_t s = locator_prefetch_step;
    if (i + 3 * s < n) {
      const index_t b = home_bin(pts[i + 3 * s]);
      if (b >= 0) __builtin_prefetch(&bin_start[b]);
    }
    if (i + 2 * s < n) {
      const index_t b = home_bin(pts[i + 2 * s]);
      if (b >= 0) {
        const index_t first = bin_start[b], end = bin_start[b + 1];
        for (index_t k = first; k < end && k < first + 8; k += 2) __builtin_prefetch(&entries[k]);
      }
    }
    if (i + s < n && !cells) {
      const auto p = pts[i + s];
      const index_t b = home_bin(p);
      if (b < 0) return;
      const double q[3] = {static_cast<double>(p[0]), static_cast<double>(p[1]),
                           static_cast<double>(p[2])};
      const index_t end = bin_start[b + 1];
      for (index_t k = bin_start[b]; k < end; ++k) {
        const locator_entry& e = entries[k];
        if (!e.contains(q)) continue;
        __builtin_prefetch(&types[e.cell]);
        __builtin_prefetch(&connectivity[offsets[e.cell]]);
      }
    }
#else
    (void)pts;
    (void)i;
    (void)n;
    (void)cells;
#endif
  }

  /// The cell of `bin` (or of the bins across the faces `q` is near) that contains `q`: its
  /// stencil, or an empty one.
  template <class P>
  TACK_HOST_DEVICE stencil locate(const P& p, bool cells) const {
    double q[3];
    index_t first[3], last[3];
    for (int d = 0; d < 3; ++d) {
      q[d] = static_cast<double>(p[d]);
      const double f = (q[d] - lo[d]) * inv_bin[d];
      const double nb = static_cast<double>(bins[d]);
      if (!(f >= -param_tol * nb - eps[d]) || !(f <= (1 + param_tol) * nb + eps[d]))
        return stencil{};
      index_t k = f > 0 ? static_cast<index_t>(f) : 0;
      k = k >= bins[d] ? bins[d] - 1 : k;
      const double r = f - static_cast<double>(k);
      first[d] = r < eps[d] && k > 0 ? k - 1 : k;
      last[d] = r > 1 - eps[d] && k + 1 < bins[d] ? k + 1 : k;
    }
    for (index_t z = first[2]; z <= last[2]; ++z) {
      for (index_t y = first[1]; y <= last[1]; ++y) {
        for (index_t x = first[0]; x <= last[0]; ++x) {
          const stencil s = search(x + bins[0] * (y + bins[1] * z), q, cells);
          if (s.n) return s;
        }
      }
    }
    return stencil{};
  }

private:
  TACK_HOST_DEVICE stencil search(index_t bin, const double (&q)[3], bool cells) const {
    const index_t end = bin_start[bin + 1];
    for (index_t k = bin_start[bin]; k < end; ++k) {
      const locator_entry& e = entries[k];
      if (!e.contains(q)) continue;
      const index_t c = e.cell;
      // The cell arrays were validated when the locator was built, but memory shared with other
      // code (a pointer, NumPy, DLPack) can be written without moving the write version: a cell
      // that no longer fits is skipped, never read past. A few compares per candidate.
      if (c < 0 || c >= types.size() || c + 1 >= offsets.size()) continue;
      const index_t first = offsets[c];
      const int type = static_cast<int>(types[c]);
      const int np = cell_type_points(type);
      if (np <= 0 || first < 0 || offsets[c + 1] - first != np ||
          offsets[c + 1] > connectivity.size())
        continue;
      double x[8][3] = {};  // rows past np unused (zeroed: no maybe-uninitialized read)
      bool indices_fit = true;
      for (int a = 0; a < np && indices_fit; ++a) {
        const index_t id = connectivity[first + a];
        indices_fit = id >= 0 && id < points.size();
        if (!indices_fit) break;
        const auto pt = points[id];
        for (int d = 0; d < 3; ++d) x[a][d] = static_cast<double>(pt[d]);
      }
      if (!indices_fit) continue;
      double w[8];
      if (!(type == 10 ? tetra_weights(x, q, w) : cell_weights(type, np, x, q, w))) continue;
      stencil s;
      if (cells) {
        s.n = 1;
        s.idx[0] = c;
        s.w[0] = 1;
      } else {
        s.n = np;
        for (int a = 0; a < np; ++a) {
          s.idx[a] = connectivity[first + a];
          s.w[a] = w[a];
        }
      }
      return s;
    }
    return stencil{};
  }
};

/// The interpolation kernel: `out[i]` is the field at `points[i]`, NaN outside the mesh. With
/// `n` (the number of points) set, the CPU kernel asks the mesh form to prefetch what the points
/// ahead of `i` will read (the form's `prefetch`, where it has one).
template <class T, class Mesh, class Values, class Points, class Out>
struct interpolate_kernel {
  Mesh mesh;
  Values values;
  Points points;
  Out out;
  bool cells;
  index_t n = 0;

  TACK_HOST_DEVICE void operator()(index_t i) const {
#if !TACK_IMPL_DEVICE_PASS
    if constexpr (requires { mesh.prefetch(values, points, i, n, cells); }) {
      mesh.prefetch(values, points, i, n, cells);
    }
#endif
    out[i] = at(points[i]);
  }

  /// The field at one point.
  template <class P>
  TACK_HOST_DEVICE T at(const P& p) const {
    if constexpr (requires { mesh.template interpolate<T>(values, p, cells); }) {
      return mesh.template interpolate<T>(values, p, cells);
    } else {
      const stencil s = mesh.locate(p, cells);
      return s.n ? combine<T>(values, s) : nan_value<T>();
    }
  }
};

}  // namespace tack::dataset::detail
