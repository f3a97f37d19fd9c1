// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
#pragma once
/// @file `tack::amr::hierarchy` and `tack::amr::field<T>`: levels of index boxes and, per level
/// and field, one buffer holding every box's values (ghosts included) back to back, each box's
/// values a row view of it.

#include <tack/amr/box.hpp>
#include <tack/amr/detail/plan.hpp>
#include <tack/amr/level.hpp>
#include <tack/array/array.hpp>
#include <tack/core/error.hpp>
#include <tack/types/dtype.hpp>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace tack::dataset {
class uniform_grid;
}

namespace tack::amr {

class hierarchy;

namespace detail {

/// A field's values: one buffer per level, and the layouts that say where each box is in them.
template <class T>
struct field_storage {
  std::string name;
  tack::layout layout = tack::layout::aos;
  std::uint64_t owner = 0;  // the hierarchy's serial number
  std::vector<array<T>> levels;
  std::vector<std::shared_ptr<const level_layout>> layouts;
};

/// A field as the hierarchy holds it, whatever its element type: the typed storage and the
/// operations on it, instantiated where the field was added (`add_field<T>`).
struct field_entry {
  std::string name;
  tack::dtype dtype;
  tack::layout layout = tack::layout::aos;
  std::shared_ptr<void> storage;  // field_storage<T>
  void (*fill)(const hierarchy&, int, const field_entry&) = nullptr;
  void (*average)(const hierarchy&, int, const field_entry&) = nullptr;
  void (*regrid)(const hierarchy&, int, const field_entry&, const regrid_plan&) = nullptr;
  void (*add_to_piece)(const field_entry&, int, std::size_t, dataset::uniform_grid&) = nullptr;
};

}  // namespace detail

/// A field of a hierarchy (a handle: copies share). Its values on level `l` are one buffer,
/// `level_buffer(l)`; box `b`'s values, ghosts included, are rows of it, `box_values(l, b)`, a
/// `tack::array<T, 3>` of shape (nz, ny, nx) over the grown box (x fastest) that every kernel,
/// copy, reduction and DLPack export takes as any array.
/// `auto rho = tack::amr::add_field<double>(h, "rho"); auto v = rho.box_values(1, 0);`
template <class T>
class field {
public:
  field() = default;
  explicit field(std::shared_ptr<detail::field_storage<T>> s) : s_(std::move(s)) {}

  const std::string& name() const { return storage().name; }
  tack::layout layout() const { return storage().layout; }
  /// Level `l`'s buffer: every box's values (ghosts included) back to back, box by box.
  array<T> level_buffer(int l) const {
    check_level(l, "level_buffer");
    return storage().levels[static_cast<std::size_t>(l)];
  }
  /// Box `b` of level `l`, ghosts included: a row view of the level buffer reshaped to the grown
  /// box (nz, ny, nx). It keeps the buffer alive: after a regrid of the level it still holds the
  /// old buffer's values, no longer the level's. `auto v = rho.box_values(0, 3); v(0, 0, 0) = 1;`
  array<T, 3> box_values(int l, std::size_t b) const {
    check_level(l, "box_values");
    const auto& lay = *storage().layouts[static_cast<std::size_t>(l)];
    if (b >= lay.boxes.size()) {
      throw index_error("tack::amr::field::box_values: box " + std::to_string(b) + " of level " +
                        std::to_string(l) + " of field '" + name() +
                        "' does not exist (the level has " + std::to_string(lay.boxes.size()) +
                        " boxes)");
    }
    const box g = lay.grown(b);
    return storage()
        .levels[static_cast<std::size_t>(l)]
        .rows(lay.offsets[b], lay.offsets[b + 1])
        .reshape({g.extent(2), g.extent(1), g.extent(0)});
  }
  /// Number of levels.
  int n_levels() const { return static_cast<int>(storage().levels.size()); }
  /// The typed storage (for the operations of tack::amr).
  detail::field_storage<T>& storage() const {
    if (!s_)
      throw value_error("tack::amr::field: this field handle is empty (default-constructed)");
    return *s_;
  }
  bool valid() const noexcept { return s_ != nullptr; }

private:
  void check_level(int l, const char* op) const {
    if (l < 0 || l >= n_levels()) {
      throw index_error(std::string("tack::amr::field::") + op + ": level " + std::to_string(l) +
                        " of field '" + name() + "' does not exist (levels 0 to " +
                        std::to_string(n_levels() - 1) + ")");
    }
  }
  std::shared_ptr<detail::field_storage<T>> s_;
};

/// Levels of boxes over one index domain (level 0's), each level `ratio` (2 or 4) times finer
/// than the one before, every box with the same ghost width, and the fields defined on them.
/// Made once, checked (see `detail::validate`: overlapping boxes, a fine box not nested in the
/// coarser level, a ghost width larger than a box... are `value_error`s naming the boxes); the
/// copy, interpolation, boundary and averaging lists the kernels run over are built here and
/// again for the levels a `regrid` changes. Move-only (fields belong to one hierarchy).
/// `tack::amr::hierarchy h(tack::amr::box{{0, 0, 0}, {15, 15, 15}},
///     {{1, {tack::amr::box{{0, 0, 0}, {15, 15, 15}}}}, {2, {tack::amr::box{{8, 8, 8}, {23, 23, 23}}}}},
///     {.ghost = 2});`
class hierarchy {
public:
  hierarchy(const box& domain, std::vector<level> levels, const hierarchy_options& options = {});
  hierarchy(hierarchy&&) noexcept = default;
  hierarchy& operator=(hierarchy&&) noexcept = default;
  hierarchy(const hierarchy&) = delete;
  hierarchy& operator=(const hierarchy&) = delete;
  ~hierarchy() = default;

