// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
#pragma once
/// @file Growth of arrays whose elements are objects (not trivially copyable: `std::string`,
/// classes with constructors or destructors), part of the AoS storage policy (not public). The
/// algorithms are libstdc++'s `std::vector`'s, so that object elements are constructed, copied,
/// moved, assigned and destroyed as often, and a throw leaves what `std::vector` leaves. Counts
/// are in elements: a row of a rank-N array holds `row_objects()` of them. After every step the
/// root's `extents[0]` counts the rows whose elements are alive, so the storage destroys exactly
/// those.

#include <tack/array/detail/array_common.hpp>
#include <tack/core/error.hpp>

#include <algorithm>
#include <cstddef>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace tack::detail {

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

/// The object-element growth of the AoS root behind handle `a`.
template <class A>
struct storage_policy<A>::objects {
  const A& a;

  storage& root() const noexcept { return *a.aos_.root; }
  V* data() const noexcept { return static_cast<V*>(root().buf.data()); }
  std::size_t row_objects() const noexcept { return root().row_bytes() / sizeof(V); }
  aos policy() const noexcept { return {a}; }

  // The root's rows, after refusing an array that cannot grow.
  index_t end_row(const char* op) const {
    a.require_growable(op);
    return root().extents[0];
  }
  void require_position(index_t pos, index_t n, const char* op) const {
    if (pos < 0 || pos > n) {
      throw index_error(std::string("tack::array::") + op + ": position " + std::to_string(pos) +
                        " is outside [0, " + std::to_string(n) + "] for " + a.describe());
    }
  }

  // Moves the root's elements to a block of `new_cap_rows` rows, leaving a gap of `gap` elements
  // at element `gap_at` that `make(p)` fills; strong guarantee (elements move when their move
  // constructor cannot throw, else they are copied, as std::vector does).
  template <class Make>
  void reallocate(index_t new_cap_rows, std::size_t gap_at, std::size_t gap, Make&& make,
                  const char* op) const {
    policy().refuse_if_exported(op);
    const std::size_t n = static_cast<std::size_t>(root().extents[0]) * row_objects();
    root().buf.reallocate_objects(
        static_cast<std::size_t>(new_cap_rows) * root().row_bytes(), [&](void* to, void* from) {
          auto* fresh = static_cast<V*>(to);
          auto* old = static_cast<V*>(from);
          make(fresh + gap_at);  // first, while the old block (maybe holding the value) is intact
          try {
            relocate_objects(old, old + gap_at, fresh);
          } catch (...) {
            std::destroy_n(fresh + gap_at, gap);
            throw;
          }
          try {
            relocate_objects(old + gap_at, old + n, fresh + gap_at + gap);
          } catch (...) {
            std::destroy_n(fresh, gap_at + gap);
            throw;
          }
          std::destroy_n(old, n);
        });
  }
  // The elements moved to a block of `new_cap_rows` rows (reserve, shrink).
  void relocate(index_t new_cap_rows, const char* op) const {
    const std::size_t used = static_cast<std::size_t>(root().extents[0]) * row_objects();
    reallocate(
        new_cap_rows, used, 0, [](V*) {}, op);
  }

  // One element made from `args` before row `pos` (rank 1). CopyFirst: `args` is one value that
  // may be an element of this array, copied before the shift (std::vector::insert(pos, const T&)).
  template <bool CopyFirst, class... Args>
  void emplace(index_t pos, const char* op, Args&&... args) const {
    a.require_growable(op);
    storage& st = root();
    const index_t n = st.extents[0];
    require_position(pos, n, op);
    V* p = data();
    if (n < st.capacity_rows()) {
      // Room left: at the end, construct in place; before it, construct the last element from its
      // neighbour, shift the rest up by move assignment, then assign the new value.
      const auto shift_in = [&](V&& x) {
        std::construct_at(p + n, std::move(p[n - 1]));
        st.extents[0] = n + 1;
        std::move_backward(p + pos, p + n - 1, p + n);
        p[pos] = std::move(x);
      };
      if (pos == n) {
        std::construct_at(p + n, std::forward<Args>(args)...);
        st.extents[0] = n + 1;
      } else if constexpr (!CopyFirst && sizeof...(Args) == 1 &&
                           (std::is_same_v<std::remove_cvref_t<Args>, V> && ...) &&
                           (!std::is_lvalue_reference_v<Args> && ...)) {
        shift_in(std::move(args)...);
      } else {
        // The value may be an element that the shift moves: made before anything moves.
        V x(std::forward<Args>(args)...);
        shift_in(std::move(x));
      }
    } else {
      reallocate(
          policy().new_capacity_rows(policy().grown_rows(n, 1, op), op),
          static_cast<std::size_t>(pos), 1,
          [&](V* at) { std::construct_at(at, std::forward<Args>(args)...); }, op);
      st.extents[0] = n + 1;
    }
    st.buf.bump_version();
  }

