// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
#pragma once
/// @file `tack::layout_right`: row-major mapping, the last index varies fastest (C, NumPy, aether's
/// default). Over extents `(C, N)` it maps `(c, i)` to `c * N + i`: every component's N samples are
/// contiguous, which is what makes an aether-style view structure-of-arrays.

#include <tack/core/index.hpp>
#include <tack/core/macros.hpp>
#include <tack/view/extents.hpp>

#include <concepts>
#include <cstddef>
#include <type_traits>

namespace tack {

/// Row-major layout policy. `tack::mdview<float, tack::dextents<2>, tack::layout_right>`
struct layout_right {
  /// Maps a multi-index over `Extents` to an offset. `layout_right::mapping<extents<3, dyn>> m(e);`
  template <class Extents>
  class mapping;
};

// Holds the extents as a base so that all-static extents take no space (empty-base optimization).
template <class Extents>
class layout_right::mapping : private Extents {
  static_assert(is_extents_v<Extents>,
                "tack::layout_right::mapping: the template argument must be tack::extents<...>");

public:
  using extents_type = Extents;
  using index_type = index_t;
  using layout_type = layout_right;

  /// The mapping of default-constructed extents (dynamic extents zero).
  constexpr mapping() noexcept = default;

  /// `tack::layout_right::mapping<tack::dextents<2>> m(tack::dextents<2>(6, 3));`
  TACK_HOST_DEVICE constexpr mapping(const extents_type& e) noexcept : Extents(e) {}

  /// From a row-major mapping over compatible extents.
  template <class OtherExtents>
    requires std::is_constructible_v<Extents, OtherExtents>
  TACK_HOST_DEVICE constexpr explicit(!std::is_convertible_v<OtherExtents, Extents>)
      mapping(const layout_right::mapping<OtherExtents>& other)
      : Extents(other.extents()) {}

  /// The extents this mapping covers.
  TACK_HOST_DEVICE constexpr const extents_type& extents() const noexcept { return *this; }

  /// The number of elements the mapped memory must hold: the product of the extents.
  TACK_HOST_DEVICE constexpr index_t required_span_size() const noexcept {
    return extents().size();
  }

  /// Offset of `(i, j, ...)`: `((i * n1 + j) * n2 + k) ...`. `m(c, i) == c * N + i`
  template <std::integral... I>
    requires(sizeof...(I) == std::size_t(Extents::rank()))
  TACK_FORCEINLINE constexpr index_t operator()(I... i) const noexcept {
    if constexpr (sizeof...(I) == 0) {
      return 0;
    } else {
      const index_t idx[] = {index_t(i)...};
      index_t offset = idx[0];
      for (int d = 1; d < Extents::rank(); ++d) offset = offset * extents().extent(d) + idx[d];
      return offset;
    }
  }

  /// Distance in elements between neighbours along dimension `r`: the product of later extents.
  TACK_HOST_DEVICE constexpr index_t stride(int r) const noexcept {
    index_t s = 1;
    for (int d = r + 1; d < Extents::rank(); ++d) s *= extents().extent(d);
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

  /// Equal when the extents are.
  template <class OtherExtents>
  TACK_HOST_DEVICE friend constexpr bool
  operator==(const mapping& a, const layout_right::mapping<OtherExtents>& b) noexcept {
    return a.extents() == b.extents();
  }
};

}  // namespace tack
