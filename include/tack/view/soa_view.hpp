// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
#pragma once
/// @file `tack::soa_view<T, Rank>`: what a kernel receives for a structure-of-arrays vector or
/// matrix array — one pointer per scalar component, plus row-major extents. Element access returns
/// a proxy, `tack::soa_ref<T>`, that reads as `T`, assigns a `T` component by component, supports
/// compound assignment and `[c]` for one component, so one kernel source serves both layouts:
/// `v[i] = w[i] * 2.0f;` compiles for `tack::view<vec3f>` and for `tack::soa_view<vec3f>`.
/// A `soa_view` is the `mdview` with the row-major mapping and `tack::soa_accessor<T>`, whose data
/// handle is the component pointers and whose `access` returns the proxy: it holds pointers and
/// extents only (no array handle, no reference count).

#include <tack/core/index.hpp>
#include <tack/core/macros.hpp>
#include <tack/detail/bounds.hpp>
#include <tack/types/item.hpp>
#include <tack/view/detail/row_mapping.hpp>
#include <tack/view/detail/row_view.hpp>
#include <tack/view/mdview.hpp>
#include <tack/view/view.hpp>

#include <array>
#include <concepts>
#include <cstddef>
#include <type_traits>

namespace tack {

template <class T>
class soa_ref;

namespace detail {
template <class T>
inline constexpr bool is_soa_ref_v = false;
template <class T>
inline constexpr bool is_soa_ref_v<soa_ref<T>> = true;

// Component `c` of a vector or matrix value (both store their components contiguously, row after
// row, behind data()).
template <class T>
TACK_FORCEINLINE constexpr auto& component_of(T& value, int c) noexcept {
  return value.data()[c];
}
}  // namespace detail

/// A reference to element `k` of an SoA view: it holds the address of each component.
/// `tack::vec3f p = v[i];  v[i] = p + 1.0f;  v[i] += w;  v[i][1] = 0.0f;  v[i].component(2)`
///
/// Reads convert to `T`; `=` stores each component (assigning one proxy to another copies values,
/// it never rebinds); `+= -=` with a `T` or a scalar and `*= /=` with a scalar act per component,
/// `*= /=` with a `T` mean `T`'s own `*` and `/` (component-wise for vectors, the matrix product
/// for matrices). `+ - * /` and `==` forward to `T`. `component(c)` is a real `S&`, so atomics can
/// target one component. The proxy copies the component addresses (rather than pointing at the
/// view), so it stays valid after the view it came from is gone and lives in registers on a GPU.
template <class T>
class soa_ref {
  static_assert(!std::is_const_v<T>,
                "tack::soa_ref<T>: T is the non-const element type; a read-only soa_view returns "
                "values, not references");

public:
  /// The element type a proxy reads as (what `array_value_t` and atomics see).
  using value_type = T;
  /// The component type.
  using scalar_type = scalar_t<T>;
  /// Number of components.
  static constexpr int components = components_v<T>;

private:
  scalar_type* p_[components];

public:
  /// Element `k` of the components `comps`. Kernel code gets one from `soa_view::operator[]`.
  TACK_HOST_DEVICE constexpr soa_ref(scalar_type* const (&comps)[components], index_t k) noexcept {
    for (int c = 0; c < components; ++c) p_[c] = comps[c] + k;
  }
  /// Refers to the same element.
  constexpr soa_ref(const soa_ref&) noexcept = default;

  /// The value, gathered from the components. `tack::vec3f p = v[i];`
  TACK_FORCEINLINE constexpr T get() const noexcept {
    T value{};
    for (int c = 0; c < components; ++c) detail::component_of(value, c) = *p_[c];
    return value;
  }
  /// Reads as `T`.
  TACK_FORCEINLINE constexpr operator T() const noexcept { return get(); }

  /// Stores each component of `value`. `v[i] = tack::vec3f{1, 2, 3};`
  TACK_FORCEINLINE constexpr const soa_ref& operator=(const T& value) const noexcept {
    for (int c = 0; c < components; ++c) *p_[c] = detail::component_of(value, c);
    return *this;
  }
  /// Copies the value of `other` (proxies never rebind). `v[i] = v[j];`
  TACK_FORCEINLINE constexpr const soa_ref& operator=(const soa_ref& other) const noexcept {
    return *this = other.get();
  }

