// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
#pragma once
/// @file Picks the name layer of the build's GPU backend for the shared GPU code: CUDA's
/// (exec/backend/cuda/api.hpp) under nvcc in a CUDA build, HIP's (exec/backend/hip/api.hpp) under
/// hipcc in a HIP build. Either defines `tack::backend::gpu::api` and `TACK_IMPL_GPU_NAME`.
/// Elsewhere it defines nothing: the GPU backend is only for translation units its compiler builds
/// (`TACK_IMPL_GPU_KERNELS`).

#include <tack/exec/backend.hpp>

#if TACK_HAS_CUDA && defined(__CUDACC__)
#include <tack/exec/backend/cuda/api.hpp>
#elif TACK_HAS_HIP && defined(__HIP__)
#include <tack/exec/backend/hip/api.hpp>
#endif
