// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
#pragma once
/// @file `tack::arrays::concatenate`: arrays one after the other, without copying.

#include <tack/arrays/implicit.hpp>

#include <cstddef>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>

namespace tack::arrays {

template <class... A>
struct concatenate_fn;

namespace detail {
/// The element of a concatenation whose parts return different element accesses (a `view` part
/// and a `soa_view` part): it finds the part once per read or store.
template <class Fn, class T>
struct concatenate_ref : proxy_base<concatenate_ref<Fn, T>, T> {
  const Fn* fn;
  index_t i;
  TACK_INLINE constexpr concatenate_ref(const Fn* f, index_t index) : fn(f), i(index) {}
  TACK_IMPL_ARRAYS_PROXY_ASSIGN(concatenate_ref, T)
  TACK_FORCEINLINE constexpr T get() const { return fn->template read_part<0>(i); }
  TACK_FORCEINLINE constexpr void set(const T& v) const { fn->template write_part<0>(i, v); }
};
}  // namespace detail

/// Element `i` comes from the part holding `i`. Writes go to that part: when every part returns
/// the same element access (all `float&`) it is returned as is; when the parts differ but all are
/// writable, a proxy finds the part; otherwise the array is read-only.
template <class... A>
struct concatenate_fn {
  static constexpr std::size_t count = sizeof...(A);
  using first = std::tuple_element_t<0, std::tuple<A...>>;
  using value_type = detail::value_t<first>;
  static constexpr bool same_reference =
      (std::is_same_v<detail::reference_t<first>, detail::reference_t<A>> && ...);
  static constexpr bool writable = (detail::is_writable_reference_v<detail::reference_t<A>> && ...);
  using returned = std::conditional_t<
      same_reference, detail::reference_t<first>,
      std::conditional_t<writable, detail::concatenate_ref<concatenate_fn, value_type>,
                         computed_t<value_type>>>;

  detail::pack<A...> parts;
  index_t ends[count];  ///< ends[k]: one past the last index of part k in the concatenation

  TACK_FORCEINLINE constexpr index_t start_of(std::size_t k) const {
    return k == 0 ? 0 : ends[k - 1];
  }

  TACK_EXEC_CHECK_DISABLE
  TACK_FORCEINLINE constexpr returned operator()(index_t i) const {
    if constexpr (same_reference) {
      return access_part<0>(i);
    } else if constexpr (writable) {
      return returned(this, i);
    } else {
      return read_part<0>(i);
    }
  }

  TACK_EXEC_CHECK_DISABLE
  template <std::size_t K>
  TACK_FORCEINLINE constexpr detail::reference_t<first> access_part(index_t i) const {
    if constexpr (K + 1 == count) {
      return detail::get<K>(parts)[i - start_of(K)];
    } else {
      if (i < ends[K]) return detail::get<K>(parts)[i - start_of(K)];
      return access_part<K + 1>(i);
    }
  }
  TACK_EXEC_CHECK_DISABLE
  template <std::size_t K>
  TACK_FORCEINLINE constexpr value_type read_part(index_t i) const {
    if constexpr (K + 1 == count) {
      return detail::read(detail::get<K>(parts), i - start_of(K));
    } else {
      if (i < ends[K]) return detail::read(detail::get<K>(parts), i - start_of(K));
      return read_part<K + 1>(i);
    }
  }
  TACK_EXEC_CHECK_DISABLE
  template <std::size_t K>
  TACK_FORCEINLINE constexpr void write_part(index_t i, const value_type& v) const {
    using part = std::tuple_element_t<K, std::tuple<A...>>;
    if (K + 1 == count || i < ends[K]) {
      detail::assign_through<detail::reference_t<part>>(detail::get<K>(parts)[i - start_of(K)], v);
    } else if constexpr (K + 1 < count) {
      write_part<K + 1>(i, v);
    }
  }

  auto operands() const { return tie_parts(std::index_sequence_for<A...>{}); }
  template <class... K>
  auto rebind(const K&... k) const {
    concatenate_fn<K...> r{detail::make_pack(k...), {}};
    for (std::size_t p = 0; p < count; ++p) r.ends[p] = ends[p];
    return r;
  }

private:
  template <std::size_t... I>
  auto tie_parts(std::index_sequence<I...>) const {
    return std::tie(detail::get<I>(parts)...);
  }
};

/// The parts one after the other: `a.size() + b.size() + ...` elements, nothing copied; a store
/// writes into the part holding the index (writable when every part is). Every part must have
/// the same element type (a mismatch fails to compile: convert with `cast<T>`); different
/// devices are a `value_error`.
/// `auto both = tack::arrays::concatenate(left, right, tack::arrays::constant(0.0f, 4));`
template <class... A>
requires(sizeof...(A) >= 1 && (detail::array_operand<A> && ...)) auto concatenate(A... parts) {
  using first = std::tuple_element_t<0, std::tuple<A...>>;
  constexpr bool same_type = (std::is_same_v<detail::value_t<first>, detail::value_t<A>> && ...);
  static_assert(same_type,
                "tack::arrays::concatenate: every part must have the same element type; convert "
                "the parts that differ with tack::arrays::cast<T>(part)");
  if constexpr (same_type) {
    detail::common_device("tack::arrays::concatenate", parts...);
    concatenate_fn<A...> fn{detail::make_pack(std::move(parts)...), {}};
    index_t total = 0;
    std::size_t k = 0;
    auto add = [&](const auto& part) {
      total += static_cast<index_t>(part.size());
      fn.ends[k++] = total;
    };
    std::apply([&](const auto&... p) { (add(p), ...); }, fn.operands());
    return implicit_array<concatenate_fn<A...>>(std::move(fn), total);
  }
}

}  // namespace tack::arrays
