// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
// tack::amr on the host: checking a hierarchy, laying out its level buffers, and building the
// segment lists that fill_ghost_cells / average_down / regrid run over. Every ghost cell is
// classified once (copy from a box of the same level, interpolation from the coarser level, or
// extrapolation outside the domain), and runs of cells along x with the same source become one
// segment.

#include <tack/amr/hierarchy.hpp>

#include <tack/array/factories.hpp>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <optional>
#include <span>
#include <stdexcept>
#include <unordered_map>

namespace tack::amr {
namespace detail {
namespace {

using point = std::array<index_t, 3>;

const char* axis_name(int d) { return d == 0 ? "x" : (d == 1 ? "y" : "z"); }

/// Boxes of one level binned on a uniform grid of cubes as large as the largest box, so that a
/// cell or a box finds the few boxes it may meet. The boxes may overlap (validation uses this to
/// find overlaps).
class box_index {
public:
  explicit box_index(const std::vector<box>& boxes) : boxes_(&boxes), stamp_(boxes.size(), 0) {
    for (const box& b : boxes) {
      for (int d = 0; d < 3; ++d) bin_ = std::max(bin_, b.extent(d));
    }
    for (std::size_t i = 0; i < boxes.size(); ++i) {
      each_bin(boxes[i], [&](std::uint64_t key) { bins_[key].push_back(static_cast<int>(i)); });
    }
  }

  /// The box holding cell `p`, or -1.
  int find(const point& p) const {
    if (last_ >= 0 && (*boxes_)[static_cast<std::size_t>(last_)].contains(p)) return last_;
    const auto it =
        bins_.find(pack(floor_div(p[0], bin_), floor_div(p[1], bin_), floor_div(p[2], bin_)));
    if (it == bins_.end()) return -1;
    for (int i : it->second) {
      if ((*boxes_)[static_cast<std::size_t>(i)].contains(p)) {
        last_ = i;
        return i;
      }
    }
    return -1;
  }

  /// Calls `f(i)` once for every box `i` that meets `q`.
  template <class F>
  void for_each_meeting(const box& q, F&& f) const {
    ++round_;
    each_bin(q, [&](std::uint64_t k) {
      const auto it = bins_.find(k);
      if (it == bins_.end()) return;
      for (int i : it->second) {
        const auto u = static_cast<std::size_t>(i);
        if (stamp_[u] == round_) continue;
        stamp_[u] = round_;
        if (!((*boxes_)[u] & q).empty()) f(i);
      }
    });
  }

private:
  static std::uint64_t pack(index_t x, index_t y, index_t z) {
    constexpr index_t bias = index_t(1) << 20;
    return (static_cast<std::uint64_t>(x + bias) << 42) |
           (static_cast<std::uint64_t>(y + bias) << 21) | static_cast<std::uint64_t>(z + bias);
  }
  template <class F>
  void each_bin(const box& b, F&& f) const {
    if (b.empty()) return;
    for (index_t z = floor_div(b.lo[2], bin_); z <= floor_div(b.hi[2], bin_); ++z) {
      for (index_t y = floor_div(b.lo[1], bin_); y <= floor_div(b.hi[1], bin_); ++y) {
        for (index_t x = floor_div(b.lo[0], bin_); x <= floor_div(b.hi[0], bin_); ++x)
          f(pack(x, y, z));
      }
    }
  }

