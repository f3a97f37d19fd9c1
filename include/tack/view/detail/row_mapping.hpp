// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
#pragma once
/// @file The mapping of the row-major kernel views (`tack::view`, `tack::soa_view`): the offsets of
/// `layout_right`, plus where the view's row 0 sits in its root and the root's rows (for
/// bounds-check messages only), the checked offsets that name the view in a report, and
/// `take_rows`.

#include <tack/core/index.hpp>
#include <tack/core/macros.hpp>
#include <tack/core/precondition.hpp>
#include <tack/detail/bounds.hpp>
#include <tack/view/extents.hpp>
#include <tack/view/layout_right.hpp>

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

template <class Extents>
class row_mapping;

/// The layout of the row-major kernel views: `layout_right` whose mapping also knows the view's
/// place in its root. `mdview<float, dextents<2>, detail::layout_rows>` is `view<float, 2>`'s base.
struct layout_rows {
  /// Whether the last index varies fastest (row-major).
  static constexpr bool last_index_fastest = true;
  /// `detail::row_mapping<Extents>`.
  template <class Extents>
  using mapping = row_mapping<Extents>;
};

/// `layout_right::mapping<Extents>` plus the place of row 0 in the root. Trivially copyable.
/// `row_mapping<dextents<2>> m("tack::view", shape, 0, -1);`
/// `index_t k = m.offset(TACK_IMPL_CHECK_SITE("tack::view"), i, j);`
template <class Extents>
class row_mapping : public packed_mapping<layout_right, Extents> {
  using base = packed_mapping<layout_right, Extents>;
  static constexpr int Rank = Extents::rank();

  // Where row 0 of the view sits in its root, and the root's rows: read by bounds checks only.
  index_t root_row_offset_ = 0;
  index_t root_rows_ = 0;

public:
  using layout_type = layout_rows;

  constexpr row_mapping() noexcept = default;

  /// From `Rank` extents (a C array or `std::array`), each >= 0 (a precondition, named by `what`);
  /// `root_rows < 0` means `e[0]` (not a row view).
  template <class E>
  TACK_HOST_DEVICE constexpr row_mapping(const char* what, const E& e, index_t root_row_offset,
                                         index_t root_rows)
      : base(checked(what, e)),
        root_row_offset_(root_row_offset),
        root_rows_(root_rows < 0 ? e[0] : root_rows) {}

  /// Row 0 of the view is row `root_row_offset()` of its root.
  TACK_HOST_DEVICE constexpr index_t root_row_offset() const noexcept { return root_row_offset_; }
  /// Rows of the root the view was taken from.
  TACK_HOST_DEVICE constexpr index_t root_rows() const noexcept { return root_rows_; }
  /// Number of elements: the product of the extents.
  TACK_FORCEINLINE constexpr index_t size() const noexcept { return this->extents().size(); }
  /// Elements per row of the first dimension.
  TACK_FORCEINLINE constexpr index_t row_size() const noexcept { return this->stride(0); }
  /// What a bounds-check message says about the root.
  TACK_HOST_DEVICE constexpr row_info bounds_info() const noexcept {
    return row_info{root_row_offset_, this->extents().extent(0), root_rows_};
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
#if TACK_BOUNDS_CHECK
    const index_t idx[] = {i...};
    for (int d = 0; d < Rank; ++d) {
      if (!in_range(idx[d], this->extents().extent(d))) {
        report_index(site.file, site.line, site.what, false, idx[d], this->extents().extent(d),
                     Rank > 1 ? d : -1, bounds_info());
      }
    }
#endif
    return (*this)(i...);
  }

  /// Rows `[i, j)` of the first dimension (checked when bounds checks are on): shrinks extent 0,
  /// moves the root offset, and returns how many elements row `i` is past row 0.
  TACK_HOST_DEVICE constexpr index_t take_rows([[maybe_unused]] check_site site, index_t i,
                                               index_t j) {
#if TACK_BOUNDS_CHECK
    if (!(i >= 0 && i <= j && j <= this->extents().extent(0))) {
      report_rows(site.file, site.line, site.what, i, j, this->extents().extent(0), bounds_info());
    }
#endif
    const index_t shift = i * row_size();
    this->set_extent(0, j - i);
    root_row_offset_ += i;
    return shift;
  }

private:
  template <class E>
  TACK_HOST_DEVICE static constexpr Extents checked([[maybe_unused]] const char* what, const E& e) {
    std::array<index_t, std::size_t(Rank)> s{};
    for (int d = 0; d < Rank; ++d) {
      TACK_EXPECTS(e[std::size_t(d)] >= 0, "%s: extent %lld of dimension %d is negative", what,
                   (long long)e[std::size_t(d)], d);
      s[std::size_t(d)] = e[std::size_t(d)];
    }
    return Extents(s);
  }
};

}  // namespace tack::detail

/// The `check_site` of the line it is written on.
#define TACK_IMPL_CHECK_SITE(what) (::tack::detail::check_site{what, __FILE__, __LINE__})
