// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
#pragma once
/// @file The storage policy of interleaved (AoS) arrays and of scalar arrays (not public): one
/// root buffer shared by the root and its views, and a byte offset. `tack::array` picks it (or
/// the SoA policy, soa_storage.hpp) in `visit_storage`; both offer the same primitives.

#include <tack/array/detail/array_common.hpp>
#include <tack/array/shape.hpp>
#include <tack/core/error.hpp>
#include <tack/core/macros.hpp>
#include <tack/core/slice.hpp>
#include <tack/memory/copy.hpp>

#include <algorithm>
#include <array>
#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tack::detail {

/// The AoS policy over the handle `a`: `a.aos_` (root storage and byte offset) and the handle's
/// row window (`a.row_view_`, `a.shape_`).
template <class A>
struct storage_policy<A>::aos {
  const A& a;

  // ---- allocation ------------------------------------------------------------------------------

  // Refuses a negative extent or capacity (value_error naming the shape).
  static void check_root_shape(const shape_type& s, index_t capacity_rows) {
    for (int d = 0; d < Rank; ++d) {
      if (s[static_cast<std::size_t>(d)] < 0) {
        throw value_error("tack::array: extent " + std::to_string(s[static_cast<std::size_t>(d)]) +
                          " of dimension " + std::to_string(d) + " in shape " + shape_string(s) +
                          " is negative");
      }
    }
    if (capacity_rows < 0) {
      throw value_error("tack::array: capacity " + std::to_string(capacity_rows) + " is negative");
    }
  }
  static allocator_id allocator_for(tack::device d, std::optional<allocator_id> requested) {
    if (requested) return *requested;
    if constexpr (Space != memory_space::dynamic) return get_allocator(Space, d);
    return default_allocator(d);
  }
  static void check_space(allocator_id id, const char* op) {
    if constexpr (Space != memory_space::dynamic) {
      auto sp = allocator_from_id(id).space();
      if (sp != Space) {
        throw value_error(std::string("tack::array<") + std::string(A::element_name()) + ", " +
                          std::to_string(Rank) + ", " + std::string(to_string(Space)) + ">::" + op +
                          ": allocator " + std::to_string(id) + " gives " +
                          std::string(to_string(sp)) + " memory");
      }
    } else {
      (void)id;
      (void)op;
    }
  }
  // A root's storage for `s` with room for `max(s[0], capacity_rows)` rows (options::capacity is
  // a total); its rows are `alive_rows` (0 while object elements are not made yet). A shape whose
  // bytes overflow is a value_error.
  static counted_ptr<storage> new_root(tack::device d, const shape_type& s, index_t capacity_rows,
                                       std::optional<allocator_id> alloc, index_t alive_rows) {
    check_root_shape(s, capacity_rows);
    const index_t cap_rows = std::max(s[0], capacity_rows);
    const std::size_t bytes =
        checked_nbytes("tack::array", s, sizeof(V), A::element_name(), cap_rows);
    auto st = make_counted<storage>();
    st->rank = Rank;
    st->element_bytes = sizeof(V);
    for (int d = 0; d < Rank; ++d)
      st->extents[static_cast<std::size_t>(d)] = s[static_cast<std::size_t>(d)];
    st->extents[0] = alive_rows;
    const allocator_id id = allocator_for(d, alloc);
    check_space(id, "allocate");
    if constexpr (A::holds_objects) require_object_memory(id, "allocate");
    st->buf = buffer::allocate_with(id, bytes);
    return st;
  }
  // Makes `out` a new root of shape `s`: uninitialized bytes, or value-initialized objects.
  static void init_root(A& out, tack::device d, const shape_type& s, index_t capacity_rows,
                        std::optional<allocator_id> alloc) {
    if constexpr (A::holds_objects) {
      init_object_root(out, d, s, capacity_rows, alloc,
                       [](V* p, std::size_t n) { std::uninitialized_value_construct_n(p, n); });
    } else {
      out.aos_.root = new_root(d, s, capacity_rows, alloc, s[0]);
    }
  }
  // A root of object elements: `construct(p, n)` makes its `n` elements (it destroys what it made
  // and throws on failure; the storage then holds none and frees the block).
  template <class Construct>
  static void init_object_root(A& out, tack::device d, const shape_type& s, index_t capacity_rows,
                               std::optional<allocator_id> alloc, Construct&& construct) {
    auto st = new_root(d, s, capacity_rows, alloc, 0);  // no element is alive yet
    st->destroy = &destroy_elements<V>;
    out.aos_.root = std::move(st);
    storage& r = *out.aos_.root;
    construct(static_cast<V*>(r.buf.data()),
              static_cast<std::size_t>(s[0]) * (r.row_bytes() / sizeof(V)));
    r.extents[0] = s[0];
  }
  // Object elements are constructed and destroyed by host code: their memory must be host memory.
  static void require_object_memory(allocator_id id, const char* op) {
    const memory_space sp = allocator_from_id(id).space();
    if (sp != memory_space::host && sp != memory_space::pinned) {
      const std::string name(A::element_name());
      throw value_error("tack::array<" + name + ", " + std::to_string(Rank) + ">::" + op +
                        ": allocator " + std::to_string(id) + " gives " +
                        std::string(to_string(sp)) + " memory, but " + name +
                        " is not trivially copyable: its elements are objects that host code "
                        "constructs and destroys, so they live in host memory only; allocate on "
                        "the CPU, or store a trivially copyable type");
    }
  }

