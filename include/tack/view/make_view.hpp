// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
#pragma once
/// @file `tack::make_view<T, E...>(pointer_or_buffer, dynamic_extents...)`: a row-major
/// `tack::mdview` over raw memory, checked against the buffer's size, alignment and access.

#include <tack/core/error.hpp>
#include <tack/core/index.hpp>
#include <tack/core/macros.hpp>
#include <tack/view/extents.hpp>
#include <tack/view/mdview.hpp>

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>

namespace tack {

namespace detail {

// The `T*` behind a pointer (typed or void) for make_view.
template <class T, class P>
TACK_HOST_DEVICE constexpr T* view_pointer(P* p) noexcept {
  if constexpr (std::is_void_v<P>) {
    if constexpr (std::is_const_v<P> && !std::is_const_v<T>) {
      static_assert(dependent_false<P>,
                    "tack::make_view: the memory is const; use tack::make_view<const T, ...>");
      return nullptr;
    } else {
      return static_cast<T*>(p);
    }
  } else if constexpr (!std::is_convertible_v<P(*)[], T(*)[]>) {
    static_assert(dependent_false<P>,
                  "tack::make_view<T, ...>: the pointer must point to T (or make_view<const T> "
                  "from a T*); reinterpret other memory through a void* or a buffer");
    return nullptr;
  } else {
    return p;
  }
}

}  // namespace detail

/// A row-major view of `T` over `p`: `E...` are the extents (values or `tack::dyn`), one run-time
/// value per `tack::dyn`. `auto v = tack::make_view<double, 3, tack::dyn>(ptr, 11);  // v(c, i)`
template <class T, index_t... E, class P, std::integral... I>
TACK_HOST_DEVICE constexpr mdview<T, extents<E...>> make_view(P* p, I... dynamic_extents) {
  if constexpr (sizeof...(I) != std::size_t(extents<E...>::rank_dynamic())) {
    // Fenced so that the count is the only error reported.
    static_assert(sizeof...(I) == std::size_t(extents<E...>::rank_dynamic()),
                  "tack::make_view<T, E...>: pass one run-time extent per tack::dyn in E");
    return {};
  } else {
    return mdview<T, extents<E...>>(detail::view_pointer<T>(p), dynamic_extents...);
  }
}

namespace detail {
// make_view's body over a data() source, once the extent count is known to be right.
template <class T, index_t... E, class Source, std::integral... I>
mdview<T, extents<E...>> make_view_over(Source& source, I... dynamic_extents) {
  if constexpr (!std::is_const_v<T> && requires {
                  { source.read_only() } -> std::convertible_to<bool>;
                }) {
    if (source.read_only()) {
      throw read_only_error(
          "tack::make_view: the memory is read-only; view it with "
          "tack::make_view<const T, ...>");
    }
  }
  T* p = detail::view_pointer<T>(source.data());
  mdview<T, extents<E...>> v(p, dynamic_extents...);
  // The memory's size in bytes, when the source says it: a buffer's nbytes(), a container's size().
  std::size_t available = 0;
  bool known = false;
  if constexpr (requires {
                  { source.nbytes() } -> std::convertible_to<std::size_t>;
                }) {
    available = std::size_t(source.nbytes());
    known = true;
  } else if constexpr (requires {
                         { source.bytes() } -> std::convertible_to<std::size_t>;
                       }) {
    available = std::size_t(source.bytes());
    known = true;
  } else if constexpr (requires {
                         { source.size() } -> std::convertible_to<std::size_t>;
                         typename std::remove_cvref_t<Source>::value_type;
                       }) {
    available =
        std::size_t(source.size()) * sizeof(typename std::remove_cvref_t<Source>::value_type);
    known = true;
  }
  const std::size_t needed = std::size_t(v.required_span_size()) * sizeof(T);
  if (known && needed > available) {
    std::string shape;
    for (int d = 0; d < v.rank(); ++d) {
      shape += (d ? " x " : "") + std::to_string(v.extent(d));
    }
    throw value_error("tack::make_view: extents " + shape + " of " + std::to_string(sizeof(T)) +
                      "-byte elements need " + std::to_string(needed) +
                      " bytes, but the memory holds " + std::to_string(available));
  }
  if (reinterpret_cast<std::uintptr_t>(p) % alignof(T) != 0) {
    throw value_error("tack::make_view: the memory at " +
                      std::to_string(reinterpret_cast<std::uintptr_t>(p)) + " is not aligned to " +
                      std::to_string(alignof(T)) + " bytes, as the element type requires");
  }
  return v;
}
}  // namespace detail

/// The same over an object with a `data()` member (`tack::buffer`, `std::vector`, an array):
/// the view covers its memory, which must hold the extents and be aligned for `T` (else
/// `tack::value_error`); a read-only source needs `make_view<const T>` (else `read_only_error`).
/// `auto v = tack::make_view<double, 3, tack::dyn>(chunk, 11);`
template <class T, index_t... E, class Source, std::integral... I>
requires(!std::is_pointer_v<std::remove_cvref_t<Source>>) mdview<T, extents<E...>> make_view(
    Source& source, I... dynamic_extents) {
  if constexpr (!requires { source.data(); }) {
    static_assert(
        requires { source.data(); },
        "tack::make_view: the first argument is a T*, a void* or an object with a data() "
        "member (tack::buffer, std::vector)");
    return {};
  } else if constexpr (sizeof...(I) != std::size_t(extents<E...>::rank_dynamic())) {
    // Fenced so that the count is the only error reported.
    static_assert(sizeof...(I) == std::size_t(extents<E...>::rank_dynamic()),
                  "tack::make_view<T, E...>: pass one run-time extent per tack::dyn in E");
    return {};
  } else {
    return detail::make_view_over<T, E...>(source, dynamic_extents...);
  }
}

}  // namespace tack
