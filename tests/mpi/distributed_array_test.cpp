// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
// distributed_array: pieces and row views, ghost exchange against a serial reference (every
// partition, ghost width and periodicity), collective agreement, gather, scatter, redistribute.

#include "common/tack_test.hpp"
#include "mpi/common.hpp"
#include "mpi/mpi_test_main.hpp"

#include <tack/mpi/all.hpp>
#include <tack/tack.hpp>

using tack::index_t;
using tack::mpi::communicator;
using tack::mpi::distributed_array;
using tack_mpi_test::value_at;

namespace {

// Fills the owned rows of `a` with value_at(global scalar index) and the ghost rows with -1e300.
template <class T, int R>
void fill_owned(const distributed_array<T, R>& a) {
  using S = tack::scalar_t<T>;
  auto piece = a.with_ghosts();
  const index_t per_row =
      piece.extent(0) ? static_cast<index_t>(piece.size() / piece.extent(0)) * tack::components_v<T>
                      : 0;
  S* p = reinterpret_cast<S*>(piece.data());
  for (index_t i = 0; i < piece.extent(0); ++i) {
    const bool owned = i >= a.ghosts() && i < a.ghosts() + a.local_rows();
    const index_t global = a.first_row() - a.ghosts() + i;
    for (index_t c = 0; c < per_row; ++c) {
      p[i * per_row + c] =
          owned ? static_cast<S>(value_at(global * per_row + c)) : static_cast<S>(-1e30);
    }
  }
}

// Checks every row of the piece against the serial reference: owned and ghost rows hold the
// value of the global row they stand for (wrapped if periodic); ghost rows beyond the global ends
// of a non-periodic array keep -1e30.
template <class T, int R>
void check_piece(const distributed_array<T, R>& a, const std::string& what) {
  using S = tack::scalar_t<T>;
  auto piece = a.with_ghosts();
  const index_t rows = a.global_shape()[0];
  const index_t per_row =
      piece.extent(0) ? static_cast<index_t>(piece.size() / piece.extent(0)) * tack::components_v<T>
                      : 0;
  const S* p = reinterpret_cast<const S*>(piece.data());
  int bad = 0;
  for (index_t i = 0; i < piece.extent(0); ++i) {
    index_t g = a.first_row() - a.ghosts() + i;
    bool outside = false;
    if (rows == 0) {
      outside = true;
    } else if (a.periodic()) {
      g = ((g % rows) + rows) % rows;
    } else {
      outside = g < 0 || g >= rows;
    }
    for (index_t c = 0; c < per_row; ++c) {
      const S want = outside ? static_cast<S>(-1e30) : static_cast<S>(value_at(g * per_row + c));
      if (p[i * per_row + c] != want && bad++ < 5) {
        ADD_FAILURE() << what << ": " << a.describe() << " piece row " << i << " (global " << g
                      << ") component " << c << ": " << p[i * per_row + c] << " != " << want;
      }
    }
  }
  EXPECT_EQ(bad, 0) << what;
}

}  // namespace

TEST(DistributedArray, PiecesAndRowViews) {
  auto w = communicator::world();
  distributed_array<double, 2> a(w, {10, 3}, {.ghosts = 2});
  const auto p = tack::mpi::partition::block(10, w.size());
  EXPECT_EQ(a.rows(), p);
  EXPECT_EQ(a.first_row(), p.first(w.rank()));
  EXPECT_EQ(a.local_rows(), p.count(w.rank()));
  EXPECT_EQ(a.with_ghosts().extent(0), p.count(w.rank()) + 4);
  EXPECT_EQ(a.with_ghosts().extent(1), 3);
  auto l = a.local();
  EXPECT_EQ(l.extent(0), a.local_rows());
  // local() is a row view of the piece: the same memory, rows [ghosts, ghosts + local_rows).
  if (a.local_rows() > 0) {
    EXPECT_TRUE(l.is_view());
    EXPECT_EQ(l.data(), a.with_ghosts().data() + 2 * 3);
    l.fill(5.0);
    EXPECT_EQ(a.with_ghosts()(2, 1), 5.0);
    EXPECT_EQ(a.with_ghosts()(0, 1), 0.0);  // ghosts start at zero
  }
  EXPECT_NE(a.describe().find("global shape (10, 3)"), std::string::npos) << a.describe();
}

TEST(DistributedArray, GhostExchangeMatchesSerialReference) {
  auto w = communicator::world();
  const int n = w.size();
  for (index_t rows : {0, 1, 3, 7, 16, 33}) {
    for (index_t ghosts : {0, 1, 2, 3}) {
      for (bool periodic : {false, true}) {
        for (unsigned seed : {0u, 1u, 2u}) {
          auto part = seed == 0 ? tack::mpi::partition::block(rows, n)
                                : tack_mpi_test::random_partition(rows, n, seed);
          const std::string what = "rows " + std::to_string(rows) + " ghosts " +
                                   std::to_string(ghosts) + (periodic ? " periodic " : " ") +
                                   part.describe();
          distributed_array<double> a1(w, {rows},
                                       {.ghosts = ghosts, .periodic = periodic, .rows = part});
          fill_owned(a1);
          tack::mpi::exchange_ghosts(a1);
          check_piece(a1, what);
          distributed_array<tack::vec3f, 2> a2(
              w, {rows, 2}, {.ghosts = ghosts, .periodic = periodic, .rows = part});
          fill_owned(a2);
          a2.exchange_ghosts({.agree = false});
          check_piece(a2, what + " vec3f");
        }
      }
    }
  }
}

