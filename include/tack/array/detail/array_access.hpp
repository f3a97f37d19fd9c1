// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
#pragma once
/// @file How factories, SoA assembly and interop build arrays (`detail::array_access`), and the
/// element conversions of `astype` (not public).

#include <tack/array/detail/array_common.hpp>
#include <tack/array/shape.hpp>
#include <tack/core/error.hpp>
#include <tack/types/scalar.hpp>

#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace tack {
namespace detail {

/// The rebinding `astype<U>` performs: a scalar `U` keeps vector/matrix dimensions.
template <class U, class T>
struct astype_result {
  using type = U;
};
template <class U, class S, int N>
requires is_scalar_v<U>
struct astype_result<U, vec<S, N>> {
  using type = vec<U, N>;
};
template <class U, class S, int R, int C>
requires is_scalar_v<U>
struct astype_result<U, mat<S, R, C>> {
  using type = mat<U, R, C>;
};

/// Refuses `astype<U>` to an element type `To` whose component dimensions differ from the
/// array's `From` (a `vec4f` array does not become `mat2f`, though both have 4 components): the
/// compiler names both types where it instantiates this check.
template <class From, class To>
inline constexpr bool same_mat_dimensions = false;
template <class S1, class S2, int R, int C>
inline constexpr bool same_mat_dimensions<mat<S1, R, C>, mat<S2, R, C>> = true;

template <class From, class To>
struct astype_dimensions {
  static constexpr bool same =
      (is_scalar_v<From> && is_scalar_v<To>) ||
      (is_vec_v<From> && is_vec_v<To> && components_v<From> == components_v<To>) ||
      same_mat_dimensions<From, To>;
  static_assert(same,
                "tack::array::astype<U>: an element type U must have the same component "
                "dimensions as the array's elements (vec3 to vec3, mat2 to mat2); pass a scalar U "
                "to change only the precision, or view the scalars with as_scalars() and "
                "reinterpret them with as_elements<U>()");
};

template <std::size_t N>
bool any_elements(const std::array<index_t, N>& s) {
  index_t n = 1;
  for (auto e : s) n *= e;
  return n > 0;
}

/// How factories, SoA assembly and interop build arrays (not public).
struct array_access {
  template <class A>
  static A uninitialized() {
    return A(typename A::uninitialized_tag{});
  }

  /// A new root with `shape` and room for `max(shape[0], opts.capacity)` rows, uninitialized, in
  /// `opts.layout`.
  template <class T, int R, memory_space S>
  static array<T, R, S> allocate(const std::array<index_t, R>& shape, const options& opts,
                                 tack::device fallback_device) {
    using A = array<T, R, S>;
    using V = typename A::value_type;
    const tack::device d = opts.device.value_or(fallback_device);
    A a = uninitialized<A>();
    if (opts.layout.value_or(tack::layout::aos) == tack::layout::soa) {
      if constexpr (A::can_be_soa) {
        a.layout_ = tack::layout::soa;
        options component_opts = opts;
        component_opts.layout = tack::layout::aos;
        auto parts = make_counted<typename decltype(a.soa_)::block>();
        for (auto& part : *parts)
          part = allocate<scalar_t<V>, R, S>(shape, component_opts, fallback_device);
        a.soa_.parts = std::move(parts);
        return a;
      } else {
        throw value_error("tack: layout soa needs vector or matrix elements, not " +
                          std::string(A::element_name()) + "; scalar arrays are always aos");
      }
    }
    aos_storage<A>::init_root(a, d, shape, opts.capacity, opts.allocator);
    return a;
  }

  /// A new root of object elements (not trivially copyable) with `shape`, made by
  /// `construct(p, n)`, which constructs the `n` elements at `p` (copies, fills...).
  /// `id` < 0: the device's allocator (or the array's memory space); `opts` gives the layout
  /// (refused unless AoS) and the capacity.
  template <class T, int R, memory_space S, class Construct>
  static array<T, R, S> allocate_objects(const std::array<index_t, R>& shape, tack::device d,
                                         allocator_id id, const options& opts,
                                         Construct&& construct) {
    using A = array<T, R, S>;
    static_assert(A::holds_objects);
    if (opts.layout.value_or(tack::layout::aos) == tack::layout::soa) {
      throw value_error("tack: layout soa needs vector or matrix elements, not " +
                        std::string(A::element_name()));
    }
    A a = uninitialized<A>();
    aos_storage<A>::init_object_root(a, d, shape, opts.capacity,
                                     id >= 0 ? std::optional<allocator_id>(id) : std::nullopt,
                                     std::forward<Construct>(construct));
    return a;
  }

