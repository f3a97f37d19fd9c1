// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
#pragma once
/// @file Out-of-class members of `tack::array` (included at the end of array.hpp).

#include <tack/array/array.hpp>

#include <cmath>
#include <limits>
#include <optional>

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
  static constexpr bool same = (is_scalar_v<From> && is_scalar_v<To>) ||
                               (is_vec_v<From> && is_vec_v<To> && components_v<From> == components_v<To>) ||
                               same_mat_dimensions<From, To>;
  static_assert(same,
                "tack::array::astype<U>: an element type U must have the same component "
                "dimensions as the array's elements (vec3 to vec3, mat2 to mat2); pass a scalar U "
                "to change only the precision, or view the scalars with as_scalars() and "
                "reinterpret them with as_elements<U>()");
};

/// `x` converted to `To` as `astype` does: a floating-point value converted to an integer type
/// saturates (below the range: the minimum; above: the maximum; NaN: 0), which C++ leaves
/// undefined; every other conversion is `static_cast` (IEEE rounding; to `bool`: nonzero).
/// `tack::detail::convert_scalar<std::int8_t>(300.0f) == 127`
template <class To, class From>
constexpr To convert_scalar(From x) noexcept {
  if constexpr (std::is_floating_point_v<From> && std::is_integral_v<To> && !std::is_same_v<To, bool>) {
    if (x != x) return To(0);
    // Both bounds are powers of two (or 0), exact in every floating-point type.
    constexpr From lo = static_cast<From>(std::numeric_limits<To>::min());
    constexpr From hi = static_cast<From>(std::numeric_limits<To>::max() / 2 + 1) * From(2);
    if (x <= lo) return std::numeric_limits<To>::min();
    if (x >= hi) return std::numeric_limits<To>::max();
    return static_cast<To>(x);
  } else {
    return static_cast<To>(x);
  }
}

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
    const tack::layout l = opts.layout.value_or(tack::layout::aos);
    if (l == tack::layout::soa) {
      if constexpr (A::can_be_soa) {
        A a = uninitialized<A>();
        a.layout_ = tack::layout::soa;
        options component_opts = opts;
        component_opts.layout = tack::layout::aos;
        auto parts = make_counted<typename decltype(a.comps_)::block>();
        for (auto& part : *parts) {
          part = allocate<scalar_t<V>, R, S>(shape, component_opts, fallback_device);
        }
        a.comps_.parts = std::move(parts);
        return a;
      } else {
        throw value_error("tack: layout soa needs vector or matrix elements, not " +
                          std::string(A::element_name()) +
                          "; scalar arrays are always aos");
      }
    }
    A a = uninitialized<A>();
    a.init_root(d, shape, opts.capacity, opts.allocator);
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
    a.init_object_root(d, shape, opts.capacity,
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
        throw value_error("tack::from_ptr: extent " + std::to_string(shape[static_cast<std::size_t>(dd)]) +
                          " of dimension " + std::to_string(dd) + " in shape " + shape_string(shape) +
                          " is negative");
      }
    }
    (void)checked_nbytes("tack::from_ptr", shape, sizeof(typename A::value_type),
                         A::element_name(), shape[0]);
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
    for (int dd = 0; dd < R; ++dd) st->extents[static_cast<std::size_t>(dd)] = shape[static_cast<std::size_t>(dd)];
    st->growable = false;
    st->buf = buffer::borrow(ptr, st->used_bytes(), d, read_only, std::move(owner), host_ok);
    a.st_ = std::move(st);
    return a;
  }

  /// A SoA array from component arrays (checked by the caller).
  template <class T, int R, memory_space S>
  static array<T, R, S> from_components(std::vector<typename array<T, R, S>::component_array> parts) {
    using A = array<T, R, S>;
    A a = uninitialized<A>();
    a.layout_ = tack::layout::soa;
    auto block = make_counted<typename decltype(a.comps_)::block>();
    for (std::size_t c = 0; c < block->size(); ++c) (*block)[c] = mutable_alias(parts.at(c));
    a.comps_.parts = std::move(block);
    return a;
  }

  /// The byte range `[first, last)` an AoS handle covers (for overlap checks).
  template <class A>
  static std::pair<std::uintptr_t, std::uintptr_t> byte_range(const A& a) {
    auto first = reinterpret_cast<std::uintptr_t>(a.element_pointer("byte_range"));
    return {first, first + a.nbytes()};
  }

  /// The same memory through the mutable handle type (internal: any_array stores handles so and
  /// restores constness on the way out).
  template <class T, int R, memory_space S>
  static array<std::remove_const_t<T>, R, S> mutable_alias(const array<T, R, S>& a) {
    using M = array<std::remove_const_t<T>, R, S>;
    M m = uninitialized<M>();
    m.layout_ = a.layout_;
    if constexpr (M::can_be_soa) m.comps_.parts = a.comps_.parts;
    m.st_ = a.st_;
    m.offset_ = a.offset_;
    m.shape_ = a.shape_;
    m.view_ = a.view_;
    return m;
  }

  template <class A>
  static const counted_ptr<storage>& storage_of(const A& a) {
    return a.st_;
  }
};

/// Constructs `[first, last)` at `out` the way `std::vector` relocates on reallocation: moved when
/// the move constructor cannot throw (or there is no copy constructor), copied otherwise, so that
/// a throw leaves the source as it was. On a throw the elements made so far are destroyed.
template <class T>
void relocate_objects(T* first, T* last, T* out) {
  if constexpr (std::is_nothrow_move_constructible_v<T> || !std::is_copy_constructible_v<T>) {
    std::uninitialized_move(first, last, out);
  } else {
    std::uninitialized_copy(first, last, out);
  }
}

