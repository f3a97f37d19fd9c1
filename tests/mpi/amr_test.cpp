// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
// tack::mpi::distributed_hierarchy: every rank's boxes after fill_ghost_cells and average_down
// hold the same bits as the same boxes of the serial tack::amr hierarchy filled by the serial
// functions (periodic and walls, ratios 2 and 4, scalar and vector fields in both layouts,
// Morton, random and adversarial owners); a rank given another hierarchy or other owners makes
// every rank throw.

#include "common/tack_test.hpp"
#include "mpi/mpi_test_main.hpp"

#include <cstring>
#include <limits>
#include <random>
#include <tack/amr/all.hpp>
#include <tack/mpi/amr.hpp>
#include <tack/tack.hpp>

namespace amr = tack::amr;
using tack::index_t;
using tack::vec3d;
using tack::vec3f;
using tack::mpi::communicator;

namespace {

/// Values with kinks (so the interpolation's limiter acts) and no symmetry.
template <class T>
struct wave {
  TACK_HOST_DEVICE T operator()(const vec3d& x) const {
    const double f = x[0] * x[0] - 0.5 * x[1] + 3.0 * x[2] * x[2] * x[2] +
                     (x[0] > 0.41 ? 0.3 : 0.0) + x[0] * x[1];
    if constexpr (tack::is_scalar_v<T>) {
      return static_cast<T>(f);
    } else {
      using S = tack::scalar_t<T>;
      return T{static_cast<S>(f), static_cast<S>(2.0 * f - x[0]),
               static_cast<S>(x[1] * x[2] - (x[2] > 0.7 ? 1.0 : 0.0))};
    }
  }
};

/// Three levels over a 16^3 domain: level 0 in 8 boxes; level 1 a box in the low corner, one at
/// the opposite x end (its periodic neighbour) and two adjacent boxes in the middle; level 2 two
/// adjacent boxes over both middle boxes. `shift` moves one level-1 box (another hierarchy).
amr::hierarchy small_hierarchy(int r, std::array<amr::boundary, 3> bc, index_t ghost = 2,
                               index_t shift = 0) {
  std::vector<amr::box> l0;
  for (index_t z = 0; z < 2; ++z) {
    for (index_t y = 0; y < 2; ++y) {
      for (index_t x = 0; x < 2; ++x)
        l0.push_back({{8 * x, 8 * y, 8 * z}, {8 * x + 7, 8 * y + 7, 8 * z + 7}});
    }
  }
  const index_t c = r == 2 ? 8 : 16;
  const index_t n1 = 16 * r;
  std::vector<amr::box> l1{{{0, 0, 0}, {7, 7, 7}},
                           {{n1 - 8 - shift, 0, 0}, {n1 - 1 - shift, 7, 7}},
                           {{c, c, c}, {c + 7, c + 7, c + 7}},
                           {{c + 8, c, c}, {c + 15, c + 7, c + 7}}};
  const index_t a = r * c + 4;
  std::vector<amr::box> l2{{{a, a, a}, {a + 7, a + 7, a + 7}},
                           {{a + 8, a, a}, {a + 15, a + 7, a + 7}}};
  return amr::hierarchy(amr::box{{0, 0, 0}, {15, 15, 15}}, {{1, l0}, {r, l1}, {r, l2}},
                        {.ghost = ghost,
                         .boundaries = bc,
                         .origin = vec3d{0, 0, 0},
                         .spacing = vec3d{1.0 / 16, 1.0 / 16, 1.0 / 16}});
}

constexpr std::array<amr::boundary, 3> periodic{amr::boundary::periodic, amr::boundary::periodic,
                                                amr::boundary::periodic};
constexpr std::array<amr::boundary, 3> walls{amr::boundary::extrapolate, amr::boundary::extrapolate,
                                             amr::boundary::extrapolate};
constexpr std::array<amr::boundary, 3> mixed{amr::boundary::periodic, amr::boundary::extrapolate,
                                             amr::boundary::periodic};

/// Owners drawn from `seed`, the same on every rank.
tack::mpi::box_owners random_owners(const amr::hierarchy& h, int ranks, unsigned seed) {
  std::mt19937 rng(seed);
  tack::mpi::box_owners o;
  for (int l = 0; l < h.n_levels(); ++l) {
    auto& lv = o.emplace_back();
    for (std::size_t b = 0; b < h.boxes(l).size(); ++b)
      lv.push_back(static_cast<int>(rng() % static_cast<unsigned>(ranks)));
  }
  return o;
}

/// Level 0 on the last rank, every finer box on another rank than the boxes around it: every
/// copy and interpolation crosses ranks when there are several.
tack::mpi::box_owners scattered_owners(const amr::hierarchy& h, int ranks) {
  tack::mpi::box_owners o;
  for (int l = 0; l < h.n_levels(); ++l) {
    auto& lv = o.emplace_back();
    for (std::size_t b = 0; b < h.boxes(l).size(); ++b) {
      lv.push_back(l == 0 ? ranks - 1
                          : static_cast<int>((b + static_cast<std::size_t>(l)) %
                                             static_cast<std::size_t>(ranks)));
    }
  }
  return o;
}

template <class T>
T nan_value() {
  T v{};
  for (int k = 0; k < tack::components_v<T>; ++k) {
    amr::detail::component(v, k) = std::numeric_limits<tack::scalar_t<T>>::quiet_NaN();
  }
  return v;
}

/// Compares every box this rank owns with the serial hierarchy's, bit for bit; returns the
/// number of values compared.
template <class T>
index_t compare(const tack::mpi::distributed_hierarchy& dh,
                const tack::mpi::distributed_field<T>& g, const amr::hierarchy& h,
                const amr::field<T>& f, const std::string& when) {
  index_t n = 0;
  for (int l = 0; l < h.n_levels(); ++l) {
    for (std::size_t b : dh.local_boxes(l)) {
      const auto want = f.box_values(l, b).to_vector();
      const auto got = g.box_values(l, b).to_vector();
      EXPECT_EQ(got.size(), want.size());
      if (got.size() != want.size()) continue;
      for (std::size_t i = 0; i < got.size(); ++i) {
        if (std::memcmp(&got[i], &want[i], sizeof(T)) != 0) {
          ADD_FAILURE() << when << ": level " << l << " box " << b << " element " << i
                        << " differs from the serial "
                        << "hierarchy's (rank " << dh.comm().rank() << " of " << dh.comm().size()
                        << ")";
          return n;
        }
        ++n;
      }
    }
  }
  return n;
}

/// Messages this rank receives, over all levels and both operations, summed over the ranks.
index_t messages(const tack::mpi::distributed_hierarchy& dh) {
  std::int64_t mine = 0, all = 0;
  for (int l = 0; l < dh.n_levels(); ++l) {
    mine +=
        static_cast<std::int64_t>(dh.plan(l).fill.recvs.size() + dh.plan(l).average.recvs.size());
  }
  tack::mpi::detail::allreduce(dh.comm(), &mine, &all, 1, tack::mpi::detail::scalar_kind::i64,
                               tack::mpi::detail::reduce_op::sum, "test");
  return all;
}

/// The serial and the distributed hierarchy, initialized alike (ghost cells NaN), then: ghost
/// cells filled, averaged down, ghost cells filled again; every owned box compared after each.
template <class T>
void check_same_bits(const amr::hierarchy& shape, std::optional<tack::mpi::box_owners> owners,
                     tack::layout layout = tack::layout::aos,
                     communicator w = communicator::world()) {
  // The serial reference: a hierarchy of its own with the same boxes.
  std::vector<amr::level> levels;
  for (int l = 0; l < shape.n_levels(); ++l) levels.push_back({shape.ratio(l), shape.boxes(l)});
  amr::hierarchy h(shape.domain(0), levels,
                   {.ghost = shape.ghost(),
                    .boundaries = shape.boundaries(),
                    .origin = shape.origin(),
                    .spacing = shape.spacing(0)});
  tack::mpi::distributed_hierarchy dh(w, shape, owners);
  auto f = amr::add_field<T>(h, "u", layout);
  auto g = tack::mpi::add_field<T>(dh, "u", layout);
  for (int l = 0; l < h.n_levels(); ++l) {
    f.level_buffer(l).fill(nan_value<T>());
    g.level_buffer(l).fill(nan_value<T>());
    amr::initialize(h, l, f, wave<T>{});
    tack::mpi::initialize(dh, l, g, wave<T>{});
  }
  index_t cells = compare(dh, g, h, f, "initialize");
  amr::fill_ghost_cells(h, f);
  tack::mpi::fill_ghost_cells(dh, g);
  cells += compare(dh, g, h, f, "fill_ghost_cells");
  amr::average_down(h, f);
  tack::mpi::average_down(dh, g);
  amr::fill_ghost_cells(h, f);
  tack::mpi::fill_ghost_cells(dh, g, {.agree = false});
  cells += compare(dh, g, h, f, "average_down then fill_ghost_cells");
  // Every box was compared on its rank.
  std::int64_t mine = cells, all = 0;
  tack::mpi::detail::allreduce(w, &mine, &all, 1, tack::mpi::detail::scalar_kind::i64,
                               tack::mpi::detail::reduce_op::sum, "test");
  index_t total = 0;
  for (int l = 0; l < h.n_levels(); ++l) total += h.level_size(l);
  EXPECT_EQ(all, 3 * total) << dh.describe();
  if (w.size() > 1) {
    EXPECT_GT(messages(dh), 0) << "the test crossed no rank";
  }
}

}  // namespace

