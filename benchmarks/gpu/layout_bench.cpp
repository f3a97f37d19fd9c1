// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
// Copies across layouts on the GPU: 2^26 vec3f from AoS to SoA and back (`tack::copyto`, the
// component-wise device kernel) against the vendor's device-to-device copy of the same 768 MiB
// (`cuda_memcpy_d2d_vec3f`, `hip_memcpy_d2d_vec3f`) in the same run. Bytes counted: read plus
// written. Target: each >= 80 % of the copy bandwidth.
#include "gpu_bench.hpp"

#include <tack/array/copyto.hpp>
#include <tack/array/factories.hpp>
#include <tack/types/vec.hpp>

namespace {
using tack::index_t;
using tack::gpu_bench::event_timer;
namespace api = tack::gpu_bench::api;

constexpr index_t n = index_t{1} << 26;
constexpr std::size_t bytes = std::size_t(n) * sizeof(tack::vec3f);

void aos_to_soa(benchmark::State& state) {
  if (!tack::gpu_bench::have_gpu(state)) return;
  const tack::device d = tack::gpu_bench::device();
  auto aos = tack::full<tack::vec3f>(n, tack::vec3f{1, 2, 3}, {.device = d});
  auto soa = tack::empty<tack::vec3f>(n, {.device = d, .layout = tack::layout::soa});
  event_timer t;
  for (auto _ : state) t.time(state, [&] { tack::copyto(soa, aos); });
  state.SetBytesProcessed(state.iterations() * std::int64_t(bytes) * 2);
}
void soa_to_aos(benchmark::State& state) {
  if (!tack::gpu_bench::have_gpu(state)) return;
  const tack::device d = tack::gpu_bench::device();
  auto soa =
      tack::full<tack::vec3f>(n, tack::vec3f{1, 2, 3}, {.device = d, .layout = tack::layout::soa});
  auto aos = tack::empty<tack::vec3f>(n, {.device = d});
  event_timer t;
  for (auto _ : state) t.time(state, [&] { tack::copyto(aos, soa); });
  state.SetBytesProcessed(state.iterations() * std::int64_t(bytes) * 2);
}
void memcpy_d2d_vec3f(benchmark::State& state) {
  if (!tack::gpu_bench::have_gpu(state)) return;
  const tack::device d = tack::gpu_bench::device();
  auto a = tack::full<tack::vec3f>(n, tack::vec3f{1, 2, 3}, {.device = d});
  auto b = tack::empty<tack::vec3f>(n, {.device = d});
  event_timer t;
  for (auto _ : state) {
    t.time(state,
           [&] { (void)api::memcpy(b.data(), a.as_const().data(), bytes, api::device_to_device); });
  }
  state.SetBytesProcessed(state.iterations() * std::int64_t(bytes) * 2);
}

const bool registered = [] {
  using tack::gpu_bench::register_timed;
  register_timed(tack::gpu_bench::peer("memcpy_d2d_vec3f"), memcpy_d2d_vec3f, 0.3);
  register_timed("aos_to_soa", aos_to_soa, 0.3);
  register_timed("soa_to_aos", soa_to_aos, 0.3);
  return true;
}();
}  // namespace
