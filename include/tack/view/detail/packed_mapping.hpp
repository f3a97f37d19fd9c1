// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
#pragma once
/// @file The one mapping behind `tack::layout_right` and `tack::layout_left`: both pack the
/// elements without gaps and differ only in which index varies fastest, so the offset and the
/// strides are one loop run in either direction.

#include <tack/core/index.hpp>
#include <tack/core/macros.hpp>
#include <tack/view/extents.hpp>

#include <concepts>
#include <cstddef>
#include <type_traits>

namespace tack::detail {

/// The mapping of `Layout` (`layout_right`: the last index varies fastest; `layout_left`: the
/// first) over `Extents`. Users name it `tack::layout_right::mapping<Extents>`.
// Holds the extents as a base so that all-static extents take no space (empty-base optimization).
template <class Layout, class Extents>
class packed_mapping : private Extents {
  static_assert(is_extents_v<Extents>,
                "tack::layout_right/layout_left::mapping: the template argument must be "
                "tack::extents<...>");
  static constexpr bool last_fastest = Layout::last_index_fastest;

public:
  using extents_type = Extents;
  using index_type = index_t;
  using layout_type = Layout;

  /// The mapping of default-constructed extents (dynamic extents zero).
  constexpr packed_mapping() noexcept = default;

  /// `tack::layout_right::mapping<tack::dextents<2>> m(tack::dextents<2>(6, 3));`
  TACK_HOST_DEVICE constexpr packed_mapping(const extents_type& e) noexcept : Extents(e) {}

  /// From a mapping of the same layout over compatible extents.
  template <class OtherExtents>
  requires std::is_constructible_v<Extents, OtherExtents> TACK_HOST_DEVICE constexpr explicit(
      !std::is_convertible_v<OtherExtents, Extents>)
      packed_mapping(const packed_mapping<Layout, OtherExtents>& other)
      : Extents(other.extents()) {}

  /// The extents this mapping covers.
  TACK_HOST_DEVICE constexpr const extents_type& extents() const noexcept { return *this; }

  /// The number of elements the mapped memory must hold: the product of the extents.
  TACK_HOST_DEVICE constexpr index_t required_span_size() const noexcept {
    return extents().size();
  }

  /// Offset of `(i, j, k)`: row-major `(i * n1 + j) * n2 + k`, column-major
  /// `i + n0 * (j + n1 * k)`. Over extents `(C, N)`: `c * N + i` (right), `c + i * C` (left).
  template <std::integral... I>
  requires(sizeof...(I) == std::size_t(Extents::rank())) TACK_FORCEINLINE constexpr index_t
  operator()(I... i) const noexcept {
    if constexpr (sizeof...(I) == 0) {
      return 0;
    } else {
      const index_t idx[] = {index_t(i)...};
      constexpr int last = Extents::rank() - 1;
      if constexpr (last_fastest) {
        index_t offset = idx[0];
        for (int d = 1; d <= last; ++d) offset = offset * extents().extent(d) + idx[d];
        return offset;
      } else {
        index_t offset = idx[last];
        for (int d = last - 1; d >= 0; --d) offset = offset * extents().extent(d) + idx[d];
        return offset;
      }
    }
  }

  /// Distance in elements between neighbours along dimension `r`: the product of the extents
  /// that vary faster (later ones for row-major, earlier ones for column-major).
  TACK_HOST_DEVICE constexpr index_t stride(int r) const noexcept {
    index_t s = 1;
    if constexpr (last_fastest) {
      for (int d = r + 1; d < Extents::rank(); ++d) s *= extents().extent(d);
    } else {
      for (int d = 0; d < r; ++d) s *= extents().extent(d);
    }
    return s;
  }

  /// Every multi-index has its own offset.
  TACK_HOST_DEVICE static constexpr bool is_always_unique() noexcept { return true; }
  /// Every offset below `required_span_size()` is used.
  TACK_HOST_DEVICE static constexpr bool is_always_exhaustive() noexcept { return true; }
  /// Offsets are a sum of index times stride.
  TACK_HOST_DEVICE static constexpr bool is_always_strided() noexcept { return true; }
  /// See `is_always_unique()`.
  TACK_HOST_DEVICE static constexpr bool is_unique() noexcept { return true; }
  /// See `is_always_exhaustive()`.
  TACK_HOST_DEVICE static constexpr bool is_exhaustive() noexcept { return true; }
  /// See `is_always_strided()`.
  TACK_HOST_DEVICE static constexpr bool is_strided() noexcept { return true; }

protected:
  // Sets dynamic extent `d` (row_mapping's take_rows).
  TACK_HOST_DEVICE constexpr void set_extent(int d, index_t v) noexcept {
    static_cast<Extents&>(*this).set_extent(d, v);
  }

public:
  /// Equal when the extents are.
  template <class OtherExtents>
  TACK_HOST_DEVICE friend constexpr bool operator==(
      const packed_mapping& a, const packed_mapping<Layout, OtherExtents>& b) noexcept {
    return a.extents() == b.extents();
  }
};

/// What `layout_right` and `layout_left` are: `last_index_fastest`, and `mapping<Extents>`, the
/// `packed_mapping` of `Layout`. `struct layout_right : packed_layout<layout_right, true> {};`
template <class Layout, bool LastIndexFastest>
struct packed_layout {
  /// Whether the last index varies fastest (row-major).
  static constexpr bool last_index_fastest = LastIndexFastest;
  /// Maps a multi-index over `Extents` to an offset.
  template <class Extents>
  using mapping = packed_mapping<Layout, Extents>;
};

}  // namespace tack::detail
