// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
#pragma once
/// @file `tack::array<T, Rank, Space>`: the reference-counted handle to typed storage,
/// its row views (§5) and its Axom-style growth.

#include <tack/array/shape.hpp>
#include <tack/core/error.hpp>
#include <tack/core/index.hpp>
#include <tack/core/slice.hpp>
#include <tack/detail/counted_ptr.hpp>
#include <tack/detail/storage.hpp>
#include <tack/memory/buffer.hpp>
#include <tack/memory/copy.hpp>
#include <tack/memory/memory_space.hpp>
#include <tack/types/dtype.hpp>
#include <tack/types/item.hpp>
#include <tack/view/array_view.hpp>
#include <tack/view/soa_view.hpp>
#include <tack/view/view.hpp>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <future>
#include <initializer_list>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace tack {

template <class T, int Rank = 1, memory_space Space = memory_space::dynamic>
class array;

namespace detail {
struct array_access;  // factories and friends construct arrays through this

/// The components of a SoA array (only vector and matrix arrays have them): the component arrays
/// it was made of, in one block shared by every copy, view and `as_const()` of the array. A row
/// view is the same block plus a row window (the handle's offset and shape), so making one
/// allocates nothing and costs one reference-count increment, as for an AoS view. The block
/// holds mutable handles whatever `T`'s constness; the const handle type restores it on the way out.
template <class T, int Rank, memory_space Space, bool HasComponents>
struct soa_components {
  using part = array<scalar_t<std::remove_const_t<T>>, Rank, Space>;
  using block = std::array<part, static_cast<std::size_t>(components_v<std::remove_const_t<T>>)>;
  counted_ptr<const block> parts;

  /// Component `c` as given at construction (without the handle's row window).
  const part& operator[](int c) const { return (*parts)[static_cast<std::size_t>(c)]; }
};
template <class T, int Rank, memory_space Space>
struct soa_components<T, Rank, Space, false> {};

/// A host snapshot being copied (`to_vector_async`): the copy runs on its own thread, which holds
/// a handle of the array, so the array stays alive until the copy ends. Destroying the result
/// without `get()` waits for the copy. `auto p = a.to_vector_async(); work(); auto v = p.get();`
template <class V>
class pending_vector {
public:
  explicit pending_vector(std::future<std::vector<V>> f) : future_(std::move(f)) {}
  /// Waits for the copy and returns the values (once); an error of the copy is thrown here.
  std::vector<V> get() { return future_.get(); }
  /// Waits for the copy without taking the values.
  void wait() const { future_.wait(); }
  /// Whether the copy has ended (`get()` will not wait).
  bool ready() const { return future_.wait_for(std::chrono::seconds(0)) == std::future_status::ready; }

private:
  std::future<std::vector<V>> future_;
};

/// Below this many bytes `to_vector_async` copies before it returns: starting a thread costs
/// more than such a copy.
inline constexpr std::size_t async_copy_min_bytes = std::size_t{256} << 10;

/// The C++ name of `T` as the compiler spells it (`"std::string"` for `std::string`), for the
/// messages about arrays of types that have no `tack::dtype`. `detail::type_name<particle>()`
template <class T>
constexpr std::string_view type_name() noexcept {
  if constexpr (std::is_same_v<T, std::string>) {
    return "std::string";
  } else {
    // GCC and Clang: "... type_name() [with T = particle; ...]" or "... [T = particle]".
    const std::string_view f = __PRETTY_FUNCTION__;
    const auto start = f.find("T = ");
    if (start == std::string_view::npos) return "object";
    const auto first = start + 4;
    const auto last = f.find_first_of(";]", first);
    return f.substr(first, last == std::string_view::npos ? f.size() - first : last - first);
  }
}

/// Whether `T` is an element that lives as bytes (trivially copyable: scalars, `vec`, `mat`,
/// plain structs): copies are `memcpy`, growth moves bytes, nothing is constructed or destroyed.
/// Other element types (`std::string`, classes with constructors or destructors) are objects,
/// handled as `std::vector` handles them, in host memory only.
template <class T>
inline constexpr bool bytes_element_v = std::is_trivially_copyable_v<T>;

/// Copies `n` objects from `src` to `dst` by assignment with `memmove`'s result where the ranges
/// overlap (forward when `dst` is before `src`, backward otherwise).
template <class T>
void assign_objects(T* dst, const T* src, std::size_t n) {
  if (dst == src || n == 0) return;
  if (std::less<const T*>{}(dst, src)) {
    std::copy(src, src + n, dst);
  } else {
    std::copy_backward(src, src + n, dst + n);
  }
}
}  // namespace detail

/// A handle to typed storage on a device: a shared root buffer, a row offset, a shape and a layout.
/// Copying a handle shares the memory (like `Kokkos::View` or a NumPy array); `copy()` duplicates.
/// `auto a = tack::zeros<float>({6, 3}); auto middle = a.rows(2, 4); middle.fill(1.0f);`
///
/// @tparam T     element type (scalar, `vec`, `mat`); `const T` gives the read-only handle type
/// @tparam Rank  number of dimensions (1..8)
/// @tparam Space a compile-time memory space (Axom), or `dynamic` (decided by the allocator id)
template <class T, int Rank, memory_space Space>
class array {
  static_assert(Rank >= 1 && Rank <= max_rank, "tack::array: Rank must be between 1 and 8");
  static_assert(std::is_object_v<T> && !std::is_array_v<T> && !std::is_volatile_v<T> &&
                    std::is_nothrow_destructible_v<std::remove_const_t<T>>,
                "tack::array: the element type must be an object type with a non-throwing "
                "destructor (a scalar, tack::vec, tack::mat, std::string, a class); not a "
                "reference, void, volatile or a C array (use std::array or tack::vec)");
  static_assert(std::is_trivially_copyable_v<std::remove_cv_t<T>> ||
                    (Space != memory_space::device && Space != memory_space::unified),
                "tack::array: elements in device memory must be trivially copyable (kernels and "
                "device copies move them as bytes); keep std::string and classes with "
                "constructors or destructors in host memory (memory_space::host or dynamic with "
                "a host allocator), or store a trivially copyable struct");

public:
  /// The element type without const.
  using value_type = std::remove_const_t<T>;
  using element_type = T;
  /// The component type (`float` for `vec3f`).
  using scalar_type = scalar_t<value_type>;
  static constexpr int rank = Rank;
  static constexpr memory_space space = Space;
  /// Whether this is the read-only handle type `array<const T, Rank>`.
  static constexpr bool is_const = std::is_const_v<T>;
  /// Components per element (1, N or R*C).
  static constexpr int components_per_element = components_v<value_type>;
  /// Whether SoA storage is possible (vector and matrix elements).
  static constexpr bool can_be_soa = is_vec_v<value_type> || is_mat_v<value_type>;
  /// Whether the elements are objects (not trivially copyable: `std::string`, classes with
  /// constructors or destructors), constructed, copied, moved and destroyed as `std::vector`
  /// does; such arrays live in host memory. Trivially copyable elements are copied as bytes.
  static constexpr bool holds_objects = !detail::bytes_element_v<value_type>;
  using const_scalar = std::conditional_t<is_const, const scalar_type, scalar_type>;
  /// The type of one component array of a SoA array.
  using component_array = array<const_scalar, Rank, Space>;
  /// What host element access returns: `T&` for AoS, a proxy for SoA.
  using aos_kernel_view = tack::view<T, Rank>;
  using soa_kernel_view =
      std::conditional_t<can_be_soa, tack::soa_view<std::conditional_t<can_be_soa, T, vec<float, 2>>, Rank>, void>;

