// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
#pragma once
/// @file `tack::dataset::uniform_grid`: a grid of equally spaced points (VTK ImageData) whose
/// points are computed, never stored.

#include <tack/arrays/uniform_coordinates.hpp>
#include <tack/dataset/detail/geometry.hpp>
#include <tack/dataset/field_map.hpp>

#include <array>
#include <cmath>
#include <memory>
#include <string>

namespace tack::dataset {

/// `point_dims = {nx, ny, nz}` points (each >= 1), x fastest; spacing > 0 on every axis. Its
/// points are `tack::arrays::uniform_coordinates(point_dims, origin, spacing)` (shape (nz, ny, nx));
/// its cells are VTK's (an axis of one point adds no factor). Copies share the geometry and copy
/// the field map. `tack::dataset::uniform_grid g({3, 2, 2}, {0, 0, 0}, {0.5, 1, 1});`
class uniform_grid {
public:
  explicit uniform_grid(const std::array<index_t, 3>& point_dims,
                        const vec3d& origin = vec3d{0, 0, 0}, const vec3d& spacing = vec3d{1, 1, 1})
      : geometry_(make(point_dims, origin, spacing)), fields(geometry_) {}

  std::array<index_t, 3> point_dims() const { return geometry_->dims; }
  vec3d origin() const { return geometry_->origin; }
  vec3d spacing() const { return geometry_->spacing; }
  index_t n_points() const { return geometry_->n_points(); }
  index_t n_cells() const { return geometry_->n_cells(); }
  /// The point coordinates: an implicit rank-3 array of `vec3d`, shape (nz, ny, nx).
  auto points() const {
    return tack::arrays::uniform_coordinates<double>(geometry_->dims, geometry_->origin,
                                                     geometry_->spacing);
  }
  std::string describe() const { return geometry_->describe(); }
  const std::shared_ptr<const detail::mesh_geometry>& geometry_ptr() const noexcept {
    return geometry_base_;
  }

private:
  static std::shared_ptr<const detail::uniform_geometry> make(const std::array<index_t, 3>& dims,
                                                              const vec3d& origin,
                                                              const vec3d& spacing) {
    for (int d = 0; d < 3; ++d) {
      if (dims[static_cast<std::size_t>(d)] < 1) {
        throw value_error("tack::dataset::uniform_grid: point dimensions must be >= 1, got " +
                          detail::dims_string(dims));
      }
      if (!(spacing[d] > 0) || !std::isfinite(spacing[d]) || !std::isfinite(origin[d])) {
        throw value_error(
            "tack::dataset::uniform_grid: spacing must be finite and > 0 and the origin "
            "finite; got spacing (" +
            std::to_string(spacing[0]) + ", " + std::to_string(spacing[1]) + ", " +
            std::to_string(spacing[2]) + ")");
      }
    }
    auto g = std::make_shared<detail::uniform_geometry>();
    g->dims = dims;
    g->origin = origin;
    g->spacing = spacing;
    return g;
  }
  std::shared_ptr<const detail::uniform_geometry> geometry_;
  std::shared_ptr<const detail::mesh_geometry> geometry_base_ = geometry_;

public:
  /// The fields on this mesh, by name, in insertion order.
  field_map fields;
};

}  // namespace tack::dataset
