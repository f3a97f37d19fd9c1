// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
#pragma once
/// @file `tack::view<T, Rank>`: what a kernel receives for an interleaved (AoS) or scalar array —
/// a pointer and row-major extents, trivially copyable, usable on host and device. `a.view()`
/// returns one. It also records where it sits in its root array (for bounds-check messages only),
/// so that an index past a row view but inside the root is reported as such.

#include <tack/core/index.hpp>
#include <tack/core/macros.hpp>
#include <tack/detail/bounds.hpp>
#include <tack/view/array_view.hpp>
#include <tack/view/detail/row_extents.hpp>
#include <tack/view/extents.hpp>
#include <tack/view/layout_right.hpp>
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
/// Read-only arrays give `view<const T, Rank>`; a `view<T>` converts to it. Accesses are
/// bounds-checked when TACK_BOUNDS_CHECK is on, against this view's extents.
template <class T, int Rank = 1>
class view {
  static_assert(Rank >= 1 && Rank <= max_rank, "tack::view: the rank is between 1 and 8");
  static_assert(!std::is_reference_v<T> && !std::is_void_v<T>,
                "tack::view: the element type is an object type (float, tack::vec3f, ...)");

  T* data_ = nullptr;
  detail::row_extents<Rank> ext_;

  template <class, int>
  friend class view;

public:
  using element_type = T;                  ///< `T`, const for read-only views
  using value_type = std::remove_cv_t<T>;  ///< `T` without const
  using pointer = T*;                      ///< what `data()` returns
  using reference = T&;                    ///< what element access returns
  using iterator = T*;                     ///< `begin()`/`end()` walk the flat sequence
  /// Number of dimensions. `static_assert(tack::view<float, 2>::rank == 2);`
  static constexpr int rank = Rank;

  /// A null view with zero extents.
  constexpr view() noexcept = default;

  /// Over `data` with `extents` (row-major). `tack::view<float, 2> v(p, {6, 3});`
  TACK_HOST_DEVICE constexpr view(T* data, const index_t (&extents)[Rank])
      : view(data, extents, 0, extents[0]) {}

  /// A row view: this view's row 0 is row `root_row_offset` of a root with `root_rows` rows.
  /// The two numbers only improve bounds-check messages. `view<float>(p + 2, {2}, 2, 6)`
  TACK_HOST_DEVICE constexpr view(T* data, const index_t (&extents)[Rank], index_t root_row_offset,
                                  index_t root_rows)
      : data_(data), ext_("tack::view", extents, root_row_offset, root_rows) {}

  /// The same with a `std::array` of extents. `tack::view<float, 2> v(p, shape, 2, 6);`
  TACK_HOST_DEVICE constexpr view(T* data, const std::array<index_t, std::size_t(Rank)>& extents,
                                  index_t root_row_offset, index_t root_rows)
      : data_(data), ext_("tack::view", extents, root_row_offset, root_rows) {}

  /// See above; not a row view. `tack::view<float, 2> v(p, shape);`
  TACK_HOST_DEVICE constexpr view(T* data, const std::array<index_t, std::size_t(Rank)>& extents)
      : view(data, extents, 0, extents[0]) {}

  /// A rank-1 view of `n` elements. `tack::view<float> v(p, n);`
  /// (A template so that a braced `{n}` picks the extents constructor, not this one.)
  template <std::integral I>
    requires(Rank == 1)
  TACK_HOST_DEVICE constexpr view(T* data, I n)
      : view(data, std::array<index_t, 1>{index_t(n)}, 0, index_t(n)) {}

  /// `view<const T>` from `view<T>`. `tack::view<const float> r = w;`
  template <class U>
    requires(std::is_same_v<const U, T> && !std::is_const_v<U>)
  TACK_HOST_DEVICE constexpr view(const view<U, Rank>& other) noexcept
      : data_(other.data_), ext_(other.ext_) {}

  /// Element `k` of the flat row-major sequence, 0 <= k < size(). `v[k] += 1;`
  template <std::integral I>
  TACK_FORCEINLINE constexpr reference operator[](I k) const {
    return data_[ext_.flat(TACK_IMPL_CHECK_SITE("tack::view"), index_t(k))];
  }

  /// Element `(i, j, ...)`: exactly `Rank` integer indices. `m(i, j) = 0;`
  template <class... I>
  TACK_FORCEINLINE constexpr reference operator()(I... i) const {
    if constexpr (!detail::check_index_count<Rank, sizeof...(I)>()) {
      return *data_;
    } else {
      static_assert((std::is_integral_v<I> && ...), "tack::view: indices are integers");
      return data_[ext_.offset(TACK_IMPL_CHECK_SITE("tack::view"), index_t(i)...)];
    }
  }

  /// Rows `[i, j)` of the first dimension: the same memory, no allocation.
  /// `auto middle = v.rows(2, 4);  middle[0]` is `v[2]` for a rank-1 view.
  TACK_HOST_DEVICE constexpr view rows(index_t i, index_t j) const {
    view r = *this;
    r.data_ = data_ + r.ext_.take_rows(TACK_IMPL_CHECK_SITE("tack::view::rows"), i, j);
    return r;
  }

  /// Pointer to element 0 (host or device memory).
  TACK_FORCEINLINE constexpr pointer data() const noexcept { return data_; }
  /// Extent of dimension `d`.
  TACK_FORCEINLINE constexpr index_t extent(int d) const noexcept { return ext_.extents[d]; }
  /// Number of elements: the product of the extents.
  TACK_FORCEINLINE constexpr index_t size() const noexcept { return ext_.size(); }
  /// True when `size() == 0`.
  TACK_HOST_DEVICE constexpr bool empty() const noexcept { return size() == 0; }
  /// The extents as an array.
  TACK_HOST_DEVICE constexpr std::array<index_t, std::size_t(Rank)> shape() const noexcept {
    return ext_.shape();
  }
  /// Row `0` of this view is row `root_row_offset()` of its root (0 unless made by `rows`).
  TACK_HOST_DEVICE constexpr index_t root_row_offset() const noexcept {
    return ext_.root_row_offset;
  }
  /// Rows of the root this view was taken from (`extent(0)` unless it is a row view).
  TACK_HOST_DEVICE constexpr index_t root_rows() const noexcept { return ext_.root_rows; }

  /// First element of the flat sequence. `for (float x : v) ...`
  TACK_HOST_DEVICE constexpr iterator begin() const noexcept { return data_; }
  /// One past the last element.
  TACK_HOST_DEVICE constexpr iterator end() const noexcept { return data_ + size(); }

  /// As an mdspan-style view (`mdview<T, dextents<Rank>>`, or of `const T`).
  /// `tack::mdview<float, tack::dextents<2>> m = v;`
  template <class U>
    requires std::is_convertible_v<T (*)[], U (*)[]>
  TACK_HOST_DEVICE constexpr operator mdview<U, dextents<Rank>, layout_right>() const {
    return mdview<U, dextents<Rank>, layout_right>(data_, dextents<Rank>(shape()));
  }

  /// As an Axom-style view (spacing 1). `tack::array_view<float, 2> a = v;`
  template <class U>
    requires std::is_convertible_v<T (*)[], U (*)[]>
  TACK_HOST_DEVICE constexpr operator array_view<U, Rank>() const {
    return array_view<U, Rank>(data_, shape(), 1);
  }

};

}  // namespace tack
