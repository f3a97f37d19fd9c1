// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
#pragma once
/// @file Text for element types: `tack::to_string` and `operator<<` for scalars, `vec`, `mat` and
/// `dtype`. Kept out of the core headers because it needs <string> and <ostream>.
/// Numbers are written in their shortest round-trip form (`0.1f` prints as `0.1`, `1.0` as `1`),
/// integers of every width as numbers (an `int8_t` is not a character), `bool` as `true`/`false`.

#include <tack/types/dtype.hpp>
#include <tack/types/item.hpp>

#include <charconv>
#include <ostream>
#include <string>
#include <string_view>
#include <type_traits>

namespace tack {

namespace detail {

template <class T>
void append_scalar(std::string& out, T value) {
  if constexpr (std::is_same_v<T, bool>) {
    out += value ? "true" : "false";
  } else {
    char buffer[64];
    // Integers narrower than int print as numbers: to_chars takes them as integers, not chars.
    const auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
    out.append(buffer, result.ptr);
  }
}

template <class T, int N>
void append_vec(std::string& out, const vec<T, N>& v) {
  out += '[';
  for (int i = 0; i < N; ++i) {
    if (i > 0) {
      out += ", ";
    }
    append_scalar(out, v[i]);
  }
  out += ']';
}

}  // namespace detail

/// Appends the text of an element to `out` (no allocation beyond `out`'s growth); array printing
/// uses it per element. `std::string s; tack::append_to(s, tack::vec2f{1, 2});  // "[1, 2]"`
template <class T>
requires element<T>
void append_to(std::string& out, const T& x) {
  using E = std::remove_cv_t<T>;
  if constexpr (is_vec_v<E>) {
    detail::append_vec(out, x);
  } else if constexpr (is_mat_v<E>) {
    out += '[';
    for (int i = 0; i < E::rows; ++i) {
      if (i > 0) {
        out += ", ";
      }
      detail::append_vec(out, x[i]);
    }
    out += ']';
  } else {
    detail::append_scalar(out, x);
  }
}

/// The text of an element: `"1.5"`, `"[1, 0, 0]"`, `"[[1, 2], [3, 4]]"` (a matrix row by row).
/// `std::string s = tack::to_string(tack::mat2f{{1, 2}, {3, 4}});`
template <class T>
requires element<T> std::string to_string(const T& x) {
  std::string out;
  append_to(out, x);
  return out;
}

/// The dtype's name. `tack::to_string(tack::dtype_of<tack::vec3f>()) == "vec3(f32)"`
inline std::string to_string(const dtype& d) { return std::string(d.name()); }

/// Writes `to_string(v)`. `std::cout << tack::vec3f{1, 0, 0};  // [1, 0, 0]`
template <class T, int N>
std::ostream& operator<<(std::ostream& os, const vec<T, N>& v) {
  return os << to_string(v);
}
/// Writes `to_string(m)`. `std::cout << tack::identity<float, 2>();  // [[1, 0], [0, 1]]`
template <class T, int R, int C>
std::ostream& operator<<(std::ostream& os, const mat<T, R, C>& m) {
  return os << to_string(m);
}
/// Writes the dtype's name. `std::cout << a.dtype();  // vec3(f32)`
inline std::ostream& operator<<(std::ostream& os, const dtype& d) { return os << d.name(); }

}  // namespace tack
