// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
// `tack::sort` of 2^26 uint32 keys in device memory against `cub::DeviceRadixSort::SortKeys`
// (DoubleBuffer, temporary storage allocated once), in the same run. Before each sort the shuffled
// keys are copied back in, outside the timed region. Target: tack >= 0.9x CUB.
#include "gpu_bench.hpp"

#include <tack/algorithms/sort.hpp>
#include <tack/array/factories.hpp>

#include <cub/device/device_radix_sort.cuh>

#include <cstdint>
#include <random>
#include <vector>

namespace {
using tack::index_t;
using tack::gpu_bench::event_timer;

constexpr index_t n = index_t{1} << 26;

tack::array<std::uint32_t> shuffled_keys() {
  std::vector<std::uint32_t> keys(static_cast<std::size_t>(n));
  std::mt19937 rng(42);
  for (auto& k : keys) k = static_cast<std::uint32_t>(rng());
  auto a = tack::empty<std::uint32_t>(n, {.device = tack::cuda()});
  tack::copyto(a, keys);
  return a;
}

void tack_sort(benchmark::State& state) {
  if (!tack::gpu_bench::have_gpu(state)) return;
  const auto input = shuffled_keys();
  auto a = tack::empty<std::uint32_t>(n, {.device = tack::cuda()});
  event_timer t;
  for (auto _ : state) {
    tack::copyto(a, input);
    t.time(state, [&] { tack::sort(a); });
  }
  state.SetItemsProcessed(state.iterations() * n);
}
void cub_radix_sort(benchmark::State& state) {
  if (!tack::gpu_bench::have_gpu(state)) return;
  const auto input = shuffled_keys();
  auto a = tack::empty<std::uint32_t>(n, {.device = tack::cuda()});
  auto b = tack::empty<std::uint32_t>(n, {.device = tack::cuda()});
  cub::DoubleBuffer<std::uint32_t> keys(a.data(), b.data());
  std::size_t temp_bytes = 0;
  cub::DeviceRadixSort::SortKeys(nullptr, temp_bytes, keys, n);
  void* temp = nullptr;
  if (!tack::gpu_bench::ok(state, cudaMalloc(&temp, temp_bytes), "cudaMalloc")) return;
  event_timer t;
  for (auto _ : state) {
    tack::copyto(a, input);
    keys = cub::DoubleBuffer<std::uint32_t>(a.data(), b.data());
    t.time(state, [&] {
      cub::DeviceRadixSort::SortKeys(temp, temp_bytes, keys, n);
      cudaDeviceSynchronize();
    });
  }
  state.SetItemsProcessed(state.iterations() * n);
  cudaFree(temp);
}

BENCHMARK(cub_radix_sort)->UseManualTime()->Unit(benchmark::kMillisecond)->MinTime(0.5);
BENCHMARK(tack_sort)->UseManualTime()->Unit(benchmark::kMillisecond)->MinTime(0.5);
}  // namespace
