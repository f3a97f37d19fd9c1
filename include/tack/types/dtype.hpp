// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
#pragma once
/// @file `tack::dtype`: the run-time description of an element type — scalar kind and
/// component shape — used where the type is not a template argument (`any_array`, DLPack, error
/// messages). Immutable, 24 bytes, never allocates; names live in static storage.

#include <tack/types/item.hpp>
#include <tack/types/scalar.hpp>

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <type_traits>

namespace tack {

class dtype;
template <class T>
constexpr dtype dtype_of() noexcept;

namespace detail {

/// The longest vector a dtype built at run time (`dtype::vector`, `dtype::parse`) can describe:
/// names come from a table in static storage, and it holds vectors up to this length. Types with
/// longer vectors still get a dtype from `dtype_of<T>()`, whose name is stored per type.
inline constexpr int dtype_runtime_vector_max = 16;

enum class dtype_form : std::uint8_t { scalar, vector, matrix };

/// A name such as "mat2x3(bool)" or "vec2147483647(bool)" (at most 19 characters), NUL-terminated.
struct dtype_name_text {
  char text[24];
};

constexpr dtype_name_text make_dtype_name(scalar_kind k, dtype_form form, int rows, int cols) {
  dtype_name_text out{};
  int n = 0;
  auto put = [&](char c) { out.text[n++] = c; };
  auto put_int = [&](int v) {
    char digits[12]{};
    int d = 0;
    do {
      digits[d++] = static_cast<char>('0' + v % 10);
      v /= 10;
    } while (v > 0);
    while (d > 0) {
      put(digits[--d]);
    }
  };
  if (form != dtype_form::scalar) {
    put(form == dtype_form::vector ? 'v' : 'm');
    put(form == dtype_form::vector ? 'e' : 'a');
    put(form == dtype_form::vector ? 'c' : 't');
    put_int(rows);
    if (form == dtype_form::matrix && rows != cols) {
      put('x');
      put_int(cols);
    }
    put('(');
  }
  for (const char* s = scalar_kind_name(k); *s != '\0'; ++s) {
    put(*s);
  }
  if (form != dtype_form::scalar) {
    put(')');
  }
  return out;
}

/// Table layout per scalar kind: the scalar, vectors 1..16, then matrices 1..4 × 1..4 row-major.
inline constexpr int dtype_slots_per_kind = 1 + dtype_runtime_vector_max + 16;

constexpr int dtype_slot(scalar_kind k, dtype_form form, int rows, int cols) {
  const int base = static_cast<int>(k) * dtype_slots_per_kind;
  switch (form) {
    case dtype_form::scalar:
      return base;
    case dtype_form::vector:
      return base + rows;
    case dtype_form::matrix:
      return base + 1 + dtype_runtime_vector_max + (rows - 1) * 4 + (cols - 1);
  }
  return base;
}

struct dtype_name_table_type {
  dtype_name_text entries[scalar_kind_count * dtype_slots_per_kind];
};

constexpr dtype_name_table_type make_dtype_name_table() {
  dtype_name_table_type t{};
  for (int k = 0; k < scalar_kind_count; ++k) {
    const auto kind = static_cast<scalar_kind>(k);
    t.entries[dtype_slot(kind, dtype_form::scalar, 1, 1)] =
        make_dtype_name(kind, dtype_form::scalar, 1, 1);
    for (int n = 1; n <= dtype_runtime_vector_max; ++n) {
      t.entries[dtype_slot(kind, dtype_form::vector, n, 1)] =
          make_dtype_name(kind, dtype_form::vector, n, 1);
    }
    for (int r = 1; r <= 4; ++r) {
      for (int c = 1; c <= 4; ++c) {
        t.entries[dtype_slot(kind, dtype_form::matrix, r, c)] =
            make_dtype_name(kind, dtype_form::matrix, r, c);
      }
    }
  }
  return t;
}

/// Names of every dtype that can be built at run time (363 entries, about 9 KB).
inline constexpr dtype_name_table_type dtype_name_table = make_dtype_name_table();

/// The name of one element type known at compile time (any vector length).
template <scalar_kind K, dtype_form Form, int Rows, int Cols>
inline constexpr dtype_name_text dtype_name_of = make_dtype_name(K, Form, Rows, Cols);

// Host-only error paths (src/types/dtype.cpp), kept out of line so this header needs no <string>.
[[noreturn]] void throw_bad_scalar_kind(const char* operation, int kind);
[[noreturn]] void throw_bad_vector_length(int length);
[[noreturn]] void throw_bad_matrix_shape(int rows, int cols);

}  // namespace detail

/// The run-time descriptor of an element type: scalar kind and component shape.
/// A scalar has shape 1×1, `vec<T, N>` N×1, `mat<T, R, C>` R×C; `vec<T, 1>` and `mat<T, 1, 1>`
/// remain distinct from `T` (their arrays have a component axis of extent 1).
/// Names: `"f32"`, `"vec3(f32)"`, `"mat3(f64)"` (square), `"mat2x3(f32)"` (rows × cols); `name()`
/// points into static storage, so it outlives the dtype.
/// `tack::dtype d = tack::dtype_of<tack::vec3f>(); d.name() == "vec3(f32)"; d.itemsize() == 12;`
class dtype {
public:
  /// `f64`, NumPy's default. `tack::dtype d;`
  constexpr dtype() noexcept = default;

