// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
#pragma once
/// @file `tack::mpi::distributed_array<T, Rank>`: a global array whose rows (first dimension) are
/// split among the ranks of a communicator, each rank's piece a `tack::array` with ghost rows, and
/// `tack::mpi::exchange_ghosts(a)`, which fills the ghost rows from the ranks that own them.

#include <tack/array/array.hpp>
#include <tack/array/copyto.hpp>
#include <tack/array/factories.hpp>
#include <tack/memory/allocator.hpp>
#include <tack/memory/device.hpp>
#include <tack/mpi/communicator.hpp>
#include <tack/mpi/detail/transport.hpp>
#include <tack/mpi/partition.hpp>

#include <array>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tack::mpi {

/// How a `distributed_array` is laid out over the ranks.
/// `tack::mpi::distribution{.ghosts = 1, .periodic = true}`
struct distribution {
  /// Ghost rows on each side of every piece (allocated at the global ends too, where the
  /// application writes its boundary values unless `periodic`).
  index_t ghosts = 0;
  /// Whether the row after the last is the first (ghosts at the ends wrap around).
  bool periodic = false;
  /// Which rows each rank owns; default: `partition::block(rows, comm.size())`.
  std::optional<mpi::partition> rows{};
  /// Where the pieces live; default: `tack::default_device()`.
  std::optional<tack::device> device{};
};

/// What `exchange_ghosts` checks before it communicates.
struct exchange_options {
  /// Agree collectively first (one small `MPI_Allreduce`): a rank that passes an array of another
  /// shape makes every rank throw instead of leaving some waiting. Turn off in a hot loop once the
  /// program is known to be right.
  bool agree = true;
};

namespace detail {
/// One contiguous run of ghost rows that one rank fills from another's owned rows.
struct ghost_run {
  int peer;            // the rank sending (receives) or receiving (sends)
  int tag;             // the run's number among the receiving rank's runs
  index_t piece_row;   // first row in this rank's piece (with ghosts)
  index_t rows;        // rows in the run
  index_t source_row;  // self copies: the owned piece row the values come from
};
inline constexpr int ghost_tag_base = 0x7a00;

/// Calls `emit(piece_row, global_row, rows, owner)` for the runs of rank `r`'s ghost rows: piece
/// row `i` of rank `r` is global row `first(r) - ghosts + i`, wrapped when `periodic`, skipped
/// outside `[0, rows)` otherwise; consecutive ghost rows with consecutive global rows and one owner
/// form a run.
template <class F>
void for_each_ghost_run(const partition& p, int r, index_t ghosts, bool periodic, F&& emit) {
  const index_t n = p.count(r), total = p.rows();
  if (total == 0 || ghosts == 0) return;
  index_t run_piece = -1, run_global = -1, run_rows = 0;
  int run_owner = -1;
  auto flush = [&] {
    if (run_rows > 0) emit(run_piece, run_global, run_rows, run_owner);
    run_rows = 0;
  };
  for (index_t i = 0; i < 2 * ghosts + n; ++i) {
    if (i == ghosts) {  // the owned rows end any run
      flush();
      i = ghosts + n;
    }
    index_t g = p.first(r) - ghosts + i;
    if (periodic) {
      g = ((g % total) + total) % total;
    } else if (g < 0 || g >= total) {
      flush();
      continue;
    }
    const int owner = p.owner(g);
    if (run_rows > 0 && owner == run_owner && g == run_global + run_rows &&
        i == run_piece + run_rows) {
      ++run_rows;
    } else {
      flush();
      run_piece = i;
      run_global = g;
      run_rows = 1;
      run_owner = owner;
    }
  }
  flush();
}
}  // namespace detail

/// A global array of shape `(rows, ...)` whose rows are split among the ranks of a communicator:
/// each rank holds its rows as one `tack::array` with `ghosts()` extra rows on each side.
/// Copies share the piece (like `tack::array`). Constructing one is collective: every rank must
/// pass the same global shape and distribution, else every rank throws `value_error`.
/// `tack::mpi::distributed_array<double, 2> u(comm, {1000, 3}, {.ghosts = 1});`
template <class T, int Rank = 1>
class distributed_array {
  static_assert(!std::is_const_v<T>,
                "tack::mpi::distributed_array: the element type must not be "
                "const; pass the array as const& to read it");

public:
  using value_type = T;
  static constexpr int rank = Rank;

  /// An empty handle (no communicator, no piece).
  distributed_array() = default;

