// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
#pragma once
/// @file `tack::amr::box`: a cell-centred index box (lower and upper corners, both inclusive, as
/// AMReX's `Box`), with the box algebra the hierarchy needs: grow, refine, coarsen, intersect.

#include <tack/core/index.hpp>
#include <tack/core/macros.hpp>

#include <array>
#include <initializer_list>
#include <string>

namespace tack::amr {

/// Floor division (rounds toward minus infinity), for coarsening negative indices.
/// `tack::amr::floor_div(-1, 2) == -1`
TACK_INLINE constexpr index_t floor_div(index_t a, index_t b) noexcept {
  const index_t q = a / b;
  return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

/// Cells `lo` to `hi` (inclusive) on each axis x, y, z of one level's index space. A box with
/// `hi < lo` on some axis is empty. `tack::amr::box b{{0, 0, 0}, {7, 7, 7}};  // 8^3 cells`
struct box {
  std::array<index_t, 3> lo{0, 0, 0};
  std::array<index_t, 3> hi{-1, -1, -1};

  /// Cells along axis `d` (0 when empty).
  constexpr index_t extent(int d) const noexcept {
    const auto k = static_cast<std::size_t>(d);
    return hi[k] >= lo[k] ? hi[k] - lo[k] + 1 : 0;
  }
  /// Number of cells.
  constexpr index_t size() const noexcept { return extent(0) * extent(1) * extent(2); }
  constexpr bool empty() const noexcept { return size() == 0; }
  /// Whether cell `p` is inside.
  constexpr bool contains(const std::array<index_t, 3>& p) const noexcept {
    for (std::size_t d = 0; d < 3; ++d) {
      if (p[d] < lo[d] || p[d] > hi[d]) return false;
    }
    return true;
  }
  /// Whether every cell of `b` is inside (an empty `b` is).
  constexpr bool contains(const box& b) const noexcept {
    return b.empty() || (contains(b.lo) && contains(b.hi));
  }
  /// The cells of both (possibly empty). `auto i = a & b;`
  friend constexpr box operator&(const box& a, const box& b) noexcept {
    box r;
    for (std::size_t d = 0; d < 3; ++d) {
      r.lo[d] = a.lo[d] > b.lo[d] ? a.lo[d] : b.lo[d];
      r.hi[d] = a.hi[d] < b.hi[d] ? a.hi[d] : b.hi[d];
    }
    return r;
  }
  friend constexpr bool operator==(const box& a, const box& b) noexcept {
    return a.lo == b.lo && a.hi == b.hi;
  }
  /// The box with `g` more cells on every side. `b.grow(2)`
  constexpr box grow(index_t g) const noexcept {
    box r = *this;
    for (std::size_t d = 0; d < 3; ++d) {
      r.lo[d] -= g;
      r.hi[d] += g;
    }
    return r;
  }
  /// The box moved by `s` cells.
  constexpr box shift(const std::array<index_t, 3>& s) const noexcept {
    box r = *this;
    for (std::size_t d = 0; d < 3; ++d) {
      r.lo[d] += s[d];
      r.hi[d] += s[d];
    }
    return r;
  }
  /// The same region on a level `r` times finer. `box{{1, 1, 1}, {2, 2, 2}}.refine(2)` is (2..5)^3.
  constexpr box refine(index_t r) const noexcept {
    box b;
    for (std::size_t d = 0; d < 3; ++d) {
      b.lo[d] = lo[d] * r;
      b.hi[d] = (hi[d] + 1) * r - 1;
    }
    return b;
  }
  /// The coarse cells (ratio `r`) that hold any of this box's cells.
  constexpr box coarsen(index_t r) const noexcept {
    box b;
    for (std::size_t d = 0; d < 3; ++d) {
      b.lo[d] = floor_div(lo[d], r);
      b.hi[d] = floor_div(hi[d], r);
    }
    return b;
  }
  /// `"(0, 0, 0)-(7, 7, 7)"`: how errors name a box.
  std::string describe() const {
    // Appended piece by piece: GCC 12 warns (-Wrestrict, a false positive) on "(" + to_string(...).
    std::string s;
    for (const auto* p : {&lo, &hi}) {
      s += p == &lo ? "(" : "-(";
      for (std::size_t d = 0; d < 3; ++d) {
        if (d > 0) s += ", ";
        s += std::to_string((*p)[d]);
      }
      s += ")";
    }
    return s;
  }
};

}  // namespace tack::amr
