// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
#pragma once
/// @file Out-of-class growth members of `tack::array` (Axom's `Array`: push_back, insert, erase,
/// resize, reserve, ...; included by array_impl.hpp): the checks and the row arithmetic common to
/// both layouts. The storage policies carry them out (the AoS policy moves bytes, or object
/// elements through `object_rows`; the SoA policy grows each component array).

#include <tack/array/array.hpp>

#include <cmath>
#include <initializer_list>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace tack {

// ---- public growth members ----------------------------------------------------------------------

template <class T, int Rank, memory_space Space>
void array<T, Rank, Space>::push_back(const value_type& v) const
    requires(Rank == 1 && !std::is_const_v<T>) {
  if constexpr (holds_objects) {
    objects().template emplace<false>(objects().end_row("push_back"), "push_back", v);
  } else if (!visit_storage([&v](const auto& s) { return s.try_append(v); })) [[unlikely]] {
    insert_rows(size(), 1, &v, 1, "push_back");
  }
}

template <class T, int Rank, memory_space Space>
void array<T, Rank, Space>::push_back(value_type&& v) const
    requires(Rank == 1 && !std::is_const_v<T> && !detail::bytes_element_v<std::remove_const_t<T>>) {
  objects().template emplace<false>(objects().end_row("push_back"), "push_back", std::move(v));
}

template <class T, int Rank, memory_space Space>
template <class... Args>
void array<T, Rank, Space>::emplace_back(Args&&... args) const
    requires(Rank == 1 && !std::is_const_v<T>) {
  if constexpr (holds_objects) {
    objects().template emplace<false>(objects().end_row("emplace_back"), "emplace_back",
                                      std::forward<Args>(args)...);
  } else {
    const value_type v(std::forward<Args>(args)...);
    insert_rows(size(), 1, &v, 1, "emplace_back");
  }
}

template <class T, int Rank, memory_space Space>
void array<T, Rank, Space>::insert(index_t pos, const value_type& value) const
    requires(Rank == 1 && !std::is_const_v<T>) {
  if constexpr (holds_objects) {
    // `value` may be an element of this array: it is copied before anything moves.
    objects().template emplace<true>(pos, "insert", value);
  } else {
    insert_rows(pos, 1, &value, 1, "insert");
  }
}

template <class T, int Rank, memory_space Space>
void array<T, Rank, Space>::insert(index_t pos, value_type&& value) const
    requires(Rank == 1 && !std::is_const_v<T> && !detail::bytes_element_v<std::remove_const_t<T>>) {
  objects().template emplace<false>(pos, "insert", std::move(value));
}

template <class T, int Rank, memory_space Space>
void array<T, Rank, Space>::insert(index_t pos, index_t count, const value_type& value) const
    requires(Rank == 1 && !std::is_const_v<T>) {
  if (count < 0) {
    throw value_error("tack::array::insert: count " + std::to_string(count) + " is negative for " +
                      describe());
  }
  if constexpr (holds_objects) {
    objects().insert_rows(pos, count, &value, true, "insert");
  } else {
    insert_rows(pos, count, &value, 1, "insert");
  }
}

template <class T, int Rank, memory_space Space>
void array<T, Rank, Space>::insert(index_t pos, std::span<const value_type> values) const
    requires(!std::is_const_v<T>) {
  insert_values(pos, values, "insert");
}

template <class T, int Rank, memory_space Space>
void array<T, Rank, Space>::insert(index_t pos, std::initializer_list<value_type> values) const
    requires(!std::is_const_v<T>) {
  insert_values(pos, std::span<const value_type>(values.begin(), values.size()), "insert");
}

template <class T, int Rank, memory_space Space>
void array<T, Rank, Space>::append(std::span<const value_type> values) const
    requires(!std::is_const_v<T>) {
  insert_values(extent(0), values, "append");
}

template <class T, int Rank, memory_space Space>
void array<T, Rank, Space>::append(std::initializer_list<value_type> values) const
    requires(!std::is_const_v<T>) {
  append(std::span<const value_type>(values.begin(), values.size()));
}

template <class T, int Rank, memory_space Space>
template <class U, memory_space S2>
void array<T, Rank, Space>::append(const array<U, Rank, S2>& other) const
    requires(!std::is_const_v<T> &&
             std::is_same_v<std::remove_const_t<U>, std::remove_const_t<T>>) {
  auto values = other.to_vector();
  insert_values(extent(0), std::span<const value_type>(values), "append");
}

