// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
/// @file `tack.Array`: metadata, row views, host snapshots, fills, copies, casts and reshapes, each
/// over the C++ handles the array holds.

#include "common.hpp"

#include <tack/array/copyto.hpp>
#include <tack/array/factories.hpp>
#include <tack/array/shape.hpp>
#include <tack/arrays/all.hpp>

#include <tack/detail/gpu_runtime.hpp>

#include <nanobind/ndarray.h>

#include <cmath>
#include <limits>
#include <sstream>

namespace tackpy {

using namespace nb::literals;

// ---- py_array -----------------------------------------------------------------------------------

nb::tuple py_array::shape_tuple() const {
  PyObject* t = PyTuple_New(ndim);
  if (!t) throw nb::python_error();
  for (int d = 0; d < ndim; ++d) {
    PyTuple_SET_ITEM(t, d, PyLong_FromLongLong(shape[static_cast<std::size_t>(d)]));
  }
  return nb::steal<nb::tuple>(t);
}

std::vector<index_t> py_array::storage_shape() const {
  std::vector<index_t> s(shape.begin(), shape.begin() + ndim);
  if (elem.is_vector()) s.push_back(elem.rows());
  if (elem.is_matrix()) {
    s.push_back(elem.rows());
    s.push_back(elem.cols());
  }
  return s;
}

std::string shape_string(const std::vector<index_t>& s) {
  std::string out = "(";
  for (std::size_t d = 0; d < s.size(); ++d) {
    out += std::to_string(s[d]);
    if (d + 1 < s.size() || s.size() == 1) out += d + 1 < s.size() ? ", " : ",";
  }
  return out + ")";
}

std::string shape_string(const py_array& a) {
  return shape_string(std::vector<index_t>(a.shape.begin(), a.shape.begin() + a.ndim));
}

namespace {
/// Calls `g(first, end)` with the byte range of each part of `x` (none for an empty part).
void for_each_byte_range(const py_array& x,
                         const std::function<void(std::uintptr_t, std::uintptr_t)>& g) {
  x.for_each_part([&](const flat& f) {
    std::visit(
        [&](const auto& p) {
          if (p.size() == 0) return;
          const auto* b = reinterpret_cast<const unsigned char*>(p.as_const().data());
          g(reinterpret_cast<std::uintptr_t>(b), reinterpret_cast<std::uintptr_t>(b) + p.nbytes());
        },
        f);
  });
}
}  // namespace

/// The address of the first element of `a`'s first part (null when it is empty).
static const void* first_byte(const py_array& a) {
  return std::visit(
      [](const auto& p) -> const void* { return p.size() ? p.as_const().data() : nullptr; },
      a.first_part());
}

bool shares_memory(const py_array& a, const py_array& b) {
  bool overlaps = false;
  for_each_byte_range(a, [&](std::uintptr_t ab, std::uintptr_t ae) {
    for_each_byte_range(b, [&](std::uintptr_t bb, std::uintptr_t be) {
      overlaps = overlaps || (ab < be && bb < ae);
    });
  });
  return overlaps;
}

bool py_array::read_only() const {
  // Any part: a SoA array of a writable and a read-only component cannot be written whole.
  bool any = false;
  for_each_part([&](const flat& f) {
    any = any || std::visit([](const auto& p) { return p.read_only(); }, f);
  });
  return any;
}

tack::device py_array::device() const {
  return std::visit([](const auto& f) { return f.device(); }, first_part());
}

std::string py_array::describe() const {
  std::string s = "tack.Array " + std::string(elem.name()) + " shape " + shape_string(*this) +
                  " on " + device().str();
  if (is_soa()) s += ", SoA";
  if (std::visit([](const auto& f) { return f.is_view(); }, first_part())) s += ", a row view";
  if (read_only()) s += ", read-only";
  return s;
}

// ---- argument parsing ---------------------------------------------------------------------------

std::vector<index_t> parse_shape(nb::handle shape, const tack::dtype& elem, const char* op) {
  std::vector<index_t> out;
  auto extent = [&](nb::handle h) {
    if (!PyIndex_Check(h.ptr())) {
      throw nb::type_error((std::string(op) + ": shape entries must be integers, not " +
                            nb::cast<std::string>(nb::repr(h)))
                               .c_str());
    }
    const long long v = PyLong_CheckExact(h.ptr())
                            ? PyLong_AsLongLong(h.ptr())
                            : PyLong_AsLongLong(nb::steal(PyNumber_Index(h.ptr())).ptr());
    if (v == -1 && PyErr_Occurred()) throw nb::python_error();
    if (v < 0) {
      throw nb::value_error(
          (std::string(op) + ": negative extent " + std::to_string(v) + " in the shape").c_str());
    }
    out.push_back(v);
  };
  if (PyIndex_Check(shape.ptr())) {
    extent(shape);
  } else if (PyTuple_Check(shape.ptr())) {
    const Py_ssize_t n = PyTuple_GET_SIZE(shape.ptr());
    for (Py_ssize_t d = 0; d < n; ++d) extent(PyTuple_GET_ITEM(shape.ptr(), d));
  } else if (PySequence_Check(shape.ptr())) {
    for (nb::handle h : nb::borrow<nb::sequence>(shape)) extent(h);
  } else {
    throw nb::type_error((std::string(op) + ": shape must be an int or a sequence of ints, not " +
                          nb::cast<std::string>(nb::repr(shape)))
                             .c_str());
  }
  const int rank = static_cast<int>(out.size());
  if (rank < 1 || rank + elem.component_rank() > max_storage_rank) {
    throw nb::value_error(
        (std::string(op) + ": shape " + shape_string(out) + " of " + std::string(elem.name()) +
         " has " + std::to_string(rank) + " dimensions; tack arrays have 1 to " +
         std::to_string(max_storage_rank - elem.component_rank()) + " for this dtype (" +
         std::to_string(max_storage_rank) + " with the component axes)" +
         (rank == 0 ? "; use shape (1,) for a single value" : ""))
            .c_str());
  }
  // The byte size must fit: refuse shapes whose element count overflows.
  long double total = static_cast<long double>(elem.itemsize());
  for (auto e : out) total *= static_cast<long double>(e);
  if (total > static_cast<long double>(std::numeric_limits<index_t>::max())) {
    throw nb::value_error((std::string(op) + ": shape " + shape_string(out) + " of " +
                           std::string(elem.name()) + " does not fit in memory addresses")
                              .c_str());
  }
  return out;
}

tack::layout parse_layout(nb::handle layout, const char* op) {
  if (layout.is_none()) return tack::layout::aos;
  if (nb::isinstance<nb::str>(layout)) {
    const std::string s = nb::cast<std::string>(layout);
    if (s == "aos") return tack::layout::aos;
    if (s == "soa") return tack::layout::soa;
  }
  throw nb::value_error((std::string(op) + ": layout must be \"aos\" or \"soa\", not " +
                         nb::cast<std::string>(nb::repr(layout)))
                            .c_str());
}

tack::device parse_device(nb::handle device, const char* op) {
  if (device.is_none()) return tack::default_device();
  if (nb::isinstance<nb::str>(device)) {
    auto d = tack::device::parse(nb::cast<std::string>(device));
    if (!tack::is_available(d)) {
      raise(device_error_type, std::string(op) + ": device " + d.str() +
                                   " is not available in this process" +
                                   tack::detail::gpu_unavailable_reason(d));
    }
    return d;
  }
  throw nb::type_error((std::string(op) +
                        ": device must be a string such as \"cpu\", \"cuda:0\" or "
                        "\"hip:0\", not " +
                        nb::cast<std::string>(nb::repr(device)))
                           .c_str());
}

template <class S>
S to_scalar(nb::handle value, const char* op) {
  if constexpr (std::is_same_v<S, bool>) {
    const int t = PyObject_IsTrue(value.ptr());
    if (t < 0) throw nb::python_error();
    return t != 0;
  } else if constexpr (std::is_floating_point_v<S>) {
    const double v = PyFloat_AsDouble(value.ptr());
    if (v == -1.0 && PyErr_Occurred()) {
      PyErr_Clear();
      throw nb::type_error(
          (std::string(op) + ": expected a number, got " + nb::cast<std::string>(nb::repr(value)))
              .c_str());
    }
    return static_cast<S>(v);
  } else {
    // Integers keep full 64-bit precision; floats truncate toward zero (NumPy's fill).
    auto out_of_range = [&]() {
      return std::overflow_error(std::string(op) + ": " + nb::cast<std::string>(nb::repr(value)) +
                                 " is out of the range of " +
                                 std::string(tack::dtype_of<S>().name()));
    };
    if (PyFloat_Check(value.ptr())) {
      const double v = PyFloat_AsDouble(value.ptr());
      if (!std::isfinite(v) || v < static_cast<double>(std::numeric_limits<S>::min()) ||
          v >= static_cast<double>(std::numeric_limits<S>::max()) + 1.0) {
        throw out_of_range();
      }
      return static_cast<S>(v);
    }
    nb::object idx = nb::steal(PyNumber_Index(value.ptr()));
    if (!idx.is_valid()) {
      PyErr_Clear();
      throw nb::type_error(
          (std::string(op) + ": expected a number, got " + nb::cast<std::string>(nb::repr(value)))
              .c_str());
    }
    int overflow = 0;
    const long long v = PyLong_AsLongLongAndOverflow(idx.ptr(), &overflow);
    if (overflow > 0 && std::is_same_v<S, std::uint64_t>) {
      const unsigned long long u = PyLong_AsUnsignedLongLong(idx.ptr());
      if (PyErr_Occurred()) {
        PyErr_Clear();
        throw out_of_range();
      }
      return static_cast<S>(u);
    }
    if (overflow != 0) throw out_of_range();
    if constexpr (std::is_signed_v<S>) {
      if (v < std::numeric_limits<S>::min() || v > std::numeric_limits<S>::max())
        throw out_of_range();
    } else {
      if (v < 0 || static_cast<unsigned long long>(v) > std::numeric_limits<S>::max())
        throw out_of_range();
    }
    return static_cast<S>(v);
  }
}

#define TACKPY_TO_SCALAR(S) template S to_scalar<S>(nb::handle, const char*);
TACKPY_TO_SCALAR(float)
TACKPY_TO_SCALAR(double)
TACKPY_TO_SCALAR(std::int8_t)
TACKPY_TO_SCALAR(std::int16_t)
TACKPY_TO_SCALAR(std::int32_t)
TACKPY_TO_SCALAR(std::int64_t)
TACKPY_TO_SCALAR(std::uint8_t)
TACKPY_TO_SCALAR(std::uint16_t)
TACKPY_TO_SCALAR(std::uint32_t)
TACKPY_TO_SCALAR(std::uint64_t)
TACKPY_TO_SCALAR(bool)
#undef TACKPY_TO_SCALAR

namespace {

/// Flattens a number or a (nested) sequence of numbers into `out`.
void flatten_values(nb::handle v, std::vector<nb::object>& out, int depth, const char* op) {
  if (PyNumber_Check(v.ptr()) && !PySequence_Check(v.ptr())) {
    out.push_back(nb::borrow(v));
    return;
  }
  if (depth > 2 || !PySequence_Check(v.ptr()) || nb::isinstance<nb::str>(v)) {
    throw nb::type_error((std::string(op) + ": expected a number or a sequence of numbers, got " +
                          nb::cast<std::string>(nb::repr(v)))
                             .c_str());
  }
  for (nb::handle h : nb::borrow<nb::sequence>(v)) flatten_values(h, out, depth + 1, op);
}

}  // namespace

/// The components of one element value as Python objects: `components` copies of a number, or
/// the numbers of a flat or nested sequence of exactly that many.
static std::vector<nb::object> element_objects(nb::handle value, const tack::dtype& elem,
                                               const char* op) {
  const int c = elem.components();
  if (PyNumber_Check(value.ptr()) && !PySequence_Check(value.ptr())) {
    return std::vector<nb::object>(static_cast<std::size_t>(c), nb::borrow(value));
  }
  std::vector<nb::object> out;
  flatten_values(value, out, 0, op);
  if (static_cast<int>(out.size()) != c) {
    throw nb::value_error((std::string(op) + ": a value of " + std::string(elem.name()) + " has " +
                           std::to_string(c) + " component" + (c == 1 ? "" : "s") + ", got " +
                           std::to_string(out.size()) + " in " +
                           nb::cast<std::string>(nb::repr(value)))
                              .c_str());
  }
  return out;
}

// ---- storage ------------------------------------------------------------------------------------

flat empty_flat(tack::scalar_kind k, index_t n, tack::device device) {
  return tack::visit_scalar_kind(k, [&]<class S>() -> flat {
    tack::options o;
    o.device = device;
    return tack::empty<S>(tack::shape<1>{n}, o);
  });
}

py_array make_root(const tack::dtype& elem, const std::vector<index_t>& shape, tack::layout layout,
                   tack::device device) {
  py_array a;
  a.elem = elem;
  a.layout = layout;
  a.ndim = static_cast<int>(shape.size());
  for (int d = 0; d < a.ndim; ++d)
    a.shape[static_cast<std::size_t>(d)] = shape[static_cast<std::size_t>(d)];
  const index_t n = a.size();
  if (layout == tack::layout::soa) {
    if (elem.is_scalar()) {
      throw nb::value_error(("layout=\"soa\" needs vector or matrix elements; " +
                             std::string(elem.name()) + " is a scalar dtype")
                                .c_str());
    }
    for (int c = 0; c < elem.components(); ++c)
      a.comps.push_back(empty_flat(elem.kind(), n, device));
    a.data = a.comps.front();
  } else {
    a.data = empty_flat(elem.kind(), n * elem.components(), device);
  }
  return a;
}

namespace {

/// Large operations run without the GIL, so other Python threads go on; small ones keep it
/// (releasing and taking it back costs more than the work).
constexpr index_t release_gil_above = 1 << 15;

struct maybe_release {
  std::optional<nb::gil_scoped_release> release;
  explicit maybe_release(index_t work) {
    if (work > release_gil_above) release.emplace();
  }
};

/// Copies `src` into `dst`, same scalar type, any layouts.
template <class S>
void copy_same_kind(const py_array& dst, const py_array& src) {
  const int c = dst.components();
  if (!dst.is_soa() && !src.is_soa()) {
    tack::copyto(part_as<S>(dst.data), part_as<S>(src.data));
  } else if (dst.is_soa() && src.is_soa()) {
    for (int k = 0; k < c; ++k) tack::copyto(part_as<S>(dst.comps[k]), part_as<S>(src.comps[k]));
  } else if (dst.is_soa()) {
    for (int k = 0; k < c; ++k) {
      tack::copyto(part_as<S>(dst.comps[k]), tack::arrays::strided(part_as<S>(src.data), c, k));
    }
  } else {
    for (int k = 0; k < c; ++k) {
      tack::copyto(tack::arrays::strided(part_as<S>(dst.data), c, k), part_as<S>(src.comps[k]));
    }
  }
}

/// `src` with each part converted to scalar kind `k` (same layout).
py_array convert_parts(const py_array& src, tack::scalar_kind k) {
  py_array out = src;
  out.elem = src.elem.is_scalar()   ? tack::dtype(k)
             : src.elem.is_vector() ? tack::dtype::vector(k, src.elem.rows())
                                    : tack::dtype::matrix(k, src.elem.rows(), src.elem.cols());
  auto convert = [&](const flat& f) -> flat {
    return std::visit(
        [&](const auto& part) -> flat {
          // One pass through the C++ cast implicit array (astype's conversion, without a host
          // round trip).
          return tack::visit_scalar_kind(k, [&]<class U>() -> flat {
            tack::options o;
            o.device = part.device();
            auto out = tack::empty<U>(tack::shape<1>{part.size()}, o);
            tack::copyto(out, tack::arrays::cast<U>(part));
            return out;
          });
        },
        f);
  };
  if (src.is_soa()) {
    for (auto& c : out.comps) c = convert(c);
    out.data = out.comps.front();
  } else {
    out.data = convert(src.data);
  }
  return out;
}

}  // namespace

void copy_values(const py_array& dst, const py_array& src, const char* op) {
  if (dst.elem.rows() != src.elem.rows() || dst.elem.cols() != src.elem.cols() ||
      dst.elem.is_matrix() != src.elem.is_matrix()) {
    throw nb::value_error((std::string(op) + ": the element types differ in their components (" +
                           dst.describe() + " and " + src.describe() + ")")
                              .c_str());
  }
  if (dst.ndim != src.ndim ||
      !std::equal(dst.shape.begin(), dst.shape.begin() + dst.ndim, src.shape.begin())) {
    throw nb::value_error((std::string(op) + ": the shapes differ (" + dst.describe() + " and " +
                           src.describe() + ")")
                              .c_str());
  }
  if (dst.read_only()) {
    raise(read_only_error_type,
          std::string(op) + ": " + dst.describe() + " is read-only; copy it first (a.copy())");
  }
  maybe_release gil(dst.size() * dst.components());
  const py_array& from =
      src.elem.kind() == dst.elem.kind() ? src : convert_parts(src, dst.elem.kind());
  tack::visit_scalar_kind(dst.elem.kind(), [&]<class S>() { copy_same_kind<S>(dst, from); });
}

py_array copy_array(const py_array& src, const tack::dtype& elem, tack::layout layout,
                    tack::device device) {
  std::vector<index_t> shape(src.shape.begin(), src.shape.begin() + src.ndim);
  py_array out = make_root(elem, shape, layout, device);
  copy_values(out, src, "tack.Array.copy");
  return out;
}

nb::object to_numpy(const py_array& a) {
  const int c = a.components();
  const index_t n = a.size() * c;
  auto shape = a.storage_shape();
  std::vector<std::size_t> np_shape(shape.begin(), shape.end());
  return tack::visit_scalar_kind(a.elem.kind(), [&]<class S>() -> nb::object {
    auto* host = new tack::array<S>(tack::empty<S>(tack::shape<1>{n}));
    nb::capsule owner(host, [](void* p) noexcept { delete static_cast<tack::array<S>*>(p); });
    {
      maybe_release gil(n);
      if (a.is_soa()) {
        for (int k = 0; k < c; ++k) {
          tack::copyto(tack::arrays::strided(*host, c, k), part_as<S>(a.comps[k]));
        }
      } else {
        tack::copyto(*host, part_as<S>(a.data));
      }
    }
    S* data = n ? host->data() : nullptr;
    nb::ndarray<nb::numpy, S> arr(data, np_shape.size(), np_shape.data(), owner);
    return arr.cast();
  });
}

namespace {

/// Rows `[i, j)` of the first dimension (0 <= i <= j <= shape[0]): a row view of every part.
py_array slice_rows(const py_array& a, index_t i, index_t j) {
  // Built field by field so that each storage handle is counted once (the row view's own).
  // (A default-constructed tack::array is an empty growable root, which allocates: the handle is
  // initialized in place instead.)
  const index_t re = a.row_elements();
  auto rows_of = [](const flat& f, index_t first, index_t last) {
    return std::visit([&](const auto& part) -> flat { return part.rows(first, last); }, f);
  };
  std::vector<flat> comps;
  if (a.is_soa()) {
    comps.reserve(a.comps.size());
    for (const auto& c : a.comps) comps.push_back(rows_of(c, i * re, j * re));
  }
  const index_t step = re * a.components();
  py_array out{a.elem,
               a.layout,
               a.ndim,
               a.shape,
               a.is_soa() ? comps.front() : rows_of(a.data, i * step, j * step),
               std::move(comps)};
  out.shape[0] = j - i;
  return out;
}

/// The same storage under another shape (a reshape keeps the element type and count).
py_array reshaped(const py_array& a, const std::vector<index_t>& shape) {
  py_array out = a;
  out.ndim = static_cast<int>(shape.size());
  out.shape = {};
  for (int d = 0; d < out.ndim; ++d)
    out.shape[static_cast<std::size_t>(d)] = shape[static_cast<std::size_t>(d)];
  return out;
}

std::vector<index_t> parse_reshape(const py_array& a, nb::args args) {
  nb::handle spec = args.size() == 1 ? args[0] : nb::handle(args);
  std::vector<index_t> out;
  int infer = -1;
  auto add = [&](nb::handle h) {
    if (!PyIndex_Check(h.ptr())) {
      throw nb::type_error(("tack.Array.reshape: shape entries must be integers, not " +
                            nb::cast<std::string>(nb::repr(h)))
                               .c_str());
    }
    const long long v = nb::cast<long long>(h);
    if (v == -1 && infer < 0) {
      infer = static_cast<int>(out.size());
    } else if (v < 0) {
      throw nb::value_error(("tack.Array.reshape: extent " + std::to_string(v) +
                             " is negative (one -1 may stand for the rest)")
                                .c_str());
    }
    out.push_back(v);
  };
  if (PyIndex_Check(spec.ptr())) {
    add(spec);
  } else {
    for (nb::handle h : nb::borrow<nb::sequence>(spec)) add(h);
  }
  if (infer >= 0) {
    index_t rest = 1;
    for (std::size_t d = 0; d < out.size(); ++d) {
      if (static_cast<int>(d) != infer) rest *= out[d];
    }
    if (rest == 0 || a.size() % rest != 0) {
      throw nb::value_error(("tack.Array.reshape: cannot reshape " + a.describe() + " to " +
                             shape_string(out) + " (" + std::to_string(a.size()) + " elements)")
                                .c_str());
    }
    out[static_cast<std::size_t>(infer)] = a.size() / rest;
  }
  (void)parse_shape(nb::cast(out), a.elem, "tack.Array.reshape");
  index_t n = 1;
  for (auto e : out) n *= e;
  if (n != a.size()) {
    throw nb::value_error(("tack.Array.reshape: cannot reshape " + a.describe() + " (" +
                           std::to_string(a.size()) + " elements) to " + shape_string(out) + " (" +
                           std::to_string(n) + " elements)")
                              .c_str());
  }
  return out;
}

void fill_array(const py_array& a, nb::handle value) {
  const char* op = "tack.Array.fill";
  if (a.read_only()) {
    raise(read_only_error_type,
          std::string(op) + ": " + a.describe() + " is read-only; copy it first (a.copy())");
  }
  auto objs = element_objects(value, a.elem, op);
  tack::visit_scalar_kind(a.elem.kind(), [&]<class S>() {
    std::vector<S> v;
    for (auto& o : objs) v.push_back(to_scalar<S>(o, op));
    const int c = a.components();
    bool uniform = true;
    for (int k = 1; k < c; ++k) uniform = uniform && v[static_cast<std::size_t>(k)] == v[0];
    maybe_release gil(a.size() * c);
    if (a.is_soa()) {
      for (int k = 0; k < c; ++k) part_as<S>(a.comps[k]).fill(v[static_cast<std::size_t>(k)]);
    } else if (uniform) {
      part_as<S>(a.data).fill(v[0]);
    } else {
      for (int k = 0; k < c; ++k)
        tack::fill(tack::arrays::strided(part_as<S>(a.data), c, k), v[static_cast<std::size_t>(k)]);
    }
  });
}

tack::dtype astype_target(const py_array& a, const tack::dtype& to) {
  if (to.is_scalar()) {
    if (a.elem.is_scalar()) return to;
    if (a.elem.is_vector()) return tack::dtype::vector(to.kind(), a.elem.rows());
    return tack::dtype::matrix(to.kind(), a.elem.rows(), a.elem.cols());
  }
  if (to.is_vector() != a.elem.is_vector() || to.is_matrix() != a.elem.is_matrix() ||
      to.rows() != a.elem.rows() || to.cols() != a.elem.cols()) {
    throw nb::value_error(("tack.Array.astype: " + std::string(a.elem.name()) + " to " +
                           std::string(to.name()) +
                           ": an element dtype must have the same component dimensions (a "
                           "matrix and a vector with the same number of components remain "
                           "distinct); pass a scalar dtype to change only the precision")
                              .c_str());
  }
  return to;
}

std::string layout_name(tack::layout l) { return l == tack::layout::soa ? "soa" : "aos"; }

nb::object components_of(const py_array& a) {
  if (!a.is_soa()) return nb::none();
  nb::list out;
  for (const auto& c : a.comps) {
    py_array p;
    p.elem = a.elem.scalar();
    p.ndim = a.ndim;
    p.shape = a.shape;
    p.data = c;
    out.append(nb::cast(std::move(p)));
  }
  return nb::tuple(out);
}

nb::object element_at(const py_array& a, nb::handle key) {
  long long k = nb::cast<long long>(nb::steal(PyNumber_Index(key.ptr())));
  const index_t n = a.shape[0];
  if (k < 0) k += n;
  if (k < 0 || k >= n) {
    throw nb::index_error(("tack.Array[" + nb::cast<std::string>(nb::repr(key)) +
                           "]: index out of range for " + a.describe())
                              .c_str());
  }
  py_array row = slice_rows(a, k, k + 1);
  if (a.ndim > 1) {
    std::vector<index_t> s(a.shape.begin() + 1, a.shape.begin() + a.ndim);
    return nb::cast(reshaped(row, s));
  }
  nb::object snap = to_numpy(row);
  return snap[nb::int_(0)];
}

}  // namespace

nb::object wrap(py_array&& a) {
  static const nb::handle type = nb::type<py_array>();
  nb::object inst = nb::inst_alloc(type);
  new (nb::inst_ptr<py_array>(inst)) py_array(std::move(a));
  nb::inst_mark_ready(inst);
  return inst;
}

py_array array_getitem_slice(const py_array& a, nb::handle key) {
  Py_ssize_t start = 0, stop = 0, step = 1;
  if (PySlice_Unpack(key.ptr(), &start, &stop, &step) < 0) throw nb::python_error();
  if (step != 1) {
    throw nb::value_error(("tack.Array[" + nb::cast<std::string>(nb::str(key)) + "]: a step of " +
                           std::to_string(step) +
                           " is not a row view (views are one contiguous "
                           "stretch of rows); tack.arrays.Strided reads every k-th element "
                           "without copying")
                              .c_str());
  }
  const Py_ssize_t len =
      PySlice_AdjustIndices(static_cast<Py_ssize_t>(a.shape[0]), &start, &stop, step);
  return slice_rows(a, start, start + len);
}

void bind_array(nb::module_& m) {
  nb::class_<py_array> cls(m, "Array",
                           "A typed array on a device (see tack.empty, tack.zeros, tack.array). "
                           "`a[i:j]` is a row view over the same memory.");
  def_arithmetic(cls);
  def_inplace_arithmetic(cls);
  cls.def_prop_ro("shape", &py_array::shape_tuple, "The shape, without component axes.")
      .def_prop_ro("size", &py_array::size, "The number of elements.")
      .def_prop_ro("ndim", [](const py_array& a) { return a.ndim; })
      .def_prop_ro(
          "dtype", [](const py_array& a) { return dtype_object(a.elem); },
          nb::sig("def dtype(self) -> DType"), "The element dtype (`tack.vec3(tack.f32)`).")
      .def_prop_ro(
          "scalar_dtype", [](const py_array& a) { return dtype_object(a.elem.scalar()); },
          nb::sig("def scalar_dtype(self) -> DType"))
      .def_prop_ro(
          "scalar_size", [](const py_array& a) { return a.elem.scalar_size(); },
          "Bytes per scalar component.")
      .def_prop_ro(
          "storage_shape",
          [](const py_array& a) {
            auto s = a.storage_shape();
            nb::list l;
            for (auto e : s) l.append(e);
            return nb::tuple(l);
          },
          "The shape with the component axes appended (`(n, 3)` for vec3).")
      .def_prop_ro(
          "device", [](const py_array& a) { return a.device().str(); },
          "Where the memory is: `'cpu'`, `'cuda:N'` or `'hip:N'`.")
      .def_prop_ro(
          "layout", [](const py_array& a) { return layout_name(a.layout); },
          "`'aos'` (interleaved, and every scalar array) or `'soa'`.")
      .def_prop_ro("components", &components_of,
                   nb::sig("def components(self) -> tuple[Array, ...] | None"),
                   "SoA arrays: the component arrays (a tuple); None for interleaved arrays.")
      .def_prop_ro("read_only", &py_array::read_only)
      .def_prop_ro(
          "nbytes",
          [](const py_array& a) { return a.size() * static_cast<index_t>(a.elem.itemsize()); })
      .def_prop_ro(
          "version",
          [](const py_array& a) {
            std::uint64_t v = 0;
            a.for_each_part([&](const flat& f) {
              v += std::visit([](const auto& p) { return p.version(); }, f);
            });
            return v;
          },
          "The root's write count: every write through any view of it increments it.")
      .def_prop_ro("is_view",
                   [](const py_array& a) {
                     return std::visit([](const auto& f) { return f.is_view(); }, a.first_part());
                   })
      .def("__len__", [](const py_array& a) { return a.shape[0]; })
      .def(
          "__getitem__",
          [](const py_array& a, nb::handle key) -> nb::object {
            if (PySlice_Check(key.ptr())) return wrap(array_getitem_slice(a, key));
            if (PyIndex_Check(key.ptr())) return element_at(a, key);
            throw nb::index_error(("tack.Array[" + nb::cast<std::string>(nb::repr(key)) +
                                   "]: a row view takes one slice (or one index) of the first "
                                   "dimension, nothing beside it; use reshape, "
                                   "tack.arrays.Strided or tack.arrays.ExtractComponent for "
                                   "other selections")
                                      .c_str());
          },
          nb::arg("key"),
          // A row view for a slice; for an index, a row (an Array) of a multi-dimensional array,
          // else the element as NumPy reads it: a scalar, or the components of a vector/matrix.
          nb::sig("def __getitem__(self, key: typing.SupportsIndex | slice) -> Array | "
                  "numpy.generic | numpy.typing.NDArray[typing.Any]"))
      .def(
          "__setitem__",
          [](const py_array& a, nb::handle key, nb::handle value) {
            // `a[i:j] += x` is `v = a[i:j]; v += x; a[i:j] = v`: the in-place operator already
            // wrote a's memory, so storing that very row view back is allowed (and does nothing).
            if (PySlice_Check(key.ptr()) && nb::isinstance<py_array>(value)) {
              const py_array& v = nb::cast<const py_array&>(value);
              const py_array rows = array_getitem_slice(a, key);
              if (v.elem == rows.elem && v.shape == rows.shape && v.ndim == rows.ndim &&
                  v.size() > 0 && shares_memory(v, rows) && first_byte(v) == first_byte(rows)) {
                return;
              }
            }
            throw nb::type_error(
                "tack.Array: tack has no slice assignment (a[i:j] = x); use "
                "tack.copyto(a[i:j], x) or a[i:j].fill(v)");
          },
          // Only the store-back of `a[i:j] += x` (the same row view) passes; all else raises.
          nb::sig("def __setitem__(self, key: slice, value: Array, /) -> None"))
      .def("numpy", &to_numpy, nb::sig("def numpy(self) -> numpy.typing.NDArray[typing.Any]"),
           "A host snapshot as a NumPy array, component axes appended: (n, 3) for vec3.")
      .def("fill", &fill_array, nb::arg("value"),
           nb::sig("def fill(self, value: float | int | bool | typing.Sequence[float] | "
                   "typing.Sequence[typing.Sequence[float]]) -> None"),
           "Sets every element: a number, or a sequence of components for vector and matrix "
           "elements (`v.fill([1.0, 0.0, 0.0])`).")
      .def(
          "copy",
          [](const py_array& a, nb::handle layout, nb::handle device) {
            return copy_array(
                a, a.elem, layout.is_none() ? a.layout : parse_layout(layout, "tack.Array.copy"),
                device.is_none() ? a.device() : parse_device(device, "tack.Array.copy"));
          },
          nb::kw_only(), nb::arg("layout") = nb::none(), nb::arg("device") = nb::none(),
          nb::sig("def copy(self, *, layout: str | None = None, device: str | None = None) -> "
                  "Array"),
          "Independent storage with the same values (same layout and device unless named).")
      .def(
          "astype",
          [](const py_array& a, nb::handle dtype) {
            tack::dtype to = astype_target(a, dtype_from(dtype, a.elem, "tack.Array.astype"));
            return copy_array(a, to, a.layout, a.device());
          },
          nb::arg("dtype"),
          nb::sig("def astype(self, dtype: DType | numpy.typing.DTypeLike) -> Array"),
          "A copy with another element type: a scalar dtype changes the component precision "
          "only; an element dtype must have the same component dimensions.")
      .def(
          "reshape",
          [](const py_array& a, nb::args shape) { return reshaped(a, parse_reshape(a, shape)); },
          "The same memory under another shape (the element count must match; one -1 is inferred).")
      .def(
          "to_device",
          [](nb::handle self, nb::handle device) -> nb::object {
            const py_array& a = nb::cast<const py_array&>(self);
            tack::device d = parse_device(device, "tack.Array.to_device");
            if (d == a.device()) return nb::borrow(self);
            return nb::cast(copy_array(a, a.elem, a.layout, d));
          },
          nb::arg("device"), nb::sig("def to_device(self, device: str) -> Array"),
          "The array itself when its memory is usable on `device`, else a copy there.")
      .def("__dlpack__", &dunder_dlpack, nb::kw_only(), "stream"_a = nb::none(),
           "max_version"_a = nb::none(), "dl_device"_a = nb::none(), "copy"_a = nb::none(),
           nb::sig("def __dlpack__(self, *, stream: int | None = None, max_version: tuple[int, "
                   "int] | None = None, dl_device: tuple[int, int] | None = None, copy: bool | "
                   "None = None) -> typing_extensions.CapsuleType"),
           "A DLPack capsule of the memory (shared): versioned, with READ_ONLY for read-only "
           "arrays, when the consumer passes max_version >= (1, 0); the legacy capsule otherwise.")
      .def(
          "__dlpack_device__",
          [](const py_array& a) {
            auto d = dlpack_device(a);
            return nb::make_tuple(d.first, d.second);
          },
          "(device type, device id) as DLPack numbers them: (1, 0) for the CPU.")
      .def(
          "__array__",
          [](nb::handle self, nb::handle dtype, nb::handle copy) {
            return dunder_array(self, dtype, copy);
          },
          "dtype"_a = nb::none(), nb::kw_only(), "copy"_a = nb::none(),
          nb::sig(
              "def __array__(self, dtype: numpy.typing.DTypeLike | None = None, *, copy: bool | "
              "None = None) -> numpy.typing.NDArray[typing.Any]"),
          "NumPy's protocol: shares the memory where it can (interleaved CPU arrays), else a "
          "snapshot.")
      .def("export_memory", &export_memory_of,
           "The root's allocation with a keep-alive owner (refused on row views and SoA arrays).")
      .def("__repr__", [](const py_array& a) {
        nb::module_ np = nb::module_::import_("numpy");
        nb::object text =
            np.attr("array2string")(to_numpy(a), "separator"_a = ", ", "prefix"_a = "tack.array(");
        std::string s =
            "tack.array(" + nb::cast<std::string>(text) + ", dtype=" + std::string(a.elem.name());
        if (a.is_soa()) s += ", layout=\"soa\"";
        if (!a.device().is_cpu()) s += ", device=\"" + a.device().str() + "\"";
        return s + ")";
      });
}

}  // namespace tackpy
