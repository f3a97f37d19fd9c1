// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
#pragma once
/// @file `tack::amr::write_vtk`: a hierarchy and its fields as a VTK overlapping-AMR file
/// (`.vthb`) with one ImageData piece (`.vti`, written by `tack::dataset::write_vtk`) per box.

#include <tack/amr/hierarchy.hpp>
#include <tack/dataset/vtk.hpp>

#include <string>

namespace tack::amr {

/// Writes `h` to `path` (extension `.vthb`) and its boxes to `<stem>/<stem>_<level>_<box>.vti`
/// beside it: each piece is the box's valid cells (no ghosts) with every field as cell data, in
/// `options`' encoding. ParaView and VTK's `vtkXMLUniformGridAMRReader` read it. Each file is
/// written under a temporary name and renamed into place; an OS error is a `tack::error`
/// carrying the OS message. `tack::amr::write_vtk(h, "out/flow.vthb");`
void write_vtk(const hierarchy& h, const std::string& path,
               const dataset::vtk_options& options = {});

}  // namespace tack::amr
