// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
#pragma once
/// @file The GPU backend's `parallel_for` (CUDA and HIP, one source): one grid-stride kernel
/// template (each thread takes indices `t, t + grid, t + 2 grid, ...`, so consecutive threads touch
/// consecutive elements and any `n` fits a bounded grid). Ranges run the same loop over the flat
/// index and decode it. Synchronizes before returning unless a `tack::stream` is current
/// (exec/backend/gpu/launch.hpp).

#include <tack/exec/backend.hpp>

#if TACK_IMPL_GPU_KERNELS

#include <tack/core/index.hpp>
#include <tack/exec/backend.hpp>
#include <tack/exec/backend/gpu/launch.hpp>
#include <tack/exec/range.hpp>

namespace tack::backend::gpu {

/// `f(i)` for every `i < n`, grid-stride.
template <class F>
__global__ void for_kernel(index_t n, F f) {
  const index_t stride = static_cast<index_t>(gridDim.x) * blockDim.x;
  for (index_t i = static_cast<index_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += stride) {
    f(i);
  }
}

/// `f(i, j[, k])` over a range, grid-stride over the flat index.
template <int Rank, class F>
__global__ void for_range_kernel(range<Rank> r, index_t n, F f) {
  const index_t stride = static_cast<index_t>(gridDim.x) * blockDim.x;
  for (index_t t = static_cast<index_t>(blockIdx.x) * blockDim.x + threadIdx.x; t < n;
       t += stride) {
    tack::detail::call_at_flat_index(r, t, f);
  }
}

}  // namespace tack::backend::gpu

namespace tack::detail {

template <>
struct parallel_for_impl<tack::backend::gpu::api::backend_tag> {
  template <class F>
  static void run(index_t n, const F& f) {
    namespace bc = tack::backend::gpu;
    constexpr const char* what = "tack::parallel_for on " TACK_IMPL_GPU_VENDOR;
    const bc::work_stream ws = bc::current_work_stream(what);
    bc::for_kernel<<<bc::grid_for(n), bc::block_threads, 0, ws.handle>>>(n, f);
    bc::finish(ws, what);
  }
  template <int Rank, class F>
  static void run(const range<Rank>& r, const F& f) {
    namespace bc = tack::backend::gpu;
    const index_t n = r.size();
    constexpr const char* what = "tack::parallel_for on " TACK_IMPL_GPU_VENDOR;
    const bc::work_stream ws = bc::current_work_stream(what);
    bc::for_range_kernel<<<bc::grid_for(n), bc::block_threads, 0, ws.handle>>>(r, n, f);
    bc::finish(ws, what);
  }
};

}  // namespace tack::detail

#endif  // TACK_IMPL_GPU_KERNELS
