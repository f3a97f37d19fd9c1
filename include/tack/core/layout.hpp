// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
#pragma once
/// @file `tack::layout`: how the components of vector and matrix elements are stored (AoS or SoA).
/// A core word because launch and the kernel forms branch on it, below the array floor.

#include <string_view>

namespace tack {

/// Storage layout of a vector or matrix array: `aos` interleaves the components of each element;
/// `soa` keeps one array per component. Scalar arrays are always `aos`.
/// `auto a = tack::zeros<tack::vec3f>(n, {.layout = tack::layout::soa});`
enum class layout { aos, soa };

/// `"aos"` or `"soa"`. `tack::to_string(tack::layout::soa) == "soa"`
constexpr std::string_view to_string(layout l) noexcept { return l == layout::aos ? "aos" : "soa"; }

}  // namespace tack
