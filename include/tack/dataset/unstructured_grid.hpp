// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
#pragma once
/// @file `tack::dataset::unstructured_grid`: points and cells of VTK's linear cell types (VTK
/// UnstructuredGrid), with a cell locator for interpolation.

#include <tack/dataset/cell_type.hpp>
#include <tack/dataset/detail/geometry.hpp>
#include <tack/dataset/field_map.hpp>

#include <cstdint>
#include <memory>
#include <string>
#include <type_traits>
#include <variant>

namespace tack::dataset {

/// `points`: `vec3f` or `vec3d`, either layout, kept as given (shared). `connectivity`: the point
/// indices of every cell, one after the other; `offsets`: n_cells + 1 integers from 0, cell `c`
/// is `connectivity[offsets[c], offsets[c + 1])` (VTK's in-memory form; the files store only the
/// ends); `cell_types`: VTK cell type numbers (`cell_type`). Integer arrays of another type are
/// converted to `int64` (`uint8` for the types). Unknown types, counts that do not match the type,
/// offsets that do not increase and indices past the points are `value_error`s.
/// `tack::dataset::unstructured_grid g(pts, tack::array_from<tack::index_t>({0, 1, 2, 3}),
///     tack::array_from<tack::index_t>({0, 4}), tack::array_from<std::uint8_t>({10}));`
class unstructured_grid {
public:
  template <class P, class C, class O, class T>
  unstructured_grid(const array<P>& points, const array<C>& connectivity, const array<O>& offsets,
                    const array<T>& cell_types)
      : geometry_(make(points, connectivity, offsets, cell_types)), fields(geometry_) {}

  index_t n_points() const { return geometry_->n_points(); }
  index_t n_cells() const { return geometry_->n_cells(); }
  /// The points as given (`array<vec3f>` or `array<vec3d>`).
  const std::variant<array<vec3f>, array<vec3d>>& points() const noexcept {
    return geometry_->points;
  }
  array<const index_t> connectivity() const { return geometry_->connectivity.as_const(); }
  array<const index_t> offsets() const { return geometry_->offsets.as_const(); }
  array<const std::uint8_t> cell_types() const { return geometry_->types.as_const(); }
  /// How many times the cell locator has been built: interpolation builds it when the points'
  /// write version (or the cell arrays') changed since the last build.
  int locator_builds() const { return geometry_->locator_builds(); }
  std::string describe() const { return geometry_->describe(); }
  const std::shared_ptr<const detail::mesh_geometry>& geometry_ptr() const noexcept {
    return geometry_base_;
  }

private:
  template <class Want, class Have>
  static array<Want> as_type(const array<Have>& a) {
    static_assert(std::is_integral_v<std::remove_const_t<Have>>,
                  "tack::dataset::unstructured_grid: connectivity, offsets and cell types must be "
                  "integer arrays");
    if constexpr (std::is_same_v<Have, Want>) {
      return a;
    } else {
      return a.template astype<Want>();
    }
  }
  template <class P, class C, class O, class T>
  static std::shared_ptr<const detail::unstructured_geometry> make(const array<P>& points,
                                                                   const array<C>& c,
                                                                   const array<O>& o,
                                                                   const array<T>& t) {
    static_assert(
        std::is_same_v<P, vec3f> || std::is_same_v<P, vec3d>,
        "tack::dataset::unstructured_grid: the points must be an array<vec3f> or array<vec3d>");
    auto g = std::make_shared<detail::unstructured_geometry>();
    g->points = points;
    g->connectivity = as_type<index_t>(c);
    g->offsets = as_type<index_t>(o);
    if constexpr (std::is_same_v<T, std::uint8_t>) {
      g->types = t;
    } else {
      static_assert(std::is_integral_v<T>,
                    "tack::dataset::unstructured_grid: cell types must be integers");
      const auto v = t.to_vector();
      for (std::size_t i = 0; i < v.size(); ++i) {
        if (v[i] < 0 || v[i] > 255 || cell_type_points(static_cast<int>(v[i])) == 0) {
          throw value_error("tack::dataset::unstructured_grid: cell " + std::to_string(i) +
                            " has cell type " + std::to_string(static_cast<long long>(v[i])) +
                            ", which is not supported; supported: " + supported_cell_types());
        }
      }
      g->types = t.template astype<std::uint8_t>();
    }
    g->validate("unstructured_grid");
    g->mark_validated();
    return g;
  }
  std::shared_ptr<const detail::unstructured_geometry> geometry_;
  std::shared_ptr<const detail::mesh_geometry> geometry_base_ = geometry_;

public:
  /// The fields on this mesh, by name, in insertion order.
  field_map fields;
};

}  // namespace tack::dataset
