// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
#pragma once
/// @file `tack::fence`: wait until the work launched on a device is complete.
///
/// CPU kernels are complete when `parallel_for` returns, so a CPU fence does nothing. GPU (CUDA,
/// HIP) launches synchronize before they return unless they go to a `tack::stream`
/// (exec/stream.hpp); `fence(device)` waits for every stream of the device, `fence(stream)` for one.

#include <tack/core/error.hpp>
#include <tack/detail/gpu_runtime.hpp>
#include <tack/exec/stream.hpp>
#include <tack/memory/device.hpp>

#include <string>

namespace tack {

/// Waits for every kernel and copy launched on `d`. A GPU device that is not available is a
/// `device_error`. `tack::fence(tack::cuda());` On a GPU it synchronizes device `d` itself
/// (`cudaDeviceSynchronize` / `hipDeviceSynchronize` with `d` made current for the call), whichever
/// device the calling thread has current: tack launches restore the caller's device when they
/// return.
inline void fence(const device& d) {
  if (d.is_cpu()) return;
  if (!is_available(d)) {
    throw device_error("tack::fence: device " + d.str() + " is not available" +
                       detail::gpu_unavailable_reason(d));
  }
  detail::gpu_synchronize_device(d.id(), "tack::fence");
}

/// Waits for the work launched on `tack::default_device()`. `tack::fence();`
inline void fence() { fence(default_device()); }

/// Waits for the work queued on stream `s` only; the same as `s.synchronize()`. `tack::fence(s);`
inline void fence(const stream& s) { s.synchronize(); }

}  // namespace tack
