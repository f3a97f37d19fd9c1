// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
#pragma once
/// @file Kernel-side geometry of one unstructured cell: VTK's linear shape functions, the
/// reference-cell test, and the H1 weights of a point inside a cell of any supported `cell_type`.

#include <tack/core/macros.hpp>
#include <tack/dataset/cell_type.hpp>
#include <tack/dataset/detail/stencil.hpp>

#include <cmath>

namespace tack::dataset::detail {

/// The VTK number of cell type `t`: a constant to compare the `int` type numbers read from a
/// mesh's `types` with (`case vtk_number(cell_type::quad):`).
TACK_HOST_DEVICE constexpr int vtk_number(cell_type t) noexcept { return static_cast<int>(t); }

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
    case vtk_number(cell_type::quad): {  // points at (0,0) (1,0) (1,1) (0,1)
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
    case vtk_number(cell_type::pixel): {  // points at (0,0) (1,0) (0,1) (1,1)
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
    case vtk_number(cell_type::hexahedron):  // bottom (0,0) (1,0) (1,1) (0,1), then the top
    case vtk_number(cell_type::voxel): {     // x fastest, then y, then z
      for (int a = 0; a < 8; ++a) {
        int bx, by;
        const int bz = a >= 4 ? 1 : 0;
        const int q = a & 3;
        if (type == vtk_number(cell_type::hexahedron)) {
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
    case vtk_number(cell_type::wedge): {  // triangle (0,0) (1,0) (0,1) at t = 0, then at t = 1
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
    case vtk_number(cell_type::pyramid): {  // base quad at t = 0, apex at t = 1
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
    case vtk_number(cell_type::pixel):
    case vtk_number(cell_type::quad):
      return unit_rs;
    case vtk_number(cell_type::voxel):
    case vtk_number(cell_type::hexahedron):
    case vtk_number(cell_type::pyramid):
      return unit_rs && p[2] >= -e && p[2] <= 1 + e;
    case vtk_number(cell_type::wedge):
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
  if (type == vtk_number(cell_type::tetra)) return tetra_weights(x, q, w);
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
    case vtk_number(cell_type::vertex): {
      double d2 = 0;
      for (int d = 0; d < 3; ++d) d2 += (q[d] - x[0][d]) * (q[d] - x[0][d]);
      if (d2 > 1e-24 * (1 + x[0][0] * x[0][0] + x[0][1] * x[0][1] + x[0][2] * x[0][2]))
        return false;
      w[0] = 1;
      return true;
    }
    case vtk_number(cell_type::line): {
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
    case vtk_number(cell_type::triangle): {  // least squares in its plane
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
  const bool planar = type == vtk_number(cell_type::pixel) || type == vtk_number(cell_type::quad);
  double p[3] = {0.5, 0.5, planar ? 0.0 : 0.5};
  if (type == vtk_number(cell_type::wedge)) p[0] = p[1] = 1.0 / 3;
  if (type == vtk_number(cell_type::pyramid)) p[2] = 0.25;
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

}  // namespace tack::dataset::detail