  /// An empty, growable rank-`Rank` array on the default device (like `std::vector`).
  array() { init_root(default_device_for_space(), {}, 0, std::nullopt); }

  array(const array&) = default;
  array& operator=(const array&) & = default;
  /// Moving leaves the source without storage: any use of it is a `value_error`.
  array(array&& other) noexcept = default;
  array& operator=(array&& other) & noexcept = default;
  /// There is no slice assignment: `a.rows(i, j) = x` would only rebind a temporary handle.
  template <class U>
  void operator=(U&&) && {
    static_assert(sizeof(U) == 0,
                  "tack::array: assigning to a temporary handle (a.rows(i, j) = x, a[slice] = x) "
                  "would only rebind it; tack has no slice assignment: use "
                  "tack::copyto(a.rows(i, j), x) or a.rows(i, j).fill(v)");
  }

  /// `array<const T>` from `array<T>` (the same memory, read-only handle type).
  template <class U>
    requires(is_const && std::is_same_v<U, value_type>)
  array(const array<U, Rank, Space>& other) { *this = other.as_const(); }

  /// A fixed-space array from a dynamic one: checks at run time that the memory is in `Space`
  /// (`value_error` otherwise), as Axom's conversion does.
  template <memory_space Other>
    requires(Space != memory_space::dynamic && Other == memory_space::dynamic)
  explicit array(const array<T, Rank, Other>& other);

  // ---- metadata ------------------------------------------------------------------------------

  /// The extents. `a.shape()[0]` is the number of rows.
  std::array<index_t, Rank> shape() const {
    require_valid("shape");
    if constexpr (can_be_soa) {
      if (layout_ == tack::layout::soa) return view_ ? shape_ : comps_[0].shape();
    }
    if (view_) return shape_;
    std::array<index_t, Rank> s{};
    for (int d = 0; d < Rank; ++d) s[static_cast<std::size_t>(d)] = st_->extents[static_cast<std::size_t>(d)];
    return s;
  }
  /// Extent `d` (0 <= d < Rank).
  index_t extent(int d) const {
    if (d < 0 || d >= Rank) {
      throw index_error("tack::array::extent: dimension " + std::to_string(d) + " of " +
                        describe() + " does not exist");
    }
    return shape()[static_cast<std::size_t>(d)];
  }
  /// Number of elements.
  index_t size() const {
    index_t n = 1;
    for (auto e : shape()) n *= e;
    return n;
  }
  /// Whether the array has no elements.
  bool empty() const { return size() == 0; }
  /// The runtime element type descriptor (`"vec3(f32)"`); tack element types only.
  static constexpr tack::dtype dtype() noexcept
    requires element<value_type>
  {
    return dtype_of<value_type>();
  }
  /// The component type descriptor (`"f32"` for a `vec3f` array); tack element types only.
  static constexpr tack::dtype scalar_dtype() noexcept
    requires element<value_type>
  {
    return dtype_of<scalar_type>();
  }
  /// The element type's name in messages: the dtype's (`"vec3(f32)"`), else the C++ type's
  /// (`"std::string"`).
  static constexpr std::string_view element_name() noexcept {
    if constexpr (element<value_type>) {
      return dtype_of<value_type>().name();
    } else {
      return detail::type_name<value_type>();
    }
  }
  /// Bytes per component.
  static constexpr std::size_t scalar_size() noexcept { return sizeof(scalar_type); }
  /// The shape with the component axes appended: `(n, 3)` for `vec3f`, `(n, 3, 3)` for `mat3f`.
  auto storage_shape() const {
    constexpr int extra = is_vec_v<value_type> ? 1 : (is_mat_v<value_type> ? 2 : 0);
    std::array<index_t, static_cast<std::size_t>(Rank + extra)> s{};
    auto sh = shape();
    for (int d = 0; d < Rank; ++d) s[static_cast<std::size_t>(d)] = sh[static_cast<std::size_t>(d)];
    if constexpr (is_vec_v<value_type>) {
      s[Rank] = components_v<value_type>;
    } else if constexpr (is_mat_v<value_type>) {
      s[Rank] = value_type::rows;
      s[Rank + 1] = value_type::cols;
    }
    return s;
  }
  /// The device that holds the memory.
  tack::device device() const {
    require_valid("device");
    if constexpr (can_be_soa) {
      if (layout_ == tack::layout::soa) return comps_[0].device();
    }
    return st_->buf.device();
  }
  /// AoS or SoA.
  tack::layout layout() const noexcept { return layout_; }
  /// Bytes of the elements (not the capacity).
  std::size_t nbytes() const { return static_cast<std::size_t>(size()) * sizeof(value_type); }
  /// The allocator id (-1 for borrowed memory; the first component's for SoA).
  allocator_id allocator() const {
    require_valid("allocator");
    if constexpr (can_be_soa) {
      if (layout_ == tack::layout::soa) return comps_[0].allocator();
    }
    return st_->buf.allocator();
  }
  /// Whether this handle is a view of another array's memory (rows, reshape, element view).
  bool is_view() const noexcept {
    if constexpr (can_be_soa) {
      if (layout_ == tack::layout::soa) return view_ || (comps_.parts && comps_[0].is_view());
    }
    return view_;
  }
  /// Whether the memory refuses writes (imported read-only, borrowed without `writable`).
  bool read_only() const {
    require_valid("read_only");
    if constexpr (can_be_soa) {
      if (layout_ == tack::layout::soa) {
        for (auto& c : *comps_.parts)
          if (c.read_only()) return true;
        return false;
      }
    }
    return st_->buf.read_only();
  }
  /// For a read-only SoA array, the first component whose memory refuses writes; -1 otherwise
  /// (AoS, or no read-only component). `int c = soa_array.read_only_component();`
  int read_only_component() const {
    require_valid("read_only_component");
    if constexpr (can_be_soa) {
      if (layout_ == tack::layout::soa) {
        for (int c = 0; c < components_per_element; ++c) {
          if (comps_[c].read_only()) return c;
        }
      }
    }
    return -1;
  }
  /// The write version of the root allocation, shared by the root and all its views: it changes
  /// whenever anything writes through any of them. For SoA, the sum of the components' versions.
  std::uint64_t version() const {
    require_valid("version");
    if constexpr (can_be_soa) {
      if (layout_ == tack::layout::soa) {
        std::uint64_t v = 0;
        for (auto& c : *comps_.parts) v += c.version();
        return v;
      }
    }
    return st_->buf.version();
  }
  /// Marks the memory as written (kernels and host writes call this; users rarely need to).
  void bump_version() const {
    require_valid("bump_version");
    if constexpr (can_be_soa) {
      if (layout_ == tack::layout::soa) {
        for (auto& c : *comps_.parts) c.bump_version();
        return;
      }
    }
    st_->buf.bump_version();
  }
  /// The component arrays of a SoA array (empty for AoS). `auto x = pos.components()[0];`
  std::vector<component_array> components() const {
    if constexpr (can_be_soa) {
      if (layout_ == tack::layout::soa) {
        std::vector<component_array> out;
        out.reserve(static_cast<std::size_t>(components_per_element));
        for (int c = 0; c < components_per_element; ++c) out.push_back(soa_part(c, "components"));
        return out;
      }
    }
    return {};
  }
  /// Whether the handle has storage (false after a move).
  bool valid() const noexcept {
    if constexpr (can_be_soa) {
      if (layout_ == tack::layout::soa) return static_cast<bool>(comps_.parts);
    }
    return static_cast<bool>(st_);
  }
  /// Whether host code may read and write the memory directly.
  bool host_accessible() const {
    require_valid("host_accessible");
    if constexpr (can_be_soa) {
      if (layout_ == tack::layout::soa) return comps_[0].host_accessible();
    }
    return st_->buf.host_accessible();
  }

