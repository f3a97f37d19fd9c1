// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
#pragma once
/// @file `tack::view<T, Rank>`: what a kernel receives for an interleaved (AoS) or scalar array —
/// a pointer and row-major extents, trivially copyable, usable on host and device. `a.view()`
/// returns one. It is the `mdview` with the row-major mapping `detail::layout_rows` and the
/// default accessor, plus what only kernel views have: `operator[]` over the flat element sequence
/// at every rank and `rows(i, j)` (both from `detail::row_view`), iterators. Its mapping also
/// records where it sits in its root array (for bounds-check messages only), so that an index past
/// a row view but inside the root is reported as such.

#include <tack/core/index.hpp>
#include <tack/core/macros.hpp>
#include <tack/detail/bounds.hpp>
#include <tack/view/accessor.hpp>
#include <tack/view/detail/row_mapping.hpp>
#include <tack/view/detail/row_view.hpp>
#include <tack/view/extents.hpp>
#include <tack/view/mdview.hpp>

#include <array>
#include <concepts>
#include <cstddef>
#include <type_traits>

namespace tack {

/// A contiguous row-major view of `T` elements with `Rank` dimensions.
/// `tack::view<float> v(p, {n});  v[i] = 2 * v[i];`  `tack::view<float, 2> m(p, {6, 3}); m(i, j)`
///
/// `operator[](k)` reads the flat element sequence (k < size()); `operator()(i, j, ...)` takes one
/// index per dimension. `rows(i, j)` is rows `[i, j)` of the first dimension, over the same memory.
/// Read-only arrays give `view<const T, Rank>`; a `view<T>` converts to it, and to
/// `mdview<T, dextents<Rank>>` (layout_right). Accesses are bounds-checked when TACK_BOUNDS_CHECK
/// is on, against this view's extents.
///
/// A class derived from `mdview` rather than an alias of it: kernels and traits deduce `T` and
/// `Rank` from `view<T, Rank>` (`template <class T, int R> void k(tack::view<T, R>)`,
/// `restrict_form<view<T, R>>`), which an alias of `mdview<T, dextents<Rank>, ...>` would not allow
/// (`Rank` is not deducible through `dextents`); see docs/decisions.md.
template <class T, int Rank = 1>
class view
    : public detail::row_view<view<T, Rank>,
                              mdview<T, dextents<Rank>, detail::layout_rows, default_accessor<T>>> {
  static_assert(Rank >= 1 && Rank <= max_rank, "tack::view: the rank is between 1 and 8");
  static_assert(!std::is_reference_v<T> && !std::is_void_v<T>,
                "tack::view: the element type is an object type (float, tack::vec3f, ...)");

  using md = mdview<T, dextents<Rank>, detail::layout_rows, default_accessor<T>>;
  using base = detail::row_view<view<T, Rank>, md>;
  using row_map = typename md::mapping_type;
  friend base;

public:
  using element_type = T;                  ///< `T`, const for read-only views
  using value_type = std::remove_cv_t<T>;  ///< `T` without const
  using pointer = T*;                      ///< what `data()` returns
  using reference = T&;                    ///< what element access returns
  using iterator = T*;                     ///< `begin()`/`end()` walk the flat sequence
  /// Number of dimensions. `static_assert(tack::view<float, 2>::rank == 2);`
  static constexpr int rank = Rank;
  /// How bounds reports name this view and its `rows`.
  static constexpr const char* check_name = "tack::view";
  static constexpr const char* rows_check_name = "tack::view::rows";

  /// A null view with zero extents.
  constexpr view() noexcept = default;

  /// Over `data` with `extents` (row-major). `tack::view<float, 2> v(p, {6, 3});`
  TACK_HOST_DEVICE constexpr view(T* data, const index_t (&extents)[Rank])
      : view(data, extents, 0, extents[0]) {}

  /// A row view: this view's row 0 is row `root_row_offset` of a root with `root_rows` rows.
  /// The two numbers only improve bounds-check messages. `view<float>(p + 2, {2}, 2, 6)`
  TACK_HOST_DEVICE constexpr view(T* data, const index_t (&extents)[Rank], index_t root_row_offset,
                                  index_t root_rows)
      : base(data, row_map("tack::view", extents, root_row_offset, root_rows)) {}

  /// The same with a `std::array` of extents. `tack::view<float, 2> v(p, shape, 2, 6);`
  TACK_HOST_DEVICE constexpr view(T* data, const std::array<index_t, std::size_t(Rank)>& extents,
                                  index_t root_row_offset, index_t root_rows)
      : base(data, row_map("tack::view", extents, root_row_offset, root_rows)) {}

  /// See above; not a row view. `tack::view<float, 2> v(p, shape);`
  TACK_HOST_DEVICE constexpr view(T* data, const std::array<index_t, std::size_t(Rank)>& extents)
      : view(data, extents, 0, extents[0]) {}

  /// A rank-1 view of `n` elements. `tack::view<float> v(p, n);`
  /// (A template so that a braced `{n}` picks the extents constructor, not this one.)
  template <std::integral I>
  requires(Rank == 1) TACK_HOST_DEVICE constexpr view(T* data, I n)
      : view(data, std::array<index_t, 1>{index_t(n)}, 0, index_t(n)) {}

  /// `view<const T>` from `view<T>`. `tack::view<const float> r = w;`
  template <class U>
  requires(std::is_same_v<const U, T> && !std::is_const_v<U>)
      TACK_HOST_DEVICE constexpr view(const view<U, Rank>& other) noexcept
      : base(
            static_cast<const mdview<U, dextents<Rank>, detail::layout_rows, default_accessor<U>>&>(
                other)) {}

  /// First element of the flat sequence. `for (float x : v) ...`
  TACK_HOST_DEVICE constexpr iterator begin() const noexcept { return this->data(); }
  /// One past the last element.
  TACK_HOST_DEVICE constexpr iterator end() const noexcept { return this->data() + this->size(); }
};

}  // namespace tack
