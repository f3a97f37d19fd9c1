// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
// The deterministic global sum (tack::mpi::sum, dot, mean of floating-point values): each rank's
// maximal nodes of the fixed tree (tack/mpi/detail/fixed_tree.hpp, which says why the result is
// bit-identical for every partition), joined by MPI_Allreduce with an operation that joins
// adjacent ranges. This file is compiled with -ffp-contract=off, as that header requires.

#include "state.hpp"

#include <tack/mpi/detail/fixed_tree.hpp>
#include <tack/mpi/detail/transport.hpp>

#include <mpi.h>

#include <string>

namespace tack::mpi::detail {
namespace {

// The MPI operation: inout = in (the lower ranks' range) joined with inout (the higher ranks').
void join_op(void* invec, void* inoutvec, int* len, MPI_Datatype*) {
  const auto* in = static_cast<const node_range*>(invec);
  auto* io = static_cast<node_range*>(inoutvec);
  for (int e = 0; e < *len; ++e) join(in[e], io[e]);
}

struct mpi_objects {
  MPI_Datatype type = MPI_DATATYPE_NULL;
  MPI_Op op = MPI_OP_NULL;
  mpi_objects() {
    check(MPI_Type_contiguous(static_cast<int>(sizeof(node_range)), MPI_BYTE, &type),
          "tack::mpi::sum", "MPI_Type_contiguous");
    check(MPI_Type_commit(&type), "tack::mpi::sum", "MPI_Type_commit");
    check(MPI_Op_create(&join_op, 0, &op), "tack::mpi::sum", "MPI_Op_create");
  }
};

const mpi_objects& objects() {
  static const mpi_objects o;
  return o;
}

}  // namespace

template <class R, class S>
R ordered_sum(const communicator& c, const S* a, const S* b, index_t first, index_t count,
              index_t total, const char* what) {
  static_assert(std::is_same_v<R, float> || std::is_same_v<R, double>);
  MPI_Comm comm = comm_of(c, what);
  if (first < 0 || count < 0 || first + count > total) {
    throw value_error(std::string(what) + ": values [" + std::to_string(first) + ", " +
                      std::to_string(first + count) + ") lie outside the global range [0, " +
                      std::to_string(total) + ")");
  }
  const node_range mine = local_nodes<R>(a, b, first, count, what);
  node_range all{};
  const auto& o = objects();
  check(MPI_Allreduce(&mine, &all, 1, o.type, o.op, comm), what, "MPI_Allreduce");
  return finish<R>(all, total, what);
}

#define TACK_IMPL_ORDERED_SUM(R, S)                                                                \
  template R ordered_sum<R, S>(const communicator&, const S*, const S*, index_t, index_t, index_t, \
                               const char*);
TACK_IMPL_ORDERED_SUM(float, float)
TACK_IMPL_ORDERED_SUM(double, double)
TACK_IMPL_ORDERED_SUM(double, float)
TACK_IMPL_ORDERED_SUM(double, std::int8_t)
TACK_IMPL_ORDERED_SUM(double, std::int16_t)
TACK_IMPL_ORDERED_SUM(double, std::int32_t)
TACK_IMPL_ORDERED_SUM(double, std::int64_t)
TACK_IMPL_ORDERED_SUM(double, std::uint8_t)
TACK_IMPL_ORDERED_SUM(double, std::uint16_t)
TACK_IMPL_ORDERED_SUM(double, std::uint32_t)
TACK_IMPL_ORDERED_SUM(double, std::uint64_t)
TACK_IMPL_ORDERED_SUM(double, bool)
#undef TACK_IMPL_ORDERED_SUM

}  // namespace tack::mpi::detail
