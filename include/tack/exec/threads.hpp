// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
#pragma once
/// @file How many threads the CPU backend runs.
///
/// The count starts from the environment variable `TACK_NUM_THREADS` when it is set, else from
/// OpenMP's own default (`omp_get_max_threads()`, which honours `OMP_NUM_THREADS`). tack passes it
/// to each parallel region (`num_threads` clause) and never changes OpenMP's global settings, so a
/// program's own OpenMP code is not affected. Without OpenMP the CPU backend runs one thread.

namespace tack {

/// The number of threads CPU kernels run on (1 when tack is built without OpenMP).
/// Reads `TACK_NUM_THREADS` on first use; a malformed value is a `value_error` naming it.
/// `int t = tack::num_threads();`
int num_threads();

/// Sets the number of threads CPU kernels run on, for the whole process. `n < 1` is a
/// `value_error`. Without OpenMP the value is checked and ignored (CPU kernels run one thread).
/// `tack::set_num_threads(4);`
void set_num_threads(int n);

namespace detail {

/// Parses a thread count as `TACK_NUM_THREADS` holds it: a decimal integer >= 1, surrounding
/// blanks allowed. Anything else is a `value_error` naming `TACK_NUM_THREADS` and the text.
int parse_num_threads(const char* text);

/// The count a process starts with: `TACK_NUM_THREADS` if set and not empty, else OpenMP's
/// default, else 1. Reads the environment at each call (tests use it).
int initial_num_threads();

}  // namespace detail
}  // namespace tack
