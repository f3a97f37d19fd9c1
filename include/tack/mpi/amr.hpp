// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
#pragma once
/// @file `tack::mpi::distributed_hierarchy`: a `tack::amr` hierarchy whose boxes are assigned to
/// the ranks of a communicator. Every rank keeps the whole box list; each rank allocates only its
/// own boxes in its level buffers (each box still a row view of the rank's buffer), and
/// `fill_ghost_cells` / `average_down` exchange what crosses ranks in one message per rank pair,
/// giving every box the same bits as the serial `tack::amr` functions.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <tack/amr/detail/kernels.hpp>
#include <tack/amr/hierarchy.hpp>
#include <tack/array/array.hpp>
#include <tack/array/copyto.hpp>
#include <tack/array/factories.hpp>
#include <tack/exec/fence.hpp>
#include <tack/exec/launch.hpp>
#include <tack/memory/allocator.hpp>
#include <tack/mpi/communicator.hpp>
#include <tack/mpi/detail/transport.hpp>
#include <tack/mpi/distributed_array.hpp>
#include <type_traits>
#include <vector>

namespace tack::mpi {

/// The rank that owns each box: `owners[l][b]` for box `b` of level `l`.
/// `tack::mpi::box_owners owners{{0, 0, 1, 1}, {1, 0}};`
using box_owners = std::vector<std::vector<int>>;

/// The default assignment of boxes to `ranks` ranks: on each level, the boxes in Morton
/// (Z-order) order of their centres, taken in the finest level's index space so that a fine box
/// sorts near the coarse boxes under it, cut into `ranks` consecutive runs of about equal cell
/// counts. Deterministic. `auto owners = tack::mpi::morton_owners(h, comm.size());`
box_owners morton_owners(const amr::hierarchy& h, int ranks);

namespace detail {

/// A message of one exchange: `count` elements at `offset` of the send (or receive) buffer, to
/// (or from) rank `peer`.
struct amr_message {
  int peer = 0;
  index_t offset = 0;
  index_t count = 0;
};

/// The messages of one operation on one rank: one per peer and direction, each a contiguous run
/// of the operation's send or receive buffer.
struct amr_exchange {
  std::vector<amr_message> sends, recvs;
  index_t send_size = 0, recv_size = 0;
};

/// What `fill_ghost_cells` and `average_down` run on this rank for one level: the serial
/// hierarchy's segment lists translated to this rank's level buffers (its own boxes), split into
/// local work and the packing and unpacking of messages. On the hierarchy's device.
struct amr_rank_plan {
  /// This rank's boxes of the level (in increasing global index) and where they sit in its buffer.
  std::shared_ptr<const amr::detail::level_layout> layout;
  std::vector<std::size_t> boxes;  // global index of local box j
  std::vector<index_t> local;      // per global box: its local index, or -1 (another rank's)
  array<vec<index_t, 8>> box_table;
  // fill_ghost_cells of this level.
  array<amr::detail::copy_segment> copies;          // same-level copies between own boxes
  array<amr::detail::interp_segment> interp_local;  // from own boxes of level l - 1
  array<amr::detail::copy_segment> pack_fine;       // send buffer <- this level's valid cells
  array<amr::detail::copy_segment>
      pack_coarse;                          // send buffer <- level l - 1 regions (ghosts included)
  array<amr::detail::copy_segment> unpack;  // this level's ghost cells <- receive buffer
  array<amr::detail::interp_segment>
      interp_remote;                          // from level l - 1 regions in the receive buffer
  array<amr::detail::copy_segment> boundary;  // extrapolation (own box only), last
  amr_exchange fill;
  // average_down from this level into level l - 1.
  array<amr::detail::average_segment> average_local;  // own fine boxes into own coarse boxes
  array<amr::detail::average_segment> average_send;   // own fine boxes into the send buffer
  array<amr::detail::copy_segment> average_unpack;    // own coarse cells <- receive buffer
  amr_exchange average;
};

/// Builds the plan of level `l` for rank `me` of `ranks` from the serial hierarchy `h` (its
/// segment lists on the host) and the plan of level `l - 1` (null for level 0). src/mpi/amr.cpp.
amr_rank_plan build_amr_rank_plan(const amr::hierarchy& h, const box_owners& owners, int l, int me,
                                  int ranks, const amr_rank_plan* coarse, const tack::device& d);

/// The description every rank must agree on: geometry, box lists and owners (hashed).
std::string amr_signature(const amr::box& domain, const std::vector<amr::level>& levels,
                          const amr::hierarchy_options& o, const std::optional<box_owners>& owners);

inline constexpr int amr_tag_base = 0x7b00;

}  // namespace detail

/// A `tack::amr` hierarchy spread over the ranks of a communicator: every rank holds the whole
/// box list (`global()`, a `tack::amr::hierarchy` without field values) and the owner of every
/// box; fields allocate on each rank only its own boxes (`add_field`). Constructing one is
/// collective: the box lists, options and owners enter a collective agreement, so a rank given
/// another hierarchy makes every rank throw `value_error` instead of waiting; a bad hierarchy is
/// refused on every rank as `tack::amr::hierarchy` refuses it. Owners default to
/// `morton_owners`. Move-only. Regridding is not supported (build a new one).
/// `tack::mpi::distributed_hierarchy dh(comm, domain, levels, {.ghost = 2});`
class distributed_hierarchy {
public:
  distributed_hierarchy(const communicator& comm, const amr::box& domain,
                        std::vector<amr::level> levels, const amr::hierarchy_options& options = {},
                        std::optional<box_owners> owners = {});
  /// The boxes, ghost width, boundaries, origin, spacing and device of `like` (its fields are not
  /// copied). `tack::mpi::distributed_hierarchy dh(comm, tack::amr::synthetic_hierarchy(o));`
  distributed_hierarchy(const communicator& comm, const amr::hierarchy& like,
                        std::optional<box_owners> owners = {});
  distributed_hierarchy(distributed_hierarchy&&) noexcept = default;
  distributed_hierarchy& operator=(distributed_hierarchy&&) noexcept = default;
  distributed_hierarchy(const distributed_hierarchy&) = delete;
  distributed_hierarchy& operator=(const distributed_hierarchy&) = delete;
  ~distributed_hierarchy() = default;

