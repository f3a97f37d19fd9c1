// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
// main() of the MPI tests: MPI is initialized around GoogleTest; rank 0 prints the usual report,
// the other ranks print only their failures (prefixed with their rank); the exit status is the
// worst over the ranks, so mpirun fails when any rank fails.
#pragma once

#include <tack/mpi/all.hpp>

#include <gtest/gtest.h>

#include <cstdio>

namespace tack_mpi_test {

class rank_failures : public ::testing::EmptyTestEventListener {
public:
  explicit rank_failures(int rank) : rank_(rank) {}
  void OnTestPartResult(const ::testing::TestPartResult& r) override {
    if (r.failed()) {
      std::fprintf(stderr, "[rank %d] %s:%d: failure\n%s\n", rank_,
                   r.file_name() ? r.file_name() : "?", r.line_number(), r.summary());
    }
  }

private:
  int rank_;
};

inline int run(int argc, char** argv) {
  tack::mpi::environment env(argc, argv);
  ::testing::InitGoogleTest(&argc, argv);
  int worst = 0;
  {
    auto world = tack::mpi::communicator::world();
    if (world.rank() != 0) {
      auto& listeners = ::testing::UnitTest::GetInstance()->listeners();
      delete listeners.Release(listeners.default_result_printer());
      listeners.Append(new rank_failures(world.rank()));
    }
    int rc = RUN_ALL_TESTS();
    tack::mpi::detail::allreduce(world, &rc, &worst, 1, tack::mpi::detail::scalar_kind::i32,
                                 tack::mpi::detail::reduce_op::max, "test main");
  }
  return worst;
}

}  // namespace tack_mpi_test

#define TACK_MPI_TEST_MAIN \
  int main(int argc, char** argv) { return tack_mpi_test::run(argc, argv); }
