// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
#pragma once
/// @file How `with_backend_of` (exec/backend/all.hpp) reaches a CUDA device: under nvcc in a CUDA
/// build, by making the device current and calling `fn(cuda_backend{})`; elsewhere by a
/// `device_error` that says what to change.

#include <tack/config.hpp>
#include <tack/core/error.hpp>
#include <tack/exec/backend.hpp>
#include <tack/memory/device.hpp>

#include <string>

#if TACK_HAS_CUDA && defined(__CUDACC__)
#include <tack/detail/cuda_runtime.hpp>
#include <tack/exec/backend/cuda/launch.hpp>
#endif

namespace tack::detail {
TACK_IMPL_KERNEL_ABI_BEGIN

/// Calls `fn(tack::cuda_backend{})` with CUDA device `d` current, or throws `device_error` naming
/// `op` and `d` when the device is missing or this translation unit cannot run CUDA kernels.
/// The return type is that of `fn(serial_backend{})`, so the CPU and CUDA paths of a caller agree.
template <class Fn>
auto with_cuda_backend(const device& d, const char* op, Fn& fn) -> decltype(fn(serial_backend{})) {
#if TACK_HAS_CUDA && defined(__CUDACC__)
  if (!is_available(d)) {
    throw device_error(std::string(op) + " on " + d.str() + ": the device is not available (" +
                       std::to_string(detail::cuda_device_count()) + " CUDA devices found)");
  }
  const tack::backend::cuda::device_scope scope(d.id());
  return fn(cuda_backend{});
#elif TACK_HAS_CUDA
  throw device_error(std::string(op) + " on " + d.str() +
                     ": this translation unit was not compiled by nvcc, so it cannot run kernels "
                     "on a CUDA device; compile it as CUDA (a .cu file, or "
                     "set_source_files_properties(... LANGUAGE CUDA))");
#else
  throw device_error(std::string(op) + " on " + d.str() +
                     ": tack was built without CUDA; configure it with TACK_ENABLE_CUDA=ON on a "
                     "machine with nvcc, or run on tack::cpu()");
#endif
}

TACK_IMPL_KERNEL_ABI_END
}  // namespace tack::detail
