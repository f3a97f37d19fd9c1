// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
#pragma once
/// @file `tack::default_accessor<T>`: how an `mdview` turns its data handle and an offset into an
/// element, as `std::default_accessor` does for `std::mdspan`: the handle is a `T*`, `access(p, i)`
/// is `p[i]` (a `T&`), `offset(p, i)` is `p + i`. The SoA kernel view's accessor,
/// `tack::soa_accessor<T>` (soa_view.hpp), has a handle of component pointers and returns a proxy.

#include <tack/core/index.hpp>
#include <tack/core/macros.hpp>
#include <type_traits>

namespace tack {

/// Elements that are `T` objects at `p[i]`. `tack::default_accessor<float>{}.access(p, 2) = 1.0f;`
template <class T>
struct default_accessor {
  using element_type = T;                  ///< `T`, const for read-only views
  using data_handle_type = T*;             ///< what a view holds
  using reference = T&;                    ///< what `access` returns
  using offset_policy = default_accessor;  ///< the accessor of `offset`'s result

  constexpr default_accessor() noexcept = default;
  /// `default_accessor<const T>` from `default_accessor<T>`.
  template <class U>
  requires std::is_convertible_v<U (*)[], T (*)[]> TACK_HOST_DEVICE constexpr default_accessor(
      default_accessor<U>) noexcept {}

  /// Element `i` of `p`. `acc.access(p, i)` is `p[i]`.
  TACK_FORCEINLINE constexpr reference access(data_handle_type p, index_t i) const noexcept {
    return p[i];
  }
  /// The handle of element `i`. `acc.offset(p, i)` is `p + i`.
  TACK_FORCEINLINE constexpr data_handle_type offset(data_handle_type p, index_t i) const noexcept {
    return p + i;
  }
};

}  // namespace tack