  /// `array<vec3(f32), 1> shape (100) on cuda:0, view of rows [2, 4) of 6`: how errors name arrays.
  std::string describe() const {
    std::string s = "array<" + std::string(element_name()) + ", " + std::to_string(Rank) + ">";
    if (!valid()) return s + " (moved from: no storage)";
    s += " shape " + shape_string(shape()) + " on " + device().str();
    if (layout_ == tack::layout::soa) s += ", soa";
    if (is_view()) s += ", " + view_description();
    if (read_only()) s += ", read-only";
    return s;
  }

  // ---- host element access -------------------------------------------------------------------

  /// Element `(i, j, …)` (exactly `Rank` indices) of host-accessible memory; index_error when out
  /// of range, device_error for device memory, read_only_error for writes through a read-only
  /// array (read it through `as_const()`). `a(1, 2) = 5.0f;`
  template <std::integral... I>
    requires(sizeof...(I) == Rank)
  decltype(auto) operator()(I... idx) const {
    const std::array<index_t, Rank> ix{static_cast<index_t>(idx)...};
    auto sh = shape();
    index_t flat = 0;
    for (int d = 0; d < Rank; ++d) {
      const auto du = static_cast<std::size_t>(d);
      if (ix[du] < 0 || ix[du] >= sh[du]) {
        throw index_error("tack::array::operator(): index " + std::to_string(ix[du]) +
                          " out of range for dimension " + std::to_string(d) + " (extent " +
                          std::to_string(sh[du]) + ") of " + describe());
      }
      flat = flat * sh[du] + ix[du];
    }
    return element_at(flat, "operator()");
  }
  /// Element `k` of the flat (row-major) element sequence; `a[tack::slice(i, j)]` is a row view.
  decltype(auto) operator[](index_t k) const {
    const index_t n = size();
    if (k < 0 || k >= n) {
      throw index_error("tack::array::operator[]: index " + std::to_string(k) +
                        " out of range for " + std::to_string(n) + " elements of " + describe());
    }
    return element_at(k, "operator[]");
  }
  /// Rows of the first dimension as a view (Python bounds; step 1 only).
  array operator[](const slice& s) const { return slice_rows(s, "operator[]"); }

  /// The first element (AoS, host or device memory). `float* p = a.data();`
  T* data() const {
    require_aos("data");
    if constexpr (!is_const) require_writable("data");
    return element_pointer("data");
  }

  /// Iterators over the full buffer of an AoS array in host memory, at every rank: the elements
  /// in row-major order, as `a[k]` and Axom's `begin()`/`end()` see them.
  /// `for (auto& x : m) x += 1;  // every element of a 2-D array`
  T* begin() const {
    require_host("begin");
    return data();
  }
  T* end() const { return begin() + size(); }

  /// The array as an Axom-style view (`array_view<T, Rank, S2>`: pointer and shape, spacing 1),
  /// for functions and kernels that take one by value: `void f(tack::array_view<int>); f(a);`.
  /// A view for a fixed memory space `S2` from a `dynamic` array checks at run time that the
  /// memory is in `S2` (`value_error` otherwise), as Axom's conversion does. SoA arrays have no
  /// single pointer (`value_error`); a read-only array converts only to `array_view<const T>`.
  /// Like kernel views, the result is a snapshot that growth of the root invalidates.
  template <class U, memory_space S2>
    requires(std::is_same_v<std::remove_const_t<U>, value_type> && (std::is_const_v<U> || !is_const))
  operator array_view<U, Rank, S2>() const {
    static_assert(S2 == Space || Space == memory_space::dynamic || S2 == memory_space::dynamic,
                  "tack::array: an array whose memory space is fixed converts to an array_view of "
                  "the same space (or dynamic); copy it to the other space with to_device() or "
                  "copy({.allocator = tack::get_allocator(space)})");
    require_aos("array_view");
    if constexpr (!std::is_const_v<U>) require_writable("array_view");
    if constexpr (S2 != memory_space::dynamic && Space == memory_space::dynamic) {
      require_space_of_view(S2);
    }
    return array_view<U, Rank, S2>(element_pointer("array_view"), shape(), 1);
  }

