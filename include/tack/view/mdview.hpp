// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
#pragma once
/// @file `tack::mdview<T, Extents, Layout, Accessor>`: an mdspan-style, non-owning view: a data
/// handle, a layout mapping that turns a multi-index into an offset, and an accessor that turns
/// the handle and an offset into an element (`std::mdspan`'s three policies).
/// Building one is arithmetic; it owns and copies nothing, is trivially copyable and works on
/// host and device. Every kernel view is one: `tack::view` (row-major, `default_accessor`),
/// `tack::soa_view` (row-major, `soa_accessor`: component pointers and a proxy), `tack::array_view`
/// (`layout_stride`). `tack::make_view` (tack/view/make_view.hpp) builds the row-major one over a
/// pointer or a buffer. This header includes no string or exception machinery: generated kernels
/// include it, and their compile time is mostly header parsing.

#include <tack/core/index.hpp>
#include <tack/core/macros.hpp>
#include <tack/detail/bounds.hpp>
#include <tack/view/accessor.hpp>
#include <tack/view/extents.hpp>
#include <tack/view/layout.hpp>

#include <array>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>

namespace tack {

namespace detail {
template <class>
inline constexpr bool dependent_false = false;
}  // namespace detail

/// A view of `T` elements at `data()` over the shape `Extents` laid out by `Layout`, read through
/// `Accessor`. `tack::mdview<double, tack::extents<3, tack::dyn>> v(ptr, 11); v(c, i) = 1.0;`
///
/// The mapping and the accessor are held as base classes: with all-static extents, layout_right
/// and the default accessor the view is one pointer. Accesses are bounds-checked when
/// TACK_BOUNDS_CHECK is on.
template <class T, class Extents, class Layout = layout_right, class Accessor = default_accessor<T>>
class mdview : private Layout::template mapping<Extents>, private Accessor {
  static_assert(is_extents_v<Extents>,
                "tack::mdview: the second template argument is the shape, tack::extents<E...> or "
                "tack::dextents<Rank>");
  static_assert(!std::is_reference_v<T> && !std::is_void_v<T>,
                "tack::mdview: the element type is an object type (float, tack::vec3f, ...)");
  static_assert(std::is_same_v<typename Accessor::element_type, T>,
                "tack::mdview: the accessor's element_type must be the view's element type");

  using mapping_base = typename Layout::template mapping<Extents>;

  typename Accessor::data_handle_type data_{};

  template <class, class, class, class>
  friend class mdview;

public:
  using element_type = T;                  ///< `T`, const-qualified for read-only views
  using value_type = std::remove_cv_t<T>;  ///< `T` without const
  using extents_type = Extents;            ///< the shape type
  using layout_type = Layout;              ///< the layout policy
  using accessor_type = Accessor;          ///< the accessor policy
  using mapping_type = mapping_base;       ///< `Layout::mapping<Extents>`
  using index_type = index_t;              ///< signed 64-bit
  using data_handle_type = typename Accessor::data_handle_type;  ///< `T*` for `default_accessor`
  using pointer = data_handle_type;                              ///< what `data()` returns
  using reference = typename Accessor::reference;  ///< what element access returns (`T&`)

  /// Number of dimensions. `static_assert(decltype(v)::rank() == 2);`
  TACK_HOST_DEVICE static constexpr int rank() noexcept { return Extents::rank(); }
  /// Number of run-time extents.
  TACK_HOST_DEVICE static constexpr int rank_dynamic() noexcept { return Extents::rank_dynamic(); }
  /// Compile-time extent of dimension `d`, or `tack::dyn`.
  TACK_HOST_DEVICE static constexpr index_t static_extent(int d) noexcept {
    return Extents::static_extent(d);
  }

  /// A null view whose dynamic extents are zero.
  constexpr mdview() noexcept = default;

  /// Over `p` with the given mapping. `mdview<float, dextents<2>, layout_stride> v(p, m);`
  TACK_HOST_DEVICE constexpr mdview(data_handle_type p, const mapping_type& m) noexcept
      : mapping_base(m), data_(p) {}

  /// Over `p` with the given mapping and accessor.
  TACK_HOST_DEVICE constexpr mdview(data_handle_type p, const mapping_type& m,
                                    const Accessor& a) noexcept
      : mapping_base(m), Accessor(a), data_(p) {}

