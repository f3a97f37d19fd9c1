// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
// tack::amr::write_vtk: a VTK overlapping-AMR file (.vthb, XML listing every box of every level)
// and one .vti piece per box written by tack::dataset::write_vtk.

#include "../io/atomic_file.hpp"

#include <tack/amr/vtk.hpp>

#include <tack/dataset/all.hpp>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>

#include <sys/stat.h>

namespace tack::amr {
namespace {

std::string num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

[[noreturn]] void fail(const std::string& what, int err) {
  throw error("tack::amr::write_vtk: cannot write '" + what + "': " + std::strerror(err));
}

}  // namespace

void write_vtk(const hierarchy& h, const std::string& path, const dataset::vtk_options& options) {
  const std::string ext = ".vthb";
  if (path.size() <= ext.size() || path.compare(path.size() - ext.size(), ext.size(), ext) != 0) {
    throw value_error("tack::amr::write_vtk: '" + path +
                      "' must end in .vthb (VTK overlapping AMR)");
  }
  const auto slash = path.rfind('/');
  const std::string dir = slash == std::string::npos ? std::string() : path.substr(0, slash + 1);
  const std::string stem = path.substr(dir.size(), path.size() - dir.size() - ext.size());
  if (::mkdir((dir + stem).c_str(), 0755) != 0 && errno != EEXIST) fail(dir + stem + "/", errno);

  std::string xml =
      "<?xml version=\"1.0\"?>\n<VTKFile type=\"vtkOverlappingAMR\" version=\"1.1\" "
      "byte_order=\"LittleEndian\" header_type=\"UInt64\">\n";
  const vec3d o = h.origin();
  xml += "  <vtkOverlappingAMR origin=\"" + num(o[0]) + " " + num(o[1]) + " " + num(o[2]) +
         "\" grid_description=\"XYZ\">\n";
  for (int l = 0; l < h.n_levels(); ++l) {
    const vec3d dx = h.spacing(l);
    xml += "    <Block level=\"" + std::to_string(l) + "\" spacing=\"" + num(dx[0]) + " " +
           num(dx[1]) + " " + num(dx[2]) + "\">\n";
    const auto& boxes = h.boxes(l);
    for (std::size_t b = 0; b < boxes.size(); ++b) {
      const box& v = boxes[b];
      const std::string piece =
          stem + "/" + stem + "_" + std::to_string(l) + "_" + std::to_string(b) + ".vti";
      dataset::uniform_grid grid(
          {v.extent(0) + 1, v.extent(1) + 1, v.extent(2) + 1},
          vec3d{o[0] + double(v.lo[0]) * dx[0], o[1] + double(v.lo[1]) * dx[1],
                o[2] + double(v.lo[2]) * dx[2]},
          dx);
      for (const auto& e : h.fields()) e.add_to_piece(e, l, b, grid);
      dataset::write_vtk(grid, dir + piece, options);
      xml += "      <DataSet index=\"" + std::to_string(b) + "\" amr_box=\"" +
             std::to_string(v.lo[0]) + " " + std::to_string(v.hi[0]) + " " +
             std::to_string(v.lo[1]) + " " + std::to_string(v.hi[1]) + " " +
             std::to_string(v.lo[2]) + " " + std::to_string(v.hi[2]) + "\" file=\"" + piece +
             "\"/>\n";
    }
    xml += "    </Block>\n";
  }
  xml += "  </vtkOverlappingAMR>\n</VTKFile>\n";
  tack::detail::write_file_atomically(path, xml, "tack::amr::write_vtk");
}

}  // namespace tack::amr