  /// Collective. The pieces are zero-filled (ghost rows included).
  distributed_array(communicator comm, const tack::shape<Rank>& global, const distribution& d = {})
      : st_(std::make_shared<state>()) {
    const char* what = "tack::mpi::distributed_array";
    if (!comm.valid()) {
      throw value_error(std::string(what) +
                        ": the communicator handle is empty; use "
                        "tack::mpi::communicator::world()");
    }
    auto& s = *st_;
    s.comm = std::move(comm);
    s.global = global.extents;
    s.ghosts = d.ghosts;
    s.periodic = d.periodic;
    const int size = s.comm.size();
    s.part = d.rows ? *d.rows : partition::block(global[0] < 0 ? 0 : global[0], size);
    // Every rank compares what it was given before anything is checked or sent: a difference
    // throws on every rank, with every rank's arguments in the message.
    detail::agree(s.comm, what, signature_of(s.global, s.ghosts, s.periodic, s.part));
    for (int dd = 0; dd < Rank; ++dd) {
      if (s.global[static_cast<std::size_t>(dd)] < 0) {
        throw value_error(std::string(what) + ": extent " +
                          std::to_string(s.global[static_cast<std::size_t>(dd)]) +
                          " of dimension " + std::to_string(dd) + " of the global shape " +
                          shape_string(s.global) + " is negative");
      }
    }
    if (s.ghosts < 0) {
      throw value_error(std::string(what) + ": ghosts " + std::to_string(s.ghosts) +
                        " is negative");
    }
    if (s.part.ranks() != size || s.part.rows() != s.global[0]) {
      throw value_error(std::string(what) + ": " + s.part.describe() + " does not fit " +
                        std::to_string(s.global[0]) + " rows over the " + std::to_string(size) +
                        " ranks of " + s.comm.describe());
    }
    s.me = s.comm.rank();
    std::array<index_t, Rank> piece_shape = s.global;
    piece_shape[0] = s.part.count(s.me) + 2 * s.ghosts;
    tack::options opts;
    opts.device = d.device;
    s.piece = tack::zeros<T, Rank>(tack::shape<Rank>(piece_shape), opts);
    plan();
  }

  /// The communicator.
  const communicator& comm() const { return get("comm").comm; }
  /// Which rows each rank owns.
  const partition& rows() const { return get("rows").part; }
  /// The global shape.
  std::array<index_t, Rank> global_shape() const { return get("global_shape").global; }
  /// Ghost rows on each side of the piece.
  index_t ghosts() const { return get("ghosts").ghosts; }
  /// Whether ghost rows wrap around the global ends.
  bool periodic() const { return get("periodic").periodic; }
  /// The global row of this rank's first owned row.
  index_t first_row() const { return get("first_row").part.first(st_->me); }
  /// The rows this rank owns.
  index_t local_rows() const { return get("local_rows").part.count(st_->me); }
  /// The owned rows: a row view of the piece (same memory). `tack::fill(a.local(), 1.0);`
  array<T, Rank> local() const {
    const auto& s = get("local");
    return s.piece.rows(s.ghosts, s.ghosts + s.part.count(s.me));
  }
  /// The whole piece, ghost rows included: local row `i` is `with_ghosts()` row `i + ghosts()`.
  array<T, Rank> with_ghosts() const { return get("with_ghosts").piece; }
  /// Whether the handle holds an array.
  bool valid() const noexcept { return static_cast<bool>(st_); }

  /// `distributed_array<f64, 2> global shape (10, 3), 1 ghost row, rows [3, 6) of 10 on rank 1 of 4`
  std::string describe() const {
    if (!st_) return "distributed_array (empty handle)";
    const auto& s = *st_;
    return "distributed_array<" + std::string(dtype_of<T>().name()) + ", " + std::to_string(Rank) +
           "> global shape " + shape_string(s.global) + ", " + std::to_string(s.ghosts) +
           " ghost row" + (s.ghosts == 1 ? "" : "s") + (s.periodic ? " (periodic)" : "") +
           ", rows [" + std::to_string(s.part.first(s.me)) + ", " +
           std::to_string(s.part.end(s.me)) + ") on rank " + std::to_string(s.me) + " of " +
           std::to_string(s.part.ranks());
  }

  /// What every rank must agree on in a collective call: element type, global shape, ghosts,
  /// periodicity and partition.
  std::string signature() const {
    const auto& s = get("signature");
    return signature_of(s.global, s.ghosts, s.periodic, s.part);
  }

  /// Fills the ghost rows from the ranks that own them (see `tack::mpi::exchange_ghosts`).
  void exchange_ghosts(const exchange_options& o = {}) const;

private:
  struct state {
    communicator comm;
    partition part;
    std::array<index_t, Rank> global{};
    index_t ghosts = 0;
    bool periodic = false;
    int me = 0;
    array<T, Rank> piece;
    std::vector<detail::ghost_run> recvs, sends, self;
    detail::request_list requests;
    std::vector<array<T, Rank>> staging;  // pinned host mirrors, when MPI cannot read device memory
  };
  std::shared_ptr<state> st_;

  const state& get(const char* op) const {
    if (!st_) {
      throw value_error(std::string("tack::mpi::distributed_array::") + op +
                        ": the handle is empty (default-constructed)");
    }
    return *st_;
  }