  // ---- shape and metadata --------------------------------------------------------------------

  static constexpr tack::layout layout = tack::layout::aos;  // the layout this policy stores
  static constexpr const char* layout_note = "";             // what describe() adds for the layout
  storage& root() const noexcept { return *a.aos_.root; }
  bool valid() const noexcept { return static_cast<bool>(a.aos_.root); }
  shape_type root_shape() const noexcept {
    shape_type s{};
    for (int d = 0; d < Rank; ++d)
      s[static_cast<std::size_t>(d)] = root().extents[static_cast<std::size_t>(d)];
    return s;
  }
  shape_type shape() const noexcept { return a.row_view_ ? a.shape_ : root_shape(); }
  tack::device device() const { return root().buf.device(); }
  allocator_id allocator() const { return root().buf.allocator(); }
  bool host_accessible() const { return root().buf.host_accessible(); }
  bool is_view() const noexcept { return a.row_view_; }
  bool read_only() const { return root().buf.read_only(); }
  int read_only_component() const noexcept { return -1; }
  std::string read_only_note() const { return {}; }
  std::uint64_t version() const { return root().buf.version(); }
  void bump_version() const { root().buf.bump_version(); }
  std::vector<typename A::component_array> components() const { return {}; }
  std::string row_view_description() const {
    const std::size_t rb = root().row_bytes();
    const auto root_rows = root().extents[0];
    const std::size_t my_bytes = static_cast<std::size_t>(a.size()) * sizeof(V);
    const std::size_t offset = a.aos_.byte_offset;
    if (rb && offset % rb == 0 && my_bytes % rb == 0) {
      const auto first = static_cast<index_t>(offset / rb);
      const auto count = static_cast<index_t>(my_bytes / rb);
      return "view of rows [" + std::to_string(first) + ", " + std::to_string(first + count) +
             ") of " + std::to_string(root_rows);
    }
    return "view at byte " + std::to_string(offset) + " of a root with " +
           std::to_string(root_rows) + " rows";
  }

  // ---- pointers and host elements ------------------------------------------------------------

