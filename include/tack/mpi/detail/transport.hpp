// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
#pragma once
/// @file The MPI calls tack's templates need, behind functions compiled in the `tack::mpi`
/// library (src/mpi/transport.cpp), so that the public headers compile without `<mpi.h>`. Counts
/// are bytes or scalars; a count MPI cannot represent (over `INT_MAX`) is a `value_error`.

#include <tack/core/index.hpp>
#include <tack/mpi/communicator.hpp>
#include <tack/types/scalar.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

namespace tack::mpi::detail {

using tack::scalar_kind;

/// The scalar kind of an MPI reduction's type (tack's scalar types only).
template <class S>
constexpr scalar_kind kind_of() {
  if constexpr (is_scalar_v<S>) {
    return scalar_kind_of_v<S>;
  } else {
    static_assert(is_scalar_v<S>,
                  "tack::mpi: reductions take tack's scalar types (float, double, bool, the "
                  "fixed-width integers); convert with astype<U>() first");
    return scalar_kind::f32;
  }
}

enum class reduce_op : int { sum, min, max };

/// `MPI_Allreduce` of `count` scalars of kind `k`.
void allreduce(const communicator& c, const void* in, void* out, int count, scalar_kind k,
               reduce_op op, const char* what);
/// `MPI_Allgather` of `bytes` bytes from every rank into `out` (`size() * bytes`).
void allgather(const communicator& c, const void* in, std::size_t bytes, void* out,
               const char* what);
/// `MPI_Bcast` of `bytes` bytes from `root`.
void bcast(const communicator& c, void* data, std::size_t bytes, int root, const char* what);
/// `MPI_Gatherv` of bytes: rank r sends `counts[r]` bytes, placed at `displs[r]` on `root`.
void gatherv(const communicator& c, const void* in, std::size_t bytes, void* out,
             const std::vector<std::size_t>& counts, const std::vector<std::size_t>& displs,
             int root, const char* what);
/// `MPI_Scatterv` of bytes: the reverse of `gatherv`.
void scatterv(const communicator& c, const void* in, const std::vector<std::size_t>& counts,
              const std::vector<std::size_t>& displs, void* out, std::size_t bytes, int root,
              const char* what);
/// `MPI_Alltoallv` of bytes (counts and displacements per rank).
void alltoallv(const communicator& c, const void* send, const std::vector<std::size_t>& scounts,
               const std::vector<std::size_t>& sdispls, void* recv,
               const std::vector<std::size_t>& rcounts, const std::vector<std::size_t>& rdispls,
               const char* what);
/// A blocking `MPI_Sendrecv` of bytes (the reference the ghost-exchange benchmark measures).
void sendrecv(const communicator& c, const void* send, std::size_t sbytes, int dest, void* recv,
              std::size_t rbytes, int source, int tag, const char* what);
/// `MPI_Wtime()`.
double wtime();
/// `MPI_Abort` (tests of a failing rank).
[[noreturn]] void abort(const communicator& c, int code);

/// A committed MPI derived datatype (`MPI_Type_create_subarray` over elements of
/// `element_bytes` bytes, row-major); freed with its last copy.
class datatype {
public:
  datatype() = default;
  static datatype subarray(const std::array<index_t, 3>& sizes,
                           const std::array<index_t, 3>& subsizes,
                           const std::array<index_t, 3>& starts, std::size_t element_bytes);
  struct state;
  const std::shared_ptr<state>& get() const noexcept { return state_; }

private:
  std::shared_ptr<state> state_;
};

/// Non-blocking sends and receives posted on user memory, completed together by `wait_all`.
/// Reused across exchanges (the request vector keeps its capacity).
class request_list {
public:
  request_list();
  ~request_list();
  request_list(request_list&&) noexcept;
  request_list& operator=(request_list&&) noexcept;
  void irecv(const communicator& c, void* p, std::size_t bytes, int source, int tag,
             const char* what);
  void isend(const communicator& c, const void* p, std::size_t bytes, int dest, int tag,
             const char* what);
  void irecv(const communicator& c, void* p, const datatype& t, int source, int tag,
             const char* what);
  void isend(const communicator& c, const void* p, const datatype& t, int dest, int tag,
             const char* what);
  /// Waits for every posted request, then forgets them.
  void wait_all(const char* what);
  std::size_t size() const noexcept;

private:
  struct impl;
  std::unique_ptr<impl> impl_;
};

/// Collective agreement: every rank passes its own `description` of what it is about to do (a
/// shape, a partition). When they differ, every rank throws the same `value_error`, naming `what`
/// and each distinct description with its ranks; no rank is left waiting. One `MPI_Allreduce` of
/// a 64-bit hash when they agree.
void agree(const communicator& c, const char* what, const std::string& description);

/// The 64-bit FNV-1a hash of `bytes` (what `agree` compares).
std::uint64_t hash_bytes(const void* p, std::size_t n, std::uint64_t h = 1469598103934665603ull);

/// The deterministic global sum (reductions of floating-point values): the sum over the global
/// scalar index space `[0, total)` in one fixed binary tree (aligned blocks of 2^k values, summed
/// pairwise), whatever the ranks own. This rank owns the `count` values starting at global index
/// `first`; `b` (optional) makes it a dot product of paired values. `R` is `float` or `double`.
/// Rank ranges must be contiguous in rank order (`value_error` otherwise).
template <class R, class S>
R ordered_sum(const communicator& c, const S* a, const S* b, index_t first, index_t count,
              index_t total, const char* what);

/// `MPI_Cart_create` over `c` (no reordering) with `dims` (zeros chosen by `MPI_Dims_create`,
/// written back), the calling rank's `coords`, and its neighbors `[dim][0: lower, 1: upper]`
/// (-1 where there is none). The result is owned.
communicator cart_create(const communicator& c, std::array<int, 3>& dims,
                         const std::array<bool, 3>& periodic, std::array<int, 3>& coords,
                         std::array<std::array<int, 2>, 3>& neighbors, const char* what);

/// The CUDA support that the MPI library reports (`environment::cuda_aware`).
bool cuda_aware();

}  // namespace tack::mpi::detail
