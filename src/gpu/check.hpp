// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
// What the GPU sources of the library share (src/gpu/*.cpp, compiled by nvcc in a CUDA build and by
// hipcc in a HIP build, over the name layer of exec/backend/gpu/api.hpp): vendor errors as tack
// exceptions naming the call, the file and the vendor's message, and a guard that makes a device
// current. Internal to src/gpu/.
#pragma once

#include <tack/core/error.hpp>
#include <tack/exec/backend/gpu/api.hpp>

#include <cstddef>
#include <string>

namespace tack::detail::gpu_impl {

namespace api = tack::backend::gpu::api;

/// `tack: cudaMemcpy failed: cudaErrorInvalidValue (invalid argument) at src/gpu/runtime.cpp:88`
inline std::string describe(api::error_t e, const char* what, const char* file, int line) {
  return std::string("tack: ") + what + " failed: " + api::error_name(e) + " (" +
         api::error_string(e) + ") at " + file + ":" + std::to_string(line);
}

[[noreturn]] inline void throw_error(api::error_t e, const char* what, const char* file, int line) {
  (void)api::get_last_error();  // clear a non-sticky error so that later calls start clean
  throw device_error(describe(e, what, file, line));
}

/// An allocation that failed: `out_of_memory` naming the size and the device for an out-of-memory
/// error, `device_error` otherwise.
[[noreturn]] inline void throw_alloc_error(api::error_t e, const char* what, std::size_t bytes,
                                           const std::string& where, const char* file, int line) {
  if (e == api::error_memory_allocation) {
    (void)api::get_last_error();
    throw out_of_memory(std::string("tack: ") + what + " of " + std::to_string(bytes) +
                        " bytes on " + where + " failed: out of device memory (" +
                        api::error_string(e) + ") at " + file + ":" + std::to_string(line));
  }
  throw_error(e, what, file, line);
}

}  // namespace tack::detail::gpu_impl

/// Throws `device_error` naming `what` (the call), this file and line, and the vendor's message.
#define TACK_IMPL_GPU_CHECK(expr, what)                                               \
  do {                                                                                \
    const ::tack::backend::gpu::api::error_t tack_impl_err = (expr);                  \
    if (tack_impl_err != ::tack::backend::gpu::api::success) {                        \
      ::tack::detail::gpu_impl::throw_error(tack_impl_err, what, __FILE__, __LINE__); \
    }                                                                                 \
  } while (0)

namespace tack::detail::gpu_impl {

/// Makes device `id` current for its lifetime and restores the previous one.
struct device_guard {
  int previous = 0;
  explicit device_guard(int id) {
    TACK_IMPL_GPU_CHECK(api::get_device(&previous), TACK_IMPL_GPU_NAME("GetDevice"));
    if (previous != id) TACK_IMPL_GPU_CHECK(api::set_device(id), TACK_IMPL_GPU_NAME("SetDevice"));
  }
  ~device_guard() { (void)api::set_device(previous); }
  device_guard(const device_guard&) = delete;
  device_guard& operator=(const device_guard&) = delete;
};

/// The calling thread's current stream on device `id` (`tack::stream_scope`) when it is a
/// non-blocking one (as a borrowed stream of another library may be), which does not order with
/// the default stream where tack allocates, frees and sorts; else null. Those calls then order with
/// it explicitly (`order_after`).
api::stream_t nonblocking_current_stream(int id) noexcept;

/// Makes `later` wait for the work queued on `earlier` so far (an event recorded on `earlier`).
void order_after(api::stream_t later, api::stream_t earlier, const char* what);

/// The device a device pointer belongs to.
int device_of_pointer(const void* p);

/// Device memory for one operation's scratch, from the device's stream-ordered pool (freed blocks
/// are reused without a device synchronization); released on the default stream.
void* scratch_alloc(std::size_t bytes, int device_id);
void scratch_free(void* p, int device_id) noexcept;

/// `bytes` of scratch on device `id`, released when it goes out of scope.
class scratch_block {
public:
  scratch_block(std::size_t bytes, int device_id)
      : p_(scratch_alloc(bytes, device_id)), device_(device_id) {}
  ~scratch_block() { scratch_free(p_, device_); }
  scratch_block(const scratch_block&) = delete;
  scratch_block& operator=(const scratch_block&) = delete;
  void* get() const noexcept { return p_; }
  template <class T>
  T* as() const noexcept {
    return static_cast<T*>(p_);
  }

private:
  void* p_;
  int device_;
};

}  // namespace tack::detail::gpu_impl