  void require_pointer(const char*) const noexcept {}
  [[noreturn]] void require_components(const char* op) const {
    throw value_error(std::string("tack::array::") + op + ": " + a.describe() +
                      " is interleaved (aos); use view(), or copy({.layout = tack::layout::soa})");
  }
  // Where this handle's elements start; a view whose bytes a shrink removed is an index_error.
  T* pointer(const char* op) const {
    if (a.row_view_) {
      const std::size_t need = a.aos_.byte_offset + static_cast<std::size_t>(a.size()) * sizeof(V);
      if (need > root().used_bytes() && a.size() > 0) {
        throw index_error(std::string("tack::array::") + op + ": " + a.describe() +
                          " no longer exists: its root now has " +
                          std::to_string(root().extents[0]) + " rows");
      }
    }
    return reinterpret_cast<T*>(static_cast<unsigned char*>(root().buf.data()) +
                                a.aos_.byte_offset);
  }
  T& element(index_t k, const char* op) const { return pointer(op)[k]; }

  // ---- rows window -----------------------------------------------------------------------------

  // Makes `out` rows `s` (step 1) of this handle: the same root at a byte offset, one
  // reference-count increment. False (out untouched) for a moved-from handle, an empty range or
  // rows that no longer exist.
  inline TACK_IMPL_ALWAYS_INLINE bool window(const slice& s, A& out) const {
    if (!a.aos_.root) return false;
    const storage& st = root();
    const index_t n = a.row_view_ ? a.shape_[0] : st.extents[0];
    const auto b = s.resolve(n);
    std::size_t row_bytes = sizeof(V);
    for (int d = 1; d < Rank; ++d) {
      const auto k = static_cast<std::size_t>(d);
      row_bytes *= static_cast<std::size_t>(a.row_view_ ? a.shape_[k] : st.extents[k]);
    }
    const std::size_t first = a.aos_.byte_offset + static_cast<std::size_t>(b.first) * row_bytes;
    const std::size_t end = a.aos_.byte_offset + static_cast<std::size_t>(n) * row_bytes;
    if (!(b.first < b.last && (!a.row_view_ || end <= st.used_bytes()))) return false;
    // Everything is read before the reference count's atomic increment: a load after a locked
    // instruction waits for it (a 2-D view would reload its second extent).
    shape_type sh = a.row_view_ ? a.shape_ : root_shape();
    sh[0] = b.last - b.first;
    out.aos_.byte_offset = first;
    out.row_view_ = true;
    out.shape_ = sh;
    out.aos_.root = a.aos_.root;
    return true;
  }
  // Refuses (index_error) a view whose rows no longer exist.
  void require_window(const char* op) const { (void)pointer(op); }

  // ---- kernel forms --------------------------------------------------------------------------

  // Row `0` of this handle in its root's rows (bounds messages).
  index_t root_row_offset() const {
    const std::size_t rb = root().row_bytes();
    return rb ? static_cast<index_t>(a.aos_.byte_offset / rb) : 0;
  }
  typename A::aos_kernel_view aos_kernel_form() const {
    T* p = pointer("view");
    if (a.row_view_)
      return typename A::aos_kernel_view(p, a.shape_, root_row_offset(), root().extents[0]);
    return typename A::aos_kernel_view(p, root_shape());
  }
  typename A::aos_kernel_view kernel_form() const { return aos_kernel_form(); }
  auto soa_kernel_form() const {
    return (require_components("soa_view"), typename A::soa_kernel_view{});
  }

  // ---- views of the same bytes -----------------------------------------------------------------

  // `out` views this handle's bytes under the first `R::rank` extents of `sh`.
  template <class R, std::size_t N>
  void view_bytes(R& out, const std::array<index_t, N>& sh, const char* op) const {
    static_assert(N >= static_cast<std::size_t>(R::rank));
    (void)pointer(op);
    out.aos_ = a.aos_;
    out.row_view_ = true;
    for (std::size_t d = 0; d < static_cast<std::size_t>(R::rank); ++d) out.shape_[d] = sh[d];
  }
  // Shares this handle's root with `out` (another memory space parameter) after `check(a)`.
  template <class Out, class Check>
  void share_into(Out& out, Check&& check) const {
    check(a);
    out.aos_ = a.aos_;
  }
  template <int NewRank>
  array<T, NewRank, Space> reshape(const tack::shape<NewRank>& new_shape) const {
    auto out = array_access::uninitialized<array<T, NewRank, Space>>();
    view_bytes(out, new_shape.extents, "reshape");
    return out;
  }

