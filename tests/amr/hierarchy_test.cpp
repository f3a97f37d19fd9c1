// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
// tack::amr: ghost cells against an independent box-by-box reference (linear searches, per cell,
// host vectors), conservation of average_down, the baseline's identical bits, regrid and views,
// bad hierarchies, the synthetic hierarchy and the .vthb file.

#include <tack/amr/all.hpp>
#include <tack/tack.hpp>

#include "common/tack_test.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>
#include <unistd.h>
#include <vector>

namespace amr = tack::amr;
using tack::index_t;
using tack::vec3d;
using tack::vec3f;

namespace {

/// A field with kinks (so the limiter acts) and no symmetry, without transcendental functions.
struct wave_fn {
  TACK_HOST_DEVICE double operator()(const vec3d& x) const {
    return x[0] * x[0] - 0.5 * x[1] + 3.0 * x[2] * x[2] * x[2] + (x[0] > 0.41 ? 0.3 : 0.0) +
           x[0] * x[1];
  }
};
template <class T>
struct wave {
  TACK_HOST_DEVICE T operator()(const vec3d& x) const {
    const double f = wave_fn{}(x);
    if constexpr (tack::is_scalar_v<T>) {
      return static_cast<T>(f);
    } else {
      using S = tack::scalar_t<T>;
      return T{static_cast<S>(f), static_cast<S>(2.0 * f - x[0]),
               static_cast<S>(x[1] * x[2] - (x[2] > 0.7 ? 1.0 : 0.0))};
    }
  }
};

/// A hierarchy of 3 levels over a 16^3 domain: level 0 in 8 boxes; level 1 a box in the low
/// corner, one at the opposite x end (its periodic neighbour), and two adjacent boxes in the
/// middle; level 2 two adjacent boxes over both middle boxes.
amr::hierarchy small_hierarchy(int r, std::array<amr::boundary, 3> bc, index_t ghost = 2,
                               int n_levels = 3) {
  std::vector<amr::box> l0;
  for (index_t z = 0; z < 2; ++z) {
    for (index_t y = 0; y < 2; ++y) {
      for (index_t x = 0; x < 2; ++x)
        l0.push_back({{8 * x, 8 * y, 8 * z}, {8 * x + 7, 8 * y + 7, 8 * z + 7}});
    }
  }
  const index_t c = r == 2 ? 8 : 16;
  const index_t n1 = 16 * r;  // level-1 cells per axis
  std::vector<amr::box> l1{{{0, 0, 0}, {7, 7, 7}},
                           {{n1 - 8, 0, 0}, {n1 - 1, 7, 7}},
                           {{c, c, c}, {c + 7, c + 7, c + 7}},
                           {{c + 8, c, c}, {c + 15, c + 7, c + 7}}};
  const index_t a = r * c + 4;
  std::vector<amr::box> l2{{{a, a, a}, {a + 7, a + 7, a + 7}},
                           {{a + 8, a, a}, {a + 15, a + 7, a + 7}}};
  std::vector<amr::level> levels{{1, l0}, {r, l1}, {r, l2}};
  levels.resize(static_cast<std::size_t>(n_levels));
  return amr::hierarchy(amr::box{{0, 0, 0}, {15, 15, 15}}, levels,
                        {.ghost = ghost,
                         .boundaries = bc,
                         .origin = vec3d{0, 0, 0},
                         .spacing = vec3d{1.0 / 16, 1.0 / 16, 1.0 / 16}});
}

template <class T>
using box_values = std::vector<T>;  // one box's grown values, x fastest

/// The independent reference: every box's values as host vectors, filled cell by cell.
template <class T>
struct reference {
  const amr::hierarchy& h;
  std::vector<std::vector<box_values<T>>> data;

  static index_t at(const amr::box& g, const std::array<index_t, 3>& p) {
    return ((p[2] - g.lo[2]) * g.extent(1) + (p[1] - g.lo[1])) * g.extent(0) + (p[0] - g.lo[0]);
  }
  T& value(int l, std::size_t b, const std::array<index_t, 3>& p) {
    return data[static_cast<std::size_t>(l)][b][static_cast<std::size_t>(at(h.grown_box(l, b), p))];
  }
  static tack::scalar_t<T> mc(tack::scalar_t<T> m, tack::scalar_t<T> c, tack::scalar_t<T> p) {
    using S = tack::scalar_t<T>;
    const S dl = c - m, dr = p - c;
    if (dl * dr <= 0) return 0;
    const S dc = (p - m) / 2;
    return std::copysign(std::min({std::abs(dc), 2 * std::abs(dl), 2 * std::abs(dr)}), dc);
  }
  static tack::scalar_t<T>& comp(T& v, int q) {
    if constexpr (tack::is_scalar_v<T>) {
      return v;
    } else {
      return v[q];
    }
  }

