// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
#pragma once
/// @file `tack::soa(x, y[, z[, w]])`: a structure-of-arrays vector array over existing component
/// arrays, without a copy.

#include <tack/array/array.hpp>

#include <type_traits>
#include <vector>

namespace tack {

/// A vector array whose components are `x`, `y`, … (same shape, device and scalar type). The
/// components keep their owners alive; a read-only component makes the result read-only.
/// `auto pos = tack::soa(x, y, z);  // array<vec3f, 1>, layout soa`
template <class S, int R, memory_space Space, class... Rest>
auto soa(const array<S, R, Space>& first, const Rest&... rest) {
  constexpr int n = 1 + static_cast<int>(sizeof...(Rest));
  static_assert(n >= 2 && n <= 4, "tack::soa: give 2, 3 or 4 component arrays");
  static_assert(is_scalar_v<std::remove_const_t<S>>,
                "tack::soa: components must be scalar arrays (one per vector component)");
  static_assert(
      (std::is_same_v<std::remove_const_t<typename Rest::element_type>, std::remove_const_t<S>> &&
       ...),
      "tack::soa: components must have the same scalar type; convert with astype<T>()");
  static_assert(((Rest::rank == R) && ...), "tack::soa: components must have the same rank");
  constexpr bool any_const =
      std::is_const_v<S> || (std::is_const_v<typename Rest::element_type> || ...);
  using scalar = std::remove_const_t<S>;
  using V = std::conditional_t<any_const, const vec<scalar, n>, vec<scalar, n>>;
  using A = array<V, R, Space>;
  using C = typename A::component_array;

  std::vector<C> parts;
  auto add = [&](const auto& c, int index) {
    if (!c.valid()) {
      throw value_error("tack::soa: component " + std::to_string(index) + " has no storage");
    }
    if (c.layout() != layout::aos) {
      throw value_error("tack::soa: component " + std::to_string(index) + " " + c.describe() +
                        " is itself structure-of-arrays");
    }
    if (c.shape() != first.shape()) {
      throw value_error("tack::soa: component " + std::to_string(index) + " " + c.describe() +
                        " has another shape than component 0 " + first.describe());
    }
    if (c.device() != first.device()) {
      throw value_error("tack::soa: component " + std::to_string(index) + " " + c.describe() +
                        " is on another device than component 0 " + first.describe());
    }
    if constexpr (any_const) {
      parts.push_back(c.as_const());
    } else {
      parts.push_back(c);
    }
  };
  int index = 0;
  add(first, index++);
  (add(rest, index++), ...);
  return detail::array_access::from_components<V, R, Space>(std::move(parts));
}

}  // namespace tack