  const std::vector<box>* boxes_;
  index_t bin_ = 1;
  std::unordered_map<std::uint64_t, std::vector<int>> bins_;
  mutable int last_ = -1;
  mutable std::vector<std::uint32_t> stamp_;
  mutable std::uint32_t round_ = 0;
};

/// A part of a box inside the domain and the shift that moved it there (periodic images).
struct piece {
  box part;
  point shift;
};

/// The parts of `g` inside domain `dom`: on periodic axes every periodic image is wrapped into
/// the domain; on the others the box is clipped.
std::vector<piece> domain_pieces(const box& g, const box& dom, const std::array<boundary, 3>& bc) {
  std::array<std::vector<std::pair<std::array<index_t, 2>, index_t>>, 3> axes;
  for (std::size_t d = 0; d < 3; ++d) {
    if (bc[d] == boundary::periodic) {
      const index_t len = dom.extent(static_cast<int>(d));
      for (index_t k = floor_div(g.lo[d] - dom.lo[d], len);
           k <= floor_div(g.hi[d] - dom.lo[d], len); ++k) {
        const index_t lo = std::max(g.lo[d], dom.lo[d] + k * len);
        const index_t hi = std::min(g.hi[d], dom.hi[d] + k * len);
        if (lo <= hi) axes[d].push_back({{lo - k * len, hi - k * len}, -k * len});
      }
    } else {
      const index_t lo = std::max(g.lo[d], dom.lo[d]);
      const index_t hi = std::min(g.hi[d], dom.hi[d]);
      if (lo <= hi) axes[d].push_back({{lo, hi}, 0});
    }
  }
  std::vector<piece> out;
  for (const auto& z : axes[2]) {
    for (const auto& y : axes[1]) {
      for (const auto& x : axes[0]) {
        out.push_back(
            {box{{x.first[0], y.first[0], z.first[0]}, {x.first[1], y.first[1], z.first[1]}},
             {x.second, y.second, z.second}});
      }
    }
  }
  return out;
}

std::string box_name(int l, std::size_t i, const box& b) {
  return "box " + std::to_string(i) + " " + b.describe() + " of level " + std::to_string(l);
}

/// Segments built cell by cell: consecutive cells along x with a compatible source extend the
/// current run, anything else ends it.
class segment_builder {
public:
  enum kind { none, copy, extrapolate, interpolate };

  std::vector<copy_segment> copies, boundary;
  std::vector<interp_segment> interp;
  index_t copy_cells = 0, boundary_cells = 0, interp_cells = 0;

  void add_copy(kind k, index_t dst, index_t src) {
    if (run_ == k && dst == dst0_ + count_) {
      if (count_ == 1 && k == extrapolate && (src == src0_ || src == src0_ + 1)) {
        stride_ = src - src0_;
        ++count_;
        return;
      }
      if (src == src0_ + count_ * stride_ && (count_ > 1 || k == copy)) {
        ++count_;
        return;
      }
    }
    flush();
    run_ = k;
    dst0_ = dst;
    src0_ = src;
    count_ = 1;
    stride_ = 1;
  }

  void add_interp(index_t dst, const point& w, index_t cbase, const box& cg) {
    if (run_ == interpolate && dst == dst0_ + count_ && w[0] == w_[0] + count_ && w[1] == w_[1] &&
        w[2] == w_[2] && cbase == cbase_) {
      ++count_;
      return;
    }
    flush();
    run_ = interpolate;
    dst0_ = dst;
    count_ = 1;
    w_ = w;
    cbase_ = cbase;
    cg_ = cg;
  }

