// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
// Shared helpers of the MPI tests: reproducible values from global indices, partitions drawn
// the same way on every rank, and a serial reference of the deterministic sum.
#pragma once

#include <tack/mpi/all.hpp>

#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

namespace tack_mpi_test {

/// A value of global scalar index `i` with magnitudes from 2^-20 to 2^20, so that the order of
/// additions shows in the rounded sums.
inline double value_at(std::int64_t i, std::uint64_t seed = 1) {
  std::uint64_t z =
      static_cast<std::uint64_t>(i) * 0x9e3779b97f4a7c15ull + seed * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  z ^= z >> 31;
  const double u = static_cast<double>(z >> 11) * 0x1.0p-53 * 2.0 - 1.0;
  const int e = static_cast<int>((z >> 3) % 41) - 20;
  return std::ldexp(u, e);
}

/// A partition of `rows` over `ranks` drawn from `seed` (some ranks may own nothing); the same on
/// every rank.
inline tack::mpi::partition random_partition(tack::index_t rows, int ranks, unsigned seed) {
  std::mt19937_64 rng(seed);
  std::vector<tack::index_t> cuts{0, rows};
  for (int r = 1; r < ranks; ++r)
    cuts.push_back(static_cast<tack::index_t>(rng() % static_cast<std::uint64_t>(rows + 1)));
  std::sort(cuts.begin(), cuts.end());
  std::vector<tack::index_t> counts;
  for (int r = 0; r < ranks; ++r)
    counts.push_back(cuts[static_cast<std::size_t>(r) + 1] - cuts[static_cast<std::size_t>(r)]);
  return tack::mpi::partition::from_counts(counts);
}

/// The fixed tree of tack::mpi's sums, written independently: the node of level `l` at `start` is
/// the sum of its two halves; the maximal aligned nodes of [0, n) are added from left to right.
template <class R, class Get>
R tree_node(const Get& get, std::int64_t start, int level) {
  if (level == 0) return get(start);
  const std::int64_t half = std::int64_t{1} << (level - 1);
  return tree_node<R>(get, start, level - 1) + tree_node<R>(get, start + half, level - 1);
}

template <class R, class Get>
R reference_sum(const Get& get, std::int64_t n) {
  R result{};
  bool first = true;
  std::int64_t pos = 0;
  while (pos < n) {
    int l = pos == 0 ? 62 : __builtin_ctzll(static_cast<unsigned long long>(pos));
    while (l > 0 && pos + (std::int64_t{1} << l) > n) --l;
    const R v = tree_node<R>(get, pos, l);
    result = first ? v : static_cast<R>(result + v);
    first = false;
    pos += std::int64_t{1} << l;
  }
  return result;
}

}  // namespace tack_mpi_test
