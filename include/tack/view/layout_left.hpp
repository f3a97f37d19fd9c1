// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
#pragma once
/// @file `tack::layout_left`: column-major mapping, the first index varies fastest (Fortran, BLAS,
/// Kokkos' default on GPUs). Over extents `(C, N)` it maps `(c, i)` to `c + i * C`: one sample's C
/// components are contiguous (interleaved, array-of-structures).

#include <tack/core/index.hpp>
#include <tack/core/macros.hpp>
#include <tack/view/extents.hpp>

#include <concepts>
#include <cstddef>
#include <type_traits>

namespace tack {

/// Column-major layout policy. `tack::mdview<float, tack::dextents<2>, tack::layout_left>`
struct layout_left {
  /// Maps a multi-index over `Extents` to an offset. `layout_left::mapping<extents<3, dyn>> m(e);`
  template <class Extents>
  class mapping;
};

// Holds the extents as a base so that all-static extents take no space (empty-base optimization).
template <class Extents>
class layout_left::mapping : private Extents {
  static_assert(is_extents_v<Extents>,
                "tack::layout_left::mapping: the template argument must be tack::extents<...>");

public:
  using extents_type = Extents;
  using index_type = index_t;
  using layout_type = layout_left;

  /// The mapping of default-constructed extents (dynamic extents zero).
  constexpr mapping() noexcept = default;

  /// `tack::layout_left::mapping<tack::dextents<2>> m(tack::dextents<2>(6, 3));`
  TACK_HOST_DEVICE constexpr mapping(const extents_type& e) noexcept : Extents(e) {}

  /// From a column-major mapping over compatible extents.
  template <class OtherExtents>
    requires std::is_constructible_v<Extents, OtherExtents>
  TACK_HOST_DEVICE constexpr explicit(!std::is_convertible_v<OtherExtents, Extents>)
      mapping(const layout_left::mapping<OtherExtents>& other)
      : Extents(other.extents()) {}

  /// The extents this mapping covers.
  TACK_HOST_DEVICE constexpr const extents_type& extents() const noexcept { return *this; }

  /// The number of elements the mapped memory must hold: the product of the extents.
  TACK_HOST_DEVICE constexpr index_t required_span_size() const noexcept {
    return extents().size();
  }

  /// Offset of `(i, j, k)`: `i + n0 * (j + n1 * k)`. `m(c, i) == c + i * C`
  template <std::integral... I>
    requires(sizeof...(I) == std::size_t(Extents::rank()))
  TACK_FORCEINLINE constexpr index_t operator()(I... i) const noexcept {
    if constexpr (sizeof...(I) == 0) {
      return 0;
    } else {
      const index_t idx[] = {index_t(i)...};
      constexpr int last = Extents::rank() - 1;
      index_t offset = idx[last];
      for (int d = last - 1; d >= 0; --d) offset = offset * extents().extent(d) + idx[d];
      return offset;
    }
  }

  /// Distance in elements between neighbours along dimension `r`: the product of earlier extents.
  TACK_HOST_DEVICE constexpr index_t stride(int r) const noexcept {
    index_t s = 1;
    for (int d = 0; d < r; ++d) s *= extents().extent(d);
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
  operator==(const mapping& a, const layout_left::mapping<OtherExtents>& b) noexcept {
    return a.extents() == b.extents();
  }
};

}  // namespace tack
