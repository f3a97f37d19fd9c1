// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
#pragma once
/// @file The state a root array and all its views share (not public).

#include <tack/core/index.hpp>
#include <tack/memory/buffer.hpp>

#include <array>
#include <cstddef>
#include <cstring>
#include <memory>
#include <type_traits>

namespace tack::detail {

/// What concerns the allocation rather than the stretch: the buffer (reallocated by growth), the
/// root's current shape, growth settings. Views hold the same storage and read it at each use.
///
/// Elements that are not trivially copyable (`std::string`, classes with constructors or
/// destructors) are objects: the root's `extents[0]` rows of them are alive in `buf` at every
/// moment, and the storage destroys them once, when the last handle (root or view) lets go of it.
/// Trivially copyable elements are bytes, and `destroy` stays null.
struct storage {
  buffer buf;
  std::array<index_t, max_rank> extents{};  ///< the root's shape (first `rank` entries)
  int rank = 1;
  std::size_t element_bytes = 0;  ///< bytes per element of the root
  double resize_ratio = 2.0;
  bool growable = true;  ///< false for borrowed memory
  /// Destroys the root's elements where it constructed them (null: bytes, or borrowed memory).
  void (*destroy)(storage& s) noexcept = nullptr;

  storage() = default;
  storage(const storage&) = delete;
  storage& operator=(const storage&) = delete;
  ~storage() {
    if (destroy) destroy(*this);
  }

  /// Bytes of one row (an index along the first dimension).
  std::size_t row_bytes() const noexcept {
    std::size_t b = element_bytes;
    for (int d = 1; d < rank; ++d)
      b *= static_cast<std::size_t>(extents[static_cast<std::size_t>(d)]);
    return b;
  }
  /// Bytes the root's elements occupy now.
  std::size_t used_bytes() const noexcept {
    return static_cast<std::size_t>(extents[0]) * row_bytes();
  }
  /// Rows the allocation can hold without reallocating.
  index_t capacity_rows() const noexcept {
    const std::size_t rb = row_bytes();
    return rb ? static_cast<index_t>(buf.nbytes() / rb) : 0;
  }
};

/// Destroys the `T` elements of the root's rows (what a storage of objects runs when it dies).
template <class T>
void destroy_elements(storage& s) noexcept {
  if (s.element_bytes)
    std::destroy_n(static_cast<T*>(s.buf.data()), s.used_bytes() / s.element_bytes);
}

/// Component `c` of an element value (the value itself for scalars).
template <class S, class T>
inline S get_component(const T& v, int c) noexcept {
  if constexpr (std::is_arithmetic_v<T>) {
    (void)c;
    return v;
  } else {
    S out;
    std::memcpy(
        &out, reinterpret_cast<const unsigned char*>(&v) + sizeof(S) * static_cast<std::size_t>(c),
        sizeof(S));
    return out;
  }
}

/// Sets component `c` of an element value.
template <class S, class T>
inline void set_component(T& v, int c, S s) noexcept {
  if constexpr (std::is_arithmetic_v<T>) {
    (void)c;
    v = s;
  } else {
    std::memcpy(reinterpret_cast<unsigned char*>(&v) + sizeof(S) * static_cast<std::size_t>(c), &s,
                sizeof(S));
  }
}

}  // namespace tack::detail
