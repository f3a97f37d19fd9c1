// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
// `tack::sum` of 2^28 floats in device memory (the deterministic two-pass block reduction of the
// GPU backend, result on the host) against the vendor library's reduction (`cub_reduce_sum`:
// cub::DeviceReduce::Sum; `rocprim_reduce_sum`: rocprim::reduce) with its temporary storage
// allocated once and the result copied to the host, in the same run. Target: >= 0.9x the library.
#include "gpu_bench.hpp"

#include <tack/algorithms/reduce.hpp>
#include <tack/array/factories.hpp>

namespace {
using tack::index_t;
using tack::gpu_bench::event_timer;
namespace api = tack::gpu_bench::api;
namespace primitives = tack::gpu_bench::primitives;

constexpr index_t n = index_t{1} << 28;

void tack_sum(benchmark::State& state) {
  if (!tack::gpu_bench::have_gpu(state)) return;
  auto a = tack::full<float>(n, 0.5f, {.device = tack::gpu_bench::device()});
  event_timer t;
  float total = 0;
  for (auto _ : state) t.time(state, [&] { total = tack::sum(a); });
  benchmark::DoNotOptimize(total);
  state.counters["sum"] = double(total);
  state.SetBytesProcessed(state.iterations() * n * 4);
}
void library_reduce_sum(benchmark::State& state) {
  if (!tack::gpu_bench::have_gpu(state)) return;
  auto a = tack::full<float>(n, 0.5f, {.device = tack::gpu_bench::device()});
  void* out = nullptr;
  if (!tack::gpu_bench::ok(state, api::malloc(&out, sizeof(float)), "device malloc")) return;
  auto* sum_out = static_cast<float*>(out);
  std::size_t temp_bytes = 0;
  (void)primitives::reduce_sum(nullptr, temp_bytes, a.as_const().data(), sum_out, n,
                               api::default_stream);
  void* temp = nullptr;
  if (!tack::gpu_bench::ok(state, api::malloc(&temp, temp_bytes), "device malloc")) return;
  event_timer t;
  float total = 0;
  for (auto _ : state) {
    t.time(state, [&] {
      (void)primitives::reduce_sum(temp, temp_bytes, a.as_const().data(), sum_out, n,
                                   api::default_stream);
      (void)api::memcpy(&total, sum_out, sizeof(float), api::device_to_host);
    });
  }
  state.counters["sum"] = double(total);
  state.SetBytesProcessed(state.iterations() * n * 4);
  (void)api::free(temp);
  (void)api::free(out);
}

const bool registered = [] {
  using tack::gpu_bench::register_timed;
  register_timed(tack::gpu_bench::library("reduce_sum"), library_reduce_sum, 0.3);
  register_timed("tack_sum", tack_sum, 0.3);
  return true;
}();
}  // namespace
