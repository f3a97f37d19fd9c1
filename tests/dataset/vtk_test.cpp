// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
// VTK XML files: write -> read round trips in every encoding, bad files, unwritable paths.
#include <tack/dataset/all.hpp>
#include <tack/tack.hpp>

#include "common/tack_test.hpp"

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

namespace td = tack::dataset;
namespace fs = std::filesystem;
using tack::index_t;

namespace {
fs::path temp_dir() {
  static fs::path dir = [] {
    std::string t = (fs::temp_directory_path() / "tack_vtk_test_XXXXXX").string();
    const char* d = mkdtemp(t.data());
    return fs::path(d ? d : ".");
  }();
  return dir;
}
std::string slurp(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}
void spit(const fs::path& p, const std::string& s) {
  std::ofstream f(p, std::ios::binary);
  f << s;
}
const td::vtk_options all_options[] = {
    {td::vtk_encoding::ascii, td::vtk_header::uint64},
    {td::vtk_encoding::binary, td::vtk_header::uint32},
    {td::vtk_encoding::binary, td::vtk_header::uint64},
    {td::vtk_encoding::appended, td::vtk_header::uint32},
    {td::vtk_encoding::appended, td::vtk_header::uint64},
};
std::string tag(const td::vtk_options& o) {
  const char* e[] = {"ascii", "binary", "appended"};
  return std::string(e[int(o.encoding)]) + (o.header == td::vtk_header::uint32 ? "32" : "64");
}
template <class T>
void expect_same(const td::any_field& a, const td::any_field& b) {
  ASSERT_TRUE(b.holds<T>()) << b.describe();
  EXPECT_EQ(a.space().kind(), b.space().kind());
  const auto x = a.as<T>().values().to_vector(), y = b.as<T>().values().to_vector();
  ASSERT_EQ(x.size(), y.size());
  for (std::size_t i = 0; i < x.size(); ++i) EXPECT_EQ(x[i], y[i]) << i;
}
tack::array<float> iota_f(index_t n) {
  auto a = tack::empty<float>(n);
  for (index_t i = 0; i < n; ++i) a[i] = float(i);
  return a;
}
}  // namespace

TEST(dataset_vtk, image_data_round_trip_every_encoding) {
  td::uniform_grid g({4, 3, 2}, {0.5, -1, 2}, {0.25, 0.5, 1.5});
  const index_t n = g.n_points();
  auto vel = tack::empty<tack::vec3f>(n);
  auto p = tack::empty<double>(g.n_cells());
  auto t = tack::empty<tack::mat3f>(n);
  auto id = tack::empty<std::int32_t>(n);
  for (index_t i = 0; i < n; ++i) {
    vel[i] = tack::vec3f{float(i) + 0.1f, -float(i) / 3, 1e-7f * float(i)};
    id[i] = std::int32_t(i * 1000 - 7);
    tack::mat3f m{};
    for (int r = 0; r < 3; ++r)
      for (int c = 0; c < 3; ++c) m(r, c) = float(i * 9 + r * 3 + c) / 7;
    t[i] = m;
  }
  for (index_t i = 0; i < g.n_cells(); ++i) p[i] = 1.0 / 3 + double(i);
  g.fields["velocity"] = td::field(td::H1(g), vel.copy({.layout = tack::layout::soa}));
  g.fields["pressure"] = td::field(td::L2(g), p);
  g.fields["stress"] = td::field(td::H1(g), t);
  g.fields["id"] = td::field(td::H1(g), id);
  for (const auto& o : all_options) {
    const auto path = (temp_dir() / ("img_" + tag(o) + ".vti")).string();
    td::write_vtk(g, path, o);
    auto r = td::read_vtk_as<td::uniform_grid>(path);
    EXPECT_EQ(r.point_dims(), g.point_dims()) << tag(o);
    EXPECT_EQ(r.origin(), g.origin());
    EXPECT_EQ(r.spacing(), g.spacing());
    std::vector<std::string> names;
    for (auto& [name, f] : r.fields) names.push_back(name);
    EXPECT_EQ(names, (std::vector<std::string>{"velocity", "stress", "id", "pressure"})) << tag(o);
    expect_same<tack::vec3f>(g.fields.at("velocity"), r.fields.at("velocity"));
    expect_same<double>(g.fields.at("pressure"), r.fields.at("pressure"));
    expect_same<tack::mat3f>(g.fields.at("stress"), r.fields.at("stress"));
    expect_same<std::int32_t>(g.fields.at("id"), r.fields.at("id"));
  }
  // the header says what it should
  const auto text = slurp(temp_dir() / "img_appended32.vti");
  EXPECT_NE(text.find("header_type=\"UInt32\""), std::string::npos);
  EXPECT_NE(text.find("<AppendedData encoding=\"raw\">"), std::string::npos);
  EXPECT_NE(text.find("NumberOfComponents=\"9\""), std::string::npos);
}