  /// Component `c`, a real reference. `v[i][1] = 0.0f;`
  TACK_FORCEINLINE constexpr scalar_type& operator[](int c) const noexcept { return *p_[c]; }
  /// Component `c`, a real reference (atomics use it). `tack::atomic_add(v[i].component(0), 1.0f);`
  TACK_FORCEINLINE constexpr scalar_type& component(int c) const noexcept { return *p_[c]; }

  /// `v[i] += w;` per component.
  TACK_FORCEINLINE constexpr const soa_ref& operator+=(const T& w) const noexcept {
    for (int c = 0; c < components; ++c) *p_[c] += detail::component_of(w, c);
    return *this;
  }
  /// `v[i] -= w;` per component.
  TACK_FORCEINLINE constexpr const soa_ref& operator-=(const T& w) const noexcept {
    for (int c = 0; c < components; ++c) *p_[c] -= detail::component_of(w, c);
    return *this;
  }
  /// `v[i] += 1.0f;` adds to every component.
  TACK_FORCEINLINE constexpr const soa_ref& operator+=(scalar_type s) const noexcept {
    for (int c = 0; c < components; ++c) *p_[c] += s;
    return *this;
  }
  /// `v[i] -= 1.0f;` subtracts from every component.
  TACK_FORCEINLINE constexpr const soa_ref& operator-=(scalar_type s) const noexcept {
    for (int c = 0; c < components; ++c) *p_[c] -= s;
    return *this;
  }
  /// `v[i] *= 2.0f;` scales every component.
  TACK_FORCEINLINE constexpr const soa_ref& operator*=(scalar_type s) const noexcept {
    for (int c = 0; c < components; ++c) *p_[c] *= s;
    return *this;
  }
  /// `v[i] /= 2.0f;` divides every component.
  TACK_FORCEINLINE constexpr const soa_ref& operator/=(scalar_type s) const noexcept {
    for (int c = 0; c < components; ++c) *p_[c] /= s;
    return *this;
  }
  /// `v[i] *= w;` is `v[i] = T(v[i]) * w` (component-wise for vectors, matrix product for
  /// matrices).
  TACK_FORCEINLINE constexpr const soa_ref& operator*=(const T& w) const noexcept requires
      requires(const T& a) {
    { a* a } -> std::convertible_to<T>;
  }
  { return *this = T(get() * w); }
  /// `v[i] /= w;` is `v[i] = T(v[i]) / w`.
  TACK_FORCEINLINE constexpr const soa_ref& operator/=(const T& w) const noexcept requires
      requires(const T& a) {
    { a / a } -> std::convertible_to<T>;
  }
  { return *this = T(get() / w); }

  /// True when every component equals `b`'s. `if (v[i] == tack::vec3f{}) ...`
  TACK_HOST_DEVICE friend constexpr bool operator==(const soa_ref& a, const T& b) noexcept {
    for (int c = 0; c < components; ++c) {
      if (!(*a.p_[c] == detail::component_of(b, c))) return false;
    }
    return true;
  }
  /// Compares the values of two elements.
  TACK_HOST_DEVICE friend constexpr bool operator==(const soa_ref& a, const soa_ref& b) noexcept {
    return a == b.get();
  }

  // T's arithmetic operators are templates, which do not see through the conversion to T; these
  // forward to them. `v[i] + w`, `2.0f * v[i]`, `m[i] * x[i]`.
#define TACK_IMPL_SOA_REF_BINARY(OP)                                                 \
  template <class U>                                                                 \
  requires(!detail::is_soa_ref_v<U> && requires(const T& a, const U& b) { a OP b; }) \
      TACK_HOST_DEVICE friend constexpr auto                                         \
      operator OP(const soa_ref& a, const U& b) noexcept {                           \
    return a.get() OP b;                                                             \
  }                                                                                  \
  template <class U>                                                                 \
  requires(!detail::is_soa_ref_v<U> && requires(const U& a, const T& b) { a OP b; }) \
      TACK_HOST_DEVICE friend constexpr auto                                         \
      operator OP(const U& a, const soa_ref& b) noexcept {                           \
    return a OP b.get();                                                             \
  }                                                                                  \
  template <class U>                                                                 \
  requires requires(const T& a, const U& b) { a OP b; }                              \
  TACK_HOST_DEVICE friend constexpr auto operator OP(const soa_ref& a,               \
                                                     const soa_ref<U>& b) noexcept { \
    return a.get() OP b.get();                                                       \
  }
  TACK_IMPL_SOA_REF_BINARY(+)
  TACK_IMPL_SOA_REF_BINARY(-)
  TACK_IMPL_SOA_REF_BINARY(*)
  TACK_IMPL_SOA_REF_BINARY(/)
#undef TACK_IMPL_SOA_REF_BINARY

