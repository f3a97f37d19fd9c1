// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
#pragma once
/// @file Bounds checks shared by the views (`view`, `soa_view`, `mdview`, `array_view`): the
/// messages of a failed check, the check macro, and the compile-time count of indices.
///
/// A check runs when TACK_BOUNDS_CHECK is 1 (Debug builds, or defined before including tack) and
/// expands to nothing otherwise, so the unchecked path reads no extra member and adds no branch.
/// Failures go through TACK_PRECONDITION_HANDLER: on the host the installed handler (tests install
/// `tack::throwing_precondition_handler`, which throws `tack::index_error`), on the device printf
/// and a trap.

#include <cstddef>
#include <tack/core/index.hpp>
#include <tack/core/macros.hpp>
#include <tack/core/precondition.hpp>

namespace tack::detail {

/// `0 <= i < n`, one comparison (a negative index becomes a huge unsigned one).
TACK_FORCEINLINE constexpr bool in_range(index_t i, index_t n) noexcept {
  return static_cast<std::size_t>(i) < static_cast<std::size_t>(n);
}

/// printf's `%lld` argument.
TACK_FORCEINLINE constexpr long long ll(index_t v) noexcept { return static_cast<long long>(v); }

/// Where a view sits in its root, for messages: a row view covers rows
/// `[row_begin, row_begin + view_rows)` of a root with `root_rows` rows. A view that is not a row
/// view has `row_begin == 0` and `view_rows == root_rows`, and its messages omit the clause.
struct row_info {
  index_t row_begin;
  index_t view_rows;
  index_t root_rows;

  TACK_HOST_DEVICE constexpr bool is_row_view() const noexcept {
    return row_begin != 0 || view_rows != root_rows;
  }
};

/// Reports index `i` outside `[0, n)`. `flat`: the index is into the flat element sequence (the
/// message says "flat index" and "size"); `dim >= 0`: the dimension of a multi-index.
/// Example: "tack::view: index 2 out of range for extent 2 (rows [2, 4) of a root with 6 rows)".
inline TACK_HOST_DEVICE void report_index(const char* file, int line, const char* what, bool flat,
                                          index_t i, index_t n, int dim, row_info rows) {
  const char* index_word = flat ? "flat index" : "index";
  const char* extent_word = flat ? "size" : "extent";
  if (rows.is_row_view()) {
    const long long begin = ll(rows.row_begin);
    const long long end = ll(rows.row_begin + rows.view_rows);
    if (dim >= 0) {
      TACK_PRECONDITION_HANDLER(file, line,
                                "%s: %s %lld out of range for %s %lld in dimension %d (rows [%lld, "
                                "%lld) of a root with %lld rows)",
                                what, index_word, ll(i), extent_word, ll(n), dim, begin, end,
                                ll(rows.root_rows));
    } else {
      TACK_PRECONDITION_HANDLER(
          file, line,
          "%s: %s %lld out of range for %s %lld (rows [%lld, %lld) of a root with %lld rows)", what,
          index_word, ll(i), extent_word, ll(n), begin, end, ll(rows.root_rows));
    }
  } else if (dim >= 0) {
    TACK_PRECONDITION_HANDLER(file, line, "%s: %s %lld out of range for %s %lld in dimension %d",
                              what, index_word, ll(i), extent_word, ll(n), dim);
  } else {
    TACK_PRECONDITION_HANDLER(file, line, "%s: %s %lld out of range for %s %lld", what, index_word,
                              ll(i), extent_word, ll(n));
  }
}

/// Reports a row range `[i, j)` that is not inside `[0, n)` (or has `j < i`).
inline TACK_HOST_DEVICE void report_rows(const char* file, int line, const char* what, index_t i,
                                         index_t j, index_t n, row_info rows) {
  if (rows.is_row_view()) {
    TACK_PRECONDITION_HANDLER(
        file, line,
        "%s: rows [%lld, %lld) out of range for extent %lld (rows [%lld, %lld) "
        "of a root with %lld rows)",
        what, ll(i), ll(j), ll(n), ll(rows.row_begin), ll(rows.row_begin + rows.view_rows),
        ll(rows.root_rows));
  } else {
    TACK_PRECONDITION_HANDLER(file, line, "%s: rows [%lld, %lld) out of range for extent %lld",
                              what, ll(i), ll(j), ll(n));
  }
}

// Each rank has its own message so that the count appears in the error (C++20 static_assert
// messages are string literals). Only the branch of the view's rank is instantiated.
#define TACK_IMPL_INDEX_COUNT_CASE(R, WORD)                                                       \
  if constexpr (Rank == R) {                                                                      \
    static_assert(Given == R, "tack: operator() of a rank-" #R " view takes exactly " #R " " WORD \
                              ", one per dimension; operator[] takes one flat index");            \
  }

/// Fails to compile, with the expected count in the message, unless `Given == Rank`.
/// `detail::check_index_count<2, sizeof...(I)>();`
template <int Rank, std::size_t Given>
TACK_HOST_DEVICE constexpr bool check_index_count() noexcept {
  static_assert(Rank >= 0 && Rank <= max_rank, "tack: a view's rank is between 0 and 8");
  if constexpr (Rank == 0) {
    static_assert(Given == 0, "tack: operator() of a rank-0 view takes no index");
  }
  TACK_IMPL_INDEX_COUNT_CASE(1, "index")
  TACK_IMPL_INDEX_COUNT_CASE(2, "indices")
  TACK_IMPL_INDEX_COUNT_CASE(3, "indices")
  TACK_IMPL_INDEX_COUNT_CASE(4, "indices")
  TACK_IMPL_INDEX_COUNT_CASE(5, "indices")
  TACK_IMPL_INDEX_COUNT_CASE(6, "indices")
  TACK_IMPL_INDEX_COUNT_CASE(7, "indices")
  TACK_IMPL_INDEX_COUNT_CASE(8, "indices")
  return Given == std::size_t(Rank);
}

#undef TACK_IMPL_INDEX_COUNT_CASE

}  // namespace tack::detail

#if TACK_BOUNDS_CHECK
/// `TACK_IMPL_CHECK_INDEX(i, n, "tack::view", flat, dim, rows)`: reports `i` outside `[0, n)`.
#define TACK_IMPL_CHECK_INDEX(i, n, what, flat, dim, rows)                               \
  do {                                                                                   \
    if (!::tack::detail::in_range((i), (n))) {                                           \
      ::tack::detail::report_index(__FILE__, __LINE__, what, flat, (i), (n), dim, rows); \
    }                                                                                    \
  } while (0)
/// `TACK_IMPL_CHECK_ROWS(i, j, n, "tack::view::rows", rows)`: reports `[i, j)` not inside `[0, n)`.
#define TACK_IMPL_CHECK_ROWS(i, j, n, what, rows)                                 \
  do {                                                                            \
    if (!((i) >= 0 && (i) <= (j) && (j) <= (n))) {                                \
      ::tack::detail::report_rows(__FILE__, __LINE__, what, (i), (j), (n), rows); \
    }                                                                             \
  } while (0)
#else
#define TACK_IMPL_CHECK_INDEX(i, n, what, flat, dim, rows) \
  do {                                                     \
  } while (0)
#define TACK_IMPL_CHECK_ROWS(i, j, n, what, rows) \
  do {                                            \
  } while (0)
#endif
