// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
#pragma once
/// @file Axom's views: `tack::array_view<T, Rank>(pointer, shape, spacing = 1)` sees every
/// `spacing`-th element of a buffer, row-major over `shape`; `tack::mc_array_view<T>(pointer, rows,
/// cols)` reads a flat buffer of tuples as a 2-D array. Both are `mdview`s with `layout_stride`
/// (the strides are the row-major ones times the spacing), so they pass wherever an mdview does.
/// Like every view they cannot resize: they have no growth members at all. The memory-space
/// parameter (Axom's `ArrayView<T, DIM, SPACE>`) says where the memory is, for functions and
/// kernels that require one: `void add(tack::array_view<int, 1, tack::memory_space::device> c);`

#include <array>
#include <compare>
#include <concepts>
#include <cstddef>
#include <iterator>
#include <tack/core/index.hpp>
#include <tack/core/macros.hpp>
#include <tack/detail/bounds.hpp>
#include <tack/memory/memory_space.hpp>
#include <tack/view/extents.hpp>
#include <tack/view/layout_stride.hpp>
#include <tack/view/mdview.hpp>
#include <tack/view/view.hpp>
#include <type_traits>

namespace tack {

template <int Rank>
struct shape;

namespace detail {

/// Random-access iterator over `base[k * stride]` for k = 0, 1, ...; host and device. It keeps the
/// element number rather than a moving pointer, so `end()` of a spaced view never forms a pointer
/// past the memory.
template <class T>
class strided_iterator {
  T* base_ = nullptr;
  index_t index_ = 0;
  index_t stride_ = 1;

public:
  using iterator_concept = std::random_access_iterator_tag;
  using iterator_category = std::random_access_iterator_tag;
  using value_type = std::remove_cv_t<T>;
  using difference_type = index_t;
  using pointer = T*;
  using reference = T&;

  constexpr strided_iterator() noexcept = default;
  /// Element `index` of `base[k * stride]`.
  TACK_HOST_DEVICE constexpr strided_iterator(T* base, index_t index, index_t stride) noexcept
      : base_(base), index_(index), stride_(stride) {}

  TACK_FORCEINLINE constexpr reference operator*() const noexcept {
    return base_[index_ * stride_];
  }
  TACK_FORCEINLINE constexpr pointer operator->() const noexcept {
    return base_ + index_ * stride_;
  }
  TACK_FORCEINLINE constexpr reference operator[](difference_type n) const noexcept {
    return base_[(index_ + n) * stride_];
  }

  TACK_HOST_DEVICE constexpr strided_iterator& operator++() noexcept {
    ++index_;
    return *this;
  }
  TACK_HOST_DEVICE constexpr strided_iterator operator++(int) noexcept {
    strided_iterator old = *this;
    ++index_;
    return old;
  }
  TACK_HOST_DEVICE constexpr strided_iterator& operator--() noexcept {
    --index_;
    return *this;
  }
  TACK_HOST_DEVICE constexpr strided_iterator operator--(int) noexcept {
    strided_iterator old = *this;
    --index_;
    return old;
  }
  TACK_HOST_DEVICE constexpr strided_iterator& operator+=(difference_type n) noexcept {
    index_ += n;
    return *this;
  }
  TACK_HOST_DEVICE constexpr strided_iterator& operator-=(difference_type n) noexcept {
    index_ -= n;
    return *this;
  }
  TACK_HOST_DEVICE friend constexpr strided_iterator operator+(strided_iterator it,
                                                               difference_type n) noexcept {
    return it += n;
  }
  TACK_HOST_DEVICE friend constexpr strided_iterator operator+(difference_type n,
                                                               strided_iterator it) noexcept {
    return it += n;
  }
  TACK_HOST_DEVICE friend constexpr strided_iterator operator-(strided_iterator it,
                                                               difference_type n) noexcept {
    return it -= n;
  }
  TACK_HOST_DEVICE friend constexpr difference_type operator-(const strided_iterator& a,
                                                              const strided_iterator& b) noexcept {
    return a.index_ - b.index_;
  }
  // Iterators of one view share base and stride; only the element number differs.
  TACK_HOST_DEVICE friend constexpr bool operator==(const strided_iterator& a,
                                                    const strided_iterator& b) noexcept {
    return a.index_ == b.index_;
  }
  TACK_HOST_DEVICE friend constexpr std::strong_ordering operator<=>(
      const strided_iterator& a, const strided_iterator& b) noexcept {
    return a.index_ <=> b.index_;
  }
};

}  // namespace detail

/// Axom's `ArrayView`: `T` elements at `data()[k * spacing]`, `k` row-major over `shape`.
/// `Space` names the memory space the pointer is in (`dynamic`: any); a `tack::array` converts to
/// the view of its space implicitly. `tack::array_view<int, 2> c(buf, {3, 2});  c(1, 1) = 9;`
template <class T, int Rank = 1, memory_space Space = memory_space::dynamic>
class array_view : public mdview<T, dextents<Rank>, layout_stride> {
  static_assert(Rank >= 1 && Rank <= max_rank, "tack::array_view: the rank is between 1 and 8");
  using base = mdview<T, dextents<Rank>, layout_stride>;

