// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
#pragma once
/// @file The kernels of tack::amr: each runs over a list of segments (detail/plan.hpp), one
/// segment per index, every box of a level in one launch. Functors with template call operators,
/// so that `tack::launch` instantiates them per layout (AoS views, SoA views) and nvcc compiles them.

#include <tack/amr/box.hpp>
#include <tack/amr/detail/plan.hpp>
#include <tack/core/index.hpp>
#include <tack/core/macros.hpp>
#include <tack/types/item.hpp>

namespace tack::amr::detail {

/// Component `c` of an element (the element itself for a scalar).
template <class T>
TACK_INLINE constexpr scalar_t<T>& component(T& v, int c) noexcept {
  if constexpr (is_scalar_v<T>) {
    (void)c;
    return v;
  } else {
    return v.data()[c];
  }
}
template <class T>
TACK_INLINE constexpr scalar_t<T> component(const T& v, int c) noexcept {
  if constexpr (is_scalar_v<T>) {
    (void)c;
    return v;
  } else {
    return v.data()[c];
  }
}

/// The monotonized-central limited slope of cell value `c` between neighbours `m` and `p`
/// (per coarse cell width): the central difference, at most twice either one-sided difference,
/// and zero at an extremum.
template <class S>
TACK_INLINE constexpr S mc_slope(S m, S c, S p) noexcept {
  const S dl = c - m;
  const S dr = p - c;
  if (dl * dr <= S(0)) return S(0);
  const S dc = S(0.5) * (p - m);
  const S al = dl < S(0) ? -dl : dl;
  const S ar = dr < S(0) ? -dr : dr;
  const S ac = dc < S(0) ? -dc : dc;
  const S lim = S(2) * (al < ar ? al : ar);
  const S a = ac < lim ? ac : lim;
  return dc > S(0) ? a : -a;
}

/// Same-buffer copies: `buf[dst + k] = buf[src + k * stride]` per segment (same-level ghost
/// cells from a neighbour's valid cells; boundary extrapolation with stride 0 or 1).
template <class T>
struct copy_kernel {
  template <class Buf, class Seg>
  TACK_HOST_DEVICE void operator()(index_t s, const Buf& buf, const Seg& segs) const {
    const copy_segment g = segs[s];
    for (index_t k = 0; k < g[2]; ++k) {
      const T v = buf[g[1] + k * g[3]];
      buf[g[0] + k] = v;
    }
  }
};

/// Copies between two buffers: `dst[d + k] = src[s + k * stride]` (a regrid keeping old values).
template <class T>
struct transfer_kernel {
  template <class Dst, class Src, class Seg>
  TACK_HOST_DEVICE void operator()(index_t s, const Dst& dst, const Src& src,
                                   const Seg& segs) const {
    const copy_segment g = segs[s];
    for (index_t k = 0; k < g[2]; ++k) {
      const T v = src[g[1] + k * g[3]];
      dst[g[0] + k] = v;
    }
  }
};

/// Conservative, limited piecewise-linear interpolation from the coarse level: each fine cell is
/// its coarse cell's value plus the coarse cell's MC-limited slope on each axis times the fine
/// cell centre's offset from the coarse centre (in coarse cells). The offsets of the ratio^3
/// fine cells of a coarse cell sum to zero, so their mean is the coarse value.
template <class T>
struct interp_kernel {
  template <class Fine, class Coarse, class Seg>
  TACK_HOST_DEVICE void operator()(index_t s, const Fine& fine, const Coarse& coarse,
                                   const Seg& segs, index_t r) const {
    using S = scalar_t<T>;
    const interp_segment g = segs[s];
    const index_t nx = g[9];
    const index_t nxy = g[9] * g[10];
    const index_t cj = floor_div(g[3], r);
    const index_t ck = floor_div(g[4], r);
    const S inv = S(1) / S(r);
    const S oy = (S(g[3] - cj * r) + S(0.5)) * inv - S(0.5);
    const S oz = (S(g[4] - ck * r) + S(0.5)) * inv - S(0.5);
    const index_t row = g[5] + ((ck - g[8]) * g[10] + (cj - g[7])) * nx;
    for (index_t t = 0; t < g[1]; ++t) {
      const index_t i = g[2] + t;
      const index_t ci = floor_div(i, r);
      const S ox = (S(i - ci * r) + S(0.5)) * inv - S(0.5);
      const index_t o = row + (ci - g[6]);
      const T c = coarse[o];
      const T xm = coarse[o - 1];
      const T xp = coarse[o + 1];
      const T ym = coarse[o - nx];
      const T yp = coarse[o + nx];
      const T zm = coarse[o - nxy];
      const T zp = coarse[o + nxy];
      T out = c;
      for (int q = 0; q < components_v<T>; ++q) {
        const S cq = component(c, q);
        component(out, q) = cq + mc_slope(component(xm, q), cq, component(xp, q)) * ox +
                            mc_slope(component(ym, q), cq, component(yp, q)) * oy +
                            mc_slope(component(zm, q), cq, component(zp, q)) * oz;
      }
      fine[g[0] + t] = out;
    }
  }
};

/// Conservative averaging: each covered coarse cell becomes the mean of its ratio^3 fine cells,
/// summed in a fixed order (z, y, x).
template <class T>
struct average_kernel {
  template <class Coarse, class Fine, class Seg>
  TACK_HOST_DEVICE void operator()(index_t s, const Coarse& coarse, const Fine& fine,
                                   const Seg& segs, index_t r) const {
    using S = scalar_t<T>;
    const average_segment g = segs[s];
    const S inv = S(1) / S(r * r * r);
    for (index_t t = 0; t < g[1]; ++t) {
      const index_t base = g[2] + t * r;
      T acc{};
      for (int q = 0; q < components_v<T>; ++q) component(acc, q) = S(0);
      for (index_t kz = 0; kz < r; ++kz) {
        for (index_t ky = 0; ky < r; ++ky) {
          for (index_t kx = 0; kx < r; ++kx) {
            const T v = fine[base + kz * g[4] + ky * g[3] + kx];
            for (int q = 0; q < components_v<T>; ++q) component(acc, q) += component(v, q);
          }
        }
      }
      for (int q = 0; q < components_v<T>; ++q) component(acc, q) *= inv;
      coarse[g[0] + t] = acc;
    }
  }
};

/// Sets every valid cell of a level buffer to `f(centre)`, the cell centre's physical position;
/// ghost cells are left as they are. `boxes[b]` = {offset, lo x, lo y, lo z (grown), nx, ny, nz,
/// ghost}; the box of element `e` is found by binary search on the offsets.
template <class T, class F>
struct initialize_kernel {
  F f;
  vec3d origin;
  vec3d dx;
  index_t n_boxes;
  template <class Buf, class Boxes>
  TACK_HOST_DEVICE void operator()(index_t e, const Buf& buf, const Boxes& boxes) const {
    index_t lo = 0, hi = n_boxes - 1;
    while (lo < hi) {
      const index_t mid = (lo + hi + 1) / 2;
      if (boxes[mid][0] <= e) {
        lo = mid;
      } else {
        hi = mid - 1;
      }
    }
    const vec<index_t, 8> b = boxes[lo];
    index_t rem = e - b[0];
    const index_t x = rem % b[4];
    rem /= b[4];
    const index_t y = rem % b[5];
    const index_t z = rem / b[5];
    const index_t g = b[7];
    if (x < g || y < g || z < g || x >= b[4] - g || y >= b[5] - g || z >= b[6] - g) return;
    const vec3d p{origin[0] + (double(b[1] + x) + 0.5) * dx[0],
                  origin[1] + (double(b[2] + y) + 0.5) * dx[1],
                  origin[2] + (double(b[3] + z) + 0.5) * dx[2]};
    buf[e] = static_cast<T>(f(p));
  }
};

}  // namespace tack::amr::detail
