// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
#pragma once
/// @file `tack::arrays::extract_component`: one scalar component of a vector or matrix array
///.

#include <tack/arrays/implicit.hpp>
#include <tack/types/dtype.hpp>
#include <tack/types/item.hpp>

#include <string>
#include <tuple>
#include <type_traits>
#include <utility>

namespace tack::arrays {

namespace detail {
/// Component `c` of an element access `r` (flat, row by row for matrices): a reference into the
/// element when `r` refers to storage, a value when `r` is a computed value.
TACK_EXEC_CHECK_DISABLE
template <class R>
TACK_FORCEINLINE constexpr decltype(auto) component_of(R&& r, int c) {
  using V = element_value_t<R>;
  if constexpr (!is_vec_v<V> && !is_mat_v<V>) {
    // A scalar has one component: keep a reference as it is, return a value by value (never a
    // reference to the temporary).
    if constexpr (std::is_lvalue_reference_v<R&&>) {
      return r;
    } else if constexpr (proxy_reference<std::remove_cvref_t<R>>) {
      return std::remove_cvref_t<R>(r);
    } else {
      return V(r);
    }
  } else if constexpr (std::is_lvalue_reference_v<R&&>) {
    if constexpr (is_mat_v<V>) {
      return r(c / component_cols_v<V>, c % component_cols_v<V>);
    } else {
      return r[c];
    }
  } else if constexpr (proxy_reference<std::remove_cvref_t<R>> &&
                       requires { static_cast<R&&>(r)[c]; }) {
    // Proxies such as tack::soa_ref give a reference to one component.
    return static_cast<R&&>(r)[c];
  } else {
    const V v = static_cast<V>(r);
    if constexpr (is_mat_v<V>) {
      return scalar_t<V>(v(c / component_cols_v<V>, c % component_cols_v<V>));
    } else {
      return scalar_t<V>(v[c]);
    }
  }
}
}  // namespace detail

/// Element `i` is component `c` of `a[i]`; writes the component when `a` is writable.
template <class A>
struct extract_component_fn {
  A a;
  int component;

  using returned = decltype(detail::component_of(std::declval<const A&>()[index_t{}], 0));

  TACK_EXEC_CHECK_DISABLE
  TACK_FORCEINLINE constexpr returned operator()(index_t i) const {
    return detail::component_of(a[i], component);
  }

  auto operands() const { return std::tie(a); }
  template <class K>
  auto rebind(const K& k) const {
    return extract_component_fn<K>{k, component};
  }
};

/// The scalar array of component `c` of each element of `a` (a vector or matrix array; matrix
/// components count row by row): `extract_component(points, 2)` is the z coordinates. Writable
/// when `a` is (a store sets that component only). `c` outside `[0, components)` is a
/// `value_error` naming the component count.
/// `auto z = tack::arrays::extract_component(points, 2);`
template <class A>
requires detail::array_operand<A>
auto extract_component(A a, int c) {
  using V = detail::value_t<A>;
  constexpr int count = components_v<V>;
  if (c < 0 || c >= count) {
    std::string type;
    if constexpr (tack::element<V>) {
      type = " (" + std::string(dtype_of<V>().name()) + ")";
    }
    throw value_error("tack::arrays::extract_component: component " + std::to_string(c) +
                      " is out of range for an element type with " + std::to_string(count) +
                      " component" + (count == 1 ? "" : "s") + type);
  }
  index_t n = a.size();
  return implicit_array<extract_component_fn<A>>(extract_component_fn<A>{std::move(a), c}, n);
}

}  // namespace tack::arrays
