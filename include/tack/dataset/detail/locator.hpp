// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
#pragma once
/// @file Kernel form of an unstructured mesh: `unstructured_form`, which finds a point's cell
/// through the bins of its locator (`locator_entry`), with the CPU kernel's staged prefetch.

#include <tack/core/index.hpp>
#include <tack/core/macros.hpp>
#include <tack/dataset/cell_type.hpp>
#include <tack/dataset/detail/cell_shapes.hpp>
#include <tack/dataset/detail/stencil.hpp>

namespace tack::dataset::detail {

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
      if (!(type == vtk_number(cell_type::tetra) ? tetra_weights(x, q, w)
                                                 : cell_weights(type, np, x, q, w)))
        continue;
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

}  // namespace tack::dataset::detail
