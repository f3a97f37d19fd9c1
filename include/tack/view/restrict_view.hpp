// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
#pragma once
/// @file `tack::restrict_view` and `tack::restrict_soa_view`: the kernel views `tack::launch`
/// passes on the CPU when no writable argument shares a byte with any other argument.
/// They are a `view`/`soa_view` (derived from it, so a kernel whose parameter is `tack::view<float>`
/// takes one) whose pointers the backend's loop receives as `restrict`-qualified function
/// parameters: GCC and Clang honour `restrict` on parameters, not on struct members, so the loop
/// function takes the pointers apart (`pointers()`) and rebuilds the views over its own parameters
/// (`with_pointers`). A kernel instantiated with these forms is the aliasing-free instantiation.

#include <tack/view/soa_view.hpp>
#include <tack/view/view.hpp>

#include <tuple>

namespace tack {

/// A `view<T, Rank>` no other kernel argument overlaps where either writes.
/// `template <class V> void operator()(index_t i, const V& y) const { y[i] = 0; }` sees one.
template <class T, int Rank = 1>
class restrict_view : public view<T, Rank> {
public:
  /// Number of pointers `pointers()` returns.
  static constexpr int pointer_count = 1;

  /// A null view.
  constexpr restrict_view() noexcept = default;
  /// The same view, marked disjoint. `tack::restrict_view<float> r(v);`
  TACK_HOST_DEVICE constexpr explicit restrict_view(const view<T, Rank>& v) noexcept
      : view<T, Rank>(v) {}

  /// The data pointer, as a tuple. `auto [p] = r.pointers();`
  TACK_HOST_DEVICE constexpr std::tuple<T*> pointers() const noexcept {
    return std::tuple<T*>(this->data());
  }
  /// The same view over `p` (same extents and root information). `r.with_pointers(q)`
  TACK_FORCEINLINE constexpr restrict_view with_pointers(T* p) const noexcept {
    return restrict_view(
        view<T, Rank>(p, this->shape(), this->root_row_offset(), this->root_rows()));
  }
};

namespace detail {
template <class T, std::size_t... C>
auto soa_pointer_tuple(std::index_sequence<C...>)
    -> std::tuple<decltype(((void)C, (T*)nullptr))...>;
}  // namespace detail

/// A `soa_view<T, Rank>` no other kernel argument overlaps where either writes; its components
/// are counted separately, so `tack::soa(x, x)` never becomes one.
/// `template <class V> void operator()(index_t i, const V& v) const { v[i] += 1.0f; }` sees one.
template <class T, int Rank = 1>
class restrict_soa_view : public soa_view<T, Rank> {
  using base = soa_view<T, Rank>;
  using scalar = typename base::scalar_type;

public:
  /// Number of pointers `pointers()` returns: one per component.
  static constexpr int pointer_count = base::components;
  /// What `pointers()` returns: `pointer_count` component pointers.
  using pointer_tuple = decltype(detail::soa_pointer_tuple<scalar>(
      std::make_index_sequence<std::size_t(pointer_count)>{}));

  /// A null view.
  constexpr restrict_soa_view() noexcept = default;
  /// The same view, marked disjoint. `tack::restrict_soa_view<tack::vec3f> r(v);`
  TACK_HOST_DEVICE constexpr explicit restrict_soa_view(const base& v) noexcept : base(v) {}

  /// The component pointers, as a tuple. `auto [x, y, z] = r.pointers();`
  TACK_HOST_DEVICE constexpr pointer_tuple pointers() const noexcept {
    return pointers_impl(std::make_index_sequence<std::size_t(pointer_count)>{});
  }
  /// The same view over component pointers `p...` (same extents and root information).
  /// `r.with_pointers(x, y, z)`
  template <class... P>
  requires(sizeof...(P) == std::size_t(pointer_count)) TACK_FORCEINLINE constexpr restrict_soa_view
      with_pointers(P*... p) const noexcept {
    scalar* const comps[pointer_count] = {p...};
    index_t extents[Rank] = {};
    for (int d = 0; d < Rank; ++d) extents[d] = this->extent(d);
    return restrict_soa_view(base(comps, extents, this->root_row_offset(), this->root_rows()));
  }

private:
  template <std::size_t... C>
  TACK_HOST_DEVICE constexpr pointer_tuple pointers_impl(std::index_sequence<C...>) const noexcept {
    return pointer_tuple(this->component_data(int(C))...);
  }
};

namespace detail {
/// The restrict form of a kernel view: `restrict_view` for `view`, `restrict_soa_view` for
/// `soa_view`; other forms have none (`void`).
template <class V>
struct restrict_form {
  using type = void;
};
template <class T, int R>
struct restrict_form<view<T, R>> {
  using type = restrict_view<T, R>;
};
template <class T, int R>
struct restrict_form<soa_view<T, R>> {
  using type = restrict_soa_view<T, R>;
};
/// Whether `V` is a `restrict_view` or `restrict_soa_view`.
template <class V>
inline constexpr bool is_restrict_form_v = false;
template <class T, int R>
inline constexpr bool is_restrict_form_v<restrict_view<T, R>> = true;
template <class T, int R>
inline constexpr bool is_restrict_form_v<restrict_soa_view<T, R>> = true;
}  // namespace detail

}  // namespace tack
