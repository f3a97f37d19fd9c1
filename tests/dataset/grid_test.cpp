// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
// Meshes, spaces, fields and the field map of tack::dataset.
#include <tack/dataset/all.hpp>
#include <tack/tack.hpp>

#include "common/tack_test.hpp"

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

namespace td = tack::dataset;
using tack::index_t;

TEST(dataset_grid, uniform_grid_points_are_implicit_coordinates) {
  td::uniform_grid g({3, 2, 4}, {1, 2, 3}, {0.5, 1, 2});
  EXPECT_EQ(g.n_points(), 24);
  EXPECT_EQ(g.n_cells(), 2 * 1 * 3);
  auto pts = g.points();
  EXPECT_EQ(pts.shape()[0], 4);
  EXPECT_EQ(pts.shape()[2], 3);
  EXPECT_EQ(pts[1], (tack::vec3d{1.5, 2, 3}));
  EXPECT_EQ(pts(3, 1, 2), (tack::vec3d{2, 3, 9}));
  EXPECT_EQ(td::uniform_grid({4, 4, 1}).n_cells(), 9);
  EXPECT_EQ(td::uniform_grid({1, 1, 1}).n_cells(), 1);
}

TEST(dataset_grid, uniform_grid_refuses_bad_dims_and_spacing) {
  EXPECT_THROW_MSG(td::uniform_grid({0, 2, 2}), tack::value_error, "uniform_grid", "(0, 2, 2)");
  EXPECT_THROW_MSG(td::uniform_grid({2, 2, 2}, {0, 0, 0}, {1, -1, 1}), tack::value_error,
                   "uniform_grid", "spacing", "-1");
}

TEST(dataset_grid, rectilinear_grid_points_are_a_cartesian_product) {
  td::rectilinear_grid g(tack::array_from({0.0, 1.0, 3.0}), tack::array_from({0.0f, 2.0f}),
                         tack::array_from({5.0}));
  EXPECT_EQ(g.n_points(), 6);
  EXPECT_EQ(g.n_cells(), 2);
  auto pts = g.points();
  EXPECT_EQ(pts[4], (tack::vec3d{1, 2, 5}));
  EXPECT_THROW_MSG(td::rectilinear_grid(tack::array_from({0.0, 2.0, 1.0}), tack::array_from({0.0}),
                                        tack::array_from({0.0})),
                   tack::value_error, "rectilinear_grid", "axis x", "increasing", "element 2");
  EXPECT_THROW_MSG(
      td::rectilinear_grid(tack::array_from({0.0}), tack::array_from(std::vector<double>{}),
                           tack::array_from({0.0})),
      tack::value_error, "axis y", "empty");
}

namespace {
// Two tetrahedra sharing the face (1, 2, 3) of the unit cube corner.
td::unstructured_grid two_tets(tack::array<tack::vec3f> pts) {
  return td::unstructured_grid(pts, tack::array_from<index_t>({0, 1, 2, 3, 1, 2, 3, 4}),
                               tack::array_from<index_t>({0, 4, 8}),
                               tack::array_from<std::uint8_t>({10, 10}));
}
tack::array<tack::vec3f> two_tet_points() {
  return tack::array_from(
      std::vector<tack::vec3f>{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {1, 1, 1}});
}
}  // namespace

