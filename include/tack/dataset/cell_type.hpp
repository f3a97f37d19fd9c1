// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
#pragma once
/// @file `tack::dataset::cell_type`: VTK's linear cell type numbers, their names and point counts.

#include <tack/core/macros.hpp>

#include <cstdint>
#include <string>

namespace tack::dataset {

/// The VTK cell types an `unstructured_grid` holds, with VTK's numbers (vtkCellType.h).
/// `auto t = tack::dataset::cell_type::tetra;  // 10`
enum class cell_type : std::uint8_t {
  vertex = 1,
  line = 3,
  triangle = 5,
  pixel = 8,
  quad = 9,
  tetra = 10,
  voxel = 11,
  hexahedron = 12,
  wedge = 13,
  pyramid = 14,
};

/// The number of points of a cell of VTK type number `t`, or 0 for a type tack does not support.
/// `tack::dataset::cell_type_points(10) == 4`
TACK_HOST_DEVICE constexpr int cell_type_points(int t) noexcept {
  switch (t) {
    case 1:
      return 1;
    case 3:
      return 2;
    case 5:
      return 3;
    case 8:
      return 4;
    case 9:
      return 4;
    case 10:
      return 4;
    case 11:
      return 8;
    case 12:
      return 8;
    case 13:
      return 6;
    case 14:
      return 5;
    default:
      return 0;
  }
}

/// The name of VTK cell type number `t` ("tetra"), or "unknown". `cell_type_name(12) == "hexahedron"`
inline const char* cell_type_name(int t) noexcept {
  switch (t) {
    case 1:
      return "vertex";
    case 2:
      return "poly_vertex";
    case 3:
      return "line";
    case 4:
      return "poly_line";
    case 5:
      return "triangle";
    case 6:
      return "triangle_strip";
    case 7:
      return "polygon";
    case 8:
      return "pixel";
    case 9:
      return "quad";
    case 10:
      return "tetra";
    case 11:
      return "voxel";
    case 12:
      return "hexahedron";
    case 13:
      return "wedge";
    case 14:
      return "pyramid";
    case 42:
      return "polyhedron";
    default:
      return "unknown";
  }
}

/// The supported types as text, for error messages.
inline std::string supported_cell_types() {
  return "1 vertex, 3 line, 5 triangle, 8 pixel, 9 quad, 10 tetra, 11 voxel, 12 hexahedron, "
         "13 wedge, 14 pyramid";
}

}  // namespace tack::dataset
