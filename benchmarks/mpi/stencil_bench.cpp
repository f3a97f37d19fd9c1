// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
// Weak scaling of a 7-point stencil step with ghost exchange: each rank owns a block of n^3 cells
// of a grid split by MPI_Dims_create; a step exchanges the ghost layers (faces, edges, corners)
// and applies u_new = u + k * (sum of the six neighbors - 6 u). Run at 1, 2 and 4 ranks:
//   mpirun -np P build/<dir>/benchmarks/mpi/mpi_bench_stencil
// Also measures what the scaling model of docs/scaling.md needs: the exchange alone, the stencil
// alone, and a small-message round trip (latency).

#include "mpi/bench_main.hpp"

#include <tack/mpi/all.hpp>
#include <tack/tack.hpp>

namespace {

struct stencil7 {
  tack::view<const double, 3> u;
  tack::view<double, 3> out;
  tack::index_t g;
  double k;
  TACK_INLINE void operator()(tack::index_t i, tack::index_t j, tack::index_t l) const {
    const auto x = i + g, y = j + g, z = l + g;
    out(x, y, z) =
        u(x, y, z) + k * (u(x - 1, y, z) + u(x + 1, y, z) + u(x, y - 1, z) + u(x, y + 1, z) +
                          u(x, y, z - 1) + u(x, y, z + 1) - 6.0 * u(x, y, z));
  }
};

struct setup {
  tack::mpi::grid g;
  tack::mpi::grid_array<double> u, v;
  explicit setup(tack::index_t n) {
    auto w = tack::mpi::communicator::world();
    std::array<int, 3> dims{0, 0, 0};
    // The global grid grows with the ranks: n^3 cells per rank (weak scaling).
    tack::mpi::grid probe(w, {n * w.size(), n * w.size(), n * w.size()}, {.ghosts = 1});
    dims = probe.dims();
    g = tack::mpi::grid(w, {n * dims[0], n * dims[1], n * dims[2]},
                        {.ghosts = 1, .periodic = {true, true, true}});
    u = tack::mpi::grid_array<double>(g);
    v = tack::mpi::grid_array<double>(g);
    u.with_ghosts().fill(1.0);
    v.with_ghosts().fill(0.0);
  }
  void apply() {
    const auto l = g.local_extents();
    tack::parallel_for(tack::range{l[0], l[1], l[2]},
                       stencil7{u.with_ghosts().as_const().view(), v.with_ghosts().view(), 1, 0.1});
    std::swap(u, v);
  }
};

void step(benchmark::State& state) {
  setup s(state.range(0));
  auto w = tack::mpi::communicator::world();
  tack_mpi_bench::samples t;
  for (auto _ : state) {
    t.add(state, tack_mpi_bench::timed(w, [&] {
            s.u.exchange_ghosts({.agree = false});
            s.apply();
          }));
  }
  t.report(state, 1e3, "ms");
  const auto l = s.g.local_extents();
  state.counters["cells_per_rank"] = static_cast<double>(l[0] * l[1] * l[2]);
  state.counters["ranks"] = w.size();
  state.SetItemsProcessed(state.iterations() * l[0] * l[1] * l[2]);
}

void exchange_only(benchmark::State& state) {
  setup s(state.range(0));
  auto w = tack::mpi::communicator::world();
  tack_mpi_bench::samples t;
  for (auto _ : state)
    t.add(state, tack_mpi_bench::timed(w, [&] { s.u.exchange_ghosts({.agree = false}); }));
  t.report(state, 1e3, "ms");
  state.counters["ranks"] = w.size();
}

void stencil_only(benchmark::State& state) {
  setup s(state.range(0));
  auto w = tack::mpi::communicator::world();
  tack_mpi_bench::samples t;
  for (auto _ : state) t.add(state, tack_mpi_bench::timed(w, [&] { s.apply(); }));
  t.report(state, 1e3, "ms");
  state.counters["ranks"] = w.size();
}

// Half a round trip of `range(0)` bytes between ranks 0 and 1 (latency for 8 bytes, bandwidth for
// 4 MiB): what the model of docs/scaling.md takes as alpha and beta.
void pingpong(benchmark::State& state) {
  auto w = tack::mpi::communicator::world();
  std::vector<char> buf(static_cast<std::size_t>(state.range(0)));
  const int n = static_cast<int>(buf.size());
  tack_mpi_bench::samples ts;
  for (auto _ : state) {
    const double t = tack_mpi_bench::timed(w, [&] {
      for (int rep = 0; rep < 10; ++rep) {
        if (w.rank() == 0 && w.size() > 1) {
          MPI_Send(buf.data(), n, MPI_BYTE, 1, 3, MPI_COMM_WORLD);
          MPI_Recv(buf.data(), n, MPI_BYTE, 1, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else if (w.rank() == 1) {
          MPI_Recv(buf.data(), n, MPI_BYTE, 0, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
          MPI_Send(buf.data(), n, MPI_BYTE, 0, 3, MPI_COMM_WORLD);
        }
      }
    });
    ts.add(state, t / 20);  // one way
  }
  ts.report(state);
  state.SetBytesProcessed(state.iterations() * state.range(0));
}

}  // namespace

BENCHMARK(step)
    ->Name("stencil:step")
    ->Arg(64)
    ->UseManualTime()
    ->Iterations(50)
    ->Unit(benchmark::kMillisecond);
BENCHMARK(exchange_only)
    ->Name("stencil:exchange")
    ->Arg(64)
    ->UseManualTime()
    ->Iterations(50)
    ->Unit(benchmark::kMillisecond);
BENCHMARK(stencil_only)
    ->Name("stencil:compute")
    ->Arg(64)
    ->UseManualTime()
    ->Iterations(50)
    ->Unit(benchmark::kMillisecond);
BENCHMARK(pingpong)
    ->Name("link:pingpong")
    ->Arg(8)
    ->Arg(4 << 20)
    ->UseManualTime()
    ->Iterations(100)
    ->Unit(benchmark::kMicrosecond);

TACK_MPI_BENCH_MAIN