TEST(dataset_grid, unstructured_grid_counts_and_validation) {
  auto g = two_tets(two_tet_points());
  EXPECT_EQ(g.n_points(), 5);
  EXPECT_EQ(g.n_cells(), 2);
  auto pts = two_tet_points();
  auto conn = tack::array_from<index_t>({0, 1, 2, 3});
  EXPECT_THROW_MSG(td::unstructured_grid(pts, conn, tack::array_from<index_t>({0, 4}),
                                         tack::array_from<std::uint8_t>({42})),
                   tack::value_error, "unstructured_grid", "cell type 42", "not supported");
  EXPECT_THROW_MSG(td::unstructured_grid(pts, conn, tack::array_from<index_t>({0, 4}),
                                         tack::array_from<int>({99})),
                   tack::value_error, "cell type 99");
  EXPECT_THROW_MSG(td::unstructured_grid(pts, tack::array_from<index_t>({0, 1, 2, 5}),
                                         tack::array_from<index_t>({0, 4}),
                                         tack::array_from<std::uint8_t>({10})),
                   tack::value_error, "connectivity[3] = 5", "5 points");
  EXPECT_THROW_MSG(td::unstructured_grid(pts, tack::array_from<index_t>({0, 1, 2, 3, 1, 2, 3, 4}),
                                         tack::array_from<index_t>({0, 4, 4}),
                                         tack::array_from<std::uint8_t>({10, 10})),
                   tack::value_error, "offsets are not increasing", "cell 1");
  EXPECT_THROW_MSG(td::unstructured_grid(pts, conn, tack::array_from<index_t>({4}),
                                         tack::array_from<std::uint8_t>({10})),
                   tack::value_error, "n_cells + 1");
  EXPECT_THROW_MSG(td::unstructured_grid(pts, conn, tack::array_from<index_t>({0, 4}),
                                         tack::array_from<std::uint8_t>({9 + 3})),
                   tack::value_error, "hexahedron", "has 4 points");
  // int32 connectivity is converted
  td::unstructured_grid g32(pts, tack::array_from<std::int32_t>({0, 1, 2, 3}),
                            tack::array_from<std::int32_t>({0, 4}),
                            tack::array_from<std::uint8_t>({10}));
  EXPECT_EQ(g32.n_cells(), 1);
}

TEST(dataset_grid, spaces_and_field_sizes) {
  td::uniform_grid g({2, 2, 2});
  EXPECT_EQ(td::H1(g).size(), 8);
  EXPECT_EQ(td::L2(g).size(), 1);
  auto v = tack::zeros<tack::vec3f>(8);
  td::field f(td::H1(g), v);
  EXPECT_EQ(f.size(), 8);
  EXPECT_THROW_MSG(td::field(td::L2(g), v), tack::value_error, "field", "8 elements", "size 1");
  EXPECT_THROW_MSG(td::field(td::H1(g), tack::zeros<float>(7)), tack::value_error, "7", "size 8");
}

TEST(dataset_grid, field_map_insertion_order_erase_contains) {
  td::uniform_grid g({2, 2, 2});
  auto v = tack::empty<tack::vec3f>(8);
  v.fill(tack::vec3f{1, 0, 0});
  g.fields["velocity"] = td::field(td::H1(g), v);
  g.fields["pressure"] = td::field(td::L2(g), tack::zeros<double>(1));
  g.fields["stress"] = td::field(td::H1(g), tack::zeros<tack::mat3f>(8));
  std::vector<std::string> names;
  for (auto& [name, f] : g.fields) names.push_back(name);
  EXPECT_EQ(names, (std::vector<std::string>{"velocity", "pressure", "stress"}));
  EXPECT_TRUE(g.fields.contains("pressure"));
  EXPECT_EQ(g.fields.at("velocity").components(), 3);
  EXPECT_EQ(g.fields.at("stress").components(), 9);
  EXPECT_EQ(g.fields["velocity"].as<tack::vec3f>().values().to_vector()[3], (tack::vec3f{1, 0, 0}));
  EXPECT_THROW_MSG(g.fields.at("velocity").as<float>(), tack::type_error, "as<f32>", "vec3(f32)");
  EXPECT_EQ(g.fields.erase("pressure"), 1u);
  EXPECT_EQ(g.fields.erase("pressure"), 0u);
  EXPECT_FALSE(g.fields.contains("pressure"));
  EXPECT_THROW_MSG(g.fields.at("pressure"), tack::index_error, "no field named 'pressure'",
                   "'velocity'");
  // replacing keeps the place
  g.fields["velocity"] = td::field(td::H1(g), tack::ones<float>(8));
  EXPECT_EQ(g.fields.begin()->first, "velocity");
  EXPECT_EQ(g.fields.begin()->second.components(), 1);
  // a field of another mesh
  td::uniform_grid other({2, 2, 2});
  EXPECT_THROW_MSG(g.fields["x"] = td::field(td::H1(other), tack::ones<float>(8)),
                   tack::value_error, "field 'x'", "another mesh");
}

