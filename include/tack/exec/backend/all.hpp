// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
#pragma once
/// @file The backend registry: every backend this translation unit can use (serial always, OpenMP
/// when tack is built with it, the GPU backend (CUDA or HIP, one source in exec/backend/gpu/ over a
/// vendor's name layer) in a build with it and only under its compiler, nvcc or hipcc, whose
/// kernels are templates only that compiler builds), and `detail::with_backend_of`, which picks
/// one for a device.
/// A new backend is a folder under exec/backend/ plus its lines here (docs/architecture.md,
/// "Adding a backend").

#include <tack/config.hpp>

#include <tack/exec/backend/serial/parallel_for.hpp>
#include <tack/exec/backend/serial/parallel_reduce.hpp>
#include <tack/exec/backend/serial/parallel_scan.hpp>

#if TACK_HAS_OPENMP
#include <tack/exec/backend/openmp/parallel_for.hpp>
#include <tack/exec/backend/openmp/parallel_reduce.hpp>
#include <tack/exec/backend/openmp/parallel_scan.hpp>
#endif

#include <tack/exec/backend.hpp>

#if TACK_IMPL_GPU_KERNELS
#include <tack/exec/backend/gpu/parallel_for.hpp>
#include <tack/exec/backend/gpu/parallel_reduce.hpp>
#include <tack/exec/backend/gpu/parallel_scan.hpp>
#endif
// Always: in a translation unit that cannot run GPU kernels it refuses GPU devices, saying why.
#include <tack/exec/backend/gpu/device.hpp>

#include <tack/exec/threads.hpp>
#include <tack/memory/device.hpp>

#include <string>

namespace tack::detail {
TACK_IMPL_KERNEL_ABI_BEGIN

/// Calls `fn(tag)` with the backend that runs kernels on `d`, and returns its result. The CPU runs
/// OpenMP when tack is built with it and more than one thread is configured, else serial; a CUDA
/// or HIP device goes to the GPU backend (`with_gpu_backend`, which refuses with a `device_error`
/// naming `op` and the device where the build or this translation unit cannot run its kernels).
/// `with_backend_of(d, "tack::sum", [&](auto b) {...});`
template <class Fn>
decltype(auto) with_backend_of(const device& d, const char* op, Fn&& fn) {
  if (d.is_cpu()) {
#if TACK_HAS_OPENMP
    if (num_threads() > 1) return fn(openmp_backend{});
#endif
    return fn(serial_backend{});
  }
  if (d.is_gpu()) return with_gpu_backend(d, op, fn);
  throw device_error(std::string(op) + " on " + d.str() +
                     ": no backend runs kernels on this kind "
                     "of device");
}

TACK_IMPL_KERNEL_ABI_END
}  // namespace tack::detail