  void fill(int l) {
    const amr::box dom = h.domain(l);
    const auto& boxes = h.boxes(l);
    const index_t r = h.ratio(l);
    for (int pass = 0; pass < 2; ++pass) {
      for (std::size_t b = 0; b < boxes.size(); ++b) {
        const amr::box g = h.grown_box(l, b);
        for (index_t z = g.lo[2]; z <= g.hi[2]; ++z) {
          for (index_t y = g.lo[1]; y <= g.hi[1]; ++y) {
            for (index_t x = g.lo[0]; x <= g.hi[0]; ++x) {
              const std::array<index_t, 3> p{x, y, z};
              if (boxes[b].contains(p)) continue;
              bool outside = false;
              std::array<index_t, 3> w = p, q = p;
              for (std::size_t d = 0; d < 3; ++d) {
                const index_t n = dom.extent(static_cast<int>(d));
                if (h.boundaries()[d] == amr::boundary::periodic) {
                  w[d] = ((p[d] % n) + n) % n;
                } else if (p[d] < 0 || p[d] >= n) {
                  outside = true;
                  q[d] = std::clamp<index_t>(p[d], 0, n - 1);
                }
              }
              if (outside) {
                if (pass == 1) value(l, b, p) = value(l, b, q);
                continue;
              }
              if (pass == 1) continue;
              bool done = false;
              for (std::size_t n = 0; n < boxes.size() && !done; ++n) {
                if (boxes[n].contains(w)) {
                  value(l, b, p) = value(l, n, w);
                  done = true;
                }
              }
              if (done) continue;
              ASSERT_GT(l, 0) << "a level-0 ghost cell without a box";
              std::array<index_t, 3> c{};
              for (std::size_t d = 0; d < 3; ++d)
                c[d] = static_cast<index_t>(std::floor(double(w[d]) / double(r)));
              std::size_t cb = 0;
              while (!h.boxes(l - 1)[cb].contains(c)) ++cb;
              auto cv = [&](index_t dx, index_t dy, index_t dz) {
                return value(l - 1, cb, {c[0] + dx, c[1] + dy, c[2] + dz});
              };
              T centre = cv(0, 0, 0), out = centre;
              const T n6[6] = {cv(-1, 0, 0), cv(1, 0, 0),  cv(0, -1, 0),
                               cv(0, 1, 0),  cv(0, 0, -1), cv(0, 0, 1)};
              for (int k = 0; k < tack::components_v<T>; ++k) {
                tack::scalar_t<T> v = comp(centre, k);
                for (int d = 0; d < 3; ++d) {
                  T m = n6[2 * d], pp = n6[2 * d + 1];
                  const auto off = tack::scalar_t<T>(2 * (w[static_cast<std::size_t>(d)] -
                                                          c[static_cast<std::size_t>(d)] * r) +
                                                     1 - r) /
                                   tack::scalar_t<T>(2 * r);
                  v += mc(comp(m, k), comp(centre, k), comp(pp, k)) * off;
                }
                comp(out, k) = v;
              }
              value(l, b, p) = out;
            }
          }
        }
      }
    }
  }
};

template <class T>
double max_component_error(const T& a, const T& b) {
  double e = 0;
  for (int k = 0; k < tack::components_v<T>; ++k) {
    const double x = amr::detail::component(a, k), y = amr::detail::component(b, k);
    e = std::max(e, std::isnan(x) || std::isnan(y) ? std::numeric_limits<double>::infinity()
                                                   : std::abs(x - y) / (1 + std::abs(y)));
  }
  return e;
}

/// Fills every level with the library and with the reference; compares every value.
template <class T>
void check_ghosts(amr::hierarchy& h, tack::layout layout) {
  auto f = amr::add_field<T>(h, "u", layout);
  T nan{};
  for (int k = 0; k < tack::components_v<T>; ++k)
    amr::detail::component(nan, k) = std::numeric_limits<tack::scalar_t<T>>::quiet_NaN();
  for (int l = 0; l < h.n_levels(); ++l) {
    f.level_buffer(l).fill(nan);
    amr::initialize(h, l, f, wave<T>{});
  }
  reference<T> ref{h, {}};
  for (int l = 0; l < h.n_levels(); ++l) {
    auto& lv = ref.data.emplace_back();
    for (std::size_t b = 0; b < h.boxes(l).size(); ++b)
      lv.push_back(f.box_values(l, b).to_vector());
  }
  h.reset_timings();
  amr::fill_ghost_cells(h, f);
  EXPECT_LE(h.timings().launches, 3 * h.n_levels()) << "a few launches per level, not one per box";
  const double tol = std::is_same_v<tack::scalar_t<T>, float> ? 1e-5 : 1e-12;
  for (int l = 0; l < h.n_levels(); ++l) {
    ref.fill(l);
    index_t checked = 0;
    for (std::size_t b = 0; b < h.boxes(l).size(); ++b) {
      const auto got = f.box_values(l, b).to_vector();
      const auto& want = ref.data[static_cast<std::size_t>(l)][b];
      ASSERT_EQ(got.size(), want.size());
      for (std::size_t i = 0; i < got.size(); ++i) {
        ASSERT_LE(max_component_error(got[i], want[i]), tol)
            << "level " << l << " box " << b << " element " << i;
        ++checked;
      }
    }
    EXPECT_GT(checked, 0);
  }
}

constexpr std::array<amr::boundary, 3> periodic{amr::boundary::periodic, amr::boundary::periodic,
                                                amr::boundary::periodic};
constexpr std::array<amr::boundary, 3> walls{amr::boundary::extrapolate, amr::boundary::extrapolate,
                                             amr::boundary::extrapolate};
constexpr std::array<amr::boundary, 3> mixed{amr::boundary::periodic, amr::boundary::extrapolate,
                                             amr::boundary::periodic};

}  // namespace