  // ---- views ---------------------------------------------------------------------------------

  /// Rows `i` to `j` of the first dimension over the same memory (Python bounds: negative from the
  /// end, clamped). A view of a view is a view of the root, and keeps the root alive.
  /// `auto middle = a.rows(2, 4);`
  array rows(index_t i, index_t j) const {
    // Fast path for the common case (a non-empty range of a handle whose rows all exist): a
    // handful of loads and stores and one reference-count increment; everything else (errors,
    // empty ranges) goes through slice_rows.
    if (st_ && layout_ == tack::layout::aos) [[likely]] {
      // Spelled out rather than through row_window: GCC then keeps the handle in registers.
      // What remains is the reference count's atomic pair.
      const index_t n = view_ ? shape_[0] : st_->extents[0];
      const auto b = slice(i, j).resolve(n);
      std::size_t row_bytes = sizeof(value_type);
      for (int d = 1; d < Rank; ++d) {
        const auto k = static_cast<std::size_t>(d);
        row_bytes *= static_cast<std::size_t>(view_ ? shape_[k] : st_->extents[k]);
      }
      const std::size_t first = offset_ + static_cast<std::size_t>(b.first) * row_bytes;
      const std::size_t end = offset_ + static_cast<std::size_t>(n) * row_bytes;
      if (b.first < b.last && (!view_ || end <= st_->used_bytes())) {
        // Everything is read before the reference count's atomic increment: a load after a
        // locked instruction waits for it (a 2-D view would reload its second extent).
        std::array<index_t, Rank> sh = view_ ? shape_ : root_shape();
        sh[0] = b.last - b.first;
        array out(uninitialized_tag{});
        out.offset_ = first;
        out.view_ = true;
        out.shape_ = sh;
        out.st_ = st_;
        return out;
      }
    } else if constexpr (can_be_soa) {
      if (layout_ == tack::layout::soa && comps_.parts) {
        // The same component block with a row window (offset_ counts rows): no allocation.
        const auto& part = comps_[0];  // a root or a view, never moved from (the block is const)
        const index_t n = view_ ? shape_[0] : (part.view_ ? part.shape_[0] : part.st_->extents[0]);
        const auto b = slice(i, j).resolve(n);
        if (b.first < b.last && (!view_ || soa_window_exists())) {
          std::array<index_t, Rank> sh = shape_;  // read before the atomic increment (above)
          if (!view_) {
            for (std::size_t d = 0; d < static_cast<std::size_t>(Rank); ++d) {
              sh[d] = part.view_ ? part.shape_[d] : part.st_->extents[d];
            }
          }
          sh[0] = b.last - b.first;
          array out(uninitialized_tag{});
          out.layout_ = tack::layout::soa;
          out.offset_ = offset_ + static_cast<std::size_t>(b.first);
          out.view_ = true;
          out.shape_ = sh;
          out.comps_.parts = comps_.parts;
          return out;
        }
      }
    }
    return slice_rows(slice(i, j), "rows");
  }

  /// The same memory under another shape (sizes must match); a view. `auto m = a.reshape({2, 3});`
  template <int NewRank>
  array<T, NewRank, Space> reshape(const index_t (&extents)[NewRank]) const {
    return reshape(tack::shape<NewRank>(std::to_array(extents)));
  }
  template <int NewRank>
  array<T, NewRank, Space> reshape(const tack::shape<NewRank>& new_shape) const;

  /// A scalar array whose trailing extent(s) match `U`'s components, viewed as an array of `U`:
  /// an `(n, 3)` float array as `n` `vec3f`. `auto v = pts.as_elements<tack::vec3f>();`
  template <class U>
  auto as_elements() const;
  /// The reverse of `as_elements`: a `vec3f` array of shape `(n)` as floats of shape `(n, 3)`.
  auto as_scalars() const;

  /// The same memory through the read-only handle type `array<const T, Rank>`.
  array<const value_type, Rank, Space> as_const() const;

  /// The kernel view of an AoS array (pointer + extents; trivially copyable; a snapshot that
  /// growth of the root invalidates). `auto v = a.view(); v[i] = 1;`
  aos_kernel_view view() const {
    require_aos("view");
    if constexpr (!is_const) require_writable("view");
    return make_aos_view();
  }
  /// The kernel view of a SoA array (one pointer per component).
  auto soa_view() const
    requires(can_be_soa)
  {
    require_valid("soa_view");
    if (layout_ != tack::layout::soa) {
      throw value_error("tack::array::soa_view: " + describe() +
                        " is interleaved (aos); use view(), or copy({.layout = tack::layout::soa})");
    }
    if constexpr (!is_const) require_writable("soa_view");
    return make_soa_view();
  }

  /// Kernel-form protocol (core/kernel_form.hpp): calls `f(view())` or `f(soa_view())` by layout.
  template <class F>
  decltype(auto) visit_kernel_form(F&& f) const {
    require_valid("launch");
    if constexpr (can_be_soa) {
      if (layout_ == tack::layout::soa) return std::forward<F>(f)(make_soa_view());
    }
    return std::forward<F>(f)(make_aos_view());
  }
  /// Kernel-form protocol: this array is the one array it holds.
  template <class G>
  void for_each_array(G&& g) const {
    g(*this);
  }

  // ---- host values ---------------------------------------------------------------------------

  /// A host snapshot of the elements in row-major order (like NumPy's `numpy()`): for vector and
  /// matrix elements the components follow each other, whatever the layout.
  std::vector<value_type> to_vector() const;
  /// Starts the copy of `to_vector()` on another thread and returns at once; `get()` waits for it.
  /// The copy holds a handle of the array (it stays alive); writes to the array or growth before
  /// `get()` race with the copy. Arrays below 256 KiB are copied before it returns.
  /// `auto pending = a.to_vector_async(); other_work(); auto v = pending.get();`
  detail::pending_vector<value_type> to_vector_async() const {
    require_valid("to_vector_async");
    if (nbytes() < detail::async_copy_min_bytes) {
      std::promise<std::vector<value_type>> done;
      done.set_value(to_vector());
      return detail::pending_vector<value_type>(done.get_future());
    }
    return detail::pending_vector<value_type>(
        std::async(std::launch::async, [self = *this] { return self.to_vector(); }));
  }

