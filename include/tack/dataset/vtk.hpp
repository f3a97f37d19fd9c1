// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
#pragma once
/// @file `tack::dataset::write_vtk` / `read_vtk`: VTK XML ImageData (.vti), RectilinearGrid (.vtr)
/// and UnstructuredGrid (.vtu) files, little-endian, ASCII, inline base64 or appended raw; and
/// `write_pvd`, a ParaView collection of files over time.

#include <tack/dataset/rectilinear_grid.hpp>
#include <tack/dataset/uniform_grid.hpp>
#include <tack/dataset/unstructured_grid.hpp>

#include <string>
#include <variant>
#include <vector>

namespace tack::dataset {

/// How data arrays are stored: as text, inline base64 (`format="binary"`), or raw bytes after
/// the XML (`<AppendedData encoding="raw">`). `tack::dataset::vtk_encoding::appended`
enum class vtk_encoding { ascii, binary, appended };

/// The integer type of the byte count before each binary array (VTK's `header_type`).
/// `tack::dataset::vtk_header::uint32`
enum class vtk_header { uint32, uint64 };

/// Options of `write_vtk`. `tack::dataset::write_vtk(g, "out.vti", {.encoding = tack::dataset::vtk_encoding::ascii});`
struct vtk_options {
  vtk_encoding encoding = vtk_encoding::appended;
  vtk_header header = vtk_header::uint64;
};

/// Writes `mesh` and its fields (H1 fields as point data, L2 fields as cell data; vectors with
/// NumberOfComponents 3, 3×3 matrices with 9 in row-major order) to `path`, whose extension must
/// be `.vti` (uniform), `.vtr` (rectilinear) or `.vtu` (unstructured). The file is written under a
/// temporary name in the same folder and renamed into place, so a failed write leaves nothing;
/// an OS error is a `tack::error` carrying the OS message.
/// `tack::dataset::write_vtk(grid, "flow.vti");`
void write_vtk(const uniform_grid& mesh, const std::string& path, const vtk_options& options = {});
/// `tack::dataset::write_vtk(grid, "flow.vtr");`
void write_vtk(const rectilinear_grid& mesh, const std::string& path,
               const vtk_options& options = {});
/// `tack::dataset::write_vtk(grid, "flow.vtu", {.encoding = tack::dataset::vtk_encoding::binary});`
void write_vtk(const unstructured_grid& mesh, const std::string& path,
               const vtk_options& options = {});

/// One of the three mesh types (what `read_vtk` returns).
/// `auto m = tack::dataset::read_vtk("flow.vti"); auto& g = std::get<tack::dataset::uniform_grid>(m);`
using mesh = std::variant<uniform_grid, rectilinear_grid, unstructured_grid>;

/// Reads a `.vti`, `.vtr` or `.vtu` file (any of the three encodings, UInt32 or UInt64 headers,
/// little-endian, uncompressed) with its point and cell data as fields. A file that is truncated,
/// malformed or uses what tack does not read (compression, big-endian, several pieces) is a
/// `value_error` naming the file and the problem. `auto m = tack::dataset::read_vtk("flow.vtu");`
mesh read_vtk(const std::string& path);

/// `read_vtk` for a known mesh type: another type in the file is a `value_error`.
/// `auto g = tack::dataset::read_vtk_as<tack::dataset::uniform_grid>("flow.vti");`
template <class Mesh>
Mesh read_vtk_as(const std::string& path) {
  mesh m = read_vtk(path);
  if (auto* p = std::get_if<Mesh>(&m)) return std::move(*p);
  throw value_error("tack::dataset::read_vtk_as: '" + path + "' holds a " +
                    std::visit([](const auto& x) { return x.describe(); }, m) +
                    ", not the mesh type asked for");
}

/// One step of a time series: the time and the data file (relative to the .pvd file).
/// `tack::dataset::pvd_entry{0.5, "flow_001.vti"}`
struct pvd_entry {
  double time = 0;
  std::string file;
  int part = 0;
};

/// Writes a ParaView collection (`.pvd`) listing `entries` (written like `write_vtk`: a temporary
/// file renamed into place). `tack::dataset::write_pvd("flow.pvd", {{0.0, "flow_0.vti"}, {0.1, "flow_1.vti"}});`
void write_pvd(const std::string& path, const std::vector<pvd_entry>& entries);

}  // namespace tack::dataset