TEST(amr_box, algebra) {
  const amr::box b{{1, 2, 3}, {4, 5, 6}};
  EXPECT_EQ(b.size(), 64);
  EXPECT_EQ(b.grow(1), (amr::box{{0, 1, 2}, {5, 6, 7}}));
  EXPECT_EQ(b.refine(2), (amr::box{{2, 4, 6}, {9, 11, 13}}));
  EXPECT_EQ((amr::box{{-3, 0, 0}, {3, 1, 1}}).coarsen(2), (amr::box{{-2, 0, 0}, {1, 0, 0}}));
  EXPECT_TRUE((b & amr::box{{5, 0, 0}, {9, 9, 9}}).empty());
  EXPECT_EQ(amr::floor_div(-1, 2), -1);
  EXPECT_EQ(b.describe(), "(1, 2, 3)-(4, 5, 6)");
}

TEST(amr_hierarchy, boxes_are_row_views_of_one_level_buffer) {
  auto h = small_hierarchy(2, periodic);
  auto f = amr::add_field<double>(h, "rho");
  for (int l = 0; l < h.n_levels(); ++l) {
    const auto buf = f.level_buffer(l);
    EXPECT_EQ(buf.size(), h.level_size(l));
    index_t offset = 0;
    for (std::size_t b = 0; b < h.boxes(l).size(); ++b) {
      const auto v = f.box_values(l, b);
      const amr::box g = h.grown_box(l, b);
      EXPECT_TRUE(v.is_view());
      EXPECT_EQ(v.shape(), (std::array<index_t, 3>{g.extent(2), g.extent(1), g.extent(0)}));
      EXPECT_EQ(v.data(), buf.data() + offset);
      offset += g.size();
    }
    EXPECT_EQ(offset, buf.size());
  }
  // A write through a box view lands in the level buffer; any kernel or reduction takes a box.
  auto v = f.box_values(1, 2);
  v.fill(2.0);
  EXPECT_EQ(tack::sum(f.level_buffer(1)), 2.0 * double(v.size()));
  EXPECT_THROW_MSG(f.box_values(1, 9), tack::index_error, "box 9", "level 1", "4 boxes");
  EXPECT_THROW_MSG(f.level_buffer(3), tack::index_error, "level 3");
  EXPECT_THROW_MSG(amr::add_field<double>(h, "rho"), tack::value_error, "rho", "already");
  EXPECT_THROW_MSG(amr::get_field<float>(h, "rho"), tack::type_error, "rho", "f64", "f32");
  EXPECT_THROW_MSG(amr::get_field<double>(h, "p"), tack::index_error, "'p'", "'rho'");
  EXPECT_THROW_MSG(amr::add_field<double>(h, "s", tack::layout::soa), tack::value_error, "SoA",
                   "f64");
  auto other = small_hierarchy(2, periodic);
  EXPECT_THROW_MSG(amr::fill_ghost_cells(other, 0, f), tack::value_error, "another hierarchy",
                   "'rho'");
  EXPECT_THROW_MSG(amr::average_down(h, 0, f), tack::index_error, "level 0", "1 to 2");
}

