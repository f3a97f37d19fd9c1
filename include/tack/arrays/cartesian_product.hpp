// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
#pragma once
/// @file `tack::arrays::cartesian_product`: every combination of the coordinates of 2 or 3 arrays,
/// x fastest (VTK's point order for rectilinear grids).

#include <tack/arrays/implicit.hpp>
#include <tack/types/vec.hpp>

#include <cstddef>
#include <tuple>
#include <array>
#include <type_traits>
#include <utility>

namespace tack::arrays {

/// Element `i` is `{x[i % nx], y[(i / nx) % ny]}` (2-D) or
/// `{x[i % nx], y[(i / nx) % ny], z[i / (nx * ny)]}` (3-D).
template <class... A>
struct cartesian_product_fn {
  static constexpr int N = int(sizeof...(A));
  using first = std::tuple_element_t<0, std::tuple<A...>>;
  using scalar = detail::value_t<first>;
  using vector = vec<scalar, N>;

  /// A rank-2 (rank-3) array of shape `(ny, nx)` (`(nz, ny, nx)`): x fastest, as the flat order.
  static constexpr int rank = N;

  detail::pack<A...> axes;
  index_t nx;
  index_t ny;      ///< 1 in 2-D
  index_t last{};  ///< the extent of the last axis (y in 2-D, z in 3-D)

  /// The extents, slowest axis first.
  TACK_HOST_DEVICE constexpr std::array<index_t, std::size_t(N)> shape() const noexcept {
    if constexpr (N == 2) {
      return {last, nx};
    } else {
      return {last, ny, nx};
    }
  }

  /// Element `(iy, ix)` (2-D) or `(iz, iy, ix)` (3-D): `{x[ix], y[iy][, z[iz]]}`.
  TACK_EXEC_CHECK_DISABLE
  TACK_FORCEINLINE constexpr computed_t<vector> operator()(const vec<index_t, N>& k) const {
    if constexpr (N == 2) {
      return vector{detail::read(detail::get<0>(axes), k[1]),
                    detail::read(detail::get<1>(axes), k[0])};
    } else {
      return vector{detail::read(detail::get<0>(axes), k[2]),
                    detail::read(detail::get<1>(axes), k[1]),
                    detail::read(detail::get<2>(axes), k[0])};
    }
  }

  TACK_EXEC_CHECK_DISABLE
  TACK_FORCEINLINE constexpr computed_t<vector> operator()(index_t i) const {
    const index_t ix = i % nx;
    const index_t r = i / nx;
    if constexpr (N == 2) {
      return vector{detail::read(detail::get<0>(axes), ix), detail::read(detail::get<1>(axes), r)};
    } else {
      return vector{detail::read(detail::get<0>(axes), ix),
                    detail::read(detail::get<1>(axes), r % ny),
                    detail::read(detail::get<2>(axes), r / ny)};
    }
  }

  auto operands() const { return tie_axes(std::index_sequence_for<A...>{}); }
  template <class... K>
  auto rebind(const K&... k) const {
    return cartesian_product_fn<K...>{detail::make_pack(k...), nx, ny, last};
  }

private:
  template <std::size_t... I>
  auto tie_axes(std::index_sequence<I...>) const {
    return std::tie(detail::get<I>(axes)...);
  }
};

/// The points of a rectilinear grid from its coordinate arrays: `x.size() * y.size() [* z.size()]`
/// elements of `vec<T, 2>` or `vec<T, 3>`, x varying fastest. The axes must hold the same scalar
/// type; nothing is stored. A rank-2 (rank-3) array of shape `(ny, nx)` (`(nz, ny, nx)`):
/// `pts(k, j, i)` is `{xs[i], ys[j], zs[k]}`, the flat `pts[i + nx * (j + ny * k)]`.
/// `auto pts = tack::arrays::cartesian_product(xs, ys, zs);  // pts[1] == {xs[1], ys[0], zs[0]}`
template <class... A>
requires((sizeof...(A) == 2 || sizeof...(A) == 3) &&
         (detail::array_operand<A> && ...)) auto cartesian_product(A... axes) {
  using first = std::tuple_element_t<0, std::tuple<A...>>;
  using S = detail::value_t<first>;
  constexpr bool same = (std::is_same_v<S, detail::value_t<A>> && ...) && std::is_arithmetic_v<S>;
  static_assert(same,
                "tack::arrays::cartesian_product: the coordinate arrays must hold the same "
                "scalar type; convert the others with tack::arrays::cast<T>(array)");
  if constexpr (same) {
    detail::common_device("tack::arrays::cartesian_product", axes...);
    const index_t sizes[] = {static_cast<index_t>(axes.size())...};
    const index_t total = detail::checked_element_count(
        "tack::arrays::cartesian_product",
        std::array<index_t, sizeof...(A)>{static_cast<index_t>(axes.size())...});
    const index_t ny = sizeof...(A) == 3 ? sizes[1] : 1;
    return implicit_array<cartesian_product_fn<A...>>(
        cartesian_product_fn<A...>{detail::make_pack(std::move(axes)...), sizes[0], ny,
                                   sizes[sizeof...(A) - 1]},
        total);
  }
}

}  // namespace tack::arrays
