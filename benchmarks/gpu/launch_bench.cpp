// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
// Launch overhead on the GPU: `tack::launch` of an empty kernel over 1 element (no array, and
// three device arrays) against a bare `<<<1, 256>>>` launch of the same kernel followed by a device
// synchronization (tack's operations return finished, so the reference waits too), and the bare
// launch alone; host wall time per call (CUDA and HIP alike). Target: tack <= 1.1x the bare launch with its wait.
// Also a row view of a device array against one of a host array (no device call: the same cost),
// and `tack::launch(stream, ...)`, which only queues, against a bare launch on the same stream
// (both wait for the stream once, after the timed calls; target: <= 1.1x as well).
#include "gpu_bench.hpp"

#include <tack/array/factories.hpp>
#include <tack/exec/launch.hpp>
#include <tack/exec/stream.hpp>

namespace {
using tack::index_t;
namespace api = tack::gpu_bench::api;

struct no_op {
  TACK_HOST_DEVICE void operator()(index_t) const {}
};

struct empty_k {
  template <class... A>
  TACK_HOST_DEVICE void operator()(index_t, const A&...) const {}
};

template <class F>
__global__ void bare_kernel(index_t n, F f) {
  const index_t i = static_cast<index_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) f(i);
}

void tack_launch_empty(benchmark::State& state) {
  if (!tack::gpu_bench::have_gpu(state)) return;
  const tack::device d = tack::gpu_bench::device();
  for (auto _ : state) tack::launch(d, 1, empty_k{});
}
void tack_launch_three_arrays(benchmark::State& state) {
  if (!tack::gpu_bench::have_gpu(state)) return;
  const tack::device d = tack::gpu_bench::device();
  auto a = tack::zeros<float>(1024, {.device = d});
  auto b = tack::zeros<float>(1024, {.device = d});
  auto c = tack::zeros<float>(1024, {.device = d});
  for (auto _ : state) tack::launch(d, 1, empty_k{}, a, b.as_const(), c.as_const());
}
void bare_launch_and_sync(benchmark::State& state) {
  if (!tack::gpu_bench::have_gpu(state)) return;
  for (auto _ : state) {
    bare_kernel<<<1, 256>>>(1, no_op{});
    (void)api::device_synchronize();
  }
}
void bare_launch_only(benchmark::State& state) {
  if (!tack::gpu_bench::have_gpu(state)) return;
  for (auto _ : state) bare_kernel<<<1, 256>>>(1, no_op{});
  (void)api::device_synchronize();
}

void tack_launch_on_stream(benchmark::State& state) {
  if (!tack::gpu_bench::have_gpu(state)) return;
  const tack::stream s(tack::gpu_bench::device());
  for (auto _ : state) tack::launch(s, 1, empty_k{});
  s.synchronize();
}
void bare_launch_on_stream(benchmark::State& state) {
  if (!tack::gpu_bench::have_gpu(state)) return;
  const tack::stream s(tack::gpu_bench::device());
  const auto native = reinterpret_cast<api::stream_t>(s.native());
  for (auto _ : state) bare_kernel<<<1, 256, 0, native>>>(1, no_op{});
  s.synchronize();
}

template <bool Device>
void row_view(benchmark::State& state) {
  if (Device && !tack::gpu_bench::have_gpu(state)) return;
  auto a = Device ? tack::zeros<float>({1024, 3}, {.device = tack::gpu_bench::device()})
                  : tack::zeros<float>({1024, 3});
  index_t i = 0;
  for (auto _ : state) {
    auto v = a.rows(i, i + 16);
    benchmark::DoNotOptimize(v);
    i = (i + 1) & 511;
  }
}

BENCHMARK(bare_launch_and_sync);
BENCHMARK(bare_launch_only);
BENCHMARK(tack_launch_empty);
BENCHMARK(tack_launch_three_arrays);
BENCHMARK(bare_launch_on_stream);
BENCHMARK(tack_launch_on_stream);
BENCHMARK(row_view<false>)->Name("row_view_host");
BENCHMARK(row_view<true>)->Name("row_view_device");
}  // namespace
