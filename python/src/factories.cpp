// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
/// @file The factories (`empty`, `zeros`, `ones`, `full`, their `_like` forms, `array`,
/// `array_from_ptr`, `soa`), `copyto`, and the default device.

#include "common.hpp"

#include <tack/array/factories.hpp>
#include <tack/array/shape.hpp>
#include <tack/core/error.hpp>

#include <nanobind/ndarray.h>

namespace tackpy {

using namespace nb::literals;

namespace {

enum class init { none, zeros, ones };

flat new_flat(tack::scalar_kind k, index_t n, tack::device device, init how) {
  return tack::visit_scalar_kind(k, [&]<class S>() -> flat {
    tack::options o;
    o.device = device;
    switch (how) {
      case init::zeros:
        return tack::zeros<S>(tack::shape<1>{n}, o);
      case init::ones:
        return tack::ones<S>(tack::shape<1>{n}, o);
      case init::none:
        break;
    }
    return tack::empty<S>(tack::shape<1>{n}, o);
  });
}

py_array new_array(const tack::dtype& elem, const std::vector<index_t>& shape, tack::layout layout,
                   tack::device device, init how, const char* op) {
  if (layout == tack::layout::soa && elem.is_scalar()) {
    throw nb::value_error((std::string(op) + ": layout=\"soa\" needs vector or matrix elements; " +
                           std::string(elem.name()) + " is a scalar dtype")
                              .c_str());
  }
  std::array<index_t, tack::max_rank> ext{};
  index_t n = 1;
  for (std::size_t d = 0; d < shape.size(); ++d) {
    ext[d] = shape[d];
    n *= shape[d];
  }
  // The storage handles are made first and moved in: a default-constructed tack::array is an
  // empty growable root, which would allocate for nothing.
  std::vector<flat> comps;
  if (layout == tack::layout::soa) {
    for (int c = 0; c < elem.components(); ++c)
      comps.push_back(new_flat(elem.kind(), n, device, how));
  }
  flat data = layout == tack::layout::soa
                  ? comps.front()
                  : new_flat(elem.kind(), n * elem.components(), device, how);
  return py_array{elem, layout,          static_cast<int>(shape.size()),
                  ext,  std::move(data), std::move(comps)};
}

const tack::dtype default_dtype{tack::scalar_kind::f32};

py_array factory(nb::handle shape, nb::handle dtype, nb::handle device, nb::handle layout, init how,
                 const char* op) {
  const tack::dtype elem = dtype_from(dtype, default_dtype, op);
  return new_array(elem, parse_shape(shape, elem, op), parse_layout(layout, op),
                   parse_device(device, op), how, op);
}

py_array like(const py_array& proto, nb::handle dtype, nb::handle device, nb::handle layout,
              init how, const char* op) {
  tack::dtype elem = dtype_from(dtype, proto.elem, op);
  // A scalar dtype override keeps the prototype's vector/matrix dimensions and changes only the
  // component precision: a vec3(f32) prototype with dtype=f64 gives a vec3(f64) array.
  if (elem.is_scalar() && !proto.elem.is_scalar()) {
    elem = proto.elem.is_vector()
               ? tack::dtype::vector(elem.kind(), proto.elem.rows())
               : tack::dtype::matrix(elem.kind(), proto.elem.rows(), proto.elem.cols());
  }
  std::vector<index_t> shape(proto.shape.begin(), proto.shape.begin() + proto.ndim);
  tack::layout l = layout.is_none() ? proto.layout : parse_layout(layout, op);
  if (l == tack::layout::soa && elem.is_scalar()) l = tack::layout::aos;
  return new_array(elem, shape, l, device.is_none() ? proto.device() : parse_device(device, op),
                   how, op);
}

/// Keeps a Python object alive from C++ (a borrowed buffer's owner); released with the GIL held.
std::shared_ptr<void> keep_alive(nb::handle owner) {
  return std::shared_ptr<void>(new nb::object(nb::borrow(owner)), [](void* p) {
    nb::gil_scoped_acquire gil;
    delete static_cast<nb::object*>(p);
  });
}

/// A read-only tack array over a C-contiguous NumPy array's memory (kept alive), element type
/// `elem`, shape `shape` (the NumPy shape less the component axes).
py_array borrow_numpy(nb::handle np_array, const tack::dtype& elem,
                      const std::vector<index_t>& shape) {
  auto nd = nb::cast<nb::ndarray<nb::ro, nb::c_contig, nb::device::cpu>>(np_array);
  py_array a;
  a.elem = elem;
  a.ndim = static_cast<int>(shape.size());
  for (int d = 0; d < a.ndim; ++d)
    a.shape[static_cast<std::size_t>(d)] = shape[static_cast<std::size_t>(d)];
  const index_t n = a.size() * elem.components();
  a.data = tack::visit_scalar_kind(elem.kind(), [&]<class S>() -> flat {
    tack::options o;
    o.owner = keep_alive(np_array);
    static S dummy{};
    const S* p = n ? static_cast<const S*>(nd.data()) : &dummy;
    return tack::array<S>(
        tack::detail::array_access::mutable_alias(tack::from_ptr(p, tack::shape<1>{n}, o)));
  });
  return a;
}

/// NumPy values as a contiguous NumPy array of `elem`'s scalar type (dtype None: NumPy's own
/// inference), checked against the component axes `elem` consumes. Sets `elem` and `shape`.
nb::object numpy_values(nb::handle values, nb::handle dtype, tack::dtype& elem,
                        std::vector<index_t>& shape, const char* op) {
  nb::module_ np = nb::module_::import_("numpy");
  nb::object arr;
  if (dtype.is_none()) {
    arr = np.attr("asarray")(values);
    elem = tack::dtype(kind_from_numpy(arr.attr("dtype"), op));
  } else {
    elem = dtype_from(dtype, default_dtype, op);
    arr = np.attr("asarray")(values, "dtype"_a = numpy_name(elem.kind()));
  }
  arr = np.attr("ascontiguousarray")(arr);
  auto np_shape = nb::cast<std::vector<index_t>>(arr.attr("shape"));
  const int k = elem.component_rank();
  const int nd = static_cast<int>(np_shape.size());
  bool ok = nd >= k + 1;
  if (ok && elem.is_vector()) ok = np_shape[static_cast<std::size_t>(nd - 1)] == elem.rows();
  if (ok && elem.is_matrix()) {
    ok = np_shape[static_cast<std::size_t>(nd - 2)] == elem.rows() &&
         np_shape[static_cast<std::size_t>(nd - 1)] == elem.cols();
  }
  if (!ok) {
    std::string want = elem.is_vector() ? "a trailing dimension of " + std::to_string(elem.rows())
                       : elem.is_matrix()
                           ? "two trailing dimensions of " + std::to_string(elem.rows()) + " and " +
                                 std::to_string(elem.cols())
                           : "at least one dimension";
    throw nb::value_error((std::string(op) + ": dtype " + std::string(elem.name()) + " consumes " +
                           want + " (plus at least one array dimension); the values have shape " +
                           shape_string(np_shape))
                              .c_str());
  }
  shape.assign(np_shape.begin(), np_shape.end() - k);
  (void)parse_shape(nb::cast(shape), elem, op);
  return arr;
}

py_array array_from_values(nb::handle values, nb::handle dtype, nb::handle device,
                           nb::handle layout) {
  const char* op = "tack.array";
  if (nb::isinstance<py_array>(values)) {
    const py_array& src = nb::cast<const py_array&>(values);
    tack::dtype elem = src.elem;
    if (!dtype.is_none()) {
      tack::dtype to = dtype_from(dtype, src.elem, op);
      elem = to.is_scalar() && !src.elem.is_scalar()
                 ? (src.elem.is_vector()
                        ? tack::dtype::vector(to.kind(), src.elem.rows())
                        : tack::dtype::matrix(to.kind(), src.elem.rows(), src.elem.cols()))
                 : to;
    }
    tack::layout l = layout.is_none() ? src.layout : parse_layout(layout, op);
    if (l == tack::layout::soa && elem.is_scalar()) l = tack::layout::aos;
    return copy_array(src, elem, l, device.is_none() ? src.device() : parse_device(device, op));
  }
  tack::dtype elem;
  std::vector<index_t> shape;
  nb::object arr = numpy_values(values, dtype, elem, shape, op);
  py_array out =
      new_array(elem, shape, parse_layout(layout, op), parse_device(device, op), init::none, op);
  copy_values(out, borrow_numpy(arr, elem, shape), op);
  return out;
}

}  // namespace

nb::object as_array(nb::handle values, nb::handle dtype, nb::handle device, nb::handle layout) {
  const char* op = "tack.asarray";
  if (nb::isinstance<py_array>(values)) {
    const py_array& src = nb::cast<const py_array&>(values);
    const bool same_dtype = dtype.is_none() || dtype_from(dtype, src.elem, op) == src.elem;
    const bool same_layout = layout.is_none() || parse_layout(layout, op) == src.layout;
    const bool same_device = device.is_none() || parse_device(device, op) == src.device();
    if (same_dtype && same_layout && same_device) return nb::borrow(values);
    return nb::cast(array_from_values(values, dtype, device, layout));
  }
  if (is_lazy(values)) {
    return as_array(nb::cast(materialize_lazy(values)), dtype, device, layout);
  }
  if (nb::hasattr(values, "_tack_kernel_array")) {  // computed by a @tack.func: one kernel launch
    return as_array(values.attr("materialize")(), dtype, device, layout);
  }
  const bool plain =
      dtype.is_none() && (layout.is_none() || parse_layout(layout, op) == tack::layout::aos);
  if (plain && nb::hasattr(values, "__dlpack__")) {
    // Shared where the producer allows it (copied to `device` if it lives elsewhere); a tensor
    // tack cannot take as it is is copied below.
    try {
      return nb::cast(from_dlpack(values, device, nb::none(), false));
    } catch (const nb::python_error& e) {
      if (!e.matches(PyExc_TypeError) && !e.matches(PyExc_ValueError) &&
          !e.matches(PyExc_BufferError)) {
        throw;
      }
    } catch (const nb::builtin_exception&) {
    } catch (const tack::value_error&) {
    } catch (const tack::type_error&) {
    }
  }
  return nb::cast(array_from_values(values, dtype, device, layout));
}

py_array array_argument(nb::handle values, const char* op) {
  if (nb::isinstance<py_array>(values)) return nb::cast<py_array>(values);
  auto refuse = [&](const char* why) {
    throw nb::type_error((std::string(op) + ": expected an array, got " +
                          nb::cast<std::string>(nb::repr(values.type())) + " (" + why + ")")
                             .c_str());
  };
  try {
    return nb::cast<py_array>(as_array(values, nb::none(), nb::none(), nb::none()));
  } catch (nb::python_error& e) {
    if (!e.matches(PyExc_TypeError)) throw;
    refuse(e.what());
  } catch (const nb::builtin_exception& e) {
    if (e.type() != nb::exception_type::type_error) throw;
    refuse(e.what());
  }
  return {};  // not reached: refuse throws
}

namespace {

py_array soa_of(nb::args comps) {
  const std::size_t n = comps.size();
  if (n < 2 || n > 4) {
    throw nb::value_error(
        ("tack.soa: takes 2 to 4 component arrays (x, y[, z[, w]]), got " + std::to_string(n))
            .c_str());
  }
  py_array out;
  for (std::size_t c = 0; c < n; ++c) {
    if (!nb::isinstance<py_array>(comps[c])) {
      throw nb::type_error(("tack.soa: component " + std::to_string(c) + " is " +
                            nb::cast<std::string>(nb::repr(nb::handle(comps[c]).type())) +
                            ", not a tack.Array (import it with tack.from_dlpack or copy it "
                            "with tack.array)")
                               .c_str());
    }
    const py_array& a = nb::cast<const py_array&>(comps[c]);
    if (!a.elem.is_scalar() || a.is_soa()) {
      throw nb::value_error(("tack.soa: component " + std::to_string(c) + " (" + a.describe() +
                             ") must be a scalar array")
                                .c_str());
    }
    if (c == 0) {
      out.elem = tack::dtype::vector(a.elem.kind(), static_cast<int>(n));
      out.ndim = a.ndim;
      out.shape = a.shape;
      out.layout = tack::layout::soa;
    } else {
      const py_array& first = nb::cast<const py_array&>(comps[0]);
      if (a.elem != first.elem || a.ndim != first.ndim || a.shape != first.shape ||
          a.device() != first.device()) {
        throw nb::value_error(("tack.soa: component " + std::to_string(c) + " (" + a.describe() +
                               ") differs from component 0 (" + first.describe() +
                               "); components need the same dtype, shape and device")
                                  .c_str());
      }
    }
    out.comps.push_back(a.data);
  }
  out.data = out.comps.front();
  return out;
}

py_array from_ptr(std::uintptr_t ptr, nb::handle shape, nb::handle dtype, bool writable,
                  nb::handle owner) {
  const char* op = "tack.array_from_ptr";
  const tack::dtype elem = dtype_from(dtype, default_dtype, op);
  auto s = parse_shape(shape, elem, op);
  py_array a;
  a.elem = elem;
  a.ndim = static_cast<int>(s.size());
  for (int d = 0; d < a.ndim; ++d)
    a.shape[static_cast<std::size_t>(d)] = s[static_cast<std::size_t>(d)];
  const index_t n = a.size() * elem.components();
  if (ptr == 0 && n > 0) throw nb::value_error("tack.array_from_ptr: the pointer is null");
  if (ptr % elem.scalar_size() != 0) {
    throw nb::value_error(("tack.array_from_ptr: pointer " + std::to_string(ptr) +
                           " is not aligned to " + std::to_string(elem.scalar_size()) +
                           " bytes for " + std::string(elem.name()))
                              .c_str());
  }
  a.data = tack::visit_scalar_kind(elem.kind(), [&]<class S>() -> flat {
    tack::options o;
    o.writable = writable;
    if (!owner.is_none()) o.owner = keep_alive(owner);
    return tack::from_ptr(reinterpret_cast<S*>(ptr), tack::shape<1>{n}, o);
  });
  return a;
}

}  // namespace

void copyto_any(const py_array& dst, nb::handle src) {
  const char* op = "tack.copyto";
  if (nb::isinstance<py_array>(src)) {
    copy_values(dst, nb::cast<const py_array&>(src), op);
    return;
  }
  if (copy_lazy_into(dst, src)) return;
  if (PyNumber_Check(src.ptr()) && !PySequence_Check(src.ptr()) &&
      !nb::hasattr(src, "__dlpack__")) {
    nb::cast(dst).attr("fill")(src);
    return;
  }
  nb::module_ np = nb::module_::import_("numpy");
  nb::object values = nb::borrow(src);
  if (!nb::isinstance(src, np.attr("ndarray")) && nb::hasattr(src, "__dlpack__")) {
    // Another library's tensor: read it where it is (tack.from_dlpack shares its memory).
    const py_array s = from_dlpack(src, nb::none(), nb::none(), false);
    py_array as_elems = s;
    // The import is a scalar array whose trailing axes are the destination's components.
    tack::dtype elem = dst.elem.is_scalar() ? s.elem
                       : dst.elem.is_vector()
                           ? tack::dtype::vector(s.elem.kind(), dst.elem.rows())
                           : tack::dtype::matrix(s.elem.kind(), dst.elem.rows(), dst.elem.cols());
    const int k = elem.component_rank();
    bool ok = s.ndim > k;
    for (int c = 0; ok && c < k; ++c) {
      const index_t want =
          c == k - 1 ? (elem.is_vector() ? elem.rows() : elem.cols()) : elem.rows();
      ok = s.shape[static_cast<std::size_t>(s.ndim - k + c)] == want;
    }
    if (!ok) {
      throw nb::value_error((std::string(op) + ": the source " + s.describe() +
                             " does not end in the component axes of " + dst.describe())
                                .c_str());
    }
    as_elems.elem = elem;
    as_elems.ndim = s.ndim - k;
    copy_values(dst, as_elems, op);
    return;
  }
  tack::dtype elem;
  std::vector<index_t> shape;
  nb::object dt = dtype_object(dst.elem);
  nb::object arr = numpy_values(values, dt, elem, shape, op);
  copy_values(dst, borrow_numpy(arr, elem, shape), op);
}

nb::object inplace_binary(nb::handle self, nb::handle other, int op) {
  nb::object result = lazy_binary(self, other, op, false);
  if (result.is(nb::handle(Py_NotImplemented))) return result;  // Python tries other.__radd__
  copyto_any(nb::cast<const py_array&>(self), result);
  return nb::borrow(self);
}

void bind_factories(nb::module_& m) {
  auto shape_doc =
      " `shape`: an int or a tuple of ints; `dtype`: a tack dtype (default tack.f32); "
      "`device`: \"cpu\", \"cuda:N\" or \"hip:N\" (default: the default device); `layout`: "
      "\"aos\" or \"soa\" (vector and matrix dtypes).";
  struct kind {
    const char* name;
    const char* op;
    init how;
    const char* doc;
    const char* sig;
  };
#define TACKPY_FACTORY_SIG(name)                                         \
  "def " name                                                            \
  "(shape: int | tuple[int, ...], dtype: DType | str | None = None, *, " \
  "device: str | None = None, layout: str | None = None) -> Array"
  for (const kind& k : {kind{"empty", "tack.empty", init::none,
                             "A new array, values not initialized.", TACKPY_FACTORY_SIG("empty")},
                        kind{"zeros", "tack.zeros", init::zeros, "A new array of zeros.",
                             TACKPY_FACTORY_SIG("zeros")},
                        kind{"ones", "tack.ones", init::ones, "A new array of ones.",
                             TACKPY_FACTORY_SIG("ones")}}) {
    m.def(
        k.name,
        [op = k.op, how = k.how](nb::handle shape, nb::handle dtype, nb::handle device,
                                 nb::handle layout) {
          return wrap(factory(shape, dtype, device, layout, how, op));
        },
        "shape"_a, "dtype"_a = nb::none(), nb::kw_only(), "device"_a = nb::none(),
        "layout"_a = nb::none(), nb::sig(k.sig), (std::string(k.doc) + shape_doc).c_str());
  }
#undef TACKPY_FACTORY_SIG
  m.def(
      "full",
      [](nb::handle shape, nb::handle value, nb::handle dtype, nb::handle device,
         nb::handle layout) {
        py_array a = factory(shape, dtype, device, layout, init::none, "tack.full");
        nb::object obj = nb::cast(std::move(a));
        obj.attr("fill")(value);
        return obj;
      },
      "shape"_a, "fill_value"_a, "dtype"_a = nb::none(), nb::kw_only(), "device"_a = nb::none(),
      "layout"_a = nb::none(),
      nb::sig("def full(shape: int | tuple[int, ...], fill_value: float | int | bool | "
              "typing.Sequence[float], dtype: DType | str | None = None, *, device: str | None = "
              "None, layout: str | None = None) -> Array"),
      (std::string("A new array with every element `fill_value` (a number, or a sequence of "
                   "components).") +
       shape_doc)
          .c_str());
  m.def(
      "empty_like",
      [](const py_array& p, nb::handle dtype, nb::handle device, nb::handle layout) {
        return like(p, dtype, device, layout, init::none, "tack.empty_like");
      },
      "prototype"_a, "dtype"_a = nb::none(), nb::kw_only(), "device"_a = nb::none(),
      "layout"_a = nb::none(),
      nb::sig("def empty_like(prototype: Array, dtype: DType | str | None = None, *, device: str | "
              "None = "
              "None, layout: str | None = None) -> Array"),
      "A new array with the prototype's shape, dtype, device and layout (reads no values).");
  m.def(
      "zeros_like",
      [](const py_array& p, nb::handle dtype, nb::handle device, nb::handle layout) {
        return like(p, dtype, device, layout, init::zeros, "tack.zeros_like");
      },
      "prototype"_a, "dtype"_a = nb::none(), nb::kw_only(), "device"_a = nb::none(),
      "layout"_a = nb::none(),
      nb::sig("def zeros_like(prototype: Array, dtype: DType | str | None = None, *, device: str | "
              "None = "
              "None, layout: str | None = None) -> Array"));
  m.def(
      "ones_like",
      [](const py_array& p, nb::handle dtype, nb::handle device, nb::handle layout) {
        return like(p, dtype, device, layout, init::ones, "tack.ones_like");
      },
      "prototype"_a, "dtype"_a = nb::none(), nb::kw_only(), "device"_a = nb::none(),
      "layout"_a = nb::none(),
      nb::sig("def ones_like(prototype: Array, dtype: DType | str | None = None, *, device: str | "
              "None = "
              "None, layout: str | None = None) -> Array"));
  m.def(
      "full_like",
      [](const py_array& p, nb::handle value, nb::handle dtype, nb::handle device,
         nb::handle layout) {
        nb::object obj = nb::cast(like(p, dtype, device, layout, init::none, "tack.full_like"));
        obj.attr("fill")(value);
        return obj;
      },
      "prototype"_a, "fill_value"_a, "dtype"_a = nb::none(), nb::kw_only(), "device"_a = nb::none(),
      "layout"_a = nb::none(),
      nb::sig("def full_like(prototype: Array, fill_value: float | int | bool | "
              "typing.Sequence[float], dtype: DType | str | None = None, *, device: str | None = "
              "None, layout: str | None = None) -> Array"));
  m.def(
      "asarray",
      [](nb::handle values, nb::handle dtype, nb::handle device, nb::handle layout) {
        return as_array(values, dtype, device, layout);
      },
      "values"_a, "dtype"_a = nb::none(), nb::kw_only(), "device"_a = nb::none(),
      "layout"_a = nb::none(),
      nb::sig("def asarray(values: typing.Any, dtype: DType | str | None = None, *, device: str | "
              "None = None, layout: str | None = None) -> Array"),
      "`values` as a tack array: the array itself when it already matches (dtype, device, "
      "layout), an implicit array evaluated, a shared import of a DLPack tensor (NumPy "
      "included) where no conversion is asked, else a copy (`tack.array`).");
  m.def("array", &array_from_values, "values"_a, "dtype"_a = nb::none(), nb::kw_only(),
        "device"_a = nb::none(), "layout"_a = nb::none(),
        nb::sig("def array(values: typing.Any, dtype: DType | str | None = None, *, device: str | "
                "None = None, layout: str | None = None) -> Array"),
        "A new array with a copy of `values` (a tack array, a NumPy array, nested sequences). "
        "Without dtype, the scalar dtype is NumPy's inference and no vector type is guessed; a "
        "vector dtype consumes a trailing dimension of its size, a matrix dtype two.");
  m.def("array_from_ptr", &from_ptr, "ptr"_a, "shape"_a, "dtype"_a = nb::none(), nb::kw_only(),
        "writable"_a = false, "owner"_a = nb::none(),
        nb::sig("def array_from_ptr(ptr: int, shape: int | tuple[int, ...], dtype: DType | str | "
                "None = None, *, writable: bool = False, owner: object | None = None) -> Array"),
        "An array over existing memory at address `ptr` (shares it, read-only unless "
        "writable=True); `owner` is kept alive as long as any array of the memory.");
  m.def("soa", &soa_of,
        "A structure-of-arrays vector array over 2 to 4 existing scalar arrays, without copying "
        "(`pos = tack.soa(x, y, z)`).");
  m.def(
      "copyto",
      [](nb::handle dst, nb::handle src) {
        if (nb::isinstance<py_array>(dst)) return copyto_any(nb::cast<const py_array&>(dst), src);
        if (is_lazy(dst)) return store_lazy(dst, src);
        throw nb::type_error(("tack.copyto: the destination must be a tack.Array or a writable "
                              "implicit array (tack.arrays.View, Strided, Permutation, ...), not " +
                              nb::cast<std::string>(nb::repr(dst.type())))
                                 .c_str());
      },
      "dst"_a, "src"_a, nb::sig("def copyto(dst: typing.Any, src: typing.Any) -> None"),
      "Copies `src` (a tack array, an implicit array, a NumPy array, any DLPack tensor, or a "
      "number) into `dst`; shapes and component dimensions must match.");
  m.def(
      "set_default_device",
      [](nb::handle d) { tack::set_default_device(parse_device(d, "tack.set_default_device")); },
      "device"_a, nb::sig("def set_default_device(device: str) -> None"),
      "Sets the device new arrays go to: \"cpu\" or, in CUDA builds, \"cuda:N\", in HIP "
      "builds, \"hip:N\".");
  m.def("default_device", []() { return tack::default_device().str(); });
  m.def(
      "is_available",
      [](const std::string& d) { return tack::is_available(tack::device::parse(d)); }, "device"_a);
}

}  // namespace tackpy
