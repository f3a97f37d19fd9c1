// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
// Interpolation as a kernel on every backend the build has (serial, OpenMP, CUDA or HIP; nvcc or
// hipcc compiles this file in GPU builds): uniform, rectilinear and unstructured meshes, H1 and
// L2, AoS and SoA values and points give the serial CPU results (bit for bit on the CPU backends,
// to rounding on a GPU), and points outside the mesh give NaN.

#include <tack/dataset/all.hpp>
#include <tack/exec/threads.hpp>
#include <tack/tack.hpp>

#include "common/tack_test.hpp"

#include <cmath>
#include <cstdint>
#include <type_traits>
#include <vector>

namespace td = tack::dataset;
using tack::index_t;

namespace {

template <class B>
class dataset_backend_test : public tack::test::backend_test<B> {
protected:
  void SetUp() override {
    tack::test::backend_test<B>::SetUp();
    threads_ = tack::num_threads();
    tack::set_num_threads(std::is_same_v<B, tack::serial_backend> ? 1 : 2);
  }
  void TearDown() override { tack::set_num_threads(threads_); }
  int threads_ = 1;
};
TYPED_TEST_SUITE(dataset_backend_test, tack::test::backends, tack::test::backend_names);

/// Query points: a lattice over [-0.25, 1.25]^3 of the mesh's unit box (some outside), with a
/// deterministic offset so that few lie on faces.
std::vector<tack::vec3d> queries(double scale) {
  std::vector<tack::vec3d> q;
  for (int k = 0; k < 7; ++k)
    for (int j = 0; j < 7; ++j)
      for (int i = 0; i < 9; ++i)
        q.push_back(tack::vec3d{scale * (-0.25 + 0.17 * i + 0.013 * j),
                                scale * (-0.25 + 0.23 * j + 0.007 * k),
                                scale * (-0.25 + 0.24 * k + 0.011 * i)});
  return q;
}

tack::vec3f value_at(const tack::vec3d& p) {
  return tack::vec3f{float(1 + p[0] - 2 * p[1]), float(p[2] * 3), float(p[0] * p[1])};
}

template <class T>
void expect_same(const std::vector<T>& got, const std::vector<T>& want, bool exact) {
  ASSERT_EQ(got.size(), want.size());
  for (std::size_t i = 0; i < got.size(); ++i) {
    for (int c = 0; c < tack::components_v<T>; ++c) {
      const double a = reinterpret_cast<const tack::scalar_t<T>*>(&got[i])[c];
      const double b = reinterpret_cast<const tack::scalar_t<T>*>(&want[i])[c];
      if (std::isnan(b)) {
        EXPECT_TRUE(std::isnan(a)) << i;
      } else if (exact) {
        EXPECT_EQ(a, b) << i;
      } else {
        EXPECT_NEAR(a, b, 1e-5 * (1 + std::abs(b))) << i;
      }
    }
  }
}

/// `f` (a field on the host) interpolated on `d` at `q` in either layout of the points.
template <class T, class Make>
void check_on(const tack::device& d, Make make, const std::vector<tack::vec3d>& q, bool exact) {
  const auto host_field = make(tack::cpu(), tack::layout::aos);
  const auto want = host_field.interpolate(tack::array_from(q)).to_vector();
  int outside = 0;
  for (const auto& w : want)
    outside += std::isnan(reinterpret_cast<const tack::scalar_t<T>*>(&w)[0]) ? 1 : 0;
  EXPECT_GT(outside, 0);
  EXPECT_LT(outside, static_cast<int>(want.size()));
  for (auto layout : {tack::layout::aos, tack::layout::soa}) {
    const auto f = make(d, layout);
    auto pts = tack::array_from(q).copy({.device = d, .layout = layout});
    expect_same(f.interpolate(pts).to_vector(), want, exact);
    auto ptsf =
        tack::array_from(q).template astype<tack::vec3f>().copy({.device = d, .layout = layout});
    const auto wantf =
        host_field.interpolate(tack::array_from(q).template astype<tack::vec3f>()).to_vector();
    expect_same(f.interpolate(ptsf).to_vector(), wantf, exact);
    // one point: computed the same way
    const T one = f.interpolate(q[3]);
    expect_same(std::vector<T>{one}, std::vector<T>{want[3]}, exact);
  }
}

td::unstructured_grid hex_and_tets(const tack::device& d, tack::layout layout) {
  // a unit cube of 6 tetrahedra and a hexahedron on top of it (z in [1, 2])
  std::vector<tack::vec3d> p;
  for (int k = 0; k <= 2; ++k)
    for (int j = 0; j <= 1; ++j)
      for (int i = 0; i <= 1; ++i) p.push_back(tack::vec3d{double(i), double(j), 0.5 * k});
  auto id = [](int i, int j, int k) { return index_t(i + 2 * (j + 2 * k)); };
  std::vector<index_t> conn, off{0};
  std::vector<std::uint8_t> types;
  const int perms[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
  for (const auto& pm : perms) {
    int c[3] = {0, 0, 0};
    conn.push_back(id(c[0], c[1], c[2]));
    for (int a = 0; a < 3; ++a) {
      ++c[pm[a]];
      conn.push_back(id(c[0], c[1], c[2]));
    }
    off.push_back(index_t(conn.size()));
    types.push_back(10);
  }
  for (index_t v : {id(0, 0, 1), id(1, 0, 1), id(1, 1, 1), id(0, 1, 1), id(0, 0, 2), id(1, 0, 2),
                    id(1, 1, 2), id(0, 1, 2)}) {
    conn.push_back(v);
  }
  off.push_back(index_t(conn.size()));
  types.push_back(12);
  return td::unstructured_grid(tack::array_from(p).copy({.device = d, .layout = layout}),
                               tack::array_from(conn).to_device(d),
                               tack::array_from(off).to_device(d),
                               tack::array_from(types).to_device(d));
}

}  // namespace

TYPED_TEST(dataset_backend_test, uniform_h1_and_l2) {
  const tack::device d = tack::test::device_of<TypeParam>();
  const bool exact = !tack::test::on_gpu<TypeParam>;
  td::uniform_grid g({5, 4, 3}, {0, 0, 0}, {0.25, 1.0 / 3, 0.5});
  auto make_h1 = [&](const tack::device& dev, tack::layout layout) {
    auto pts = g.points();
    std::vector<tack::vec3f> v;
    for (index_t i = 0; i < g.n_points(); ++i) v.push_back(value_at(pts[i]));
    return td::field(td::H1(g), tack::array_from(v).copy({.device = dev, .layout = layout}));
  };
  check_on<tack::vec3f>(d, make_h1, queries(1.0), exact);
  auto make_l2 = [&](const tack::device& dev, tack::layout) {
    std::vector<double> v;
    for (index_t c = 0; c < g.n_cells(); ++c) v.push_back(double(c) * 1.5);
    return td::field(td::L2(g), tack::array_from(v).to_device(dev));
  };
  check_on<double>(d, make_l2, queries(1.0), exact);
}

TYPED_TEST(dataset_backend_test, rectilinear_h1) {
  const tack::device d = tack::test::device_of<TypeParam>();
  const bool exact = !tack::test::on_gpu<TypeParam>;
  td::rectilinear_grid g(tack::array_from({0.0, 0.1, 0.5, 1.0}), tack::array_from({0.0, 0.7, 1.0}),
                         tack::array_from({0.0, 0.25, 0.5, 0.75, 1.0}));
  auto make = [&](const tack::device& dev, tack::layout layout) {
    auto pts = g.points();
    std::vector<tack::vec3f> v;
    for (index_t i = 0; i < g.n_points(); ++i) v.push_back(value_at(pts[i]));
    return td::field(td::H1(g), tack::array_from(v).copy({.device = dev, .layout = layout}));
  };
  check_on<tack::vec3f>(d, make, queries(1.0), exact);
}

TYPED_TEST(dataset_backend_test, unstructured_h1_and_l2_with_the_locator) {
  const tack::device d = tack::test::device_of<TypeParam>();
  const bool exact = !tack::test::on_gpu<TypeParam>;
  for (auto point_layout : {tack::layout::aos, tack::layout::soa}) {
    auto g = hex_and_tets(d, point_layout);
    const auto p = std::get<tack::array<tack::vec3d>>(g.points()).to_vector();
    // the host reference and the device field share the mesh: its arrays go where the values are
    auto make_h1 = [&](const tack::device& dev, tack::layout layout) {
      std::vector<tack::vec3f> v;
      for (const auto& x : p) v.push_back(value_at(x));
      return td::field(td::H1(g), tack::array_from(v).copy({.device = dev, .layout = layout}));
    };
    check_on<tack::vec3f>(d, make_h1, queries(1.0), exact);
    auto make_l2 = [&](const tack::device& dev, tack::layout) {
      return td::field(td::L2(g),
                       tack::array_from({1.0f, 2.0f, 3.0f, 4.0f, 5.0f, 6.0f, 7.0f}).to_device(dev));
    };
    check_on<float>(d, make_l2, queries(1.0), exact);
    EXPECT_EQ(g.locator_builds(),
              1);  // built once, on the first interpolation, for every query after it
  }
}

// A box of n^3 cubes of 6 tetrahedra each, point coordinates jittered so the cells do not line up
// with the locator's bins: large enough (more than 2 MiB of cells) that a batch of more than 2^15
// queries on the CPU is grouped by locator bin before the kernel runs.
td::unstructured_grid jittered_tet_box(const tack::device& d, int n) {
  std::vector<tack::vec3d> p;
  const int m = n + 1;
  for (int k = 0; k < m; ++k)
    for (int j = 0; j < m; ++j)
      for (int i = 0; i < m; ++i) {
        auto shake = [&](int x, int salt) {
          if (x == 0 || x == n) return double(x);
          const unsigned h =
              static_cast<unsigned>((i * 73856093) ^ (j * 19349663) ^ (k * 83492791) ^ salt);
          return x + 0.2 * (double(h % 1001) / 1000.0 - 0.5);
        };
        p.push_back(tack::vec3d{shake(i, 1), shake(j, 2), shake(k, 3)});
      }
  const int perms[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
  std::vector<index_t> conn;
  for (int k = 0; k < n; ++k)
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < n; ++i)
        for (const auto& pm : perms) {
          int c[3] = {i, j, k};
          conn.push_back(c[0] + m * (c[1] + m * c[2]));
          for (int a = 0; a < 3; ++a) {
            ++c[pm[a]];
            conn.push_back(c[0] + m * (c[1] + m * c[2]));
          }
        }
  const index_t cells = index_t(n) * n * n * 6;
  std::vector<index_t> off;
  for (index_t c = 0; c <= cells; ++c) off.push_back(4 * c);
  return td::unstructured_grid(
      tack::array_from(p).to_device(d), tack::array_from(conn).to_device(d),
      tack::array_from(off).to_device(d),
      tack::array_from(std::vector<std::uint8_t>(static_cast<std::size_t>(cells), 10))
          .to_device(d));
}

TYPED_TEST(dataset_backend_test, unstructured_batch_grouped_by_bin_matches_each_point) {
  const tack::device d = tack::test::device_of<TypeParam>();
  const bool exact = !tack::test::on_gpu<TypeParam>;
  auto g = jittered_tet_box(d, 24);  // 82,944 tetrahedra: 2.65 MB of connectivity
  ASSERT_GE(g.n_cells() * 4 * index_t(sizeof(index_t)), index_t{2} << 20);
  const auto p = std::get<tack::array<tack::vec3d>>(g.points()).to_vector();
  std::vector<float> v;
  for (std::size_t i = 0; i < p.size(); ++i)
    v.push_back(float(p[i][0] - 2 * p[i][1] + 0.5 * p[i][2]));
  const td::field h1(td::H1(g), tack::array_from(v).to_device(d));
  std::vector<float> per_cell;
  for (index_t c = 0; c < g.n_cells(); ++c) per_cell.push_back(float(c % 1000));
  const td::field l2(td::L2(g), tack::array_from(per_cell).to_device(d));
  // 40,000 points in [-1, 25]^3 (some outside), in random order
  auto r = tack::arrays::random_uniform<double>(3 * 40000, 5, -1.0, 25.0);
  std::vector<tack::vec3d> q;
  for (index_t i = 0; i < 40000; ++i)
    q.push_back(tack::vec3d{r[3 * i], r[3 * i + 1], r[3 * i + 2]});
  for (auto layout : {tack::layout::aos, tack::layout::soa}) {
    const auto pts = tack::array_from(q).copy({.device = d, .layout = layout});
    const auto got_h1 = h1.interpolate(pts).to_vector();
    const auto got_l2 = l2.interpolate(pts).to_vector();
    std::vector<float> want_h1, want_l2;
    for (const auto& x : q) {
      want_h1.push_back(h1.interpolate(x));
      want_l2.push_back(l2.interpolate(x));
    }
    expect_same(got_h1, want_h1, exact);
    expect_same(got_l2, want_l2, exact);
    int outside = 0;
    for (float x : want_h1) outside += std::isnan(x) ? 1 : 0;
    EXPECT_GT(outside, 1000);
    EXPECT_LT(outside, 20000);
  }
  EXPECT_EQ(g.locator_builds(), 1);
}
