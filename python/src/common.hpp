// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
#pragma once
/// @file What every binding file shares: the Python array object (`py_array`), the dispatch from a
/// run-time scalar kind to a C++ type, and the helpers that turn Python values into C++ ones.
///
/// A Python `tack.Array` holds its storage as rank-1 `tack::array<S>` handles of its scalar type
/// `S` (one for an interleaved array, one per component for a structure-of-arrays one) and keeps
/// the element type and shape beside them. Row views, versions, read-only-ness, lifetime and every
/// copy are the C++ handles' own; the binding adds only the shape arithmetic. One handle type per
/// scalar kind keeps the module to eleven instantiations of each operation instead of one per
/// (element type, rank) pair.

#include <nanobind/nanobind.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

// The core tier only: each binding file includes the areas it binds, so that a change to one
// area's headers recompiles the bindings of that area, not the whole module.
#include <tack/array/array.hpp>
#include <tack/core/index.hpp>
#include <tack/core/layout.hpp>
#include <tack/memory/device.hpp>
#include <tack/types/dtype.hpp>
#include <tack/types/scalar.hpp>

#include <array>
#include <functional>
#include <optional>
#include <memory>
#include <utility>
#include <cstdint>
#include <string>
#include <variant>
#include <vector>

namespace nb = nanobind;

namespace tackpy {

using tack::index_t;

template <class... S>
std::variant<tack::array<S>...> flat_of(tack::type_list<S...>);

/// One rank-1 handle per scalar kind, in `tack::scalar_kind` order (`tack::scalar_types`).
using flat = decltype(flat_of(tack::scalar_types{}));

/// The most dimensions a Python array has, component axes included (DLPack exports them all).
inline constexpr int max_storage_rank = tack::max_rank;

/// The Python array: element type, shape, layout and the C++ storage handles.
struct py_array {
  tack::dtype elem;
  tack::layout layout = tack::layout::aos;
  int ndim = 1;
  std::array<index_t, tack::max_rank> shape{};
  /// AoS: the interleaved scalars (size * components). SoA: unused.
  flat data;
  /// SoA: one handle per component (size scalars each). AoS: empty.
  std::vector<flat> comps;