/// Element-by-element copy between arrays of one value type and any layouts (host memory).
template <class D, class Src>
void copy_elements_host(const D& dst_view, const Src& src_view, index_t n) {
  for (index_t i = 0; i < n; ++i) dst_view[i] = static_cast<typename D::value_type>(src_view[i]);
}

}  // namespace detail

// ---- conversions ---------------------------------------------------------------------------------

template <class T, int Rank, memory_space Space>
template <memory_space Other>
  requires(Space != memory_space::dynamic && Other == memory_space::dynamic)
array<T, Rank, Space>::array(const array<T, Rank, Other>& other) {
  other.require_valid("conversion");
  auto check = [&](const auto& a) {
    const allocator_id id = a.allocator();
    const bool ok = id >= 0 ? allocator_from_id(id).space() == Space
                            : (tack::host_accessible(Space) == a.host_accessible());
    if (!ok) {
      throw value_error("tack::array: cannot view " + other.describe() + " as memory space " +
                        std::string(to_string(Space)) + ": its memory is " +
                        (id >= 0 ? std::string(to_string(allocator_from_id(id).space()))
                                 : std::string("borrowed")));
    }
  };
  if constexpr (can_be_soa) {
    if (other.layout_ == tack::layout::soa) {
      layout_ = tack::layout::soa;
      auto block = detail::make_counted<typename decltype(comps_)::block>();
      for (std::size_t c = 0; c < block->size(); ++c) {
        const auto& part = (*other.comps_.parts)[c];
        check(part);
        (*block)[c] = typename decltype(comps_)::part(part);
      }
      comps_.parts = std::move(block);
      offset_ = other.offset_;
      shape_ = other.shape_;
      view_ = other.view_;
      return;
    }
  }
  check(other);
  st_ = other.st_;
  offset_ = other.offset_;
  shape_ = other.shape_;
  view_ = other.view_;
}

template <class T, int Rank, memory_space Space>
array<const typename array<T, Rank, Space>::value_type, Rank, Space>
array<T, Rank, Space>::as_const() const {
  require_valid("as_const");
  using C = array<const value_type, Rank, Space>;
  C c = detail::array_access::uninitialized<C>();
  c.layout_ = layout_;
  if constexpr (can_be_soa) {
    if (layout_ == tack::layout::soa) c.comps_.parts = comps_.parts;
  }
  c.st_ = st_;
  c.offset_ = offset_;
  c.shape_ = shape_;
  c.view_ = view_;
  return c;
}

// ---- views ---------------------------------------------------------------------------------------

template <class T, int Rank, memory_space Space>
array<T, Rank, Space> array<T, Rank, Space>::slice_rows(const slice& s, const char* op) const {
  require_valid(op);
  if (s.step != 1) {
    throw value_error(std::string("tack::array::") + op + ": step " + std::to_string(s.step) +
                      " on " + describe() +
                      ": a row view is one contiguous stretch; use tack::arrays::strided(a, " +
                      std::to_string(s.step) + ") to read every " + std::to_string(s.step) +
                      "th element without copying");
  }
  const auto sh = shape();
  const auto b = s.resolve(sh[0]);
  // A view whose rows are gone is refused here.
  if constexpr (can_be_soa) {
    if (layout_ == tack::layout::soa && view_) require_soa_window(op);
  }
  if (layout_ == tack::layout::aos) (void)element_pointer(op);
  if (b.first == b.last) {
    // An empty range gives a new empty array (same trailing shape, layout, device and allocator).
    auto empty_shape = sh;
    empty_shape[0] = 0;
    options o;
    o.device = device();
    o.layout = layout_;
    if (allocator() >= 0) o.allocator = allocator();
    return detail::array_access::allocate<T, Rank, Space>(empty_shape, o, device());
  }
  return row_window(sh, b);
}

template <class T, int Rank, memory_space Space>
template <int NewRank>
array<T, NewRank, Space> array<T, Rank, Space>::reshape(const tack::shape<NewRank>& new_shape) const {
  require_valid("reshape");
  for (int d = 0; d < NewRank; ++d) {
    if (new_shape[d] < 0) {
      throw value_error("tack::array::reshape: extent " + std::to_string(new_shape[d]) +
                        " in shape " + shape_string(new_shape.extents) + " is negative");
    }
  }
  (void)detail::checked_nbytes("tack::array::reshape", new_shape.extents, sizeof(value_type),
                               element_name(), new_shape[0]);
  if (new_shape.size() != size()) {
    throw value_error("tack::array::reshape: cannot view " + describe() + " (" +
                      std::to_string(size()) + " elements) as shape " +
                      shape_string(new_shape.extents) + " (" + std::to_string(new_shape.size()) +
                      " elements)");
  }
  using R = array<T, NewRank, Space>;
  R out = detail::array_access::uninitialized<R>();
  out.layout_ = layout_;
  if constexpr (can_be_soa) {
    if (layout_ == tack::layout::soa) {
      auto block = detail::make_counted<typename decltype(out.comps_)::block>();
      for (int c = 0; c < components_per_element; ++c) {
        (*block)[static_cast<std::size_t>(c)] =
            detail::array_access::mutable_alias(soa_part(c, "reshape").reshape(new_shape));
      }
      out.comps_.parts = std::move(block);
      return out;
    }
  }
  (void)element_pointer("reshape");
  out.st_ = st_;
  out.offset_ = offset_;
  out.view_ = true;
  out.shape_ = new_shape.extents;
  return out;
}