  // `count` rows before `pos`: `fill` copies `*values` into each element, else `values` holds
  // the `count` rows' elements (it may point into this array).
  void insert_rows(index_t pos, index_t count, const V* values, bool fill, const char* op) const {
    a.require_growable(op);
    storage& st = root();
    const index_t n = st.extents[0];
    require_position(pos, n, op);
    if (count == 0) return;
    const index_t needed = policy().grown_rows(n, count, op);
    const std::size_t row = row_objects();
    const std::size_t e_n = static_cast<std::size_t>(n) * row;
    const std::size_t e_pos = static_cast<std::size_t>(pos) * row;
    const std::size_t e_cnt = static_cast<std::size_t>(count) * row;
    const auto set_alive = [&](std::size_t elements) {
      st.extents[0] = row ? static_cast<index_t>(elements / row) : n + count;
    };
    V* p = data();
    std::vector<V> own;
    if (!fill && e_cnt) {
      // Values inside this array's block are copied first (std::vector leaves that undefined).
      const std::size_t cap_elems = static_cast<std::size_t>(st.capacity_rows()) * row;
      std::less<const V*> before;
      if (p && !before(values, p) && before(values, p + cap_elems)) {
        own.assign(values, values + e_cnt);
        values = own.data();
      }
    }
    if (needed > st.capacity_rows()) {
      reallocate(
          policy().new_capacity_rows(needed, op), e_pos, e_cnt,
          [&](V* at) {
            if (fill) {
              std::uninitialized_fill_n(at, e_cnt, *values);
            } else {
              std::uninitialized_copy_n(values, e_cnt, at);
            }
          },
          op);
      set_alive(e_n + e_cnt);
      st.buf.bump_version();
      return;
    }
    const std::size_t after = e_n - e_pos;
    if (fill) {
      const V x(*values);  // the value may be an element that the shift moves
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
    st.buf.bump_version();
  }

  // resize(n) (value == nullptr: value-initialized) and resize(n, *value).
  void resize(index_t n, const V* value, const char* op) const {
    a.require_growable(op);
    if (n < 0) {
      throw value_error(std::string("tack::array::") + op + ": size " + std::to_string(n) +
                        " is negative for " + a.describe());
    }
    storage& st = root();
    const index_t old = st.extents[0];
    const std::size_t row = row_objects();
    const std::size_t e_old = static_cast<std::size_t>(old) * row;
    const std::size_t e_new = static_cast<std::size_t>(n) * row;
    V* p = data();
    if (n > old) {
      if (n <= st.capacity_rows()) {
        if (value) {
          const V x(*value);  // resize(n, x) inserts copies of a copy, as std::vector does
          std::uninitialized_fill(p + e_old, p + e_new, x);
        } else {
          std::uninitialized_value_construct(p + e_old, p + e_new);
        }
      } else {
        reallocate(
            policy().new_capacity_rows(n, op), e_old, e_new - e_old,
            [&](V* at) {
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
    st.extents[0] = n;
    st.buf.bump_version();
  }

  // std::vector::erase of rows [first, last): the tail is move-assigned down, then the last
  // elements are destroyed (the caller updates the rows).
  void erase_rows(index_t first, index_t last) const {
    V* p = data();
    const index_t n = root().extents[0];
    const std::size_t row = row_objects();
    const auto at = [row](index_t r) { return static_cast<std::size_t>(r) * row; };
    std::move(p + at(last), p + at(n), p + at(first));
    std::destroy(p + at(n - (last - first)), p + at(n));
  }
};

}  // namespace tack::detail