TEST(amr_ghosts, periodic_ratio2_scalar) {
  auto h = small_hierarchy(2, periodic);
  check_ghosts<double>(h, tack::layout::aos);
}
TEST(amr_ghosts, walls_ratio2_scalar) {
  auto h = small_hierarchy(2, walls);
  check_ghosts<double>(h, tack::layout::aos);
}
TEST(amr_ghosts, mixed_ratio4_scalar_float) {
  auto h = small_hierarchy(4, mixed);
  check_ghosts<float>(h, tack::layout::aos);
}
TEST(amr_ghosts, periodic_ratio4_vector_aos) {
  auto h = small_hierarchy(4, periodic);
  check_ghosts<vec3d>(h, tack::layout::aos);
}
TEST(amr_ghosts, walls_ratio4_vector_soa) {
  auto h = small_hierarchy(4, walls);
  check_ghosts<vec3d>(h, tack::layout::soa);
}
TEST(amr_ghosts, mixed_ratio2_vector_soa_float) {
  auto h = small_hierarchy(2, mixed);
  check_ghosts<vec3f>(h, tack::layout::soa);
}
TEST(amr_ghosts, ghost_width_one_and_three) {
  auto h1 = small_hierarchy(2, mixed, 1);
  check_ghosts<double>(h1, tack::layout::aos);
  auto h3 = small_hierarchy(2, periodic, 3, 2);
  check_ghosts<double>(h3, tack::layout::aos);
}
TEST(amr_ghosts, synthetic_hierarchy) {
  auto h = amr::synthetic_hierarchy({.scale = 0.004, .box_size = 4, .ghost = 2, .levels = 4});
  check_ghosts<double>(h, tack::layout::aos);
  auto h4 = amr::synthetic_hierarchy(
      {.scale = 0.002, .box_size = 4, .ghost = 1, .ratio = 4, .levels = 3});
  check_ghosts<vec3d>(h4, tack::layout::soa);
}

TEST(amr_ghosts, by_name) {
  auto h = small_hierarchy(2, periodic);
  auto f = amr::add_field<vec3d>(h, "u", tack::layout::soa);
  for (int l = 0; l < 3; ++l) amr::initialize(h, l, f, wave<vec3d>{});
  auto g = amr::add_field<vec3d>(h, "v", tack::layout::soa);
  for (int l = 0; l < 3; ++l) {
    amr::initialize(h, l, g, wave<vec3d>{});
    amr::fill_ghost_cells(h, l, f);
    amr::fill_ghost_cells(h, l, "v");
    EXPECT_TRUE(tack::array_equal(f.level_buffer(l), g.level_buffer(l)));
  }
  amr::average_down(h, 2, "v");
  EXPECT_THROW_MSG(amr::fill_ghost_cells(h, 0, "w"), tack::index_error, "'w'", "'u', 'v'");
}