TEST(dataset_interpolate, uniform_trilinear_is_exact_for_linear_fields) {
  td::uniform_grid g({5, 4, 3}, {-1, 0, 2}, {0.5, 1, 0.25});
  auto pts = g.points();
  auto v = tack::empty<tack::vec3f>(g.n_points());
  for (index_t i = 0; i < g.n_points(); ++i) {
    auto p = pts[i];
    v[i] = tack::vec3f{float(p[0] + 2 * p[1]), float(3 * p[2]), float(p[0] * 0 + 1)};
  }
  td::field f(td::H1(g), v);
  auto u = f.interpolate(tack::vec3d{-0.3, 1.7, 2.4});
  EXPECT_NEAR(u[0], -0.3 + 3.4, 1e-5);
  EXPECT_NEAR(u[1], 7.2, 1e-5);
  EXPECT_NEAR(u[2], 1, 1e-6);
  auto q = tack::array_from(
      std::vector<tack::vec3f>{{-1, 0, 2}, {1, 3, 2.5f}, {5, 0, 0}, {0.1f, 0.2f, 2.3f}});
  auto r = f.interpolate(q).to_vector();
  EXPECT_NEAR(r[0][0], -1, 1e-5);
  EXPECT_NEAR(r[1][0], 7, 1e-5);
  EXPECT_TRUE(std::isnan(r[2][0]) && std::isnan(r[2][1]) && std::isnan(r[2][2]));
  EXPECT_NEAR(r[3][1], 6.9, 1e-5);
  // SoA values and SoA points give the same results
  auto vs = v.copy({.layout = tack::layout::soa});
  auto qs = q.copy({.layout = tack::layout::soa});
  auto rs = td::field(td::H1(g), vs).interpolate(qs).to_vector();
  for (int i : {0, 1, 3})
    for (int c = 0; c < 3; ++c) EXPECT_FLOAT_EQ(rs[i][c], r[i][c]);
}

TEST(dataset_interpolate, uniform_l2_is_piecewise_constant) {
  td::uniform_grid g({3, 3, 2});
  auto c = tack::array_from({10.0, 20.0, 30.0, 40.0});
  td::field f(td::L2(g), c);
  EXPECT_EQ(f.interpolate(tack::vec3d{0.5, 0.5, 0.5}), 10.0);
  EXPECT_EQ(f.interpolate(tack::vec3d{1.5, 0.5, 0.5}), 20.0);
  EXPECT_EQ(f.interpolate(tack::vec3d{0.2, 1.9, 0.9}), 30.0);
  EXPECT_TRUE(std::isnan(f.interpolate(tack::vec3d{0.2, 1.9, 1.1})));
}

TEST(dataset_interpolate, rectilinear_trilinear) {
  td::rectilinear_grid g(tack::array_from({0.0, 1.0, 3.0}), tack::array_from({0.0, 2.0}),
                         tack::array_from({0.0, 0.5, 1.0}));
  auto pts = g.points();
  auto v = tack::empty<double>(g.n_points());
  for (index_t i = 0; i < g.n_points(); ++i) v[i] = 2 * pts[i][0] - pts[i][1] + 4 * pts[i][2];
  td::field f(td::H1(g), v);
  EXPECT_NEAR(f.interpolate(tack::vec3d{2.2, 0.7, 0.6}), 4.4 - 0.7 + 2.4, 1e-12);
  EXPECT_TRUE(std::isnan(f.interpolate(tack::vec3d{3.1, 0.7, 0.6})));
  td::field cf(td::L2(g), tack::array_from({1.0, 2.0, 3.0, 4.0}));
  EXPECT_EQ(cf.interpolate(tack::vec3f{2.0f, 1.0f, 0.75f}), 4.0);
}

TEST(dataset_interpolate, tetra_barycentric_and_outside_nan) {
  auto pts = two_tet_points();
  auto g = two_tets(pts);
  auto v = tack::array_from({0.0f, 1.0f, 2.0f, 3.0f, 6.0f});  // v = x + 2y + 3z
  td::field f(td::H1(g), v);
  EXPECT_NEAR(f.interpolate(tack::vec3d{0.1, 0.2, 0.3}), 0.1 + 0.4 + 0.9, 1e-6);
  EXPECT_NEAR(f.interpolate(tack::vec3d{0.5, 0.5, 0.5}), 3.0, 1e-6);
  EXPECT_NEAR(f.interpolate(tack::vec3d{0.6, 0.6, 0.6}), 3.6, 1e-6);
  EXPECT_TRUE(std::isnan(f.interpolate(tack::vec3d{-0.1, 0.2, 0.3})));
  td::field c(td::L2(g), tack::array_from({7.0f, 8.0f}));
  EXPECT_EQ(c.interpolate(tack::vec3d{0.1, 0.1, 0.1}), 7.0f);
  EXPECT_EQ(c.interpolate(tack::vec3d{0.6, 0.6, 0.6}), 8.0f);
}

