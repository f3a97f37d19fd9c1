// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
#pragma once
/// @file The host/device annotation layer: every function a kernel may call is marked with these.

#include <tack/config.hpp>

/// 1 in a translation unit compiled by a GPU compiler: nvcc (CUDA) or clang in HIP mode (hipcc),
/// whichever GPU backend tack was built with (exec/backend.hpp's `TACK_IMPL_GPU_KERNELS` says
/// whether this one can run tack's kernels).
#if defined(__CUDACC__) || defined(__HIP__)
#define TACK_IMPL_GPU_COMPILER 1
#else
#define TACK_IMPL_GPU_COMPILER 0
#endif

// nvcc includes cuda_runtime.h in every translation unit; hipcc does not include HIP's runtime,
// which declares the device functions tack's device code calls (printf, atomicAdd, ...).
#if defined(__HIP__)
#include <hip/hip_runtime.h>
#endif

#if TACK_IMPL_GPU_COMPILER
/// Marks a function callable on the host and, under a GPU compiler (nvcc, hipcc), on the device.
#define TACK_HOST_DEVICE __host__ __device__
/// Marks a function callable only on the device (empty on the host compiler).
#define TACK_DEVICE __device__
#else
#define TACK_HOST_DEVICE
#define TACK_DEVICE
#endif

/// `TACK_INLINE int twice(int x) { return 2 * x; }` — inline, host and device.
#define TACK_INLINE inline TACK_HOST_DEVICE

/// `parallel_for(n, TACK_LAMBDA(tack::index_t i) { y[i] = 2 * x[i]; });`
/// Under nvcc this is an extended `__host__ __device__` lambda (built with `--extended-lambda`);
/// clang's HIP mode takes such lambdas as they are.
#define TACK_LAMBDA [=] TACK_HOST_DEVICE

// nvcc warns when a __host__ __device__ template calls a host-only function for an instantiation that
// is never used on the device; this pragma silences that for templates that forward user callables.
#if defined(__NVCC__)
#define TACK_EXEC_CHECK_DISABLE _Pragma("nv_exec_check_disable")
#else
#define TACK_EXEC_CHECK_DISABLE
#endif

/// True while compiling device code (the device pass of nvcc or of clang's HIP mode).
#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)
#define TACK_IMPL_DEVICE_PASS 1
#else
#define TACK_IMPL_DEVICE_PASS 0
#endif

#if defined(__GNUC__) || defined(__clang__)
#define TACK_IMPL_RESTRICT __restrict__
#define TACK_IMPL_ALWAYS_INLINE __attribute__((always_inline))
#else
#define TACK_IMPL_RESTRICT
#define TACK_IMPL_ALWAYS_INLINE
#endif

/// Force-inlined host/device function, for the few accessors that must vanish in hot loops.
#define TACK_FORCEINLINE inline TACK_IMPL_ALWAYS_INLINE TACK_HOST_DEVICE

// A host loop that must inline the whole kernel into itself: GCC otherwise leaves the call to a
// user's kernel out of line inside the backend's per-chunk loop, which costs a SoA kernel its
// vectorization (docs/decisions.md, "Kernels"). `noinline` keeps the attribute from being lost
// when the loop itself is inlined into its caller.
#if (defined(__GNUC__) || defined(__clang__)) && !TACK_IMPL_DEVICE_PASS
#define TACK_IMPL_FLATTEN_LOOP __attribute__((flatten, noinline))
#define TACK_IMPL_NOINLINE __attribute__((noinline))
#else
#define TACK_IMPL_FLATTEN_LOOP
#define TACK_IMPL_NOINLINE
#endif
