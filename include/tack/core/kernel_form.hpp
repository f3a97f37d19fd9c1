// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
#pragma once
/// @file How host objects become kernel arguments. Two customization points, found by member name:
///
/// - `x.visit_kernel_form(f)` calls `f` with the trivially copyable form a kernel receives. A type
///   whose form depends on run-time facts (an array's layout) calls `f` once per possible form from
///   a run-time branch, so each form is its own instantiation. Types without the member (scalars,
///   kernel views, user structs) are passed as they are.
/// - `x.for_each_array(g)` calls `g` with every `tack::array` handle `x` holds (itself, for an
///   array), so `launch` can check devices, read-only-ness and overlap, and bump write versions,
///   for compositions of any depth.

#include <tack/core/macros.hpp>

#include <type_traits>
#include <utility>

namespace tack {

/// Calls `f` with the kernel form of `x`. `tack::visit_kernel_form(a, [&](auto v) { run(v); });`
template <class T, class F>
decltype(auto) visit_kernel_form(const T& x, F&& f) {
  if constexpr (requires { x.visit_kernel_form(std::forward<F>(f)); }) {
    return x.visit_kernel_form(std::forward<F>(f));
  } else {
    static_assert(
        std::is_trivially_copyable_v<T>,
        "tack: a kernel argument must be a tack::array, an implicit array, a kernel view or "
        "a trivially copyable value; wrap other objects in a trivially copyable struct");
    return std::forward<F>(f)(x);
  }
}

/// Calls `g(array_handle)` for every `tack::array` that `x` holds; nothing for plain values.
template <class T, class G>
void for_each_array(const T& x, G&& g) {
  if constexpr (requires { x.for_each_array(g); }) {
    x.for_each_array(g);
  }
}

}  // namespace tack
