// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
#pragma once
/// @file tack::amr::detail: where each box's values sit in its level buffer (`level_layout`) and
/// the precomputed lists of copy, interpolation, boundary and averaging segments that the kernels
/// run over (`level_plan`). Built on the host by src/amr/hierarchy.cpp when a hierarchy is made or
/// regridded.

#include <tack/amr/level.hpp>
#include <tack/array/array.hpp>
#include <tack/types/vec.hpp>

#include <memory>
#include <string>
#include <vector>

namespace tack::amr::detail {

/// A run of `count` cells of a level buffer, `dst + k` for `k < count`, taking the value at
/// `src + k * stride` (stride 1: a run of cells; stride 0: one cell repeated, the extrapolation
/// of a boundary). Fields: {dst, src, count, stride}.
using copy_segment = vec<index_t, 4>;
/// A run of `count` fine cells from `dst`, the first at fine index (i, j, k) (wrapped into the
/// domain), interpolated from the coarse box whose grown region starts at element `cbase` of the
/// coarse buffer, has lower corner (cx, cy, cz) and extents nx, ny.
/// Fields: {dst, count, i, j, k, cbase, cx, cy, cz, nx, ny, 0}.
using interp_segment = vec<index_t, 12>;
/// A run of `count` coarse cells from `dst`, the first averaging the ratio^3 fine cells whose
/// lowest is element `src` of the fine buffer (rows `sy` elements apart, planes `sz`).
/// Fields: {dst, count, src, sy, sz, 0}.
using average_segment = vec<index_t, 6>;

/// Where each box's values (ghosts included) sit in a level buffer: box `b`'s grown box
/// (`boxes[b].grow(ghost)`) occupies elements `[offsets[b], offsets[b + 1])`, x fastest.
struct level_layout {
  std::vector<box> boxes;
  index_t ghost = 0;
  std::vector<index_t> offsets{0};

  index_t size() const noexcept { return offsets.back(); }
  box grown(std::size_t b) const noexcept { return boxes[b].grow(ghost); }
  /// The element of cell `p` (inside box `b`'s grown box) in the level buffer.
  index_t element(std::size_t b, const std::array<index_t, 3>& p) const noexcept {
    const box g = grown(b);
    return offsets[b] + ((p[2] - g.lo[2]) * g.extent(1) + (p[1] - g.lo[1])) * g.extent(0) +
           (p[0] - g.lo[0]);
  }
};

/// Makes the layout of `boxes` with ghost width `ghost`.
std::shared_ptr<const level_layout> make_layout(const std::vector<box>& boxes, index_t ghost);

/// What `fill_ghost_cells` and `average_down` run for one level: segment lists on the
/// hierarchy's device, built once per hierarchy (and again for the levels a regrid changes).
struct level_plan {
  std::shared_ptr<const level_layout> layout;
  array<copy_segment> copies;      // same-level copies, periodic images included
  array<interp_segment> interp;    // coarse-to-fine interpolation (levels >= 1)
  array<copy_segment> boundary;    // extrapolation outside the domain (after the two above)
  array<average_segment> average;  // averaging into the next coarser level (levels >= 1)
  /// Per box: {offset, grown lower corner x, y, z, grown extents nx, ny, nz, ghost}.
  array<vec<index_t, 8>> box_table;
  index_t copy_cells = 0, interp_cells = 0, boundary_cells = 0, average_cells = 0;
};

/// The fixed description of a hierarchy that the plans are built from.
struct geometry {
  box domain;  // level 0's index domain
  index_t ghost = 0;
  std::array<boundary, 3> boundaries{};
  std::vector<int> ratios;  // per level; ratios[0] == 1
  /// Level `l`'s index domain.
  box domain_at(int l) const {
    box d = domain;
    for (int k = 1; k <= l; ++k) d = d.refine(ratios[static_cast<std::size_t>(k)]);
    return d;
  }
};

/// Refuses a bad hierarchy with a `value_error` naming the boxes: an empty box or one outside its
/// level's domain, a ratio other than 2 or 4 (1 on level 0), a box narrower than the ghost width,
/// overlapping boxes on one level, level 0 not covering the domain, a fine box not aligned with
/// its ratio or not nested in the coarser level (its grown box, coarsened, not covered).
void validate(const geometry& g, const std::vector<level>& levels, const char* op);

/// Builds level `l`'s plan from the layouts of level `l` and (for l >= 1) `l - 1`.
level_plan build_plan(const geometry& g, int l, std::shared_ptr<const level_layout> fine,
                      const level_layout* coarse, const tack::device& d);

/// How a regridded level's new buffer is filled: valid cells that an old box covered are
/// copied from the old buffer (`transfer`: dst in the new buffer, src in the old), the others
/// are interpolated from the coarser level (`interp`).
struct regrid_plan {
  array<copy_segment> transfer;
  array<interp_segment> interp;
};
regrid_plan build_regrid_plan(const geometry& g, int l, const level_layout& old_layout,
                              const level_layout& new_layout, const level_layout* coarse,
                              const tack::device& d);

}  // namespace tack::amr::detail