  /// `-v[i]`.
  TACK_HOST_DEVICE friend constexpr T operator-(const soa_ref& a) noexcept { return -a.get(); }
};

namespace detail {
/// The data handle of a SoA kernel view: one pointer per scalar component (trivially copyable).
template <class S, int N>
struct component_pointers {
  S* p[N];
};
}  // namespace detail

/// The accessor of SoA kernel views: the data handle holds one pointer per component, `access(h,
/// k)` is element `k` as a `soa_ref<T>` (or, for `const T`, the gathered value), `offset(h, k)`
/// moves every pointer by `k`. `tack::soa_accessor<tack::vec3f>{}.access(h, i) = {1, 2, 3};`
template <class T>
struct soa_accessor {
  using element_type = T;                  ///< `T`, const for read-only views
  using value_type = std::remove_cv_t<T>;  ///< `T` without const
  /// The component type, const for read-only views.
  using scalar_type = std::conditional_t<std::is_const_v<T>, const scalar_t<T>, scalar_t<T>>;
  /// Number of scalar components per element.
  static constexpr int components = components_v<value_type>;
  /// The component pointers.
  using data_handle_type = detail::component_pointers<scalar_type, components>;
  /// A proxy, or for a read-only view a const value (const so that `r[i] = x` does not compile
  /// into a store to a temporary).
  using reference = std::conditional_t<std::is_const_v<T>, const value_type, soa_ref<value_type>>;
  using offset_policy = soa_accessor;  ///< the accessor of `offset`'s result

  constexpr soa_accessor() noexcept = default;
  /// `soa_accessor<const T>` from `soa_accessor<T>`.
  template <class U>
  requires(std::is_same_v<const U, T> && !std::is_const_v<U>)
      TACK_HOST_DEVICE constexpr soa_accessor(soa_accessor<U>) noexcept {}

