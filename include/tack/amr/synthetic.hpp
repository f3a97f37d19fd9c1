// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
#pragma once
/// @file `tack::amr::synthetic_hierarchy`: a hierarchy shaped like an AMR-Wind run with five levels
/// (15,598 boxes at full size, docs/amr.md), boxes clustered around a refined feature.

#include <tack/amr/hierarchy.hpp>

#include <array>
#include <optional>

namespace tack::amr {

/// What `synthetic_hierarchy` makes. `scale` multiplies the box count of every level (1: 512,
/// 1,400, 2,700, 4,400 and 6,586 boxes, 15,598 in all); level 0 tiles a cube of about
/// `8 * cbrt(scale)` boxes per axis (at least 2). Every box is `box_size`^3 cells on its own
/// level. `tack::amr::synthetic_options{.scale = 0.01, .box_size = 8}`
struct synthetic_options {
  double scale = 1.0;
  index_t box_size = 16;
  index_t ghost = 2;
  int ratio = 2;
  int levels = 5;
  std::array<boundary, 3> boundaries{boundary::periodic, boundary::periodic, boundary::extrapolate};
  std::optional<tack::device> device{};
};

/// A hierarchy over the unit cube: level 0 tiles the domain; each finer level takes, among the
/// children of the coarser level's boxes that nest in it (ghost cells included), the ones whose
/// centres are nearest an ellipsoidal feature (stretched along x, off the domain's centre), as
/// many as its share of the box count. Deterministic. A level with fewer nested children than its
/// share keeps them all (only at scales where the domain is too small for the counts).
/// `auto h = tack::amr::synthetic_hierarchy({.scale = 0.01, .box_size = 8});`
hierarchy synthetic_hierarchy(const synthetic_options& options = {});

/// The box counts per level of the full-size hierarchy (AMR-Wind's shape, 15,598 in all).
inline constexpr std::array<index_t, 5> synthetic_full_counts{512, 1400, 2700, 4400, 6586};

}  // namespace tack::amr