  /// The scalar dtype of kind `k` (a value outside the enumeration is a `value_error`).
  /// `tack::dtype d{tack::scalar_kind::i32};`
  constexpr explicit dtype(scalar_kind k)
      : kind_(checked_kind("tack::dtype(scalar_kind)", k)),
        form_(detail::dtype_form::scalar),
        rows_(1),
        cols_(1),
        name_(table_name(k, detail::dtype_form::scalar, 1, 1)) {}

  /// The vector dtype of `n` components of kind `k`; `n` outside 1..16 is a `value_error` (use
  /// `dtype_of<vec<T, N>>()` for longer vectors). `auto d = tack::dtype::vector(tack::scalar_kind::f32, 3);`
  static constexpr dtype vector(scalar_kind k, int n) {
    checked_kind("tack::dtype::vector", k);
    if (n < 1 || n > detail::dtype_runtime_vector_max) {
      detail::throw_bad_vector_length(n);
    }
    return dtype(k, detail::dtype_form::vector, n, 1,
                 table_name(k, detail::dtype_form::vector, n, 1));
  }

  /// The matrix dtype of shape `rows` × `cols` (each 1..4, else a `value_error`).
  /// `auto d = tack::dtype::matrix(tack::scalar_kind::f64, 3, 3);  // "mat3(f64)"`
  static constexpr dtype matrix(scalar_kind k, int rows, int cols) {
    checked_kind("tack::dtype::matrix", k);
    if (rows < 1 || rows > 4 || cols < 1 || cols > 4) {
      detail::throw_bad_matrix_shape(rows, cols);
    }
    return dtype(k, detail::dtype_form::matrix, rows, cols,
                 table_name(k, detail::dtype_form::matrix, rows, cols));
  }

  /// Reads a name as `name()` writes it (`"f32"`, `"vec3(f32)"`, `"mat3(f64)"`, `"mat2x3(f32)"`;
  /// `"mat3x3(f64)"` is accepted too). Anything else is a `value_error` quoting the text.
  /// `auto d = tack::dtype::parse("vec3(f32)");`
  static dtype parse(std::string_view text);

  /// The component kind. `d.kind() == tack::scalar_kind::f32`
  constexpr scalar_kind kind() const noexcept { return kind_; }
  /// Component shape: (1, 1) for a scalar, (N, 1) for a vector, (R, C) for a matrix.
  constexpr int rows() const noexcept { return rows_; }
  constexpr int cols() const noexcept { return cols_; }
  /// Component axes an array of this dtype appends to its storage shape: 0, 1 (N) or 2 (R, C).
  constexpr int component_rank() const noexcept {
    return form_ == detail::dtype_form::scalar ? 0 : form_ == detail::dtype_form::vector ? 1 : 2;
  }
  constexpr bool is_scalar() const noexcept { return form_ == detail::dtype_form::scalar; }
  constexpr bool is_vector() const noexcept { return form_ == detail::dtype_form::vector; }
  constexpr bool is_matrix() const noexcept { return form_ == detail::dtype_form::matrix; }
  /// Whether the components are `f32` or `f64`.
  constexpr bool is_floating_point() const noexcept { return is_floating_kind(kind_); }

  /// Scalar components per element: 1, N or R·C. `tack::dtype_of<tack::mat3f>().components() == 9`
  constexpr int components() const noexcept { return rows_ * cols_; }
  /// Bytes per component. `tack::dtype_of<tack::vec3d>().scalar_size() == 8`
  constexpr std::size_t scalar_size() const noexcept {
    return static_cast<std::size_t>(scalar_kind_size(kind_));
  }
  /// Bytes per element (`sizeof` of the element type). `tack::dtype_of<tack::vec3f>().itemsize() == 12`
  constexpr std::size_t itemsize() const noexcept {
    return scalar_size() * static_cast<std::size_t>(components());
  }
  /// The dtype of one component. `tack::dtype_of<tack::vec3f>().scalar() == tack::dtype_of<float>()`
  constexpr dtype scalar() const noexcept {
    return dtype(kind_, detail::dtype_form::scalar, 1, 1,
                 table_name(kind_, detail::dtype_form::scalar, 1, 1));
  }