namespace {
template <class T>
void check_conservation(int r, tack::layout layout) {
  auto h = small_hierarchy(r, mixed);
  auto f = amr::add_field<T>(h, "u", layout);
  for (int l = 0; l < h.n_levels(); ++l) amr::initialize(h, l, f, wave<T>{});
  for (int l = h.n_levels() - 1; l >= 1; --l) {
    amr::average_down(h, l, f);
    // Sum of the covered coarse cells times ratio^3 against the sum of the fine valid cells.
    const double r3 = double(r * r * r);
    for (int k = 0; k < tack::components_v<T>; ++k) {
      double fine = 0, coarse = 0, scale = 0;
      for (std::size_t b = 0; b < h.boxes(l).size(); ++b) {
        const auto v = f.box_values(l, b).to_vector();
        const amr::box g = h.grown_box(l, b), in = h.boxes(l)[b];
        for (index_t z = in.lo[2]; z <= in.hi[2]; ++z) {
          for (index_t y = in.lo[1]; y <= in.hi[1]; ++y) {
            for (index_t x = in.lo[0]; x <= in.hi[0]; ++x) {
              const double s = amr::detail::component(
                  v[static_cast<std::size_t>(
                      ((z - g.lo[2]) * g.extent(1) + y - g.lo[1]) * g.extent(0) + x - g.lo[0])],
                  k);
              fine += s;
              scale += std::abs(s);
            }
          }
        }
      }
      for (std::size_t q = 0; q < h.boxes(l - 1).size(); ++q) {
        const auto v = f.box_values(l - 1, q).to_vector();
        const amr::box g = h.grown_box(l - 1, q), in = h.boxes(l - 1)[q];
        for (index_t z = in.lo[2]; z <= in.hi[2]; ++z) {
          for (index_t y = in.lo[1]; y <= in.hi[1]; ++y) {
            for (index_t x = in.lo[0]; x <= in.hi[0]; ++x) {
              bool covered = false;
              for (const auto& fb : h.boxes(l))
                covered = covered || fb.coarsen(r).contains(std::array<index_t, 3>{x, y, z});
              if (covered) {
                coarse += double(amr::detail::component(
                              v[static_cast<std::size_t>(
                                  ((z - g.lo[2]) * g.extent(1) + y - g.lo[1]) * g.extent(0) + x -
                                  g.lo[0])],
                              k)) *
                          r3;
              }
            }
          }
        }
      }
      const double eps = std::is_same_v<tack::scalar_t<T>, float> ? 1e-6 : 1e-14;
      EXPECT_NEAR(coarse, fine, eps * scale * r3) << "level " << l << " component " << k;
      EXPECT_GT(scale, 0);
    }
  }
}
}  // namespace

TEST(amr_average_down, conservative) {
  check_conservation<double>(2, tack::layout::aos);
  check_conservation<double>(4, tack::layout::aos);
  check_conservation<vec3d>(2, tack::layout::soa);
  check_conservation<vec3f>(4, tack::layout::aos);
}

TEST(amr_average_down, interpolation_then_average_gives_the_coarse_values_back) {
  // Conservative interpolation: a fine level filled from the coarse one averages back to it.
  for (int r : {2, 4}) {
    auto h = small_hierarchy(r, periodic, 2, 2);
    auto f = amr::add_field<double>(h, "u");
    amr::initialize(h, 0, f, wave<double>{});
    amr::fill_ghost_cells(h, 0, f);
    const auto before = f.level_buffer(0).to_vector();
    // A regrid to new boxes fills their cells by interpolation only (no old box covers them).
    const index_t n1 = 16 * r;
    h.regrid(1, {{{n1 / 2, n1 / 2, 0}, {n1 / 2 + 7, n1 / 2 + 7, 7}},
                 {{0, n1 - 8, n1 - 8}, {7, n1 - 1, n1 - 1}}});
    amr::average_down(h, 1, f);
    const auto after = f.level_buffer(0).to_vector();
    for (std::size_t i = 0; i < before.size(); ++i) ASSERT_NEAR(after[i], before[i], 1e-13) << i;
  }
}

TEST(amr_baseline, same_bits_as_the_views) {
  for (auto layout : {tack::layout::aos, tack::layout::soa}) {
    auto h = amr::synthetic_hierarchy({.scale = 0.004, .box_size = 4, .ghost = 2, .levels = 4});
    auto f = amr::add_field<vec3d>(h, "u", layout);
    for (int l = 0; l < h.n_levels(); ++l) amr::initialize(h, l, f, wave<vec3d>{});
    auto old = amr::baseline::separate(h, f);
    for (int l = 0; l < h.n_levels(); ++l) {
      amr::fill_ghost_cells(h, l, f);
      amr::baseline::fill_ghost_cells(h, l, old);
    }
    for (int l = h.n_levels() - 1; l >= 1; --l) {
      amr::average_down(h, l, f);
      amr::baseline::average_down(h, l, old);
    }
    for (int l = 0; l < h.n_levels(); ++l) {
      for (std::size_t b = 0; b < h.boxes(l).size(); ++b) {
        const auto a = f.box_values(l, b).to_vector();
        const auto c = old.levels[static_cast<std::size_t>(l)][b].to_vector();
        ASSERT_EQ(a.size(), c.size());
        ASSERT_EQ(std::memcmp(a.data(), c.data(), a.size() * sizeof(vec3d)), 0)
            << "level " << l << " box " << b;
      }
    }
    EXPECT_GT(h.timings().copies, 0);
    EXPECT_GT(h.timings().copy_seconds, 0);
  }
}