template <class T, int Rank, memory_space Space>
template <class U>
auto array<T, Rank, Space>::as_elements() const {
  static_assert(is_scalar_v<value_type>,
                "tack::array::as_elements: the array must have scalar elements; use as_scalars() "
                "first to view vector or matrix elements as scalars");
  static_assert(!is_scalar_v<U> && std::is_same_v<scalar_t<U>, value_type>,
                "tack::array::as_elements<U>: U must be a tack::vec or tack::mat of the array's "
                "scalar type (as_elements<tack::vec3f>() on a float array)");
  constexpr int consumed = is_vec_v<U> ? 1 : 2;
  static_assert(Rank > consumed,
                "tack::array::as_elements: the array needs the component extents after at least "
                "one element dimension: (n, 3) for vec3, (n, 3, 3) for mat3");
  constexpr int NewRank = Rank - consumed;
  using E = std::conditional_t<is_const, const U, U>;
  using R = array<E, NewRank, Space>;
  require_aos("as_elements");
  const auto sh = shape();
  bool ok;
  if constexpr (is_vec_v<U>) {
    ok = sh[Rank - 1] == components_v<U>;
  } else {
    ok = sh[Rank - 2] == U::rows && sh[Rank - 1] == U::cols;
  }
  if (!ok) {
    throw value_error("tack::array::as_elements: the trailing extents of " + describe() +
                      " do not match " + std::string(dtype_of<U>().name()) + " (" +
                      [] {
                        if constexpr (is_vec_v<U>) {
                          return std::to_string(components_v<U>);
                        } else {
                          return std::to_string(U::rows) + ", " + std::to_string(U::cols);
                        }
                      }() +
                      ")");
  }
  (void)element_pointer("as_elements");
  R out = detail::array_access::uninitialized<R>();
  out.st_ = st_;
  out.offset_ = offset_;
  out.view_ = true;
  for (int d = 0; d < NewRank; ++d) out.shape_[static_cast<std::size_t>(d)] = sh[static_cast<std::size_t>(d)];
  return out;
}

template <class T, int Rank, memory_space Space>
auto array<T, Rank, Space>::as_scalars() const {
  static_assert(!is_scalar_v<value_type>,
                "tack::array::as_scalars: the elements are already scalars");
  constexpr int extra = is_vec_v<value_type> ? 1 : 2;
  constexpr int NewRank = Rank + extra;
  static_assert(NewRank <= max_rank, "tack::array::as_scalars: the result would exceed rank 8");
  using R = array<const_scalar, NewRank, Space>;
  require_aos("as_scalars");
  (void)element_pointer("as_scalars");
  R out = detail::array_access::uninitialized<R>();
  out.st_ = st_;
  out.offset_ = offset_;
  out.view_ = true;
  auto s = storage_shape();
  for (int d = 0; d < NewRank; ++d) out.shape_[static_cast<std::size_t>(d)] = s[static_cast<std::size_t>(d)];
  return out;
}

// ---- host values and copies ----------------------------------------------------------------------

template <class T, int Rank, memory_space Space>
std::vector<typename array<T, Rank, Space>::value_type> array<T, Rank, Space>::to_vector() const {
  require_valid("to_vector");
  if constexpr (holds_objects) {
    const value_type* p = element_pointer("to_vector");
    return std::vector<value_type>(p, p + size());
  }
  const index_t n = size();
  std::vector<value_type> out(static_cast<std::size_t>(n));
  if constexpr (can_be_soa) {
    if (layout_ == tack::layout::soa) {
      for (int c = 0; c < components_per_element; ++c) {
        auto part = soa_part(c, "to_vector").to_vector();
        for (index_t i = 0; i < n; ++i) {
          detail::set_component(out[static_cast<std::size_t>(i)], c, part[static_cast<std::size_t>(i)]);
        }
      }
      return out;
    }
  }
  if constexpr (std::is_same_v<value_type, bool>) {
    // std::vector<bool> packs bits and has no data(): stage the bytes.
    std::unique_ptr<bool[]> staging(new bool[static_cast<std::size_t>(n)]);
    detail::copy_bytes(staging.get(), true, element_pointer("to_vector"), host_accessible(), nbytes());
    out.assign(staging.get(), staging.get() + n);
  } else {
    detail::copy_bytes(out.data(), true, element_pointer("to_vector"), host_accessible(), nbytes());
  }
  return out;
}

