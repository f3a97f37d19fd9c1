// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
// Helper of tests/python/test_vtk_files.py (VTK's own readers and writers against tack's):
//   dataset_write_samples <outdir>     writes sample .vti/.vtr/.vtu files in every encoding
//   dataset_write_samples read <file>  prints what tack reads from <file> as JSON
// The values are a function of the index, so the Python side can recompute them.
#include <tack/dataset/all.hpp>
#include <tack/tack.hpp>

#include <cstdint>
#include <cstdio>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

namespace td = tack::dataset;
using tack::index_t;

namespace {

template <class G>
void add_fields(G& g) {
  const index_t n = g.n_points(), m = g.n_cells();
  auto s = tack::empty<float>(n);
  auto v = tack::empty<tack::vec3f>(n);
  auto t = tack::empty<tack::mat3d>(n);
  auto c = tack::empty<std::int32_t>(m);
  for (index_t i = 0; i < n; ++i) {
    s[i] = 0.5f * float(i);
    v[i] = tack::vec3f{float(i), float(2 * i) + 0.25f, -float(i)};
    tack::mat3d a{};
    for (int r = 0; r < 3; ++r)
      for (int k = 0; k < 3; ++k) a(r, k) = double(9 * i + 3 * r + k) / 8;
    t[i] = a;
  }
  for (index_t i = 0; i < m; ++i) c[i] = std::int32_t(100 + i);
  g.fields["scalar"] = td::field(td::H1(g), s);
  // written from a SoA array: interleaved component by component
  g.fields["vector"] = td::field(td::H1(g), v.copy({.layout = tack::layout::soa}));
  g.fields["tensor"] = td::field(td::H1(g), t);
  g.fields["cell_id"] = td::field(td::L2(g), c);
}

int write_samples(const std::string& dir) {
  td::uniform_grid img({4, 3, 2}, {0.5, -1, 2}, {0.25, 0.5, 1.5});
  add_fields(img);
  td::rectilinear_grid rect(tack::array_from({0.0, 0.5, 2.0}), tack::array_from({1.0, 2.0}),
                            tack::array_from({-1.0, 0.0, 4.0}));
  add_fields(rect);
  // one cell of each supported type
  std::vector<tack::vec3f> p;
  std::vector<index_t> conn, off{0};
  std::vector<std::uint8_t> types;
  auto cell = [&](std::uint8_t type, std::vector<tack::vec3f> x) {
    for (auto& q : x) {
      conn.push_back(static_cast<index_t>(p.size()));
      p.push_back(q + tack::vec3f{2.0f * float(types.size()), 0, 0});
    }
    off.push_back(static_cast<index_t>(conn.size()));
    types.push_back(type);
  };
  cell(1, {{0, 0, 0}});
  cell(3, {{0, 0, 0}, {1, 1, 1}});
  cell(5, {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}});
  cell(8, {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {1, 1, 0}});
  cell(9, {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}});
  cell(10, {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}});
  cell(11,
       {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {1, 1, 0}, {0, 0, 1}, {1, 0, 1}, {0, 1, 1}, {1, 1, 1}});
  cell(12,
       {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}, {0, 0, 1}, {1, 0, 1}, {1, 1, 1}, {0, 1, 1}});
  cell(13, {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {1, 0, 1}, {0, 1, 1}});
  cell(14, {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}, {0.5f, 0.5f, 1}});
  td::unstructured_grid unst(tack::array_from(p).copy({.layout = tack::layout::soa}),
                             tack::array_from(conn), tack::array_from(off),
                             tack::array_from(types));
  add_fields(unst);
  const std::pair<const char*, td::vtk_options> encodings[] = {
      {"ascii", {td::vtk_encoding::ascii, td::vtk_header::uint64}},
      {"binary32", {td::vtk_encoding::binary, td::vtk_header::uint32}},
      {"binary64", {td::vtk_encoding::binary, td::vtk_header::uint64}},
      {"appended32", {td::vtk_encoding::appended, td::vtk_header::uint32}},
      {"appended64", {td::vtk_encoding::appended, td::vtk_header::uint64}},
  };
  std::vector<td::pvd_entry> series;
  double time = 0;
  for (const auto& [name, o] : encodings) {
    td::write_vtk(img, dir + "/image_" + name + ".vti", o);
    td::write_vtk(rect, dir + "/rect_" + name + ".vtr", o);
    td::write_vtk(unst, dir + "/unst_" + name + ".vtu", o);
    series.push_back({time, std::string("image_") + name + ".vti"});
    time += 0.5;
  }
  td::write_pvd(dir + "/series.pvd", series);
  return 0;
}