TEST(amr_regrid, old_views_keep_the_old_buffer) {
  auto h = small_hierarchy(2, periodic);
  auto f = amr::add_field<double>(h, "u");
  for (int l = 0; l < 3; ++l) amr::initialize(h, l, f, wave<double>{});
  amr::fill_ghost_cells(h, f);
  auto old_view = f.box_values(1, 2);  // level-1 box (8..15)^3
  auto old_buffer = f.level_buffer(1);
  const auto old_values = old_view.to_vector();
  // Keep box 2, drop the corner boxes, add a box next to the pair (still holding level 2).
  h.regrid(1, {{{8, 8, 8}, {15, 15, 15}}, {{16, 8, 8}, {23, 15, 15}}, {{8, 16, 8}, {15, 23, 15}}});
  EXPECT_EQ(h.boxes(1).size(), 3u);
  // The old view still reads the old buffer, alive and unchanged.
  EXPECT_EQ(old_view.to_vector(), old_values);
  EXPECT_NE(f.level_buffer(1).data(), old_buffer.data());
  old_view.fill(-7.0);
  EXPECT_EQ(tack::min(f.level_buffer(1)) == -7.0, false);
  // The kept box's valid cells kept their values; the new box matches the function roughly
  // (interpolated from level 0); ghost cells are filled.
  const auto kept = f.box_values(1, 0).to_vector();
  const amr::box g = h.grown_box(1, 0);
  for (index_t z = 8; z <= 15; ++z) {
    for (index_t y = 8; y <= 15; ++y) {
      for (index_t x = 8; x <= 15; ++x) {
        const auto i = static_cast<std::size_t>(
            ((z - g.lo[2]) * g.extent(1) + y - g.lo[1]) * g.extent(0) + x - g.lo[0]);
        ASSERT_EQ(kept[i], old_values[i]);
      }
    }
  }
  for (double v : f.box_values(1, 2).to_vector()) ASSERT_FALSE(std::isnan(v));
  // A regrid that would leave level 2 without its coarse cells is refused, and changes nothing.
  EXPECT_THROW_MSG(h.regrid(1, {{{0, 0, 0}, {7, 7, 7}}}), tack::value_error, "regrid",
                   "not nested in level 1");
  EXPECT_EQ(h.boxes(1).size(), 3u);
}

TEST(amr_validation, bad_hierarchies_name_the_boxes) {
  const amr::box dom{{0, 0, 0}, {15, 15, 15}};
  const std::vector<amr::box> l0{dom};
  EXPECT_THROW_MSG(
      amr::hierarchy(dom, {{1, l0}, {2, {{{0, 0, 0}, {7, 7, 7}}, {{4, 4, 4}, {11, 11, 11}}}}}),
      tack::value_error, "box 0 (0, 0, 0)-(7, 7, 7) of level 1", "box 1 (4, 4, 4)-(11, 11, 11)",
      "overlap");
  EXPECT_THROW_MSG(
      amr::hierarchy(dom,
                     {{1, l0}, {2, {{{8, 8, 8}, {15, 15, 15}}}}, {2, {{{0, 0, 0}, {7, 7, 7}}}}}),
      tack::value_error, "box 0 (0, 0, 0)-(7, 7, 7) of level 2", "not nested in level 1");
  EXPECT_THROW_MSG(amr::hierarchy(dom, {{1, l0}, {2, {{{8, 8, 8}, {9, 15, 15}}}}}, {.ghost = 3}),
                   tack::value_error,
                   "ghost width 3 is larger than box 0 (8, 8, 8)-(9, 15, 15) of level 1",
                   "2 cells along x");
  EXPECT_THROW_MSG(amr::hierarchy(dom, {{1, {{{0, 0, 0}, {15, 15, 7}}}}}), tack::value_error,
                   "level 0", "cover");
  EXPECT_THROW_MSG(amr::hierarchy(dom, {{1, l0}, {3, {{{0, 0, 0}, {5, 5, 5}}}}}), tack::value_error,
                   "ratio 3");
  EXPECT_THROW_MSG(amr::hierarchy(dom, {{1, l0}, {2, {{{1, 0, 0}, {8, 7, 7}}}}}), tack::value_error,
                   "box 0 (1, 0, 0)-(8, 7, 7) of level 1", "not aligned");
  EXPECT_THROW_MSG(amr::hierarchy(dom, {{1, l0}, {2, {{{30, 0, 0}, {33, 7, 7}}}}}),
                   tack::value_error, "(30, 0, 0)-(33, 7, 7)", "not inside the level's domain");
  EXPECT_THROW_MSG(amr::hierarchy(dom, {}), tack::value_error, "at least one level");
  // Nesting across a periodic boundary: a fine box at the domain's edge needs the coarse cells
  // on the other side on periodic axes, not on extrapolated ones.
  const std::vector<amr::level> edge{{1, {{{0, 0, 0}, {15, 15, 15}}}},
                                     {2, {{{0, 0, 0}, {15, 15, 15}}}},
                                     {2, {{{0, 0, 0}, {7, 7, 7}}}}};
  EXPECT_THROW_MSG(amr::hierarchy(dom, edge, {.ghost = 2}), tack::value_error, "of level 2",
                   "not nested in level 1");
  EXPECT_NO_THROW(amr::hierarchy(dom, edge, {.ghost = 2, .boundaries = walls}));
}

