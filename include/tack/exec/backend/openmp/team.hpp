// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
#pragma once
/// @file The one place the OpenMP backend opens a parallel region.
///
/// Every OpenMP algorithm is written as a body `body(thread, threads)` run by each member of a
/// team; the work it takes depends only on `thread`, `threads` and the problem, never on timing.
/// In a translation unit compiled without OpenMP (nvcc in a CUDA build passes no `-fopenmp` to
/// the host compiler unless told to) the pragmas are not seen: the body then runs once, as thread
/// 0 of 1, and the results are the same, since the decompositions do not depend on the team size.

#include <tack/core/index.hpp>
#include <tack/exec/backend/cpu/blocks.hpp>  // with_local_kernel

#include <type_traits>

#if defined(_OPENMP)
#include <omp.h>
#endif

namespace tack::detail {

/// Runs `body(t, team)` on each thread `t` of a team of up to `requested` threads. The body must
/// not throw (OpenMP terminates the program when an exception leaves a region): bodies catch
/// into a `first_exception`. Inside an enclosing parallel region the body runs on the calling
/// thread alone, so a kernel launched from a user's OpenMP thread does not oversubscribe.
template <class Body>
void openmp_team(int requested, const Body& body) noexcept {
#if defined(_OPENMP)
  if (requested > 1 && !omp_in_parallel()) {
#pragma omp parallel num_threads(requested)
    body(omp_get_thread_num(), omp_get_num_threads());
    return;
  }
#endif
  (void)requested;
  body(0, 1);
}

/// The part `[begin, end)` of `[0, n)` thread `t` of `team` takes: contiguous, balanced to within
/// one index, computed without overflow.
struct thread_share {
  index_t begin;
  index_t end;
  thread_share(index_t n, int t, int team) noexcept {
    const index_t q = n / team;
    const index_t r = n % team;
    begin = t * q + (t < r ? t : r);
    end = begin + q + (t < r ? 1 : 0);
  }
};

}  // namespace tack::detail