  // ---- copies --------------------------------------------------------------------------------

  /// Independent storage with the same values: same device, layout and allocator unless `opts`
  /// names others. `auto b = a.copy({.layout = tack::layout::soa});`
  array<value_type, Rank, Space> copy(const options& opts = {}) const;
  /// The array itself when its memory is usable on `d`, else a copy on `d`.
  array to_device(tack::device d) const;
  /// A copy with another element type: a scalar `U` keeps vector/matrix dimensions and changes the
  /// precision (`vec3f` → `vec3d` for `U = double`); an element `U` must have the same component
  /// dimensions (`mat2f` → `mat2d`; `vec4f` → `mat2f` does not compile). Floating point to integer
  /// saturates, NaN gives 0. `auto i = a.astype<std::int32_t>();`
  template <class U>
  auto astype() const;
  /// Sets every element to `value`. `a.fill(tack::vec3f{1, 0, 0});`
  void fill(const value_type& value) const
    requires(!std::is_const_v<T>);

  /// A root hands out its allocation: pointer, bytes, device, and a token that keeps it alive.
  /// While a token (or a DLPack tensor) lives, growth that needs a new block is refused: moving
  /// the elements would leave the exported pointer dangling. `auto m = a.export_memory();`
  struct exported_memory {
    void* data;
    std::size_t nbytes;
    tack::device device;
    allocator_id allocator;
    std::shared_ptr<void> keep_alive;
  };
  /// Refused on a view (it has no allocation of its own: export the root, or a copy) and on SoA.
  exported_memory export_memory() const;

  // ---- growth (Axom's Array) -----------------------------------------------------------------

  /// Rows the allocation can hold without reallocating.
  index_t capacity() const;
  /// The growth ratio (default 2.0).
  double resize_ratio() const {
    require_valid("resize_ratio");
    if constexpr (can_be_soa) {
      if (layout_ == tack::layout::soa) return comps_[0].resize_ratio();
    }
    return st_->resize_ratio;
  }
  /// Sets the growth ratio; `r < 1` (or not finite) is a `value_error`.
  void set_resize_ratio(double r) const;
  /// Appends one element (rank 1). `a.push_back(4);`
  void push_back(const value_type& v) const
    requires(Rank == 1 && !std::is_const_v<T>)
  {
    if constexpr (holds_objects) {
      emplace_object<false>(end_row("push_back"), "push_back", v);
    } else {
      // Fast path, inline: a host AoS root with room left.
      if (st_ && !view_) {
        detail::storage& s = *st_;
        const index_t n = s.extents[0];
        if (static_cast<std::size_t>(n + 1) * sizeof(value_type) <= s.buf.nbytes() && s.growable &&
            s.buf.host_accessible() && !s.buf.read_only()) [[likely]] {
          static_cast<value_type*>(s.buf.data())[n] = v;
          s.extents[0] = n + 1;
          s.buf.bump_version();
          return;
        }
      }
      insert_rows(size(), 1, &v, 1, "push_back");
    }
  }
  /// Appends an element moved from `v` (rank 1; object elements such as `std::string`, which
  /// `std::vector` would move too). `a.push_back(std::move(name));`
  void push_back(value_type&& v) const
    requires(Rank == 1 && !std::is_const_v<T> && holds_objects)
  {
    emplace_object<false>(end_row("push_back"), "push_back", std::move(v));
  }
  /// Constructs one element from `args` at the end (rank 1; object elements are constructed in
  /// place).
  template <class... Args>
  void emplace_back(Args&&... args) const
    requires(Rank == 1 && !std::is_const_v<T>)
  {
    if constexpr (holds_objects) {
      emplace_object<false>(end_row("emplace_back"), "emplace_back", std::forward<Args>(args)...);
    } else {
      const value_type v(std::forward<Args>(args)...);
      insert_rows(size(), 1, &v, 1, "emplace_back");
    }
  }
  /// Inserts `value` before position `pos` (rank 1). `a.insert(2, 6);`
  void insert(index_t pos, const value_type& value) const
    requires(Rank == 1 && !std::is_const_v<T>)
  {
    if constexpr (holds_objects) {
      // `value` may be an element of this array: it is copied before anything moves.
      emplace_object<true>(pos, "insert", value);
    } else {
      insert_rows(pos, 1, &value, 1, "insert");
    }
  }
  /// Inserts an element moved from `value` before `pos` (rank 1; object elements).
  void insert(index_t pos, value_type&& value) const
    requires(Rank == 1 && !std::is_const_v<T> && holds_objects)
  {
    emplace_object<false>(pos, "insert", std::move(value));
  }
  /// Inserts `count` copies of `value` before `pos` (rank 1).
  void insert(index_t pos, index_t count, const value_type& value) const
    requires(Rank == 1 && !std::is_const_v<T>)
  {
    if (count < 0) {
      throw value_error("tack::array::insert: count " + std::to_string(count) +
                        " is negative for " + describe());
    }
    if constexpr (holds_objects) {
      insert_object_rows(pos, count, &value, true, "insert");
    } else {
      insert_rows(pos, count, &value, 1, "insert");
    }
  }
  /// Inserts elements before row `pos`; for rank > 1 the values are whole rows along the first
  /// dimension (their count must be a multiple of the row size).
  void insert(index_t pos, std::span<const value_type> values) const
    requires(!std::is_const_v<T>)
  {
    insert_values(pos, values, "insert");
  }
  void insert(index_t pos, std::initializer_list<value_type> values) const
    requires(!std::is_const_v<T>)
  {
    insert_values(pos, std::span<const value_type>(values.begin(), values.size()), "insert");
  }
  /// Appends elements (rank > 1: whole rows). `a.append({1, 2, 3});`
  void append(std::span<const value_type> values) const
    requires(!std::is_const_v<T>)
  {
    insert_values(extent(0), values, "append");
  }
  void append(std::initializer_list<value_type> values) const
    requires(!std::is_const_v<T>)
  {
    append(std::span<const value_type>(values.begin(), values.size()));
  }
  /// Appends the elements of another array (same trailing shape), from any device or layout.
  template <class U, memory_space S2>
  void append(const array<U, Rank, S2>& other) const
    requires(!std::is_const_v<T> && std::is_same_v<std::remove_const_t<U>, value_type>)
  {
    auto values = other.to_vector();
    insert_values(extent(0), std::span<const value_type>(values), "append");
  }
  /// Removes row `pos`.
  void erase(index_t pos) const
    requires(!std::is_const_v<T>)
  {
    erase_rows(pos, pos + 1, "erase");
  }
  /// Removes rows `[first, last)`.
  void erase(index_t first, index_t last) const
    requires(!std::is_const_v<T>)
  {
    erase_rows(first, last, "erase");
  }
  /// Sets the number of rows to `n`; new rows are value-initialized (zero) or `value`.
  void resize(index_t n) const
    requires(!std::is_const_v<T>)
  {
    if constexpr (holds_objects) {
      resize_objects(n, nullptr, "resize");
    } else {
      resize_rows(n, value_type{}, "resize");
    }
  }
  void resize(index_t n, const value_type& value) const
    requires(!std::is_const_v<T>)
  {
    if constexpr (holds_objects) {
      resize_objects(n, &value, "resize");
    } else {
      resize_rows(n, value, "resize");
    }
  }
  /// Makes room for `n` rows without changing the size (never shrinks).
  void reserve(index_t n) const
    requires(!std::is_const_v<T>);
  /// Returns unused capacity (capacity becomes the size).
  void shrink() const
    requires(!std::is_const_v<T>);
  /// Removes every row; keeps the capacity.
  void clear() const
    requires(!std::is_const_v<T>)
  {
    if (size() == 0 && extent(0) == 0) {
      require_growable("clear");
      return;
    }
    erase_rows(0, extent(0), "clear");
  }

private:
  template <class, int, memory_space>
  friend class array;
  friend struct detail::array_access;