namespace {
// one cell of each 3-D type over the same box [0,1]^3 (split as needed) and a linear field
template <class Pts>
td::unstructured_grid one_cell(Pts pts, std::vector<index_t> conn, std::uint8_t type) {
  const auto n = static_cast<index_t>(conn.size());
  return td::unstructured_grid(pts, tack::array_from(conn), tack::array_from<index_t>({0, n}),
                               tack::array_from<std::uint8_t>({type}));
}
double linear(const tack::vec3d& p) { return 1 + p[0] - 2 * p[1] + 0.5 * p[2]; }
}  // namespace

TEST(dataset_interpolate, hexahedron_voxel_wedge_pyramid_quad_triangle_line_vertex) {
  struct cell {
    std::uint8_t type;
    std::vector<tack::vec3d> x;
    tack::vec3d inside, outside;
  };
  const std::vector<cell> cells = {
      {12,
       {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}, {0, 0, 1}, {1, 0, 1}, {1, 1, 1}, {0, 1, 1}},
       {0.2, 0.7, 0.4},
       {1.1, 0.5, 0.5}},
      // a distorted hexahedron
      {12,
       {{0, 0, 0},
        {2, 0, 0},
        {2.2, 1, 0},
        {0, 1.2, 0},
        {0, 0, 1},
        {2, 0, 1.1},
        {2, 1, 1},
        {0, 1, 1}},
       {1.0, 0.5, 0.5},
       {2.5, 0.5, 0.5}},
      {11,
       {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {1, 1, 0}, {0, 0, 1}, {1, 0, 1}, {0, 1, 1}, {1, 1, 1}},
       {0.3, 0.6, 0.9},
       {0.3, 0.6, 1.2}},
      {13,
       {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {1, 0, 1}, {0, 1, 1}},
       {0.2, 0.3, 0.8},
       {0.6, 0.6, 0.5}},
      {14,
       {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}, {0.5, 0.5, 1}},
       {0.5, 0.4, 0.3},
       {0.05, 0.05, 0.9}},
      {9, {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}}, {0.3, 0.8, 0}, {0.3, 0.8, 0.1}},
      {8, {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {1, 1, 0}}, {0.6, 0.1, 0}, {1.6, 0.1, 0}},
      {5, {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}}, {0.3, 0.3, 0}, {0.6, 0.6, 0}},
      {3, {{0, 0, 0}, {1, 1, 1}}, {0.25, 0.25, 0.25}, {0.25, 0.3, 0.25}},
      {1, {{0.5, 0.5, 0.5}}, {0.5, 0.5, 0.5}, {0.5, 0.5, 0.6}},
  };
  for (const auto& c : cells) {
    std::vector<index_t> conn;
    std::vector<double> vals;
    for (std::size_t i = 0; i < c.x.size(); ++i) {
      conn.push_back(static_cast<index_t>(i));
      vals.push_back(linear(c.x[i]));
    }
    auto pts = tack::array_from(c.x);
    auto g = one_cell(pts, conn, c.type);
    td::field f(td::H1(g), tack::array_from(vals));
    // trilinear/bilinear shape functions reproduce linear fields exactly (pyramid too)
    EXPECT_NEAR(f.interpolate(c.inside), linear(c.inside), 1e-9) << td::cell_type_name(c.type);
    EXPECT_TRUE(std::isnan(f.interpolate(c.outside))) << td::cell_type_name(c.type);
    td::field l(td::L2(g), tack::array_from({5.0}));
    EXPECT_EQ(l.interpolate(c.inside), 5.0) << td::cell_type_name(c.type);
  }
}

