// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
#pragma once
/// @file The exactly rounded global sum (reductions of a `grid_array`'s floating-point values):
/// every rank adds its values into an exact fixed-point accumulator (integers, no rounding), the
/// accumulators are added across ranks by one `MPI_Allreduce` of 64-bit integers, and the total is
/// rounded once, to nearest. Exact addition does not depend on order or grouping, so the result is
/// the same bits for every number of ranks and every block decomposition. src/mpi/exact_sum.cpp.

#include <tack/core/index.hpp>
#include <tack/mpi/communicator.hpp>

namespace tack::mpi::detail {

/// The scalars a rank owns: `n0 * n1` runs of `run` consecutive scalars; run `(i, j)` starts at
/// `i * s0 + j * s1` scalars from the first.
struct scalar_runs {
  index_t n0 = 0, n1 = 0, run = 0;
  index_t s0 = 0, s1 = 0;
};

/// The sum over every rank of its scalars `a` (or of the products `a[k] * b[k]` when `b` is not
/// null; `b` has the same runs), computed exactly and rounded once to `R` (`float` or `double`,
/// round to nearest, ties to even). Infinities and NaNs give what IEEE addition gives (NaN for
/// +inf plus -inf); an exact zero is +0. Collective.
template <class R, class S>
R exact_sum(const communicator& c, const S* a, const S* b, const scalar_runs& runs,
            const char* what);

}  // namespace tack::mpi::detail
