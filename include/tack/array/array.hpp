// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
#pragma once
/// @file `tack::array<T, Rank, Space>`: the reference-counted handle to typed storage, its row
/// views (`rows`, `a[slice]`) and its Axom-style growth. The handle holds the state of one of two
/// storage policies, chosen by its run-time layout in one place (`visit_storage`):
/// `detail::aos_storage` (array/detail/aos_storage.hpp: one root buffer and a byte offset) and
/// `detail::soa_storage` (array/detail/soa_storage.hpp: a shared block of component arrays and a
/// row window). Both offer the same primitives: shape, rows window, host element access, kernel
/// form, growth, copy-out and export.

#include <tack/array/detail/array_common.hpp>
#include <tack/array/shape.hpp>
#include <tack/core/error.hpp>
#include <tack/core/macros.hpp>
#include <tack/core/index.hpp>
#include <tack/core/slice.hpp>
#include <tack/exec/stream.hpp>
#include <tack/memory/buffer.hpp>
#include <tack/memory/copy.hpp>
#include <tack/memory/memory_space.hpp>
#include <tack/types/dtype.hpp>
#include <tack/types/item.hpp>
#include <tack/view/array_view.hpp>
#include <tack/view/soa_view.hpp>
#include <tack/view/view.hpp>

#include <array>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace tack {

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
  /// The kernel view of an AoS array (`view()`) and of a SoA array (`soa_view()`; void when the
  /// elements have no components).
  using aos_kernel_view = tack::view<T, Rank>;
  using soa_kernel_view = std::conditional_t<
      can_be_soa, tack::soa_view<std::conditional_t<can_be_soa, T, vec<float, 2>>, Rank>, void>;

  /// An empty, growable rank-`Rank` array on the default device (like `std::vector`).
  array();

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
  requires(is_const&& std::is_same_v<U, value_type>) array(const array<U, Rank, Space>& other) {
    *this = other.as_const();
  }

  /// A fixed-space array from a dynamic one: checks at run time that the memory is in `Space`
  /// (`value_error` otherwise), as Axom's conversion does.
  template <memory_space Other>
  requires(Space != memory_space::dynamic &&
           Other == memory_space::dynamic) explicit array(const array<T, Rank, Other>& other);

  // ---- metadata ------------------------------------------------------------------------------

  /// The extents. `a.shape()[0]` is the number of rows.
  std::array<index_t, Rank> shape() const {
    return ask("shape", [](const auto& s) { return s.shape(); });
  }
  /// Extent `d` (0 <= d < Rank).
  index_t extent(int d) const;
  /// Number of elements.
  index_t size() const {
    index_t n = 1;
    for (auto e : shape()) n *= e;
    return n;
  }
  /// Whether the array has no elements.
  bool empty() const { return size() == 0; }
  /// The runtime element type descriptor (`"vec3(f32)"`); tack element types only.
  static constexpr tack::dtype dtype() noexcept requires element<value_type> {
    return dtype_of<value_type>();
  }
  /// The component type descriptor (`"f32"` for a `vec3f` array); tack element types only.
  static constexpr tack::dtype scalar_dtype() noexcept requires element<value_type> {
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
  auto storage_shape() const;
  /// The device that holds the memory.
  tack::device device() const {
    return ask("device", [](const auto& s) { return s.device(); });
  }
  /// AoS or SoA.
  tack::layout layout() const noexcept { return layout_; }
  /// Bytes of the elements (not the capacity).
  std::size_t nbytes() const { return static_cast<std::size_t>(size()) * sizeof(value_type); }
  /// The allocator id (-1 for borrowed memory; the first component's for SoA).
  allocator_id allocator() const {
    return ask("allocator", [](const auto& s) { return s.allocator(); });
  }
  /// Whether this handle is a view of another array's memory (rows, reshape, element view).
  bool is_view() const noexcept {
    return visit_storage([](const auto& s) noexcept { return s.is_view(); });
  }
  /// Whether the memory refuses writes (imported read-only, borrowed without `writable`).
  bool read_only() const {
    return ask("read_only", [](const auto& s) { return s.read_only(); });
  }
  /// For a read-only SoA array, the first component whose memory refuses writes; -1 otherwise
  /// (AoS, or no read-only component). `int c = soa_array.read_only_component();`
  int read_only_component() const {
    return ask("read_only_component", [](const auto& s) { return s.read_only_component(); });
  }
  /// The write version of the root allocation, shared by the root and all its views: it changes
  /// whenever anything writes through any of them. For SoA, the sum of the components' versions.
  std::uint64_t version() const {
    return ask("version", [](const auto& s) { return s.version(); });
  }
  /// Marks the memory as written (kernels and host writes call this; users rarely need to).
  void bump_version() const {
    require_valid("bump_version");
    visit_storage([](const auto& s) { s.bump_version(); });
  }
  /// The component arrays of a SoA array (empty for AoS). `auto x = pos.components()[0];`
  std::vector<component_array> components() const {
    return visit_storage([](const auto& s) { return s.components(); });
  }
  /// Whether the handle has storage (false after a move).
  bool valid() const noexcept {
    return visit_storage([](const auto& s) noexcept { return s.valid(); });
  }
  /// Whether host code may read and write the memory directly.
  bool host_accessible() const {
    return ask("host_accessible", [](const auto& s) { return s.host_accessible(); });
  }

  /// `array<vec3(f32), 1> shape (100) on cuda:0, view of rows [2, 4) of 6`: how errors name arrays.
  std::string describe() const;

  // ---- host element access -------------------------------------------------------------------

  /// Element `(i, j, …)` (exactly `Rank` indices) of host-accessible memory; index_error when out
  /// of range, device_error for device memory, read_only_error for writes through a read-only
  /// array (read it through `as_const()`). `a(1, 2) = 5.0f;`
  template <std::integral... I>
  requires(sizeof...(I) == Rank) decltype(auto) operator()(I... idx) const;
  /// Element `k` of the flat (row-major) element sequence; `a[tack::slice(i, j)]` is a row view.
  decltype(auto) operator[](index_t k) const;
  /// Rows of the first dimension as a view (Python bounds; step 1 only).
  array operator[](const slice& s) const { return slice_rows(s, "operator[]"); }

  /// The first element (AoS, host or device memory). `float* p = a.data();`
  /// On a writable handle this counts as a write (the version moves, as for `a(i)`): the pointer
  /// may be written through. Read through `a.as_const().data()` to leave the version alone.
  T* data() const {
    require_pointer("data");
    if constexpr (!is_const) {
      require_writable("data");
      bump_version();
    }
    return pointer("data");
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
  requires(std::is_same_v<std::remove_const_t<U>, std::remove_const_t<T>> &&
           (std::is_const_v<U> || !std::is_const_v<T>))
  operator array_view<U, Rank, S2>() const;

  // ---- views ---------------------------------------------------------------------------------

  /// Rows `i` to `j` of the first dimension over the same memory (Python bounds: negative from the
  /// end, clamped). A view of a view is a view of the root, and keeps the root alive.
  /// `auto middle = a.rows(2, 4);`
  array rows(index_t i, index_t j) const { return slice_rows(slice(i, j), "rows"); }

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
  aos_kernel_view view() const;
  /// The kernel view of a SoA array (one pointer per component).
  soa_kernel_view soa_view() const
      requires(is_vec_v<std::remove_const_t<T>> || is_mat_v<std::remove_const_t<T>>);

  /// Kernel-form protocol (core/kernel_form.hpp): calls `f(view())` or `f(soa_view())` by layout.
  template <class F>
  decltype(auto) visit_kernel_form(F&& f) const {
    require_valid("launch");
    return visit_storage(
        [&f](const auto& s) -> decltype(auto) { return std::forward<F>(f)(s.kernel_form()); });
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
  detail::pending_vector<value_type> to_vector_async() const;
  /// `to_vector_async()` ordered on stream `s` of the array's device (a `value_error` naming both
  /// devices otherwise): the copy starts after the work queued on `s` before the call, and waits
  /// for nothing else. `auto pending = a.to_vector_async(s); host_work(); auto v = pending.get();`
  detail::pending_vector<value_type> to_vector_async(const stream& s) const;

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
  void fill(const value_type& value) const requires(!std::is_const_v<T>);

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
  index_t capacity() const {
    return ask("capacity", [](const auto& s) { return s.capacity(); });
  }
  /// The growth ratio (default 2.0).
  double resize_ratio() const {
    return ask("resize_ratio", [](const auto& s) { return s.resize_ratio(); });
  }
  /// Sets the growth ratio; `r < 1` (or not finite) is a `value_error`.
  void set_resize_ratio(double r) const;
  /// Appends one element (rank 1). `a.push_back(4);`
  void push_back(const value_type& v) const requires(Rank == 1 && !std::is_const_v<T>);
  /// Appends an element moved from `v` (rank 1; object elements such as `std::string`, which
  /// `std::vector` would move too). `a.push_back(std::move(name));`
  void push_back(value_type&& v) const requires(Rank == 1 && !std::is_const_v<T> &&
                                                !detail::bytes_element_v<std::remove_const_t<T>>);
  /// Constructs one element from `args` at the end (rank 1; object elements are constructed in
  /// place).
  template <class... Args>
  void emplace_back(Args&&... args) const requires(Rank == 1 && !std::is_const_v<T>);
  /// Inserts `value` before position `pos` (rank 1). `a.insert(2, 6);`
  void insert(index_t pos, const value_type& value) const
      requires(Rank == 1 && !std::is_const_v<T>);
  /// Inserts an element moved from `value` before `pos` (rank 1; object elements).
  void insert(index_t pos, value_type&& value) const
      requires(Rank == 1 && !std::is_const_v<T> &&
               !detail::bytes_element_v<std::remove_const_t<T>>);
  /// Inserts `count` copies of `value` before `pos` (rank 1).
  void insert(index_t pos, index_t count, const value_type& value) const
      requires(Rank == 1 && !std::is_const_v<T>);
  /// Inserts elements before row `pos`; for rank > 1 the values are whole rows along the first
  /// dimension (their count must be a multiple of the row size).
  void insert(index_t pos, std::span<const value_type> values) const requires(!std::is_const_v<T>);
  void insert(index_t pos, std::initializer_list<value_type> values) const
      requires(!std::is_const_v<T>);
  /// Appends elements (rank > 1: whole rows). `a.append({1, 2, 3});`
  void append(std::span<const value_type> values) const requires(!std::is_const_v<T>);
  void append(std::initializer_list<value_type> values) const requires(!std::is_const_v<T>);
  /// Appends the elements of another array (same trailing shape), from any device or layout.
  template <class U, memory_space S2>
  void append(const array<U, Rank, S2>& other) const
      requires(!std::is_const_v<T> &&
               std::is_same_v<std::remove_const_t<U>, std::remove_const_t<T>>);
  /// Removes row `pos`.
  void erase(index_t pos) const requires(!std::is_const_v<T>);
  /// Removes rows `[first, last)`.
  void erase(index_t first, index_t last) const requires(!std::is_const_v<T>);
  /// Sets the number of rows to `n`; new rows are value-initialized (zero) or `value`.
  void resize(index_t n) const requires(!std::is_const_v<T>);
  void resize(index_t n, const value_type& value) const requires(!std::is_const_v<T>);
  /// Makes room for `n` rows without changing the size (never shrinks).
  void reserve(index_t n) const requires(!std::is_const_v<T>);
  /// Returns unused capacity (capacity becomes the size).
  void shrink() const requires(!std::is_const_v<T>);
  /// Removes every row; keeps the capacity.
  void clear() const requires(!std::is_const_v<T>);

private:
  template <class, int, memory_space>
  friend class array;
  friend struct detail::array_access;
  template <class>
  friend struct detail::storage_policy;

  detail::aos_state aos_;              // the AoS policy's state (null root for SoA)
  std::array<index_t, Rank> shape_{};  // a row view's own shape (roots read their storage)
  bool row_view_ = false;              // made by rows, reshape or an element view of another
  tack::layout layout_ = tack::layout::aos;
  [[no_unique_address]] detail::soa_state<value_type, Rank, Space, can_be_soa> soa_;

  struct uninitialized_tag {};
  explicit array(uninitialized_tag) {}

  /// The one place the layout picks the storage policy: calls `f` with the AoS policy
  /// (`detail::aos_storage`) or, for a SoA array, the SoA policy (`detail::soa_storage`).
  template <class F>
  inline TACK_IMPL_ALWAYS_INLINE decltype(auto) visit_storage(F&& f) const {
    if constexpr (can_be_soa) {
      if (layout_ == tack::layout::soa)
        return std::forward<F>(f)(detail::soa_storage<array>{*this});
    }
    return std::forward<F>(f)(detail::aos_storage<array>{*this});
  }
  // Object elements live in AoS storage only (they have no components to split).
  auto objects() const noexcept requires(holds_objects) {
    return detail::object_rows<array>{*this};
  }

  static tack::device default_device_for_space();

  // The run-time half of converting a dynamic array to an array_view of the fixed space `s2`.
  void require_space_of_view(memory_space s2) const;
  void require_valid(const char* op) const {
    if (!valid()) refuse_invalid(op);
  }
  [[noreturn]] void refuse_invalid(const char* op) const;
  // The storage policy's answer `f(policy)`, after refusing a moved-from handle (naming `op`).
  template <class F>
  decltype(auto) ask(const char* op, F&& f) const {
    require_valid(op);
    return visit_storage(std::forward<F>(f));
  }
  // Refuses (value_error) an operation that needs the one pointer of an AoS array.
  void require_pointer(const char* op) const {
    require_valid(op);
    visit_storage([op](const auto& s) { s.require_pointer(op); });
  }
  void require_host(const char* op) const;
  void require_writable(const char* op) const;
  void require_growable(const char* op) const;
  [[noreturn]] void refuse_growth(const char* op, const std::string& why) const;
  std::string row_view_description() const;
  // Where this handle's elements start (AoS); a view whose bytes a shrink removed is an
  // index_error.
  T* pointer(const char* op) const {
    return visit_storage([op](const auto& s) { return s.pointer(op); });
  }
  decltype(auto) element_at(index_t k, const char* op) const {
    require_host(op);
    if constexpr (!is_const) {
      require_writable(op);
      bump_version();  // a mutable reference may be written through
    }
    return visit_storage([k, op](const auto& s) -> T& { return s.element(k, op); });
  }

  // Every row view is made here: the window of the storage policy, or (empty ranges, rows that no
  // longer exist, steps, moved-from handles) `rows_other`.
  array slice_rows(const slice& s, const char* op) const {
    array out(uninitialized_tag{});
    if (s.step == 1 && visit_storage([&s, &out](const auto& st) { return st.window(s, out); }))
        [[likely]] {
      return out;
    }
    out = rows_other(s, op);
    return out;
  }
  array rows_other(const slice& s, const char* op) const;

  // Growth in rows, checked here and carried out by the storage policy.
  void insert_rows(index_t pos, index_t count, const value_type* values, std::size_t nvalues,
                   const char* op) const;
  void insert_values(index_t pos, std::span<const value_type> values, const char* op) const;
  void erase_rows(index_t first, index_t last, const char* op) const;
  void resize_rows(index_t n, const value_type& value, const char* op) const;
};

/// Axom's multi-component array: `tack::mc_array<float>` is `array<float, 2>`.
template <class T>
using mc_array = array<T, 2>;

namespace detail {
template <class T>
struct is_tack_array : std::false_type {};
template <class T, int R, memory_space S>
struct is_tack_array<array<T, R, S>> : std::true_type {};
}  // namespace detail

/// Whether `T` is a `tack::array` specialization (cv and reference ignored), not an implicit array.
/// `static_assert(tack::is_array_v<tack::array<float>> && !tack::is_array_v<float>);`
template <class T>
inline constexpr bool is_array_v = detail::is_tack_array<std::remove_cvref_t<T>>::value;

}  // namespace tack

#include <tack/array/detail/array_access.hpp>
#include <tack/array/detail/aos_storage.hpp>
#include <tack/array/detail/object_rows.hpp>
#include <tack/array/detail/soa_storage.hpp>
#include <tack/array/array_impl.hpp>
