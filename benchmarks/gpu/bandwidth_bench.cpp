// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
// Memory bandwidth of kernels through row views on the GPU (issue 17, "Performance"): triad
// `a[i] = b[i] + s * c[i]`, copy `a[i] = b[i]` (tack::launch over row views of larger device
// arrays) and fill (`a.rows(...).fill(x)`, a device kernel) of 2^28 floats, against the vendor's
// device-to-device copy (`cudaMemcpy`, `hipMemcpy`: `cuda_memcpy_d2d`, `hip_memcpy_d2d`) of the same
// floats in the same run. Bytes counted: every byte read plus every byte written. Target: each
// >= 85 % of the copy's bandwidth.
#include "gpu_bench.hpp"

#include <tack/array/factories.hpp>
#include <tack/exec/launch.hpp>

namespace {
using tack::index_t;
using tack::gpu_bench::event_timer;
namespace api = tack::gpu_bench::api;

constexpr index_t n = index_t{1} << 28;
constexpr index_t extra = 1024;  // the roots are longer: the kernels see true row views

struct triad_k {
  template <class A, class B, class C>
  TACK_HOST_DEVICE void operator()(index_t i, const A& a, const B& b, const C& c, float s) const {
    a[i] = b[i] + s * c[i];
  }
};
struct copy_k {
  template <class A, class B>
  TACK_HOST_DEVICE void operator()(index_t i, const A& a, const B& b) const {
    a[i] = b[i];
  }
};

tack::array<float> device_array(float v) {
  return tack::full<float>(n + extra, v, {.device = tack::gpu_bench::device()});
}

void tack_triad(benchmark::State& state) {
  if (!tack::gpu_bench::have_gpu(state)) return;
  auto a = device_array(0), b = device_array(1), c = device_array(2);
  auto av = a.rows(extra, n + extra), bv = b.rows(0, n), cv = c.rows(extra / 2, n + extra / 2);
  event_timer t;
  for (auto _ : state)
    t.time(state, [&] {
      tack::launch(av.device(), n, triad_k{}, av, bv.as_const(), cv.as_const(), 3.0f);
    });
  state.SetBytesProcessed(state.iterations() * n * 4 * 3);
}
void tack_copy(benchmark::State& state) {
  if (!tack::gpu_bench::have_gpu(state)) return;
  auto a = device_array(0), b = device_array(1);
  auto av = a.rows(extra, n + extra), bv = b.rows(0, n);
  event_timer t;
  for (auto _ : state)
    t.time(state, [&] { tack::launch(av.device(), n, copy_k{}, av, bv.as_const()); });
  state.SetBytesProcessed(state.iterations() * n * 4 * 2);
}
void tack_fill(benchmark::State& state) {
  if (!tack::gpu_bench::have_gpu(state)) return;
  auto a = device_array(0);
  auto av = a.rows(extra, n + extra);
  event_timer t;
  float x = 1.0f;
  for (auto _ : state) {
    t.time(state, [&] { av.fill(x); });
    x += 1.0f;
  }
  state.SetBytesProcessed(state.iterations() * n * 4);
}
void memcpy_d2d(benchmark::State& state) {
  if (!tack::gpu_bench::have_gpu(state)) return;
  auto a = device_array(0), b = device_array(1);
  event_timer t;
  for (auto _ : state) {
    t.time(state, [&] {
      (void)api::memcpy(a.data(), b.as_const().data(), std::size_t(n) * 4, api::device_to_device);
    });
  }
  state.SetBytesProcessed(state.iterations() * n * 4 * 2);
}

const bool registered = [] {
  using tack::gpu_bench::register_timed;
  register_timed(tack::gpu_bench::peer("memcpy_d2d"), memcpy_d2d, 0.3);
  register_timed("tack_triad", tack_triad, 0.3);
  register_timed("tack_copy", tack_copy, 0.3);
  register_timed("tack_fill", tack_fill, 0.3);
  return true;
}();
}  // namespace
