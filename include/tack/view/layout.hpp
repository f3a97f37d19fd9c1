// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
#pragma once
/// @file The layout policies of `tack::mdview`, one file each as in mdspan: `layout_right`
/// (row-major, the default), `layout_left` (column-major) and `layout_stride` (any strides).
/// `#include <tack/view/layout.hpp>` brings in all three.

#include <tack/view/layout_left.hpp>
#include <tack/view/layout_right.hpp>
#include <tack/view/layout_stride.hpp>
