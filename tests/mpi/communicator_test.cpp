// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
// tack::mpi::communicator, environment, from_native, partition, and MPI errors as exceptions.

#include "common/tack_test.hpp"
#include "mpi/mpi_test_main.hpp"

#include <tack/mpi/all.hpp>

#include <mpi.h>

using tack::mpi::communicator;

TEST(Communicator, WorldMatchesMpi) {
  auto w = communicator::world();
  int r = -1, n = -1;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  EXPECT_EQ(w.rank(), r);
  EXPECT_EQ(w.size(), n);
  EXPECT_TRUE(tack::mpi::environment::initialized());
  EXPECT_EQ(tack::mpi::native(w), MPI_COMM_WORLD);
  EXPECT_NE(w.describe().find("rank " + std::to_string(r)), std::string::npos);
  w.barrier();
}

TEST(Communicator, DupAndSplit) {
  auto w = communicator::world();
  auto d = w.dup();
  EXPECT_EQ(d.size(), w.size());
  EXPECT_EQ(d.rank(), w.rank());
  EXPECT_FALSE(d == w);
  int cmp = 0;
  MPI_Comm_compare(tack::mpi::native(d), MPI_COMM_WORLD, &cmp);
  EXPECT_EQ(cmp, MPI_CONGRUENT);
  // Even and odd ranks, in reverse order.
  auto s = w.split(w.rank() % 2, -w.rank());
  const int members = (w.size() + (w.rank() % 2 == 0 ? 1 : 0)) / 2;
  EXPECT_EQ(s.size(), members);
  EXPECT_EQ(s.rank(), members - 1 - w.rank() / 2);
}

TEST(Communicator, AdoptsAnApplicationCommunicator) {
  MPI_Comm mine = MPI_COMM_NULL;
  MPI_Comm_dup(MPI_COMM_WORLD, &mine);
  {
    auto borrowed = tack::mpi::from_native(mine);
    EXPECT_EQ(tack::mpi::native(borrowed), mine);
    auto own = tack::mpi::from_native(mine, tack::mpi::adopt::duplicate);
    EXPECT_NE(tack::mpi::native(own), mine);
    EXPECT_EQ(own.size(), borrowed.size());
    tack::mpi::distributed_array<int> a(borrowed, {7});
    a.local().fill(2);
    EXPECT_EQ(tack::mpi::sum(a), 14);
  }
  // The borrowed communicator outlives tack's handles: tack did not free it.
  int n = 0;
  EXPECT_EQ(MPI_Comm_size(mine, &n), MPI_SUCCESS);
  MPI_Comm_free(&mine);
  EXPECT_THROW_MSG(tack::mpi::from_native(MPI_COMM_NULL), tack::value_error,
                   "tack::mpi::from_native", "MPI_COMM_NULL");
}

TEST(Communicator, EmptyHandleIsRefused) {
  communicator c;
  EXPECT_FALSE(c.valid());
  EXPECT_THROW_MSG(c.rank(), tack::value_error, "tack::mpi::communicator::rank", "empty");
  EXPECT_THROW_MSG((tack::mpi::distributed_array<double>(c, {4})), tack::value_error,
                   "tack::mpi::distributed_array", "empty");
}

TEST(Communicator, MpiErrorsThrowWithMpisMessage) {
  auto w = communicator::world();
  tack::mpi::detail::request_list rq;
  int x = 0;
  // A rank that does not exist: MPI_ERRORS_RETURN turns the error into an exception.
  try {
    rq.irecv(w, &x, sizeof(x), w.size() + 3, 0, "test");
    ADD_FAILURE() << "irecv from a missing rank did not throw";
  } catch (const tack::mpi::mpi_error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("MPI_Irecv"), std::string::npos) << what;
    EXPECT_NE(what.find("rank"), std::string::npos) << what;
    EXPECT_EQ(e.code(), MPI_ERR_RANK);
  }
  EXPECT_EQ(rq.size(), 0u);
}

TEST(Communicator, MessageTooLargeForMpiIsAValueError) {
  auto w = communicator::world();
  tack::mpi::detail::request_list rq;
  char c = 0;
  EXPECT_THROW_MSG(rq.isend(w, &c, std::size_t{1} << 32, 0, 0, "tack::mpi::test"),
                   tack::value_error, "tack::mpi::test", "4294967296 bytes", "2 GiB");
}

TEST(Partition, BlockAndCounts) {
  auto p = tack::mpi::partition::block(10, 4);
  EXPECT_EQ(p.offsets(), (std::vector<tack::index_t>{0, 3, 6, 8, 10}));
  EXPECT_EQ(p.owner(0), 0);
  EXPECT_EQ(p.owner(5), 1);
  EXPECT_EQ(p.owner(9), 3);
  auto q = tack::mpi::partition::from_counts({2, 0, 0, 3});
  EXPECT_EQ(q.owner(1), 0);
  EXPECT_EQ(q.owner(2), 3);  // empty ranks own nothing
  EXPECT_EQ(q.count(1), 0);
  EXPECT_THROW_MSG(q.owner(5), tack::index_error, "owner", "row 5", "5 rows");
  EXPECT_THROW_MSG(tack::mpi::partition::from_counts({1, -2}), tack::value_error, "from_counts",
                   "rank 1", "-2");
  EXPECT_THROW_MSG(tack::mpi::partition::block(-1, 2), tack::value_error, "block", "-1 rows");
  EXPECT_THROW_MSG(tack::mpi::partition::block(4, 0), tack::value_error, "block", "0 ranks");
  EXPECT_EQ(tack::mpi::partition::block(2, 4).offsets(),
            (std::vector<tack::index_t>{0, 1, 2, 2, 2}));
}

TACK_MPI_TEST_MAIN