TEST(DistributedArray, MismatchedShapeThrowsOnEveryRank) {
  auto w = communicator::world();
  if (w.size() == 1) GTEST_SKIP() << "needs two ranks to disagree";
  // Rank 0 passes 11 rows, the others 10: every rank throws, none waits.
  const index_t rows = w.rank() == 0 ? 11 : 10;
  EXPECT_THROW_MSG((distributed_array<double, 2>(w, {rows, 3})), tack::value_error,
                   "tack::mpi::distributed_array", "disagree", "rank 0 passed",
                   "global shape (11, 3)", "global shape (10, 3)");
  // A different ghost width, then a different element type through the same check.
  EXPECT_THROW_MSG((distributed_array<double>(w, {8}, {.ghosts = w.rank() == 1 ? 2 : 1})),
                   tack::value_error, "disagree", "2 ghost rows", "1 ghost rows");
  // The same array everywhere but a different one passed to exchange_ghosts on rank 1.
  distributed_array<double> a(w, {12}, {.ghosts = 1});
  distributed_array<double> b(w, {13}, {.ghosts = 1});
  EXPECT_THROW_MSG(tack::mpi::exchange_ghosts(w.rank() == 1 ? b : a), tack::value_error,
                   "tack::mpi::exchange_ghosts", "disagree", "(12)", "(13)");
  EXPECT_THROW_MSG(tack::mpi::sum(w.rank() == 1 ? b : a), tack::value_error, "tack::mpi::sum",
                   "disagree");
  // After the errors, the communicator still works.
  tack::mpi::exchange_ghosts(a);
  EXPECT_EQ(tack::mpi::sum(a), 0.0);
}

TEST(DistributedArray, InvalidArgumentsAreRefusedTogether) {
  auto w = communicator::world();
  EXPECT_THROW_MSG((distributed_array<float>(w, {-3})), tack::value_error, "extent -3");
  EXPECT_THROW_MSG((distributed_array<float>(w, {4}, {.ghosts = -1})), tack::value_error,
                   "ghosts -1");
  EXPECT_THROW_MSG(
      (distributed_array<float>(w, {4}, {.rows = tack::mpi::partition::block(5, w.size())})),
      tack::value_error, "does not fit 4 rows");
  EXPECT_THROW_MSG(
      (distributed_array<float>(w, {4}, {.rows = tack::mpi::partition::block(4, w.size() + 1)})),
      tack::value_error, "does not fit");
  distributed_array<float> empty;
  EXPECT_THROW_MSG(empty.local(), tack::value_error, "tack::mpi::distributed_array::local",
                   "empty");
}

TEST(DistributedArray, GatherScatterRedistribute) {
  auto w = communicator::world();
  const int n = w.size();
  for (index_t rows : {0, 5, 29}) {
    // The global array, known on every rank for the check; scattered from the last rank.
    std::vector<double> values(static_cast<std::size_t>(rows * 4));
    for (std::size_t i = 0; i < values.size(); ++i)
      values[i] = value_at(static_cast<std::int64_t>(i));
    auto global = tack::array_from(values).reshape(tack::shape<2>(rows, 4));
    const int root = n - 1;
    auto a = tack::mpi::scatter(w, w.rank() == root ? global : tack::zeros<double>({0, 4}), root,
                                {.ghosts = 1, .rows = tack_mpi_test::random_partition(rows, n, 7)});
    EXPECT_EQ(a.global_shape(), (std::array<index_t, 2>{rows, 4}));
    EXPECT_TRUE(
        tack::array_equal(a.local(), global.rows(a.first_row(), a.first_row() + a.local_rows())));
    auto whole = tack::mpi::gather(a, 0);
    if (w.rank() == 0) {
      EXPECT_TRUE(tack::array_equal(whole, global));
    } else {
      EXPECT_EQ(whole.extent(0), 0);
    }
    // To a block partition and to another random one: the owned rows follow.
    for (unsigned seed : {0u, 11u}) {
      auto to = seed ? tack_mpi_test::random_partition(rows, n, seed)
                     : tack::mpi::partition::block(rows, n);
      auto b = tack::mpi::redistribute(a, to);
      EXPECT_EQ(b.rows(), to);
      EXPECT_EQ(b.ghosts(), 1);
      EXPECT_TRUE(
          tack::array_equal(b.local(), global.rows(b.first_row(), b.first_row() + b.local_rows())));
    }
  }
  distributed_array<double> a(w, {4});
  EXPECT_THROW_MSG(tack::mpi::gather(a, n), tack::value_error, "tack::mpi::gather", "root");
  if (n > 1) {
    EXPECT_THROW_MSG(tack::mpi::gather(a, w.rank()), tack::value_error, "tack::mpi::gather",
                     "disagree");
  }
}

TACK_MPI_TEST_MAIN
