// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
#pragma once
/// @file `tack::extents<E...>`: the shape of an mdspan-style view, each extent either a
/// compile-time value or `tack::dyn` (known at run time). Only the dynamic extents are stored, so
/// a fully static shape costs no bytes; this is what lets `mdview<T, extents<3, dyn>>` carry a
/// single integer.

#include <tack/core/index.hpp>
#include <tack/core/macros.hpp>
#include <tack/core/precondition.hpp>

#include <array>
#include <concepts>
#include <cstddef>
#include <type_traits>
#include <utility>

namespace tack {

/// Marks an extent known only at run time (like `std::dynamic_extent`).
/// `tack::extents<3, tack::dyn> e(11);  // 3 x 11, one stored integer`
inline constexpr index_t dyn = -1;

namespace detail {

template <class Layout, class Extents>
class packed_mapping;

// The run-time extents. A separate base so that the all-static case is an empty class and the
// empty-base optimization removes it from every mapping and view that holds one (inheritance
// rather than [[no_unique_address]], which nvcc's device pass and the host compiler might lay out
// differently).
template <int NumDynamic>
struct dynamic_extents_storage {
  index_t dyn_[NumDynamic] = {};
};
template <>
struct dynamic_extents_storage<0> {};

}  // namespace detail

/// A multidimensional shape; `E...` are non-negative sizes or `tack::dyn`, one per dimension.
/// `tack::extents<3, tack::dyn> e(11); e.extent(1) == 11; e.size() == 33;`
template <index_t... E>
class extents : private detail::dynamic_extents_storage<int((0 + ... + (E == dyn ? 1 : 0)))> {
  static_assert(((E == dyn || E >= 0) && ...),
                "tack::extents: each extent is a non-negative size or tack::dyn");
  static_assert(sizeof...(E) <= std::size_t(max_rank),
                "tack::extents: the rank is at most tack::max_rank (8)");

  static constexpr int num_dynamic = int((0 + ... + (E == dyn ? 1 : 0)));

  template <index_t...>
  friend class extents;
  template <class, class>
  friend class detail::packed_mapping;

  // Sets dynamic extent `d` (a row view shrinks extent 0 of its mapping).
  TACK_HOST_DEVICE constexpr void set_extent(int d, index_t v) noexcept {
    if constexpr (num_dynamic > 0) this->dyn_[dynamic_index(d)] = v;
  }

public:
  /// The index type of every extent and index (`tack::index_t`, signed 64-bit).
  using index_type = index_t;

  /// Number of dimensions. `static_assert(tack::extents<3, tack::dyn>::rank() == 2);`
  TACK_HOST_DEVICE static constexpr int rank() noexcept { return int(sizeof...(E)); }

  /// Number of dimensions whose extent is `tack::dyn`.
  TACK_HOST_DEVICE static constexpr int rank_dynamic() noexcept { return num_dynamic; }

  /// The compile-time extent of dimension `d`, or `tack::dyn`.
  /// `static_assert(tack::extents<3, tack::dyn>::static_extent(0) == 3);`
  TACK_HOST_DEVICE static constexpr index_t static_extent(int d) noexcept {
    // A fold rather than a static array: nvcc cannot index a host constexpr array in device code.
    index_t result = 0;
    int k = 0;
    ((k++ == d ? (result = E, 0) : 0), ...);
    return result;
  }

  /// How many dynamic extents precede dimension `d` (the slot of `d` in the stored values).
  TACK_HOST_DEVICE static constexpr int dynamic_index(int d) noexcept {
    int result = 0;
    int k = 0;
    ((result += (k++ < d && E == dyn) ? 1 : 0), ...);
    return result;
  }

  /// All dynamic extents are zero. `tack::extents<tack::dyn> e; e.extent(0) == 0;`
  constexpr extents() noexcept = default;

  /// One value per dynamic extent, or one per dimension (static ones must then match).
  /// `tack::extents<3, tack::dyn>(11)` and `tack::extents<3, tack::dyn>(3, 11)` are the same.
  template <std::integral... I>
  requires((sizeof...(I) == std::size_t(num_dynamic) && sizeof...(I) > 0) ||
           (sizeof...(I) == sizeof...(E) && sizeof...(E) != std::size_t(num_dynamic)))
      TACK_HOST_DEVICE constexpr explicit extents(I... values) {
    const index_t v[] = {index_t(values)...};
    init_from(v, int(sizeof...(I)));
  }

  /// From an array of `rank_dynamic()` or `rank()` values.
  /// `tack::dextents<2> e(std::array<tack::index_t, 2>{2, 3});`
  template <std::size_t N>
  requires((N == std::size_t(num_dynamic) && N > 0) ||
           (N == sizeof...(E) && N != std::size_t(num_dynamic)))
      TACK_HOST_DEVICE constexpr explicit extents(const std::array<index_t, N>& values) {
    init_from(values.data(), int(N));
  }

