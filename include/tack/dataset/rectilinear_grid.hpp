// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
#pragma once
/// @file `tack::dataset::rectilinear_grid`: a grid with increasing coordinates per axis (VTK
/// RectilinearGrid); its points are the Cartesian product of the axes.

#include <tack/arrays/cartesian_product.hpp>
#include <tack/dataset/detail/geometry.hpp>
#include <tack/dataset/field_map.hpp>

#include <cmath>
#include <memory>
#include <string>
#include <type_traits>

namespace tack::dataset {

/// Axes `x`, `y`, `z`: rank-1 `float` or `double` arrays, each with at least one value, strictly
/// increasing, finite. They are kept as `double` arrays (a `double` array is shared, a `float`
/// one copied). Points: `tack::arrays::cartesian_product(x, y, z)`, x fastest.
/// `tack::dataset::rectilinear_grid g(tack::array_from({0.0, 1.0, 3.0}), ys, zs);`
class rectilinear_grid {
public:
  template <class X, class Y, class Z>
  rectilinear_grid(const array<X>& x, const array<Y>& y, const array<Z>& z)
      : geometry_(make(as_double(x), as_double(y), as_double(z))), fields(geometry_) {}

  std::array<index_t, 3> point_dims() const { return geometry_->dims(); }
  index_t n_points() const { return geometry_->n_points(); }
  index_t n_cells() const { return geometry_->n_cells(); }
  /// Axis `d` (0, 1, 2) as a read-only `double` array.
  array<const double> axis(int d) const {
    if (d < 0 || d > 2)
      throw index_error("tack::dataset::rectilinear_grid::axis: axis " + std::to_string(d) +
                        " does not exist");
    return geometry_->axes[static_cast<std::size_t>(d)].as_const();
  }
  /// The points: an implicit rank-3 array of `vec3d`, shape (nz, ny, nx).
  auto points() const {
    return tack::arrays::cartesian_product(geometry_->axes[0], geometry_->axes[1],
                                           geometry_->axes[2]);
  }
  std::string describe() const { return geometry_->describe(); }
  const std::shared_ptr<const detail::mesh_geometry>& geometry_ptr() const noexcept {
    return geometry_base_;
  }

private:
  template <class S>
  static array<double> as_double(const array<S>& a) {
    static_assert(std::is_floating_point_v<std::remove_const_t<S>>,
                  "tack::dataset::rectilinear_grid: the axes must be float or double arrays");
    if constexpr (std::is_same_v<S, double>) {
      return a;
    } else {
      return a.template astype<double>();
    }
  }
  static std::shared_ptr<const detail::rectilinear_geometry> make(array<double> x, array<double> y,
                                                                  array<double> z) {
    auto g = std::make_shared<detail::rectilinear_geometry>();
    g->axes = {x, y, z};
    const char* names[3] = {"x", "y", "z"};
    for (int d = 0; d < 3; ++d) {
      const auto v = g->axes[static_cast<std::size_t>(d)].to_vector();
      if (v.empty()) {
        throw value_error(std::string("tack::dataset::rectilinear_grid: axis ") + names[d] +
                          " is empty; each axis needs at least one coordinate");
      }
      for (std::size_t i = 0; i < v.size(); ++i) {
        if (!std::isfinite(v[i]) || (i > 0 && !(v[i] > v[i - 1]))) {
          throw value_error(std::string("tack::dataset::rectilinear_grid: axis ") + names[d] +
                            " must be finite and strictly increasing; element " +
                            std::to_string(i) + " is " + std::to_string(v[i]) +
                            (i > 0 ? " after " + std::to_string(v[i - 1]) : std::string()));
        }
      }
    }
    return g;
  }
  std::shared_ptr<const detail::rectilinear_geometry> geometry_;
  std::shared_ptr<const detail::mesh_geometry> geometry_base_ = geometry_;

public:
  /// The fields on this mesh, by name, in insertion order.
  field_map fields;
};

}  // namespace tack::dataset
