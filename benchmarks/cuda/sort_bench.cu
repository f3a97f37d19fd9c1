// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
// `tack::sort` of 2^26 uint32 keys in device memory against `cub::DeviceRadixSort::SortKeys`
// (DoubleBuffer, temporary storage allocated once), in the same run. Before each sort the shuffled
// keys are copied back in, outside the timed region. Target: tack >= 0.9x CUB.
// `tack::sort(a, comp)` (the merge sort of algorithms/detail/merge_sort.hpp) of 2^24 floats with
// a functor against `cub::DeviceMergeSort::StableSortKeys` with the same functor (temporary
// storage allocated once), restored the same way. No target yet.
#include "gpu_bench.hpp"

#include <tack/algorithms/sort.hpp>
#include <tack/array/factories.hpp>

#include <cub/device/device_merge_sort.cuh>
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

// ---- comparator sorts (merge sorts) --------------------------------------------------------------
constexpr index_t n_floats = index_t{1} << 24;

struct float_less {
  TACK_HOST_DEVICE bool operator()(const float& a, const float& b) const { return a < b; }
};

tack::array<float> shuffled_floats() {
  std::vector<float> values(static_cast<std::size_t>(n_floats));
  std::mt19937 rng(43);
  std::uniform_real_distribution<float> dist(-1000.0f, 1000.0f);
  for (auto& v : values) v = dist(rng);
  auto a = tack::empty<float>(n_floats, {.device = tack::cuda()});
  tack::copyto(a, values);
  return a;
}

void tack_sort_comp(benchmark::State& state) {
  if (!tack::gpu_bench::have_gpu(state)) return;
  const auto input = shuffled_floats();
  auto a = tack::empty<float>(n_floats, {.device = tack::cuda()});
  event_timer t;
  for (auto _ : state) {
    tack::copyto(a, input);
    t.time(state, [&] { tack::sort(a, float_less{}); });
  }
  state.SetItemsProcessed(state.iterations() * n_floats);
}
void cub_merge_sort(benchmark::State& state) {
  if (!tack::gpu_bench::have_gpu(state)) return;
  const auto input = shuffled_floats();
  auto a = tack::empty<float>(n_floats, {.device = tack::cuda()});
  std::size_t temp_bytes = 0;
  cub::DeviceMergeSort::StableSortKeys(nullptr, temp_bytes, a.data(), n_floats, float_less{});
  void* temp = nullptr;
  if (!tack::gpu_bench::ok(state, cudaMalloc(&temp, temp_bytes), "cudaMalloc")) return;
  event_timer t;
  for (auto _ : state) {
    tack::copyto(a, input);
    t.time(state, [&] {
      cub::DeviceMergeSort::StableSortKeys(temp, temp_bytes, a.data(), n_floats, float_less{});
      cudaDeviceSynchronize();
    });
  }
  state.SetItemsProcessed(state.iterations() * n_floats);
  cudaFree(temp);
}

BENCHMARK(cub_radix_sort)->UseManualTime()->Unit(benchmark::kMillisecond)->MinTime(0.5);
BENCHMARK(tack_sort)->UseManualTime()->Unit(benchmark::kMillisecond)->MinTime(0.5);
BENCHMARK(cub_merge_sort)->UseManualTime()->Unit(benchmark::kMillisecond)->MinTime(0.5);
BENCHMARK(tack_sort_comp)->UseManualTime()->Unit(benchmark::kMillisecond)->MinTime(0.5);
}  // namespace