TEST(dataset_vtk, rectilinear_and_unstructured_round_trip) {
  td::rectilinear_grid rg(tack::array_from({0.0, 0.5, 2.0}), tack::array_from({1.0, 2.0}),
                          tack::array_from({-1.0, 0.0, 4.0}));
  rg.fields["f"] = td::field(td::H1(rg), iota_f(rg.n_points()));
  auto pts = tack::array_from(
      std::vector<tack::vec3d>{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {1, 1, 1}, {2, 0, 0}});
  td::unstructured_grid ug(pts, tack::array_from<index_t>({0, 1, 2, 3, 1, 2, 3, 4, 1, 5}),
                           tack::array_from<index_t>({0, 4, 8, 10}),
                           tack::array_from<std::uint8_t>({10, 10, 3}));
  ug.fields["u"] = td::field(td::H1(ug), tack::full<tack::vec3d>(6, tack::vec3d{1, 2, 3}));
  ug.fields["c"] = td::field(td::L2(ug), tack::array_from<std::uint8_t>({1, 2, 3}));
  for (const auto& o : all_options) {
    const auto rp = (temp_dir() / ("rect_" + tag(o) + ".vtr")).string();
    td::write_vtk(rg, rp, o);
    auto r = td::read_vtk_as<td::rectilinear_grid>(rp);
    EXPECT_EQ(r.point_dims(), rg.point_dims());
    for (int d = 0; d < 3; ++d) EXPECT_EQ(r.axis(d).to_vector(), rg.axis(d).to_vector());
    expect_same<float>(rg.fields.at("f"), r.fields.at("f"));
    const auto up = (temp_dir() / ("unst_" + tag(o) + ".vtu")).string();
    td::write_vtk(ug, up, o);
    auto u = td::read_vtk_as<td::unstructured_grid>(up);
    EXPECT_EQ(u.n_points(), 6);
    EXPECT_EQ(u.n_cells(), 3);
    EXPECT_EQ(u.connectivity().to_vector(), ug.connectivity().to_vector());
    EXPECT_EQ(u.offsets().to_vector(), ug.offsets().to_vector());
    EXPECT_EQ(u.cell_types().to_vector(), ug.cell_types().to_vector());
    EXPECT_EQ(std::get<tack::array<tack::vec3d>>(u.points()).to_vector(), pts.to_vector());
    expect_same<tack::vec3d>(ug.fields.at("u"), u.fields.at("u"));
    expect_same<std::uint8_t>(ug.fields.at("c"), u.fields.at("c"));
  }
}

TEST(dataset_vtk, pvd_collection) {
  const auto path = (temp_dir() / "series.pvd").string();
  td::write_pvd(path, {{0.0, "a_0.vti"}, {0.5, "a_1.vti"}});
  const auto text = slurp(path);
  EXPECT_NE(text.find("type=\"Collection\""), std::string::npos);
  EXPECT_NE(text.find("timestep=\"0.5\""), std::string::npos);
  EXPECT_NE(text.find("file=\"a_1.vti\""), std::string::npos);
}