  detail::counted_ptr<detail::storage> st_;  // AoS: the root's shared state (null for SoA)
  std::size_t offset_ = 0;                   // views: bytes from the root's first byte (SoA: rows)
  std::array<index_t, Rank> shape_{};        // a view's own shape (roots read the storage)
  bool view_ = false;
  tack::layout layout_ = tack::layout::aos;
  [[no_unique_address]] detail::soa_components<T, Rank, Space, can_be_soa> comps_;

  struct uninitialized_tag {};
  explicit array(uninitialized_tag) {}

  static tack::device default_device_for_space() {
    if constexpr (Space == memory_space::device || Space == memory_space::unified) {
      return cuda(0);
    } else if constexpr (Space == memory_space::host || Space == memory_space::pinned) {
      return cpu();
    } else {
      return default_device();
    }
  }
  static allocator_id allocator_for(tack::device d, std::optional<allocator_id> requested) {
    if (requested) return *requested;
    if constexpr (Space != memory_space::dynamic) return get_allocator(Space, d);
    return default_allocator(d);
  }

  // Refuses a negative extent or capacity (value_error naming the shape).
  static void check_root_shape(const std::array<index_t, Rank>& s, index_t capacity_rows) {
    for (int dd = 0; dd < Rank; ++dd) {
      if (s[static_cast<std::size_t>(dd)] < 0) {
        throw value_error("tack::array: extent " + std::to_string(s[static_cast<std::size_t>(dd)]) +
                          " of dimension " + std::to_string(dd) + " in shape " + shape_string(s) +
                          " is negative");
      }
    }
    if (capacity_rows < 0) {
      throw value_error("tack::array: capacity " + std::to_string(capacity_rows) + " is negative");
    }
  }

  // Allocates root storage for `s` with room for `max(s[0], capacity_rows)` rows (options::capacity
  // is a total); contents uninitialized (object elements: value-initialized, as std::vector(n)).
  // A shape whose bytes overflow is a value_error.
  void init_root(tack::device d, std::array<index_t, Rank> s, index_t capacity_rows,
                 std::optional<allocator_id> alloc) {
    if constexpr (holds_objects) {
      init_object_root(d, s, capacity_rows, alloc, [](value_type* p, std::size_t n) {
        std::uninitialized_value_construct_n(p, n);
      });
      return;
    }
    check_root_shape(s, capacity_rows);
    const index_t cap_rows = std::max(s[0], capacity_rows);
    const std::size_t bytes =
        detail::checked_nbytes("tack::array", s, sizeof(value_type), element_name(), cap_rows);
    auto st = detail::make_counted<detail::storage>();
    st->rank = Rank;
    st->element_bytes = sizeof(value_type);
    for (int dd = 0; dd < Rank; ++dd) st->extents[static_cast<std::size_t>(dd)] = s[static_cast<std::size_t>(dd)];
    const allocator_id id = allocator_for(d, alloc);
    check_space(id, "allocate");
    st->buf = buffer::allocate_with(id, bytes);
    st_ = std::move(st);
  }

  // A root of object elements: like init_root, then `construct(p, n)` makes its `n` elements (it
  // destroys what it made and throws on failure; the storage then holds none and frees the block).
  template <class Construct>
  void init_object_root(tack::device d, const std::array<index_t, Rank>& s, index_t capacity_rows,
                        std::optional<allocator_id> alloc, Construct&& construct) {
    check_root_shape(s, capacity_rows);
    const index_t cap_rows = std::max(s[0], capacity_rows);
    const std::size_t bytes =
        detail::checked_nbytes("tack::array", s, sizeof(value_type), element_name(), cap_rows);
    auto st = detail::make_counted<detail::storage>();
    st->rank = Rank;
    st->element_bytes = sizeof(value_type);
    for (int dd = 1; dd < Rank; ++dd) st->extents[static_cast<std::size_t>(dd)] = s[static_cast<std::size_t>(dd)];
    st->extents[0] = 0;  // no element is alive until `construct` returns
    const allocator_id id = allocator_for(d, alloc);
    check_space(id, "allocate");
    require_object_memory(id, "allocate");
    st->buf = buffer::allocate_with(id, bytes);
    st->destroy = &detail::destroy_elements<value_type>;
    st_ = std::move(st);
    construct(object_data(), static_cast<std::size_t>(s[0]) * (st_->row_bytes() / sizeof(value_type)));
    st_->extents[0] = s[0];
  }

  // Object elements are constructed and destroyed by host code: their memory must be host memory.
  static void require_object_memory(allocator_id id, const char* op) {
    const memory_space sp = allocator_from_id(id).space();
    if (sp != memory_space::host && sp != memory_space::pinned) {
      throw value_error(std::string("tack::array<") + std::string(element_name()) + ", " +
                        std::to_string(Rank) + ">::" + op + ": allocator " + std::to_string(id) +
                        " gives " + std::string(to_string(sp)) + " memory, but " +
                        std::string(element_name()) +
                        " is not trivially copyable: its elements are objects that host code "
                        "constructs and destroys, so they live in host memory only; allocate on "
                        "the CPU, or store a trivially copyable type");
    }
  }