  static std::string signature_of(const std::array<index_t, Rank>& global, index_t ghosts,
                                  bool periodic, const partition& p) {
    std::string s = "distributed_array<" + std::string(dtype_of<T>().name()) + ", " +
                    std::to_string(Rank) + "> of global shape " + shape_string(global) + ", " +
                    std::to_string(ghosts) + " ghost rows" + (periodic ? ", periodic" : "") + ", ";
    if (p.ranks() <= 16) return s + p.describe();
    const auto h = detail::hash_bytes(p.offsets().data(), p.offsets().size() * sizeof(index_t));
    return s + "a partition of " + std::to_string(p.rows()) + " rows over " +
           std::to_string(p.ranks()) + " ranks (hash " + std::to_string(h) + ")";
  }

  // The messages of one exchange, from the partition alone: every rank computes the same runs.
  void plan() {
    auto& s = *st_;
    int tag = 0;
    detail::for_each_ghost_run(
        s.part, s.me, s.ghosts, s.periodic,
        [&](index_t piece_row, index_t global_row, index_t n, int owner) {
          if (owner == s.me) {
            s.self.push_back(
                {owner, tag, piece_row, n, global_row - s.part.first(s.me) + s.ghosts});
          } else {
            s.recvs.push_back({owner, detail::ghost_tag_base + tag, piece_row, n, 0});
          }
          ++tag;
        });
    for (int r = 0; r < s.part.ranks(); ++r) {
      if (r == s.me) continue;
      int t = 0;
      detail::for_each_ghost_run(
          s.part, r, s.ghosts, s.periodic, [&](index_t, index_t global_row, index_t n, int owner) {
            if (owner == s.me) {
              s.sends.push_back({r, detail::ghost_tag_base + t,
                                 global_row - s.part.first(s.me) + s.ghosts, n, 0});
            }
            ++t;
          });
    }
  }
};

template <class T, int Rank>
void distributed_array<T, Rank>::exchange_ghosts(const exchange_options& o) const {
  const char* what = "tack::mpi::exchange_ghosts";
  get("exchange_ghosts");
  auto& s = *st_;
  if (o.agree) detail::agree(s.comm, what, signature());
  // Host memory, or device memory that the MPI library reads itself (CUDA-aware): the messages
  // are posted on the piece's own rows. Otherwise each run goes through a pinned host mirror.
  const bool direct = s.piece.host_accessible() || detail::cuda_aware();
  const std::size_t row_bytes =
      s.piece.nbytes() / static_cast<std::size_t>(s.piece.extent(0) > 0 ? s.piece.extent(0) : 1);
  if (!direct && s.staging.empty()) {
    tack::options pinned;
    pinned.device = tack::cpu();
    pinned.allocator = get_allocator(memory_space::pinned);
    for (auto* list : {&s.recvs, &s.sends}) {
      for (auto& m : *list) {
        auto sh = s.global;
        sh[0] = m.rows;
        s.staging.push_back(tack::empty<T, Rank>(tack::shape<Rank>(sh), pinned));
      }
    }
  }
  std::size_t k = 0;
  for (auto& m : s.recvs) {
    auto rows = s.piece.rows(m.piece_row, m.piece_row + m.rows);
    void* p = direct ? static_cast<void*>(rows.data()) : static_cast<void*>(s.staging[k++].data());
    s.requests.irecv(s.comm, p, static_cast<std::size_t>(m.rows) * row_bytes, m.peer, m.tag, what);
  }
  for (auto& m : s.sends) {
    auto rows = s.piece.rows(m.piece_row, m.piece_row + m.rows);
    const void* p = rows.data();
    if (!direct) {
      tack::copyto(s.staging[k], rows);
      p = s.staging[k++].data();
    }
    s.requests.isend(s.comm, p, static_cast<std::size_t>(m.rows) * row_bytes, m.peer, m.tag, what);
  }
  for (auto& m : s.self) {
    tack::copyto(s.piece.rows(m.piece_row, m.piece_row + m.rows),
                 s.piece.rows(m.source_row, m.source_row + m.rows));
  }
  s.requests.wait_all(what);
  if (!direct) {
    k = 0;
    for (auto& m : s.recvs)
      tack::copyto(s.piece.rows(m.piece_row, m.piece_row + m.rows), s.staging[k++]);
  }
  s.piece.bump_version();
}

/// Fills `a`'s ghost rows with the values of the global rows they stand for, from the ranks that
/// own them: non-blocking receives and sends posted on row views of the pieces, no copy on the
/// CPU (device pieces: the device memory itself when MPI is CUDA-aware, else pinned host copies).
/// Collective. `tack::mpi::exchange_ghosts(u);`
template <class T, int Rank>
void exchange_ghosts(const distributed_array<T, Rank>& a, const exchange_options& o = {}) {
  a.exchange_ghosts(o);
}

}  // namespace tack::mpi