TEST(dataset_interpolate, locator_rebuilds_only_when_points_are_written) {
  auto pts = two_tet_points();
  auto g = two_tets(pts);
  td::field f(td::H1(g), tack::array_from({0.0f, 1.0f, 2.0f, 3.0f, 6.0f}));
  EXPECT_EQ(g.locator_builds(), 0);
  (void)f.interpolate(tack::vec3d{0.1, 0.1, 0.1});
  EXPECT_EQ(g.locator_builds(), 1);
  // reads, interpolations, a const view: no rebuild
  (void)pts.as_const()(2);
  (void)pts.to_vector();
  (void)f.interpolate(tack::array_from(std::vector<tack::vec3f>{{0.2f, 0.2f, 0.2f}}));
  EXPECT_EQ(g.locator_builds(), 1);
  // a write through a row view of the points: the locator is rebuilt and sees the moved point
  auto row = pts.rows(4, 5);
  row(0) = tack::vec3f{2, 2, 2};
  EXPECT_TRUE(std::isnan(f.interpolate(tack::vec3d{1.2, 1.2, 1.2})) == false);
  EXPECT_EQ(g.locator_builds(), 2);
  EXPECT_FALSE(std::isnan(f.interpolate(tack::vec3d{1.2, 1.2, 1.2})));
  EXPECT_EQ(g.locator_builds(), 2);
  // a kernel write through launch
  tack::fill(pts.rows(0, 1), tack::vec3f{-1, -1, -1});
  EXPECT_FALSE(std::isnan(f.interpolate(tack::vec3d{-0.2, -0.2, -0.2})));
  EXPECT_EQ(g.locator_builds(), 3);
  // writes through begin() / data(): the whole mesh moves by +10 in x
  for (auto& p : pts) p[0] += 10.0f;
  EXPECT_TRUE(std::isnan(f.interpolate(tack::vec3d{0.1, 0.1, 0.1})));
  EXPECT_FALSE(std::isnan(f.interpolate(tack::vec3d{10.1, 0.1, 0.1})));
  EXPECT_EQ(g.locator_builds(), 4);
  pts.data()[0][1] = -3.0f;
  (void)f.interpolate(tack::vec3d{10.1, 0.1, 0.1});
  EXPECT_EQ(g.locator_builds(), 5);
}

// Memory shared with other code can be written without moving the write version (here through
// a pointer taken from a read-only handle and cast, as C code or NumPy would): a cell whose point
// indices no longer fit is skipped, and interpolation reads nothing past the points.
TEST(dataset_interpolate, cells_written_behind_the_version_are_never_read_past) {
  auto pts = two_tet_points();
  auto conn = tack::array_from<tack::index_t>({0, 1, 2, 3, 1, 2, 3, 4});
  td::unstructured_grid g(pts, conn, tack::array_from<tack::index_t>({0, 4, 8}),
                          tack::array_from<std::uint8_t>({10, 10}));
  td::field f(td::H1(g), tack::array_from({0.0f, 1.0f, 2.0f, 3.0f, 6.0f}));
  EXPECT_FALSE(std::isnan(f.interpolate(tack::vec3d{0.1, 0.1, 0.1})));
  auto* shared = const_cast<tack::index_t*>(g.connectivity().data());
  shared[1] = tack::index_t{1} << 40;  // the first tetrahedron now names a point that is not there
  shared[5] = -7;
  EXPECT_TRUE(std::isnan(f.interpolate(tack::vec3d{0.1, 0.1, 0.1})));
  EXPECT_TRUE(std::isnan(f.interpolate(tack::vec3d{0.3, 0.3, 0.3})));
}

TEST(dataset_interpolate, soa_points_unstructured_and_many_points) {
  auto pts = two_tet_points().copy({.layout = tack::layout::soa});
  auto g = two_tets(pts);
  td::field f(td::H1(g), tack::array_from({0.0, 1.0, 2.0, 3.0, 6.0}));
  auto q = tack::array_from(std::vector<tack::vec3d>{{0.1, 0.2, 0.3}, {2, 2, 2}, {0.6, 0.6, 0.6}});
  auto r = f.interpolate(q).to_vector();
  EXPECT_NEAR(r[0], 1.4, 1e-12);
  EXPECT_TRUE(std::isnan(r[1]));
  EXPECT_NEAR(r[2], 3.6, 1e-12);
}