  /// From extents of the same rank whose static extents agree; explicit when a static extent here
  /// takes a dynamic value there (checked with TACK_EXPECTS).
  template <index_t... F>
  requires(sizeof...(F) == sizeof...(E) && ((E == dyn || F == dyn || E == F) && ...))
      TACK_HOST_DEVICE constexpr explicit(((E != dyn && F == dyn) || ...))
          extents(const extents<F...>& other) {
    for (int d = 0; d < rank(); ++d) {
      TACK_EXPECTS(static_extent(d) == dyn || static_extent(d) == other.extent(d),
                   "tack::extents: extent %lld of dimension %d does not match the static extent "
                   "%lld",
                   (long long)other.extent(d), d, (long long)static_extent(d));
      if constexpr (num_dynamic > 0) {
        if (static_extent(d) == dyn) this->dyn_[dynamic_index(d)] = other.extent(d);
      }
    }
  }

  /// Extent of dimension `d` (0 <= d < rank()). `e.extent(1)`
  TACK_HOST_DEVICE constexpr index_t extent(int d) const noexcept {
    if constexpr (num_dynamic == 0) {
      return static_extent(d);
    } else if constexpr (num_dynamic == int(sizeof...(E))) {
      return this->dyn_[d];  // all dynamic: slot d, also when d is not a constant
    } else {
      const index_t s = static_extent(d);
      return s == dyn ? this->dyn_[dynamic_index(d)] : s;
    }
  }

  /// Product of the extents (1 for rank 0). `tack::extents<3, 4>{}.size() == 12`
  TACK_HOST_DEVICE constexpr index_t size() const noexcept {
    index_t n = 1;
    for (int d = 0; d < rank(); ++d) n *= extent(d);
    return n;
  }

  /// The extents as an array. `auto [rows, cols] = e.to_array();`
  TACK_HOST_DEVICE constexpr std::array<index_t, sizeof...(E)> to_array() const noexcept {
    std::array<index_t, sizeof...(E)> a{};
    for (int d = 0; d < rank(); ++d) a[std::size_t(d)] = extent(d);
    return a;
  }

  /// Equal when the ranks and every extent are equal (static or not).
  template <index_t... F>
  TACK_HOST_DEVICE friend constexpr bool operator==(const extents& a,
                                                    const extents<F...>& b) noexcept {
    if constexpr (sizeof...(F) != sizeof...(E)) {
      return false;
    } else {
      for (int d = 0; d < rank(); ++d) {
        if (a.extent(d) != b.extent(d)) return false;
      }
      return true;
    }
  }

private:
  // values holds either one entry per dynamic extent or one per dimension.
  TACK_HOST_DEVICE constexpr void init_from(const index_t* values, int count) {
    const bool per_dimension = count == rank() && count != num_dynamic;
    for (int d = 0; d < rank(); ++d) {
      if (static_extent(d) != dyn) {
        TACK_EXPECTS(!per_dimension || values[d] == static_extent(d),
                     "tack::extents: extent %lld of dimension %d does not match the static extent "
                     "%lld",
                     (long long)values[d], d, (long long)static_extent(d));
        continue;
      }
      if constexpr (num_dynamic > 0) {
        const index_t v = per_dimension ? values[d] : values[dynamic_index(d)];
        TACK_EXPECTS(v >= 0, "tack::extents: extent %lld of dimension %d is negative", (long long)v,
                     d);
        this->dyn_[dynamic_index(d)] = v;
      }
    }
  }
};

namespace detail {
// `dyn` once per pack element (a comma expression would draw -Wunused-value).
template <class>
inline constexpr index_t dyn_for_type = dyn;
template <std::size_t>
inline constexpr index_t dyn_for_index = dyn;

template <class Seq>
struct make_dextents;
template <std::size_t... D>
struct make_dextents<std::index_sequence<D...>> {
  using type = extents<dyn_for_index<D>...>;
};

template <class T>
inline constexpr bool is_extents_v = false;
template <index_t... E>
inline constexpr bool is_extents_v<extents<E...>> = true;
}  // namespace detail

/// `tack::extents(2, 3)` deduces `tack::dextents<2>`.
template <std::integral... I>
TACK_HOST_DEVICE extents(I...)->extents<detail::dyn_for_type<I>...>;

/// All-dynamic extents of rank `Rank`. `tack::dextents<2> e(6, 3);`
template <int Rank>
using dextents = typename detail::make_dextents<std::make_index_sequence<std::size_t(Rank)>>::type;

/// True for `tack::extents<...>` specializations.
/// `static_assert(tack::is_extents_v<tack::dextents<2>>);`
template <class T>
inline constexpr bool is_extents_v = detail::is_extents_v<std::remove_cv_t<T>>;

}  // namespace tack