TEST(DistributedHierarchy, PeriodicRatio2ScalarMortonOwners) {
  check_same_bits<double>(small_hierarchy(2, periodic), std::nullopt);
}

TEST(DistributedHierarchy, WallsRatio4VectorSoaRandomOwners) {
  const auto h = small_hierarchy(4, walls);
  check_same_bits<vec3d>(h, random_owners(h, communicator::world().size(), 7), tack::layout::soa);
}

TEST(DistributedHierarchy, MixedRatio2FloatVectorScatteredOwners) {
  const auto h = small_hierarchy(2, mixed, 1);
  check_same_bits<vec3f>(h, scattered_owners(h, communicator::world().size()));
  check_same_bits<float>(h, random_owners(h, communicator::world().size(), 3));
}

TEST(DistributedHierarchy, SyntheticHierarchy) {
  const auto h = amr::synthetic_hierarchy({.scale = 0.004, .box_size = 4, .ghost = 2, .levels = 4});
  check_same_bits<double>(h, std::nullopt);
  const auto h4 = amr::synthetic_hierarchy(
      {.scale = 0.002, .box_size = 4, .ghost = 1, .ratio = 4, .levels = 3});
  check_same_bits<vec3d>(h4, random_owners(h4, communicator::world().size(), 11),
                         tack::layout::soa);
}

