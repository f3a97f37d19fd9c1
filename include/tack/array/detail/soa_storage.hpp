// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
#pragma once
/// @file The storage policy of structure-of-arrays vector and matrix arrays (not public): a block
/// of component arrays shared by every handle, and a row window into them. `tack::array` picks it
/// (or the AoS policy, aos_storage.hpp) in `visit_storage`; both offer the same primitives, the
/// SoA ones mostly by asking each component array.

#include <tack/array/detail/aos_storage.hpp>
#include <tack/array/detail/array_common.hpp>
#include <tack/core/error.hpp>
#include <tack/core/macros.hpp>
#include <tack/core/slice.hpp>

#include <algorithm>
#include <array>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace tack::detail {

/// The SoA policy over the handle `a`: `a.soa_` (component block and first row) and the handle's
/// row window (`a.row_view_`, `a.shape_`).
template <class A>
struct storage_policy<A>::soa {
  using part = typename decltype(A::soa_)::part;
  const A& a;

  // ---- shape and metadata --------------------------------------------------------------------

  // Component `c` as given at construction (without this handle's row window).
  const part& stored(int c) const { return a.soa_[c]; }
  static constexpr tack::layout layout = tack::layout::soa;  // the layout this policy stores
  static constexpr const char* layout_note = ", soa";        // what describe() adds for the layout
  const auto& parts() const { return *a.soa_.parts; }
  bool valid() const noexcept { return static_cast<bool>(a.soa_.parts); }
  shape_type shape() const {
    if (a.row_view_) return a.shape_;
    const shape_type s0 = stored(0).shape();
    for (int c = 1; c < N; ++c) {
      if (stored(c).shape() != s0) refuse_ragged(c);
    }
    return s0;
  }
  // Components of different shapes: one was grown or shrunk through its own handle (`soa(x, y)`
  // shares x and y). Reading would run past the shorter one, so every use is refused.
  [[noreturn]] void refuse_ragged(int c) const {
    throw value_error(
        "tack::array: a structure-of-arrays array whose components no longer have "
        "one shape: component 0 is " +
        stored(0).describe() + ", component " + std::to_string(c) + " is " + stored(c).describe() +
        " (a component was resized through its own handle; resize the SoA array "
        "instead)");
  }
  tack::device device() const { return stored(0).device(); }
  allocator_id allocator() const { return stored(0).allocator(); }
  bool host_accessible() const { return stored(0).host_accessible(); }
  bool is_view() const noexcept { return a.row_view_ || (a.soa_.parts && stored(0).is_view()); }
  bool read_only() const { return read_only_component() >= 0; }
  int read_only_component() const {
    for (int c = 0; c < N; ++c) {
      if (stored(c).read_only()) return c;
    }
    return -1;
  }
  std::string read_only_note() const {
    const int c = read_only_component();
    return " (component " + std::to_string(c) + ", " + stored(c).describe() + ")";
  }
  std::uint64_t version() const {
    std::uint64_t v = 0;
    for (auto& c : parts()) v += c.version();
    return v;
  }
  void bump_version() const {
    for (auto& c : parts()) c.bump_version();
  }
  std::string row_view_description() const {
    if (!a.row_view_) return stored(0).row_view_description();
    return "view of rows [" + std::to_string(a.soa_.first_row) + ", " +
           std::to_string(a.soa_.first_row + a.shape_[0]) + ") of " +
           std::to_string(stored(0).shape()[0]);
  }

  // Component `c` as this handle sees it: the stored component, or for a row view its rows
  // [first_row, first_row + shape_[0]). A view whose rows a shrink of the components removed is an
  // index_error, as for AoS views.
  typename A::component_array part_of(int c, const char* op) const {
    const auto& p = stored(c);
    if (!a.row_view_) return typename A::component_array(p);
    require_window(op);
    const index_t first = a.soa_.first_row;
    return typename A::component_array(p.slice_rows(slice(first, first + a.shape_[0]), op));
  }
  std::vector<typename A::component_array> components() const {
    std::vector<typename A::component_array> out;
    out.reserve(static_cast<std::size_t>(N));
    for (int c = 0; c < N; ++c) out.push_back(part_of(c, "components"));
    return out;
  }

  // ---- pointers and host elements ------------------------------------------------------------

  [[noreturn]] void require_pointer(const char* op) const {
    throw value_error(std::string("tack::array::") + op + ": " + a.describe() +
                      " is structure-of-arrays and has no single pointer; use components(), "
                      "soa_view(), or copy({.layout = tack::layout::aos})");
  }
  void require_components(const char*) const noexcept {}
  [[noreturn]] T* pointer(const char* op) const { require_pointer(op); }
  [[noreturn]] T& element(index_t, const char* op) const {
    throw value_error(std::string("tack::array::") + op + ": " + a.describe() +
                      " is structure-of-arrays; host element access goes through soa_view()[i] "
                      "or components()");
  }

