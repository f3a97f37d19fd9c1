// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
// What a tack::mpi::communicator holds, and the error helpers of src/mpi/*.cpp.
#pragma once

#include <tack/mpi/communicator.hpp>

#include <mpi.h>

#include <string>

namespace tack::mpi::detail {

struct comm_state {
  MPI_Comm comm = MPI_COMM_NULL;
  bool owned = false;  // freed by the last handle (a duplicate, a split, a Cartesian communicator)
  ~comm_state();
};

/// Throws `mpi_error` naming `what`, the MPI call and MPI's error string when `rc` is an error.
void check(int rc, const char* what, const char* call);
/// The handle's MPI_Comm; an empty handle is a `value_error` naming `what`.
MPI_Comm comm_of(const communicator& c, const char* what);
/// `n` as an MPI count; more than INT_MAX is a `value_error`.
int to_int(std::size_t n, const char* what, const char* name);
/// A `value_error` unless MPI is initialized and not finalized.
void require_initialized(const char* what);

}  // namespace tack::mpi::detail
