// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
#pragma once
/// @file Everything of `tack::dataset`: meshes, spaces, fields and VTK XML files.
/// `#include <tack/dataset/all.hpp>`

#include <tack/dataset/cell_type.hpp>
#include <tack/dataset/field.hpp>
#include <tack/dataset/field_map.hpp>
#include <tack/dataset/rectilinear_grid.hpp>
#include <tack/dataset/space.hpp>
#include <tack/dataset/uniform_grid.hpp>
#include <tack/dataset/unstructured_grid.hpp>
#include <tack/dataset/vtk.hpp>