  /// Over `p` with the given extents (layouts that need no more than extents: right, left).
  /// (`type_identity_t` keeps this constructor out of class template argument deduction, where it
  /// would deduce `mdview(p, 4)` as a view whose extents have type `int`.)
  TACK_HOST_DEVICE constexpr mdview(data_handle_type p,
                                    const std::type_identity_t<extents_type>& e) noexcept requires
      std::is_constructible_v<mapping_type, const extents_type&> : mapping_base(e),
                                                                   data_(p) {}

  /// Over `p`, one value per dynamic extent (or one per dimension).
  /// `tack::mdview<double, tack::extents<3, tack::dyn>> v(p, 11);`
  template <std::integral... I>
  requires std::is_constructible_v<Extents, I...> && std::is_constructible_v<
      mapping_type,
      const extents_type&> TACK_HOST_DEVICE constexpr explicit mdview(data_handle_type p,
                                                                      I... dynamic_extents)
      : mapping_base(extents_type(dynamic_extents...)), data_(p) {}

  /// From a view of `U` (`T` is `U` or `const U`) whose mapping and accessor convert to these;
  /// implicit when nothing needs a run-time check. `mdview<const float, dextents<1>> r = w;`
  template <class U, class OtherExtents, class OtherLayout, class OtherAccessor>
  requires std::is_convertible_v<U (*)[], T (*)[]> && std::is_constructible_v < mapping_type,
      const typename OtherLayout::template mapping<OtherExtents>
  & > &&std::is_constructible_v<Accessor, const OtherAccessor&>&& std::is_convertible_v<
          typename OtherAccessor::data_handle_type,
          data_handle_type> TACK_HOST_DEVICE constexpr explicit(!std::
                                                                    is_convertible_v<
                                                                        const typename OtherLayout::
                                                                            template mapping<
                                                                                OtherExtents>&,
                                                                        mapping_type>)
          mdview(const mdview<U, OtherExtents, OtherLayout, OtherAccessor>& other)
      : mapping_base(other.mapping()),
  Accessor(other.accessor()), data_(other.data_) {}

  /// Element at `(i, j, ...)`, exactly `rank()` integer indices (fails to compile otherwise).
  /// `v(c, i) = 2.0;`
  template <class... I>
  TACK_FORCEINLINE constexpr reference operator()(I... i) const {
    return access("tack::mdview", i...);
  }

  /// Element `k` of a rank-1 view (`v[k]` is `v(k)`).
  template <std::integral I>
  TACK_FORCEINLINE constexpr reference operator[](I k) const {
    if constexpr (rank() != 1) {
      static_assert(detail::dependent_false<I>,
                    "tack::mdview: operator[] takes one index and exists on rank-1 views; use "
                    "operator()(i, j, ...) with one index per dimension");
      return element(0);
    } else {
      return access("tack::mdview", k);
    }
  }

  /// The data handle: for `default_accessor`, the pointer to the element at offset 0
  /// (`v.data() + v.mapping()(i, j)` is `&v(i, j)`).
  TACK_FORCEINLINE constexpr pointer data() const noexcept { return data_; }
  /// The layout mapping.
  TACK_HOST_DEVICE constexpr const mapping_type& mapping() const noexcept { return *this; }
  /// The accessor.
  TACK_HOST_DEVICE constexpr const accessor_type& accessor() const noexcept { return *this; }
  /// The shape.
  TACK_HOST_DEVICE constexpr const extents_type& extents() const noexcept {
    return mapping().extents();
  }
  /// Extent of dimension `d`. `v.extent(1)`
  TACK_FORCEINLINE constexpr index_t extent(int d) const noexcept { return extents().extent(d); }
  /// Number of elements (product of the extents).
  TACK_FORCEINLINE constexpr index_t size() const noexcept { return extents().size(); }
  /// True when some extent is zero.
  TACK_HOST_DEVICE constexpr bool empty() const noexcept { return size() == 0; }
  /// The extents as an array. `auto [rows, cols] = v.shape();`
  TACK_HOST_DEVICE constexpr std::array<index_t, std::size_t(Extents::rank())> shape()
      const noexcept {
    return extents().to_array();
  }
  /// Row `0` of a row-major kernel view is row `root_row_offset()` of its root (0 unless made by
  /// `rows`); bounds-check messages use it. `v.rows(2, 4).root_row_offset() == 2`
  TACK_HOST_DEVICE constexpr index_t root_row_offset() const noexcept requires
      requires(const mapping_type& m) {
    m.root_row_offset();
  }
  { return mapping().root_row_offset(); }
  /// Rows of the root a row-major kernel view was taken from (`extent(0)` unless it is a row
  /// view).
  TACK_HOST_DEVICE constexpr index_t root_rows() const noexcept requires
      requires(const mapping_type& m) {
    m.root_rows();
  }
  { return mapping().root_rows(); }
  /// Distance in elements between neighbours along dimension `d`.
  TACK_HOST_DEVICE constexpr index_t stride(int d) const noexcept { return mapping().stride(d); }
  /// Elements the memory at `data()` must hold.
  TACK_HOST_DEVICE constexpr index_t required_span_size() const noexcept {
    return mapping().required_span_size();
  }