  // ---- rows window -----------------------------------------------------------------------------

  // Whether every row of this view's window still exists in every component.
  bool window_exists() const {
    const index_t last = a.soa_.first_row + a.shape_[0];
    for (auto& c : parts()) {
      if (last > c.shape()[0]) return false;
    }
    return true;
  }
  void require_window(const char* op) const {
    if (a.row_view_ && !window_exists()) {
      throw index_error(std::string("tack::array::") + op + ": " + a.describe() +
                        " no longer exists: its components now have " +
                        std::to_string(stored(0).shape()[0]) + " rows");
    }
  }
  // Makes `out` rows `s` (step 1) of this handle: the same component block with a row window, one
  // reference-count increment. False (out untouched) for a moved-from handle, an empty range or
  // rows that no longer exist.
  inline TACK_IMPL_ALWAYS_INLINE bool window(const slice& s, A& out) const {
    if (!a.soa_.parts) return false;
    const aos_storage<part> first_part{stored(0)};  // a root or a view, never moved from
    const index_t n = a.row_view_ ? a.shape_[0] : first_part.shape()[0];
    const auto b = s.resolve(n);
    if (!(b.first < b.last && (!a.row_view_ || window_exists()))) return false;
    shape_type sh =
        a.row_view_ ? a.shape_ : first_part.shape();  // read before the atomic increment
    sh[0] = b.last - b.first;
    out.layout_ = tack::layout::soa;
    out.soa_.first_row = a.soa_.first_row + b.first;
    out.row_view_ = true;
    out.shape_ = sh;
    out.soa_.parts = a.soa_.parts;
    return true;
  }

  // ---- kernel forms --------------------------------------------------------------------------

  [[noreturn]] typename A::aos_kernel_view aos_kernel_form() const { require_pointer("view"); }
  // One pointer per component, read from the component arrays without making handles of them.
  typename A::soa_kernel_view soa_kernel_form() const {
    require_window("soa_view");
    using CS = typename A::const_scalar;
    std::array<CS*, static_cast<std::size_t>(N)> ptrs{};
    const index_t first = a.row_view_ ? a.soa_.first_row : 0;
    const index_t row = row_elements();
    for (int c = 0; c < N; ++c) {
      ptrs[static_cast<std::size_t>(c)] =
          aos_storage<part>{stored(c)}.pointer("soa_view") + first * row;
    }
    if (a.row_view_ || stored(0).row_view_) {
      // Where row 0 sits in the first component's root (bounds messages only).
      const aos_storage<part> p0{stored(0)};
      const std::size_t rb = p0.root().row_bytes();
      const std::size_t at =
          stored(0).aos_.byte_offset + static_cast<std::size_t>(first * row) * sizeof(S);
      return typename A::soa_kernel_view(ptrs, shape(), rb ? static_cast<index_t>(at / rb) : 0,
                                         p0.root().extents[0]);
    }
    return typename A::soa_kernel_view(ptrs, shape());
  }
  typename A::soa_kernel_view kernel_form() const { return soa_kernel_form(); }
  index_t row_elements() const {
    const auto sh = shape();
    index_t n = 1;
    for (int d = 1; d < Rank; ++d) n *= sh[static_cast<std::size_t>(d)];
    return n;
  }

  // ---- views -----------------------------------------------------------------------------------

  template <class R, std::size_t M>
  [[noreturn]] void view_bytes(R&, const std::array<index_t, M>&, const char* op) const {
    require_pointer(op);
  }
  // Shares this handle's component block with `out`, whose parts are of another memory space
  // parameter, each converted after `check(part)` accepts it.
  template <class Out, class Check>
  void share_into(Out& out, Check&& check) const {
    auto block = make_counted<typename decltype(out.soa_)::block>();
    for (std::size_t c = 0; c < block->size(); ++c) {
      check(parts()[c]);
      (*block)[c] = typename decltype(out.soa_)::part(parts()[c]);
    }
    out.layout_ = tack::layout::soa;
    out.soa_.parts = std::move(block);
    out.soa_.first_row = a.soa_.first_row;
  }

  template <int NewRank>
  array<T, NewRank, A::space> reshape(const tack::shape<NewRank>& new_shape) const {
    using R = array<T, NewRank, A::space>;
    R out(typename R::uninitialized_tag{});
    out.layout_ = tack::layout::soa;
    auto block = make_counted<typename decltype(out.soa_)::block>();
    for (int c = 0; c < N; ++c) {
      (*block)[static_cast<std::size_t>(c)] =
          array_access::mutable_alias(part_of(c, "reshape").reshape(new_shape));
    }
    out.soa_.parts = std::move(block);
    return out;
  }