namespace detail {
/// Calls `f(first, last)` with each byte range an array's elements occupy: one for AoS, one per
/// component for SoA (for overlap checks).
template <class A, class F>
void for_each_byte_range(const A& a, F&& f) {
  if (a.layout() == tack::layout::aos) {
    if (a.size() > 0) {
      const auto r = array_access::byte_range(a);
      f(r.first, r.second);
    }
  } else if constexpr (A::can_be_soa) {
    for (const auto& c : a.components()) for_each_byte_range(c, f);
  }
}

/// Whether any element byte of `a` is also one of `b` (same memory seen through two handles).
/// `bool shared = tack::detail::arrays_overlap(a.rows(1, 6), a.rows(0, 5));  // true`
template <class A, class B>
bool arrays_overlap(const A& a, const B& b) {
  bool found = false;
  for_each_byte_range(a, [&](std::uintptr_t af, std::uintptr_t al) {
    for_each_byte_range(b, [&](std::uintptr_t bf, std::uintptr_t bl) {
      found = found || (af < bl && bf < al);
    });
  });
  return found;
}

/// Where the scalars of a non-empty array of vector, matrix or scalar elements are, for
/// `copy_components`: `bases` receives the first scalar of each component.
template <class A>
component_span component_span_of(const A& a, std::vector<std::uintptr_t>& bases) {
  using V = typename A::value_type;
  using S = scalar_t<V>;
  constexpr int comps = components_v<V>;
  bases.resize(static_cast<std::size_t>(comps));
  std::ptrdiff_t stride = static_cast<std::ptrdiff_t>(sizeof(V));
  if (a.layout() == tack::layout::aos) {
    const std::uintptr_t first = array_access::byte_range(a).first;
    for (int c = 0; c < comps; ++c) bases[static_cast<std::size_t>(c)] = first + static_cast<std::size_t>(c) * sizeof(S);
  } else if constexpr (A::can_be_soa) {
    const auto parts = a.components();
    for (int c = 0; c < comps; ++c) {
      bases[static_cast<std::size_t>(c)] = array_access::byte_range(parts[static_cast<std::size_t>(c)]).first;
    }
    stride = static_cast<std::ptrdiff_t>(sizeof(S));
  }
  return {bases.data(), comps, stride, scalar_kind_of_v<S>, a.host_accessible(),
          a.device().is_cuda() ? a.device().id() : 0};
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
    return;
  }
  if (!(dst.layout() == tack::layout::aos && src.layout() == tack::layout::aos) &&
      arrays_overlap(dst, src)) {
    copy_array(dst, src.copy().as_const());
    return;
  }
  if (dst.layout() == tack::layout::aos && src.layout() == tack::layout::aos) {
    copy_bytes(reinterpret_cast<void*>(array_access::byte_range(dst).first), dst.host_accessible(),
               reinterpret_cast<const void*>(array_access::byte_range(src).first),
               src.host_accessible(), dst.nbytes());
  } else if constexpr (D::can_be_soa) {
    if (dst.layout() == tack::layout::soa && src.layout() == tack::layout::soa) {
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
}  // namespace detail

template <class T, int Rank, memory_space Space>
array<typename array<T, Rank, Space>::value_type, Rank, Space>
array<T, Rank, Space>::copy(const options& opts) const {
  require_valid("copy");
  if constexpr (holds_objects) {
    // Copy-constructed, as std::vector's copy is (same device and allocator unless `opts` says).
    const tack::device d = opts.device.value_or(device());
    const allocator_id id =
        opts.allocator ? *opts.allocator : (d == device() && allocator() >= 0 ? allocator() : -1);
    const value_type* src = element_pointer("copy");
    return detail::array_access::allocate_objects<value_type, Rank, Space>(
        shape(), d, id, opts, [src](value_type* p, std::size_t n) { std::uninitialized_copy_n(src, n, p); });
  }
  options o = opts;
  const tack::device d = opts.device.value_or(device());
  if (!o.layout) o.layout = layout_;
  if (!o.allocator && d == device() && allocator() >= 0) o.allocator = allocator();
  o.device = d;
  using R = array<value_type, Rank, Space>;
  R out = detail::array_access::allocate<value_type, Rank, Space>(shape(), o, d);
  detail::copy_array(out, as_const());
  return out;
}

template <class T, int Rank, memory_space Space>
array<T, Rank, Space> array<T, Rank, Space>::to_device(tack::device d) const {
  require_valid("to_device");
  if (d == device()) return *this;
  const allocator_id id = allocator();
  if (id >= 0 && allocator_from_id(id).space() == memory_space::unified) return *this;
  if (d.is_cpu() && host_accessible() && device().is_cpu()) return *this;
  return array(copy({.device = d}));
}

template <class T, int Rank, memory_space Space>
template <class U>
auto array<T, Rank, Space>::astype() const {
  using R = typename detail::astype_result<U, value_type>::type;
  static_assert(element<R>, "tack::array::astype<U>: U must be a scalar, tack::vec or tack::mat");
  static_assert(detail::astype_dimensions<value_type, R>::same);
  using Out = array<R, Rank, Space>;
  options o;
  o.device = device();
  o.layout = layout_;
  Out out = detail::array_access::allocate<R, Rank, Space>(shape(), o, device());
  if (!host_accessible()) {
    // Device memory: converted on the device, one component-wise kernel (memory/copy.hpp).
    if (size() > 0) {
      std::vector<std::uintptr_t> dst_bases, src_bases;
      detail::copy_components(detail::component_span_of(out, dst_bases),
                              detail::component_span_of(as_const(), src_bases),
                              static_cast<std::size_t>(size()));
    }
    out.bump_version();
    return out;
  }
  auto values = to_vector();
  std::vector<R> converted(values.size());
  using RS = scalar_t<R>;
  for (std::size_t i = 0; i < values.size(); ++i) {
    for (int c = 0; c < components_per_element; ++c) {
      detail::set_component(converted[i], c,
                            detail::convert_scalar<RS>(detail::get_component<scalar_type>(values[i], c)));
    }
  }
  copyto(out, std::span<const R>(converted));
  return out;
}

template <class T, int Rank, memory_space Space>
void array<T, Rank, Space>::fill(const value_type& value) const
  requires(!std::is_const_v<T>)
{
  require_valid("fill");
  require_writable("fill");
  if constexpr (can_be_soa) {
    if (layout_ == tack::layout::soa) {
      for (int c = 0; c < components_per_element; ++c) {
        soa_part(c, "fill").fill(detail::get_component<scalar_type>(value, c));
      }
      return;
    }
  }
  T* p = element_pointer("fill");
  if constexpr (holds_objects) {
    std::fill(p, p + size(), value);
    bump_version();
    return;
  }
  if (host_accessible()) {
    detail::host_fill(p, &value, sizeof(value_type), static_cast<std::size_t>(size()));
  } else {
    detail::device_fill(p, &value, sizeof(value_type), static_cast<std::size_t>(size()));
  }
  bump_version();
}

template <class T, int Rank, memory_space Space>
typename array<T, Rank, Space>::exported_memory array<T, Rank, Space>::export_memory() const {
  static_assert(!holds_objects,
                "tack::array::export_memory: the elements are not trivially copyable (std::string, "
                "a class with constructors or destructors): their bytes mean nothing outside the "
                "array; share the array handle itself, or copy the values out with to_vector()");
  require_valid("export_memory");
  if (layout_ == tack::layout::soa) {
    throw value_error("tack::array::export_memory: " + describe() +
                      " is structure-of-arrays and has no single allocation; export its "
                      "components(), or copy({.layout = tack::layout::aos})");
  }
  if (view_) {
    throw value_error("tack::array::export_memory: " + describe() +
                      " is a view and has no allocation of its own; export the root, or a copy()");
  }
  return {st_->buf.data(), st_->used_bytes(), st_->buf.device(), st_->buf.allocator(),
          st_->buf.keep_alive()};
}

// ---- growth --------------------------------------------------------------------------------------

template <class T, int Rank, memory_space Space>
index_t array<T, Rank, Space>::capacity() const {
  require_valid("capacity");
  if constexpr (can_be_soa) {
    if (layout_ == tack::layout::soa) {
      if (view_) return shape_[0];
      index_t cap = std::numeric_limits<index_t>::max();
      for (auto& c : *comps_.parts) cap = std::min(cap, c.capacity());
      return cap;
    }
  }
  if (view_) return shape_[0];
  return st_->capacity_rows();
}

template <class T, int Rank, memory_space Space>
void array<T, Rank, Space>::set_resize_ratio(double r) const {
  require_valid("set_resize_ratio");
  if (!(r >= 1.0) || !std::isfinite(r)) {
    throw value_error("tack::array::set_resize_ratio: ratio " + std::to_string(r) + " for " +
                      describe() + " must be a finite number >= 1 (growth must not shrink)");
  }
  if constexpr (can_be_soa) {
    if (layout_ == tack::layout::soa) {
      for (auto& c : *comps_.parts) c.set_resize_ratio(r);
      return;
    }
  }
  st_->resize_ratio = r;
}

template <class T, int Rank, memory_space Space>
void array<T, Rank, Space>::refuse_if_exported(const char* op) const {
  // The storage is the buffer's one holder unless the allocation was exported (export_memory's
  // keep-alive token, a DLPack tensor): moving the elements to a new block would free the memory
  // those still point to, so growth that needs a new block waits until they are released (as
  // Python refuses to resize a bytearray with live buffer exports).
  if (const long holders = st_->buf.use_count(); holders > 1) {
    refuse_growth(op, "a new allocation is needed, and the current one is exported (" +
                          std::to_string(holders - 1) +
                          " keep-alive token(s) or DLPack tensor(s) still point to it); release "
                          "them first, or reserve() the capacity before exporting");
  }
}

template <class T, int Rank, memory_space Space>
void array<T, Rank, Space>::reallocate_root(std::size_t new_bytes, const char* op) const {
  refuse_if_exported(op);
  st_->buf.reallocate(new_bytes, st_->used_bytes());
}

template <class T, int Rank, memory_space Space>
index_t array<T, Rank, Space>::new_capacity_rows(index_t needed, const char* op) const {
  const index_t cap = st_->capacity_rows();
  auto sh = root_shape();
  sh[0] = needed;
  (void)detail::checked_nbytes(std::string("tack::array::") + op, sh, sizeof(value_type),
                               element_name(), needed);
  // Axom's rule: new_capacity = max(capacity * ratio + 0.5, needed), at most the rows that fit.
  const std::size_t rb = st_->row_bytes();
  const auto max_rows = static_cast<index_t>(rb ? detail::max_array_bytes / rb : detail::max_array_bytes);
  const double grown = static_cast<double>(cap) * st_->resize_ratio + 0.5;
  return grown >= static_cast<double>(max_rows) ? max_rows
                                                : std::max(static_cast<index_t>(grown), needed);
}

template <class T, int Rank, memory_space Space>
void array<T, Rank, Space>::grow_to(index_t needed, const char* op) const {
  if (needed <= st_->capacity_rows()) return;
  reallocate_root(static_cast<std::size_t>(new_capacity_rows(needed, op)) * st_->row_bytes(), op);
}

template <class T, int Rank, memory_space Space>
index_t array<T, Rank, Space>::grown_rows(index_t n, index_t count, const char* op) const {
  if (count > std::numeric_limits<index_t>::max() - n) {
    auto sh = shape();
    throw value_error(std::string("tack::array::") + op + ": adding " + std::to_string(count) +
                      " rows to " + describe() + " gives a shape whose element count overflows "
                      "(shape " + shape_string(sh) + " + " + std::to_string(count) + " rows)");
  }
  return n + count;
}

template <class T, int Rank, memory_space Space>
void array<T, Rank, Space>::insert_rows(index_t pos, index_t count, const value_type* values,
                                        std::size_t nvalues, const char* op) const {
  if constexpr (holds_objects) {
    // insert_values: rows of elements (insert(pos, count, value) goes to insert_object_rows).
    (void)nvalues;
    insert_object_rows(pos, count, values, false, op);
  } else {
    // Fast path: appending one element to a host rank-1 root with room (push_back's common case).
    if constexpr (Rank == 1) {
      if (st_ && !view_ && count == 1 && nvalues == 1 && st_->growable && st_->buf.host_accessible() &&
          !st_->buf.read_only()) {
        const index_t n = st_->extents[0];
        if (pos == n && static_cast<std::size_t>(n + 1) * sizeof(value_type) <= st_->buf.nbytes()) {
          static_cast<value_type*>(st_->buf.data())[n] = *values;
          st_->extents[0] = n + 1;
          st_->buf.bump_version();
          return;
        }
      }
    }
    require_growable(op);
    const index_t n = extent(0);
    if (pos < 0 || pos > n) {
      throw index_error(std::string("tack::array::") + op + ": position " + std::to_string(pos) +
                        " is outside [0, " + std::to_string(n) + "] for " + describe());
    }
    if (count == 0) return;
    if constexpr (can_be_soa) {
      if (layout_ == tack::layout::soa) {
        std::vector<scalar_type> part(nvalues);
        for (int c = 0; c < components_per_element; ++c) {
          for (std::size_t k = 0; k < nvalues; ++k) part[k] = detail::get_component<scalar_type>(values[k], c);
          comps_[c].insert_rows(pos, count, part.data(), nvalues, op);
        }
        return;
      }
    }
    const std::size_t rb = st_->row_bytes();
    const std::size_t row_elems = rb / sizeof(value_type);
    // Values that live in this array's own allocation (push_back(a[0]), insert(pos, a[k]), a span
    // over a's elements) are read before growth frees the block and before the shift moves them,
    // as std::vector does: one value is copied always (it is cheap), several when they alias.
    value_type one{};
    std::vector<value_type> own;
    if (nvalues == 1) {
      one = *values;
      values = &one;
    } else if (st_->buf.host_accessible()) {
      const auto first = reinterpret_cast<std::uintptr_t>(st_->buf.data());
      const auto v = reinterpret_cast<std::uintptr_t>(values);
      if (first != 0 && v + nvalues * sizeof(value_type) > first && v < first + st_->buf.nbytes()) {
        own.assign(values, values + nvalues);
        values = own.data();
      }
    }
    grow_to(grown_rows(n, count, op), op);  // may throw out_of_memory: nothing has changed yet
    auto* base = static_cast<unsigned char*>(st_->buf.data());
    const bool host = st_->buf.host_accessible();
    detail::move_bytes(base + static_cast<std::size_t>(pos + count) * rb,
                       base + static_cast<std::size_t>(pos) * rb,
                       static_cast<std::size_t>(n - pos) * rb, host);
    void* dst = base + static_cast<std::size_t>(pos) * rb;
    const std::size_t total = static_cast<std::size_t>(count) * row_elems;
    if (nvalues == total) {
      detail::copy_bytes(dst, host, values, true, total * sizeof(value_type));
    } else if (host) {
      detail::host_fill(dst, values, sizeof(value_type), total);
    } else {
      detail::device_fill(dst, values, sizeof(value_type), total);
    }
    st_->extents[0] = n + count;
    st_->buf.bump_version();
  }
}

template <class T, int Rank, memory_space Space>
void array<T, Rank, Space>::insert_values(index_t pos, std::span<const value_type> values,
                                          const char* op) const {
  require_valid(op);
  const std::size_t row = row_elements();
  if (row == 0 || values.size() % row != 0) {
    throw value_error(std::string("tack::array::") + op + ": " + std::to_string(values.size()) +
                      " values do not make whole rows of " + std::to_string(row) +
                      " elements for " + describe());
  }
  const auto count = static_cast<index_t>(values.size() / row);
  if (count == 0) {
    require_growable(op);
    return;
  }
  insert_rows(pos, count, values.data(), values.size(), op);
}

template <class T, int Rank, memory_space Space>
void array<T, Rank, Space>::erase_rows(index_t first, index_t last, const char* op) const {
  require_growable(op);
  const index_t n = extent(0);
  if (first < 0 || last > n || first > last) {
    throw index_error(std::string("tack::array::") + op + ": rows [" + std::to_string(first) +
                      ", " + std::to_string(last) + ") are not within [0, " + std::to_string(n) +
                      ") of " + describe());
  }
  if (first == last) return;
  if constexpr (can_be_soa) {
    if (layout_ == tack::layout::soa) {
      for (auto& c : *comps_.parts) c.erase_rows(first, last, op);
      return;
    }
  }
  if constexpr (holds_objects) {
    // std::vector::erase: the tail is move-assigned down, then the last elements are destroyed.
    value_type* p = object_data();
    const std::size_t row = row_objects();
    const auto at = [row](index_t r) { return static_cast<std::size_t>(r) * row; };
    std::move(p + at(last), p + at(n), p + at(first));
    std::destroy(p + at(n - (last - first)), p + at(n));
  } else {
    const std::size_t rb = st_->row_bytes();
    auto* base = static_cast<unsigned char*>(st_->buf.data());
    detail::move_bytes(base + static_cast<std::size_t>(first) * rb,
                       base + static_cast<std::size_t>(last) * rb,
                       static_cast<std::size_t>(n - last) * rb, st_->buf.host_accessible());
  }
  st_->extents[0] = n - (last - first);
  st_->buf.bump_version();
}

template <class T, int Rank, memory_space Space>
void array<T, Rank, Space>::resize_rows(index_t n, const value_type& value, const char* op) const {
  require_growable(op);
  if (n < 0) {
    throw value_error(std::string("tack::array::") + op + ": size " + std::to_string(n) +
                      " is negative for " + describe());
  }
  if constexpr (can_be_soa) {
    if (layout_ == tack::layout::soa) {
      for (int c = 0; c < components_per_element; ++c) {
        comps_[c].resize_rows(
            n, detail::get_component<scalar_type>(value, c), op);
      }
      return;
    }
  }
  const index_t old = st_->extents[0];
  if (n > old) {
    const value_type fill_value = value;  // `value` may be an element of this array (resize(n, a[0]))
    grow_to(n, op);
    const std::size_t rb = st_->row_bytes();
    auto* base = static_cast<unsigned char*>(st_->buf.data());
    const std::size_t count = static_cast<std::size_t>(n - old) * (rb / sizeof(value_type));
    void* dst = base + static_cast<std::size_t>(old) * rb;
    if (st_->buf.host_accessible()) {
      detail::host_fill(dst, &fill_value, sizeof(value_type), count);
    } else {
      detail::device_fill(dst, &fill_value, sizeof(value_type), count);
    }
  }
  st_->extents[0] = n;
  st_->buf.bump_version();
}

template <class T, int Rank, memory_space Space>
void array<T, Rank, Space>::reserve(index_t n) const
  requires(!std::is_const_v<T>)
{
  require_growable("reserve");
  if (n < 0) {
    throw value_error("tack::array::reserve: capacity " + std::to_string(n) + " is negative for " +
                      describe());
  }
  if constexpr (can_be_soa) {
    if (layout_ == tack::layout::soa) {
      for (auto& c : *comps_.parts) c.reserve(n);
      return;
    }
  }
  if (n > st_->capacity_rows()) {
    auto sh = root_shape();
    sh[0] = n;
    const std::size_t bytes = detail::checked_nbytes("tack::array::reserve", sh, sizeof(value_type),
                                                     element_name(), n);
    if constexpr (holds_objects) {
      (void)bytes;
      const std::size_t used = static_cast<std::size_t>(st_->extents[0]) * row_objects();
      reallocate_objects(n, used, 0, [](value_type*) {}, "reserve");
    } else {
      reallocate_root(bytes, "reserve");
    }
  }
}

template <class T, int Rank, memory_space Space>
void array<T, Rank, Space>::shrink() const
  requires(!std::is_const_v<T>)
{
  require_growable("shrink");
  if constexpr (can_be_soa) {
    if (layout_ == tack::layout::soa) {
      for (auto& c : *comps_.parts) c.shrink();
      return;
    }
  }
  if (st_->buf.nbytes() > st_->used_bytes()) {
    if constexpr (holds_objects) {
      // Relocated as growth relocates (strong guarantee), where std::vector::shrink_to_fit moves.
      const std::size_t used = static_cast<std::size_t>(st_->extents[0]) * row_objects();
      reallocate_objects(st_->extents[0], used, 0, [](value_type*) {}, "shrink");
    } else {
      reallocate_root(st_->used_bytes(), "shrink");
    }
  }
}

// ---- object elements -----------------------------------------------------------------------------
// The algorithms of libstdc++'s std::vector, so that object elements are constructed, copied,
// moved, assigned and destroyed as often, and a throw leaves what std::vector leaves. Counts are
// in elements: a row of a rank-N array holds row_objects() of them. After every step the root's
// extents[0] counts the rows whose elements are alive, so the storage destroys exactly those.

template <class T, int Rank, memory_space Space>
template <class Make>
void array<T, Rank, Space>::reallocate_objects(index_t new_cap_rows, std::size_t gap_at,
                                               std::size_t gap, Make&& make, const char* op) const {
  refuse_if_exported(op);
  const std::size_t n = static_cast<std::size_t>(st_->extents[0]) * row_objects();
  st_->buf.reallocate_objects(
      static_cast<std::size_t>(new_cap_rows) * st_->row_bytes(), [&](void* to, void* from) {
        auto* fresh = static_cast<value_type*>(to);
        auto* old = static_cast<value_type*>(from);
        make(fresh + gap_at);  // first, while the old block (maybe holding the value) is intact
        try {
          detail::relocate_objects(old, old + gap_at, fresh);
        } catch (...) {
          std::destroy_n(fresh + gap_at, gap);
          throw;
        }
        try {
          detail::relocate_objects(old + gap_at, old + n, fresh + gap_at + gap);
        } catch (...) {
          std::destroy_n(fresh, gap_at + gap);
          throw;
        }
        std::destroy_n(old, n);
      });
}

template <class T, int Rank, memory_space Space>
template <bool CopyFirst, class... Args>
void array<T, Rank, Space>::emplace_object(index_t pos, const char* op, Args&&... args) const {
  require_growable(op);
  const index_t n = st_->extents[0];
  if (pos < 0 || pos > n) {
    throw index_error(std::string("tack::array::") + op + ": position " + std::to_string(pos) +
                      " is outside [0, " + std::to_string(n) + "] for " + describe());
  }
  value_type* p = object_data();
  if (n < st_->capacity_rows()) {
    // Room left: at the end, construct in place; before it, construct the last element from its
    // neighbour, shift the rest up by move assignment, then assign the new value.
    const auto shift_in = [&](value_type&& x) {
      std::construct_at(p + n, std::move(p[n - 1]));
      st_->extents[0] = n + 1;
      std::move_backward(p + pos, p + n - 1, p + n);
      p[pos] = std::move(x);
    };
    if (pos == n) {
      std::construct_at(p + n, std::forward<Args>(args)...);
      st_->extents[0] = n + 1;
    } else if constexpr (!CopyFirst && sizeof...(Args) == 1 &&
                         (std::is_same_v<std::remove_cvref_t<Args>, value_type> && ...) &&
                         (!std::is_lvalue_reference_v<Args> && ...)) {
      shift_in(std::move(args)...);
    } else {
      // The value may be an element that the shift moves: made before anything moves.
      value_type x(std::forward<Args>(args)...);
      shift_in(std::move(x));
    }
  } else {
    reallocate_objects(
        new_capacity_rows(grown_rows(n, 1, op), op), static_cast<std::size_t>(pos), 1,
        [&](value_type* at) { std::construct_at(at, std::forward<Args>(args)...); }, op);
    st_->extents[0] = n + 1;
  }
  st_->buf.bump_version();
}

template <class T, int Rank, memory_space Space>
void array<T, Rank, Space>::insert_object_rows(index_t pos, index_t count, const value_type* values,
                                               bool fill, const char* op) const {
  require_growable(op);
  const index_t n = st_->extents[0];
  if (pos < 0 || pos > n) {
    throw index_error(std::string("tack::array::") + op + ": position " + std::to_string(pos) +
                      " is outside [0, " + std::to_string(n) + "] for " + describe());
  }
  if (count == 0) return;
  const index_t needed = grown_rows(n, count, op);
  const std::size_t row = row_objects();
  const std::size_t e_n = static_cast<std::size_t>(n) * row;
  const std::size_t e_pos = static_cast<std::size_t>(pos) * row;
  const std::size_t e_cnt = static_cast<std::size_t>(count) * row;
  const auto set_alive = [&](std::size_t elements) {
    st_->extents[0] = row ? static_cast<index_t>(elements / row) : n + count;
  };
  value_type* p = object_data();
  std::vector<value_type> own;
  if (!fill && e_cnt) {
    // Values inside this array's block are copied first (std::vector leaves that undefined).
    const std::size_t cap_elems = static_cast<std::size_t>(st_->capacity_rows()) * row;
    std::less<const value_type*> before;
    if (p && !before(values, p) && before(values, p + cap_elems)) {
      own.assign(values, values + e_cnt);
      values = own.data();
    }
  }
  if (needed > st_->capacity_rows()) {
    reallocate_objects(
        new_capacity_rows(needed, op), e_pos, e_cnt,
        [&](value_type* at) {
          if (fill) {
            std::uninitialized_fill_n(at, e_cnt, *values);
          } else {
            std::uninitialized_copy_n(values, e_cnt, at);
          }
        },
        op);
    set_alive(e_n + e_cnt);
    st_->buf.bump_version();
    return;
  }
  const std::size_t after = e_n - e_pos;
  if (fill) {
    const value_type x(*values);  // the value may be an element that the shift moves
    if (after > e_cnt) {
      std::uninitialized_move(p + e_n - e_cnt, p + e_n, p + e_n);
      set_alive(e_n + e_cnt);
      std::move_backward(p + e_pos, p + e_n - e_cnt, p + e_n);
      std::fill(p + e_pos, p + e_pos + e_cnt, x);
    } else {
      std::uninitialized_fill_n(p + e_n, e_cnt - after, x);
      set_alive(e_n + e_cnt - after);
      std::uninitialized_move(p + e_pos, p + e_n, p + e_n + e_cnt - after);
      set_alive(e_n + e_cnt);
      std::fill(p + e_pos, p + e_n, x);
    }
  } else if (after > e_cnt) {
    std::uninitialized_move(p + e_n - e_cnt, p + e_n, p + e_n);
    set_alive(e_n + e_cnt);
    std::move_backward(p + e_pos, p + e_n - e_cnt, p + e_n);
    std::copy(values, values + e_cnt, p + e_pos);
  } else {
    std::uninitialized_copy(values + after, values + e_cnt, p + e_n);
    set_alive(e_n + e_cnt - after);
    std::uninitialized_move(p + e_pos, p + e_n, p + e_n + e_cnt - after);
    set_alive(e_n + e_cnt);
    std::copy(values, values + after, p + e_pos);
  }
  st_->buf.bump_version();
}

template <class T, int Rank, memory_space Space>
void array<T, Rank, Space>::resize_objects(index_t n, const value_type* value, const char* op) const {
  require_growable(op);
  if (n < 0) {
    throw value_error(std::string("tack::array::") + op + ": size " + std::to_string(n) +
                      " is negative for " + describe());
  }
  const index_t old = st_->extents[0];
  const std::size_t row = row_objects();
  const std::size_t e_old = static_cast<std::size_t>(old) * row;
  const std::size_t e_new = static_cast<std::size_t>(n) * row;
  value_type* p = object_data();
  if (n > old) {
    if (n <= st_->capacity_rows()) {
      if (value) {
        const value_type x(*value);  // resize(n, x) inserts copies of a copy, as std::vector does
        std::uninitialized_fill(p + e_old, p + e_new, x);
      } else {
        std::uninitialized_value_construct(p + e_old, p + e_new);
      }
    } else {
      reallocate_objects(
          new_capacity_rows(n, op), e_old, e_new - e_old,
          [&](value_type* at) {
            if (value) {
              std::uninitialized_fill_n(at, e_new - e_old, *value);
            } else {
              std::uninitialized_value_construct_n(at, e_new - e_old);
            }
          },
          op);
    }
  } else if (n < old) {
    std::destroy(p + e_new, p + e_old);
  }
  st_->extents[0] = n;
  st_->buf.bump_version();
}

}  // namespace tack