  index_t spacing_ = 1;

  template <class, int, memory_space>
  friend class array_view;

public:
  using typename base::element_type;
  using typename base::extents_type;
  using typename base::index_type;
  using typename base::mapping_type;
  using typename base::pointer;
  using typename base::reference;
  using typename base::value_type;
  /// Visits the elements in index order (`data()[k * spacing()]`, k = 0 .. size()-1).
  using iterator = detail::strided_iterator<T>;

  /// A null, empty view.
  constexpr array_view() noexcept = default;

  /// `shape` row-major, one element every `spacing` elements of `data`.
  /// `tack::array_view<std::string, 2> a(buf.data() + 2, {2, 3}, 4);  // component 2 of 4-tuples`
  TACK_HOST_DEVICE constexpr array_view(T* data,
                                        const std::array<index_t, std::size_t(Rank)>& shape,
                                        index_t spacing = 1)
      : base(data, make_mapping(shape, spacing)), spacing_(spacing) {}

  /// The same from a `tack::shape`, as every factory taking a shape accepts one.
  /// `tack::array_view v(p, tack::shape{2, 3}, 4);  // array_view<T, 2>`
  template <int R>
  requires(R == Rank)
      TACK_HOST_DEVICE constexpr array_view(T* data, const shape<R>& s, index_t spacing = 1)
      : array_view(data, s.extents, spacing) {}

  /// A rank-1 view of `n` elements, one every `spacing`. `tack::array_view<float> v(p, 10);`
  TACK_HOST_DEVICE constexpr array_view(T* data, index_t n, index_t spacing = 1) requires(Rank == 1)
      : array_view(data, std::array<index_t, 1>{n}, spacing) {}

  /// One extent per dimension, spacing 1: `tack::mc_array_view<int> c(buf, 3, 2);  // 3 2-tuples`
  template <std::integral... I>
  requires(sizeof...(I) == std::size_t(Rank) && Rank >= 2)
      TACK_HOST_DEVICE constexpr array_view(T* data, I... shape)
      : array_view(data, std::array<index_t, std::size_t(Rank)>{index_t(shape)...}, 1) {}

