// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
#pragma once
/// @file `tack::dataset::function_space`, `H1(mesh)` and `L2(mesh)`: where a field's values live
/// on a mesh and how they interpolate.

#include <tack/dataset/detail/geometry.hpp>

#include <memory>
#include <string>
#include <utility>

namespace tack::dataset {

/// `H1`: one value per point, interpolated linearly inside each cell; `L2`: one value per cell,
/// constant over it. `if (f.space().kind() == tack::dataset::space_kind::L2) { ... }`
enum class space_kind { H1, L2 };

/// A function space on a mesh: its kind and the mesh's geometry (shared, not the fields).
/// `auto space = tack::dataset::H1(grid); auto n = space.size();  // grid.n_points()`
class function_space {
public:
  function_space(space_kind kind, std::shared_ptr<const detail::mesh_geometry> geometry)
      : kind_(kind), geometry_(std::move(geometry)) {}

  space_kind kind() const noexcept { return kind_; }
  /// The number of values a field on this space has: points for H1, cells for L2.
  index_t size() const {
    return kind_ == space_kind::H1 ? geometry_->n_points() : geometry_->n_cells();
  }
  const detail::mesh_geometry& geometry() const noexcept { return *geometry_; }
  const std::shared_ptr<const detail::mesh_geometry>& geometry_ptr() const noexcept {
    return geometry_;
  }
  /// `"H1 space on uniform_grid (2, 2, 2)"`.
  std::string describe() const {
    return std::string(kind_ == space_kind::H1 ? "H1" : "L2") + " space on " +
           geometry_->describe();
  }
  /// Two spaces are equal when they have the same kind on the same mesh geometry.
  friend bool operator==(const function_space& a, const function_space& b) noexcept {
    return a.kind_ == b.kind_ && a.geometry_ == b.geometry_;
  }

private:
  space_kind kind_;
  std::shared_ptr<const detail::mesh_geometry> geometry_;
};

/// One value per point of `mesh`, interpolated linearly per cell (trilinear on hexahedra, voxels
/// and structured grids, barycentric on simplices, VTK's shape functions on wedges and pyramids).
/// `auto space = tack::dataset::H1(tack::dataset::uniform_grid({2, 2, 2}));  // size() == 8`
template <class Mesh>
function_space H1(const Mesh& mesh) {
  return function_space(space_kind::H1, mesh.geometry_ptr());
}

/// One value per cell of `mesh`, constant over the cell.
/// `auto space = tack::dataset::L2(tack::dataset::uniform_grid({2, 2, 2}));  // size() == 1`
template <class Mesh>
function_space L2(const Mesh& mesh) {
  return function_space(space_kind::L2, mesh.geometry_ptr());
}

}  // namespace tack::dataset