TEST(dataset_vtk, wrong_extension_and_unwritable_path_leave_nothing) {
  td::uniform_grid g({2, 2, 2});
  EXPECT_THROW_MSG(td::write_vtk(g, (temp_dir() / "x.vtu").string()), tack::value_error, ".vti",
                   "x.vtu");
  const auto missing = (temp_dir() / "no_such_dir" / "x.vti").string();
  EXPECT_THROW_MSG(td::write_vtk(g, missing), tack::error, "write_vtk", "x.vti",
                   "No such file or directory");
  if (::geteuid() != 0) {
    const auto ro = temp_dir() / "readonly";
    fs::create_directories(ro);
    fs::permissions(ro, fs::perms::owner_read | fs::perms::owner_exec);
    EXPECT_THROW_MSG(td::write_vtk(g, (ro / "x.vti").string()), tack::error, "Permission denied");
    EXPECT_TRUE(fs::is_empty(ro));
    fs::permissions(ro, fs::perms::owner_all);
  }
  // a failure in the middle of a write (an unsupported header size) leaves no file or temporary
  const auto before = std::distance(fs::directory_iterator(temp_dir()), fs::directory_iterator());
  td::uniform_grid big({2, 2, 2});
  big.fields["b"] = td::field(td::H1(big), tack::zeros<float>(8));
  const auto path = temp_dir() / "partial.vti";
  td::write_vtk(big, path.string());
  fs::remove(path);
  EXPECT_EQ(std::distance(fs::directory_iterator(temp_dir()), fs::directory_iterator()), before);
}

TEST(dataset_vtk, bad_files_are_value_errors_naming_the_file) {
  td::uniform_grid g({3, 3, 3});
  g.fields["v"] = td::field(td::H1(g), iota_f(27));
  const auto good = (temp_dir() / "good.vti").string();
  td::write_vtk(g, good, {td::vtk_encoding::appended, td::vtk_header::uint64});
  const std::string text = slurp(good);
  auto check = [&](const std::string& name, const std::string& content, const std::string& what,
                   const std::string& what2 = "") {
    const auto p = (temp_dir() / name).string();
    spit(p, content);
    EXPECT_THROW_MSG(td::read_vtk(p), tack::value_error, "read_vtk", name, what, what2);
  };
  check("trunc.vti", text.substr(0, text.size() - 60), "truncated");
  check("trunc2.vti", text.substr(0, 200), "malformed XML", "unterminated");
  check("trunc3.vti", text.substr(0, text.find("<PointData>") + 11), "not closed");
  check("empty.vti", "", "no XML element");
  check("garbage.vti", "<VTKFile type=\"ImageData\"><ImageData WholeExtent=\"0 1 0 1\"/></VTKFile>",
        "6 integers");
  check("mismatch.vti", "<VTKFile type=\"ImageData\"><ImageData></Piece></VTKFile>",
        "</Piece> closes <ImageData>");
  check("compressed.vti",
        "<VTKFile type=\"ImageData\" compressor=\"vtkZLibDataCompressor\"></VTKFile>",
        "compressed");
  check("bigendian.vti", "<VTKFile type=\"ImageData\" byte_order=\"BigEndian\"></VTKFile>",
        "BigEndian");
  check("polydata.vtp", "<VTKFile type=\"PolyData\"></VTKFile>", "PolyData");
  // ascii with too few values
  td::write_vtk(g, (temp_dir() / "a.vti").string(), {td::vtk_encoding::ascii});
  std::string a = slurp(temp_dir() / "a.vti");
  const auto k = a.find("26");
  check("few.vti", a.substr(0, k) + a.substr(k + 2), "26 values; expected 27");
  auto bad = a;
  bad.replace(a.find(" 3 4 "), 5, " 3 x ");
  check("notnum.vti", bad, "value 4", "\"x\"");
  // base64 with a wrong header
  td::write_vtk(g, (temp_dir() / "b.vti").string(),
                {td::vtk_encoding::binary, td::vtk_header::uint32});
  std::string b = slurp(temp_dir() / "b.vti");
  const auto d = b.find("format=\"binary\">");
  const auto s = b.find_first_not_of(" \n", d + 16);
  b[s + 1] = 'B';  // changes the byte count
  check("hdr.vti", b, "bytes; expected 108");
  // unstructured: a cell index past the points, an unknown type
  auto pts = tack::array_from(std::vector<tack::vec3f>{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}});
  td::unstructured_grid u(pts, tack::array_from<index_t>({0, 1, 2, 3}),
                          tack::array_from<index_t>({0, 4}), tack::array_from<std::uint8_t>({10}));
  td::write_vtk(u, (temp_dir() / "u.vtu").string(), {td::vtk_encoding::ascii});
  std::string ut = slurp(temp_dir() / "u.vtu");
  auto c = ut;
  c.replace(c.find("0 1 2 3"), 7, "0 1 2 9");
  check("conn.vtu", c, "connectivity[3] = 9");
  auto t = ut;
  const auto ti = t.find("Name=\"types\"");
  t.replace(t.find("10", ti), 2, "42");
  check("type.vtu", t, "cell type 42", "polyhedron");
  EXPECT_THROW_MSG(td::read_vtk((temp_dir() / "nope.vti").string()), tack::value_error, "nope.vti",
                   "No such file");
  EXPECT_THROW_MSG(td::read_vtk_as<td::rectilinear_grid>(good), tack::value_error, "uniform_grid");
}