TEST(DistributedHierarchy, BoxesAreRowViewsOfTheRanksLevelBuffer) {
  auto w = communicator::world();
  const auto h = small_hierarchy(2, periodic);
  tack::mpi::distributed_hierarchy dh(w, h);
  auto f = tack::mpi::add_field<double>(dh, "u");
  index_t mine = 0;
  for (int l = 0; l < dh.n_levels(); ++l) {
    const auto buf = f.level_buffer(l);
    index_t offset = 0;
    for (std::size_t b : dh.local_boxes(l)) {
      EXPECT_EQ(dh.owner(l, b), w.rank());
      auto v = f.box_values(l, b);
      const amr::box g = h.grown_box(l, b);
      EXPECT_EQ(v.extent(0), g.extent(2));
      EXPECT_EQ(v.extent(2), g.extent(0));
      EXPECT_EQ(v.data(), buf.data() + offset) << "box " << b << " of level " << l;
      v(1, 2, 3) = 42.0;  // written through the view, seen in the level buffer
      EXPECT_EQ(buf.to_vector()[static_cast<std::size_t>(offset +
                                                         (1 * g.extent(1) + 2) * g.extent(0) + 3)],
                42.0);
      offset += g.size();
      mine += 1;
    }
    EXPECT_EQ(offset, dh.local_level_size(l));
    EXPECT_EQ(buf.size(), offset);
  }
  std::int64_t m = mine, all = 0;
  tack::mpi::detail::allreduce(w, &m, &all, 1, tack::mpi::detail::scalar_kind::i64,
                               tack::mpi::detail::reduce_op::sum, "test");
  EXPECT_EQ(all, h.n_boxes());  // every box has exactly one owner
}

