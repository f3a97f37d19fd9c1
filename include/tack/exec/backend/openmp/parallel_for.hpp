// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
#pragma once
/// @file The OpenMP backend's `parallel_for`: a static partition of the iterations into one
/// contiguous share per thread (the cheapest schedule for the uniform kernels of array code),
/// each share run in chunks. Before each chunk a thread checks whether another has failed; the
/// first exception is rethrown on the calling thread after the team has joined.

#include <tack/core/index.hpp>
#include <tack/exec/backend.hpp>
#include <tack/exec/backend/openmp/team.hpp>
#include <tack/exec/backend/cpu/blocks.hpp>
#include <tack/exec/range.hpp>
#include <tack/exec/threads.hpp>

namespace tack::detail {

template <>
struct parallel_for_impl<openmp_backend> {
  /// Iterations between two checks for a failure in another thread.
  static constexpr index_t chunk = 4096;

  template <class F>
  static void run(index_t n, const F& f) {
    run_flat(n, f, [](const F& g, index_t begin, index_t end) TACK_IMPL_FLATTEN_LOOP {
      if constexpr (has_run_range<F>) {
        g.run_range(begin, end);
      } else {
        // The copy is made inside the noinline loop function: through the reference parameter,
        // every store of the kernel would force its pointers to be reloaded.
        with_local_kernel(g, [&](const F& k) {
          for (index_t i = begin; i < end; ++i) k(i);
        });
      }
    });
  }

  template <int Rank, class F>
  static void run(const range<Rank>& r, const F& f) {
    run_flat(r.size(), f, [r](const F& g, index_t begin, index_t end) {
      for_each_in_flat_range(r, begin, end, g);
    });
  }

private:
  // Runs `loop(f, begin, end)` over chunks of each thread's share of `[0, n)`.
  template <class F, class Loop>
  static void run_flat(index_t n, const F& f, const Loop& loop) {
    const int requested = num_threads();
    if (requested <= 1 || n <= 1) {
      with_local_kernel(f, [&](const F& local) { loop(local, 0, n); });  // exceptions propagate
      return;
    }
    const int threads = n < requested ? static_cast<int>(n) : requested;
    first_exception failure;
    openmp_team(threads, [&](int t, int team) {
      const thread_share share(n, t, team);
      try {
        with_local_kernel(f, [&](const F& local) {
          for (index_t begin = share.begin; begin < share.end; begin += chunk) {
            if (failure.stopped()) return;
            const index_t end = share.end - begin < chunk ? share.end : begin + chunk;
            loop(local, begin, end);
          }
        });
      } catch (...) {
        failure.capture();
      }
    });
    failure.rethrow_if_failed();
  }
};

}  // namespace tack::detail