TEST(dataset_vtk, every_prefix_of_a_file_is_refused_or_read) {
  // truncation anywhere never crashes
  td::uniform_grid g({2, 2, 2});
  g.fields["v"] = td::field(td::H1(g), tack::full<tack::vec3f>(8, tack::vec3f{1, 2, 3}));
  for (const auto& o : all_options) {
    const auto path = temp_dir() / ("pre_" + tag(o) + ".vti");
    td::write_vtk(g, path.string(), o);
    const std::string text = slurp(path);
    for (std::size_t n = 0; n < text.size(); n += 7) {
      spit(temp_dir() / "prefix.vti", text.substr(0, n));
      try {
        (void)td::read_vtk((temp_dir() / "prefix.vti").string());
      } catch (const tack::value_error& e) {
        EXPECT_NE(std::string(e.what()).find("prefix.vti"), std::string::npos) << e.what();
      }
    }
  }
}

// An appended array larger than two read pieces (8 MiB each) is read on several threads: every
// value comes back, and a file cut inside the array is refused as truncated.
TEST(dataset_vtk, large_appended_array_is_read_in_pieces) {
  const index_t n = 1 << 21;  // 24 MiB of vec3f
  td::uniform_grid g({128, 128, 128});
  ASSERT_EQ(g.n_points(), n);
  auto v = tack::empty<tack::vec3f>(n);
  for (index_t i = 0; i < n; ++i) v[i] = tack::vec3f{float(i), float(i % 7), -float(i)};
  g.fields["velocity"] = td::field(td::H1(g), v);
  g.fields["speed"] = td::field(td::H1(g), tack::ones<double>(n));  // 16 MiB more, after it
  const auto path = (temp_dir() / "large.vti").string();
  td::write_vtk(g, path);
  const auto r = td::read_vtk_as<td::uniform_grid>(path);
  const auto got = r.fields.at("velocity").as<tack::vec3f>().values().to_vector();
  const auto want = v.to_vector();
  ASSERT_EQ(got.size(), want.size());
  EXPECT_TRUE(got == want);
  EXPECT_EQ(r.fields.at("speed").as<double>().values().to_vector().back(), 1.0);
  const std::string bytes = slurp(path);
  spit(temp_dir() / "large_cut.vti",
       bytes.substr(0, bytes.size() - (std::size_t{20} << 20)));  // inside velocity
  EXPECT_THROW_MSG(td::read_vtk((temp_dir() / "large_cut.vti").string()), tack::value_error,
                   "large_cut.vti", "'velocity'", "truncated");
}
