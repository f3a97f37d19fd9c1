// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
#pragma once
/// @file `tack::mpi::grid`: a 3-D structured grid split in blocks over a Cartesian communicator
/// (`MPI_Cart_create`), and `tack::mpi::grid_array<T>`: one value per cell, each rank's block a
/// `tack::array<T, 3>` with `ghosts()` layers on every side, whose `exchange_ghosts` fills every
/// face, edge and corner.

#include <tack/array/array.hpp>
#include <tack/array/copyto.hpp>
#include <tack/array/factories.hpp>
#include <tack/memory/allocator.hpp>
#include <tack/mpi/communicator.hpp>
#include <tack/mpi/detail/transport.hpp>
#include <tack/mpi/distributed_array.hpp>
#include <tack/mpi/partition.hpp>

#include <array>
#include <memory>
#include <optional>
#include <string>

namespace tack::mpi {

/// How a `grid` is split. `tack::mpi::grid_options{.ghosts = 1, .periodic = {true, true, true}}`
struct grid_options {
  /// Ghost layers on each side of every block (every block must be at least this thick).
  index_t ghosts = 1;
  /// Whether each dimension wraps around.
  std::array<bool, 3> periodic{false, false, false};
  /// Ranks along each dimension; zeros are chosen by `MPI_Dims_create` (the product of the
  /// nonzero ones must divide the number of ranks).
  std::array<int, 3> dims{0, 0, 0};
  /// Where the blocks of `grid_array`s live; default: `tack::default_device()`.
  std::optional<tack::device> device{};
};

/// A 3-D grid of `extents` cells split in blocks over the ranks of `comm` (rank order kept): the
/// block of the rank at Cartesian coordinates `(cx, cy, cz)` is `partition::block(extent d,
/// dims[d])`'s block `c_d` in each dimension. Collective; every rank must pass the same extents
/// and options (`value_error` on every rank otherwise).
/// `tack::mpi::grid g(comm, {256, 256, 256}, {.ghosts = 1});`
class grid {
public:
  grid() = default;
  grid(const communicator& comm, const std::array<index_t, 3>& extents, const grid_options& o = {})
      : st_(std::make_shared<state>()) {
    const char* what = "tack::mpi::grid";
    auto& s = *st_;
    s.extents = extents;
    s.ghosts = o.ghosts;
    s.periodic = o.periodic;
    s.device = o.device;
    std::string sig = "grid of " + shape_string(extents) + " cells, " + std::to_string(o.ghosts) +
                      " ghost layers, periodic " + std::to_string(o.periodic[0]) +
                      std::to_string(o.periodic[1]) + std::to_string(o.periodic[2]) + ", dims " +
                      shape_string(std::array<index_t, 3>{o.dims[0], o.dims[1], o.dims[2]});
    detail::agree(comm, what, sig);
    index_t fixed = 1;
    for (int d = 0; d < 3; ++d) {
      const auto u = static_cast<std::size_t>(d);
      if (extents[u] < 1 || o.dims[u] < 0) {
        throw value_error(std::string(what) + ": " + sig + ": extents must be >= 1 and dims >= 0");
      }
      if (o.dims[u] > 0) fixed *= o.dims[u];
    }
    if (o.ghosts < 0 || comm.size() % fixed != 0) {
      throw value_error(std::string(what) + ": " + sig +
                        ": ghosts must be >= 0 and the nonzero "
                        "dims must divide the " +
                        std::to_string(comm.size()) + " ranks");
    }
    s.dims = o.dims;
    s.parent = comm;
    s.cart = detail::cart_create(comm, s.dims, s.periodic, s.coords, s.neighbors, what);
    for (int d = 0; d < 3; ++d) {
      const auto u = static_cast<std::size_t>(d);
      const auto p = partition::block(extents[u], s.dims[u]);
      // The thinnest block of this dimension (the last): known to every rank, so every rank
      // refuses together.
      if (p.count(s.dims[u] - 1) < o.ghosts) {
        throw value_error(std::string(what) + ": " + sig + ": " + std::to_string(s.dims[u]) +
                          " blocks along dimension " + std::to_string(d) + " are " +
                          std::to_string(p.count(s.dims[u] - 1)) +
                          " cells thin, fewer than the ghost layers; use fewer ranks or ghosts");
      }
      s.offset[u] = p.first(s.coords[u]);
      s.local[u] = p.count(s.coords[u]);
    }
  }

