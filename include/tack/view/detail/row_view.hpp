// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
#pragma once
/// @file What the row-major kernel views (`tack::view`, `tack::soa_view`) add to their `mdview`:
/// `operator[]` over the flat element sequence at every rank, `operator()` whose bounds reports
/// name the view, and `rows(i, j)`, which returns the view's own type.

#include <tack/core/index.hpp>
#include <tack/core/macros.hpp>
#include <tack/detail/bounds.hpp>
#include <tack/view/detail/row_mapping.hpp>

#include <concepts>
#include <type_traits>

namespace tack::detail {

/// The members common to `Derived` (`view<T, R>`, `soa_view<T, R>`) over its `mdview` `Base`
/// with the row mapping; `Derived::check_name` and `Derived::rows_check_name` name it in reports.
/// `class view : public detail::row_view<view<T, R>, mdview<T, dextents<R>, layout_rows>>`
template <class Derived, class Base>
class row_view : public Base {
public:
  using Base::Base;
  using reference = typename Base::reference;  ///< what element access returns

  /// Element `k` of the flat row-major sequence, 0 <= k < size(). `v[k] += 1;`
  template <std::integral I>
  TACK_FORCEINLINE constexpr reference operator[](I k) const {
    return this->element(
        this->mapping().flat(TACK_IMPL_CHECK_SITE(Derived::check_name), index_t(k)));
  }

  /// Element `(i, j, ...)`: exactly `rank` integer indices. `m(i, j) = 0;`
  template <class... I>
  TACK_FORCEINLINE constexpr reference operator()(I... i) const {
    if constexpr (!check_index_count<Base::rank(), sizeof...(I)>()) {
      return this->element(0);
    } else {
      static_assert((std::is_integral_v<I> && ...), "tack: a view's indices are integers");
      return this->element(
          this->mapping().offset(TACK_IMPL_CHECK_SITE(Derived::check_name), index_t(i)...));
    }
  }

  /// Rows `[i, j)` of the first dimension: the same memory, no allocation (every component
  /// pointer moves for a SoA view). `auto middle = v.rows(2, 4);  middle[0]` is `v[2]` at rank 1.
  TACK_HOST_DEVICE constexpr Derived rows(index_t i, index_t j) const {
    Derived r = static_cast<const Derived&>(*this);
    r.take_rows(TACK_IMPL_CHECK_SITE(Derived::rows_check_name), i, j);
    return r;
  }
};

}  // namespace tack::detail
