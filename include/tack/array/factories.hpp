// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
#pragma once
/// @file Array factories: the rank is the number of extents.

#include <tack/array/array.hpp>
#include <tack/array/copyto.hpp>

#include <concepts>
#include <initializer_list>
#include <span>
#include <vector>

namespace tack {
namespace detail {
template <class T, int R, memory_space S = memory_space::dynamic>
array<T, R, S> make_array(const std::array<index_t, R>& shape, const options& opts) {
  return array_access::allocate<T, R, S>(shape, opts, default_device());
}
template <std::size_t R>
std::array<index_t, R> to_shape(const index_t (&e)[R]) {
  return std::to_array(e);
}
}  // namespace detail

/// Uninitialized array; costs no pass over memory. The element type defaults to `float`, as in
/// every factory of tack's C++ and Python APIs:
/// `auto a = tack::empty({6, 3});  // array<float, 2>`. Elements that are objects (`std::string`,
/// classes with constructors) are value-initialized, as `std::vector(n)` makes them:
/// `auto names = tack::empty<std::string>({2, 3});  // six empty strings`
template <class T = float, std::size_t R>
array<T, static_cast<int>(R)> empty(const index_t (&extents)[R], const options& opts = {}) {
  return detail::make_array<T, static_cast<int>(R)>(detail::to_shape(extents), opts);
}
template <class T = float, int R>
array<T, R> empty(const shape<R>& s, const options& opts = {}) {
  return detail::make_array<T, R>(s.extents, opts);
}
/// Rank-1 form: `auto v = tack::empty<tack::vec3f>(n, {.layout = tack::layout::soa});`
template <class T = float>
array<T, 1> empty(std::integral auto n, const options& opts = {}) {
  return detail::make_array<T, 1>({static_cast<index_t>(n)}, opts);
}

/// Array of `value`. `auto a = tack::full({100}, tack::vec3f{1, 0, 0});`
template <class T, int R>
array<T, R> full(const shape<R>& s, const T& value, const options& opts = {}) {
  if constexpr (array<T, R>::holds_objects) {
    // Copy-constructed, as std::vector(n, value) makes them.
    return detail::array_access::allocate_objects<T, R, memory_space::dynamic>(
        s.extents, opts.device.value_or(default_device()), opts.allocator.value_or(-1), opts,
        [&value](T* p, std::size_t n) { std::uninitialized_fill_n(p, n, value); });
  } else {
    auto a = empty<T>(s, opts);
    a.fill(value);
    return a;
  }
}
template <class T, std::size_t R>
array<T, static_cast<int>(R)> full(const index_t (&extents)[R], const T& value,
                                   const options& opts = {}) {
  return full(shape<static_cast<int>(R)>(std::to_array(extents)), value, opts);
}
template <class T>
array<T, 1> full(std::integral auto n, const T& value, const options& opts = {}) {
  return full(shape<1>(static_cast<index_t>(n)), value, opts);
}

/// Array of zeros (`float` unless `T` is given). Fresh host pages are already zero, so large host
/// arrays skip the fill. `auto a = tack::zeros({6, 3});  // array<float, 2>`
template <class T = float, int R>
array<T, R> zeros(const shape<R>& s, const options& opts = {}) {
  auto a = empty<T>(s, opts);
  if constexpr (array<T, R>::holds_objects) {
    return a;  // already value-initialized: each element is T{}
  } else {
    bool known_zero = element<T> && a.layout() == layout::aos && a.size() > 0 &&
                      detail::array_access::storage_of(a)->buf.zeroed();
    if (!known_zero) a.fill(T{});
    return a;
  }
}
template <class T = float, std::size_t R>
array<T, static_cast<int>(R)> zeros(const index_t (&extents)[R], const options& opts = {}) {
  return zeros<T>(shape<static_cast<int>(R)>(std::to_array(extents)), opts);
}
template <class T = float>
array<T, 1> zeros(std::integral auto n, const options& opts = {}) {
  return zeros<T>(shape<1>(static_cast<index_t>(n)), opts);
}

/// Array of ones (every component 1; `float` unless `T` is given). `auto a = tack::ones({4});`
template <class T = float, int R>
array<T, R> ones(const shape<R>& s, const options& opts = {}) {
  T one{};
  for (int c = 0; c < components_v<T>; ++c) detail::set_component(one, c, scalar_t<T>(1));
  return full(s, one, opts);
}
template <class T = float, std::size_t R>
array<T, static_cast<int>(R)> ones(const index_t (&extents)[R], const options& opts = {}) {
  return ones<T>(shape<static_cast<int>(R)>(std::to_array(extents)), opts);
}
template <class T = float>
array<T, 1> ones(std::integral auto n, const options& opts = {}) {
  return ones<T>(shape<1>(static_cast<index_t>(n)), opts);
}

namespace detail {
// `_like` factories: the prototype's shape, device, layout and allocator unless `opts` names others.
template <class A>
options like_options(const A& a, const options& opts) {
  options o = opts;
  if (!o.device) o.device = a.device();
  if (!o.layout) o.layout = a.layout();
  if (!o.allocator && *o.device == a.device() && a.allocator() >= 0) o.allocator = a.allocator();
  return o;
}
}  // namespace detail

/// Uninitialized array like `a` (reads only its metadata). `auto b = tack::empty_like(a);`
template <class T, int R, memory_space S>
array<std::remove_const_t<T>, R, S> empty_like(const array<T, R, S>& a, const options& opts = {}) {
  return detail::array_access::allocate<std::remove_const_t<T>, R, S>(
      a.shape(), detail::like_options(a, opts), a.device());
}
template <class T, int R, memory_space S>
array<std::remove_const_t<T>, R, S> zeros_like(const array<T, R, S>& a, const options& opts = {}) {
  auto out = empty_like(a, opts);
  out.fill({});
  return out;
}
template <class T, int R, memory_space S>
array<std::remove_const_t<T>, R, S> ones_like(const array<T, R, S>& a, const options& opts = {}) {
  using V = std::remove_const_t<T>;
  V one{};
  for (int c = 0; c < components_v<V>; ++c) detail::set_component(one, c, scalar_t<V>(1));
  auto out = empty_like(a, opts);
  out.fill(one);
  return out;
}
template <class T, int R, memory_space S>
array<std::remove_const_t<T>, R, S> full_like(const array<T, R, S>& a,
                                              const std::remove_const_t<T>& value,
                                              const options& opts = {}) {
  auto out = empty_like(a, opts);
  out.fill(value);
  return out;
}

/// A vector or matrix array from its components given as scalars.
template <class T>
requires(is_vec_v<T> ||
         is_mat_v<T>) array<T, 1> array_from_components(std::span<const scalar_t<T>> components,
                                                        const options& opts = {}) {
  constexpr auto n = static_cast<std::size_t>(components_v<T>);
  if (components.size() % n != 0) {
    throw value_error("tack::array_from: " + std::to_string(components.size()) +
                      " values (shape (" + std::to_string(components.size()) +
                      ")) cannot form elements of " + std::string(dtype_of<T>().name()) +
                      " (shape (n, " + std::to_string(n) + "))");
  }
  std::vector<T> values(components.size() / n);
  for (std::size_t i = 0; i < values.size(); ++i) {
    for (std::size_t c = 0; c < n; ++c) {
      detail::set_component(values[i], static_cast<int>(c), components[i * n + c]);
    }
  }
  return array_from(std::span<const T>(values), opts);
}
/// A rank-1 array copied from host values. `auto a = tack::array_from({2, 5, 11});`
/// With an explicit element type and scalar values, the values are components:
/// `tack::array_from<tack::vec3f>({1.f, 0.f, 0.f, 0.f, 1.f, 0.f})` has 2 elements; a count that is
/// not a multiple of the components is a `value_error` naming both shapes.
template <class T>
array<T, 1> array_from(std::span<const T> values, const options& opts = {}) {
  if constexpr (array<T, 1>::holds_objects) {
    // Copy-constructed, as std::vector(first, last) makes them.
    return detail::array_access::allocate_objects<T, 1, memory_space::dynamic>(
        {static_cast<index_t>(values.size())}, opts.device.value_or(default_device()),
        opts.allocator.value_or(-1), opts,
        [&values](T* p, std::size_t n) { std::uninitialized_copy_n(values.data(), n, p); });
  } else {
    auto a = empty<T>(static_cast<index_t>(values.size()), opts);
    copyto(a, values);
    return a;
  }
}
template <class T>
array<T, 1> array_from(std::initializer_list<T> values, const options& opts = {}) {
  return array_from(std::span<const T>(values.begin(), values.size()), opts);
}
template <class T, class A>
array<T, 1> array_from(const std::vector<T, A>& values, const options& opts = {}) {
  return array_from(std::span<const T>(values.data(), values.size()), opts);
}
/// Components given as scalars for a vector or matrix element type.
template <class T>
requires(is_vec_v<T> ||
         is_mat_v<T>) array<T, 1> array_from(std::initializer_list<scalar_t<T>> components,
                                             const options& opts = {}) {
  return array_from_components<T>(
      std::span<const scalar_t<T>>(components.begin(), components.size()), opts);
}
/// A rank-2 array from nested lists (rows of equal length): `tack::array_from<int>({{1, 4, 2},
/// {8, 0, -1}})` has shape (2, 3). Ragged rows are a `value_error`.
template <class T>
array<T, 2> array_from(std::initializer_list<std::initializer_list<T>> rows,
                       const options& opts = {}) {
  const std::size_t cols = rows.size() ? rows.begin()->size() : 0;
  std::vector<T> flat;
  flat.reserve(rows.size() * cols);
  std::size_t r = 0;
  for (auto& row : rows) {
    if (row.size() != cols) {
      throw value_error("tack::array_from: row " + std::to_string(r) + " has " +
                        std::to_string(row.size()) + " values but row 0 has " +
                        std::to_string(cols) + " (shape (" + std::to_string(rows.size()) + ", " +
                        std::to_string(cols) + ") expected)");
    }
    flat.insert(flat.end(), row.begin(), row.end());
    ++r;
  }
  auto a = empty<T>(shape<2>(static_cast<index_t>(rows.size()), static_cast<index_t>(cols)), opts);
  copyto(a, std::span<const T>(flat));
  return a;
}

/// Borrows memory owned elsewhere (no copy): read-only unless `opts.writable`; `opts.owner` is kept
/// alive as long as any handle. Borrowed arrays cannot grow.
/// `auto a = tack::from_ptr(v.data(), {v.size()}, {.writable = true});`
template <class T, std::size_t R>
array<T, static_cast<int>(R)> from_ptr(T* ptr, const index_t (&extents)[R],
                                       const options& opts = {}) {
  return from_ptr(ptr, shape<static_cast<int>(R)>(std::to_array(extents)), opts);
}
template <class T, int R>
array<T, R> from_ptr(T* ptr, const shape<R>& s, const options& opts = {}) {
  if (opts.layout && *opts.layout == layout::soa) {
    throw value_error(
        "tack::from_ptr: one pointer cannot hold a structure-of-arrays array; borrow "
        "each component with from_ptr and assemble them with tack::soa(x, y, z)");
  }
  const tack::device d = opts.device.value_or(cpu());
  return detail::array_access::borrow<T, R, memory_space::dynamic>(
      ptr, s.extents, d, !opts.writable, opts.owner, d.is_cpu());
}
template <class T, int R>
array<const T, R> from_ptr(const T* ptr, const shape<R>& s, const options& opts = {}) {
  if (opts.writable) {
    throw read_only_error("tack::from_ptr: the memory at a const pointer cannot be writable");
  }
  return from_ptr(const_cast<T*>(ptr), s, opts).as_const();
}
template <class T, std::size_t R>
array<const T, static_cast<int>(R)> from_ptr(const T* ptr, const index_t (&extents)[R],
                                             const options& opts = {}) {
  return from_ptr(ptr, shape<static_cast<int>(R)>(std::to_array(extents)), opts);
}

}  // namespace tack