std::string json_number(double v) {
  if (v != v) return "null";
  std::ostringstream s;
  s.precision(17);
  s << v;
  return s.str();
}

template <class T>
void json_values(std::ostream& o, const std::vector<T>& v) {
  o << "[";
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (i) o << ",";
    if constexpr (tack::is_scalar_v<T>) {
      o << json_number(static_cast<double>(v[i]));
    } else {
      const auto* c = reinterpret_cast<const tack::scalar_t<T>*>(&v[i]);
      o << "[";
      for (int k = 0; k < tack::components_v<T>; ++k)
        o << (k ? "," : "") << json_number(static_cast<double>(c[k]));
      o << "]";
    }
  }
  o << "]";
}

template <class G>
void json_fields(std::ostream& o, const G& g) {
  o << "\"fields\":{";
  bool first = true;
  for (const auto& [name, f] : g.fields) {
    o << (first ? "" : ",") << "\"" << name << "\":{\"association\":\""
      << (f.space().kind() == td::space_kind::H1 ? "point" : "cell") << "\",\"dtype\":\""
      << f.dtype().name() << "\",\"components\":" << f.components() << ",\"values\":";
    f.values().visit([&](auto a) { json_values(o, a.to_vector()); });
    o << "}";
    first = false;
  }
  o << "}";
}

int read_file(const std::string& path) {
  const td::mesh m = td::read_vtk(path);
  std::ostringstream o;
  o << "{";
  if (auto* g = std::get_if<td::uniform_grid>(&m)) {
    const auto d = g->point_dims();
    o << "\"type\":\"ImageData\",\"dims\":[" << d[0] << "," << d[1] << "," << d[2]
      << "],\"origin\":[" << json_number(g->origin()[0]) << "," << json_number(g->origin()[1])
      << "," << json_number(g->origin()[2]) << "],\"spacing\":[" << json_number(g->spacing()[0])
      << "," << json_number(g->spacing()[1]) << "," << json_number(g->spacing()[2]) << "],";
    json_fields(o, *g);
  } else if (auto* r = std::get_if<td::rectilinear_grid>(&m)) {
    o << "\"type\":\"RectilinearGrid\",\"axes\":[";
    for (int k = 0; k < 3; ++k) {
      if (k) o << ",";
      json_values(o, r->axis(k).to_vector());
    }
    o << "],";
    json_fields(o, *r);
  } else {
    const auto& u = std::get<td::unstructured_grid>(m);
    o << "\"type\":\"UnstructuredGrid\",\"points\":";
    std::visit([&](const auto& p) { json_values(o, p.to_vector()); }, u.points());
    o << ",\"connectivity\":";
    json_values(o, u.connectivity().to_vector());
    o << ",\"offsets\":";
    json_values(o, u.offsets().to_vector());
    o << ",\"types\":";
    json_values(o, u.cell_types().to_vector());
    o << ",";
    json_fields(o, u);
  }
  o << "}";
  std::cout << o.str() << "\n";
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    if (argc == 3 && std::string(argv[1]) == "read") return read_file(argv[2]);
    if (argc == 2) return write_samples(argv[1]);
    std::cerr << "usage: dataset_write_samples <outdir> | dataset_write_samples read <file>\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << e.what() << "\n";
    return 1;
  }
}
