// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
#pragma once
/// @file `tack::shape`, `tack::layout` and `tack::options`: what factories are told.

#include <tack/core/index.hpp>
#include <tack/memory/allocator.hpp>
#include <tack/memory/device.hpp>

#include <array>
#include <concepts>
#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace tack {

/// The extents of an array; the rank is the number of extents.
/// `tack::shape s{6, 3};  // shape<2>`
template <int Rank>
struct shape {
  static_assert(Rank >= 1 && Rank <= max_rank, "tack::shape: rank must be between 1 and 8");
  std::array<index_t, Rank> extents{};

  constexpr shape() = default;
  template <std::integral... I>
    requires(sizeof...(I) == Rank)
  constexpr shape(I... e) : extents{static_cast<index_t>(e)...} {}
  constexpr shape(const std::array<index_t, Rank>& e) : extents(e) {}

  static constexpr int rank() noexcept { return Rank; }
  constexpr index_t operator[](int d) const noexcept { return extents[static_cast<std::size_t>(d)]; }
  constexpr index_t& operator[](int d) noexcept { return extents[static_cast<std::size_t>(d)]; }
  /// Number of elements (product of the extents).
  constexpr index_t size() const noexcept {
    index_t n = 1;
    for (auto e : extents) n *= e;
    return n;
  }
  friend constexpr bool operator==(const shape&, const shape&) = default;
};
template <std::integral... I>
shape(I...) -> shape<static_cast<int>(sizeof...(I))>;

/// `"(6, 3)"`: the shape as Python prints a tuple (`"(100)"` for rank 1, without the comma).
template <std::size_t N>
std::string shape_string(const std::array<index_t, N>& e) {
  std::string s = "(";
  for (std::size_t d = 0; d < N; ++d) {
    if (d) s += ", ";
    s += std::to_string(e[d]);
  }
  return s + ")";
}

/// Storage layout of a vector or matrix array: `aos` interleaves the components of each element;
/// `soa` keeps one array per component. Scalar arrays are always `aos`.
enum class layout { aos, soa };

/// `"aos"` or `"soa"`.
constexpr std::string_view to_string(layout l) noexcept { return l == layout::aos ? "aos" : "soa"; }

/// What factories are told. Every field has a default; use designated initializers:
/// `tack::zeros<tack::vec3f>(n, {.device = tack::cpu(), .layout = tack::layout::soa});`
struct options {
  /// Where the array lives; default: `tack::default_device()` (or the source's device for `_like`).
  std::optional<tack::device> device{};
  /// AoS or SoA (vector and matrix element types only); default: AoS (or the source's layout
  /// for `copy` and `_like`).
  std::optional<tack::layout> layout{};
  /// The allocator id; default: the device's default allocator (or the array's memory space).
  std::optional<allocator_id> allocator{};
  /// Rows to reserve beyond the shape (growth without reallocation), as `reserve` does.
  index_t capacity = 0;
  /// `from_ptr`: allow writes into the borrowed memory (it is read-only otherwise).
  bool writable = false;
  /// `from_ptr`: an owner kept alive as long as any handle of the borrowed memory.
  std::shared_ptr<void> owner{};
};

}  // namespace tack
