// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
#pragma once
/// @file What the CUDA backend's kernels share: launch shapes, error checks, the current-device
/// guard and scratch memory. Only for code compiled by nvcc in a CUDA build
/// (exec/backend/all.hpp includes the CUDA backend only then).
///
/// Kernels go to the thread's current stream of the device (`work_stream`, set by
/// `tack::stream_scope`). On the legacy default stream every operation synchronizes before it
/// returns (cudaDeviceSynchronize): kernel errors are reported by the call that caused them, and
/// host code may read unified memory at once. On a `tack::stream` a `parallel_for` returns at once
/// (its errors surface at `stream::synchronize`); reductions and scans wait for that stream only,
/// since they hand a value to the host.

#include <tack/config.hpp>

#if TACK_HAS_CUDA && defined(__CUDACC__)

#include <tack/core/error.hpp>
#include <tack/core/index.hpp>
#include <tack/detail/cuda_runtime.hpp>

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <source_location>
#include <string>

namespace tack::backend::cuda {

/// Threads per block of every tack kernel.
inline constexpr int block_threads = 256;
/// The largest grid a grid-stride loop uses; more blocks would only add scheduling cost.
inline constexpr index_t max_grid = index_t{1} << 20;

/// Blocks for a grid-stride loop over `n > 0` iterations.
inline unsigned grid_for(index_t n) {
  const index_t blocks = (n + block_threads - 1) / block_threads;
  return static_cast<unsigned>(blocks < max_grid ? blocks : max_grid);
}

/// Throws `device_error` naming `what`, the CUDA error and message, and the caller's file and line
/// when `e` is not success.
inline void check(cudaError_t e, const char* what,
                  std::source_location where = std::source_location::current()) {
  if (e == cudaSuccess) return;
  (void)cudaGetLastError();  // clear a non-sticky error so that later calls start clean
  throw device_error(std::string(what) + ": CUDA error " + cudaGetErrorName(e) + " (" +
                     cudaGetErrorString(e) + ") at " + where.file_name() + ":" +
                     std::to_string(where.line()));
}

/// Where the work of one operation goes: the thread's current `tack::stream` of the current
/// device (`queued`: nothing waits for it unless host memory is involved), or the legacy default
/// stream (tack waits for the device before returning).
struct work_stream {
  cudaStream_t handle = cudaStreamLegacy;
  bool queued = false;
};

/// The current device's work stream on this thread. `auto ws = current_work_stream(what);`
inline work_stream current_work_stream(
    const char* what, std::source_location where = std::source_location::current()) {
  int id = 0;
  check(cudaGetDevice(&id), what, where);
  const std::intptr_t s = tack::detail::current_cuda_stream(id);
  return s == 0 ? work_stream{} : work_stream{reinterpret_cast<cudaStream_t>(s), true};
}

/// Checks the launch just made; on the legacy default stream also waits for the device, so that
/// errors inside the kernel surface here.
inline void finish(const work_stream& ws, const char* what,
                   std::source_location where = std::source_location::current()) {
  check(cudaGetLastError(), what, where);
  if (!ws.queued) check(cudaDeviceSynchronize(), what, where);
}

/// Checks the launches just made and waits for them whatever the stream (an operation that
/// returns a value to the host): the stream only when it is a `tack::stream`.
inline void wait(const work_stream& ws, const char* what,
                 std::source_location where = std::source_location::current()) {
  check(cudaGetLastError(), what, where);
  check(ws.queued ? cudaStreamSynchronize(ws.handle) : cudaDeviceSynchronize(), what, where);
}

/// Makes device `id` current for its lifetime and restores the previous one.
class device_scope {
public:
  explicit device_scope(int id) {
    check(cudaGetDevice(&previous_), "tack: cudaGetDevice");
    if (previous_ != id) check(cudaSetDevice(id), "tack: cudaSetDevice");
  }
  ~device_scope() { (void)cudaSetDevice(previous_); }
  device_scope(const device_scope&) = delete;
  device_scope& operator=(const device_scope&) = delete;

private:
  int previous_ = 0;
};

/// `count` uninitialized `T` in device memory for one operation's partial results, from the
/// current device's stream-ordered pool (no cudaMalloc, and no synchronization when freed).
template <class T>
class scratch {
public:
  scratch(std::size_t count, const char* what) {
    check(cudaGetDevice(&device_), what);
    data_ = static_cast<T*>(tack::detail::cuda_malloc_device(count * sizeof(T), device_));
  }
  ~scratch() { tack::detail::cuda_free_device(data_, device_); }
  scratch(const scratch&) = delete;
  scratch& operator=(const scratch&) = delete;
  T* data() const noexcept { return data_; }

  /// Copies element `i` to the host once the work of `ws` is done.
  T read(std::size_t i, const work_stream& ws, const char* what) const {
    T value;
    check(cudaMemcpyAsync(&value, data_ + i, sizeof(T), cudaMemcpyDeviceToHost, ws.handle), what);
    wait(ws, what);
    return value;
  }

private:
  T* data_ = nullptr;
  int device_ = 0;
};

/// Blocks of a reduction or scan over `[0, n)`: at least `min_block` indices each, at most
/// `max_blocks`, balanced; depends on `n` alone, so results do not depend on the GPU model.
struct cuda_blocks {
  static constexpr index_t min_block = 16 * block_threads;
  static constexpr index_t max_blocks = 1024;
  index_t n = 0;
  index_t count = 1;
  explicit cuda_blocks(index_t n_) : n(n_) {
    const index_t wanted = (n_ + min_block - 1) / min_block;
    count = wanted < 1 ? 1 : (wanted > max_blocks ? max_blocks : wanted);
  }
};

/// First index of block `b` of `count` over `[0, n)` (host and device).
__host__ __device__ inline index_t block_begin(index_t n, index_t count, index_t b) {
  const index_t q = n / count;
  const index_t r = n % count;
  return b * q + (b < r ? b : r);
}

}  // namespace tack::backend::cuda

#endif  // TACK_HAS_CUDA && __CUDACC__
