// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
#pragma once
/// @file What the GPU backend's kernels share, for CUDA and HIP alike (one source over the name
/// layer of exec/backend/gpu/api.hpp): launch shapes, error checks, the current-device guard and
/// scratch memory. Only for code compiled by the GPU compiler of the build's GPU backend (nvcc in
/// a CUDA build, hipcc in a HIP build; exec/backend/all.hpp includes the GPU backend only then).
///
/// Kernels go to the thread's current stream of the device (`work_stream`, set by
/// `tack::stream_scope`). On the default stream every operation synchronizes before it returns
/// (a device synchronization): kernel errors are reported by the call that caused them, and
/// host code may read unified memory at once. On a `tack::stream` a `parallel_for` returns at once
/// (its errors surface at `stream::synchronize`); reductions and scans wait for that stream only,
/// since they hand a value to the host.

#include <tack/exec/backend.hpp>

#if TACK_IMPL_GPU_KERNELS

#include <tack/core/error.hpp>
#include <tack/core/index.hpp>
#include <tack/detail/gpu_runtime.hpp>
#include <tack/exec/backend/gpu/api.hpp>

#include <cstddef>
#include <cstdint>
#include <source_location>
#include <string>

namespace tack::backend::gpu {

/// Threads per block of every tack kernel.
inline constexpr int block_threads = 256;
/// The largest grid a grid-stride loop uses; more blocks would only add scheduling cost.
inline constexpr index_t max_grid = index_t{1} << 20;

/// Blocks for a grid-stride loop over `n > 0` iterations.
inline unsigned grid_for(index_t n) {
  const index_t blocks = (n + block_threads - 1) / block_threads;
  return static_cast<unsigned>(blocks < max_grid ? blocks : max_grid);
}

/// Throws `device_error` naming `what`, the vendor's error and message, and the caller's file and
/// line when `e` is not success.
inline void check(api::error_t e, const char* what,
                  std::source_location where = std::source_location::current()) {
  if (e == api::success) return;
  (void)api::get_last_error();  // clear a non-sticky error so that later calls start clean
  throw device_error(std::string(what) + ": " + api::vendor + " error " + api::error_name(e) +
                     " (" + api::error_string(e) + ") at " + where.file_name() + ":" +
                     std::to_string(where.line()));
}

/// Where the work of one operation goes: the thread's current `tack::stream` of the current
/// device (`queued`: nothing waits for it unless host memory is involved), or the default stream
/// (tack waits for the device before returning).
struct work_stream {
  api::stream_t handle = api::default_stream;
  bool queued = false;
};

/// The current device's work stream on this thread. `auto ws = current_work_stream(what);`
inline work_stream current_work_stream(
    const char* what, std::source_location where = std::source_location::current()) {
  int id = 0;
  check(api::get_device(&id), what, where);
  const std::intptr_t s = tack::detail::current_gpu_stream(id);
  return s == 0 ? work_stream{} : work_stream{reinterpret_cast<api::stream_t>(s), true};
}

/// Checks the launch just made; on the default stream also waits for the device, so that errors
/// inside the kernel surface here.
inline void finish(const work_stream& ws, const char* what,
                   std::source_location where = std::source_location::current()) {
  check(api::get_last_error(), what, where);
  if (!ws.queued) check(api::device_synchronize(), what, where);
}

/// Checks the launches just made and waits for them whatever the stream (an operation that
/// returns a value to the host): the stream only when it is a `tack::stream`.
inline void wait(const work_stream& ws, const char* what,
                 std::source_location where = std::source_location::current()) {
  check(api::get_last_error(), what, where);
  check(ws.queued ? api::stream_synchronize(ws.handle) : api::device_synchronize(), what, where);
}

/// Makes device `id` current for its lifetime and restores the previous one.
class device_scope {
public:
  explicit device_scope(int id) {
    check(api::get_device(&previous_), "tack: " TACK_IMPL_GPU_NAME("GetDevice"));
    if (previous_ != id) check(api::set_device(id), "tack: " TACK_IMPL_GPU_NAME("SetDevice"));
  }
  ~device_scope() { (void)api::set_device(previous_); }
  device_scope(const device_scope&) = delete;
  device_scope& operator=(const device_scope&) = delete;

private:
  int previous_ = 0;
};

/// `count` uninitialized `T` in device memory for one operation's partial results, from the
/// current device's stream-ordered pool (no device malloc, and no synchronization when freed).
template <class T>
class scratch {
public:
  scratch(std::size_t count, const char* what) {
    check(api::get_device(&device_), what);
    data_ = static_cast<T*>(tack::detail::gpu_malloc_device(count * sizeof(T), device_));
  }
  ~scratch() { tack::detail::gpu_free_device(data_, device_); }
  scratch(const scratch&) = delete;
  scratch& operator=(const scratch&) = delete;
  T* data() const noexcept { return data_; }

  /// Copies element `i` to the host once the work of `ws` is done.
  T read(std::size_t i, const work_stream& ws, const char* what) const {
    T value;
    check(api::memcpy_async(&value, data_ + i, sizeof(T), api::device_to_host, ws.handle), what);
    wait(ws, what);
    return value;
  }

private:
  T* data_ = nullptr;
  int device_ = 0;
};

/// Blocks of a reduction or scan over `[0, n)`: at least `min_block` indices each, at most
/// `max_blocks`, balanced; depends on `n` alone, so results do not depend on the GPU model.
struct gpu_blocks {
  static constexpr index_t min_block = 16 * block_threads;
  static constexpr index_t max_blocks = 1024;
  index_t n = 0;
  index_t count = 1;
  explicit gpu_blocks(index_t n_) : n(n_) {
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

}  // namespace tack::backend::gpu

#endif  // TACK_IMPL_GPU_KERNELS