  /// A duplicate of the communicator given (tack's messages never match the application's).
  const communicator& comm() const noexcept { return comm_; }
  /// Every box of every level and the geometry, the same on every rank (no field values: its
  /// segment lists are those of the serial hierarchy; its device is the CPU).
  const amr::hierarchy& global() const noexcept { return global_; }
  int n_levels() const noexcept { return global_.n_levels(); }
  /// The owner of every box.
  const box_owners& owners() const noexcept { return owners_; }
  /// The rank owning box `b` of level `l` (`index_error` if there is no such box).
  int owner(int l, std::size_t b) const;
  /// Whether this rank owns box `b` of level `l`.
  bool owns(int l, std::size_t b) const { return owner(l, b) == comm_.rank(); }
  /// The global indices of this rank's boxes of level `l`, increasing: local box `j` of the level
  /// buffer is box `local_boxes(l)[j]`.
  const std::vector<std::size_t>& local_boxes(int l) const { return plan(l).boxes; }
  /// Elements of this rank's buffer of level `l` (its boxes, ghosts included).
  index_t local_level_size(int l) const { return plan(l).layout->size(); }
  /// Where the level buffers live.
  tack::device device() const noexcept { return device_; }
  /// This rank's plan of level `l` (what the operations run).
  const detail::amr_rank_plan& plan(int l) const;
  /// The serial number fields use to check they belong to this hierarchy.
  std::uint64_t serial() const noexcept { return serial_; }
  /// What the ranks agreed on (geometry, boxes and owners, hashed).
  const std::string& signature() const noexcept { return signature_; }
  /// `"distributed_hierarchy over communicator rank 0 of 2: hierarchy of 3 levels ..., 5 of 21
  /// boxes on this rank"`.
  std::string describe() const;
  /// The request list of the exchanges (one operation at a time).
  detail::request_list& requests() const { return *requests_; }

private:
  communicator comm_;
  amr::hierarchy global_;
  box_owners owners_;
  std::vector<detail::amr_rank_plan> plans_;
  tack::device device_;
  std::string signature_;
  std::uint64_t serial_ = 0;
  std::unique_ptr<detail::request_list> requests_;
};

namespace detail {
/// A distributed field's values on this rank: one buffer per level (its boxes only) and the
/// message buffers of each level's exchanges (AoS, made on first use).
template <class T>
struct dfield_storage {
  std::string name;
  tack::layout layout = tack::layout::aos;
  std::uint64_t owner = 0;
  std::vector<array<T>> levels;
  std::vector<std::shared_ptr<const amr::detail::level_layout>> layouts;
  std::vector<std::vector<int>> local;  // per level, per global box: local index or -1
  std::vector<std::array<array<T>, 4>>
      buffers;  // per level: fill send, fill recv, average send, average recv
  std::vector<std::array<array<T>, 4>>
      pinned;  // pinned host mirrors (device buffers, MPI not CUDA-aware)
};
}  // namespace detail

/// A field of a `distributed_hierarchy` on this rank (a handle: copies share): per level one buffer
/// holding this rank's boxes back to back (`level_buffer(l)`), each box a row view of it
/// (`box_values(l, b)`, `b` the box's global index).
/// `auto rho = tack::mpi::add_field<double>(dh, "rho"); auto v = rho.box_values(1,
/// dh.local_boxes(1)[0]);`
template <class T>
class distributed_field {
public:
  distributed_field() = default;
  explicit distributed_field(std::shared_ptr<detail::dfield_storage<T>> s) : s_(std::move(s)) {}

