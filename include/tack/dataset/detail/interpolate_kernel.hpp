// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
#pragma once
/// @file The interpolation kernel of `field::interpolate`: the field at each query point, from
/// any mesh form (`structured_forms.hpp`, `locator.hpp`), NaN outside the mesh.

#include <tack/core/index.hpp>
#include <tack/core/macros.hpp>
#include <tack/dataset/detail/stencil.hpp>

namespace tack::dataset::detail {

/// The interpolation kernel: `out[i]` is the field at `points[i]`, NaN outside the mesh. With
/// `n` (the number of points) set, the CPU kernel asks the mesh form to prefetch what the points
/// ahead of `i` will read (the form's `prefetch`, where it has one).
template <class T, class Mesh, class Values, class Points, class Out>
struct interpolate_kernel {
  Mesh mesh;
  Values values;
  Points points;
  Out out;
  bool cells;
  index_t n = 0;

  TACK_HOST_DEVICE void operator()(index_t i) const {
#if !TACK_IMPL_DEVICE_PASS
    if constexpr (requires { mesh.prefetch(values, points, i, n, cells); }) {
      mesh.prefetch(values, points, i, n, cells);
    }
#endif
    out[i] = at(points[i]);
  }

  /// The field at one point.
  template <class P>
  TACK_HOST_DEVICE T at(const P& p) const {
    if constexpr (requires { mesh.template interpolate<T>(values, p, cells); }) {
      return mesh.template interpolate<T>(values, p, cells);
    } else {
      const stencil s = mesh.locate(p, cells);
      return s.n ? combine<T>(values, s) : nan_value<T>();
    }
  }
};

}  // namespace tack::dataset::detail
