// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
#pragma once
/// @file `tack::mpi::from_native(MPI_Comm)` and `tack::mpi::native(communicator)`: tack's
/// communicator over one the application already has, and back. The only tack header that needs
/// `<mpi.h>` (the `tack::mpi` target puts MPI's include directory on the path); without it this
/// header declares nothing.

#if __has_include(<mpi.h>)
#include <mpi.h>
#include <tack/mpi/communicator.hpp>

namespace tack::mpi {

/// How `from_native` takes the application's communicator.
enum class adopt {
  /// Use it as it is: tack neither frees it nor changes its error handler (MPI errors then follow
  /// the application's handler, by default an abort).
  borrow,
  /// Use a duplicate (`MPI_Comm_dup`, collective): tack's messages never match the application's,
  /// errors throw `mpi_error`, and the last handle frees it.
  duplicate,
};

/// tack's handle of an application's communicator.
/// `auto comm = tack::mpi::from_native(my_comm, tack::mpi::adopt::duplicate);`
communicator from_native(MPI_Comm comm, adopt how = adopt::borrow);

/// The `MPI_Comm` of a tack communicator (owned by the handle: do not free it).
/// `MPI_Barrier(tack::mpi::native(comm));`
MPI_Comm native(const communicator& c);

}  // namespace tack::mpi
#endif