  // The run-time half of converting a dynamic array to an array_view of the fixed space `s2`.
  void require_space_of_view(memory_space s2) const {
    const allocator_id id = allocator();
    const bool ok = id >= 0 ? allocator_from_id(id).space() == s2
                            : tack::host_accessible(s2) == host_accessible();
    if (!ok) {
      throw value_error("tack::array: cannot view " + describe() + " as an array_view of memory "
                        "space " + std::string(to_string(s2)) + ": its memory is " +
                        (id >= 0 ? std::string(to_string(allocator_from_id(id).space()))
                                 : std::string("borrowed")));
    }
  }

  static void check_space(allocator_id id, const char* op) {
    if constexpr (Space != memory_space::dynamic) {
      auto sp = allocator_from_id(id).space();
      if (sp != Space) {
        throw value_error(std::string("tack::array<") + std::string(element_name()) + ", " +
                          std::to_string(Rank) + ", " + std::string(to_string(Space)) + ">::" + op +
                          ": allocator " + std::to_string(id) + " gives " +
                          std::string(to_string(sp)) + " memory");
      }
    } else {
      (void)id;
      (void)op;
    }
  }

  void require_valid(const char* op) const {
    if (!valid()) {
      throw value_error(std::string("tack::array::") + op + ": array<" + std::string(element_name()) +
                        ", " + std::to_string(Rank) +
                        "> has no storage (it was moved from); assign an array to it first");
    }
  }
  void require_aos(const char* op) const {
    require_valid(op);
    if (layout_ == tack::layout::soa) {
      throw value_error(std::string("tack::array::") + op + ": " + describe() +
                        " is structure-of-arrays and has no single pointer; use components(), "
                        "soa_view(), or copy({.layout = tack::layout::aos})");
    }
  }
  void require_host(const char* op) const {
    if (!host_accessible()) {
      throw device_error(std::string("tack::array::") + op + ": " + describe() +
                         " is in device memory, which host code cannot touch; use to_vector() or "
                         "to_device(tack::cpu())");
    }
  }
  void require_writable(const char* op) const {
    if (read_only()) {
      std::string which;
      if constexpr (can_be_soa) {
        if (const int c = read_only_component(); c >= 0) {
          which = " (component " + std::to_string(c) + ", " + comps_[c].describe() + ")";
        }
      }
      throw read_only_error(std::string("tack::array::") + op + ": " + describe() + which +
                            " is read-only; read it through as_const(), or copy() it to write");
    }
  }
  void require_growable(const char* op) const {
    require_valid(op);
    if constexpr (can_be_soa) {
      if (layout_ == tack::layout::soa) {
        if (is_view()) refuse_growth(op, "it is a view");
        for (auto& c : *comps_.parts) c.require_growable(op);
        return;
      }
    }
    if (view_) refuse_growth(op, "it is a view (" + view_description() + "); grow the root");
    if (!st_->growable) refuse_growth(op, "its memory is borrowed");
    if (st_->buf.read_only()) {
      throw read_only_error(std::string("tack::array::") + op + ": " + describe() +
                            " is read-only and cannot grow");
    }
  }
  [[noreturn]] void refuse_growth(const char* op, const std::string& why) const {
    throw value_error(std::string("tack::array::") + op + ": " + describe() + " cannot grow: " + why);
  }

  std::array<index_t, Rank> root_shape() const noexcept {
    std::array<index_t, Rank> s{};
    for (int d = 0; d < Rank; ++d) s[static_cast<std::size_t>(d)] = st_->extents[static_cast<std::size_t>(d)];
    return s;
  }

  // Bytes per row of an AoS handle of shape `sh`.
  static std::size_t row_bytes_of(const std::array<index_t, Rank>& sh) noexcept {
    std::size_t n = sizeof(value_type);
    for (int d = 1; d < Rank; ++d) n *= static_cast<std::size_t>(sh[static_cast<std::size_t>(d)]);
    return n;
  }

  // The view of rows `b` of this handle, whose shape is `sh` (checked by the caller). AoS: the
  // same root state at a byte offset; SoA: the same component block with a row window (offset_
  // counts rows). Neither allocates.
  array row_window(const std::array<index_t, Rank>& sh, slice::bounds b) const {
    array out(uninitialized_tag{});
    out.layout_ = layout_;
    out.view_ = true;
    out.shape_ = sh;
    out.shape_[0] = b.last - b.first;
    if constexpr (can_be_soa) {
      if (layout_ == tack::layout::soa) {
        out.comps_.parts = comps_.parts;
        out.offset_ = offset_ + static_cast<std::size_t>(b.first);
        return out;
      }
    }
    out.st_ = st_;
    out.offset_ = offset_ + static_cast<std::size_t>(b.first) * row_bytes_of(sh);
    return out;
  }

  std::size_t row_elements() const {
    if constexpr (Rank == 1) return 1;
    auto s = shape();
    std::size_t n = 1;
    for (int d = 1; d < Rank; ++d) n *= static_cast<std::size_t>(s[static_cast<std::size_t>(d)]);
    return n;
  }

  std::string view_description() const {
    if constexpr (can_be_soa) {
      if (layout_ == tack::layout::soa) {
        if (!view_) return comps_[0].view_description();
        return "view of rows [" + std::to_string(offset_) + ", " +
               std::to_string(static_cast<index_t>(offset_) + shape_[0]) + ") of " +
               std::to_string(comps_[0].shape()[0]);
      }
    }
    const std::size_t rb = st_->row_bytes();
    const auto root_rows = st_->extents[0];
    const std::size_t my_bytes = static_cast<std::size_t>(size()) * sizeof(value_type);
    if (rb && offset_ % rb == 0 && my_bytes % rb == 0) {
      const auto first = static_cast<index_t>(offset_ / rb);
      const auto count = static_cast<index_t>(my_bytes / rb);
      return "view of rows [" + std::to_string(first) + ", " + std::to_string(first + count) +
             ") of " + std::to_string(root_rows);
    }
    return "view at byte " + std::to_string(offset_) + " of a root with " +
           std::to_string(root_rows) + " rows";
  }

