// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
// `tack::sort` of 2^26 uint32 keys in device memory against the vendor library's radix sort
// (`cub_radix_sort`: cub::DeviceRadixSort::SortKeys; `rocprim_radix_sort`:
// rocprim::radix_sort_keys; double buffer, temporary storage allocated once), in the same run.
// Before each sort the shuffled keys are copied back in, outside the timed region. Target: tack >=
// 0.9x the library. `tack::sort(a, comp)` (the merge sort of algorithms/detail/merge_sort.hpp) of
// 2^24 floats with a functor against the library's stable merge sort with the same functor
// (`cub_merge_sort`, `rocprim_merge_sort`; into a second buffer, temporary storage allocated once),
// restored the same way. No target yet.
#include "gpu_bench.hpp"

#include <tack/algorithms/sort.hpp>
#include <tack/array/factories.hpp>

#include <cstdint>
#include <random>
#include <vector>

namespace {
using tack::index_t;
using tack::gpu_bench::event_timer;
namespace api = tack::gpu_bench::api;
namespace primitives = tack::gpu_bench::primitives;

constexpr index_t n = index_t{1} << 26;

tack::array<std::uint32_t> shuffled_keys() {
  std::vector<std::uint32_t> keys(static_cast<std::size_t>(n));
  std::mt19937 rng(42);
  for (auto& k : keys) k = static_cast<std::uint32_t>(rng());
  auto a = tack::empty<std::uint32_t>(n, {.device = tack::gpu_bench::device()});
  tack::copyto(a, keys);
  return a;
}

void tack_sort(benchmark::State& state) {
  if (!tack::gpu_bench::have_gpu(state)) return;
  const auto input = shuffled_keys();
  auto a = tack::empty<std::uint32_t>(n, {.device = tack::gpu_bench::device()});
  event_timer t;
  for (auto _ : state) {
    tack::copyto(a, input);
    t.time(state, [&] { tack::sort(a); });
  }
  state.SetItemsProcessed(state.iterations() * n);
}
void library_radix_sort(benchmark::State& state) {
  if (!tack::gpu_bench::have_gpu(state)) return;
  const auto input = shuffled_keys();
  auto a = tack::empty<std::uint32_t>(n, {.device = tack::gpu_bench::device()});
  auto b = tack::empty<std::uint32_t>(n, {.device = tack::gpu_bench::device()});
  primitives::double_buffer<std::uint32_t> keys(a.data(), b.data());
  std::size_t temp_bytes = 0;
  (void)primitives::radix_sort_keys(nullptr, temp_bytes, keys, n, 32, api::default_stream);
  void* temp = nullptr;
  if (!tack::gpu_bench::ok(state, api::malloc(&temp, temp_bytes), "device malloc")) return;
  event_timer t;
  for (auto _ : state) {
    tack::copyto(a, input);
    keys = primitives::double_buffer<std::uint32_t>(a.data(), b.data());
    t.time(state, [&] {
      (void)primitives::radix_sort_keys(temp, temp_bytes, keys, n, 32, api::default_stream);
      (void)api::device_synchronize();
    });
  }
  state.SetItemsProcessed(state.iterations() * n);
  (void)api::free(temp);
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
  auto a = tack::empty<float>(n_floats, {.device = tack::gpu_bench::device()});
  tack::copyto(a, values);
  return a;
}

void tack_sort_comp(benchmark::State& state) {
  if (!tack::gpu_bench::have_gpu(state)) return;
  const auto input = shuffled_floats();
  auto a = tack::empty<float>(n_floats, {.device = tack::gpu_bench::device()});
  event_timer t;
  for (auto _ : state) {
    tack::copyto(a, input);
    t.time(state, [&] { tack::sort(a, float_less{}); });
  }
  state.SetItemsProcessed(state.iterations() * n_floats);
}
void library_merge_sort(benchmark::State& state) {
  if (!tack::gpu_bench::have_gpu(state)) return;
  const auto input = shuffled_floats();
  auto a = tack::empty<float>(n_floats, {.device = tack::gpu_bench::device()});
  auto out = tack::empty<float>(n_floats, {.device = tack::gpu_bench::device()});
  std::size_t temp_bytes = 0;
  (void)primitives::merge_sort_keys(nullptr, temp_bytes, a.as_const().data(), out.data(), n_floats,
                                    float_less{}, api::default_stream);
  void* temp = nullptr;
  if (!tack::gpu_bench::ok(state, api::malloc(&temp, temp_bytes), "device malloc")) return;
  event_timer t;
  for (auto _ : state) {
    tack::copyto(a, input);
    t.time(state, [&] {
      (void)primitives::merge_sort_keys(temp, temp_bytes, a.as_const().data(), out.data(), n_floats,
                                        float_less{}, api::default_stream);
      (void)api::device_synchronize();
    });
  }
  state.SetItemsProcessed(state.iterations() * n_floats);
  (void)api::free(temp);
}

const bool registered = [] {
  using tack::gpu_bench::register_timed;
  register_timed(tack::gpu_bench::library("radix_sort"), library_radix_sort, 0.5);
  register_timed("tack_sort", tack_sort, 0.5);
  register_timed(tack::gpu_bench::library("merge_sort"), library_merge_sort, 0.5);
  register_timed("tack_sort_comp", tack_sort_comp, 0.5);
  return true;
}();
}  // namespace
