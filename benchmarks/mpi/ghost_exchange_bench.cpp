// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
// Ghost exchange between two ranks against a bare MPI_Sendrecv of the same bytes, in the same run.
// Run with two ranks: mpirun -np 2 build/<dir>/benchmarks/mpi/mpi_bench_ghost_exchange
//
// The array is distributed_array<double, 2> with rows of 512 doubles (4 KiB) and `KiB / 4` ghost
// rows, non-periodic: with two ranks each sends one message of the ghost rows to the other and
// receives one, which is what the Sendrecv reference does. Bytes/s count the bytes one rank sends
// per iteration.

#include "mpi/bench_main.hpp"

#include <algorithm>
#include <tack/mpi/all.hpp>
#include <vector>

namespace {

constexpr tack::index_t cols = 512;  // doubles per row: 4 KiB rows

tack::index_t ghost_rows(const benchmark::State& state) { return state.range(0) / 4; }

void ref_sendrecv(benchmark::State& state) {
  auto w = tack::mpi::communicator::world();
  const std::size_t bytes = static_cast<std::size_t>(ghost_rows(state) * cols) * sizeof(double);
  std::vector<double> out(bytes / sizeof(double), 1.0), in(bytes / sizeof(double));
  const int peer = w.size() > 1 ? 1 - w.rank() : 0;
  for (auto _ : state) {
    state.SetIterationTime(tack_mpi_bench::timed(w, [&] {
      if (w.rank() < 2) {
        MPI_Sendrecv(out.data(), static_cast<int>(bytes), MPI_BYTE, peer, 7, in.data(),
                     static_cast<int>(bytes), MPI_BYTE, peer, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      }
    }));
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * bytes));
}

template <bool Agree>
void exchange(benchmark::State& state) {
  auto w = tack::mpi::communicator::world();
  const auto g = ghost_rows(state);
  // Rows owned per rank: a few times the ghost rows, so that the messages are ghost-sized.
  tack::mpi::distributed_array<double, 2> a(w, {4 * g * w.size(), cols}, {.ghosts = g});
  a.local().fill(1.0);
  const std::size_t bytes = static_cast<std::size_t>(g * cols) * sizeof(double);
  for (auto _ : state) {
    state.SetIterationTime(tack_mpi_bench::timed(w, [&] { a.exchange_ghosts({.agree = Agree}); }));
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * bytes));
}

// Both in each iteration, alternating, on a machine whose load drifts: the counter `ratio` is the
// median Sendrecv time over the median exchange time (>= 1: the exchange is as fast).
void paired(benchmark::State& state) {
  auto w = tack::mpi::communicator::world();
  const auto g = ghost_rows(state);
  tack::mpi::distributed_array<double, 2> a(w, {4 * g * w.size(), cols}, {.ghosts = g});
  a.local().fill(1.0);
  const std::size_t bytes = static_cast<std::size_t>(g * cols) * sizeof(double);
  std::vector<double> out(bytes / sizeof(double), 1.0), in(bytes / sizeof(double));
  const int peer = w.size() > 1 ? 1 - w.rank() : 0;
  std::vector<double> ts, te;
  for (auto _ : state) {
    ts.push_back(tack_mpi_bench::timed(w, [&] {
      if (w.rank() < 2) {
        MPI_Sendrecv(out.data(), static_cast<int>(bytes), MPI_BYTE, peer, 7, in.data(),
                     static_cast<int>(bytes), MPI_BYTE, peer, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      }
    }));
    te.push_back(tack_mpi_bench::timed(w, [&] { a.exchange_ghosts({.agree = false}); }));
    state.SetIterationTime(te.back());
  }
  std::sort(ts.begin(), ts.end());
  std::sort(te.begin(), te.end());
  state.counters["sendrecv_us"] = ts[ts.size() / 2] * 1e6;
  state.counters["exchange_us"] = te[te.size() / 2] * 1e6;
  state.counters["ratio"] = ts[ts.size() / 2] / te[te.size() / 2];
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * bytes));
}

// Ghost widths from 8 KiB to 8 MiB per message (range(0) = KiB).
void sizes(benchmark::internal::Benchmark* b) {
  for (int kib : {8, 64, 512, 2048, 8192}) b->Arg(kib);
  b->UseManualTime()->Iterations(200)->Unit(benchmark::kMicrosecond);
}

}  // namespace

BENCHMARK(ref_sendrecv)->Name("exchange:ref_sendrecv")->Apply(sizes);
BENCHMARK(exchange<false>)->Name("exchange:exchange_ghosts")->Apply(sizes);
BENCHMARK(exchange<true>)->Name("exchange:exchange_ghosts_agree")->Apply(sizes);
BENCHMARK(paired)->Name("exchange:paired")->Apply(sizes);

TACK_MPI_BENCH_MAIN
