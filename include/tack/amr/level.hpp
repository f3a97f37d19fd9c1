// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
#pragma once
/// @file `tack::amr::level`, `boundary`, `hierarchy_options` and `timings`: what a hierarchy is
/// made of and how it reports where its time went.

#include <tack/amr/box.hpp>
#include <tack/memory/device.hpp>
#include <tack/types/vec.hpp>

#include <array>
#include <optional>
#include <vector>

namespace tack::amr {

/// What fills ghost cells outside the physical domain, per axis: `periodic` wraps around the
/// domain; `extrapolate` copies the nearest cell inside the domain (first-order, zero-gradient
/// extrapolation). `tack::amr::boundary::periodic`
enum class boundary { periodic, extrapolate };

/// One level of a hierarchy: its refinement ratio from the next coarser level (1 for level 0; 2
/// or 4 otherwise) and its boxes, in the level's own index space.
/// `tack::amr::level{2, {tack::amr::box{{8, 8, 8}, {15, 15, 15}}}}`
struct level {
  int ratio = 2;
  std::vector<box> boxes;
};

/// How a hierarchy is made: the ghost width of every box on every level, the boundary per axis
/// (x, y, z), the physical position of cell (0, 0, 0)'s lower corner, level 0's cell size, and
/// the device holding the level buffers (default: `tack::default_device()`).
/// `tack::amr::hierarchy_options{.ghost = 2, .boundaries = {periodic, periodic, extrapolate}}`
struct hierarchy_options {
  index_t ghost = 2;
  std::array<boundary, 3> boundaries{boundary::periodic, boundary::periodic, boundary::periodic};
  vec3d origin{0, 0, 0};
  vec3d spacing{1, 1, 1};
  std::optional<tack::device> device{};
};

/// Where the time of `fill_ghost_cells` and `average_down` went since the last `reset_timings()`:
/// inside kernel launches (each launch timed from call to return, so it includes the launch's own
/// argument checks), and in copies between separate box arrays and a level buffer (the baseline's
/// concatenation and copies back). `auto t = h.timings(); double share = t.copy_seconds / total;`
struct timings {
  double kernel_seconds = 0;
  index_t launches = 0;
  double copy_seconds = 0;
  index_t copies = 0;
};

}  // namespace tack::amr