  /// A root over borrowed memory.
  template <class T, int R, memory_space S>
  static array<T, R, S> borrow(std::remove_const_t<T>* ptr, const std::array<index_t, R>& shape,
                               tack::device d, bool read_only, std::shared_ptr<void> owner,
                               bool host_ok) {
    using A = array<T, R, S>;
    for (int dd = 0; dd < R; ++dd) {
      if (shape[static_cast<std::size_t>(dd)] < 0) {
        throw value_error("tack::from_ptr: extent " +
                          std::to_string(shape[static_cast<std::size_t>(dd)]) + " of dimension " +
                          std::to_string(dd) + " in shape " + shape_string(shape) + " is negative");
      }
    }
    (void)checked_nbytes("tack::from_ptr", shape, sizeof(typename A::value_type), A::element_name(),
                         shape[0]);
    if (!ptr && any_elements(shape)) {
      throw value_error("tack::from_ptr: null pointer for shape " + shape_string(shape));
    }
    if constexpr (A::holds_objects) {
      if (!host_ok) {
        throw value_error("tack::from_ptr: memory on " + d.str() + " cannot hold elements of " +
                          std::string(A::element_name()) +
                          ", which are not trivially copyable (objects live in host memory only)");
      }
    }
    A a = uninitialized<A>();
    auto st = make_counted<storage>();
    st->rank = R;
    st->element_bytes = sizeof(typename A::value_type);
    for (int dd = 0; dd < R; ++dd)
      st->extents[static_cast<std::size_t>(dd)] = shape[static_cast<std::size_t>(dd)];
    st->growable = false;
    st->buf = buffer::borrow(ptr, st->used_bytes(), d, read_only, std::move(owner), host_ok);
    a.aos_.root = std::move(st);
    return a;
  }

  /// A SoA array from component arrays (checked by the caller).
  template <class T, int R, memory_space S>
  static array<T, R, S> from_components(
      std::vector<typename array<T, R, S>::component_array> parts) {
    using A = array<T, R, S>;
    A a = uninitialized<A>();
    a.layout_ = tack::layout::soa;
    auto block = make_counted<typename decltype(a.soa_)::block>();
    for (std::size_t c = 0; c < block->size(); ++c) (*block)[c] = mutable_alias(parts.at(c));
    a.soa_.parts = std::move(block);
    return a;
  }

  /// Calls `f` with the storage policy of `a` (array::visit_storage, the one place the layout
  /// picks it), for the detail code outside the handle: copies and overlap checks.
  template <class A, class F>
  static decltype(auto) visit_storage(const A& a, F&& f) {
    return a.visit_storage(std::forward<F>(f));
  }

  /// The byte range `[first, last)` an AoS handle covers (for overlap checks).
  template <class A>
  static std::pair<std::uintptr_t, std::uintptr_t> byte_range(const A& a) {
    a.require_pointer("byte_range");
    auto first = reinterpret_cast<std::uintptr_t>(a.pointer("byte_range"));
    return {first, first + a.nbytes()};
  }

  /// The same memory through the mutable handle type (internal: any_array stores handles so and
  /// restores constness on the way out).
  template <class T, int R, memory_space S>
  static array<std::remove_const_t<T>, R, S> mutable_alias(const array<T, R, S>& a) {
    using M = array<std::remove_const_t<T>, R, S>;
    M m = uninitialized<M>();
    m.aos_ = a.aos_;
    m.shape_ = a.shape_;
    m.row_view_ = a.row_view_;
    m.layout_ = a.layout_;
    m.soa_ = a.soa_;
    return m;
  }

  template <class A>
  static const counted_ptr<storage>& storage_of(const A& a) {
    return a.aos_.root;
  }
};

/// Element-by-element copy between arrays of one value type and any layouts (host memory).
template <class D, class Src>
void copy_elements_host(const D& dst_view, const Src& src_view, index_t n) {
  for (index_t i = 0; i < n; ++i) dst_view[i] = static_cast<typename D::value_type>(src_view[i]);
}

}  // namespace detail
}  // namespace tack