  /// A read-only view of a writable one, and a `dynamic` view of one in a fixed space.
  /// `tack::array_view<const int> r = w;`
  template <class U, memory_space S2>
  requires((!std::is_same_v<U, T> || S2 != Space) && std::is_convertible_v<U (*)[], T (*)[]> &&
           (S2 == Space || Space == memory_space::dynamic))
      TACK_HOST_DEVICE constexpr array_view(const array_view<U, Rank, S2>& other) noexcept
      : base(other), spacing_(other.spacing_) {}
  /// An Axom-style view (spacing 1) of a kernel view. `tack::array_view<float, 2> a = v;`
  template <class U>
  requires(Space == memory_space::dynamic && std::is_convertible_v<U (*)[], T (*)[]>)
      TACK_HOST_DEVICE constexpr array_view(const view<U, Rank>& v) noexcept
      : array_view(v.data(), v.shape(), 1) {}
  /// A view in a fixed space from a `dynamic` one: the caller states where the memory is (the
  /// conversion from a `tack::array` checks it). `array_view<int, 1, memory_space::host>(v)`
  template <class U>
  requires(Space != memory_space::dynamic && std::is_convertible_v<U (*)[], T (*)[]>)
      TACK_HOST_DEVICE constexpr explicit array_view(
          const array_view<U, Rank, memory_space::dynamic>& other) noexcept
      : base(other), spacing_(other.spacing_) {}

  /// Element at `(i, j, ...)` of the shape (exactly Rank indices). `c(1, 0)`
  template <class... I>
  TACK_FORCEINLINE constexpr reference operator()(I... i) const {
    return this->access("tack::array_view", i...);
  }

  /// Element `k` of the flat sequence: `data()[k * spacing()]`, 0 <= k < size().
  template <std::integral I>
  TACK_FORCEINLINE constexpr reference operator[](I k) const {
    TACK_IMPL_CHECK_INDEX(index_t(k), this->size(), "tack::array_view", Rank > 1, -1,
                          (detail::row_info{0, 0, 0}));
    return this->data()[index_t(k) * spacing_];
  }

  /// Elements between neighbours in memory (1 = adjacent).
  TACK_FORCEINLINE constexpr index_t spacing() const noexcept { return spacing_; }

  /// First element in index order. `for (int x : c) ...`
  TACK_HOST_DEVICE constexpr iterator begin() const noexcept {
    return iterator(this->data(), 0, spacing_);
  }
  /// One past the last element.
  TACK_HOST_DEVICE constexpr iterator end() const noexcept {
    return iterator(this->data(), this->size(), spacing_);
  }

private:
  TACK_HOST_DEVICE static constexpr mapping_type make_mapping(
      const std::array<index_t, std::size_t(Rank)>& shape, index_t spacing) {
    TACK_EXPECTS(spacing >= 1, "tack::array_view: spacing %lld is not positive",
                 (long long)spacing);
    std::array<index_t, std::size_t(Rank)> strides{};
    index_t s = spacing;
    for (int d = Rank - 1; d >= 0; --d) {
      strides[std::size_t(d)] = s;
      s *= shape[std::size_t(d)];
    }
    return mapping_type(extents_type(shape), strides);
  }
};

/// `tack::array_view(p, tack::shape{2, 3}, 4)` and `tack::array_view(p, std::array<tack::index_t,
/// 2>{2, 3})` deduce the element type and the rank.
template <class T, int R>
TACK_HOST_DEVICE array_view(T*, const shape<R>&)->array_view<T, R>;
template <class T, int R>
TACK_HOST_DEVICE array_view(T*, const shape<R>&, index_t)->array_view<T, R>;
template <class T, std::size_t R>
TACK_HOST_DEVICE array_view(T*, const std::array<index_t, R>&)->array_view<T, static_cast<int>(R)>;
template <class T, std::size_t R>
TACK_HOST_DEVICE array_view(T*, const std::array<index_t, R>&, index_t)
    ->array_view<T, static_cast<int>(R)>;

/// Axom's `MCArrayView`: a flat buffer of tuples read as rows x cols.
/// `tack::mc_array_view<int> c(a.data(), 3, 2);  // [[2, 5], [6, 11], [1, 4]]`
template <class T>
using mc_array_view = array_view<T, 2>;

}  // namespace tack
