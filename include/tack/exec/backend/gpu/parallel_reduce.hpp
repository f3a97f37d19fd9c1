// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
#pragma once
/// @file The GPU backend's `parallel_reduce` (CUDA and HIP, one source): deterministic two-pass
/// block reduction (not CUB's or rocPRIM's device reduce, whose grouping may change with the GPU
/// and the library version).
/// Pass 1: block `b` of `gpu_blocks` (fixed by `n`) is reduced by one thread block — each thread
/// strides over the block's indices, then a shared-memory tree combines the 256 partials (for an
/// op that does not commute: tiles of consecutive indices, each reduced by a tree of neighbours,
/// so that operands stay in index order). Pass 2: one thread block combines the block partials the
/// same way. The grouping depends on `n` alone,
/// so repeated runs (and runs on other GPUs) give bit-identical results. Needs `Op::identity<T>()`
/// (threads with no index start from it). Synchronizes before returning.

#include <tack/exec/backend.hpp>

#if TACK_IMPL_GPU_KERNELS

#include <tack/core/index.hpp>
#include <tack/exec/backend.hpp>
#include <tack/exec/backend/gpu/launch.hpp>
#include <tack/exec/ops.hpp>

#include <type_traits>

namespace tack::backend::gpu {

/// Combines the `block_threads` values of `s` (shared memory) in a fixed tree; the result is in
/// `s[0]` for every thread after the call.
template <class T, class Op>
__device__ inline void block_tree_reduce(T* s, const Op& op) {
  __syncthreads();
  for (int width = block_threads / 2; width > 0; width /= 2) {
    if (static_cast<int>(threadIdx.x) < width)
      s[threadIdx.x] = op(s[threadIdx.x], s[threadIdx.x + width]);
    __syncthreads();
  }
}

/// `partials[b]` = the combination of `f(i)` over block `b` of `count` blocks of `[0, n)`;
/// launched with `count` thread blocks of `block_threads` threads. A commutative op
/// (`ops::commutative_v`): each thread strides over the block, then one tree combines the
/// threads' partials. Any other op keeps its operands in index order: the block is read in tiles
/// of `block_threads` consecutive indices, each tile combined by a tree of neighbours (`s[t]` with
/// `s[t + stride]`) and carried into the block's result in tile order.
template <class T, class F, class Op>
__global__ void reduce_blocks_kernel(index_t n, index_t count, F f, Op op, T* partials) {
  alignas(T) __shared__ unsigned char raw[block_threads * sizeof(T)];
  T* s = reinterpret_cast<T*>(raw);
  const index_t b = blockIdx.x;
  const index_t end = block_begin(n, count, b + 1);
  const int t = static_cast<int>(threadIdx.x);
  if constexpr (ops::commutative_v<Op, T>) {
    T acc = Op::template identity<T>();
    for (index_t i = block_begin(n, count, b) + t; i < end; i += block_threads) {
      acc = op(acc, static_cast<T>(f(i)));
    }
    s[t] = acc;
    block_tree_reduce(s, op);
    if (t == 0) partials[b] = s[0];
  } else {
    T carry = Op::template identity<T>();  // op(e, x) == x: a left identity is enough
    for (index_t tile = block_begin(n, count, b); tile < end; tile += block_threads) {
      const int valid = end - tile < block_threads ? static_cast<int>(end - tile) : block_threads;
      if (t < valid) s[t] = static_cast<T>(f(tile + t));
      __syncthreads();
      for (int stride = 1; stride < valid; stride *= 2) {  // valid is the same for every thread
        if (t % (2 * stride) == 0 && t + stride < valid) s[t] = op(s[t], s[t + stride]);
        __syncthreads();
      }
      carry = op(carry, s[0]);
      __syncthreads();  // s is rewritten by the next tile
    }
    if (t == 0) partials[b] = carry;
  }
}

/// Reads stored partials as a kernel input.
template <class T>
struct partial_reader {
  const T* data;
  __device__ T operator()(index_t i) const { return data[i]; }
};

/// Requirements of the element type and op on the GPU, checked once per instantiation.
template <class T, class Op>
constexpr void require_device_reducible() {
  static_assert(std::is_trivially_copyable_v<T>,
                "tack::parallel_reduce on " TACK_IMPL_GPU_VENDOR
                ": the value type must be trivially copyable (a "
                "scalar, tack::vec or tack::mat, or a plain struct of them)");
  static_assert(
      requires { Op::template identity<T>(); },
      "tack::parallel_reduce on " TACK_IMPL_GPU_VENDOR
      ": the op needs `template <class T> static T "
      "identity()` (threads without an index start from it); see tack::ops::plus");
}

}  // namespace tack::backend::gpu

namespace tack::detail {

template <>
struct parallel_reduce_impl<tack::backend::gpu::api::backend_tag> {
  template <class T, class F, class Op>
  static T run(index_t n, const F& f, const Op& op) {
    namespace bc = tack::backend::gpu;
    bc::require_device_reducible<T, Op>();
    constexpr const char* what = "tack::parallel_reduce on " TACK_IMPL_GPU_VENDOR;
    const bc::work_stream ws = bc::current_work_stream(what);
    const bc::gpu_blocks blocks(n);
    bc::scratch<T> partials(static_cast<std::size_t>(blocks.count) + 1, what);
    T* result = partials.data() + blocks.count;
    bc::reduce_blocks_kernel<T>
        <<<static_cast<unsigned>(blocks.count), bc::block_threads, 0, ws.handle>>>(
            n, blocks.count, f, op, partials.data());
    bc::check(bc::api::get_last_error(), what);
    bc::reduce_blocks_kernel<T><<<1, bc::block_threads, 0, ws.handle>>>(
        blocks.count, index_t{1}, bc::partial_reader<T>{partials.data()}, op, result);
    bc::check(bc::api::get_last_error(), what);
    return partials.read(static_cast<std::size_t>(blocks.count), ws, what);
  }
};

}  // namespace tack::detail

#endif  // TACK_IMPL_GPU_KERNELS