TEST(DistributedHierarchy, OnASplitCommunicator) {
  // Two halves of the ranks, each with its own hierarchy: the communicator given is the one used.
  auto w = communicator::world();
  auto half = w.split(w.rank() % 2, w.rank());
  const auto h = small_hierarchy(w.rank() % 2 == 0 ? 2 : 4, w.rank() % 2 == 0 ? periodic : walls);
  check_same_bits<double>(h, std::nullopt, tack::layout::aos, half);
}

TEST(DistributedHierarchy, MortonOwnersBalanceCells) {
  const auto h = amr::synthetic_hierarchy({.scale = 0.01, .box_size = 4, .levels = 3});
  for (int ranks : {1, 3, 4}) {
    const auto o = tack::mpi::morton_owners(h, ranks);
    ASSERT_EQ(o.size(), 3u);
    for (int l = 0; l < h.n_levels(); ++l) {
      std::vector<index_t> cells(static_cast<std::size_t>(ranks), 0);
      index_t total = 0;
      for (std::size_t b = 0; b < h.boxes(l).size(); ++b) {
        cells[static_cast<std::size_t>(o[static_cast<std::size_t>(l)][b])] += h.boxes(l)[b].size();
        total += h.boxes(l)[b].size();
      }
      const index_t box_cells = h.boxes(l)[0].size();  // every box has the same size here
      for (index_t c : cells)
        EXPECT_LE(std::abs(c * ranks - total), ranks * box_cells) << "level " << l;
    }
  }
  EXPECT_THROW_MSG(tack::mpi::morton_owners(h, 0), tack::value_error, "morton_owners", "0 ranks");
}

TEST(DistributedHierarchy, AnotherHierarchyOnOneRankThrowsOnEveryRank) {
  auto w = communicator::world();
  if (w.size() == 1) GTEST_SKIP() << "needs two ranks";
  // Rank 1 moves one level-1 box: every rank throws, naming each rank's hierarchy.
  const auto h = small_hierarchy(2, periodic, 2, w.rank() == 1 ? 2 : 0);
  EXPECT_THROW_MSG(tack::mpi::distributed_hierarchy(w, h), tack::value_error,
                   "tack::mpi::distributed_hierarchy", "disagree",
                   "rank 1 passed hierarchy over domain");
  // Other owners on one rank.
  const auto same = small_hierarchy(2, periodic);
  EXPECT_THROW_MSG(tack::mpi::distributed_hierarchy(
                       w, same, random_owners(same, w.size(), w.rank() == 0 ? 1 : 2)),
                   tack::value_error, "disagree", "owners given");
  // Owners on some ranks only.
  std::optional<tack::mpi::box_owners> some;
  if (w.rank() == 0) some = random_owners(same, w.size(), 1);
  EXPECT_THROW_MSG(tack::mpi::distributed_hierarchy(w, same, some), tack::value_error, "disagree",
                   "Morton");
  // The ranks still work together afterwards.
  tack::mpi::distributed_hierarchy dh(w, same);
  auto f = tack::mpi::add_field<double>(dh, "u");
  tack::mpi::fill_ghost_cells(dh, f);
}

