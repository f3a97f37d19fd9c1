// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
// What the GPU benchmarks share: CUDA-event timing of one iteration (Google Benchmark's manual
// time), a check that turns a CUDA error into a skipped benchmark with the message, and the
// bytes-per-iteration bookkeeping. Each benchmark file times tack and its reference in the same
// process, so scripts/gpu-check reports ratios measured in one run.
#pragma once

#include <benchmark/benchmark.h>
#include <cuda_runtime.h>

#include <cstdint>
#include <string>

namespace tack::gpu_bench {

/// Times `body()` on the GPU with events around it (the body's own synchronization included) and
/// reports it as the iteration's manual time.
class event_timer {
public:
  event_timer() {
    cudaEventCreate(&start_);
    cudaEventCreate(&stop_);
  }
  ~event_timer() {
    cudaEventDestroy(start_);
    cudaEventDestroy(stop_);
  }
  event_timer(const event_timer&) = delete;
  event_timer& operator=(const event_timer&) = delete;

  template <class Body>
  void time(benchmark::State& state, Body&& body) {
    cudaEventRecord(start_);
    body();
    cudaEventRecord(stop_);
    cudaEventSynchronize(stop_);
    float ms = 0;
    cudaEventElapsedTime(&ms, start_, stop_);
    state.SetIterationTime(double(ms) * 1e-3);
  }

private:
  cudaEvent_t start_{}, stop_{};
};

/// False (and the benchmark skipped with the CUDA message) when `e` is an error.
inline bool ok(benchmark::State& state, cudaError_t e, const char* what) {
  if (e == cudaSuccess) return true;
  state.SkipWithError((std::string(what) + ": " + cudaGetErrorString(e)).c_str());
  return false;
}

/// False (and the benchmark skipped) when no GPU is present.
inline bool have_gpu(benchmark::State& state) {
  int n = 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess || n == 0) {
    state.SkipWithError("no CUDA device");
    return false;
  }
  return true;
}

}  // namespace tack::gpu_bench