  int n_levels() const noexcept { return static_cast<int>(levels_.size()); }
  /// Level `l` (its ratio and boxes).
  const level& level_at(int l) const { return levels_[checked(l, "level_at")]; }
  const std::vector<box>& boxes(int l) const { return level_at(l).boxes; }
  /// Refinement ratio of level `l` from level `l - 1` (1 for level 0).
  int ratio(int l) const { return level_at(l).ratio; }
  /// Level `l`'s index domain.
  box domain(int l = 0) const {
    return geometry_.domain_at(static_cast<int>(checked(l, "domain")));
  }
  index_t ghost() const noexcept { return geometry_.ghost; }
  const std::array<boundary, 3>& boundaries() const noexcept { return geometry_.boundaries; }
  vec3d origin() const noexcept { return origin_; }
  /// Level `l`'s cell size.
  vec3d spacing(int l) const;
  tack::device device() const noexcept { return device_; }
  /// Boxes on all levels.
  index_t n_boxes() const noexcept;
  /// Elements of level `l`'s buffer (every box's grown box).
  index_t level_size(int l) const { return plans_[checked(l, "level_size")].layout->size(); }
  /// Box `b` of level `l` with its ghost cells.
  box grown_box(int l, std::size_t b) const;
  /// Where each box sits in level `l`'s buffer.
  const detail::level_layout& layout(int l) const { return *plans_[checked(l, "layout")].layout; }
  /// The segment lists of level `l` (what the kernels run over).
  const detail::level_plan& plan(int l) const { return plans_[checked(l, "plan")]; }
  const detail::geometry& geometry() const noexcept { return geometry_; }

  /// The fields, in the order they were added.
  const std::vector<detail::field_entry>& fields() const noexcept { return fields_; }
  /// The field named `name` (`index_error` if none).
  const detail::field_entry& field_entry(const std::string& name) const;
  /// Adds a type-erased field (`add_field<T>` calls this); a second field of one name is a
  /// `value_error`.
  void add_field_entry(detail::field_entry e);
  /// The serial number fields use to check they belong to this hierarchy.
  std::uint64_t serial() const noexcept { return serial_; }

  /// Replaces level `l`'s boxes (checked like the constructor's, against levels `l - 1` and
  /// `l + 1`) and rebuilds its buffers: valid cells an old box covered keep their values, the
  /// others are interpolated from level `l - 1` (whose ghost cells, and those of the levels
  /// below it, are filled first); the new ghost cells are filled. Box views taken before keep
  /// the old buffer alive and still read its values; they are not the level's any more.
  /// `h.regrid(2, new_boxes);`
  void regrid(int l, std::vector<box> boxes);

  /// Kernel and copy time since the last `reset_timings()`.
  const amr::timings& timings() const noexcept { return timings_; }
  void reset_timings() const noexcept { timings_ = {}; }
  /// Adds to the timings (the operations call these).
  void add_kernel_time(double s) const noexcept {
    timings_.kernel_seconds += s;
    ++timings_.launches;
  }
  void add_copy_time(double s, index_t copies) const noexcept {
    timings_.copy_seconds += s;
    timings_.copies += copies;
  }

  /// `"hierarchy of 3 levels (ratios 2, 2), 41 boxes, ghost 2, domain (0, 0, 0)-(15, 15, 15)"`.
  std::string describe() const;

private:
  std::size_t checked(int l, const char* op) const;

  detail::geometry geometry_;
  std::vector<level> levels_;
  std::vector<detail::level_plan> plans_;
  std::vector<detail::field_entry> fields_;
  vec3d origin_{0, 0, 0};
  vec3d spacing0_{1, 1, 1};
  tack::device device_;
  std::uint64_t serial_ = 0;
  mutable amr::timings timings_;
};

}  // namespace tack::amr

#include <tack/amr/operations.hpp>