  // ---- where the elements are (copies and overlap checks, array_copy.hpp) ----------------------

  // Calls `f(first, last)` with each component's byte range (none for an empty handle).
  template <class F>
  void for_each_byte_range(F&& f) const {
    for (const auto& c : components())
      aos_storage<typename A::component_array>{c}.for_each_byte_range(f);
  }
  // The address of each component's first scalar (into `bases`); returns the step between
  // elements in bytes: one scalar, as each component is its own array.
  std::ptrdiff_t component_bases(std::vector<std::uintptr_t>& bases) const {
    bases.resize(static_cast<std::size_t>(N));
    for (int c = 0; c < N; ++c) {
      const auto part = part_of(c, "copy");
      bases[static_cast<std::size_t>(c)] = reinterpret_cast<std::uintptr_t>(
          aos_storage<typename A::component_array>{part}.pointer("copy"));
    }
    return static_cast<std::ptrdiff_t>(sizeof(S));
  }

  // ---- copy-out, fill, export ------------------------------------------------------------------

  std::vector<V> to_vector() const {
    std::vector<V> out(static_cast<std::size_t>(a.size()));
    for (int c = 0; c < N; ++c) {
      const auto values = part_of(c, "to_vector").to_vector();
      for (std::size_t i = 0; i < out.size(); ++i) set_component(out[i], c, values[i]);
    }
    return out;
  }
  void fill(const V& value) const {
    for (int c = 0; c < N; ++c) part_of(c, "fill").fill(get_component<S>(value, c));
  }
  [[noreturn]] typename A::exported_memory export_memory() const {
    throw value_error("tack::array::export_memory: " + a.describe() +
                      " is structure-of-arrays and has no single allocation; export its "
                      "components(), or copy({.layout = tack::layout::aos})");
  }

  // ---- growth: each component grows
  // --------------------------------------------------------------

  index_t capacity() const {
    if (a.row_view_) return a.shape_[0];
    index_t cap = std::numeric_limits<index_t>::max();
    for (auto& c : parts()) cap = std::min(cap, c.capacity());
    return cap;
  }
  double resize_ratio() const { return stored(0).resize_ratio(); }
  void set_resize_ratio(double r) const {
    for (auto& c : parts()) c.set_resize_ratio(r);
  }
  void require_growable(const char* op) const {
    if (is_view()) a.refuse_growth(op, "it is a view");
    for (auto& c : parts()) c.require_growable(op);
    for (int c = 0; c < N; ++c) {
      for (int d = c + 1; d < N; ++d) {
        if (array_access::storage_of(stored(c)).get() == array_access::storage_of(stored(d)).get())
          a.refuse_growth(op, "components " + std::to_string(c) + " and " + std::to_string(d) +
                                  " are the same array, which would grow twice");
      }
    }
  }
  bool try_append(const V&, index_t = -1) const noexcept { return false; }
  // Growth changes every component or none: room is made in all of them first (the steps that
  // can fail: an exported component that would need a new block, out of memory), then each grows
  // within its capacity, which cannot fail for scalars.
  void make_room(index_t rows, const char* op) const {
    for (int c = 0; c < N; ++c) {
      if (stored(c).capacity() < rows) aos_storage<part>{stored(c)}.refuse_if_exported(op);
    }
    reserve(rows);
  }
  void insert_rows(index_t pos, index_t count, const V* values, std::size_t nvalues,
                   const char* op) const {
    std::vector<S> part_values(nvalues);
    make_room(stored(0).shape()[0] + count, op);
    for (int c = 0; c < N; ++c) {
      for (std::size_t k = 0; k < nvalues; ++k) part_values[k] = get_component<S>(values[k], c);
      stored(c).insert_rows(pos, count, part_values.data(), nvalues, op);
    }
  }
  void erase_rows(index_t first, index_t last, const char* op) const {
    for (auto& c : parts()) c.erase_rows(first, last, op);
  }
  void resize_rows(index_t n, const V& value, const char* op) const {
    if (n > stored(0).shape()[0]) make_room(n, op);
    for (int c = 0; c < N; ++c) stored(c).resize_rows(n, get_component<S>(value, c), op);
  }
  void reserve(index_t n) const {
    for (auto& c : parts()) c.reserve(n);
  }
  void shrink() const {
    for (auto& c : parts()) c.shrink();
  }
};

}  // namespace tack::detail
