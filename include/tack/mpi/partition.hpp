// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
#pragma once
/// @file `tack::mpi::partition`: which rows of a global array each rank owns.

#include <tack/core/error.hpp>
#include <tack/core/index.hpp>

#include <algorithm>
#include <string>
#include <vector>

namespace tack::mpi {

/// Rank `r` owns the global rows `[first(r), end(r))`; ranks own consecutive ranges in rank
/// order, and a rank may own none. `auto p = tack::mpi::partition::block(10, 4);  // 3 3 2 2`
class partition {
public:
  /// No ranks, no rows.
  partition() : offsets_{0} {}

  /// `rows` split into `ranks` blocks whose sizes differ by at most one, larger blocks first
  /// (`block(10, 4)` gives 3, 3, 2, 2 rows). Negative rows or fewer than one rank: `value_error`.
  static partition block(index_t rows, int ranks) {
    if (rows < 0 || ranks < 1) {
      throw value_error("tack::mpi::partition::block: " + std::to_string(rows) + " rows over " +
                        std::to_string(ranks) + " ranks (rows must be >= 0, ranks >= 1)");
    }
    partition p;
    p.offsets_.resize(static_cast<std::size_t>(ranks) + 1);
    const index_t base = rows / ranks, extra = rows % ranks;
    for (int r = 0; r < ranks; ++r) {
      p.offsets_[static_cast<std::size_t>(r) + 1] =
          p.offsets_[static_cast<std::size_t>(r)] + base + (r < extra ? 1 : 0);
    }
    return p;
  }

  /// A user's partition: rank `r` owns `counts[r]` rows (a negative count is a `value_error`).
  /// `auto p = tack::mpi::partition::from_counts({5, 0, 7});`
  static partition from_counts(const std::vector<index_t>& counts) {
    if (counts.empty()) {
      throw value_error("tack::mpi::partition::from_counts: no counts (one per rank is needed)");
    }
    partition p;
    p.offsets_.resize(counts.size() + 1);
    for (std::size_t r = 0; r < counts.size(); ++r) {
      if (counts[r] < 0) {
        throw value_error("tack::mpi::partition::from_counts: rank " + std::to_string(r) +
                          " has a negative count " + std::to_string(counts[r]));
      }
      p.offsets_[r + 1] = p.offsets_[r] + counts[r];
    }
    return p;
  }

  /// The number of ranks.
  int ranks() const noexcept { return static_cast<int>(offsets_.size()) - 1; }
  /// The number of global rows.
  index_t rows() const noexcept { return offsets_.back(); }
  /// The first global row of rank `r`.
  index_t first(int r) const { return offsets_.at(static_cast<std::size_t>(r)); }
  /// One past the last global row of rank `r`.
  index_t end(int r) const { return offsets_.at(static_cast<std::size_t>(r) + 1); }
  /// The number of rows of rank `r`.
  index_t count(int r) const { return end(r) - first(r); }
  /// The rank that owns global row `row` (0 <= row < rows(); else `index_error`).
  int owner(index_t row) const {
    if (row < 0 || row >= rows()) {
      throw index_error("tack::mpi::partition::owner: row " + std::to_string(row) +
                        " is outside the " + std::to_string(rows()) + " rows of " + describe());
    }
    // The last rank whose first row is <= row (empty ranks before it are skipped).
    auto it = std::upper_bound(offsets_.begin(), offsets_.end(), row);
    return static_cast<int>(it - offsets_.begin()) - 1;
  }
  /// The offsets: `ranks() + 1` values, from 0 to `rows()`.
  const std::vector<index_t>& offsets() const noexcept { return offsets_; }
  /// `partition of 10 rows over 4 ranks at 0 3 6 8 10` (how errors name it).
  std::string describe() const {
    std::string s = "partition of " + std::to_string(rows()) + " rows over " +
                    std::to_string(ranks()) + " ranks at";
    for (auto o : offsets_) {
      s += ' ';
      s += std::to_string(o);
    }
    return s;
  }
  friend bool operator==(const partition&, const partition&) = default;

private:
  std::vector<index_t> offsets_;
};

}  // namespace tack::mpi
