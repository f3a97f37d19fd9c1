// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
#pragma once
/// @file Copies between arrays of any layouts and devices, and the overlap checks they and
/// `launch` use (not public).

#include <tack/array/detail/array_access.hpp>
#include <tack/memory/copy.hpp>

#include <cstdint>
#include <vector>

namespace tack::detail {

/// Calls `f(first, last)` with each byte range an array's elements occupy: one for AoS, one per
/// component for SoA (for overlap checks).
template <class A, class F>
void for_each_byte_range(const A& a, F&& f) {
  array_access::visit_storage(a, [&f](const auto& s) { s.for_each_byte_range(f); });
}

/// Whether any element byte of `a` is also one of `b` (same memory seen through two handles).
/// `bool shared = tack::detail::arrays_overlap(a.rows(1, 6), a.rows(0, 5));  // true`
template <class A, class B>
bool arrays_overlap(const A& a, const B& b) {
  bool found = false;
  for_each_byte_range(a, [&](std::uintptr_t af, std::uintptr_t al) {
    for_each_byte_range(
        b, [&](std::uintptr_t bf, std::uintptr_t bl) { found = found || (af < bl && bf < al); });
  });
  return found;
}

/// Where the scalars of a non-empty array of vector, matrix or scalar elements are, for
/// `copy_components`: `bases` receives the first scalar of each component.
template <class A>
component_span component_span_of(const A& a, std::vector<std::uintptr_t>& bases) {
  using S = scalar_t<typename A::value_type>;
  const std::ptrdiff_t stride =
      array_access::visit_storage(a, [&bases](const auto& s) { return s.component_bases(bases); });
  return {
      bases.data(),        static_cast<int>(bases.size()),           stride, scalar_kind_of_v<S>,
      a.host_accessible(), a.device().is_gpu() ? a.device().id() : 0};
}

template <class D, class S>
void copy_array(const D& dst, const S& src);

/// The copy for one pair of storage policies (`copy_array` picks the pair). Two AoS ranges are
/// one memmove-style byte copy; anything else that overlaps copies from a snapshot of `src`.
template <class D, class DP, class S, class SP>
void copy_between_policies(const D& dst, const S& src) {
  if constexpr (DP::layout == tack::layout::aos && SP::layout == tack::layout::aos) {
    copy_bytes(reinterpret_cast<void*>(array_access::byte_range(dst).first), dst.host_accessible(),
               reinterpret_cast<const void*>(array_access::byte_range(src).first),
               src.host_accessible(), dst.nbytes());
  } else {
    if (arrays_overlap(dst, src)) {
      copy_array(dst, src.copy().as_const());
      return;
    }
    if constexpr (DP::layout == tack::layout::soa && SP::layout == tack::layout::soa) {
      auto dc = dst.components();
      auto sc = src.components();
      for (std::size_t c = 0; c < dc.size(); ++c) copy_array(dc[c], sc[c]);
    } else if (dst.host_accessible() && src.host_accessible()) {
      // Between layouts: element by element (one pass, no temporary).
      src.as_const().visit_kernel_form([&](auto sv) {
        dst.visit_kernel_form([&](auto dv) { copy_elements_host(dv, sv, dst.size()); });
      });
    } else if (dst.size() > 0) {
      // Device memory across layouts: one component-wise kernel on the device (memory/copy.hpp).
      std::vector<std::uintptr_t> dst_bases, src_bases;
      copy_components(component_span_of(dst, dst_bases), component_span_of(src, src_bases),
                      static_cast<std::size_t>(dst.size()));
    }
  }
  dst.bump_version();
}

/// Copies `src` into `dst` (same value type, same size, any layouts and devices); the one path
/// under copy(), to_device() and copyto() between arrays. Overlapping arrays give the result of
/// copying from a snapshot of `src` (memmove's, as NumPy gives): one AoS range is moved in place,
/// anything else copies from a snapshot.
template <class D, class S>
void copy_array(const D& dst, const S& src) {
  using V = typename D::value_type;
  static_assert(std::is_same_v<V, typename S::value_type>);
  if constexpr (D::holds_objects) {
    // Objects are AoS in host memory: assignment, in the direction memmove would copy.
    assign_objects(reinterpret_cast<V*>(array_access::byte_range(dst).first),
                   reinterpret_cast<const V*>(array_access::byte_range(src).first),
                   static_cast<std::size_t>(dst.size()));
    dst.bump_version();
  } else {
    array_access::visit_storage(dst, [&](const auto& dp) {
      array_access::visit_storage(src, [&](const auto& sp) {
        copy_between_policies<D, std::decay_t<decltype(dp)>, S, std::decay_t<decltype(sp)>>(dst,
                                                                                            src);
      });
    });
  }
}

}  // namespace tack::detail
