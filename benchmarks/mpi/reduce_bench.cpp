// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
// Global sums of 64^3 doubles per rank: a grid_array's exact sum (fixed-point accumulation,
// rounded once) against a distributed_array's tree sum and a local tack::sum, in the same run.
//   OMP_NUM_THREADS=1 mpirun -np 1 build/<dir>/benchmarks/mpi/mpi_bench_reduce
// Counters: the slowest rank's median and minimum per sum, and values per nanosecond per rank.

#include "mpi/bench_main.hpp"

#include <tack/mpi/all.hpp>
#include <tack/tack.hpp>

namespace {

constexpr tack::index_t n = 64;

template <class F>
void run(benchmark::State& state, F&& sum) {
  auto w = tack::mpi::communicator::world();
  tack_mpi_bench::samples s;
  double sink = 0;
  for (auto _ : state) {
    s.add(state, tack_mpi_bench::timed(w, [&] { sink += sum(); }));
  }
  benchmark::DoNotOptimize(sink);
  s.report(state, 1e6, "us");
  std::sort(s.t.begin(), s.t.end());
  state.counters["values_per_ns"] = static_cast<double>(n * n * n) / (s.t[s.t.size() / 2] * 1e9);
}

void grid_exact(benchmark::State& state) {
  auto w = tack::mpi::communicator::world();
  tack::mpi::grid g(w, {n * w.size(), n, n}, {.ghosts = 1});
  tack::mpi::grid_array<double> u(g);
  u.with_ghosts().fill(0.1);
  run(state, [&] { return tack::mpi::sum(u); });
}

void distributed_tree(benchmark::State& state) {
  auto w = tack::mpi::communicator::world();
  tack::mpi::distributed_array<double, 3> a(w, {n * w.size(), n, n});
  a.local().fill(0.1);
  run(state, [&] { return tack::mpi::sum(a); });
}

void local_sum(benchmark::State& state) {
  auto a = tack::full<double, 3>({n, n, n}, 0.1);
  run(state, [&] { return tack::sum(a); });
}

}  // namespace

BENCHMARK(grid_exact)->UseManualTime()->Unit(benchmark::kMicrosecond)->Iterations(50);
BENCHMARK(distributed_tree)->UseManualTime()->Unit(benchmark::kMicrosecond)->Iterations(50);
BENCHMARK(local_sum)->UseManualTime()->Unit(benchmark::kMicrosecond)->Iterations(50);

TACK_MPI_BENCH_MAIN
