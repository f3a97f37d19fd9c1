// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
#pragma once
/// @file `tack::slice`: a Python-style row range for `a[tack::slice(i, j)]`.

#include <tack/core/index.hpp>

#include <algorithm>
#include <limits>

namespace tack {

/// Rows `start` to `stop` (exclusive) with `step`; Python bounds: negative values count from the
/// end and both ends are clamped to the array. `auto middle = rows[tack::slice(2, 4)];`
struct slice {
  /// Marks an omitted bound (`tack::slice(2, tack::slice::end)` is `a[2:]`).
  static constexpr index_t end = std::numeric_limits<index_t>::max();

  index_t start = 0;
  index_t stop = end;
  index_t step = 1;

  constexpr slice() = default;
  constexpr slice(index_t start_, index_t stop_, index_t step_ = 1)
      : start(start_), stop(stop_), step(step_) {}

  /// The concrete half-open range `[first, last)` this slice selects in `n` rows (Python's
  /// `slice.indices` for step 1); `last >= first` always.
  struct bounds {
    index_t first, last;
  };
  constexpr bounds resolve(index_t n) const noexcept {
    auto clamp = [n](index_t v) {
      if (v == end) return n;
      if (v < 0) v += n;
      return std::clamp<index_t>(v, 0, n);
    };
    index_t first = clamp(start), last = clamp(stop);
    return {first, std::max(first, last)};
  }
};

}  // namespace tack