  /// `"f32"`, `"vec3(f32)"`, `"mat3(f64)"`, `"mat2x3(f32)"`; static storage, never dangles.
  constexpr std::string_view name() const noexcept { return std::string_view(name_); }
  /// The same name as a NUL-terminated string.
  constexpr const char* c_str() const noexcept { return name_; }

  /// Same kind and same component shape (a vector and a matrix of the same shape differ).
  friend constexpr bool operator==(const dtype& a, const dtype& b) noexcept {
    return a.kind_ == b.kind_ && a.form_ == b.form_ && a.rows_ == b.rows_ && a.cols_ == b.cols_;
  }

private:
  template <class T>
  friend constexpr dtype dtype_of() noexcept;

  constexpr dtype(scalar_kind k, detail::dtype_form form, int rows, int cols,
                  const char* name) noexcept
      : kind_(k), form_(form), rows_(rows), cols_(cols), name_(name) {}

  static constexpr scalar_kind checked_kind(const char* operation, scalar_kind k) {
    const int i = static_cast<int>(k);
    if (i < 0 || i >= scalar_kind_count) {
      detail::throw_bad_scalar_kind(operation, i);
    }
    return k;
  }
  static constexpr const char* table_name(scalar_kind k, detail::dtype_form form, int rows,
                                          int cols) noexcept {
    return detail::dtype_name_table.entries[detail::dtype_slot(k, form, rows, cols)].text;
  }

  scalar_kind kind_ = scalar_kind::f64;
  detail::dtype_form form_ = detail::dtype_form::scalar;
  std::int32_t rows_ = 1;
  std::int32_t cols_ = 1;
  const char* name_ = table_name(scalar_kind::f64, detail::dtype_form::scalar, 1, 1);
};

/// The dtype of an element type (cv-qualifiers ignored); anything but a `tack::element` fails to
/// compile. `constexpr auto d = tack::dtype_of<tack::mat3d>();  // "mat3(f64)", itemsize 72`
template <class T>
constexpr dtype dtype_of() noexcept {
  using E = std::remove_cv_t<T>;
  if constexpr (!element<E>) {
    static_assert(
        element<E>,
        "tack::dtype_of<T>: T must be a tack element type: float, double, std::int8_t ... "
        "std::uint64_t, bool, or tack::vec / tack::mat of one of those");
    return dtype{};
  } else {
    constexpr scalar_kind k = scalar_kind_of_v<scalar_t<E>>;
    constexpr auto form = is_mat_v<E>   ? detail::dtype_form::matrix
                          : is_vec_v<E> ? detail::dtype_form::vector
                                        : detail::dtype_form::scalar;
    constexpr int rows = component_rows_v<E>;
    constexpr int cols = component_cols_v<E>;
    return dtype(k, form, rows, cols, detail::dtype_name_of<k, form, rows, cols>.text);
  }
}

/// The element types of run-time dispatch (`any_array::visit`, fields, the Python package's
/// element-wise code): the scalar types, and vec2/3/4 and mat2/3/4 of f32 and f64.
/// `tack::visit_dtype(d, [&]<class E>() { ... })`
using element_types =
    type_list<float, double, std::int8_t, std::int16_t, std::int32_t, std::int64_t, std::uint8_t,
              std::uint16_t, std::uint32_t, std::uint64_t, bool, vec<float, 2>, vec<float, 3>,
              vec<float, 4>, vec<double, 2>, vec<double, 3>, vec<double, 4>, mat<float, 2, 2>,
              mat<float, 3, 3>, mat<float, 4, 4>, mat<double, 2, 2>, mat<double, 3, 3>,
              mat<double, 4, 4>>;

/// Calls `f.template operator()<E>()` with the element type `d` describes, among
/// `element_types`; false (and no call) when it is none of them.
/// `bool ok = tack::visit_dtype(a.dtype(), [&]<class E>() { use(a.as<E>()); });`
template <class F>
bool visit_dtype(const dtype& d, F&& f) {
  bool done = false;
  [&]<class... Es>(type_list<Es...>) {
    ((!done && d == dtype_of<Es>() ? (f.template operator()<Es>(), done = true) : false), ...);
  }(element_types{});
  return done;
}

}  // namespace tack