  /// The Cartesian communicator (rank order kept).
  const communicator& comm() const { return get().cart; }
  /// The communicator the grid was made on (same ranks, same order). Collective checks and
  /// reductions run on it, so that ranks holding arrays of different grids still meet there and
  /// refuse together instead of waiting on different Cartesian communicators.
  const communicator& parent() const { return get().parent; }
  /// Ranks along each dimension.
  std::array<int, 3> dims() const { return get().dims; }
  /// This rank's Cartesian coordinates.
  std::array<int, 3> coords() const { return get().coords; }
  /// The global cells along each dimension.
  std::array<index_t, 3> global_extents() const { return get().extents; }
  /// This rank's owned cells along each dimension.
  std::array<index_t, 3> local_extents() const { return get().local; }
  /// The global index of this rank's first owned cell.
  std::array<index_t, 3> local_offset() const { return get().offset; }
  /// Ghost layers on each side.
  index_t ghosts() const { return get().ghosts; }
  /// Whether each dimension wraps around.
  std::array<bool, 3> periodic() const { return get().periodic; }
  /// The neighbor rank along `dim` on the lower (`side` 0) or upper (1) side; -1 if none.
  int neighbor(int dim, int side) const {
    return get().neighbors.at(static_cast<std::size_t>(dim)).at(static_cast<std::size_t>(side));
  }
  /// Where `grid_array` blocks live.
  std::optional<tack::device> device() const { return get().device; }
  /// `grid of (64, 64, 64) cells, ghosts 1, dims (2, 1, 1), block (32, 64, 64) at (32, 0, 0)`.
  std::string describe() const {
    const auto& s = get();
    return "grid of " + shape_string(s.extents) + " cells, ghosts " + std::to_string(s.ghosts) +
           ", dims " + shape_string(std::array<index_t, 3>{s.dims[0], s.dims[1], s.dims[2]}) +
           ", block " + shape_string(s.local) + " at " + shape_string(s.offset);
  }

private:
  struct state {
    communicator parent;
    communicator cart;
    std::array<index_t, 3> extents{}, local{}, offset{};
    std::array<int, 3> dims{}, coords{};
    std::array<std::array<int, 2>, 3> neighbors{};
    std::array<bool, 3> periodic{};
    index_t ghosts = 0;
    std::optional<tack::device> device;
  };
  std::shared_ptr<state> st_;
  const state& get() const {
    if (!st_) throw value_error("tack::mpi::grid: the handle is empty (default-constructed)");
    return *st_;
  }
};

/// One `T` per cell of a `grid`: this rank's block with its ghost layers, shape
/// `local_extents() + 2 * ghosts()`; cell `(i, j, k)` of the block is global cell
/// `local_offset() + (i, j, k) - ghosts()`. Copies share the block.
/// `tack::mpi::grid_array<double> u(g); tack::mpi::exchange_ghosts(u);`
template <class T>
class grid_array {
public:
  grid_array() = default;
  /// The block, zero-filled (ghosts included).
  explicit grid_array(const grid& g) : st_(std::make_shared<state>()) {
    auto& s = *st_;
    s.g = g;
    const index_t gh = g.ghosts();
    const auto l = g.local_extents();
    s.shape = {l[0] + 2 * gh, l[1] + 2 * gh, l[2] + 2 * gh};
    tack::options o;
    o.device = g.device();
    s.block = tack::zeros<T, 3>(tack::shape<3>(s.shape), o);
    // Faces across dimensions 1 and 2 are strided: derived datatypes over the block, which MPI
    // reads and writes in place. Each covers the block's whole extent (ghosts included) in the
    // other dimensions, so the three phases of an exchange also fill edges and corners. Without
    // ghost layers there is nothing to exchange (and MPI refuses empty subarrays).
    for (int d = 1; d < 3 && gh > 0; ++d) {
      const auto u = static_cast<std::size_t>(d);
      const std::array<index_t, 4> starts{gh, l[u], 0,
                                          l[u] + gh};  // send lo, send hi, recv lo, recv hi
      for (int k = 0; k < 4; ++k) {
        auto sub = s.shape;
        sub[u] = gh;
        std::array<index_t, 3> st{0, 0, 0};
        st[u] = starts[static_cast<std::size_t>(k)];
        s.types[u][static_cast<std::size_t>(k)] =
            detail::datatype::subarray(s.shape, sub, st, sizeof(T));
      }
    }
  }

