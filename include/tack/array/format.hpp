// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
#pragma once
/// @file `operator<<` for arrays: `[2, 5, 11, 4]`, `[[1, 4, 2], [8, 0, -1]]` (Axom's examples).

#include <tack/array/array.hpp>
#include <tack/types/format.hpp>

#include <ostream>
#include <sstream>
#include <string>

namespace tack {
namespace detail {
template <class V>
void print_value(std::ostream& os, const V& v) {
  if constexpr (std::is_same_v<V, bool>) {
    os << (v ? "true" : "false");
  } else if constexpr (std::is_same_v<V, std::int8_t> || std::is_same_v<V, std::uint8_t>) {
    os << static_cast<int>(v);  // small integers print as numbers, not characters
  } else if constexpr (is_vec_v<V> || is_mat_v<V>) {
    os << to_string(v);
  } else {
    os << v;  // scalars, and other element types through their own operator<< (std::string)
  }
}
// `values` is the row-major snapshot; `first` the index of this block's first element.
template <class Values, std::size_t R>
void print_nested(std::ostream& os, const Values& values, std::size_t first,
                  const std::array<index_t, R>& shape, std::size_t dim) {
  os << '[';
  std::size_t stride = 1;
  for (std::size_t d = dim + 1; d < R; ++d) stride *= static_cast<std::size_t>(shape[d]);
  for (index_t i = 0; i < shape[dim]; ++i) {
    if (i) os << ", ";
    if (dim + 1 == R) {
      print_value(os, static_cast<typename Values::value_type>(
                          values[first + static_cast<std::size_t>(i)]));
    } else {
      print_nested(os, values, first + static_cast<std::size_t>(i) * stride, shape, dim + 1);
    }
  }
  os << ']';
}
}  // namespace detail

/// Prints the values as nested lists. `std::cout << a;  // [2, 5, 11, 4]`
template <class T, int R, memory_space S>
std::ostream& operator<<(std::ostream& os, const array<T, R, S>& a) {
  auto values = a.to_vector();
  detail::print_nested(os, values, 0, a.shape(), 0);
  return os;
}

/// The printed form as a string. `tack::to_string(a) == "[2, 5, 11, 4]"`
template <class T, int R, memory_space S>
std::string to_string(const array<T, R, S>& a) {
  std::ostringstream os;
  os << a;
  return os.str();
}

}  // namespace tack