  // ---- where the elements are (copies and overlap checks, array_copy.hpp) ----------------------

  // Calls `f(first, last)` with the byte range the elements cover; nothing for an empty handle.
  template <class F>
  void for_each_byte_range(F&& f) const {
    if (a.size() == 0) return;
    const auto first = reinterpret_cast<std::uintptr_t>(pointer("byte_range"));
    f(first, first + static_cast<std::size_t>(a.size()) * sizeof(V));
  }
  // The address of each component's first scalar (into `bases`); returns the step between
  // elements in bytes. Interleaved: the components are neighbours, one element apart.
  std::ptrdiff_t component_bases(std::vector<std::uintptr_t>& bases) const {
    const auto first = reinterpret_cast<std::uintptr_t>(pointer("copy"));
    bases.resize(static_cast<std::size_t>(N));
    for (int c = 0; c < N; ++c)
      bases[static_cast<std::size_t>(c)] = first + static_cast<std::size_t>(c) * sizeof(S);
    return static_cast<std::ptrdiff_t>(sizeof(V));
  }

  // ---- copy-out, fill, export ------------------------------------------------------------------

  std::vector<V> to_vector() const {
    const auto n = static_cast<std::size_t>(a.size());
    const T* p = pointer("to_vector");
    if constexpr (A::holds_objects) {
      return std::vector<V>(p, p + n);
    } else if constexpr (std::is_same_v<V, bool>) {
      // std::vector<bool> packs bits and has no data(): stage the bytes.
      std::unique_ptr<bool[]> staging(new bool[n]);
      copy_bytes(staging.get(), true, p, host_accessible(), n * sizeof(V));
      return std::vector<V>(staging.get(), staging.get() + n);
    } else {
      std::vector<V> out(n);
      copy_bytes(out.data(), true, p, host_accessible(), n * sizeof(V));
      return out;
    }
  }
  void fill(const V& value) const {
    T* p = pointer("fill");
    const auto n = static_cast<std::size_t>(a.size());
    if constexpr (A::holds_objects) {
      std::fill(p, p + n, value);
    } else if (host_accessible()) {
      host_fill(p, &value, sizeof(V), n);
    } else {
      device_fill(p, &value, sizeof(V), n);
    }
    bump_version();
  }
  typename A::exported_memory export_memory() const {
    if (a.row_view_) {
      throw value_error(
          "tack::array::export_memory: " + a.describe() +
          " is a view and has no allocation of its own; export the root, or a copy()");
    }
    return {root().buf.data(), root().used_bytes(), root().buf.device(), root().buf.allocator(),
            root().buf.keep_alive()};
  }

  // ---- growth ----------------------------------------------------------------------------------