  /// The layout's guarantees, as in std::mdspan.
  TACK_HOST_DEVICE static constexpr bool is_always_unique() noexcept {
    return mapping_type::is_always_unique();
  }
  /// See std::mdspan::is_always_exhaustive.
  TACK_HOST_DEVICE static constexpr bool is_always_exhaustive() noexcept {
    return mapping_type::is_always_exhaustive();
  }
  /// See std::mdspan::is_always_strided.
  TACK_HOST_DEVICE static constexpr bool is_always_strided() noexcept {
    return mapping_type::is_always_strided();
  }
  /// See std::mdspan::is_unique.
  TACK_HOST_DEVICE constexpr bool is_unique() const noexcept { return mapping().is_unique(); }
  /// True when the elements fill `[data(), data() + required_span_size())` without gaps.
  TACK_HOST_DEVICE constexpr bool is_exhaustive() const noexcept {
    return mapping().is_exhaustive();
  }
  /// See std::mdspan::is_strided.
  TACK_HOST_DEVICE constexpr bool is_strided() const noexcept { return mapping().is_strided(); }

protected:
  // Checked access shared with array_view, which reports under its own name.
  template <class... I>
  TACK_FORCEINLINE constexpr reference access([[maybe_unused]] const char* what, I... i) const {
    if constexpr (!detail::check_index_count<rank(), sizeof...(I)>()) {
      return element(0);
    } else {
      static_assert((std::is_integral_v<I> && ...), "tack::mdview: indices are integers");
#if TACK_BOUNDS_CHECK
      int d = 0;
      (check_index(what, index_t(i), d++), ...);
#endif
      return accessor().access(data_, mapping()(index_t(i)...));
    }
  }
  // Element at offset `k` (checked by the caller).
  TACK_FORCEINLINE constexpr reference element(index_t k) const {
    return accessor().access(data_, k);
  }
  // Rows `[i, j)` of a row-major kernel view, in place: the mapping shrinks, the handle moves.
  template <class Site>
  TACK_FORCEINLINE constexpr void take_rows(Site site, index_t i, index_t j) {
    data_ = accessor().offset(data_, static_cast<mapping_base&>(*this).take_rows(site, i, j));
  }

private:
  TACK_HOST_DEVICE constexpr void check_index([[maybe_unused]] const char* what,
                                              [[maybe_unused]] index_t i,
                                              [[maybe_unused]] int d) const {
    TACK_IMPL_CHECK_INDEX(i, extent(d), what, false, rank() == 1 ? -1 : d,
                          (detail::row_info{0, 0, 0}));
  }
};

/// `tack::mdview(p, 6, 3)` is an `mdview<T, dextents<2>>`.
template <class T, std::integral... I>
TACK_HOST_DEVICE mdview(T*, I...)->mdview<T, dextents<int(sizeof...(I))>>;
/// `tack::mdview(p, tack::extents<3, tack::dyn>(11))`.
template <class T, index_t... E>
TACK_HOST_DEVICE mdview(T*, const extents<E...>&)->mdview<T, extents<E...>>;
/// `tack::mdview(p, layout_stride::mapping<dextents<2>>(...))`.
template <class T, class Mapping>
requires requires {
  typename Mapping::layout_type;
  typename Mapping::extents_type;
}
TACK_HOST_DEVICE mdview(T*, const Mapping&)
    ->mdview<T, typename Mapping::extents_type, typename Mapping::layout_type>;

}  // namespace tack
