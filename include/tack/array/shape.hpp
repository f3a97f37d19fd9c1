// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
#pragma once
/// @file `tack::shape` and `tack::options` (with `tack::layout`, core/layout.hpp): what factories
/// are told.

#include <tack/core/error.hpp>
#include <tack/core/index.hpp>
#include <tack/core/layout.hpp>
#include <tack/memory/allocator.hpp>
#include <tack/memory/device.hpp>

#include <array>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <limits>
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
  requires(sizeof...(I) == Rank) constexpr shape(I... e) : extents{static_cast<index_t>(e)...} {}
  constexpr shape(const std::array<index_t, Rank>& e) : extents(e) {}

  static constexpr int rank() noexcept { return Rank; }
  constexpr index_t operator[](int d) const noexcept {
    return extents[static_cast<std::size_t>(d)];
  }
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

namespace detail {
/// The most bytes an array may span: pointer differences and `index_t` element counts hold it.
inline constexpr std::size_t max_array_bytes =
    static_cast<std::size_t>(std::numeric_limits<std::ptrdiff_t>::max());

/// Bytes of `rows` rows of an array of shape `e` whose elements have `element_bytes` bytes (`rows`
/// is `e[0]`, or a larger capacity). A `value_error` naming `op`, the shape and the element type
/// when the byte size (and so the element count) does not fit `max_array_bytes`; the trailing
/// extents are checked even when `rows` is 0, so that growth of such an array cannot overflow.
/// `auto bytes = tack::detail::checked_nbytes("tack::zeros", s.extents, 4, "f32", s[0]);`
template <std::size_t N>
std::size_t checked_nbytes(const std::string& op, const std::array<index_t, N>& e,
                           std::size_t element_bytes, std::string_view type_name, index_t rows) {
  auto refuse = [&]() -> std::size_t {
    std::string what = "shape " + shape_string(e);
    if (rows != e[0]) what += " with a capacity of " + std::to_string(rows) + " rows";
    throw value_error(op + ": " + what + " of " + std::string(type_name) + " (" +
                      std::to_string(element_bytes) +
                      " bytes each) is too large: its element count or byte size overflows (an "
                      "array spans at most " +
                      std::to_string(max_array_bytes) + " bytes)");
  };
  // The element count of the non-zero extents must fit an index as well: size() multiplies every
  // extent, in order, so a zero extent after two huge ones would not stop the overflow.
  index_t count = 1;
  for (std::size_t d = 0; d < N; ++d) {
    if (e[d] > 0 && __builtin_mul_overflow(count, e[d], &count)) return refuse();
  }
  std::size_t row = element_bytes;
  for (std::size_t d = 1; d < N; ++d) {
    const auto x = static_cast<std::size_t>(e[d] < 0 ? 0 : e[d]);
    if (x != 0 && row > max_array_bytes / x) return refuse();
    row *= x;
  }
  const auto r = static_cast<std::size_t>(rows < 0 ? 0 : rows);
  if (r != 0 && row > max_array_bytes / r) return refuse();
  return row * r;
}
}  // namespace detail

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
  /// The total number of rows to allocate room for (`reserve(capacity)` at creation): the
  /// allocation holds `max(shape[0], capacity)` rows, so rows can be added up to `capacity`
  /// without reallocating. `tack::empty<float>({0}, {.capacity = 100})` has capacity 100.
  index_t capacity = 0;
  /// `from_ptr`: allow writes into the borrowed memory (it is read-only otherwise).
  bool writable = false;
  /// `from_ptr`: an owner kept alive as long as any handle of the borrowed memory.
  std::shared_ptr<void> owner{};
};

}  // namespace tack
