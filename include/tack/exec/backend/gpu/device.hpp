// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
#pragma once
/// @file How `with_backend_of` (exec/backend/all.hpp) reaches a GPU (CUDA or HIP) device: under
/// the GPU compiler of the build's GPU backend, by making the device current and calling
/// `fn(tag)` with that backend's tag; elsewhere by a `device_error` that says what to change.

#include <tack/config.hpp>
#include <tack/core/error.hpp>
#include <tack/detail/gpu_runtime.hpp>
#include <tack/exec/backend.hpp>
#include <tack/memory/device.hpp>

#include <string>

#if TACK_IMPL_GPU_KERNELS
#include <tack/exec/backend/gpu/launch.hpp>
#endif

namespace tack::detail {
TACK_IMPL_KERNEL_ABI_BEGIN

/// Calls `fn(tag)` (`tack::cuda_backend{}` or `tack::hip_backend{}`) with GPU device `d` current,
/// or throws `device_error` naming `op` and `d` when the device is missing, its kind is not the
/// build's GPU backend, or this translation unit cannot run that backend's kernels. The return
/// type is that of `fn(serial_backend{})`, so the CPU and GPU paths of a caller agree.
/// `return with_gpu_backend(d, "tack::sum", fn);`
template <class Fn>
auto with_gpu_backend(const device& d, const char* op, Fn& fn) -> decltype(fn(serial_backend{})) {
  if (d.kind() != gpu_device_kind || !is_available(d)) {
    throw device_error(std::string(op) + " on " + d.str() + ": the device is not available" +
                       gpu_unavailable_reason(d));
  }
#if TACK_IMPL_GPU_KERNELS
  const tack::backend::gpu::device_scope scope(d.id());
  return fn(tack::backend::gpu::api::backend_tag{});
#elif TACK_HAS_CUDA
  throw device_error(std::string(op) + " on " + d.str() +
                     ": this translation unit was not compiled by nvcc, so it cannot run kernels "
                     "on a CUDA device; compile it as CUDA (a .cu file, or "
                     "set_source_files_properties(... LANGUAGE CUDA))");
#else
  throw device_error(std::string(op) + " on " + d.str() +
                     ": this translation unit was not compiled by hipcc, so it cannot run kernels "
                     "on a HIP device; compile it as HIP (a .hip file, or "
                     "set_source_files_properties(... LANGUAGE HIP))");
#endif
}

TACK_IMPL_KERNEL_ABI_END
}  // namespace tack::detail
