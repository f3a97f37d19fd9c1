// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
#pragma once
/// @file `tack::layout_left`: column-major mapping, the first index varies fastest (Fortran, BLAS,
/// Kokkos' default on GPUs). Over extents `(C, N)` it maps `(c, i)` to `c + i * C`: one sample's C
/// components are contiguous (interleaved, array-of-structures).

#include <tack/view/detail/packed_mapping.hpp>

namespace tack {

/// Column-major layout policy. `tack::mdview<float, tack::dextents<2>, tack::layout_left>`
struct layout_left {
  /// Whether the last index varies fastest (row-major).
  static constexpr bool last_index_fastest = false;
  /// Maps a multi-index over `Extents` to an offset (`detail::packed_mapping`).
  /// `layout_left::mapping<dextents<2>> m(dextents<2>(6, 3)); index_t off = m(i, j);`
  template <class Extents>
  using mapping = detail::packed_mapping<layout_left, Extents>;
};

}  // namespace tack
