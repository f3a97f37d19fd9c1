// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
// The VTK XML writer of tack::dataset: write_vtk for each mesh type (ASCII, inline base64 or
// appended raw data arrays) and the .pvd collection writer, onto files written whole or not at all.
#include "../io/atomic_file.hpp"
#include "../io/base64.hpp"
#include "../io/xml.hpp"
#include "vtk_types.hpp"

#include <tack/dataset/vtk.hpp>

#include <charconv>
#include <cstdint>
#include <functional>
#include <limits>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace tack::dataset {
namespace {

using tack::detail::atomic_file;
using tack::detail::xml_escape;

// ---- data arrays to write -------------------------------------------------------------------

using chunk_sink = std::function<void(const void*, std::size_t)>;

struct out_array {
  std::string name;  // empty: no Name attribute
  scalar_kind kind = scalar_kind::f32;
  int components = 1;
  index_t tuples = 0;
  std::function<void(const chunk_sink&)> produce;
  std::size_t nbytes() const {
    return static_cast<std::size_t>(tuples) * static_cast<std::size_t>(components) *
           static_cast<std::size_t>(scalar_kind_size(kind));
  }
};

template <class T, int R>
out_array array_of(std::string name, const array<T, R>& a) {
  using V = std::remove_const_t<T>;
  out_array o;
  o.name = std::move(name);
  o.kind = scalar_kind_of_v<scalar_t<V>>;
  o.components = components_v<V>;
  o.tuples = a.size();
  o.produce = [a](const chunk_sink& sink) { detail::for_each_interleaved_chunk(a, sink); };
  return o;
}

out_array field_array(const std::string& name, const any_field& f) {
  out_array o;
  o.name = name;
  o.kind = f.scalar_dtype().kind();
  o.components = f.components();
  o.tuples = f.size();
  o.produce = [f](const chunk_sink& sink) { f.for_each_chunk(sink); };
  return o;
}

template <class S>
void put_ascii_values(std::string& line, const void* data, std::size_t n) {
  const S* v = static_cast<const S*>(data);
  char tmp[64];
  for (std::size_t i = 0; i < n; ++i) {
    std::to_chars_result r;
    if constexpr (std::is_same_v<S, std::int8_t> || std::is_same_v<S, std::uint8_t>) {
      r = std::to_chars(tmp, tmp + sizeof tmp, static_cast<int>(v[i]));
    } else {
      r = std::to_chars(tmp, tmp + sizeof tmp, v[i]);
    }
    line.append(tmp, r.ptr);
    line.push_back(' ');
  }
}

// `bool` values are bytes of 0 and 1, written as UInt8.
void put_ascii(std::string& text, scalar_kind kind, const void* data, std::size_t bytes) {
  visit_scalar_kind(
      kind == scalar_kind::boolean ? scalar_kind::u8 : kind,
      [&]<class S>() { put_ascii_values<S>(text, data, bytes / sizeof(S)); },
      detail::vtk_scalar_types{});
}

std::string num(double v) {
  char tmp[64];
  auto r = std::to_chars(tmp, tmp + sizeof tmp, v);
  return std::string(tmp, r.ptr);
}

/// Writes the XML of one file's data arrays in the chosen encoding; `finish` appends the raw data
/// of appended arrays after the XML.
class vtk_writer {
public:
  vtk_writer(atomic_file& out, const vtk_options& o) : out_(out), opt_(o) {}

