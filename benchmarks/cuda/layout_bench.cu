// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
// Copies across layouts on the GPU: 2^26 vec3f from AoS to SoA and back (`tack::copyto`, the
// component-wise device kernel) against `cudaMemcpy` device to device of the same 768 MiB in the
// same run. Bytes counted: read plus written. Target: each >= 80 % of the copy bandwidth.
#include "gpu_bench.hpp"

#include <tack/array/copyto.hpp>
#include <tack/array/factories.hpp>
#include <tack/types/vec.hpp>

namespace {
using tack::index_t;
using tack::gpu_bench::event_timer;

constexpr index_t n = index_t{1} << 26;
constexpr std::size_t bytes = std::size_t(n) * sizeof(tack::vec3f);

void aos_to_soa(benchmark::State& state) {
  if (!tack::gpu_bench::have_gpu(state)) return;
  auto aos = tack::full<tack::vec3f>(n, tack::vec3f{1, 2, 3}, {.device = tack::cuda()});
  auto soa = tack::empty<tack::vec3f>(n, {.device = tack::cuda(), .layout = tack::layout::soa});
  event_timer t;
  for (auto _ : state) t.time(state, [&] { tack::copyto(soa, aos); });
  state.SetBytesProcessed(state.iterations() * std::int64_t(bytes) * 2);
}
void soa_to_aos(benchmark::State& state) {
  if (!tack::gpu_bench::have_gpu(state)) return;
  auto soa = tack::full<tack::vec3f>(n, tack::vec3f{1, 2, 3},
                                     {.device = tack::cuda(), .layout = tack::layout::soa});
  auto aos = tack::empty<tack::vec3f>(n, {.device = tack::cuda()});
  event_timer t;
  for (auto _ : state) t.time(state, [&] { tack::copyto(aos, soa); });
  state.SetBytesProcessed(state.iterations() * std::int64_t(bytes) * 2);
}
void cuda_memcpy_d2d_vec3f(benchmark::State& state) {
  if (!tack::gpu_bench::have_gpu(state)) return;
  auto a = tack::full<tack::vec3f>(n, tack::vec3f{1, 2, 3}, {.device = tack::cuda()});
  auto b = tack::empty<tack::vec3f>(n, {.device = tack::cuda()});
  event_timer t;
  for (auto _ : state) {
    t.time(state,
           [&] { cudaMemcpy(b.data(), a.as_const().data(), bytes, cudaMemcpyDeviceToDevice); });
  }
  state.SetBytesProcessed(state.iterations() * std::int64_t(bytes) * 2);
}

BENCHMARK(cuda_memcpy_d2d_vec3f)->UseManualTime()->Unit(benchmark::kMillisecond)->MinTime(0.3);
BENCHMARK(aos_to_soa)->UseManualTime()->Unit(benchmark::kMillisecond)->MinTime(0.3);
BENCHMARK(soa_to_aos)->UseManualTime()->Unit(benchmark::kMillisecond)->MinTime(0.3);
}  // namespace
