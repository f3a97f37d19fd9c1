// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
#pragma once
/// @file `tack::layout_left`: column-major mapping, the first index varies fastest (Fortran, BLAS,
/// Kokkos' default on GPUs). Over extents `(C, N)` it maps `(c, i)` to `c + i * C`: one sample's C
/// components are contiguous (interleaved, array-of-structures).

#include <tack/view/detail/packed_mapping.hpp>

namespace tack {

/// Column-major layout policy. `tack::mdview<float, tack::dextents<2>, tack::layout_left>`
/// `layout_left::mapping<dextents<2>> m(dextents<2>(6, 3)); index_t off = m(i, j);`
struct layout_left : detail::packed_layout<layout_left, false> {};

}  // namespace tack
