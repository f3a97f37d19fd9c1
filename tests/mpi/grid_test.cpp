// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
// tack::mpi::grid and grid_array: blocks over MPI_Cart_create, and a ghost exchange that fills
// every face, edge and corner, checked cell by cell against the serial reference.

#include "common/tack_test.hpp"
#include "mpi/mpi_test_main.hpp"

#include <tack/mpi/all.hpp>
#include <tack/tack.hpp>

using tack::index_t;
using tack::mpi::communicator;

namespace {
double cell_value(index_t i, index_t j, index_t k) {
  return static_cast<double>(i * 10000 + j * 100 + k);
}

// Counts the ghost cells of each kind (0: face, 1: edge, 2: corner) that were checked.
void check_exchange(const tack::mpi::grid& g, std::array<int, 3>& checked) {
  tack::mpi::grid_array<double> u(g);
  auto b = u.with_ghosts();
  const index_t gh = g.ghosts();
  const auto l = g.local_extents(), off = g.local_offset(), ext = g.global_extents();
  const auto per = g.periodic();
  auto inside = [&](index_t x, int d) {
    return x >= gh && x < gh + l[static_cast<std::size_t>(d)];
  };
  for (index_t i = 0; i < b.extent(0); ++i)
    for (index_t j = 0; j < b.extent(1); ++j)
      for (index_t k = 0; k < b.extent(2); ++k) {
        const bool owned = inside(i, 0) && inside(j, 1) && inside(k, 2);
        b(i, j, k) = owned ? cell_value(off[0] + i - gh, off[1] + j - gh, off[2] + k - gh) : -1.0;
      }
  tack::mpi::exchange_ghosts(u);
  int bad = 0;
  for (index_t i = 0; i < b.extent(0); ++i)
    for (index_t j = 0; j < b.extent(1); ++j)
      for (index_t k = 0; k < b.extent(2); ++k) {
        std::array<index_t, 3> gl{off[0] + i - gh, off[1] + j - gh, off[2] + k - gh};
        bool outside = false;
        int ghost_dims = 0;
        for (std::size_t d = 0; d < 3; ++d) {
          if (!inside(std::array<index_t, 3>{i, j, k}[d], static_cast<int>(d))) ++ghost_dims;
          if (gl[d] < 0 || gl[d] >= ext[d]) {
            if (per[d])
              gl[d] = (gl[d] + ext[d]) % ext[d];
            else
              outside = true;
          }
        }
        const double want = outside ? -1.0 : cell_value(gl[0], gl[1], gl[2]);
        if (ghost_dims > 0 && !outside) ++checked[static_cast<std::size_t>(ghost_dims - 1)];
        if (b(i, j, k) != want && bad++ < 5) {
          ADD_FAILURE() << g.describe() << ": cell (" << i << ", " << j << ", " << k << ") holds "
                        << b(i, j, k) << ", expected " << want;
        }
      }
  EXPECT_EQ(bad, 0) << g.describe();
}
}  // namespace

TEST(Grid, BlocksCoverTheGrid) {
  auto w = communicator::world();
  tack::mpi::grid g(w, {9, 7, 5});
  const auto d = g.dims();
  EXPECT_EQ(d[0] * d[1] * d[2], w.size());
  // Every cell is owned once: the block volumes add up to the grid's.
  tack::mpi::distributed_array<std::int64_t> vol(w, {w.size()});
  const auto l = g.local_extents();
  vol.local().fill(l[0] * l[1] * l[2]);
  EXPECT_EQ(tack::mpi::sum(vol), 9 * 7 * 5);
  for (int dim = 0; dim < 3; ++dim) {
    const auto p = tack::mpi::partition::block(g.global_extents()[static_cast<std::size_t>(dim)],
                                               d[static_cast<std::size_t>(dim)]);
    EXPECT_EQ(g.local_offset()[static_cast<std::size_t>(dim)],
              p.first(g.coords()[static_cast<std::size_t>(dim)]));
    EXPECT_EQ(g.neighbor(dim, 0) < 0,
              g.coords()[static_cast<std::size_t>(dim)] == 0);  // not periodic
  }
}

TEST(Grid, ExchangeFillsFacesEdgesCorners) {
  auto w = communicator::world();
  std::array<int, 3> checked{0, 0, 0};
  for (index_t gh : {1, 2}) {
    for (int per = 0; per < 8; ++per) {
      const std::array<bool, 3> periodic{(per & 1) != 0, (per & 2) != 0, (per & 4) != 0};
      check_exchange(tack::mpi::grid(w, {6, 5, 4}, {.ghosts = gh, .periodic = periodic}), checked);
      // Every rank along one dimension, then another split.
      check_exchange(
          tack::mpi::grid(w, {2 * w.size() * gh, 3, 2},
                          {.ghosts = gh, .periodic = periodic, .dims = {w.size(), 1, 1}}),
          checked);
      check_exchange(tack::mpi::grid(w, {3, 2 * w.size() * gh, 5},
                                     {.ghosts = gh, .periodic = periodic, .dims = {1, 0, 1}}),
                     checked);
    }
  }
  // Faces, edges and corners were all reached.
  EXPECT_GT(checked[0], 0);
  EXPECT_GT(checked[1], 0);
  EXPECT_GT(checked[2], 0);
}

TEST(Grid, RefusalsAreCollective) {
  auto w = communicator::world();
  EXPECT_THROW_MSG(
      tack::mpi::grid(w, {4, 4, w.size() * 3 - 1}, {.ghosts = 3, .dims = {1, 1, w.size()}}),
      tack::value_error, "tack::mpi::grid", "thin", "ghost");
  EXPECT_THROW_MSG(tack::mpi::grid(w, {4, 0, 4}), tack::value_error, "tack::mpi::grid", "extents");
  EXPECT_THROW_MSG(tack::mpi::grid(w, {4, 4, 4}, {.dims = {w.size() + 1, 1, 1}}), tack::value_error,
                   "tack::mpi::grid", "divide");
  if (w.size() > 1) {
    EXPECT_THROW_MSG(tack::mpi::grid(w, {4, 4, w.rank() == 0 ? 5 : 4}), tack::value_error,
                     "tack::mpi::grid", "disagree", "(4, 4, 5)", "(4, 4, 4)");
  }
}

TACK_MPI_TEST_MAIN