TEST(DistributedHierarchy, FieldsOfAnotherLevelOrTypeThrowOnEveryRank) {
  auto w = communicator::world();
  const auto h = small_hierarchy(2, periodic);
  tack::mpi::distributed_hierarchy dh(w, h);
  auto f = tack::mpi::add_field<double>(dh, "u");
  auto g = tack::mpi::add_field<float>(dh, "u");
  if (w.size() > 1) {
    // Rank 0 fills level 1, the others level 2: the agreement catches it.
    EXPECT_THROW_MSG(tack::mpi::fill_ghost_cells(dh, w.rank() == 0 ? 1 : 2, f), tack::value_error,
                     "fill_ghost_cells", "disagree");
    // Another element type on one rank.
    if (w.rank() == 0) {
      EXPECT_THROW_MSG(tack::mpi::average_down(dh, 1, f), tack::value_error, "average_down",
                       "disagree");
    } else {
      EXPECT_THROW_MSG(tack::mpi::average_down(dh, 1, g), tack::value_error, "average_down",
                       "disagree");
    }
  }
  tack::mpi::fill_ghost_cells(dh, f);
  tack::mpi::average_down(dh, g);
}

TEST(DistributedHierarchy, Refusals) {
  auto w = communicator::world();
  const auto h = small_hierarchy(2, periodic);
  // Owners that do not fit: every rank passes the same, every rank refuses.
  auto o = random_owners(h, w.size(), 5);
  o[1][2] = w.size();
  EXPECT_THROW_MSG(tack::mpi::distributed_hierarchy(w, h, o), tack::value_error, "box 2",
                   "of level 1 is given to rank " + std::to_string(w.size()));
  o.pop_back();
  EXPECT_THROW_MSG(tack::mpi::distributed_hierarchy(w, h, o), tack::value_error,
                   "owners list has 2 levels");
  // A bad hierarchy is refused as tack::amr refuses it.
  EXPECT_THROW_MSG(tack::mpi::distributed_hierarchy(
                       w, amr::box{{0, 0, 0}, {15, 15, 15}},
                       {{1, {amr::box{{0, 0, 0}, {15, 15, 15}}}},
                        {2, {amr::box{{0, 0, 0}, {9, 9, 9}}, amr::box{{8, 8, 8}, {15, 15, 15}}}}}),
                   tack::value_error, "overlap");
  tack::mpi::distributed_hierarchy dh(w, h, scattered_owners(h, w.size()));
  auto f = tack::mpi::add_field<double>(dh, "u");
  EXPECT_THROW_MSG(f.box_values(1, 99), tack::index_error, "box 99 of level 1", "does not exist");
  EXPECT_THROW_MSG(f.box_values(5, 0), tack::index_error, "level 5");
  if (w.size() > 1) {
    // Level 0 lives on the last rank.
    if (w.rank() != w.size() - 1) {
      EXPECT_THROW_MSG(f.box_values(0, 0), tack::index_error, "belongs to another rank");
    }
  }
  EXPECT_EQ(dh.owner(0, 3), w.size() - 1);
  EXPECT_THROW_MSG(dh.owner(0, 8), tack::index_error, "box 8 of level 0");
  EXPECT_THROW_MSG(tack::mpi::add_field<double>(dh, "s", tack::layout::soa), tack::value_error,
                   "cannot be SoA");
  tack::mpi::distributed_hierarchy other(w, h);
  auto g = tack::mpi::add_field<double>(other, "u");
  EXPECT_THROW_MSG(tack::mpi::fill_ghost_cells(dh, 0, g), tack::value_error,
                   "belongs to another hierarchy");
  EXPECT_THROW_MSG(tack::mpi::average_down(dh, 0, f), tack::index_error,
                   "level 0 is not one of levels 1 to 2");
}

TACK_MPI_TEST_MAIN
