// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
#pragma once
/// @file The operations on a hierarchy's fields: `add_field`, `get_field`, `initialize`,
/// `fill_ghost_cells` and `average_down`. Each operation is a few `tack::launch`es per level over
/// the level's precomputed segment lists, every box at once, on the hierarchy's device.

#include <tack/amr/detail/kernels.hpp>
#include <tack/amr/hierarchy.hpp>
#include <tack/array/factories.hpp>
#include <tack/dataset/field.hpp>
#include <tack/dataset/space.hpp>
#include <tack/dataset/uniform_grid.hpp>
#include <tack/exec/backend.hpp>
#include <tack/exec/launch.hpp>
#include <tack/types/item.hpp>

#include <chrono>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

namespace tack::amr {

namespace detail {
TACK_IMPL_KERNEL_ABI_BEGIN

/// Runs `f` (one launch) and adds its wall time to the hierarchy's kernel time.
template <class F>
void timed_launch(const hierarchy& h, F&& f) {
  const auto t0 = std::chrono::steady_clock::now();
  f();
  h.add_kernel_time(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
}

template <class T>
void check_field(const hierarchy& h, const field<T>& f, const char* op) {
  if (f.storage().owner != h.serial()) {
    throw value_error(std::string("tack::amr::") + op + ": field '" + f.name() +
                      "' belongs to another hierarchy than " + h.describe());
  }
}

inline void check_level(const hierarchy& h, int l, int first, const char* op) {
  if (l < first || l >= h.n_levels()) {
    throw index_error(std::string("tack::amr::") + op + ": level " + std::to_string(l) +
                      " is not one of levels " + std::to_string(first) + " to " +
                      std::to_string(h.n_levels() - 1) + " of " + h.describe());
  }
}

/// The ghost-cell launches of level `l` over buffer `buf` (and `coarse`, level `l - 1`'s buffer,
/// for the interpolation): same-level copies, then coarse-to-fine interpolation, then the
/// boundary extrapolation (which reads cells the first two filled).
template <class T>
void fill_level(const hierarchy& h, int l, const array<T>& buf, const array<T>* coarse) {
  const level_plan& p = h.plan(l);
  const tack::device d = h.device();
  if (p.copies.size() > 0) {
    timed_launch(
        h, [&] { tack::launch(d, p.copies.size(), copy_kernel<T>{}, buf, p.copies.as_const()); });
  }
  if (p.interp.size() > 0) {
    timed_launch(h, [&] {
      tack::launch(d, p.interp.size(), interp_kernel<T>{}, buf, coarse->as_const(),
                   p.interp.as_const(), index_t(h.ratio(l)));
    });
  }
  if (p.boundary.size() > 0) {
    timed_launch(h, [&] {
      tack::launch(d, p.boundary.size(), copy_kernel<T>{}, buf, p.boundary.as_const());
    });
  }
}

/// The averaging launch of fine level `l` into `coarse` (level `l - 1`'s buffer).
template <class T>
void average_level(const hierarchy& h, int l, const array<T>& coarse, const array<T>& fine) {
  const level_plan& p = h.plan(l);
  if (p.average.size() == 0) return;
  timed_launch(h, [&] {
    tack::launch(h.device(), p.average.size(), average_kernel<T>{}, coarse, fine.as_const(),
                 p.average.as_const(), index_t(h.ratio(l)));
  });
}

template <class T>
constexpr void check_element() {
  static_assert(std::is_floating_point_v<scalar_t<T>>,
                "tack::amr: interpolation and averaging need floating-point values; use a field of "
                "float, double or tack::vec/tack::mat of them");
}

template <class T>
void erased_fill(const hierarchy& h, int l, const field_entry& e);
template <class T>
void erased_average(const hierarchy& h, int l, const field_entry& e);
template <class T>
void erased_regrid(const hierarchy& h, int l, const field_entry& e, const regrid_plan& rp);
template <class T>
void erased_add_to_piece(const field_entry& e, int l, std::size_t b, dataset::uniform_grid& grid);

TACK_IMPL_KERNEL_ABI_END
}  // namespace detail

TACK_IMPL_KERNEL_ABI_BEGIN

/// Adds a field of element type `T` (scalar, `tack::vec` or `tack::mat` of `float`/`double`) in
/// `layout` (SoA for vector and matrix elements only) to `h`: one zeroed buffer per level on
/// `h.device()`. A second field of one name is a `value_error`.
/// `auto u = tack::amr::add_field<tack::vec3d>(h, "velocity", tack::layout::soa);`
template <class T>
field<T> add_field(hierarchy& h, const std::string& name, tack::layout layout = tack::layout::aos) {
  detail::check_element<T>();
  if (layout == tack::layout::soa && is_scalar_v<T>) {
    throw value_error(
        "tack::amr::add_field: field '" + name + "' of " + std::string(dtype_of<T>().name()) +
        " cannot be SoA (only vector and matrix elements have components); use tack::layout::aos");
  }
  auto s = std::make_shared<detail::field_storage<T>>();
  s->name = name;
  s->layout = layout;
  s->owner = h.serial();
  for (int l = 0; l < h.n_levels(); ++l) {
    s->levels.push_back(
        tack::zeros<T>({h.level_size(l)}, {.device = h.device(), .layout = layout}));
    s->layouts.push_back(h.plan(l).layout);
  }
  detail::field_entry e;
  e.name = name;
  e.dtype = dtype_of<T>();
  e.layout = layout;
  e.storage = s;
  e.fill = &detail::erased_fill<T>;
  e.average = &detail::erased_average<T>;
  e.regrid = &detail::erased_regrid<T>;
  e.add_to_piece = &detail::erased_add_to_piece<T>;
  h.add_field_entry(std::move(e));
  return field<T>(std::move(s));
}

/// The field named `name` as `field<T>`: `index_error` if there is none, `type_error` if its
/// element type is not `T`. `auto rho = tack::amr::get_field<double>(h, "rho");`
template <class T>
field<T> get_field(const hierarchy& h, const std::string& name) {
  const detail::field_entry& e = h.field_entry(name);
  if (e.dtype != dtype_of<T>()) {
    throw type_error("tack::amr::get_field: field '" + name + "' holds " +
                     std::string(e.dtype.name()) + ", not " + std::string(dtype_of<T>().name()));
  }
  return field<T>(std::static_pointer_cast<detail::field_storage<T>>(e.storage));
}

/// Sets every valid cell of level `l` to `f(x)`, `x` the cell centre (`tack::vec3d`, physical
/// coordinates); ghost cells are left as they are. One launch over the level buffer. `f` is a
/// functor or `TACK_LAMBDA(tack::vec3d x) { ... }` returning `T`.
/// `tack::amr::initialize(h, 0, rho, TACK_LAMBDA(tack::vec3d x) { return x[0] * x[0]; });`
template <class T, class F>
void initialize(const hierarchy& h, int l, const field<T>& f, const F& fn) {
  detail::check_field(h, f, "initialize");
  detail::check_level(h, l, 0, "initialize");
  const auto& p = h.plan(l);
  detail::initialize_kernel<T, F> k{fn, h.origin(), h.spacing(l),
                                    static_cast<index_t>(p.layout->boxes.size())};
  if (k.n_boxes == 0) return;
  tack::launch(h.device(), h.level_size(l), k, f.level_buffer(l), p.box_table.as_const());
}

/// Fills the ghost cells of every box of level `l`: from the valid cells of neighbouring boxes
/// of the level (periodic images included), by conservative limited linear interpolation from
/// level `l - 1` where no box of the level has the cell, and by extrapolation outside the domain
/// on non-periodic axes. The interpolation reads level `l - 1`'s ghost cells: fill the levels in
/// order (`fill_ghost_cells(h, f)` does). Three launches at most, whatever the number of boxes.
/// `tack::amr::fill_ghost_cells(h, 2, rho);`
template <class T>
void fill_ghost_cells(const hierarchy& h, int l, const field<T>& f) {
  detail::check_field(h, f, "fill_ghost_cells");
  detail::check_level(h, l, 0, "fill_ghost_cells");
  const array<T> fine = f.level_buffer(l);
  if (l == 0) {
    detail::fill_level<T>(h, 0, fine, nullptr);
  } else {
    const array<T> coarse = f.level_buffer(l - 1);
    detail::fill_level<T>(h, l, fine, &coarse);
  }
}

/// `fill_ghost_cells` on every level, coarsest first. `tack::amr::fill_ghost_cells(h, rho);`
template <class T>
void fill_ghost_cells(const hierarchy& h, const field<T>& f) {
  for (int l = 0; l < h.n_levels(); ++l) fill_ghost_cells(h, l, f);
}

/// `fill_ghost_cells` of the field named `name`, whatever its type.
/// `tack::amr::fill_ghost_cells(h, 1, "rho");`
inline void fill_ghost_cells(const hierarchy& h, int l, const std::string& name) {
  const detail::field_entry& e = h.field_entry(name);
  detail::check_level(h, l, 0, "fill_ghost_cells");
  e.fill(h, l, e);
}

/// Replaces every valid cell of level `fine_level - 1` covered by a box of `fine_level` with the
/// mean of its ratio^3 fine cells (conservative: the coarse values times the coarse cell volume
/// sum to the fine values times the fine cell volume). One launch.
/// `tack::amr::average_down(h, 2, rho);`
template <class T>
void average_down(const hierarchy& h, int fine_level, const field<T>& f) {
  detail::check_field(h, f, "average_down");
  detail::check_level(h, fine_level, 1, "average_down");
  detail::average_level<T>(h, fine_level, f.level_buffer(fine_level - 1),
                           f.level_buffer(fine_level));
}

/// `average_down` from the finest level to level 1. `tack::amr::average_down(h, rho);`
template <class T>
void average_down(const hierarchy& h, const field<T>& f) {
  for (int l = h.n_levels() - 1; l >= 1; --l) average_down(h, l, f);
}

/// `average_down` of the field named `name`, whatever its type.
inline void average_down(const hierarchy& h, int fine_level, const std::string& name) {
  const detail::field_entry& e = h.field_entry(name);
  detail::check_level(h, fine_level, 1, "average_down");
  e.average(h, fine_level, e);
}

TACK_IMPL_KERNEL_ABI_END

namespace detail {
TACK_IMPL_KERNEL_ABI_BEGIN

template <class T>
field<T> typed_field(const field_entry& e) {
  return field<T>(std::static_pointer_cast<field_storage<T>>(e.storage));
}

template <class T>
void erased_fill(const hierarchy& h, int l, const field_entry& e) {
  fill_ghost_cells(h, l, typed_field<T>(e));
}

template <class T>
void erased_average(const hierarchy& h, int l, const field_entry& e) {
  average_down(h, l, typed_field<T>(e));
}

/// A regridded level's new buffer: old values where an old box covered the cell, interpolation
/// from level `l - 1` (ghost cells of levels 0 to `l - 1` filled first) elsewhere, then its own
/// ghost cells. The hierarchy has already replaced level `l`'s plan.
template <class T>
void erased_regrid(const hierarchy& h, int l, const field_entry& e, const regrid_plan& rp) {
  field_storage<T>& s = *std::static_pointer_cast<field_storage<T>>(e.storage);
  const std::size_t k = static_cast<std::size_t>(l);
  const array<T> old = s.levels[k];
  array<T> fresh = tack::empty<T>({h.level_size(l)}, {.device = h.device(), .layout = s.layout});
  if (rp.transfer.size() > 0) {
    tack::launch(h.device(), rp.transfer.size(), transfer_kernel<T>{}, fresh, old.as_const(),
                 rp.transfer.as_const());
  }
  if (rp.interp.size() > 0) {
    for (int c = 0; c < l; ++c) {
      if (c == 0) {
        fill_level<T>(h, 0, s.levels[0], nullptr);
      } else {
        fill_level<T>(h, c, s.levels[static_cast<std::size_t>(c)],
                      &s.levels[static_cast<std::size_t>(c - 1)]);
      }
    }
    tack::launch(h.device(), rp.interp.size(), interp_kernel<T>{}, fresh,
                 s.levels[k - 1].as_const(), rp.interp.as_const(), index_t(h.ratio(l)));
  }
  s.levels[k] = fresh;
  s.layouts[k] = h.plan(l).layout;
  fill_level<T>(h, l, fresh, l > 0 ? &s.levels[k - 1] : nullptr);
}

/// Adds box `b` of level `l`'s valid values (ghosts left out) to `grid` as cell data.
template <class T>
void erased_add_to_piece(const field_entry& e, int l, std::size_t b, dataset::uniform_grid& grid) {
  const field<T> f = typed_field<T>(e);
  const std::vector<T> all = f.box_values(l, b).to_vector();
  const level_layout& lay = *f.storage().layouts[static_cast<std::size_t>(l)];
  const box g = lay.grown(b);
  const index_t gh = lay.ghost;
  const index_t nx = g.extent(0), ny = g.extent(1), nz = g.extent(2);
  std::vector<T> valid;
  valid.reserve(static_cast<std::size_t>(lay.boxes[b].size()));
  for (index_t z = gh; z < nz - gh; ++z) {
    for (index_t y = gh; y < ny - gh; ++y) {
      for (index_t x = gh; x < nx - gh; ++x)
        valid.push_back(all[static_cast<std::size_t>((z * ny + y) * nx + x)]);
    }
  }
  grid.fields[e.name] =
      dataset::field<T>(dataset::L2(grid), tack::array_from(valid, {.device = tack::cpu()}));
}

TACK_IMPL_KERNEL_ABI_END
}  // namespace detail

}  // namespace tack::amr
