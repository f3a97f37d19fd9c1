// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
// tack::mpi::distributed_hierarchy: the serial hierarchy's segment lists, split by the owners of
// their boxes. Every rank builds the serial hierarchy (boxes and segment lists, no field values)
// and walks its segments in their order: a segment whose boxes are all this rank's is translated
// to this rank's level buffer; one whose destination is here and source elsewhere becomes part of
// a receive, one whose source is here and destination elsewhere part of a send. Both ranks of a
// pair walk the same lists in the same order, so they agree on where each value sits in the
// message without exchanging anything. The kernels are the serial ones; only the buffers their
// segments point into differ, so every value gets the same bits as in the serial hierarchy.

#include <algorithm>
#include <cstdio>
#include <map>
#include <span>
#include <stdexcept>
#include <tack/array/factories.hpp>
#include <tack/mpi/amr.hpp>
#include <utility>

namespace tack::mpi {
namespace detail {
namespace {

__extension__ typedef __int128 i128;  // exact products of cell counts and ranks

using amr::box;
using amr::detail::average_segment;
using amr::detail::copy_segment;
using amr::detail::interp_segment;
using amr::detail::level_layout;

template <class T>
array<T> upload(const std::vector<T>& v, const tack::device& d) {
  if (v.empty()) return tack::empty<T>({0}, {.device = d});
  return tack::array_from(std::span<const T>(v.data(), v.size()), {.device = d});
}

/// The box of level layout `lay` holding element `e`.
std::size_t box_of(const level_layout& lay, index_t e) {
  const auto it = std::upper_bound(lay.offsets.begin(), lay.offsets.end(), e);
  if (it == lay.offsets.begin() || it == lay.offsets.end()) {
    throw std::logic_error("tack::mpi::distributed_hierarchy: element " + std::to_string(e) +
                           " is outside the level buffer");
  }
  return static_cast<std::size_t>(it - lay.offsets.begin()) - 1;
}

/// The box of `lay` holding the elements `[e, e + n)` (a segment never spans two boxes).
std::size_t box_of_run(const level_layout& lay, index_t e, index_t n, const char* what) {
  const std::size_t b = box_of(lay, e);
  if (n > 0 && e + n > lay.offsets[b + 1]) {
    throw std::logic_error(std::string("tack::mpi::distributed_hierarchy: a ") + what +
                           " segment spans two boxes");
  }
  return b;
}

/// Segments bound for or coming from one peer, with positions relative to that peer's part of
/// the message buffer until the parts are laid out.
template <class Seg>
struct pending {
  std::vector<std::pair<int, Seg>> segs;
};

/// Per-peer positions in the send and receive buffers of one exchange.
struct counters {
  std::vector<index_t> send, recv;
  explicit counters(int ranks)
      : send(static_cast<std::size_t>(ranks), 0), recv(static_cast<std::size_t>(ranks), 0) {}
  /// Lays out the messages, peers in rank order; returns each peer's base in each buffer.
  std::pair<std::vector<index_t>, std::vector<index_t>> layout(amr_exchange& ex) const {
    std::vector<index_t> sb(send.size(), 0), rb(recv.size(), 0);
    for (std::size_t p = 0; p < send.size(); ++p) {
      sb[p] = ex.send_size;
      if (send[p] > 0) ex.sends.push_back({static_cast<int>(p), ex.send_size, send[p]});
      ex.send_size += send[p];
      rb[p] = ex.recv_size;
      if (recv[p] > 0) ex.recvs.push_back({static_cast<int>(p), ex.recv_size, recv[p]});
      ex.recv_size += recv[p];
    }
    return {sb, rb};
  }
};

/// The coarse cells the interpolation of segment `g` reads: its coarse cells and their six
/// neighbours (the kernel's stencil), as a box.
box stencil(const interp_segment& g, index_t r) {
  const index_t ci0 = amr::floor_div(g[2], r), ci1 = amr::floor_div(g[2] + g[1] - 1, r);
  const index_t cj = amr::floor_div(g[3], r), ck = amr::floor_div(g[4], r);
  return box{{ci0 - 1, cj - 1, ck - 1}, {ci1 + 1, cj + 1, ck + 1}};
}

box hull(const box& a, const box& b) {
  if (a.empty()) return b;
  box h;
  for (std::size_t d = 0; d < 3; ++d) {
    h.lo[d] = std::min(a.lo[d], b.lo[d]);
    h.hi[d] = std::max(a.hi[d], b.hi[d]);
  }
  return h;
}

std::uint64_t interleave(std::uint64_t x) {
  std::uint64_t r = 0;
  for (int i = 0; i < 21; ++i) r |= ((x >> i) & 1u) << (3 * i);
  return r;
}

std::string number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

}  // namespace

amr_rank_plan build_amr_rank_plan(const amr::hierarchy& h, const box_owners& owners, int l, int me,
                                  int ranks, const amr_rank_plan* coarse, const tack::device& d) {
  const auto lu = static_cast<std::size_t>(l);
  const level_layout& full = h.layout(l);
  const amr::detail::level_plan& sp = h.plan(l);
  const std::vector<int>& own = owners[lu];
  amr_rank_plan p;
  // This rank's boxes and where they sit in its level buffer.
  std::vector<box> mine;
  p.local.assign(full.boxes.size(), -1);
  for (std::size_t b = 0; b < full.boxes.size(); ++b) {
    if (own[b] != me) continue;
    p.local[b] = static_cast<index_t>(p.boxes.size());
    p.boxes.push_back(b);
    mine.push_back(full.boxes[b]);
  }
  p.layout = amr::detail::make_layout(mine, h.ghost());
  const level_layout& lay = *p.layout;
  std::vector<vec<index_t, 8>> table;
  for (std::size_t j = 0; j < mine.size(); ++j) {
    const box g = lay.grown(j);
    table.push_back(vec<index_t, 8>{lay.offsets[j], g.lo[0], g.lo[1], g.lo[2], g.extent(0),
                                    g.extent(1), g.extent(2), lay.ghost});
  }
  p.box_table = upload(table, d);
  // Element `e` of box `b` of the serial level buffer, in this rank's buffer.
  auto here = [&](std::size_t b, index_t e) {
    return lay.offsets[static_cast<std::size_t>(p.local[b])] + (e - full.offsets[b]);
  };

  // fill_ghost_cells: same-level copies (from valid cells of box `src` into ghosts of box `dst`).
  counters fc(ranks);
  std::vector<copy_segment> copies, boundary;
  pending<copy_segment> pack_fine, pack_coarse, unpack;
  for (const copy_segment& g : sp.copies.to_vector()) {
    const std::size_t bd = box_of_run(full, g[0], g[2], "copy");
    const std::size_t bs = box_of_run(full, g[1], g[2], "copy");
    const int od = own[bd], os = own[bs];
    if (od == me && os == me) {
      copies.push_back(copy_segment{here(bd, g[0]), here(bs, g[1]), g[2], g[3]});
    } else if (od == me) {
      auto& pos = fc.recv[static_cast<std::size_t>(os)];
      unpack.segs.push_back({os, copy_segment{here(bd, g[0]), pos, g[2], 1}});
      pos += g[2];
    } else if (os == me) {
      auto& pos = fc.send[static_cast<std::size_t>(od)];
      pack_fine.segs.push_back({od, copy_segment{pos, here(bs, g[1]), g[2], 1}});
      pos += g[2];
    }
  }
  // Boundary extrapolation reads the box's own grown region.
  for (const copy_segment& g : sp.boundary.to_vector()) {
    const std::size_t b = box_of_run(full, g[0], g[2], "boundary");
    if (own[b] != me) continue;
    boundary.push_back(copy_segment{here(b, g[0]), here(b, g[1]), g[2], g[3]});
  }
  // Coarse-to-fine interpolation: from this rank's coarse boxes directly; from another rank's,
  // through the region of the coarse box (ghost cells included) that the segments read, which the
  // other rank sends whole (x fastest) after the same-level values of the message.
  std::vector<interp_segment> interp_local;
  pending<interp_segment> interp_remote;
  std::vector<std::size_t> remote_q;  // the coarse box of each remote segment
  if (l > 0) {
    if (!coarse)
      throw std::logic_error(
          "tack::mpi::distributed_hierarchy: level plans are built coarsest first");
    const level_layout& cfull = h.layout(l - 1);
    const level_layout& clay = *coarse->layout;
    const std::vector<int>& cown = owners[lu - 1];
    const index_t r = h.ratio(l);
    std::map<std::size_t, box> need;                  // coarse box -> region this rank reads
    std::map<std::pair<int, std::size_t>, box> give;  // (rank, coarse box) -> region it reads here
    for (const interp_segment& g : sp.interp.to_vector()) {
      const std::size_t bd = box_of_run(full, g[0], g[1], "interpolation");
      const std::size_t q = box_of(cfull, g[5]);
      if (cfull.offsets[q] != g[5])
        throw std::logic_error("tack::mpi::distributed_hierarchy: a coarse base is no box's");
      const int od = own[bd], oq = cown[q];
      if (od != me && oq != me) continue;
      const box st = stencil(g, r);
      if (!cfull.grown(q).contains(st)) {
        throw std::logic_error(
            "tack::mpi::distributed_hierarchy: an interpolation reads outside coarse box " +
            std::to_string(q) + "'s ghost cells");
      }
      if (od == me && oq == me) {
        interp_segment t = g;
        t[0] = here(bd, g[0]);
        t[5] = clay.offsets[static_cast<std::size_t>(coarse->local[q])];
        interp_local.push_back(t);
      } else if (od == me) {
        need[q] = hull(need.count(q) ? need[q] : box{}, st);
        interp_segment t = g;
        t[0] = here(bd, g[0]);
        interp_remote.segs.push_back({oq, t});
        remote_q.push_back(q);
      } else {
        auto& region = give[{od, q}];
        region = hull(region, st);
      }
    }
    // Receiving side: each needed region's place in its owner's message, in coarse-box order.
    std::map<std::size_t, index_t> at;
    for (const auto& [q, region] : need) {
      auto& pos = fc.recv[static_cast<std::size_t>(cown[q])];
      at[q] = pos;
      pos += region.size();
    }
    for (std::size_t i = 0; i < interp_remote.segs.size(); ++i) {
      interp_segment& t = interp_remote.segs[i].second;
      const box& region = need[remote_q[i]];
      t[5] = at[remote_q[i]];
      t[6] = region.lo[0];
      t[7] = region.lo[1];
      t[8] = region.lo[2];
      t[9] = region.extent(0);
      t[10] = region.extent(1);
    }
    // Sending side: the same regions, in the same order (per peer, by coarse box), row by row.
    for (const auto& [key, region] : give) {
      const auto [peer, q] = key;
      auto& pos = fc.send[static_cast<std::size_t>(peer)];
      const auto jq = static_cast<std::size_t>(coarse->local[q]);
      for (index_t z = region.lo[2]; z <= region.hi[2]; ++z) {
        for (index_t y = region.lo[1]; y <= region.hi[1]; ++y) {
          pack_coarse.segs.push_back(
              {peer,
               copy_segment{pos, clay.element(jq, {region.lo[0], y, z}), region.extent(0), 1}});
          pos += region.extent(0);
        }
      }
    }
  }
  {
    // Named members, not a structured binding: the lambda below uses `sb`, and clang 14 (the
    // sanitizer builds) cannot capture a structured binding.
    const auto fill_bases = fc.layout(p.fill);
    const std::vector<index_t>&sb = fill_bases.first, &rb = fill_bases.second;
    auto finish_pack = [&](pending<copy_segment>& s) {
      std::vector<copy_segment> out;
      for (auto& [peer, g] : s.segs)
        out.push_back(copy_segment{g[0] + sb[static_cast<std::size_t>(peer)], g[1], g[2], g[3]});
      return out;
    };
    std::vector<copy_segment> un;
    for (auto& [peer, g] : unpack.segs)
      un.push_back(copy_segment{g[0], g[1] + rb[static_cast<std::size_t>(peer)], g[2], g[3]});
    std::vector<interp_segment> ir;
    for (auto& [peer, g] : interp_remote.segs) {
      interp_segment t = g;
      t[5] += rb[static_cast<std::size_t>(peer)];
      ir.push_back(t);
    }
    p.copies = upload(copies, d);
    p.boundary = upload(boundary, d);
    p.interp_local = upload(interp_local, d);
    p.pack_fine = upload(finish_pack(pack_fine), d);
    p.pack_coarse = upload(finish_pack(pack_coarse), d);
    p.unpack = upload(un, d);
    p.interp_remote = upload(ir, d);
  }

  // average_down into level l - 1: the fine box's rank averages; the coarse values travel.
  if (l > 0) {
    const level_layout& cfull = h.layout(l - 1);
    const level_layout& clay = *coarse->layout;
    const std::vector<int>& cown = owners[lu - 1];
    counters ac(ranks);
    std::vector<average_segment> local;
    pending<average_segment> send;
    pending<copy_segment> recv;
    for (const average_segment& g : sp.average.to_vector()) {
      const std::size_t q = box_of_run(cfull, g[0], g[1], "average");
      const std::size_t b = box_of(full, g[2]);
      const int oq = cown[q], ob = own[b];
      const index_t cdst = oq == me ? clay.offsets[static_cast<std::size_t>(coarse->local[q])] +
                                          (g[0] - cfull.offsets[q])
                                    : 0;
      if (oq == me && ob == me) {
        local.push_back(average_segment{cdst, g[1], here(b, g[2]), g[3], g[4], 0});
      } else if (ob == me) {
        auto& pos = ac.send[static_cast<std::size_t>(oq)];
        send.segs.push_back({oq, average_segment{pos, g[1], here(b, g[2]), g[3], g[4], 0}});
        pos += g[1];
      } else if (oq == me) {
        auto& pos = ac.recv[static_cast<std::size_t>(ob)];
        recv.segs.push_back({ob, copy_segment{cdst, pos, g[1], 1}});
        pos += g[1];
      }
    }
    const auto [sb, rb] = ac.layout(p.average);
    std::vector<average_segment> s;
    for (auto& [peer, g] : send.segs) {
      average_segment t = g;
      t[0] += sb[static_cast<std::size_t>(peer)];
      s.push_back(t);
    }
    std::vector<copy_segment> u;
    for (auto& [peer, g] : recv.segs)
      u.push_back(copy_segment{g[0], g[1] + rb[static_cast<std::size_t>(peer)], g[2], g[3]});
    p.average_local = upload(local, d);
    p.average_send = upload(s, d);
    p.average_unpack = upload(u, d);
  } else {
    p.average_local = upload(std::vector<average_segment>{}, d);
    p.average_send = upload(std::vector<average_segment>{}, d);
    p.average_unpack = upload(std::vector<copy_segment>{}, d);
  }
  return p;
}

std::string amr_signature(const amr::box& domain, const std::vector<amr::level>& levels,
                          const amr::hierarchy_options& o,
                          const std::optional<box_owners>& owners) {
  std::string s = "hierarchy over domain " + domain.describe() + " of " +
                  std::to_string(levels.size()) + " levels (";
  std::uint64_t hb = hash_bytes(nullptr, 0);
  for (std::size_t l = 0; l < levels.size(); ++l) {
    s += (l ? "; " : "") + std::string("ratio ") + std::to_string(levels[l].ratio) + ", " +
         std::to_string(levels[l].boxes.size()) + " boxes";
    for (const box& b : levels[l].boxes) {
      hb = hash_bytes(b.lo.data(), sizeof(b.lo), hb);
      hb = hash_bytes(b.hi.data(), sizeof(b.hi), hb);
    }
    hb = hash_bytes(&levels[l].ratio, sizeof(int), hb);
  }
  s +=
      "), boxes hash " + std::to_string(hb) + ", ghost " + std::to_string(o.ghost) + ", boundaries";
  for (auto bc : o.boundaries) s += bc == amr::boundary::periodic ? " periodic" : " extrapolate";
  s += ", origin (" + number(o.origin[0]) + ", " + number(o.origin[1]) + ", " +
       number(o.origin[2]) + "), spacing (" + number(o.spacing[0]) + ", " + number(o.spacing[1]) +
       ", " + number(o.spacing[2]) + "), owners ";
  if (!owners) return s + "by Morton order";
  std::uint64_t ho = hash_bytes(nullptr, 0);
  std::string counts;
  for (const auto& lv : *owners) {
    ho = hash_bytes(lv.data(), lv.size() * sizeof(int), ho);
    const std::uint64_t n = lv.size();
    ho = hash_bytes(&n, sizeof n, ho);
    counts += (counts.empty() ? "" : ", ") + std::to_string(lv.size());
  }
  return s + "given (" + counts + " per level, hash " + std::to_string(ho) + ")";
}

}  // namespace detail

box_owners morton_owners(const amr::hierarchy& h, int ranks) {
  if (ranks < 1) {
    throw value_error("tack::mpi::morton_owners: " + std::to_string(ranks) +
                      " ranks (at least one is needed)");
  }
  const int finest = h.n_levels() - 1;
  const amr::box fd = h.domain(finest);
  box_owners out(static_cast<std::size_t>(h.n_levels()));
  for (int l = 0; l < h.n_levels(); ++l) {
    index_t scale = 1;
    for (int k = l + 1; k <= finest; ++k) scale *= h.ratio(k);
    const auto& boxes = h.boxes(l);
    // Twice the centre, in the finest level's cells from its domain's lower corner.
    std::vector<std::array<std::uint64_t, 3>> c(boxes.size());
    std::uint64_t top = 0;
    for (std::size_t b = 0; b < boxes.size(); ++b) {
      for (std::size_t d = 0; d < 3; ++d) {
        c[b][d] = static_cast<std::uint64_t>((boxes[b].lo[d] + boxes[b].hi[d] + 1) * scale -
                                             2 * fd.lo[d]);
        top = std::max(top, c[b][d]);
      }
    }
    int shift = 0;
    while ((top >> shift) >= (std::uint64_t{1} << 21)) ++shift;
    std::vector<std::pair<std::uint64_t, std::size_t>> order(boxes.size());
    for (std::size_t b = 0; b < boxes.size(); ++b) {
      order[b] = {detail::interleave(c[b][0] >> shift) |
                      (detail::interleave(c[b][1] >> shift) << 1) |
                      (detail::interleave(c[b][2] >> shift) << 2),
                  b};
    }
    std::sort(order.begin(), order.end());
    detail::i128 total = 0;
    for (const auto& b : boxes) total += b.size();
    auto& lv = out[static_cast<std::size_t>(l)];
    lv.assign(boxes.size(), 0);
    detail::i128 before = 0;
    for (const auto& [key, b] : order) {
      const detail::i128 mid = 2 * before + boxes[b].size();  // twice the box's middle cell
      lv[b] = static_cast<int>(std::min<detail::i128>(ranks - 1, mid * ranks / (2 * total)));
      before += boxes[b].size();
    }
  }
  return out;
}

namespace {

communicator checked_dup(const communicator& c) {
  if (!c.valid()) {
    throw value_error(
        "tack::mpi::distributed_hierarchy: the communicator handle is empty; use "
        "tack::mpi::communicator::world()");
  }
  return c.dup();
}

amr::hierarchy agreed_hierarchy(const communicator& c, const amr::box& domain,
                                std::vector<amr::level> levels, const amr::hierarchy_options& o,
                                const std::optional<box_owners>& owners) {
  detail::agree(c, "tack::mpi::distributed_hierarchy",
                detail::amr_signature(domain, levels, o, owners));
  amr::hierarchy_options host = o;
  host.device = tack::cpu();
  return amr::hierarchy(domain, std::move(levels), host);
}

}  // namespace

distributed_hierarchy::distributed_hierarchy(const communicator& comm, const amr::box& domain,
                                             std::vector<amr::level> levels,
                                             const amr::hierarchy_options& options,
                                             std::optional<box_owners> owners)
    : comm_(checked_dup(comm)),
      global_(agreed_hierarchy(comm_, domain, levels, options, owners)),
      device_(options.device.value_or(tack::default_device())),
      signature_(detail::amr_signature(domain, levels, options, owners)),
      requests_(std::make_unique<detail::request_list>()) {
  const int ranks = comm_.size();
  if (owners) {
    const std::string what = "tack::mpi::distributed_hierarchy: ";
    if (owners->size() != static_cast<std::size_t>(global_.n_levels())) {
      throw value_error(what + "the owners list has " + std::to_string(owners->size()) +
                        " levels; the hierarchy has " + std::to_string(global_.n_levels()));
    }
    for (int l = 0; l < global_.n_levels(); ++l) {
      const auto& lv = (*owners)[static_cast<std::size_t>(l)];
      if (lv.size() != global_.boxes(l).size()) {
        throw value_error(what + "the owners of level " + std::to_string(l) + " name " +
                          std::to_string(lv.size()) + " boxes; the level has " +
                          std::to_string(global_.boxes(l).size()));
      }
      for (std::size_t b = 0; b < lv.size(); ++b) {
        if (lv[b] < 0 || lv[b] >= ranks) {
          throw value_error(what + "box " + std::to_string(b) + " " +
                            global_.boxes(l)[b].describe() + " of level " + std::to_string(l) +
                            " is given to rank " + std::to_string(lv[b]) + ", not one of the " +
                            std::to_string(ranks) + " ranks of " + comm_.describe());
        }
      }
    }
    owners_ = std::move(*owners);
  } else {
    owners_ = morton_owners(global_, ranks);
  }
  serial_ = global_.serial();
  const int me = comm_.rank();
  plans_.reserve(static_cast<std::size_t>(global_.n_levels()));
  for (int l = 0; l < global_.n_levels(); ++l) {
    plans_.push_back(detail::build_amr_rank_plan(global_, owners_, l, me, ranks,
                                                 l > 0 ? &plans_.back() : nullptr, device_));
  }
}

namespace {
std::vector<amr::level> levels_of(const amr::hierarchy& h) {
  std::vector<amr::level> out;
  for (int l = 0; l < h.n_levels(); ++l) out.push_back(amr::level{h.ratio(l), h.boxes(l)});
  return out;
}
amr::hierarchy_options options_of(const amr::hierarchy& h) {
  amr::hierarchy_options o;
  o.ghost = h.ghost();
  o.boundaries = h.boundaries();
  o.origin = h.origin();
  o.spacing = h.spacing(0);
  o.device = h.device();
  return o;
}
}  // namespace

distributed_hierarchy::distributed_hierarchy(const communicator& comm, const amr::hierarchy& like,
                                             std::optional<box_owners> owners)
    : distributed_hierarchy(comm, like.domain(0), levels_of(like), options_of(like),
                            std::move(owners)) {}

int distributed_hierarchy::owner(int l, std::size_t b) const {
  plan(l);  // checks the level
  const auto& lv = owners_[static_cast<std::size_t>(l)];
  if (b >= lv.size()) {
    throw index_error("tack::mpi::distributed_hierarchy::owner: box " + std::to_string(b) +
                      " of level " + std::to_string(l) + " does not exist (the level has " +
                      std::to_string(lv.size()) + " boxes)");
  }
  return lv[b];
}

const detail::amr_rank_plan& distributed_hierarchy::plan(int l) const {
  if (l < 0 || l >= n_levels()) {
    throw index_error("tack::mpi::distributed_hierarchy: level " + std::to_string(l) +
                      " does not exist (levels 0 to " + std::to_string(n_levels() - 1) + ")");
  }
  return plans_[static_cast<std::size_t>(l)];
}

std::string distributed_hierarchy::describe() const {
  std::size_t n = 0;
  for (const auto& p : plans_) n += p.boxes.size();
  return "distributed_hierarchy over " + comm_.describe() + ": " + global_.describe() + ", " +
         std::to_string(n) + " of " + std::to_string(global_.n_boxes()) + " boxes on this rank";
}

}  // namespace tack::mpi
