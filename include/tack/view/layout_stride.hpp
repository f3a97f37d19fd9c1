// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
#pragma once
/// @file `tack::layout_stride`: any strides, one per dimension; offset `sum(i_d * stride_d)`.
/// Axom's `ArrayView` with a spacing is this layout with row-major strides times the spacing.

#include <tack/core/index.hpp>
#include <tack/core/macros.hpp>
#include <tack/core/precondition.hpp>
#include <tack/view/extents.hpp>

#include <array>
#include <concepts>
#include <cstddef>
#include <type_traits>

namespace tack {

/// Strided layout policy. `tack::mdview<float, tack::dextents<2>, tack::layout_stride>`
struct layout_stride {
  /// Maps a multi-index over `Extents` to `sum(i_d * stride(d))`.
  /// `layout_stride::mapping<dextents<2>> m(dextents<2>(2, 3), {12, 4});`
  template <class Extents>
  class mapping;
};

namespace detail {
// Another layout's mapping that layout_stride can take over: unique, strided, same rank.
template <class M, class Extents>
concept strided_mapping_of_rank = requires(const M& m) {
  typename M::extents_type;
  {m.extents()};
  { m.stride(0) } -> std::convertible_to<index_t>;
}
&&M::is_always_unique() && M::is_always_strided() && M::extents_type::rank() == Extents::rank();
}  // namespace detail

// Holds the extents as a base (empty-base optimization for static extents) and one stride per
// dimension.
template <class Extents>
class layout_stride::mapping : private Extents {
  static_assert(is_extents_v<Extents>,
                "tack::layout_stride::mapping: the template argument must be tack::extents<...>");
  static constexpr int rank_ = Extents::rank();
  index_t strides_[rank_ > 0 ? rank_ : 1] = {};

public:
  using extents_type = Extents;
  using index_type = index_t;
  using layout_type = layout_stride;

  /// Row-major strides over default-constructed extents.
  TACK_HOST_DEVICE constexpr mapping() noexcept { set_row_major(); }

  /// `mapping m(tack::dextents<2>(2, 3), {12, 4});` (strides are in elements, not bytes).
  TACK_HOST_DEVICE constexpr mapping(const extents_type& e,
                                     const std::array<index_t, std::size_t(rank_)>& strides)
      : Extents(e) {
    for (int d = 0; d < rank_; ++d) {
      TACK_EXPECTS(strides[std::size_t(d)] >= 0,
                   "tack::layout_stride::mapping: stride %lld of dimension %d is negative",
                   (long long)strides[std::size_t(d)], d);
      strides_[d] = strides[std::size_t(d)];
    }
  }

  /// From any unique strided mapping (layout_right, layout_left, layout_stride) of the same rank.
  /// `layout_stride::mapping<dextents<2>> s(layout_right::mapping<dextents<2>>(e));`
  template <class Other>
  requires detail::strided_mapping_of_rank<Other, Extents> && std::
      is_constructible_v<Extents, typename Other::extents_type> TACK_HOST_DEVICE constexpr explicit(
          !std::is_convertible_v<typename Other::extents_type, Extents>) mapping(const Other& other)
      : Extents(other.extents()) {
    for (int d = 0; d < rank_; ++d) strides_[d] = other.stride(d);
  }

  /// The extents this mapping covers.
  TACK_HOST_DEVICE constexpr const extents_type& extents() const noexcept { return *this; }

  /// Distance in elements between neighbours along dimension `r`.
  TACK_HOST_DEVICE constexpr index_t stride(int r) const noexcept { return strides_[r]; }

  /// All strides. `auto s = m.strides(); s[0]`
  TACK_HOST_DEVICE constexpr std::array<index_t, std::size_t(rank_)> strides() const noexcept {
    std::array<index_t, std::size_t(rank_)> s{};
    for (int d = 0; d < rank_; ++d) s[std::size_t(d)] = strides_[d];
    return s;
  }

  /// One past the largest offset: `1 + sum((n_d - 1) * stride_d)`, or 0 for an empty shape.
  TACK_HOST_DEVICE constexpr index_t required_span_size() const noexcept {
    index_t span = 1;
    for (int d = 0; d < rank_; ++d) {
      const index_t n = extents().extent(d);
      if (n == 0) return 0;
      span += (n - 1) * strides_[d];
    }
    return span;
  }

  /// Offset of `(i, j, ...)`: `i * stride(0) + j * stride(1) + ...`.
  template <std::integral... I>
  requires(sizeof...(I) == std::size_t(rank_)) TACK_FORCEINLINE constexpr index_t operator()(
      I... i) const noexcept {
    if constexpr (sizeof...(I) == 0) {
      return 0;
    } else {
      const index_t idx[] = {index_t(i)...};
      index_t offset = 0;
      for (int d = 0; d < rank_; ++d) offset += idx[d] * strides_[d];
      return offset;
    }
  }

  /// Assumed, as in std::mdspan: strides that alias elements are the caller's responsibility.
  TACK_HOST_DEVICE static constexpr bool is_always_unique() noexcept { return true; }
  /// Gaps depend on the run-time strides.
  TACK_HOST_DEVICE static constexpr bool is_always_exhaustive() noexcept { return false; }
  /// Offsets are a sum of index times stride.
  TACK_HOST_DEVICE static constexpr bool is_always_strided() noexcept { return true; }
  /// See `is_always_unique()`.
  TACK_HOST_DEVICE static constexpr bool is_unique() noexcept { return true; }
  /// True when the mapping uses every offset below `required_span_size()` (no gaps).
  TACK_HOST_DEVICE constexpr bool is_exhaustive() const noexcept {
    return required_span_size() == extents().size();
  }
  /// See `is_always_strided()`.
  TACK_HOST_DEVICE static constexpr bool is_strided() noexcept { return true; }

  /// Equal when the extents and the strides are.
  template <class OtherExtents>
  TACK_HOST_DEVICE friend constexpr bool operator==(
      const mapping& a, const layout_stride::mapping<OtherExtents>& b) noexcept {
    if (!(a.extents() == b.extents())) return false;
    for (int d = 0; d < rank_; ++d) {
      if (a.stride(d) != b.stride(d)) return false;
    }
    return true;
  }

private:
  TACK_HOST_DEVICE constexpr void set_row_major() noexcept {
    index_t s = 1;
    for (int d = rank_ - 1; d >= 0; --d) {
      strides_[d] = s;
      s *= extents().extent(d);
    }
  }
};

}  // namespace tack
