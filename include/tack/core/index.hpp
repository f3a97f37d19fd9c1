// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
#pragma once
/// @file The index type shared by arrays, views and kernels.

#include <cstddef>
#include <cstdint>

namespace tack {

/// Signed index and extent type (like `std::ptrdiff_t`): negative values are errors, not wrap-arounds.
/// `for (tack::index_t i = 0; i < a.size(); ++i) ...`
using index_t = std::int64_t;

/// The largest rank an array or view can have.
inline constexpr int max_rank = 8;

}  // namespace tack
