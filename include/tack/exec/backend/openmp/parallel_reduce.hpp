// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
#pragma once
/// @file The OpenMP backend's `parallel_reduce`. Not OpenMP's `reduction` clause, whose combining
/// order is unspecified: the blocks of `cpu_blocks` (fixed by `n`) are dealt to the threads in
/// contiguous runs, each block is reduced pairwise with vectorizable leaves, and the stored block
/// partials are combined in a fixed pairwise tree after the team joins. The result is
/// bit-identical for every thread count and equal to the serial backend's.

#include <tack/core/index.hpp>
#include <tack/exec/backend.hpp>
#include <tack/exec/backend/openmp/team.hpp>
#include <tack/exec/backend/cpu/blocks.hpp>
#include <tack/exec/threads.hpp>

#include <cstddef>
#include <memory>

namespace tack::detail {

template <>
struct parallel_reduce_impl<openmp_backend> {
  template <class T, class F, class Op>
  static T run(index_t n, const F& f, const Op& op) {
    const cpu_blocks blocks(n);
    const int requested = num_threads();
    if (requested <= 1 || blocks.count == 1) {
      return reduce_blocks<T>(blocks, 0, blocks.count, f, op);
    }
    const int threads = blocks.count < requested ? static_cast<int>(blocks.count) : requested;
    // Not std::vector: vector<bool> has no data(). Nothing to initialize: every block stores.
    const std::unique_ptr<T[]> partials(new T[static_cast<std::size_t>(blocks.count)]);
    first_exception failure;
    openmp_team(threads, [&](int t, int team) {
      try {
        const index_t last = blocks.first_of_thread(t + 1, team);
        for (index_t b = blocks.first_of_thread(t, team); b < last; ++b) {
          if (failure.stopped()) return;
          partials[static_cast<std::size_t>(b)] =
              reduce_pairwise<T>(blocks.begin(b), blocks.begin(b + 1), f, op);
        }
      } catch (...) {
        failure.capture();
      }
    });
    failure.rethrow_if_failed();
    return combine_partials(partials.get(), blocks.count, op);
  }
};

}  // namespace tack::detail
