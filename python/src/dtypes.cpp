// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
/// @file `tack.DType`: the element type descriptors (`tack.f32`, `tack.vec3(tack.f32)`), interned
/// so that equal descriptors are the same object, over `tack::dtype`.

#include "common.hpp"

#include <nanobind/stl/string_view.h>

#include <memory>

namespace tackpy {
namespace {

/// One slot per run-time dtype: kind × (scalar, vector 1..16, matrix 1..4 × 1..4).
constexpr int slots_per_kind = 1 + 16 + 16;

int slot_of(const tack::dtype& d) {
  const int base = static_cast<int>(d.kind()) * slots_per_kind;
  if (d.is_scalar()) return base;
  if (d.is_vector()) return base + d.rows();
  return base + 1 + 16 + (d.rows() - 1) * 4 + (d.cols() - 1);
}

/// The interned objects. Never freed: they live as long as the interpreter that holds the module.
std::vector<nb::object>& intern_table() {
  static auto* table = new std::vector<nb::object>(
      static_cast<std::size_t>(tack::scalar_kind_count * slots_per_kind));
  return *table;
}

tack::dtype scalar_of(nb::handle h, const char* op) {
  if (h.is_none()) return tack::dtype(tack::scalar_kind::f32);
  tack::dtype d = dtype_from(h, tack::dtype(tack::scalar_kind::f32), op);
  if (!d.is_scalar()) {
    throw nb::type_error((std::string(op) +
                          ": the component type must be a scalar dtype "
                          "(tack.f32, tack.f64, tack.i32, ...), not " +
                          std::string(d.name()))
                             .c_str());
  }
  return d;
}

}  // namespace

nb::object dtype_object(const tack::dtype& d) {
  auto& slot = intern_table()[static_cast<std::size_t>(slot_of(d))];
  if (!slot.is_valid()) slot = nb::cast(d);
  return slot;
}

tack::dtype dtype_from(nb::handle h, const tack::dtype& fallback, const char* op) {
  if (h.is_none()) return fallback;
  if (nb::isinstance<tack::dtype>(h)) return nb::cast<tack::dtype>(h);
  // NumPy scalar types and dtypes (np.float32, np.dtype("f8")) name scalar dtypes.
  nb::module_ np = nb::module_::import_("numpy");
  try {
    nb::object npd = np.attr("dtype")(h);
    return tack::dtype(kind_from_numpy(npd, op));
  } catch (const nb::python_error&) {
  }
  throw nb::type_error(
      (std::string(op) +
       ": dtype must be a tack dtype (tack.f32, "
       "tack.vec3(tack.f32), tack.mat3(tack.f64), ...) or a NumPy scalar type, not " +
       nb::cast<std::string>(nb::repr(h)))
          .c_str());
}

const char* numpy_name(tack::scalar_kind k) {
  using K = tack::scalar_kind;
  switch (k) {
    case K::f32:
      return "float32";
    case K::f64:
      return "float64";
    case K::i8:
      return "int8";
    case K::i16:
      return "int16";
    case K::i32:
      return "int32";
    case K::i64:
      return "int64";
    case K::u8:
      return "uint8";
    case K::u16:
      return "uint16";
    case K::u32:
      return "uint32";
    case K::u64:
      return "uint64";
    case K::boolean:
      return "bool";
  }
  return "float32";
}

tack::scalar_kind kind_from_numpy(nb::handle np_dtype, const char* op) {
  const std::string name = nb::cast<std::string>(np_dtype.attr("name"));
  for (int k = 0; k < tack::scalar_kind_count; ++k) {
    if (name == numpy_name(static_cast<tack::scalar_kind>(k)))
      return static_cast<tack::scalar_kind>(k);
  }
  throw nb::type_error((std::string(op) + ": NumPy dtype " + name +
                        " has no tack scalar type (tack has float32/64, int8/16/32/64, "
                        "uint8/16/32/64 and bool)")
                           .c_str());
}

void bind_dtypes(nb::module_& m) {
  nb::class_<tack::dtype>(m, "DType",
                          "An element type: a scalar kind and a component shape. Immutable and "
                          "interned: `tack.vec3(tack.f32) is tack.vec3(tack.f32)`.")
      .def_prop_ro(
          "name", [](const tack::dtype& d) { return std::string(d.name()); },
          "`'f32'`, `'vec3(f32)'`, `'mat3(f64)'`.")
      .def_prop_ro(
          "scalar", [](const tack::dtype& d) { return dtype_object(d.scalar()); },
          nb::sig("def scalar(self) -> DType"), "The component dtype (`tack.f32` for `vec3(f32)`).")
      .def_prop_ro(
          "shape",
          [](const tack::dtype& d) -> nb::tuple {
            if (d.is_scalar()) return nb::tuple();
            if (d.is_vector()) return nb::make_tuple(d.rows());
            return nb::make_tuple(d.rows(), d.cols());
          },
          "The component axes an array appends: `()`, `(n,)` or `(rows, cols)`.")
      .def_prop_ro("components", &tack::dtype::components, "Scalar components per element.")
      .def_prop_ro("itemsize", &tack::dtype::itemsize, "Bytes per element.")
      .def_prop_ro("is_scalar", &tack::dtype::is_scalar)
      .def_prop_ro("is_vector", &tack::dtype::is_vector)
      .def_prop_ro("is_matrix", &tack::dtype::is_matrix)
      .def_prop_ro(
          "numpy",
          [](const tack::dtype& d) {
            return nb::module_::import_("numpy").attr("dtype")(numpy_name(d.kind()));
          },
          nb::sig("def numpy(self) -> numpy.dtype[typing.Any]"),
          "The NumPy dtype of one component.")
      .def("__repr__", [](const tack::dtype& d) { return std::string(d.name()); })
      .def("__str__", [](const tack::dtype& d) { return std::string(d.name()); })
      .def("__reduce__",
           [](const tack::dtype& d) {
             return nb::make_tuple(nb::module_::import_("tack").attr("_dtype_by_name"),
                                   nb::make_tuple(std::string(d.name())));
           })
      // Inside kernel source `tack.f32(x)` converts and `tack.vec3(tack.f32)(x, y, z)` builds a
      // vector, values of the kernel's types: Any, not NoReturn (which would make a type checker
      // treat the rest of a kernel body as unreachable), although on the host the call raises.
      .def(
          "__call__",
          [](const tack::dtype& d, nb::args) -> nb::object {
            throw nb::type_error(
                ("tack." + std::string(d.name()) +
                 "(...): element-type names build values only inside kernels compiled from "
                 "Python, which this build does not have; on the host they describe dtypes")
                    .c_str());
          },
          nb::sig("def __call__(self, *args: typing.Any) -> typing.Any"));

  m.def("_scalar",
        [](int kind) { return dtype_object(tack::dtype(static_cast<tack::scalar_kind>(kind))); });
  m.def(
      "dtype",
      [](nb::handle h) -> nb::object {
        if (nb::isinstance<nb::str>(h))
          return dtype_object(tack::dtype::parse(nb::cast<std::string>(h)));
        return dtype_object(dtype_from(h, tack::dtype(), "tack.dtype"));
      },
      nb::arg("name"), nb::sig("def dtype(name: DType | str | typing.Any) -> DType"),
      "The dtype a name (`'vec3(f32)'`), a tack dtype or a NumPy type names.");
  m.def(
      "vec",
      [](int n, nb::handle scalar) {
        tack::dtype s = scalar_of(scalar, "tack.vec");
        if (n < 1 || n > 16) {
          throw nb::value_error(
              ("tack.vec: a vector has 1 to 16 components, not " + std::to_string(n)).c_str());
        }
        return dtype_object(tack::dtype::vector(s.kind(), n));
      },
      nb::arg("n"), nb::arg("scalar") = nb::none(),
      nb::sig("def vec(n: int, scalar: DType | str | None = None) -> DType"),
      "The vector dtype of `n` components (`tack.vec(3, tack.f64)`); components default to f32.");
  m.def(
      "mat",
      [](int rows, int cols, nb::handle scalar) {
        tack::dtype s = scalar_of(scalar, "tack.mat");
        if (rows < 1 || rows > 4 || cols < 1 || cols > 4) {
          throw nb::value_error(("tack.mat: a matrix has 1 to 4 rows and columns, not " +
                                 std::to_string(rows) + "x" + std::to_string(cols))
                                    .c_str());
        }
        return dtype_object(tack::dtype::matrix(s.kind(), rows, cols));
      },
      nb::arg("rows"), nb::arg("cols"), nb::arg("scalar") = nb::none(),
      nb::sig("def mat(rows: int, cols: int, scalar: DType | str | None = None) -> DType"),
      "The matrix dtype of `rows` x `cols` components (`tack.mat(2, 3)`); components default to "
      "f32.");
}

}  // namespace tackpy
