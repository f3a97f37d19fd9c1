// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
#pragma once
/// @file `tack::arrays::permutation`: `values[indices[i]]`, a gather that stores as a scatter
///.

#include <tack/arrays/implicit.hpp>

#include <string>
#include <tuple>
#include <type_traits>
#include <utility>

namespace tack::arrays {

/// Element `i` is `values[indices[i]]`; a store is the scatter `values[indices[i]] = v`.
template <class I, class V>
struct permutation_fn {
  I indices;
  V values;

  TACK_EXEC_CHECK_DISABLE
  TACK_FORCEINLINE constexpr detail::reference_t<V> operator()(index_t i) const {
    const index_t k = static_cast<index_t>(indices[i]);
    TACK_EXPECTS(k >= 0 && k < static_cast<index_t>(values.size()),
                 "tack::arrays::permutation: index %lld (at position %lld of the indices) is out "
                 "of range for values of size %lld",
                 static_cast<long long>(k), static_cast<long long>(i),
                 static_cast<long long>(values.size()));
    return values[k];
  }

  auto operands() const { return std::tie(indices, values); }
  template <class KI, class KV>
  auto rebind(const KI& ki, const KV& kv) const {
    return permutation_fn<KI, KV>{ki, kv};
  }
};

/// `indices.size()` elements, element `i` is `values[indices[i]]` (any integer index type).
/// Writable when `values` is: `p[i] = v` scatters into `values`. Indices are not checked when the
/// array is built (that would be a pass over them); in debug mode (`TACK_BOUNDS_CHECK`) each read
/// checks its index against `values.size()`. Different devices are a `value_error`.
/// `auto gathered = tack::arrays::permutation(order, values);`
template <class I, class V>
requires detail::array_operand<I> && detail::array_operand<V>
auto permutation(I indices, V values) {
  static_assert(std::is_integral_v<detail::value_t<I>>,
                "tack::arrays::permutation: the indices must be an array of integers; convert "
                "them with tack::arrays::cast<tack::index_t>(indices)");
  detail::common_device("tack::arrays::permutation", indices, values);
  index_t n = indices.size();
  return implicit_array<permutation_fn<I, V>>(
      permutation_fn<I, V>{std::move(indices), std::move(values)}, n);
}

}  // namespace tack::arrays