  // Where this handle's elements start; a view whose bytes a shrink removed is an index_error.
  T* element_pointer(const char* op) const {
    require_aos(op);
    if (view_) {
      const std::size_t need = offset_ + static_cast<std::size_t>(size()) * sizeof(value_type);
      if (need > st_->used_bytes() && size() > 0) {
        throw index_error(std::string("tack::array::") + op + ": " + describe() +
                          " no longer exists: its root now has " + std::to_string(st_->extents[0]) +
                          " rows");
      }
    }
    return reinterpret_cast<T*>(static_cast<unsigned char*>(st_->buf.data()) + offset_);
  }

  // Row bookkeeping for kernel-view bounds messages.
  index_t root_row_offset() const {
    const std::size_t rb = st_->row_bytes();
    return rb ? static_cast<index_t>(offset_ / rb) : 0;
  }

  aos_kernel_view make_aos_view() const {
    T* p = element_pointer("view");
    auto s = shape();
    if (view_) return aos_kernel_view(p, s, root_row_offset(), st_->extents[0]);
    return aos_kernel_view(p, s);
  }
  auto make_soa_view() const
    requires(can_be_soa)
  {
    using sv = soa_kernel_view;
    std::array<const_scalar*, static_cast<std::size_t>(components_per_element)> ptrs{};
    index_t root_offset = 0;
    index_t root_rows = 0;
    bool in_root = false;
    for (int c = 0; c < components_per_element; ++c) {
      const auto part = soa_part(c, "soa_view");
      ptrs[static_cast<std::size_t>(c)] = part.element_pointer("soa_view");
      if (c == 0 && part.view_) {
        in_root = true;
        root_offset = part.root_row_offset();
        root_rows = part.st_->extents[0];
      }
    }
    if (in_root) return sv(ptrs, shape(), root_offset, root_rows);
    return sv(ptrs, shape());
  }

  // Component `c` of a SoA handle as this handle sees it: the stored component, or for a row view
  // its rows [offset_, offset_ + shape_[0]) (offset_ counts rows for SoA). A view whose rows a
  // shrink of the components removed is an index_error, as for AoS views.
  component_array soa_part(int c, const char* op) const
    requires(can_be_soa)
  {
    const auto& stored = comps_[c];
    if (!view_) {
      if constexpr (is_const) {
        return stored.as_const();
      } else {
        return stored;
      }
    }
    require_soa_window(op);
    const auto first = static_cast<index_t>(offset_);
    auto rows = stored.slice_rows(slice(first, first + shape_[0]), op);
    if constexpr (is_const) {
      return rows.as_const();
    } else {
      return rows;
    }
  }
  // Whether every row of this SoA view's window still exists in every component.
  bool soa_window_exists() const
    requires(can_be_soa)
  {
    const auto last = static_cast<index_t>(offset_) + shape_[0];
    for (auto& c : *comps_.parts) {
      if (last > c.shape()[0]) return false;
    }
    return true;
  }
  void require_soa_window(const char* op) const
    requires(can_be_soa)
  {
    if (!soa_window_exists()) {
      throw index_error(std::string("tack::array::") + op + ": " + describe() +
                        " no longer exists: its components now have " +
                        std::to_string(comps_[0].shape()[0]) + " rows");
    }
  }

  decltype(auto) element_at(index_t k, const char* op) const {
    require_host(op);
    if constexpr (!is_const) {
      require_writable(op);
      bump_version();  // a mutable reference may be written through
    }
    if constexpr (can_be_soa) {
      if (layout_ == tack::layout::soa) {
        throw value_error(std::string("tack::array::") + op + ": " + describe() +
                          " is structure-of-arrays; host element access goes through soa_view()[i] "
                          "or components()");
      }
    }
    return element_pointer(op)[k];
  }

  array slice_rows(const slice& s, const char* op) const;

  void insert_rows(index_t pos, index_t count, const value_type* values, std::size_t nvalues,
                   const char* op) const;
  void insert_values(index_t pos, std::span<const value_type> values, const char* op) const;
  void erase_rows(index_t first, index_t last, const char* op) const;
  void resize_rows(index_t n, const value_type& value, const char* op) const;
  void grow_to(index_t needed_rows, const char* op) const;
  // The capacity (rows) growth to `needed` rows asks for: max(capacity * ratio + 0.5, needed).
  index_t new_capacity_rows(index_t needed, const char* op) const;
  // The rows after adding `count` to `n`, refused (value_error naming the shape) when they overflow.
  index_t grown_rows(index_t n, index_t count, const char* op) const;
  /// Moves the root to a block of `new_bytes` bytes; refused while the allocation is exported.
  void reallocate_root(std::size_t new_bytes, const char* op) const;
  void refuse_if_exported(const char* op) const;

  // ---- object elements (holds_objects): std::vector's algorithms, counted in elements --------
  value_type* object_data() const noexcept { return static_cast<value_type*>(st_->buf.data()); }
  std::size_t row_objects() const noexcept { return st_->row_bytes() / sizeof(value_type); }
  index_t end_row(const char* op) const {
    require_growable(op);
    return st_->extents[0];
  }
  // Moves the root's elements to a block of `new_cap_rows` rows, leaving a gap of `gap` elements
  // at element `gap_at` that `make(p)` fills; strong guarantee (elements move when their move
  // constructor cannot throw, else they are copied, as std::vector does).
  template <class Make>
  void reallocate_objects(index_t new_cap_rows, std::size_t gap_at, std::size_t gap, Make&& make,
                          const char* op) const;
  // One element made from `args` before row `pos` (rank 1). CopyFirst: `args` is one value that
  // may be an element of this array, copied before the shift (std::vector::insert(pos, const T&)).
  template <bool CopyFirst, class... Args>
  void emplace_object(index_t pos, const char* op, Args&&... args) const;
  // `count` rows before `pos`: `fill` copies `*values` into each element, else `values` holds
  // the `count` rows' elements (it may point into this array).
  void insert_object_rows(index_t pos, index_t count, const value_type* values, bool fill,
                          const char* op) const;
  // resize(n) (value == nullptr: value-initialized) and resize(n, *value).
  void resize_objects(index_t n, const value_type* value, const char* op) const;
};

/// Axom's multi-component array: `tack::mc_array<float>` is `array<float, 2>`.
template <class T>
using mc_array = array<T, 2>;

}  // namespace tack

#include <tack/array/array_impl.hpp>
