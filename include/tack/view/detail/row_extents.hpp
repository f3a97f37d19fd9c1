// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
#pragma once
/// @file What every row-major kernel view (`tack::view`, `tack::soa_view`) knows besides its
/// pointers: the extents, where its row 0 sits in its root and the root's rows (for bounds-check
/// messages only), and the checked row-major offset of a multi-index.

#include <tack/core/index.hpp>
#include <tack/core/macros.hpp>
#include <tack/core/precondition.hpp>
#include <tack/detail/bounds.hpp>

#include <array>
#include <cstddef>

namespace tack::detail {

/// Who checks an index, and where (the view's own source line, so that a bounds report names the
/// view's header). Made by `TACK_IMPL_CHECK_SITE("tack::view")`.
struct check_site {
  const char* what;
  const char* file;
  int line;
};

/// Row-major extents of rank `Rank` and the place of row 0 in the root. Trivially copyable.
/// `row_extents<2> e("tack::view", shape, 0, -1);`
/// `index_t k = e.offset(TACK_IMPL_CHECK_SITE("tack::view"), i, j);`
template <int Rank>
struct row_extents {
  index_t extents[Rank] = {};
  // Where row 0 of the view sits in its root, and the root's rows: read by bounds checks only.
  index_t root_row_offset = 0;
  index_t root_rows = 0;

  constexpr row_extents() noexcept = default;

  /// From `Rank` extents (a C array or `std::array`), each >= 0 (a precondition, named by `what`);
  /// `root_rows < 0` means `e[0]` (not a row view).
  template <class E>
  TACK_HOST_DEVICE constexpr row_extents([[maybe_unused]] const char* what, const E& e,
                                         index_t root_row_offset_, index_t root_rows_)
      : root_row_offset(root_row_offset_), root_rows(root_rows_ < 0 ? e[0] : root_rows_) {
    for (int d = 0; d < Rank; ++d) {
      TACK_EXPECTS(e[std::size_t(d)] >= 0, "%s: extent %lld of dimension %d is negative", what,
                   (long long)e[std::size_t(d)], d);
      extents[d] = e[std::size_t(d)];
    }
  }

  /// Number of elements: the product of the extents.
  TACK_FORCEINLINE constexpr index_t size() const noexcept {
    index_t n = extents[0];
    for (int d = 1; d < Rank; ++d) n *= extents[d];
    return n;
  }
  /// Elements per row of the first dimension.
  TACK_FORCEINLINE constexpr index_t row_size() const noexcept {
    index_t n = 1;
    for (int d = 1; d < Rank; ++d) n *= extents[d];
    return n;
  }
  /// The extents as an array.
  TACK_HOST_DEVICE constexpr std::array<index_t, std::size_t(Rank)> shape() const noexcept {
    std::array<index_t, std::size_t(Rank)> s{};
    for (int d = 0; d < Rank; ++d) s[std::size_t(d)] = extents[d];
    return s;
  }
  /// What a bounds-check message says about the root.
  TACK_HOST_DEVICE constexpr row_info bounds_info() const noexcept {
    return row_info{root_row_offset, extents[0], root_rows};
  }

  /// Checks flat index `k` against `size()` (when bounds checks are on) and returns it.
  TACK_FORCEINLINE constexpr index_t flat([[maybe_unused]] check_site site, index_t k) const {
#if TACK_BOUNDS_CHECK
    if (!in_range(k, size())) {
      report_index(site.file, site.line, site.what, Rank > 1, k, size(), -1, bounds_info());
    }
#endif
    return k;
  }

  /// Row-major offset of a full multi-index, each index checked against its extent (when bounds
  /// checks are on; `site` names the view in the report).
  template <class... I>
  TACK_FORCEINLINE constexpr index_t offset([[maybe_unused]] check_site site, I... i) const {
    const index_t idx[] = {i...};
#if TACK_BOUNDS_CHECK
    for (int d = 0; d < Rank; ++d) {
      if (!in_range(idx[d], extents[d])) {
        report_index(site.file, site.line, site.what, false, idx[d], extents[d], Rank > 1 ? d : -1,
                     bounds_info());
      }
    }
#endif
    index_t off = idx[0];
    for (int d = 1; d < Rank; ++d) off = off * extents[d] + idx[d];
    return off;
  }

  /// Rows `[i, j)` of the first dimension (checked when bounds checks are on): shrinks extent 0,
  /// moves the root offset, and returns how many elements row `i` is past row 0.
  TACK_HOST_DEVICE constexpr index_t take_rows([[maybe_unused]] check_site site, index_t i,
                                               index_t j) {
#if TACK_BOUNDS_CHECK
    if (!(i >= 0 && i <= j && j <= extents[0])) {
      report_rows(site.file, site.line, site.what, i, j, extents[0], bounds_info());
    }
#endif
    const index_t shift = i * row_size();
    extents[0] = j - i;
    root_row_offset += i;
    return shift;
  }
};

}  // namespace tack::detail

/// The `check_site` of the line it is written on.
#define TACK_IMPL_CHECK_SITE(what) (::tack::detail::check_site{what, __FILE__, __LINE__})