template <class T, int Rank, memory_space Space>
void array<T, Rank, Space>::erase(index_t pos) const requires(!std::is_const_v<T>) {
  erase_rows(pos, pos + 1, "erase");
}

template <class T, int Rank, memory_space Space>
void array<T, Rank, Space>::erase(index_t first, index_t last) const requires(!std::is_const_v<T>) {
  erase_rows(first, last, "erase");
}

template <class T, int Rank, memory_space Space>
void array<T, Rank, Space>::resize(index_t n) const requires(!std::is_const_v<T>) {
  if constexpr (holds_objects) {
    objects().resize(n, nullptr, "resize");
  } else {
    resize_rows(n, value_type{}, "resize");
  }
}

template <class T, int Rank, memory_space Space>
void array<T, Rank, Space>::resize(index_t n, const value_type& value) const
    requires(!std::is_const_v<T>) {
  if constexpr (holds_objects) {
    objects().resize(n, &value, "resize");
  } else {
    resize_rows(n, value, "resize");
  }
}

template <class T, int Rank, memory_space Space>
void array<T, Rank, Space>::shrink() const requires(!std::is_const_v<T>) {
  require_growable("shrink");
  visit_storage([](const auto& s) { s.shrink(); });
}

template <class T, int Rank, memory_space Space>
void array<T, Rank, Space>::clear() const requires(!std::is_const_v<T>) {
  if (size() == 0 && extent(0) == 0) {
    require_growable("clear");
    return;
  }
  erase_rows(0, extent(0), "clear");
}

// ---- row growth: checked here, carried out by the storage policy
// ----------------------------------

template <class T, int Rank, memory_space Space>
void array<T, Rank, Space>::set_resize_ratio(double r) const {
  require_valid("set_resize_ratio");
  if (!(r >= 1.0) || !std::isfinite(r)) {
    throw value_error("tack::array::set_resize_ratio: ratio " + std::to_string(r) + " for " +
                      describe() + " must be a finite number >= 1 (growth must not shrink)");
  }
  visit_storage([r](const auto& s) { s.set_resize_ratio(r); });
}

template <class T, int Rank, memory_space Space>
void array<T, Rank, Space>::reserve(index_t n) const requires(!std::is_const_v<T>) {
  require_growable("reserve");
  if (n < 0) {
    throw value_error("tack::array::reserve: capacity " + std::to_string(n) + " is negative for " +
                      describe());
  }
  visit_storage([n](const auto& s) { s.reserve(n); });
}

template <class T, int Rank, memory_space Space>
void array<T, Rank, Space>::insert_rows(index_t pos, index_t count, const value_type* values,
                                        std::size_t nvalues, const char* op) const {
  if constexpr (holds_objects) {
    // insert_values: rows of elements (insert(pos, count, value) goes to object_rows directly).
    (void)nvalues;
    objects().insert_rows(pos, count, values, false, op);
  } else {
    if (count == 1 && nvalues == 1 &&
        visit_storage([&](const auto& s) { return s.try_append(*values, pos); })) {
      return;
    }
    require_growable(op);
    const index_t n = extent(0);
    if (pos < 0 || pos > n) {
      throw index_error(std::string("tack::array::") + op + ": position " + std::to_string(pos) +
                        " is outside [0, " + std::to_string(n) + "] for " + describe());
    }
    if (count == 0) return;
    visit_storage([&](const auto& s) { s.insert_rows(pos, count, values, nvalues, op); });
  }
}

template <class T, int Rank, memory_space Space>
void array<T, Rank, Space>::insert_values(index_t pos, std::span<const value_type> values,
                                          const char* op) const {
  require_valid(op);
  std::size_t row = 1;  // elements per row
  const auto sh = shape();
  for (int d = 1; d < Rank; ++d) row *= static_cast<std::size_t>(sh[static_cast<std::size_t>(d)]);
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
  visit_storage([&](const auto& s) { s.erase_rows(first, last, op); });
}

template <class T, int Rank, memory_space Space>
void array<T, Rank, Space>::resize_rows(index_t n, const value_type& value, const char* op) const {
  require_growable(op);
  if (n < 0) {
    throw value_error(std::string("tack::array::") + op + ": size " + std::to_string(n) +
                      " is negative for " + describe());
  }
  visit_storage([&](const auto& s) { s.resize_rows(n, value, op); });
}

}  // namespace tack