  const std::string& name() const { return storage().name; }
  tack::layout layout() const { return storage().layout; }
  int n_levels() const { return static_cast<int>(storage().levels.size()); }
  /// This rank's buffer of level `l`: its boxes (ghosts included) back to back, in increasing
  /// global box index.
  array<T> level_buffer(int l) const {
    check_level(l, "level_buffer");
    return storage().levels[static_cast<std::size_t>(l)];
  }
  /// Box `b` (global index) of level `l`, ghosts included, shape (nz, ny, nx): a row view of this
  /// rank's level buffer. A box of another rank is an `index_error`. `auto v = rho.box_values(0,
  /// 3);`
  array<T, 3> box_values(int l, std::size_t b) const {
    check_level(l, "box_values");
    const auto k = static_cast<std::size_t>(l);
    const auto& loc = storage().local[k];
    if (b >= loc.size() || loc[b] < 0) {
      throw index_error("tack::mpi::distributed_field::box_values: box " + std::to_string(b) +
                        " of level " + std::to_string(l) + " of field '" + name() + "' " +
                        (b >= loc.size() ? "does not exist (the level has " +
                                               std::to_string(loc.size()) + " boxes)"
                                         : std::string("belongs to another rank")));
    }
    const auto& lay = *storage().layouts[k];
    const auto j = static_cast<std::size_t>(loc[b]);
    const amr::box g = lay.grown(j);
    return storage()
        .levels[k]
        .rows(lay.offsets[j], lay.offsets[j + 1])
        .reshape({g.extent(2), g.extent(1), g.extent(0)});
  }
  detail::dfield_storage<T>& storage() const {
    if (!s_)
      throw value_error(
          "tack::mpi::distributed_field: this field handle is empty (default-constructed)");
    return *s_;
  }
  bool valid() const noexcept { return s_ != nullptr; }

private:
  void check_level(int l, const char* op) const {
    if (l < 0 || l >= n_levels()) {
      throw index_error(std::string("tack::mpi::distributed_field::") + op + ": level " +
                        std::to_string(l) + " of field '" + name() +
                        "' does not exist (levels 0 to " + std::to_string(n_levels() - 1) + ")");
    }
  }
  std::shared_ptr<detail::dfield_storage<T>> s_;
};

namespace detail {
TACK_IMPL_KERNEL_ABI_BEGIN

template <class T>
void check_dfield(const distributed_hierarchy& dh, const distributed_field<T>& f, const char* op) {
  if (f.storage().owner != dh.serial()) {
    throw value_error(std::string("tack::mpi::") + op + ": field '" + f.name() +
                      "' belongs to another hierarchy than " + dh.describe());
  }
}

inline void check_dlevel(const distributed_hierarchy& dh, int l, int first, const char* op) {
  if (l < first || l >= dh.n_levels()) {
    throw index_error(std::string("tack::mpi::") + op + ": level " + std::to_string(l) +
                      " is not one of levels " + std::to_string(first) + " to " +
                      std::to_string(dh.n_levels() - 1) + " of " + dh.describe());
  }
}

/// The message buffer `which` (0: fill send, 1: fill receive, 2: average send, 3: average
/// receive) of level `l`, `n` elements on the hierarchy's device (AoS), and where MPI reads or
/// writes it: itself when MPI can, else its pinned host mirror.
template <class T>
std::pair<array<T>, array<T>> message_buffer(const distributed_hierarchy& dh, dfield_storage<T>& s,
                                             int l, int which, index_t n) {
  auto& b = s.buffers[static_cast<std::size_t>(l)][static_cast<std::size_t>(which)];
  if (!b.valid() || b.size() != n) b = tack::empty<T>({n}, {.device = dh.device()});
  if (n == 0 || b.host_accessible() || cuda_aware()) return {b, b};
  auto& p = s.pinned[static_cast<std::size_t>(l)][static_cast<std::size_t>(which)];
  if (!p.valid() || p.size() != n) {
    tack::options o;
    o.device = tack::cpu();
    o.allocator = get_allocator(memory_space::pinned);
    p = tack::empty<T>({n}, o);
  }
  return {b, p};
}

/// Posts the receives of `ex` into `wire` (rows of it, one per peer).
template <class T>
void post_recvs(const distributed_hierarchy& dh, const amr_exchange& ex, const array<T>& wire,
                int tag, const char* what) {
  for (const auto& m : ex.recvs) {
    dh.requests().irecv(dh.comm(), wire.rows(m.offset, m.offset + m.count).data(),
                        static_cast<std::size_t>(m.count) * sizeof(T), m.peer, tag, what);
  }
}

/// Posts the sends of `ex` from `buf` (staged through `wire` when they differ).
template <class T>
void post_sends(const distributed_hierarchy& dh, const amr_exchange& ex, const array<T>& buf,
                const array<T>& wire, int tag, const char* what) {
  if (ex.sends.empty()) return;
  tack::fence(dh.device());
  if (wire.data() != buf.data()) tack::copyto(wire, buf);
  for (const auto& m : ex.sends) {
    dh.requests().isend(dh.comm(), wire.rows(m.offset, m.offset + m.count).data(),
                        static_cast<std::size_t>(m.count) * sizeof(T), m.peer, tag, what);
  }
}

/// Waits for every message; the received values are then in `buf`.
template <class T>
void finish(const distributed_hierarchy& dh, const amr_exchange& ex, const array<T>& buf,
            const array<T>& wire, const char* what) {
  dh.requests().wait_all(what);
  if (ex.recvs.empty()) return;
  if (wire.data() != buf.data()) tack::copyto(buf, wire);
  buf.bump_version();
}

template <class Seg>
bool any(const array<Seg>& a) {
  return a.size() > 0;
}

TACK_IMPL_KERNEL_ABI_END
}  // namespace detail

TACK_IMPL_KERNEL_ABI_BEGIN

/// Adds a field of element type `T` (as `tack::amr::add_field`: scalar, `tack::vec` or
/// `tack::mat` of `float`/`double`; SoA for vectors and matrices only) on this rank's boxes,
/// zeroed. Not collective. `auto u = tack::mpi::add_field<tack::vec3d>(dh, "velocity",
/// tack::layout::soa);`
template <class T>
distributed_field<T> add_field(const distributed_hierarchy& dh, const std::string& name,
                               tack::layout layout = tack::layout::aos) {
  amr::detail::check_element<T>();
  if (layout == tack::layout::soa && is_scalar_v<T>) {
    throw value_error(
        "tack::mpi::add_field: field '" + name + "' of " + std::string(dtype_of<T>().name()) +
        " cannot be SoA (only vector and matrix elements have components); use tack::layout::aos");
  }
  auto s = std::make_shared<detail::dfield_storage<T>>();
  s->name = name;
  s->layout = layout;
  s->owner = dh.serial();
  for (int l = 0; l < dh.n_levels(); ++l) {
    const auto& p = dh.plan(l);
    s->levels.push_back(
        tack::zeros<T>({dh.local_level_size(l)}, {.device = dh.device(), .layout = layout}));
    s->layouts.push_back(p.layout);
    s->local.emplace_back(p.local.begin(), p.local.end());
  }
  s->buffers.resize(static_cast<std::size_t>(dh.n_levels()));
  s->pinned.resize(static_cast<std::size_t>(dh.n_levels()));
  return distributed_field<T>(std::move(s));
}

/// Sets every valid cell of this rank's boxes of level `l` to `f(x)`, `x` the cell centre, as
/// `tack::amr::initialize` does (one launch; ghost cells left as they are). Not collective.
/// `tack::mpi::initialize(dh, 0, rho, TACK_LAMBDA(tack::vec3d x) { return x[0]; });`
template <class T, class F>
void initialize(const distributed_hierarchy& dh, int l, const distributed_field<T>& f,
                const F& fn) {
  detail::check_dfield(dh, f, "initialize");
  detail::check_dlevel(dh, l, 0, "initialize");
  const auto& p = dh.plan(l);
  amr::detail::initialize_kernel<T, F> k{fn, dh.global().origin(), dh.global().spacing(l),
                                         static_cast<index_t>(p.boxes.size())};
  if (k.n_boxes == 0) return;
  tack::launch(dh.device(), dh.local_level_size(l), k, f.level_buffer(l), p.box_table.as_const());
}

/// Fills the ghost cells of this rank's boxes of level `l` exactly as `tack::amr::fill_ghost_cells`
/// fills them in the serial hierarchy (same-level copies, coarse-to-fine interpolation from level
/// `l - 1`, extrapolation at walls), wherever the source boxes live: one message per rank pair
/// carries the valid cells of level `l` and the regions of level `l - 1` (ghosts included) that
/// the other rank reads, packed from the level buffers by one launch each; receives are posted
/// first, the local copies and interpolation run while the messages travel. Level `l - 1`'s
/// ghost cells must be filled first on every rank (`fill_ghost_cells(dh, f)` fills every level
/// in order). Collective; agrees first unless `{.agree = false}`.
/// `tack::mpi::fill_ghost_cells(dh, 1, rho);`
template <class T>
void fill_ghost_cells(const distributed_hierarchy& dh, int l, const distributed_field<T>& f,
                      const exchange_options& o = {}) {
  const char* what = "tack::mpi::fill_ghost_cells";
  detail::check_dfield(dh, f, "fill_ghost_cells");
  detail::check_dlevel(dh, l, 0, "fill_ghost_cells");
  if (o.agree) {
    detail::agree(dh.comm(), what,
                  "level " + std::to_string(l) + " of field '" + f.name() + "' of " +
                      std::string(dtype_of<T>().name()) + " on " + dh.signature());
  }
  auto& s = f.storage();
  const auto& p = dh.plan(l);
  const tack::device d = dh.device();
  const int tag = detail::amr_tag_base + 2 * l;
  const array<T> fine = f.level_buffer(l);
  const array<T> coarse = l > 0 ? f.level_buffer(l - 1) : array<T>{};
  const auto [send, send_wire] = detail::message_buffer(dh, s, l, 0, p.fill.send_size);
  const auto [recv, recv_wire] = detail::message_buffer(dh, s, l, 1, p.fill.recv_size);
  detail::post_recvs(dh, p.fill, recv_wire, tag, what);
  if (detail::any(p.pack_fine)) {
    tack::launch(d, p.pack_fine.size(), amr::detail::transfer_kernel<T>{}, send, fine.as_const(),
                 p.pack_fine.as_const());
  }
  if (detail::any(p.pack_coarse)) {
    tack::launch(d, p.pack_coarse.size(), amr::detail::transfer_kernel<T>{}, send,
                 coarse.as_const(), p.pack_coarse.as_const());
  }
  detail::post_sends(dh, p.fill, send, send_wire, tag, what);
  const index_t r = dh.global().ratio(l);
  if (detail::any(p.copies)) {
    tack::launch(d, p.copies.size(), amr::detail::copy_kernel<T>{}, fine, p.copies.as_const());
  }
  if (detail::any(p.interp_local)) {
    tack::launch(d, p.interp_local.size(), amr::detail::interp_kernel<T>{}, fine, coarse.as_const(),
                 p.interp_local.as_const(), r);
  }
  detail::finish(dh, p.fill, recv, recv_wire, what);
  if (detail::any(p.unpack)) {
    tack::launch(d, p.unpack.size(), amr::detail::transfer_kernel<T>{}, fine, recv.as_const(),
                 p.unpack.as_const());
  }
  if (detail::any(p.interp_remote)) {
    tack::launch(d, p.interp_remote.size(), amr::detail::interp_kernel<T>{}, fine, recv.as_const(),
                 p.interp_remote.as_const(), r);
  }
  if (detail::any(p.boundary)) {
    tack::launch(d, p.boundary.size(), amr::detail::copy_kernel<T>{}, fine, p.boundary.as_const());
  }
}

/// `fill_ghost_cells` on every level, coarsest first. `tack::mpi::fill_ghost_cells(dh, rho);`
template <class T>
void fill_ghost_cells(const distributed_hierarchy& dh, const distributed_field<T>& f,
                      const exchange_options& o = {}) {
  for (int l = 0; l < dh.n_levels(); ++l) fill_ghost_cells(dh, l, f, o);
}

/// Replaces every valid cell of level `fine_level - 1` covered by a box of `fine_level` with the
/// mean of its fine cells, exactly as `tack::amr::average_down` does in the serial hierarchy: the
/// rank of each fine box averages it (the same kernel) and sends the coarse values to the rank of
/// the coarse box, one message per rank pair. Collective; agrees first unless `{.agree = false}`.
/// `tack::mpi::average_down(dh, 2, rho);`
template <class T>
void average_down(const distributed_hierarchy& dh, int fine_level, const distributed_field<T>& f,
                  const exchange_options& o = {}) {
  const char* what = "tack::mpi::average_down";
  detail::check_dfield(dh, f, "average_down");
  detail::check_dlevel(dh, fine_level, 1, "average_down");
  if (o.agree) {
    detail::agree(dh.comm(), what,
                  "level " + std::to_string(fine_level) + " of field '" + f.name() + "' of " +
                      std::string(dtype_of<T>().name()) + " on " + dh.signature());
  }
  auto& s = f.storage();
  const int l = fine_level;
  const auto& p = dh.plan(l);
  const tack::device d = dh.device();
  const int tag = detail::amr_tag_base + 2 * l + 1;
  const array<T> fine = f.level_buffer(l);
  const array<T> coarse = f.level_buffer(l - 1);
  const index_t r = dh.global().ratio(l);
  const auto [send, send_wire] = detail::message_buffer(dh, s, l, 2, p.average.send_size);
  const auto [recv, recv_wire] = detail::message_buffer(dh, s, l, 3, p.average.recv_size);
  detail::post_recvs(dh, p.average, recv_wire, tag, what);
  if (detail::any(p.average_send)) {
    tack::launch(d, p.average_send.size(), amr::detail::average_kernel<T>{}, send, fine.as_const(),
                 p.average_send.as_const(), r);
  }
  detail::post_sends(dh, p.average, send, send_wire, tag, what);
  if (detail::any(p.average_local)) {
    tack::launch(d, p.average_local.size(), amr::detail::average_kernel<T>{}, coarse,
                 fine.as_const(), p.average_local.as_const(), r);
  }
  detail::finish(dh, p.average, recv, recv_wire, what);
  if (detail::any(p.average_unpack)) {
    tack::launch(d, p.average_unpack.size(), amr::detail::transfer_kernel<T>{}, coarse,
                 recv.as_const(), p.average_unpack.as_const());
  }
}

/// `average_down` from the finest level to level 1. `tack::mpi::average_down(dh, rho);`
template <class T>
void average_down(const distributed_hierarchy& dh, const distributed_field<T>& f,
                  const exchange_options& o = {}) {
  for (int l = dh.n_levels() - 1; l >= 1; --l) average_down(dh, l, f, o);
}

TACK_IMPL_KERNEL_ABI_END

}  // namespace tack::mpi