  /// The grid.
  const grid& layout() const { return get("layout").g; }
  /// The whole block, ghost layers included.
  array<T, 3> with_ghosts() const { return get("with_ghosts").block; }
  /// `grid_array<f64> on grid of ...`.
  std::string describe() const {
    return "grid_array<" + std::string(dtype_of<T>().name()) + "> on " +
           get("describe").g.describe();
  }

  /// Fills every ghost cell (faces, edges, corners) with the value of the global cell it stands
  /// for: three phases, one per dimension, each with non-blocking receives and sends to the two
  /// neighbors. Dimension 0 faces are row views of the block; dimensions 1 and 2 use derived
  /// datatypes (no copy on the CPU). Device blocks: in place when MPI is CUDA-aware, else through
  /// a pinned host copy of the block. Collective.
  void exchange_ghosts(const exchange_options& o = {}) const {
    const char* what = "tack::mpi::exchange_ghosts";
    get("exchange_ghosts");
    auto& s = *st_;
    const auto& c = s.g.comm();
    if (o.agree) {
      detail::agree(s.g.parent(), what,
                    "grid_array<" + std::string(dtype_of<T>().name()) + "> on grid of " +
                        shape_string(s.g.global_extents()) + ", ghosts " +
                        std::to_string(s.g.ghosts()));
    }
    const index_t gh = s.g.ghosts();
    if (gh == 0) return;
    const bool direct = s.block.host_accessible() || detail::cuda_aware();
    array<T, 3> b = s.block;
    if (!direct) {
      if (!s.staging.valid() || s.staging.size() != s.block.size()) {
        tack::options pinned;
        pinned.device = tack::cpu();
        pinned.allocator = get_allocator(memory_space::pinned);
        s.staging = tack::empty<T, 3>(tack::shape<3>(s.shape), pinned);
      }
      tack::copyto(s.staging, s.block);
      b = s.staging;
    }
    const auto l = s.g.local_extents();
    for (int d = 0; d < 3; ++d) {
      const auto u = static_cast<std::size_t>(d);
      const int lo = s.g.neighbor(d, 0), hi = s.g.neighbor(d, 1);
      const int down = 10 + 2 * d, up = 11 + 2 * d;  // toward lower / upper coordinates
      if (d == 0) {
        const std::size_t bytes =
            static_cast<std::size_t>(gh * s.shape[1] * s.shape[2]) * sizeof(T);
        if (lo >= 0) s.requests.irecv(c, b.rows(0, gh).data(), bytes, lo, up, what);
        if (hi >= 0)
          s.requests.irecv(c, b.rows(l[0] + gh, l[0] + 2 * gh).data(), bytes, hi, down, what);
        if (lo >= 0) s.requests.isend(c, b.rows(gh, 2 * gh).data(), bytes, lo, down, what);
        if (hi >= 0) s.requests.isend(c, b.rows(l[0], l[0] + gh).data(), bytes, hi, up, what);
      } else {
        T* p = b.data();
        if (lo >= 0) s.requests.irecv(c, p, s.types[u][2], lo, up, what);
        if (hi >= 0) s.requests.irecv(c, p, s.types[u][3], hi, down, what);
        if (lo >= 0) s.requests.isend(c, p, s.types[u][0], lo, down, what);
        if (hi >= 0) s.requests.isend(c, p, s.types[u][1], hi, up, what);
      }
      s.requests.wait_all(what);
    }
    if (!direct) tack::copyto(s.block, s.staging);
    s.block.bump_version();
  }

private:
  struct state {
    grid g;
    std::array<index_t, 3> shape{};
    array<T, 3> block;
    array<T, 3> staging;
    std::array<std::array<detail::datatype, 4>, 3> types{};
    detail::request_list requests;
  };
  std::shared_ptr<state> st_;
  const state& get(const char* op) const {
    if (!st_) {
      throw value_error(std::string("tack::mpi::grid_array::") + op +
                        ": the handle is empty (default-constructed)");
    }
    return *st_;
  }
};

/// Fills the ghost layers of a grid array (see `grid_array::exchange_ghosts`). Collective.
template <class T>
void exchange_ghosts(const grid_array<T>& a, const exchange_options& o = {}) {
  a.exchange_ghosts(o);
}

}  // namespace tack::mpi