  void data_array(const std::string& indent, const out_array& a) {
    std::string head = indent + "<DataArray type=\"" + std::string(detail::vtk_type_name(a.kind)) +
                       "\"";
    if (!a.name.empty()) head += " Name=\"" + xml_escape(a.name) + "\"";
    if (a.components != 1) head += " NumberOfComponents=\"" + std::to_string(a.components) + "\"";
    switch (opt_.encoding) {
      case vtk_encoding::ascii: {
        out_.put(head + " format=\"ascii\">\n");
        std::string text;
        a.produce([&](const void* d, std::size_t n) {
          put_ascii(text, a.kind, d, n);
          if (text.size() > (1u << 20)) {
            out_.put(text);
            text.clear();
          }
        });
        out_.put(text);
        out_.put("\n" + indent + "</DataArray>\n");
        break;
      }
      case vtk_encoding::binary: {
        out_.put(head + " format=\"binary\">\n");
        tack::detail::base64_encoder enc([&](const char* t, std::size_t n) { out_.put(t, n); });
        put_header(a.nbytes(), [&](const void* h, std::size_t n) { enc.put(h, n); });
        a.produce([&](const void* d, std::size_t n) { enc.put(d, n); });
        enc.finish();
        out_.put("\n" + indent + "</DataArray>\n");
        break;
      }
      case vtk_encoding::appended: {
        out_.put(head + " format=\"appended\" offset=\"" + std::to_string(offset_) + "\"/>\n");
        offset_ += header_size() + a.nbytes();
        appended_.push_back(a);
        break;
      }
    }
  }
  std::string header_type() const {
    return opt_.header == vtk_header::uint32 ? "UInt32" : "UInt64";
  }
  void finish() {
    if (opt_.encoding == vtk_encoding::appended) {
      out_.put("  <AppendedData encoding=\"raw\">\n   _");
      for (const auto& a : appended_) {
        put_header(a.nbytes(), [&](const void* h, std::size_t n) { out_.put(h, n); });
        a.produce([&](const void* d, std::size_t n) { out_.put(d, n); });
      }
      out_.put("\n  </AppendedData>\n");
    }
    out_.put("</VTKFile>\n");
  }

private:
  std::size_t header_size() const { return opt_.header == vtk_header::uint32 ? 4 : 8; }
  template <class F>
  void put_header(std::size_t nbytes, F&& f) {
    if (opt_.header == vtk_header::uint32) {
      if (nbytes > std::numeric_limits<std::uint32_t>::max()) {
        throw value_error("tack::dataset::write_vtk: an array of " + std::to_string(nbytes) +
                          " bytes does not fit a UInt32 header; use vtk_header::uint64");
      }
      const auto h = static_cast<std::uint32_t>(nbytes);
      f(&h, 4);
    } else {
      const auto h = static_cast<std::uint64_t>(nbytes);
      f(&h, 8);
    }
  }
  atomic_file& out_;
  vtk_options opt_;
  std::size_t offset_ = 0;
  std::vector<out_array> appended_;
};

void check_extension(const std::string& path, const char* want, const std::string& mesh) {
  const auto dot = path.rfind('.');
  const std::string ext = dot == std::string::npos ? std::string() : path.substr(dot);
  if (ext != want) {
    throw value_error("tack::dataset::write_vtk: a " + mesh + " is written as a " + want +
                      " file; got '" + path + "'");
  }
}

std::string file_head(const char* type, const vtk_writer& w) {
  return std::string("<?xml version=\"1.0\"?>\n<VTKFile type=\"") + type +
         "\" version=\"1.0\" byte_order=\"LittleEndian\" header_type=\"" + w.header_type() +
         "\">\n";
}

template <class Mesh>
void write_fields(vtk_writer& w, atomic_file& out, const Mesh& mesh) {
  for (space_kind kind : {space_kind::H1, space_kind::L2}) {
    out.put(kind == space_kind::H1 ? "      <PointData>\n" : "      <CellData>\n");
    for (const auto& [name, f] : mesh.fields) {
      if (f.space().kind() != kind) continue;
      w.data_array("        ", field_array(name, f));
    }
    out.put(kind == space_kind::H1 ? "      </PointData>\n" : "      </CellData>\n");
  }
}

std::string extent_string(const std::array<index_t, 3>& d) {
  return "0 " + std::to_string(d[0] - 1) + " 0 " + std::to_string(d[1] - 1) + " 0 " +
         std::to_string(d[2] - 1);
}

constexpr const char* write_vtk_op = "tack::dataset::write_vtk";

}  // namespace

