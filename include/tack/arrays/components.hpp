// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
#pragma once
/// @file `tack::arrays::components`: a vector array built from 2 to 4 scalar arrays, one per
/// component. Like a structure-of-arrays `tack::array`, but over any readable arrays
/// (computed ones included) and without being storage.

#include <tack/arrays/implicit.hpp>
#include <tack/types/vec.hpp>

#include <cstddef>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>

namespace tack::arrays {

namespace detail {
/// The writable element of `components(x, y, ...)`: reads a vector, stores each component into
/// its own array.
template <class S, class... R>
struct components_ref : proxy_base<components_ref<S, R...>, vec<S, int(sizeof...(R))>> {
  static constexpr int N = int(sizeof...(R));
  using vector = vec<S, N>;
  pack<R...> refs;

  TACK_INLINE constexpr explicit components_ref(R... r) : refs{make_pack<R...>(r...)} {}
  TACK_IMPL_ARRAYS_PROXY_ASSIGN(components_ref, vector)

  TACK_EXEC_CHECK_DISABLE
  TACK_FORCEINLINE constexpr vector get() const {
    return get_impl(std::index_sequence_for<R...>{});
  }
  TACK_EXEC_CHECK_DISABLE
  TACK_FORCEINLINE constexpr void set(const vector& v) const {
    set_impl(v, std::index_sequence_for<R...>{});
  }
  /// Component `c` as its array's element access (when all are the same type, e.g. `float&`).
  TACK_EXEC_CHECK_DISABLE
  TACK_FORCEINLINE constexpr decltype(auto) operator[](int c) const
      requires(std::is_same_v<R, std::tuple_element_t<0, std::tuple<R...>>>&&...) {
    return pick<0>(c);
  }

private:
  template <std::size_t... I>
  TACK_FORCEINLINE constexpr vector get_impl(std::index_sequence<I...>) const {
    return vector{static_cast<S>(static_cast<element_value_t<R>>(detail::get<I>(refs)))...};
  }
  template <std::size_t... I>
  TACK_FORCEINLINE constexpr void set_impl(const vector& v, std::index_sequence<I...>) const {
    (assign_through<R>(detail::get<I>(refs), v[int(I)]), ...);
  }
  template <std::size_t K>
  TACK_FORCEINLINE constexpr std::tuple_element_t<0, std::tuple<R...>> pick(int c) const {
    if constexpr (K + 1 == sizeof...(R)) {
      return detail::get<K>(refs);
    } else {
      if (c == int(K)) return detail::get<K>(refs);
      return pick<K + 1>(c);
    }
  }
};
}  // namespace detail

/// Element `i` is `vec<S, N>{x[i], y[i], ...}`; stores write each component to its own array.
template <class... A>
struct components_fn {
  static constexpr int N = int(sizeof...(A));
  using first = std::tuple_element_t<0, std::tuple<A...>>;
  using scalar = detail::value_t<first>;
  using vector = vec<scalar, N>;
  /// An implicit array, not storage: `tack::copyto` and `tack::fill` into it are
  /// refused at compile time; kernels store through it.
  /// `static_assert(tack::arrays::components_fn<tack::view<float>, tack::view<float>>::kernel_stores_only);`
  static constexpr bool kernel_stores_only = true;
  static constexpr bool writable = (detail::is_writable_reference_v<detail::reference_t<A>> && ...);
  using returned =
      std::conditional_t<writable, detail::components_ref<scalar, detail::reference_t<A>...>,
                         computed_t<vector>>;

  detail::pack<A...> parts;

  TACK_EXEC_CHECK_DISABLE
  TACK_FORCEINLINE constexpr returned operator()(index_t i) const {
    return element(i, std::index_sequence_for<A...>{});
  }

  auto operands() const { return tie_parts(std::index_sequence_for<A...>{}); }
  template <class... K>
  auto rebind(const K&... k) const {
    return components_fn<K...>{detail::make_pack(k...)};
  }

private:
  TACK_EXEC_CHECK_DISABLE
  template <std::size_t... I>
  TACK_FORCEINLINE constexpr returned element(index_t i, std::index_sequence<I...>) const {
    if constexpr (writable) {
      return returned(detail::get<I>(parts)[i]...);
    } else {
      return vector{detail::read(detail::get<I>(parts), i)...};
    }
  }
  template <std::size_t... I>
  auto tie_parts(std::index_sequence<I...>) const {
    return std::tie(detail::get<I>(parts)...);
  }
};

/// A vector array from 2 to 4 scalar arrays of the same scalar type and length: element `i` is
/// `{x[i], y[i], ...}`. Writable in kernels when every component array is (a store writes each
/// component); being an implicit array, not storage, it takes no `tack::copyto` or `tack::fill`
/// (a `static_assert` names `tack::soa(x, y, ...)`, the storage over the same component arrays).
/// Different lengths are a `value_error` naming both; different scalar types fail to compile.
/// `auto points = tack::arrays::components(xs, ys, zs);  // vec3 elements`
template <class... A>
requires(sizeof...(A) >= 2 && sizeof...(A) <= 4 &&
         (detail::array_operand<A> && ...)) auto components(A... parts) {
  using first = std::tuple_element_t<0, std::tuple<A...>>;
  using S = detail::value_t<first>;
  constexpr bool scalars = (std::is_arithmetic_v<detail::value_t<A>> && ...);
  constexpr bool same = (std::is_same_v<S, detail::value_t<A>> && ...);
  static_assert(scalars,
                "tack::arrays::components: every component array must hold scalars; take "
                "one component of a vector array with tack::arrays::extract_component");
  static_assert(!scalars || same,
                "tack::arrays::components: every component array must have the same scalar "
                "type; convert the others with tack::arrays::cast<T>(array)");
  if constexpr (scalars && same) {
    detail::common_device("tack::arrays::components", parts...);
    const index_t sizes[] = {static_cast<index_t>(parts.size())...};
    static constexpr const char* names[] = {"x", "y", "z", "w"};
    for (std::size_t k = 1; k < sizeof...(A); ++k) {
      if (sizes[k] != sizes[0]) {
        throw value_error(
            "tack::arrays::components: the component arrays have different "
            "lengths: " +
            std::to_string(sizes[0]) + " (" + names[0] + ") and " + std::to_string(sizes[k]) +
            " (" + names[k] + ")");
      }
    }
    return implicit_array<components_fn<A...>>(
        components_fn<A...>{detail::make_pack(std::move(parts)...)}, sizes[0]);
  }
}

}  // namespace tack::arrays