  void flush() {
    switch (run_) {
      case copy:
        copies.push_back(copy_segment{dst0_, src0_, count_, index_t(1)});
        copy_cells += count_;
        break;
      case extrapolate:
        boundary.push_back(copy_segment{dst0_, src0_, count_, count_ > 1 ? stride_ : index_t(0)});
        boundary_cells += count_;
        break;
      case interpolate:
        interp.push_back(interp_segment{dst0_, count_, w_[0], w_[1], w_[2], cbase_, cg_.lo[0],
                                        cg_.lo[1], cg_.lo[2], cg_.extent(0), cg_.extent(1),
                                        index_t(0)});
        interp_cells += count_;
        break;
      case none:
        break;
    }
    run_ = none;
  }

private:
  kind run_ = none;
  index_t dst0_ = 0, src0_ = 0, count_ = 0, stride_ = 1, cbase_ = 0;
  point w_{};
  box cg_{};
};

template <class T>
array<T> upload(const std::vector<T>& v, const tack::device& d) {
  if (v.empty()) return tack::empty<T>({0}, {.device = d});
  return tack::array_from(std::span<const T>(v.data(), v.size()), {.device = d});
}

/// The coarse box holding coarse cell `c` (the hierarchy is nested, so there is one).
int coarse_box_of(const box_index& coarse, const point& c, int l) {
  const int q = coarse.find(c);
  if (q < 0) {
    throw std::logic_error("tack::amr: coarse cell (" + std::to_string(c[0]) + ", " +
                           std::to_string(c[1]) + ", " + std::to_string(c[2]) + ") under level " +
                           std::to_string(l) +
                           " is in no box of the coarser level although the hierarchy was checked");
  }
  return q;
}

std::atomic<std::uint64_t> next_serial{1};

}  // namespace

std::shared_ptr<const level_layout> make_layout(const std::vector<box>& boxes, index_t ghost) {
  auto lay = std::make_shared<level_layout>();
  lay->boxes = boxes;
  lay->ghost = ghost;
  lay->offsets.assign(1, 0);
  lay->offsets.reserve(boxes.size() + 1);
  for (const box& b : boxes) lay->offsets.push_back(lay->offsets.back() + b.grow(ghost).size());
  return lay;
}

void validate(const geometry& g, const std::vector<level>& levels, const char* op) {
  const std::string o = op;
  if (g.domain.empty()) throw value_error(o + ": the domain " + g.domain.describe() + " is empty");
  if (g.ghost < 0)
    throw value_error(o + ": the ghost width must be >= 0, got " + std::to_string(g.ghost));
  if (levels.empty())
    throw value_error(o + ": a hierarchy needs at least one level (level 0 covering the domain)");
  for (std::size_t l = 0; l < levels.size(); ++l) {
    const int r = levels[l].ratio;
    if (l == 0 ? r != 1 : (r != 2 && r != 4)) {
      throw value_error(o + ": level " + std::to_string(l) + " has refinement ratio " +
                        std::to_string(r) +
                        (l == 0 ? "; level 0's ratio must be 1" : "; ratios must be 2 or 4"));
    }
  }
  for (std::size_t lu = 0; lu < levels.size(); ++lu) {
    const int l = static_cast<int>(lu);
    const auto& boxes = levels[lu].boxes;
    const box dom = g.domain_at(l);
    const index_t r = levels[lu].ratio;
    if (boxes.empty()) throw value_error(o + ": level " + std::to_string(l) + " has no boxes");
    for (std::size_t i = 0; i < boxes.size(); ++i) {
      const box& b = boxes[i];
      if (b.empty()) throw value_error(o + ": " + box_name(l, i, b) + " is empty");
      if (!dom.contains(b)) {
        throw value_error(o + ": " + box_name(l, i, b) + " is not inside the level's domain " +
                          dom.describe());
      }
      for (int d = 0; d < 3; ++d) {
        if (b.extent(d) < g.ghost) {
          throw value_error(o + ": the ghost width " + std::to_string(g.ghost) +
                            " is larger than " + box_name(l, i, b) + " (" +
                            std::to_string(b.extent(d)) + " cells along " + axis_name(d) + ")");
        }
        const auto k = static_cast<std::size_t>(d);
        if (l > 0 && (b.lo[k] % r != 0 || (b.hi[k] + 1) % r != 0)) {
          throw value_error(o + ": " + box_name(l, i, b) +
                            " is not aligned with its refinement ratio " + std::to_string(r) +
                            " (its lower corner and its upper corner + 1 must be multiples of " +
                            std::to_string(r) + ")");
        }
      }
    }
    const box_index index(boxes);
    index_t covered = 0;
    for (std::size_t i = 0; i < boxes.size(); ++i) {
      index.for_each_meeting(boxes[i], [&](int j) {
        const auto u = static_cast<std::size_t>(j);
        if (u > i) {
          throw value_error(o + ": " + box_name(l, i, boxes[i]) + " and box " + std::to_string(j) +
                            " " + boxes[u].describe() + " overlap (" +
                            (boxes[i] & boxes[u]).describe() + ")");
        }
      });
      covered += boxes[i].size();
    }
    if (l == 0 && covered != dom.size()) {
      throw value_error(o + ": level 0's boxes cover " + std::to_string(covered) +
                        " of the domain's " + std::to_string(dom.size()) + " cells " +
                        dom.describe() + "; level 0 must cover the domain");
    }
    if (l == 0) continue;
    // Nesting: every cell of a fine box grown by the ghost width (wrapped or clipped to the
    // domain) lies over a valid coarse cell, so its interpolation has a coarse box to read.
    const auto& coarse = levels[lu - 1].boxes;
    const box_index cindex(coarse);
    for (std::size_t i = 0; i < boxes.size(); ++i) {
      for (const piece& p : domain_pieces(boxes[i].grow(g.ghost), dom, g.boundaries)) {
        const box c = p.part.coarsen(r);
        index_t in = 0;
        cindex.for_each_meeting(
            c, [&](int j) { in += (coarse[static_cast<std::size_t>(j)] & c).size(); });
        if (in != c.size()) {
          throw value_error(o + ": " + box_name(l, i, boxes[i]) + " is not nested in level " +
                            std::to_string(l - 1) + ": grown by the ghost width " +
                            std::to_string(g.ghost) + " it lies over coarse cells " + c.describe() +
                            ", of which only " + std::to_string(in) + " of " +
                            std::to_string(c.size()) + " are in level " + std::to_string(l - 1) +
                            "'s boxes");
        }
      }
    }
  }
}

level_plan build_plan(const geometry& g, int l, std::shared_ptr<const level_layout> fine,
                      const level_layout* coarse, const tack::device& d) {
  level_plan plan;
  const level_layout& lay = *fine;
  const box dom = g.domain_at(l);
  const index_t r = g.ratios[static_cast<std::size_t>(l)];
  const box_index index(lay.boxes);
  std::optional<box_index> cindex;
  if (coarse) cindex.emplace(coarse->boxes);
  segment_builder sb;
  std::vector<vec<index_t, 8>> table;
  table.reserve(lay.boxes.size());
  for (std::size_t b = 0; b < lay.boxes.size(); ++b) {
    const box v = lay.boxes[b];
    const box gb = lay.grown(b);
    table.push_back(vec<index_t, 8>{lay.offsets[b], gb.lo[0], gb.lo[1], gb.lo[2], gb.extent(0),
                                    gb.extent(1), gb.extent(2), lay.ghost});
    for (index_t z = gb.lo[2]; z <= gb.hi[2]; ++z) {
      for (index_t y = gb.lo[1]; y <= gb.hi[1]; ++y) {
        const bool row_in = y >= v.lo[1] && y <= v.hi[1] && z >= v.lo[2] && z <= v.hi[2];
        for (index_t x = gb.lo[0]; x <= gb.hi[0]; ++x) {
          if (row_in && x == v.lo[0]) {
            x = v.hi[0];  // the valid cells of this row
            sb.flush();
            continue;
          }
          const point p{x, y, z};
          point w = p;
          bool outside = false;
          for (std::size_t k = 0; k < 3; ++k) {
            if (p[k] >= dom.lo[k] && p[k] <= dom.hi[k]) continue;
            if (g.boundaries[k] == boundary::periodic) {
              const index_t len = dom.extent(static_cast<int>(k));
              w[k] = dom.lo[k] + (p[k] - dom.lo[k] - floor_div(p[k] - dom.lo[k], len) * len);
            } else {
              outside = true;
              w[k] = std::clamp(p[k], dom.lo[k], dom.hi[k]);
            }
          }
          const index_t dst = lay.element(b, p);
          if (outside) {
            // The nearest cell inside the domain, along the non-periodic axes only: it lies in this
            // box's grown region (periodic axes keep the unwrapped index).
            point q = p;
            for (std::size_t k = 0; k < 3; ++k) {
              if (g.boundaries[k] != boundary::periodic)
                q[k] = std::clamp(p[k], dom.lo[k], dom.hi[k]);
            }
            sb.add_copy(segment_builder::extrapolate, dst, lay.element(b, q));
            continue;
          }
          const int n = index.find(w);
          if (n >= 0) {
            sb.add_copy(segment_builder::copy, dst, lay.element(static_cast<std::size_t>(n), w));
            continue;
          }
          if (!coarse) {
            throw std::logic_error(
                "tack::amr: a level-0 ghost cell inside the domain is in no level-0 box "
                "although level 0 covers the domain");
          }
          const point c{floor_div(w[0], r), floor_div(w[1], r), floor_div(w[2], r)};
          const auto q = static_cast<std::size_t>(coarse_box_of(*cindex, c, l));
          sb.add_interp(dst, w, coarse->offsets[q], coarse->grown(q));
        }
        sb.flush();
      }
    }
  }
  sb.flush();
  std::vector<average_segment> avg;
  if (coarse) {
    for (std::size_t b = 0; b < lay.boxes.size(); ++b) {
      const box c = lay.boxes[b].coarsen(r);
      const box gb = lay.grown(b);
      cindex->for_each_meeting(c, [&](int qi) {
        const auto q = static_cast<std::size_t>(qi);
        const box in = coarse->boxes[q] & c;
        for (index_t z = in.lo[2]; z <= in.hi[2]; ++z) {
          for (index_t y = in.lo[1]; y <= in.hi[1]; ++y) {
            avg.push_back(average_segment{coarse->element(q, {in.lo[0], y, z}), in.extent(0),
                                          lay.element(b, {in.lo[0] * r, y * r, z * r}),
                                          gb.extent(0), gb.extent(0) * gb.extent(1), index_t(0)});
            plan.average_cells += in.extent(0);
          }
        }
      });
    }
  }
  plan.layout = std::move(fine);
  plan.copies = upload(sb.copies, d);
  plan.interp = upload(sb.interp, d);
  plan.boundary = upload(sb.boundary, d);
  plan.average = upload(avg, d);
  plan.box_table = upload(table, d);
  plan.copy_cells = sb.copy_cells;
  plan.interp_cells = sb.interp_cells;
  plan.boundary_cells = sb.boundary_cells;
  return plan;
}

regrid_plan build_regrid_plan(const geometry& g, int l, const level_layout& old_layout,
                              const level_layout& new_layout, const level_layout* coarse,
                              const tack::device& d) {
  const index_t r = g.ratios[static_cast<std::size_t>(l)];
  const box_index old_index(old_layout.boxes);
  std::optional<box_index> cindex;
  if (coarse) cindex.emplace(coarse->boxes);
  segment_builder sb;
  for (std::size_t b = 0; b < new_layout.boxes.size(); ++b) {
    const box v = new_layout.boxes[b];
    for (index_t z = v.lo[2]; z <= v.hi[2]; ++z) {
      for (index_t y = v.lo[1]; y <= v.hi[1]; ++y) {
        for (index_t x = v.lo[0]; x <= v.hi[0]; ++x) {
          const point p{x, y, z};
          const index_t dst = new_layout.element(b, p);
          const int n = old_index.find(p);
          if (n >= 0) {
            sb.add_copy(segment_builder::copy, dst,
                        old_layout.element(static_cast<std::size_t>(n), p));
          } else {
            if (!coarse)
              throw std::logic_error("tack::amr: a new level-0 cell is in no old level-0 box");
            const point c{floor_div(x, r), floor_div(y, r), floor_div(z, r)};
            const auto q = static_cast<std::size_t>(coarse_box_of(*cindex, c, l));
            sb.add_interp(dst, p, coarse->offsets[q], coarse->grown(q));
          }
        }
        sb.flush();
      }
    }
  }
  sb.flush();
  return regrid_plan{upload(sb.copies, d), upload(sb.interp, d)};
}

}  // namespace detail

hierarchy::hierarchy(const box& domain, std::vector<level> levels,
                     const hierarchy_options& options) {
  for (int d = 0; d < 3; ++d) {
    if (!(options.spacing[d] > 0) || !std::isfinite(options.spacing[d]) ||
        !std::isfinite(options.origin[d])) {
      throw value_error(
          "tack::amr::hierarchy: the spacing must be finite and > 0 and the origin finite; got "
          "spacing " +
          std::to_string(options.spacing[d]) + " along " + detail::axis_name(d));
    }
  }
  geometry_.domain = domain;
  geometry_.ghost = options.ghost;
  geometry_.boundaries = options.boundaries;
  for (const level& lv : levels) geometry_.ratios.push_back(lv.ratio);
  detail::validate(geometry_, levels, "tack::amr::hierarchy");
  levels_ = std::move(levels);
  origin_ = options.origin;
  spacing0_ = options.spacing;
  device_ = options.device.value_or(tack::default_device());
  serial_ = detail::next_serial.fetch_add(1);
  plans_.reserve(levels_.size());
  for (std::size_t l = 0; l < levels_.size(); ++l) {
    plans_.push_back(detail::build_plan(geometry_, static_cast<int>(l),
                                        detail::make_layout(levels_[l].boxes, ghost()),
                                        l > 0 ? plans_[l - 1].layout.get() : nullptr, device_));
  }
}

vec3d hierarchy::spacing(int l) const {
  vec3d s = spacing0_;
  for (int k = 1; k <= static_cast<int>(checked(l, "spacing")); ++k) s = s / double(ratio(k));
  return s;
}

index_t hierarchy::n_boxes() const noexcept {
  index_t n = 0;
  for (const level& lv : levels_) n += static_cast<index_t>(lv.boxes.size());
  return n;
}

box hierarchy::grown_box(int l, std::size_t b) const {
  const auto& bs = boxes(l);
  if (b >= bs.size()) {
    throw index_error("tack::amr::hierarchy::grown_box: box " + std::to_string(b) + " of level " +
                      std::to_string(l) + " does not exist (the level has " +
                      std::to_string(bs.size()) + " boxes)");
  }
  return bs[b].grow(ghost());
}

const detail::field_entry& hierarchy::field_entry(const std::string& name) const {
  for (const auto& e : fields_) {
    if (e.name == name) return e;
  }
  std::string names;
  for (const auto& e : fields_) names += (names.empty() ? "'" : ", '") + e.name + "'";
  throw index_error("tack::amr::hierarchy: no field named '" + name +
                    "' (fields: " + (names.empty() ? std::string("none") : names) + ")");
}

void hierarchy::add_field_entry(detail::field_entry e) {
  for (const auto& f : fields_) {
    if (f.name == e.name) {
      throw value_error("tack::amr::add_field: the hierarchy already has a field named '" + e.name +
                        "' (" + std::string(f.dtype.name()) + ")");
    }
  }
  fields_.push_back(std::move(e));
}

void hierarchy::regrid(int l, std::vector<box> boxes) {
  const auto k = checked(l, "regrid");
  std::vector<level> next = levels_;
  next[k].boxes = std::move(boxes);
  detail::validate(geometry_, next, "tack::amr::hierarchy::regrid");
  auto fresh = detail::make_layout(next[k].boxes, ghost());
  const detail::level_layout* coarse = k > 0 ? plans_[k - 1].layout.get() : nullptr;
  const detail::regrid_plan rp =
      detail::build_regrid_plan(geometry_, l, *plans_[k].layout, *fresh, coarse, device_);
  detail::level_plan plan = detail::build_plan(geometry_, l, fresh, coarse, device_);
  std::optional<detail::level_plan> finer;
  if (k + 1 < levels_.size()) {
    finer = detail::build_plan(geometry_, l + 1, plans_[k + 1].layout, fresh.get(), device_);
  }
  levels_ = std::move(next);
  plans_[k] = std::move(plan);
  if (finer) plans_[k + 1] = std::move(*finer);
  for (const auto& e : fields_) e.regrid(*this, l, e, rp);
}

std::string hierarchy::describe() const {
  std::string ratios;
  for (std::size_t l = 1; l < levels_.size(); ++l)
    ratios += (l > 1 ? ", " : "") + std::to_string(levels_[l].ratio);
  return "hierarchy of " + std::to_string(levels_.size()) + " level" +
         (levels_.size() == 1 ? "" : "s") + (ratios.empty() ? "" : " (ratios " + ratios + ")") +
         ", " + std::to_string(n_boxes()) + " boxes, ghost " + std::to_string(ghost()) +
         ", domain " + geometry_.domain.describe();
}

std::size_t hierarchy::checked(int l, const char* op) const {
  if (l < 0 || l >= n_levels()) {
    throw index_error(std::string("tack::amr::hierarchy::") + op + ": level " + std::to_string(l) +
                      " does not exist (levels 0 to " + std::to_string(n_levels() - 1) + ")");
  }
  return static_cast<std::size_t>(l);
}

}  // namespace tack::amr
