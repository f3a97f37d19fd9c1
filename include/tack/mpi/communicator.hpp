// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
#pragma once
/// @file `tack::mpi::environment` (MPI_Init/MPI_Finalize as an object), `tack::mpi::communicator`
/// (an MPI communicator as a shared handle) and `tack::mpi::mpi_error`. These headers do not
/// include `<mpi.h>`: the MPI calls live in the `tack::mpi` library; `tack/mpi/native.hpp` converts
/// to and from `MPI_Comm`.

#include <tack/core/error.hpp>

#include <memory>
#include <string>

namespace tack::mpi {

/// An MPI call failed: the message names tack's operation, the MPI function and MPI's own error
/// string. `catch (const tack::mpi::mpi_error& e) { e.code(); }`
class mpi_error : public tack::error {
public:
  mpi_error(const std::string& what, int code) : tack::error(what), code_(code) {}
  /// The MPI error code (`MPI_ERR_TRUNCATE`, ...).
  int code() const noexcept { return code_; }

private:
  int code_;
};

/// Initializes MPI (thread level `MPI_THREAD_FUNNELED`) unless the application already did, and
/// finalizes it on destruction only if it initialized it. Communicators must die before it.
/// `int main(int argc, char** argv) { tack::mpi::environment env(argc, argv); ... }`
class environment {
public:
  environment();
  environment(int& argc, char**& argv);
  ~environment();
  environment(const environment&) = delete;
  environment& operator=(const environment&) = delete;

  /// Whether MPI is initialized and not yet finalized.
  static bool initialized();
  /// Whether the MPI library reports that it accepts CUDA device pointers (Open MPI's
  /// `MPIX_Query_cuda_support`); false when the library cannot say.
  static bool cuda_aware();
  /// The MPI library's version string (`MPI_Get_library_version`), first line.
  static std::string library_version();

private:
  bool owns_ = false;
};

namespace detail {
struct comm_state;  // src/mpi/transport.cpp: the MPI_Comm and whether tack frees it
}

/// An MPI communicator. Copies share it (like `tack::array`); the last copy frees what the handle
/// owns (a duplicate or a Cartesian communicator), never a borrowed one. tack sets
/// `MPI_ERRORS_RETURN` on the communicators it owns, so a failed call throws `mpi_error` instead of
/// aborting. `auto comm = tack::mpi::communicator::world(); int r = comm.rank();`
class communicator {
public:
  /// `MPI_COMM_WORLD`, borrowed; tack's calls on it return their errors (`MPI_ERRORS_RETURN` is set
  /// on it). `auto world = tack::mpi::communicator::world();`
  static communicator world();
  /// An empty handle (no communicator); every call on it is a `value_error`.
  communicator() = default;

  /// This process's rank in the communicator.
  int rank() const;
  /// The number of processes.
  int size() const;
  /// Waits until every rank has called it. `comm.barrier();`
  void barrier() const;
  /// A duplicate (a new context: tack's messages never match the application's); owned.
  communicator dup() const;
  /// `MPI_Comm_split`: ranks with the same `color` form a communicator, ordered by `key`.
  communicator split(int color, int key) const;
  /// Whether the handle holds a communicator.
  bool valid() const noexcept { return static_cast<bool>(state_); }
  /// `communicator rank 1 of 4` (how errors name it).
  std::string describe() const;
  /// Whether `a` and `b` are copies of one handle (they share its communicator).
  friend bool operator==(const communicator& a, const communicator& b) noexcept {
    return a.state_ == b.state_;
  }

  /// The shared state (the `MPI_Comm` lives there); for tack's own translation units.
  const std::shared_ptr<detail::comm_state>& state() const noexcept { return state_; }
  explicit communicator(std::shared_ptr<detail::comm_state> s) : state_(std::move(s)) {}

private:
  std::shared_ptr<detail::comm_state> state_;
};

}  // namespace tack::mpi