TEST(amr_synthetic, amr_wind_shape) {
  const auto h = amr::synthetic_hierarchy({.scale = 0.05, .box_size = 4});
  EXPECT_EQ(h.n_levels(), 5);
  index_t want = 0;
  for (int l = 1; l < 5; ++l) {
    const auto n = static_cast<index_t>(h.boxes(l).size());
    EXPECT_EQ(n,
              std::llround(double(amr::synthetic_full_counts[static_cast<std::size_t>(l)]) * 0.05))
        << l;
    want += n;
  }
  EXPECT_EQ(h.n_boxes(), want + static_cast<index_t>(h.boxes(0).size()));
  EXPECT_EQ(h.boxes(0).size(), 27u);  // round(8 * cbrt(0.05)) = 3 boxes per axis
  // Clustered: the finest level's boxes lie within a small part of the domain.
  amr::box hull = h.boxes(4)[0];
  for (const auto& b : h.boxes(4)) {
    for (std::size_t d = 0; d < 3; ++d) {
      hull.lo[d] = std::min(hull.lo[d], b.lo[d]);
      hull.hi[d] = std::max(hull.hi[d], b.hi[d]);
    }
  }
  EXPECT_LT(double(hull.size()), 0.2 * double(h.domain(4).size()));
  EXPECT_THROW_MSG(amr::synthetic_hierarchy({.scale = 0}), tack::value_error, "scale");
  EXPECT_THROW_MSG(amr::synthetic_hierarchy({.ratio = 3}), tack::value_error, "ratio");
}

TEST(amr_vtk, writes_vthb_and_pieces) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("tack_amr_vtk_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  auto h = small_hierarchy(2, periodic);
  auto f = amr::add_field<double>(h, "rho");
  auto u = amr::add_field<vec3f>(h, "u", tack::layout::soa);
  for (int l = 0; l < 3; ++l) {
    amr::initialize(h, l, f, wave<double>{});
    amr::initialize(h, l, u, wave<vec3f>{});
  }
  amr::write_vtk(h, (dir / "flow.vthb").string());
  std::ifstream in(dir / "flow.vthb");
  std::stringstream text;
  text << in.rdbuf();
  EXPECT_NE(text.str().find("type=\"vtkOverlappingAMR\""), std::string::npos);
  EXPECT_NE(text.str().find("amr_box=\"16 23 8 15 8 15\" file=\"flow/flow_1_3.vti\""),
            std::string::npos);
  // Each piece is the box's valid cells, read back by the dataset layer.
  const auto g = tack::dataset::read_vtk_as<tack::dataset::uniform_grid>(
      (dir / "flow" / "flow_2_1.vti").string());
  EXPECT_EQ(g.n_cells(), 512);
  const auto& rho = g.fields.at("rho").as<double>();
  const auto vals = rho.values().to_vector();
  const auto box = f.box_values(2, 1).to_vector();
  EXPECT_EQ(vals[0], box[static_cast<std::size_t>((2 * 12 + 2) * 12 + 2)]);
  EXPECT_THROW_MSG(amr::write_vtk(h, (dir / "flow.vti").string()), tack::value_error, ".vthb");
  EXPECT_THROW_MSG(amr::write_vtk(h, "/nonexistent-dir/x.vthb"), tack::error, "/nonexistent-dir/x");
  fs::remove_all(dir);
}
