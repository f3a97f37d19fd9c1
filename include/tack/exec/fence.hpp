// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
#pragma once
/// @file `tack::fence`: wait until the work launched on a device is complete.
///
/// CPU kernels are complete when `parallel_for` returns, so a CPU fence does nothing. CUDA
/// launches synchronize before they return for now (exec/backend/cuda/launch.hpp); `fence` is still
/// the documented way to wait, so that callers stay correct when launches become asynchronous.

#include <tack/core/error.hpp>
#include <tack/detail/cuda_runtime.hpp>
#include <tack/memory/device.hpp>

#include <string>

namespace tack {

/// Waits for every kernel and copy launched on `d`. A CUDA device that is not available is a
/// `device_error`. `tack::fence(tack::cuda());`
/// On CUDA it waits for the current device (cudaDeviceSynchronize), which is the device of every
/// tack launch once the launch has returned.
inline void fence(const device& d) {
  if (d.is_cpu()) return;
  if (!is_available(d)) {
    throw device_error("tack::fence: device " + d.str() + " is not available" +
                       (TACK_HAS_CUDA ? "" : " (tack was built without CUDA)"));
  }
  detail::cuda_synchronize();
}

/// Waits for the work launched on `tack::default_device()`. `tack::fence();`
inline void fence() { fence(default_device()); }

}  // namespace tack