namespace {
// nx * ny * nz unit cubes of 6 tetrahedra each (Kuhn's subdivision), without the cubes `skip`
// says to leave out; returns the mesh of vec3d points.
template <class Skip>
td::unstructured_grid kuhn_box(index_t nx, index_t ny, index_t nz, Skip skip) {
  const index_t px = nx + 1, py = ny + 1;
  std::vector<tack::vec3d> pts;
  for (index_t k = 0; k <= nz; ++k)
    for (index_t j = 0; j <= ny; ++j)
      for (index_t i = 0; i <= nx; ++i) pts.push_back(tack::vec3d{double(i), double(j), double(k)});
  const int perms[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
  std::vector<index_t> conn, off{0};
  std::vector<std::uint8_t> types;
  for (index_t k = 0; k < nz; ++k)
    for (index_t j = 0; j < ny; ++j)
      for (index_t i = 0; i < nx; ++i) {
        if (skip(i, j, k)) continue;
        for (const auto& p : perms) {
          index_t c[3] = {i, j, k};
          conn.push_back(c[0] + px * (c[1] + py * c[2]));
          for (int a = 0; a < 3; ++a) {
            ++c[p[a]];
            conn.push_back(c[0] + px * (c[1] + py * c[2]));
          }
          off.push_back(static_cast<index_t>(conn.size()));
          types.push_back(10);
        }
      }
  return td::unstructured_grid(tack::array_from(pts), tack::array_from(conn), tack::array_from(off),
                               tack::array_from(types));
}
}  // namespace

// The locator's bins line up with these cells, so a cell is listed in one bin only; points on the
// faces of the mesh inside the bin grid (an L shape's inner corner) and points outside those faces
// by less than the tolerance must still find their cell, and points farther out must not.
TEST(dataset_interpolate, locator_finds_points_on_faces_that_lie_on_bin_faces) {
  auto g = kuhn_box(4, 4, 2, [](index_t i, index_t j, index_t) { return i >= 2 && j >= 2; });
  const index_t n = g.n_points();
  std::vector<double> v(static_cast<std::size_t>(n));
  const auto pts = std::get<tack::array<tack::vec3d>>(g.points()).to_vector();
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = linear(pts[i]);
  td::field f(td::H1(g), tack::array_from(v));
  // on the inner faces x = 2 (y in [2, 4]) and y = 2 (x in [2, 4]), and at the inner corner
  for (const tack::vec3d& p :
       {tack::vec3d{2, 3, 1}, tack::vec3d{2, 2.5, 0.5}, tack::vec3d{3, 2, 1.5},
        tack::vec3d{2, 2, 1}, tack::vec3d{2, 4, 2}, tack::vec3d{4, 2, 0}}) {
    EXPECT_NEAR(f.interpolate(p), linear(p), 1e-9) << p[0] << " " << p[1] << " " << p[2];
  }
  // outside those faces by less than the tolerance: inside; by 1e-3: outside
  EXPECT_NEAR(f.interpolate(tack::vec3d{2 + 1e-8, 3, 1}), linear(tack::vec3d{2, 3, 1}), 1e-6);
  EXPECT_NEAR(f.interpolate(tack::vec3d{3, 2 + 1e-8, 1}), linear(tack::vec3d{3, 2, 1}), 1e-6);
  EXPECT_TRUE(std::isnan(f.interpolate(tack::vec3d{2 + 1e-3, 3, 1})));
  EXPECT_TRUE(std::isnan(f.interpolate(tack::vec3d{3, 3, 1})));
  // the outer faces, just outside them by less than the tolerance, and beyond
  EXPECT_NEAR(f.interpolate(tack::vec3d{0, 1.5, 0.5}), linear(tack::vec3d{0, 1.5, 0.5}), 1e-9);
  EXPECT_NEAR(f.interpolate(tack::vec3d{4 + 1e-8, 1.5, 2}), linear(tack::vec3d{4, 1.5, 2}), 1e-6);
  EXPECT_TRUE(std::isnan(f.interpolate(tack::vec3d{-1e-3, 1.5, 0.5})));
  // every point of a lattice of 1/8 steps (many on cell and bin faces): the linear value inside
  // the L, NaN in the cut-out corner
  std::vector<tack::vec3d> q;
  for (int k = 0; k <= 16; ++k)
    for (int j = 0; j <= 32; ++j)
      for (int i = 0; i <= 32; ++i) q.push_back(tack::vec3d{i / 8.0, j / 8.0, k / 8.0});
  const auto r = f.interpolate(tack::array_from(q)).to_vector();
  for (std::size_t m = 0; m < q.size(); ++m) {
    const bool cut = q[m][0] > 2 && q[m][1] > 2;
    if (cut) {
      EXPECT_TRUE(std::isnan(r[m])) << q[m][0] << " " << q[m][1] << " " << q[m][2];
    } else {
      EXPECT_NEAR(r[m], linear(q[m]), 1e-9) << q[m][0] << " " << q[m][1] << " " << q[m][2];
    }
  }
}
