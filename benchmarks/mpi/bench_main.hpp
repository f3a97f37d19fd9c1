// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
// main() of the MPI benchmarks: every rank runs the same benchmarks with fixed iteration counts
// and manual timing (the slowest rank's time of each iteration, so that no rank's iteration count
// can diverge and leave a collective waiting); rank 0 reports.
#pragma once

#include <algorithm>
#include <benchmark/benchmark.h>
#include <mpi.h>
#include <string>
#include <tack/mpi/all.hpp>
#include <vector>

namespace tack_mpi_bench {

class null_reporter : public benchmark::BenchmarkReporter {
public:
  bool ReportContext(const Context&) override { return true; }
  void ReportRuns(const std::vector<Run>&) override {}
};

/// Runs `body` once between barriers and returns the slowest rank's seconds.
template <class F>
double timed(const tack::mpi::communicator& c, F&& body) {
  c.barrier();
  const double t0 = MPI_Wtime();
  body();
  double dt = MPI_Wtime() - t0, worst = 0;
  MPI_Allreduce(&dt, &worst, 1, MPI_DOUBLE, MPI_MAX, tack::mpi::native(c));
  return worst;
}

/// Per-iteration times: `add` sets the iteration's manual time; `report` adds the median and the
/// minimum as counters (a shared machine's load inflates the mean; the minimum is the least
/// disturbed iteration).
struct samples {
  std::vector<double> t;
  void add(benchmark::State& state, double seconds) {
    t.push_back(seconds);
    state.SetIterationTime(seconds);
  }
  void report(benchmark::State& state, double scale = 1e6, const char* unit = "us") {
    if (t.empty()) return;
    std::sort(t.begin(), t.end());
    state.counters[std::string("median_") + unit] = t[t.size() / 2] * scale;
    state.counters[std::string("min_") + unit] = t.front() * scale;
  }
};

inline int run(int argc, char** argv) {
  tack::mpi::environment env(argc, argv);
  benchmark::Initialize(&argc, argv);
  {
    auto world = tack::mpi::communicator::world();
    if (world.rank() == 0) {
      benchmark::RunSpecifiedBenchmarks();
    } else {
      null_reporter quiet;
      benchmark::RunSpecifiedBenchmarks(&quiet);
    }
  }
  benchmark::Shutdown();
  return 0;
}

}  // namespace tack_mpi_bench

#define TACK_MPI_BENCH_MAIN \
  int main(int argc, char** argv) { return tack_mpi_bench::run(argc, argv); }