  index_t size() const noexcept {
    index_t n = 1;
    for (int d = 0; d < ndim; ++d) n *= shape[static_cast<std::size_t>(d)];
    return n;
  }
  /// Elements per row of the first dimension.
  index_t row_elements() const noexcept {
    index_t n = 1;
    for (int d = 1; d < ndim; ++d) n *= shape[static_cast<std::size_t>(d)];
    return n;
  }
  int components() const noexcept { return elem.components(); }
  bool is_soa() const noexcept { return layout == tack::layout::soa; }
  /// The shape as Python sees it.
  nb::tuple shape_tuple() const;
  /// The storage shape: the shape with the component axes appended.
  std::vector<index_t> storage_shape() const;
  /// "tack.Array vec3(f32) shape (100,) on cpu" (plus "SoA", "view", "read-only" where they hold).
  std::string describe() const;
  /// Every storage handle (the data handle, or each component).
  template <class F>
  void for_each_part(F&& f) const {
    if (is_soa()) {
      for (const auto& c : comps) f(c);
    } else {
      f(data);
    }
  }
  const flat& first_part() const { return is_soa() ? comps.front() : data; }
  bool read_only() const;
  tack::device device() const;
};

/// The rank-1 handle of scalar type `S` inside `f` (the caller knows the kind).
template <class S>
const tack::array<S>& part_as(const flat& f) {
  return std::get<tack::array<S>>(f);
}

/// Shape arguments: an int or a sequence of ints, each >= 0, 1..8 dimensions with the components.
std::vector<index_t> parse_shape(nb::handle shape, const tack::dtype& elem, const char* op);
/// "(6, 3)" as Python prints a tuple.
std::string shape_string(const std::vector<index_t>& s);
std::string shape_string(const py_array& a);

/// A new root of `elem` elements of `shape` on the CPU (uninitialized), either layout.
py_array make_root(const tack::dtype& elem, const std::vector<index_t>& shape, tack::layout layout,
                   tack::device device);
/// An empty flat root of `n` scalars of kind `k`.
flat empty_flat(tack::scalar_kind k, index_t n, tack::device device);

/// The layout named by Python: "aos" or "soa" (ValueError otherwise).
tack::layout parse_layout(nb::handle layout, const char* op);
/// The device named by Python ("cpu", "cuda:0", a tack device), or the default one for None.
tack::device parse_device(nb::handle device, const char* op);

/// A Python number as scalar `S` (floats truncate toward zero into integers, as NumPy's fill;
/// values outside `S`'s range are an OverflowError).
template <class S>
S to_scalar(nb::handle value, const char* op);

/// Copies element values from `src` to `dst` (same shape and element dimensions; any layouts;
/// the scalar types may differ, converting as `astype`). Runs without the GIL.
void copy_values(const py_array& dst, const py_array& src, const char* op);
/// A new array with `src`'s values, of element type `elem` (same component dimensions), in
/// `layout` on `device`.
py_array copy_array(const py_array& src, const tack::dtype& elem, tack::layout layout,
                    tack::device device);

/// `tack.asarray(values, dtype, device=, layout=)`: the one conversion of anything into an array
/// argument (the object itself when it matches).
nb::object as_array(nb::handle values, nb::handle dtype, nb::handle device, nb::handle layout);
/// `values` as the array a binding reads (`tack.asarray`'s conversion); a `TypeError` naming `op`
/// for what is not an array. `const py_array a = array_argument(h, "tack.sort");`
py_array array_argument(nb::handle values, const char* op);
/// `tack.from_dlpack(obj, device=, copy=, writable=)`.
py_array from_dlpack(nb::handle obj, nb::handle device, nb::handle copy, bool writable);
/// The stored values of an implicit array of the lazy evaluator (`tack.arrays`, lazy arithmetic).
py_array materialize_lazy(nb::handle lazy);

/// `tack.copyto(dst, src)` for any source.
void copyto_any(const py_array& dst, nb::handle src);
/// Evaluates an implicit array (tack.arrays.*, lazy arithmetic) into `dst`; false when `src` is
/// not one.
bool copy_lazy_into(const py_array& dst, nb::handle src);

/// Implicit arrays (lazy.cpp): whether `h` is one; arithmetic (op: 0 +, 1 -, 2 *, 3 /, 4 minimum,
/// 5 maximum, 6 **; unary 0 -, 1 abs, 2 sqrt, 3 exp, 4 log, 5 sin, 6 cos) on arrays and implicit
/// arrays; reductions ("sum", "min", "max") and the scalar component count of one.
bool is_lazy(nb::handle h);
nb::object lazy_binary(nb::handle x, nb::handle y, int op, bool reflected);
nb::object lazy_unary(nb::handle x, int op);
nb::object reduce_lazy(nb::handle h, const std::string& what);
index_t lazy_components(nb::handle h);
/// Stores `src` into the writable implicit array `dst` (`tack.copyto(tack.arrays.View(a, 2, 3), x)`).
void store_lazy(nb::handle dst, nb::handle src);

/// Adds the arithmetic operators (+ - * / ** and unary -, abs) to a bound class. The stub
/// signatures name what `lazy_binary` takes (any other operand gives NotImplemented) and returns:
/// an implicit array (`tack.arrays.ImplicitArray`, which the stub imports through the pattern file
/// python/stubgen_patterns.txt).
#define TACKPY_OPERAND "Array | ImplicitArray | float | int | bool"
#define TACKPY_BINARY(name, op, reflected)                                                   \
  arith_operator {                                                                           \
    name, "def " name "(self, other: " TACKPY_OPERAND ", /) -> ImplicitArray", op, reflected \
  }
#define TACKPY_INPLACE(name, op) \
  arith_operator { name, "def " name "(self, other: " TACKPY_OPERAND ", /) -> Array", op, false }
/// One operator of `def_arithmetic` / `def_inplace_arithmetic`: its name, its stub signature and
/// the operation number it passes on.
struct arith_operator {
  const char* name;
  const char* signature;
  int op;
  bool reflected;
};
inline constexpr arith_operator binary_operators[] = {
    TACKPY_BINARY("__add__", 0, false),     TACKPY_BINARY("__radd__", 0, true),
    TACKPY_BINARY("__sub__", 1, false),     TACKPY_BINARY("__rsub__", 1, true),
    TACKPY_BINARY("__mul__", 2, false),     TACKPY_BINARY("__rmul__", 2, true),
    TACKPY_BINARY("__truediv__", 3, false), TACKPY_BINARY("__rtruediv__", 3, true),
    TACKPY_BINARY("__pow__", 6, false),     TACKPY_BINARY("__rpow__", 6, true)};
inline constexpr arith_operator inplace_operators[] = {
    TACKPY_INPLACE("__iadd__", 0), TACKPY_INPLACE("__isub__", 1), TACKPY_INPLACE("__imul__", 2),
    TACKPY_INPLACE("__itruediv__", 3), TACKPY_INPLACE("__ipow__", 6)};
#undef TACKPY_INPLACE
#undef TACKPY_BINARY
#undef TACKPY_OPERAND

template <class Class>
void def_arithmetic(Class& cls) {
  for (const arith_operator& o : binary_operators) {
    cls.def(
        o.name,
        [op = o.op, reflected = o.reflected](nb::handle a, nb::handle b) {
          return lazy_binary(a, b, op, reflected);
        },
        nb::sig(o.signature));
  }
  cls.def(
         "__neg__", [](nb::handle a) { return lazy_unary(a, 0); },
         nb::sig("def __neg__(self) -> ImplicitArray"))
      .def(
          "__abs__", [](nb::handle a) { return lazy_unary(a, 1); },
          nb::sig("def __abs__(self) -> ImplicitArray"));
}

/// `a += x` (and `-=`, `*=`, `/=`, `**=`) on a stored `tack.Array`: `a op x` is written into `a`'s
/// memory, which every handle of it sees, and the operator returns `a` itself (NumPy's in-place
/// semantics; without these, Python would rebind `a` to a new implicit array). The result is
/// converted to `a`'s dtype as `tack.copyto` converts.
nb::object inplace_binary(nb::handle self, nb::handle other, int op);
template <class Class>
void def_inplace_arithmetic(Class& cls) {
  for (const arith_operator& o : inplace_operators) {
    cls.def(
        o.name, [op = o.op](nb::handle a, nb::handle b) { return inplace_binary(a, b, op); },
        nb::sig(o.signature));
  }
}

/// The interned Python object of a dtype (tack.f32, tack.vec3(tack.f32), ...).
nb::object dtype_object(const tack::dtype& d);
/// The dtype a Python argument names: a tack dtype object, or None for `fallback`.
tack::dtype dtype_from(nb::handle h, const tack::dtype& fallback, const char* op);
/// The NumPy dtype name of a scalar kind ("float32", ...).
const char* numpy_name(tack::scalar_kind k);
/// The scalar kind of a NumPy dtype object (TypeError for kinds tack does not have).
tack::scalar_kind kind_from_numpy(nb::handle np_dtype, const char* op);

/// A new Python `tack.Array` owning `a` (nanobind's instance allocation without the type lookup
/// of `nb::cast`, which row views and factories would pay on every call).
nb::object wrap(py_array&& a);

/// Rows `[start, stop)` of a Python slice of the first dimension (a row view; steps refused).
py_array array_getitem_slice(const py_array& a, nb::handle slice);

/// A host snapshot as a NumPy array, component axes appended (`numpy()`).
nb::object to_numpy(const py_array& a);

/// DLPack and NumPy protocols (dlpack.cpp), bound as methods of tack.Array in array.cpp.
nb::object dunder_dlpack(const py_array& a, nb::handle stream, nb::handle max_version,
                         nb::handle dl_device, nb::handle copy);
std::pair<int, int> dlpack_device(const py_array& a);
nb::object dunder_array(nb::handle self, nb::handle dtype, nb::handle copy);
/// A DLPack capsule of `a`'s memory (legacy or versioned; IS_COPIED when `copied`).
nb::object export_capsule(const py_array& a, bool legacy, bool copied);
/// What `export_memory()` hands out: the address, size and device, and the allocation kept alive.
struct exported {
  std::uintptr_t ptr = 0;
  std::size_t nbytes = 0;
  std::string device;
  std::shared_ptr<void> keep_alive;
};
exported export_memory_of(const py_array& a);

/// Python exception types of the package (created in module.cpp).
/// Whether `a` and `b` share memory (any byte of any part).
bool shares_memory(const py_array& a, const py_array& b);
extern nb::object read_only_error_type;
extern nb::object device_error_type;
extern nb::object export_error_type;

/// Raise a Python exception of `type` with `message` (for the package's own types).
[[noreturn]] void raise(nb::handle type, const std::string& message);

// Registration, one function per binding file.
void bind_dtypes(nb::module_& m);
void bind_array(nb::module_& m);
void bind_factories(nb::module_& m);
void bind_dlpack(nb::module_& m);
void bind_lazy(nb::module_& m);
void bind_arrays(nb::module_& m);
void bind_algorithms(nb::module_& m);
void bind_dataset(nb::module_& m);
void bind_amr(nb::module_& m);
void bind_stream(nb::module_& m);

}  // namespace tackpy