  /// Element `k` of the components `h`.
  TACK_FORCEINLINE constexpr reference access(const data_handle_type& h, index_t k) const noexcept {
    if constexpr (std::is_const_v<T>) {
      value_type value{};
      for (int c = 0; c < components; ++c) detail::component_of(value, c) = h.p[c][k];
      return value;
    } else {
      return soa_ref<value_type>(h.p, k);
    }
  }
  /// Every component pointer moved by `k` elements.
  TACK_FORCEINLINE constexpr data_handle_type offset(const data_handle_type& h,
                                                     index_t k) const noexcept {
    data_handle_type out{};
    for (int c = 0; c < components; ++c) out.p[c] = h.p[c] + k;
    return out;
  }
};

namespace detail {
// soa_view's checks of T, before its base (which needs T's components) is formed.
template <class T>
constexpr bool soa_element_check() {
  static_assert(!is_scalar_v<T>,
                "tack::soa_view<T>: T is a scalar, which has no components to "
                "split; use tack::view<T> for scalar arrays");
  static_assert(is_scalar_v<T> || is_vec_v<T> || is_mat_v<T>,
                "tack::soa_view<T>: T must be tack::vec<S, N> or tack::mat<S, R, C> (structure of "
                "arrays splits an element's components)");
  return is_vec_v<T> || is_mat_v<T>;
}
// The base of soa_view<T, Rank>: the mdview with the SoA accessor (for checked-out element
// types, a placeholder that keeps the static_asserts the only errors).
template <class T, int Rank, bool Ok = soa_element_check<std::remove_cv_t<T>>()>
struct soa_view_base {
  using type = mdview<T, dextents<Rank>, layout_rows, soa_accessor<T>>;
};
template <class T, int Rank>
struct soa_view_base<T, Rank, false> {
  using type = mdview<T, dextents<Rank>, layout_rows>;
};
}  // namespace detail

/// Structure-of-arrays view of vector or matrix elements: component `c` of element `k` is
/// `component_data(c)[k]`. `tack::soa_view<tack::vec3f> v({x, y, z}, {n});  v[i] += g * dt;`
///
/// The constructor takes the component pointers as a C array (`{x, y, z}`) or a `std::array`, and
/// the extents likewise. `operator[](k)` is the flat row-major element; `operator()(i, j, ...)`
/// takes one index per dimension; both return `soa_ref<T>` (or, for `soa_view<const T>`, a
/// `const T` value). `rows(i, j)` offsets every component pointer; bounds checks report the root's
/// rows like `tack::view` (these three come from `detail::row_view`). A class derived from
/// `mdview` rather than an alias, as `tack::view` is (see there).
template <class T, int Rank = 1>
class soa_view
    : public detail::row_view<soa_view<T, Rank>, typename detail::soa_view_base<T, Rank>::type> {
  static_assert(Rank >= 1 && Rank <= max_rank, "tack::soa_view: the rank is between 1 and 8");

  using md = typename detail::soa_view_base<T, Rank>::type;
  using base = detail::row_view<soa_view<T, Rank>, md>;
  using row_map = typename md::mapping_type;
  using handle = typename md::data_handle_type;
  friend base;
  template <class, int>
  friend class soa_view;

public:
  using element_type = T;                  ///< `T`, const for read-only views
  using value_type = std::remove_cv_t<T>;  ///< `T` without const
  /// The component type, const for read-only views (`float` / `const float`).
  using scalar_type = std::conditional_t<std::is_const_v<T>, const scalar_t<T>, scalar_t<T>>;
  /// What element access returns: a proxy, or for a read-only view a const value (const so that
  /// `r[i] = x` does not compile into a store to a temporary).
  using reference = std::conditional_t<std::is_const_v<T>, const value_type, soa_ref<value_type>>;
  /// Number of dimensions.
  static constexpr int rank = Rank;
  /// Number of scalar components per element (3 for `vec3f`, 9 for `mat3f`).
  static constexpr int components = components_v<T>;
  /// How bounds reports name this view and its `rows`.
  static constexpr const char* check_name = "tack::soa_view";
  static constexpr const char* rows_check_name = "tack::soa_view::rows";

  /// A null view with zero extents.
  constexpr soa_view() noexcept = default;

  /// Over component arrays `comps` with `extents` (row-major), and optionally the row view's place
  /// in its root (for bounds messages; `root_rows < 0` means `extents[0]`).
  /// `tack::soa_view<tack::vec3f> v({x, y, z}, {n});`
  TACK_HOST_DEVICE constexpr soa_view(scalar_type* const (&comps)[components],
                                      const index_t (&extents)[Rank], index_t root_row_offset = 0,
                                      index_t root_rows = -1)
      : base(pointers(comps), row_map("tack::soa_view", extents, root_row_offset, root_rows)) {}

  /// The same with `std::array`s. `tack::soa_view<tack::vec3f> v(ptrs, shape);`
  TACK_HOST_DEVICE constexpr soa_view(
      const std::array<scalar_type*, std::size_t(components)>& comps,
      const std::array<index_t, std::size_t(Rank)>& extents, index_t root_row_offset = 0,
      index_t root_rows = -1)
      : base(pointers(comps), row_map("tack::soa_view", extents, root_row_offset, root_rows)) {}

  /// A rank-1 view of `n` elements. `tack::soa_view<tack::vec2d> v({x, y}, n);`
  /// (A template so that a braced `{n}` picks the extents constructor, not this one.)
  template <std::integral I>
  requires(Rank == 1)
      TACK_HOST_DEVICE constexpr soa_view(scalar_type* const (&comps)[components], I n)
      : soa_view(comps, {index_t(n)}) {}

  /// `soa_view<const T>` from `soa_view<T>`. `tack::soa_view<const tack::vec3f> r = w;`
  template <class U>
  requires(std::is_same_v<const U, T> && !std::is_const_v<U>)
      TACK_HOST_DEVICE constexpr soa_view(const soa_view<U, Rank>& other) noexcept
      : base(pointers(other.data().p), other.mapping()) {}

  /// The array of component `c` (`component_data(c)[k]` is component c of element k).
  TACK_FORCEINLINE constexpr scalar_type* component_data(int c) const noexcept {
    return this->data().p[c];
  }
  /// Component `c` as a scalar view of the same shape and bounds info. `v.component(0)[k]`
  TACK_HOST_DEVICE constexpr view<scalar_type, Rank> component(int c) const {
    return view<scalar_type, Rank>(component_data(c), this->shape(), this->root_row_offset(),
                                   this->root_rows());
  }

private:
  template <class P>
  TACK_HOST_DEVICE static constexpr handle pointers(const P& comps) noexcept {
    handle h{};
    for (int c = 0; c < components; ++c) h.p[c] = comps[std::size_t(c)];
    return h;
  }
};

}  // namespace tack