  index_t capacity() const { return a.row_view_ ? a.shape_[0] : root().capacity_rows(); }
  double resize_ratio() const { return root().resize_ratio; }
  void set_resize_ratio(double r) const { root().resize_ratio = r; }
  void require_growable(const char* op) const {
    if (a.row_view_)
      a.refuse_growth(op, "it is a view (" + row_view_description() + "); grow the root");
    if (!root().growable) a.refuse_growth(op, "its memory is borrowed");
    if (root().buf.read_only()) {
      throw read_only_error(std::string("tack::array::") + op + ": " + a.describe() +
                            " is read-only and cannot grow");
    }
  }
  void refuse_if_exported(const char* op) const {
    // The storage is the buffer's one holder unless the allocation was exported (export_memory's
    // keep-alive token, a DLPack tensor): moving the elements to a new block would free the
    // memory those still point to, so growth that needs a new block waits until they are
    // released (as Python refuses to resize a bytearray with live buffer exports).
    if (const long holders = root().buf.use_count(); holders > 1) {
      a.refuse_growth(op, "a new allocation is needed, and the current one is exported (" +
                              std::to_string(holders - 1) +
                              " keep-alive token(s) or DLPack tensor(s) still point to it); "
                              "release them first, or reserve() the capacity before exporting");
    }
  }
  // The capacity (rows) growth to `needed` rows asks for: max(capacity * ratio + 0.5, needed).
  index_t new_capacity_rows(index_t needed, const char* op) const {
    const index_t cap = root().capacity_rows();
    auto sh = root_shape();
    sh[0] = needed;
    (void)checked_nbytes(std::string("tack::array::") + op, sh, sizeof(V), A::element_name(),
                         needed);
    // Axom's rule: new_capacity = max(capacity * ratio + 0.5, needed), at most the rows that fit.
    const std::size_t rb = root().row_bytes();
    const auto max_rows = static_cast<index_t>(rb ? max_array_bytes / rb : max_array_bytes);
    const double grown = static_cast<double>(cap) * root().resize_ratio + 0.5;
    return grown >= static_cast<double>(max_rows) ? max_rows
                                                  : std::max(static_cast<index_t>(grown), needed);
  }
  // The rows after adding `count` to `n`, refused (value_error naming the shape) on overflow.
  index_t grown_rows(index_t n, index_t count, const char* op) const {
    if (count > std::numeric_limits<index_t>::max() - n) {
      throw value_error(std::string("tack::array::") + op + ": adding " + std::to_string(count) +
                        " rows to " + a.describe() +
                        " gives a shape whose element count overflows "
                        "(shape " +
                        shape_string(a.shape()) + " + " + std::to_string(count) + " rows)");
    }
    return n + count;
  }
  void grow_to(index_t needed, const char* op) const {
    if (needed <= root().capacity_rows()) return;
    refuse_if_exported(op);
    root().buf.reallocate(
        static_cast<std::size_t>(new_capacity_rows(needed, op)) * root().row_bytes(),
        root().used_bytes());
  }
  // Appends one element at row `pos` of a host rank-1 root with room when `pos` is its end
  // (push_back's common case; `pos < 0`: the end); false when the general path must run.
  inline TACK_IMPL_ALWAYS_INLINE bool try_append(const V& v, index_t pos = -1) const {
    if constexpr (Rank == 1 && !A::holds_objects) {
      if (a.aos_.root && !a.row_view_) {
        storage& s = root();
        const index_t n = s.extents[0];
        if ((pos < 0 || pos == n) &&
            static_cast<std::size_t>(n + 1) * sizeof(V) <= s.buf.nbytes() && s.growable &&
            s.buf.host_accessible() && !s.buf.read_only()) [[likely]] {
          static_cast<V*>(s.buf.data())[n] = v;
          s.extents[0] = n + 1;
          s.buf.bump_version();
          return true;
        }
      }
    }
    (void)v;
    (void)pos;
    return false;
  }
  // `count` rows before row `pos` of a root (both checked by the caller): `values` holds
  // `nvalues` elements, either all of the rows' elements or one value for each.
  void insert_rows(index_t pos, index_t count, const V* values, std::size_t nvalues,
                   const char* op) const {
    storage& st = root();
    const index_t n = st.extents[0];
    const std::size_t rb = st.row_bytes();
    // Values that live in this array's own allocation (push_back(a[0]), insert(pos, a[k]), a span
    // over a's elements) are read before growth frees the block and before the shift moves them,
    // as std::vector does: one value is copied always (it is cheap), several when they alias.
    V one{};
    std::vector<V> own;
    if (nvalues == 1) {
      one = *values;
      values = &one;
    } else if (st.buf.host_accessible()) {
      const auto first = reinterpret_cast<std::uintptr_t>(st.buf.data());
      const auto v = reinterpret_cast<std::uintptr_t>(values);
      if (first != 0 && v + nvalues * sizeof(V) > first && v < first + st.buf.nbytes()) {
        own.assign(values, values + nvalues);
        values = own.data();
      }
    }
    grow_to(grown_rows(n, count, op), op);  // may throw out_of_memory: nothing has changed yet
    auto* base = static_cast<unsigned char*>(st.buf.data());
    const bool host = st.buf.host_accessible();
    move_bytes(base + static_cast<std::size_t>(pos + count) * rb,
               base + static_cast<std::size_t>(pos) * rb, static_cast<std::size_t>(n - pos) * rb,
               host);
    void* dst = base + static_cast<std::size_t>(pos) * rb;
    const std::size_t total = static_cast<std::size_t>(count) * (rb / sizeof(V));
    if (nvalues == total) {
      copy_bytes(dst, host, values, true, total * sizeof(V));
    } else if (host) {
      host_fill(dst, values, sizeof(V), total);
    } else {
      device_fill(dst, values, sizeof(V), total);
    }
    st.extents[0] = n + count;
    st.buf.bump_version();
  }
  // Removes rows [first, last) of a root (checked by the caller).
  void erase_rows(index_t first, index_t last, const char* op) const {
    storage& st = root();
    const index_t n = st.extents[0];
    if constexpr (A::holds_objects) {
      objects{a}.erase_rows(first, last);
    } else {
      (void)op;
      const std::size_t rb = st.row_bytes();
      auto* base = static_cast<unsigned char*>(st.buf.data());
      move_bytes(base + static_cast<std::size_t>(first) * rb,
                 base + static_cast<std::size_t>(last) * rb,
                 static_cast<std::size_t>(n - last) * rb, st.buf.host_accessible());
    }
    st.extents[0] = n - (last - first);
    st.buf.bump_version();
  }
  // Sets a root's rows to `n` (>= 0, checked by the caller); new rows are `value`.
  void resize_rows(index_t n, const V& value, const char* op) const {
    storage& st = root();
    const index_t old = st.extents[0];
    if (n > old) {
      const V fill_value = value;  // `value` may be an element of this array (resize(n, a[0]))
      grow_to(n, op);
      const std::size_t rb = st.row_bytes();
      const std::size_t count = static_cast<std::size_t>(n - old) * (rb / sizeof(V));
      void* dst = static_cast<unsigned char*>(st.buf.data()) + static_cast<std::size_t>(old) * rb;
      if (st.buf.host_accessible()) {
        host_fill(dst, &fill_value, sizeof(V), count);
      } else {
        device_fill(dst, &fill_value, sizeof(V), count);
      }
    }
    st.extents[0] = n;
    st.buf.bump_version();
  }
  void reserve(index_t n) const {
    if (n <= root().capacity_rows()) return;
    auto sh = root_shape();
    sh[0] = n;
    const std::size_t bytes =
        checked_nbytes("tack::array::reserve", sh, sizeof(V), A::element_name(), n);
    if constexpr (A::holds_objects) {
      (void)bytes;
      objects{a}.relocate(n, "reserve");
    } else {
      refuse_if_exported("reserve");
      root().buf.reallocate(bytes, root().used_bytes());
    }
  }
  void shrink() const {
    if (root().buf.nbytes() <= root().used_bytes()) return;
    if constexpr (A::holds_objects) {
      // Relocated as growth relocates (strong guarantee), where std::vector::shrink_to_fit moves.
      objects{a}.relocate(root().extents[0], "shrink");
    } else {
      refuse_if_exported("shrink");
      root().buf.reallocate(root().used_bytes(), root().used_bytes());
    }
  }
};

}  // namespace tack::detail
