// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
#pragma once
/// @file Moving a `distributed_array` as a whole: `gather` to one rank, `scatter` from one rank,
/// `redistribute` to another partition. Collective; each agrees first (`value_error` on every rank
/// when the ranks pass different arrays or partitions).

#include <tack/mpi/distributed_array.hpp>

#include <string>
#include <vector>

namespace tack::mpi {
namespace detail {

template <class T, int Rank>
std::size_t row_bytes(const std::array<index_t, Rank>& global) {
  std::size_t n = sizeof(T);
  for (int d = 1; d < Rank; ++d) n *= static_cast<std::size_t>(global[static_cast<std::size_t>(d)]);
  return n;
}

/// `a`'s owned rows in host memory that MPI may write or read: the rows themselves, or a host
/// array to copy through (`staged` says which).
template <class T, int Rank>
array<T, Rank> host_rows(const array<T, Rank>& rows, bool& staged) {
  staged = !rows.host_accessible();
  if (!staged) return rows;
  tack::options o;
  o.device = tack::cpu();
  return rows.copy(o);
}

template <class T, int Rank>
T* bytes_of(const array<T, Rank>& a) {
  return a.size() > 0 ? a.data() : nullptr;
}

}  // namespace detail

/// The global array on rank `root` (host memory, global shape); the other ranks get an empty
/// array of shape `(0, ...)`. `auto whole = tack::mpi::gather(u, 0);`
template <class T, int Rank>
array<T, Rank> gather(const distributed_array<T, Rank>& a, int root = 0) {
  const char* what = "tack::mpi::gather";
  const auto& c = a.comm();
  detail::agree(c, what, a.signature() + " to root " + std::to_string(root));
  if (root < 0 || root >= c.size()) {
    throw value_error(std::string(what) + ": root " + std::to_string(root) + " is not a rank of " +
                      c.describe());
  }
  const auto g = a.global_shape();
  const std::size_t rb = detail::row_bytes<T, Rank>(g);
  std::vector<std::size_t> counts, displs;
  auto sh = g;
  if (c.rank() == root) {
    for (int r = 0; r < c.size(); ++r) {
      counts.push_back(static_cast<std::size_t>(a.rows().count(r)) * rb);
      displs.push_back(static_cast<std::size_t>(a.rows().first(r)) * rb);
    }
  } else {
    sh[0] = 0;
  }
  tack::options o;
  o.device = tack::cpu();
  auto out = tack::empty<T, Rank>(tack::shape<Rank>(sh), o);
  bool staged = false;
  const auto mine = detail::host_rows(a.local(), staged);
  detail::gatherv(c, detail::bytes_of(mine), static_cast<std::size_t>(a.local_rows()) * rb,
                  detail::bytes_of(out), counts, displs, root, what);
  out.bump_version();
  return out;
}

/// A distributed array whose owned rows are `global`'s, sent from rank `root`; `global` is read
/// on `root` only (the other ranks may pass an empty array of any shape: the shape comes from
/// `root`). `auto u = tack::mpi::scatter(comm, whole, 0, {.ghosts = 1});`
template <class T, int Rank>
distributed_array<std::remove_const_t<T>, Rank> scatter(const communicator& comm,
                                                        const array<T, Rank>& global, int root = 0,
                                                        const distribution& d = {}) {
  using V = std::remove_const_t<T>;
  const char* what = "tack::mpi::scatter";
  detail::agree(comm, what, "root " + std::to_string(root));
  if (root < 0 || root >= comm.size()) {
    throw value_error(std::string(what) + ": root " + std::to_string(root) + " is not a rank of " +
                      comm.describe());
  }
  std::array<index_t, Rank> sh{};
  if (comm.rank() == root) sh = global.shape();
  detail::bcast(comm, sh.data(), sizeof(sh), root, what);
  distributed_array<V, Rank> out(comm, tack::shape<Rank>(sh), d);
  const std::size_t rb = detail::row_bytes<V, Rank>(sh);
  std::vector<std::size_t> counts, displs;
  array<const V, Rank> src;
  if (comm.rank() == root) {
    for (int r = 0; r < comm.size(); ++r) {
      counts.push_back(static_cast<std::size_t>(out.rows().count(r)) * rb);
      displs.push_back(static_cast<std::size_t>(out.rows().first(r)) * rb);
    }
    tack::options o;
    o.device = tack::cpu();
    o.layout = tack::layout::aos;
    src = global.host_accessible() && global.layout() == tack::layout::aos
              ? global.as_const()
              : global.copy(o).as_const();
  }
  bool staged = false;
  auto mine = detail::host_rows(out.local(), staged);
  detail::scatterv(comm, comm.rank() == root && src.size() > 0 ? src.data() : nullptr, counts,
                   displs, detail::bytes_of(mine), static_cast<std::size_t>(out.local_rows()) * rb,
                   root, what);
  if (staged) tack::copyto(out.local(), mine);
  out.with_ghosts().bump_version();
  return out;
}

/// The same global array over another partition (same ghosts and periodicity unless `d` says
/// otherwise; `d.rows` is ignored): rows move with one `MPI_Alltoallv`. Ghost rows of the result
/// are zero until `exchange_ghosts`. `auto v = tack::mpi::redistribute(u, p);`
template <class T, int Rank>
distributed_array<T, Rank> redistribute(const distributed_array<T, Rank>& a, const partition& to,
                                        std::optional<distribution> d = std::nullopt) {
  const char* what = "tack::mpi::redistribute";
  const auto& c = a.comm();
  distribution nd = d ? *d : distribution{a.ghosts(), a.periodic(), std::nullopt, std::nullopt};
  nd.rows = to;
  if (!d) nd.device = a.local().device();
  // The new array's constructor agrees on the target; the source is agreed here.
  detail::agree(c, what, a.signature());
  distributed_array<T, Rank> out(c, tack::shape<Rank>(a.global_shape()), nd);
  const auto& from = a.rows();
  const int me = c.rank(), n = c.size();
  const std::size_t rb = detail::row_bytes<T, Rank>(a.global_shape());
  std::vector<std::size_t> sc(static_cast<std::size_t>(n)), sd(sc), rc(sc), rd(sc);
  for (int q = 0; q < n; ++q) {
    const auto u = static_cast<std::size_t>(q);
    // What I own now and q owns after; what q owns now and I own after.
    const index_t s0 = std::max(from.first(me), to.first(q)),
                  s1 = std::min(from.end(me), to.end(q));
    sc[u] = s1 > s0 ? static_cast<std::size_t>(s1 - s0) * rb : 0;
    sd[u] = s1 > s0 ? static_cast<std::size_t>(s0 - from.first(me)) * rb : 0;
    const index_t r0 = std::max(from.first(q), to.first(me)),
                  r1 = std::min(from.end(q), to.end(me));
    rc[u] = r1 > r0 ? static_cast<std::size_t>(r1 - r0) * rb : 0;
    rd[u] = r1 > r0 ? static_cast<std::size_t>(r0 - to.first(me)) * rb : 0;
  }
  bool staged_in = false, staged_out = false;
  const auto send = detail::host_rows(a.local(), staged_in);
  auto recv = detail::host_rows(out.local(), staged_out);
  detail::alltoallv(c, detail::bytes_of(send), sc, sd, detail::bytes_of(recv), rc, rd, what);
  if (staged_out) tack::copyto(out.local(), recv);
  out.with_ghosts().bump_version();
  return out;
}

}  // namespace tack::mpi