void write_vtk(const uniform_grid& mesh, const std::string& path, const vtk_options& options) {
  check_extension(path, ".vti", "uniform_grid");
  atomic_file out(path, write_vtk_op);
  vtk_writer w(out, options);
  const auto d = mesh.point_dims();
  const vec3d o = mesh.origin(), s = mesh.spacing();
  out.put(file_head("ImageData", w));
  out.put("  <ImageData WholeExtent=\"" + extent_string(d) + "\" Origin=\"" + num(o[0]) + " " +
          num(o[1]) + " " + num(o[2]) + "\" Spacing=\"" + num(s[0]) + " " + num(s[1]) + " " +
          num(s[2]) + "\" Direction=\"1 0 0 0 1 0 0 0 1\">\n");
  out.put("    <Piece Extent=\"" + extent_string(d) + "\">\n");
  write_fields(w, out, mesh);
  out.put("    </Piece>\n  </ImageData>\n");
  w.finish();
  out.commit();
}

void write_vtk(const rectilinear_grid& mesh, const std::string& path, const vtk_options& options) {
  check_extension(path, ".vtr", "rectilinear_grid");
  atomic_file out(path, write_vtk_op);
  vtk_writer w(out, options);
  const auto d = mesh.point_dims();
  out.put(file_head("RectilinearGrid", w));
  out.put("  <RectilinearGrid WholeExtent=\"" + extent_string(d) + "\">\n");
  out.put("    <Piece Extent=\"" + extent_string(d) + "\">\n");
  write_fields(w, out, mesh);
  out.put("      <Coordinates>\n");
  const char* names[3] = {"x", "y", "z"};
  for (int k = 0; k < 3; ++k) w.data_array("        ", array_of(names[k], mesh.axis(k)));
  out.put("      </Coordinates>\n    </Piece>\n  </RectilinearGrid>\n");
  w.finish();
  out.commit();
}

void write_vtk(const unstructured_grid& mesh, const std::string& path, const vtk_options& options) {
  check_extension(path, ".vtu", "unstructured_grid");
  atomic_file out(path, write_vtk_op);
  vtk_writer w(out, options);
  out.put(file_head("UnstructuredGrid", w));
  out.put("  <UnstructuredGrid>\n    <Piece NumberOfPoints=\"" + std::to_string(mesh.n_points()) +
          "\" NumberOfCells=\"" + std::to_string(mesh.n_cells()) + "\">\n");
  write_fields(w, out, mesh);
  out.put("      <Points>\n");
  std::visit([&](const auto& p) { w.data_array("        ", array_of("Points", p)); },
             mesh.points());
  out.put("      </Points>\n      <Cells>\n");
  w.data_array("        ", array_of("connectivity", mesh.connectivity()));
  const auto off = mesh.offsets();
  w.data_array("        ", array_of("offsets", off.rows(1, off.size())));
  w.data_array("        ", array_of("types", mesh.cell_types()));
  out.put("      </Cells>\n    </Piece>\n  </UnstructuredGrid>\n");
  w.finish();
  out.commit();
}

void write_pvd(const std::string& path, const std::vector<pvd_entry>& entries) {
  atomic_file out(path, "tack::dataset::write_pvd");
  out.put(
      "<?xml version=\"1.0\"?>\n<VTKFile type=\"Collection\" version=\"0.1\" "
      "byte_order=\"LittleEndian\">\n  <Collection>\n");
  for (const auto& e : entries) {
    out.put("    <DataSet timestep=\"" + num(e.time) + "\" group=\"\" part=\"" +
            std::to_string(e.part) + "\" file=\"" + xml_escape(e.file) + "\"/>\n");
  }
  out.put("  </Collection>\n</VTKFile>\n");
  out.commit();
}

}  // namespace tack::dataset
