// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
// What the GPU benchmarks share, for CUDA and HIP alike (compiled by nvcc or hipcc over tack's name
// layer, exec/backend/gpu/api.hpp): event timing of one iteration (Google Benchmark's manual time),
// a check that turns a vendor error into a skipped benchmark with the message, the device the
// build's GPU backend drives, and the names of the references: `peer("memcpy_d2d")` is
// `cuda_memcpy_d2d` or `hip_memcpy_d2d`, `library("reduce_sum")` is `cub_reduce_sum` or
// `rocprim_reduce_sum` (src/<vendor>/primitives.hpp). Each benchmark file times tack and its
// reference in the same process, so scripts/gpu-check reports ratios measured in one run.
#pragma once

#include <tack/exec/backend/gpu/api.hpp>
#include <tack/memory/device.hpp>

#include <benchmark/benchmark.h>

#include <cstdint>
#include <string>

#if TACK_HAS_CUDA
#include "../../src/cuda/primitives.hpp"
#else
#include "../../src/hip/primitives.hpp"
#endif

namespace tack::gpu_bench {

namespace api = tack::backend::gpu::api;
namespace primitives = tack::detail::gpu_impl::primitives;

/// The device of the build's GPU backend: `tack::cuda(0)` or `tack::hip(0)`.
inline tack::device device() { return tack::backend_device<api::backend_tag>(); }

/// A reference's name from the vendor's runtime: `cuda_<what>` or `hip_<what>`.
inline std::string peer(const char* what) {
  return std::string(api::kind == device_kind::hip ? "hip_" : "cuda_") + what;
}
/// A reference's name from the vendor's library of primitives: `cub_<what>` or `rocprim_<what>`.
inline std::string library(const char* what) {
  return std::string(primitives::library) + "_" + what;
}

/// Times `body()` on the GPU with events around it (the body's own synchronization included) and
/// reports it as the iteration's manual time.
class event_timer {
public:
  event_timer() {
    (void)api::event_create_timed(&start_);
    (void)api::event_create_timed(&stop_);
  }
  ~event_timer() {
    (void)api::event_destroy(start_);
    (void)api::event_destroy(stop_);
  }
  event_timer(const event_timer&) = delete;
  event_timer& operator=(const event_timer&) = delete;

  template <class Body>
  void time(benchmark::State& state, Body&& body) {
    (void)api::event_record(start_, api::default_stream);
    body();
    (void)api::event_record(stop_, api::default_stream);
    (void)api::event_synchronize(stop_);
    float ms = 0;
    (void)api::event_elapsed_ms(&ms, start_, stop_);
    state.SetIterationTime(double(ms) * 1e-3);
  }

private:
  api::event_t start_{}, stop_{};
};

/// False (and the benchmark skipped with the vendor's message) when `e` is an error.
inline bool ok(benchmark::State& state, api::error_t e, const char* what) {
  if (e == api::success) return true;
  state.SkipWithError((std::string(what) + ": " + api::error_string(e)).c_str());
  return false;
}

/// False (and the benchmark skipped) when no GPU is present.
inline bool have_gpu(benchmark::State& state) {
  int n = 0;
  if (api::get_device_count(&n) != api::success || n == 0) {
    state.SkipWithError((std::string("no ") + api::vendor + " device").c_str());
    return false;
  }
  return true;
}

/// Registers `fn` as a manually timed benchmark named `name`, in milliseconds, run for at least
/// `min_time` seconds. `register_timed(peer("memcpy_d2d"), memcpy_d2d, 0.3);`
inline benchmark::internal::Benchmark* register_timed(const std::string& name,
                                                      void (*fn)(benchmark::State&),
                                                      double min_time) {
  return benchmark::RegisterBenchmark(name.c_str(), fn)
      ->UseManualTime()
      ->Unit(benchmark::kMillisecond)
      ->MinTime(min_time);
}

}  // namespace tack::gpu_bench
