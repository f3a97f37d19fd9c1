// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
#pragma once
/// @file The GPU backend's `parallel_scan` (CUDA and HIP, one source): a deterministic three-pass
/// blocked scan (not CUB's DeviceScan or rocPRIM's scan, whose decoupled look-back combines
/// floating-point prefixes in an order that depends on timing). Pass 1 reduces each block of
/// `gpu_blocks` (as `parallel_reduce` does: operands in index order unless the op commutes); pass
/// 2, one thread, combines `init` and the block sums in block order; pass 3 scans each block in
/// tiles of `block_threads` (a Hillis-Steele scan in shared memory plus the carried prefix) and
/// calls `store(i, exclusive, inclusive)`. Needs `Op::identity<T>()`. Waits for its stream before
/// returning (it returns the total).

#include <tack/exec/backend.hpp>

#if TACK_IMPL_GPU_KERNELS

#include <tack/core/index.hpp>
#include <tack/exec/backend.hpp>
#include <tack/exec/backend/gpu/launch.hpp>
#include <tack/exec/backend/gpu/parallel_reduce.hpp>

namespace tack::backend::gpu {

/// `prefix[0] = init`, `prefix[b + 1] = op(prefix[b], sums[b])`: one thread, `count <= 1024`.
template <class T, class Op>
__global__ void scan_block_sums_kernel(index_t count, T init, Op op, const T* sums, T* prefix) {
  T running = init;
  prefix[0] = running;
  for (index_t b = 0; b < count; ++b) {
    running = op(running, sums[b]);
    prefix[b + 1] = running;
  }
}

/// Scans block `b` of `[0, n)` from `prefix[b]`; launched with `count` thread blocks. The last
/// block writes where its scan ends to `*total`, so that the total is the last inclusive value bit
/// for bit (pass 1 groups a floating-point sum otherwise).
template <class T, class V, class S, class Op>
__global__ void scan_blocks_kernel(index_t n, index_t count, V value, S store, Op op,
                                   const T* prefix, T* total) {
  alignas(T) __shared__ unsigned char raw[block_threads * sizeof(T)];
  T* s = reinterpret_cast<T*>(raw);
  const index_t b = blockIdx.x;
  const index_t end = block_begin(n, count, b + 1);
  const int t = static_cast<int>(threadIdx.x);
  T carry = prefix[b];
  for (index_t tile = block_begin(n, count, b); tile < end; tile += block_threads) {
    const index_t i = tile + t;
    s[t] = i < end ? static_cast<T>(value(i)) : Op::template identity<T>();
    __syncthreads();
    // Inclusive scan of the tile, earlier operand first (the op need not commute).
    for (int offset = 1; offset < block_threads; offset *= 2) {
      T earlier = s[t];
      if (t >= offset) earlier = s[t - offset];
      __syncthreads();
      if (t >= offset) s[t] = op(earlier, s[t]);
      __syncthreads();
    }
    if (i < end) {
      const T exclusive = t == 0 ? carry : op(carry, s[t - 1]);
      store(i, exclusive, op(carry, s[t]));
    }
    const index_t valid = end - tile < block_threads ? end - tile : block_threads;
    carry = op(carry, s[valid - 1]);
    __syncthreads();  // s is rewritten by the next tile
  }
  if (b + 1 == count && t == 0) *total = carry;
}

}  // namespace tack::backend::gpu

namespace tack::detail {

template <>
struct parallel_scan_impl<tack::backend::gpu::api::backend_tag> {
  template <class T, class V, class S, class Op>
  static T run(index_t n, T init, const V& value, const S& store, const Op& op) {
    namespace bc = tack::backend::gpu;
    bc::require_device_reducible<T, Op>();
    constexpr const char* what = "tack::parallel_scan on " TACK_IMPL_GPU_VENDOR;
    const bc::work_stream ws = bc::current_work_stream(what);
    const bc::gpu_blocks blocks(n);
    const auto count = static_cast<std::size_t>(blocks.count);
    bc::scratch<T> sums(count, what);
    bc::scratch<T> prefix(count + 1, what);
    const auto grid = static_cast<unsigned>(blocks.count);
    bc::reduce_blocks_kernel<T>
        <<<grid, bc::block_threads, 0, ws.handle>>>(n, blocks.count, value, op, sums.data());
    bc::check(bc::api::get_last_error(), what);
    bc::scan_block_sums_kernel<T>
        <<<1, 1, 0, ws.handle>>>(blocks.count, init, op, sums.data(), prefix.data());
    bc::check(bc::api::get_last_error(), what);
    // prefix[count] (pass 2's total) is read by no block: the last block overwrites it.
    bc::scan_blocks_kernel<T><<<grid, bc::block_threads, 0, ws.handle>>>(
        n, blocks.count, value, store, op, prefix.data(), prefix.data() + count);
    bc::check(bc::api::get_last_error(), what);
    return prefix.read(count, ws, what);
  }
};

}  // namespace tack::detail

#endif  // TACK_IMPL_GPU_KERNELS
