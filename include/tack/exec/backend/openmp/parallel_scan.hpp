// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
#pragma once
/// @file The OpenMP backend's `parallel_scan`: two passes over the fixed blocks of `cpu_blocks`.
/// Pass 1 reduces each block (pairwise, as `parallel_reduce` does, operands in index order unless
/// the op commutes); the block prefixes are then combined in block order on the calling thread;
/// pass 2 scans each block in index order from its prefix and calls `store`; the total is where
/// the last block's scan ends. The result depends on `n` only, not on the number of threads. With
/// one thread the scan is the serial backend's single pass (floating-point results may then differ
/// in the last bits from a run on several threads: the groupings differ).

#include <tack/core/index.hpp>
#include <tack/exec/backend.hpp>
#include <tack/exec/backend/openmp/team.hpp>
#include <tack/exec/backend/cpu/blocks.hpp>
#include <tack/exec/threads.hpp>

#include <cstddef>
#include <memory>

namespace tack::detail {

template <>
struct parallel_scan_impl<openmp_backend> {
  template <class T, class V, class S, class Op>
  static T run(index_t n, T init, const V& value, const S& store, const Op& op) {
    const cpu_blocks blocks(n);
    const int requested = num_threads();
    if (requested <= 1 || blocks.count == 1) {
      return scan_sequential<T>(0, n, init, value, store, op);
    }
    const int threads = blocks.count < requested ? static_cast<int>(blocks.count) : requested;
    const auto count = static_cast<std::size_t>(blocks.count);
    // prefix[b] is the combination of init and every block before b; prefix[count] the total.
    const std::unique_ptr<T[]> prefix(new T[count + 1]);  // not vector: vector<bool>
    first_exception failure;
    // Pass 1: block sums into prefix[b + 1].
    openmp_team(threads, [&](int t, int team) {
      try {
        const index_t last = blocks.first_of_thread(t + 1, team);
        for (index_t b = blocks.first_of_thread(t, team); b < last; ++b) {
          if (failure.stopped()) return;
          prefix[static_cast<std::size_t>(b) + 1] =
              reduce_pairwise<T>(blocks.begin(b), blocks.begin(b + 1), value, op);
        }
      } catch (...) {
        failure.capture();
      }
    });
    failure.rethrow_if_failed();
    prefix[0] = init;
    for (std::size_t b = 0; b < count; ++b) prefix[b + 1] = op(prefix[b], prefix[b + 1]);
    // Pass 2: each block scanned from its prefix.
    openmp_team(threads, [&](int t, int team) {
      try {
        with_local_kernel(store, [&](const S& local_store) {
          const index_t last = blocks.first_of_thread(t + 1, team);
          for (index_t b = blocks.first_of_thread(t, team); b < last; ++b) {
            if (failure.stopped()) return;
            const T after =
                scan_sequential<T>(blocks.begin(b), blocks.begin(b + 1),
                                   prefix[static_cast<std::size_t>(b)], value, local_store, op);
            // The total is the last block's running prefix, so that it equals the last
            // inclusive value bit for bit (pass 1 groups floating-point sums otherwise).
            if (b + 1 == blocks.count) prefix[count] = after;
          }
        });
      } catch (...) {
        failure.capture();
      }
    });
    failure.rethrow_if_failed();
    return prefix[count];
  }
};

}  // namespace tack::detail
