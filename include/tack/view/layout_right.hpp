// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
#pragma once
/// @file `tack::layout_right`: row-major mapping, the last index varies fastest (C, NumPy,
/// `std::mdspan`'s default). Over extents `(C, N)` it maps `(c, i)` to `c * N + i`: every
/// component's N samples are contiguous, which is what makes such a view structure-of-arrays.

#include <tack/view/detail/packed_mapping.hpp>

namespace tack {

/// Row-major layout policy. `tack::mdview<float, tack::dextents<2>, tack::layout_right>`
/// `layout_right::mapping<dextents<2>> m(dextents<2>(6, 3)); index_t off = m(i, j);`
struct layout_right : detail::packed_layout<layout_right, true> {};

}  // namespace tack
