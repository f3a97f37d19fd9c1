// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
#pragma once
/// @file The serial backend's `parallel_reduce`: the same fixed blocks and pairwise tree as the
/// OpenMP backend (exec/backend/cpu/blocks.hpp), so both give bit-identical results, evaluated
/// on the calling thread without storing partials.

#include <tack/core/index.hpp>
#include <tack/exec/backend.hpp>
#include <tack/exec/backend/cpu/blocks.hpp>

namespace tack::detail {

template <>
struct parallel_reduce_impl<serial_backend> {
  template <class T, class F, class Op>
  static T run(index_t n, const F& f, const Op& op) {
    const cpu_blocks blocks(n);
    return reduce_blocks<T>(blocks, 0, blocks.count, f, op);
  }
};

}  // namespace tack::detail
