// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
// A program whose last rank dies (`exit`: std::_Exit(3); `abort`: std::abort()) while the others
// wait for it in a global sum: mpirun must end the job with an error (tests/mpi/CMakeLists.txt
// runs it under a time limit through expect_failure.sh).

#include <tack/mpi/all.hpp>

#include <cstdio>
#include <cstdlib>
#include <cstring>

int main(int argc, char** argv) {
  tack::mpi::environment env(argc, argv);
  auto world = tack::mpi::communicator::world();
  const bool use_abort = argc > 1 && std::strcmp(argv[1], "abort") == 0;
  tack::mpi::distributed_array<double> a(world, {1000});
  a.local().fill(1.0);
  world.barrier();
  if (world.rank() == world.size() - 1) {
    std::fprintf(stderr, "rank %d: dying on purpose\n", world.rank());
    if (use_abort) std::abort();
    std::_Exit(3);
  }
  // The survivors wait for the dead rank here.
  const double s = tack::mpi::sum(a);
  std::printf("rank %d: sum %g (should not be reached)\n", world.rank(), s);
  return 0;
}
