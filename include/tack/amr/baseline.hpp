// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
#pragma once
/// @file `tack::amr::baseline`: ghost cells and averaging done the way AMR codes did them before
/// row views (docs/amr.md, "The baseline"), kept to measure against. Each box's values are a
/// separately allocated array; an operation concatenates a level's box arrays into one buffer (copy
/// per box), runs the same kernels over the same segment lists as `tack::amr::fill_ghost_cells` /
/// `average_down`, and copies the results back box by box. The results are the same bits.

#include <tack/amr/hierarchy.hpp>
#include <tack/amr/operations.hpp>
#include <tack/array/copyto.hpp>
#include <tack/array/factories.hpp>

#include <chrono>
#include <vector>

namespace tack::amr {

/// A field stored the old way: `levels[l][b]` is box `b` of level `l` (ghosts included, shape
/// (nz, ny, nx)), each its own allocation. `auto old = tack::amr::baseline::separate(h, rho);`
template <class T>
struct box_arrays {
  std::vector<std::vector<array<T, 3>>> levels;
};

namespace baseline {
TACK_IMPL_KERNEL_ABI_BEGIN

/// Copies field `f` into separately allocated box arrays (same device and layout).
/// `tack::amr::box_arrays<double> old = tack::amr::baseline::separate(h, rho);`
template <class T>
box_arrays<T> separate(const hierarchy& h, const field<T>& f) {
  detail::check_field(h, f, "baseline::separate");
  box_arrays<T> out;
  for (int l = 0; l < h.n_levels(); ++l) {
    auto& lv = out.levels.emplace_back();
    lv.reserve(h.boxes(l).size());
    for (std::size_t b = 0; b < h.boxes(l).size(); ++b) {
      const array<T, 3> v = f.box_values(l, b);
      array<T, 3> own =
          tack::empty<T>(tack::shape<3>(v.shape()), {.device = h.device(), .layout = f.layout()});
      tack::copyto(own, v);
      lv.push_back(own);
    }
  }
  return out;
}

/// Level `l`'s box arrays concatenated into one new buffer, box by box (one copy per box).
template <class T>
array<T> concatenate(const hierarchy& h, int l, const box_arrays<T>& a) {
  const auto t0 = std::chrono::steady_clock::now();
  const auto& lay = h.layout(l);
  const auto& boxes = a.levels[static_cast<std::size_t>(l)];
  const tack::layout layout = boxes.empty() ? tack::layout::aos : boxes[0].layout();
  array<T> buf = tack::empty<T>({lay.size()}, {.device = h.device(), .layout = layout});
  for (std::size_t b = 0; b < boxes.size(); ++b) {
    tack::copyto(buf.rows(lay.offsets[b], lay.offsets[b + 1]), boxes[b].reshape({boxes[b].size()}));
  }
  h.add_copy_time(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(),
                  static_cast<index_t>(boxes.size()));
  return buf;
}

/// Copies a level buffer back into level `l`'s box arrays, box by box.
template <class T>
void copy_back(const hierarchy& h, int l, const array<T>& buf, box_arrays<T>& a) {
  const auto t0 = std::chrono::steady_clock::now();
  const auto& lay = h.layout(l);
  auto& boxes = a.levels[static_cast<std::size_t>(l)];
  for (std::size_t b = 0; b < boxes.size(); ++b) {
    tack::copyto(boxes[b].reshape({boxes[b].size()}), buf.rows(lay.offsets[b], lay.offsets[b + 1]));
  }
  h.add_copy_time(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(),
                  static_cast<index_t>(boxes.size()));
}

/// `tack::amr::fill_ghost_cells` the old way: level `l` (and `l - 1`, read by the
/// interpolation) concatenated, the same kernels, level `l` copied back box by box.
/// `tack::amr::baseline::fill_ghost_cells(h, 1, old);`
template <class T>
void fill_ghost_cells(const hierarchy& h, int l, box_arrays<T>& a) {
  detail::check_level(h, l, 0, "baseline::fill_ghost_cells");
  const array<T> fine = concatenate(h, l, a);
  if (l == 0) {
    detail::fill_level<T>(h, 0, fine, nullptr);
  } else {
    const array<T> coarse = concatenate(h, l - 1, a);
    detail::fill_level<T>(h, l, fine, &coarse);
  }
  copy_back(h, l, fine, a);
}

/// `tack::amr::average_down` the old way: both levels concatenated, the same kernel, level
/// `fine_level - 1` copied back box by box. `tack::amr::baseline::average_down(h, 2, old);`
template <class T>
void average_down(const hierarchy& h, int fine_level, box_arrays<T>& a) {
  detail::check_level(h, fine_level, 1, "baseline::average_down");
  const array<T> fine = concatenate(h, fine_level, a);
  const array<T> coarse = concatenate(h, fine_level - 1, a);
  detail::average_level<T>(h, fine_level, coarse, fine);
  copy_back(h, fine_level - 1, coarse, a);
}

TACK_IMPL_KERNEL_ABI_END
}  // namespace baseline

}  // namespace tack::amr
