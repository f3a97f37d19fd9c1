// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
// `tack::sum` of 2^28 floats in device memory (the deterministic two-pass block reduction of the
// CUDA backend, result on the host) against `cub::DeviceReduce::Sum` with its temporary storage
// allocated once and the result copied to the host, in the same run. Target: >= 0.9x CUB.
#include "gpu_bench.hpp"

#include <tack/algorithms/reduce.hpp>
#include <tack/array/factories.hpp>

#include <cub/device/device_reduce.cuh>

namespace {
using tack::index_t;
using tack::gpu_bench::event_timer;

constexpr index_t n = index_t{1} << 28;

void tack_sum(benchmark::State& state) {
  if (!tack::gpu_bench::have_gpu(state)) return;
  auto a = tack::full<float>(n, 0.5f, {.device = tack::cuda()});
  event_timer t;
  float total = 0;
  for (auto _ : state) t.time(state, [&] { total = tack::sum(a); });
  benchmark::DoNotOptimize(total);
  state.counters["sum"] = double(total);
  state.SetBytesProcessed(state.iterations() * n * 4);
}
void cub_reduce_sum(benchmark::State& state) {
  if (!tack::gpu_bench::have_gpu(state)) return;
  auto a = tack::full<float>(n, 0.5f, {.device = tack::cuda()});
  float* out = nullptr;
  if (!tack::gpu_bench::ok(state, cudaMalloc(&out, sizeof(float)), "cudaMalloc")) return;
  std::size_t temp_bytes = 0;
  cub::DeviceReduce::Sum(nullptr, temp_bytes, a.as_const().data(), out, n);
  void* temp = nullptr;
  if (!tack::gpu_bench::ok(state, cudaMalloc(&temp, temp_bytes), "cudaMalloc")) return;
  event_timer t;
  float total = 0;
  for (auto _ : state) {
    t.time(state, [&] {
      cub::DeviceReduce::Sum(temp, temp_bytes, a.as_const().data(), out, n);
      cudaMemcpy(&total, out, sizeof(float), cudaMemcpyDeviceToHost);
    });
  }
  state.counters["sum"] = double(total);
  state.SetBytesProcessed(state.iterations() * n * 4);
  cudaFree(temp);
  cudaFree(out);
}

BENCHMARK(cub_reduce_sum)->UseManualTime()->Unit(benchmark::kMillisecond)->MinTime(0.3);
BENCHMARK(tack_sum)->UseManualTime()->Unit(benchmark::kMillisecond)->MinTime(0.3);
}  // namespace
