// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
// fill_ghost_cells and average_down of a distributed_hierarchy (every level, as AMR codes call
// them each step) against the serial tack::amr functions on the same hierarchy, in the same run.
// Run with 1 and 2 ranks:
//   OMP_NUM_THREADS=1 mpirun -np 1 build/<dir>/benchmarks/mpi/mpi_bench_amr_fill
//   OMP_NUM_THREADS=1 mpirun -np 2 build/<dir>/benchmarks/mpi/mpi_bench_amr_fill
// The hierarchy is the synthetic one (AMR-Wind's shape) at `scale` 0.05 with 8^3-cell boxes and
// two ghost layers, five levels. `serial` runs the serial functions on every rank (meaningful
// with one rank); `distributed` the distributed ones; counters: the slowest rank's median and
// minimum per step, (rank 0's) boxes, messages sent and KiB sent per step, and the time to
// build the distributed hierarchy (the serial plan of every box, split by owner).

#include "mpi/bench_main.hpp"

#include <tack/amr/all.hpp>
#include <tack/mpi/amr.hpp>

namespace {

struct wave {
  TACK_HOST_DEVICE double operator()(const tack::vec3d& x) const {
    return x[0] * x[0] - 0.5 * x[1] + 3.0 * x[2] * x[2] * x[2] + (x[0] > 0.41 ? 0.3 : 0.0);
  }
};

tack::amr::synthetic_options shape() { return {.scale = 0.05, .box_size = 8, .ghost = 2}; }

void serial(benchmark::State& state) {
  auto w = tack::mpi::communicator::world();
  auto h = tack::amr::synthetic_hierarchy(shape());
  auto f = tack::amr::add_field<double>(h, "u");
  for (int l = 0; l < h.n_levels(); ++l) tack::amr::initialize(h, l, f, wave{});
  tack_mpi_bench::samples s;
  for (auto _ : state) {
    s.add(state, tack_mpi_bench::timed(w, [&] {
            tack::amr::average_down(h, f);
            tack::amr::fill_ghost_cells(h, f);
          }));
  }
  s.report(state, 1e3, "ms");
  state.counters["boxes"] = static_cast<double>(h.n_boxes());
}

void distributed(benchmark::State& state) {
  auto w = tack::mpi::communicator::world();
  const auto h = tack::amr::synthetic_hierarchy(shape());
  const double t0 = MPI_Wtime();
  tack::mpi::distributed_hierarchy dh(w, h);
  const double setup = MPI_Wtime() - t0;
  auto f = tack::mpi::add_field<double>(dh, "u");
  for (int l = 0; l < dh.n_levels(); ++l) tack::mpi::initialize(dh, l, f, wave{});
  double bytes = 0, boxes = 0, messages = 0;
  for (int l = 0; l < dh.n_levels(); ++l) {
    const auto& p = dh.plan(l);
    bytes += static_cast<double>(p.fill.send_size + p.average.send_size) * sizeof(double);
    messages += static_cast<double>(p.fill.sends.size() + p.average.sends.size());
    boxes += static_cast<double>(dh.local_boxes(l).size());
  }
  tack_mpi_bench::samples s;
  for (auto _ : state) {
    s.add(state, tack_mpi_bench::timed(w, [&] {
            tack::mpi::average_down(dh, f, {.agree = false});
            tack::mpi::fill_ghost_cells(dh, f, {.agree = false});
          }));
  }
  s.report(state, 1e3, "ms");
  state.counters["boxes"] = boxes;
  state.counters["sent_KiB"] = bytes / 1024;
  state.counters["messages"] = messages;
  state.counters["setup_ms"] = setup * 1e3;
}

}  // namespace

BENCHMARK(serial)->UseManualTime()->Unit(benchmark::kMillisecond)->Iterations(30);
BENCHMARK(distributed)->UseManualTime()->Unit(benchmark::kMillisecond)->Iterations(30);

TACK_MPI_BENCH_MAIN
