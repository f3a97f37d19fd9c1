// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
/// @file The binding of `tack.arrays` (`tack._core._arrays`): the `ImplicitArray` class and the
/// constructors of the library's implicit arrays (`CountingArray`, `ConstantArray`, `Cast`, the
/// random arrays, `Permutation`, `Concatenate`, `View`/`Strided`, `ExtractComponent`,
/// `Components`, `CartesianProduct`, `UniformCoordinates`). They check their arguments and build
/// nodes (lazy.hpp); lazy.cpp evaluates them. Values computed from the index come from the C++
/// implicit arrays (`tack::arrays::counting`, `random_uniform`, ...).

#include "lazy.hpp"

#include <tack/arrays/all.hpp>

#include <nanobind/stl/shared_ptr.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <string>
#include <vector>

namespace tackpy {

using namespace nb::literals;

void bind_arrays(nb::module_& m) {
  nb::module_ arrays = m.def_submodule("_arrays", "Implicit arrays (tack.arrays).");
  auto meta_shape = [](const py_lazy& l) {
    nb::list s;
    for (auto e : l.n->shape) s.append(e);
    return nb::tuple(s);
  };
  nb::class_<py_lazy> cls(arrays, "ImplicitArray",
                          "An array whose values are computed from the index or rearranged from "
                          "other arrays; read with numpy(), reduce, copy into arrays with "
                          "tack.copyto, store into where writable.");
  def_arithmetic(cls);
  cls.def(nb::init<const py_lazy&>(), "other"_a)
      .def_prop_ro("shape", meta_shape)
      .def_prop_ro("size", [](const py_lazy& l) { return l.n->n; })
      .def_prop_ro("ndim", [](const py_lazy& l) { return l.n->shape.size(); })
      .def_prop_ro("dtype", [](const py_lazy& l) { return dtype_object(l.n->elem); })
      .def_prop_ro(
          "device",
          [](const py_lazy& l) { return (l.n->device() ? *l.n->device() : tack::cpu()).str(); })
      .def_prop_ro(
          "writable", [](const py_lazy& l) { return l.n->writable(); },
          "Whether stores reach stored arrays (View, Strided, Permutation, ... of them).")
      .def("__len__", [](const py_lazy& l) { return l.n->shape.empty() ? 0 : l.n->shape[0]; })
      .def(
          "numpy", [](const py_lazy& l) { return to_numpy(materialize(l.n)); },
          "The values as a NumPy array (computed on the host).")
      .def(
          "__array__",
          [](const py_lazy& l, nb::handle dtype, nb::handle copy) {
            if (!copy.is_none() && !nb::cast<bool>(copy)) {
              throw nb::value_error(
                  "tack.arrays: an implicit array has no memory to share (copy=False)");
            }
            nb::object out = to_numpy(materialize(l.n));
            if (!dtype.is_none()) out = out.attr("astype")(dtype);
            return out;
          },
          "dtype"_a = nb::none(), nb::kw_only(), "copy"_a = nb::none())
      .def(
          "fill",
          [](const py_lazy& l, nb::handle value) {
            const node_ptr c = make_constant(l.n->elem, l.n->shape, value);
            store_into(l.n, c, "tack.arrays fill");
          },
          "value"_a, "Stores `value` into every element (writable implicit arrays only).")
      .def("__repr__",
           [](const py_lazy& l) {
             return "tack.arrays." + l.n->name() + " shape " + shape_string(l.n->shape) + " " +
                    std::string(l.n->elem.name());
           })
      .def("__getitem__", [](const py_lazy& l, nb::handle key) -> nb::object {
        if (PySlice_Check(key.ptr())) {
          Py_ssize_t start = 0, stop = 0, step = 1;
          if (PySlice_Unpack(key.ptr(), &start, &stop, &step) < 0) throw nb::python_error();
          const Py_ssize_t len =
              PySlice_AdjustIndices(static_cast<Py_ssize_t>(l.n->n), &start, &stop, step);
          if (step < 1)
            throw nb::value_error(
                "tack.arrays: a slice of an implicit array needs a positive step");
          const node_ptr v = make_strided(l.n, start, step, len, step == 1);
          return nb::cast(py_lazy{v});
        }
        long long k = nb::cast<long long>(key);
        if (k < 0) k += l.n->n;
        if (k < 0 || k >= l.n->n) throw nb::index_error("tack.arrays: index out of range");
        const node_ptr v = make_strided(l.n, k, 1, 1, false);
        return to_numpy(materialize(v))[nb::int_(0)];
      });

  arrays.def(
      "counting",
      [](index_t n, nb::handle start, nb::handle step, nb::handle dtype) {
        if (n < 0)
          throw nb::value_error(
              ("tack.arrays.CountingArray: negative length " + std::to_string(n)).c_str());
        const bool ints = !PyFloat_Check(start.ptr()) && !PyFloat_Check(step.ptr());
        tack::dtype d =
            dtype_from(dtype, tack::dtype(ints ? tack::scalar_kind::i64 : tack::scalar_kind::f64),
                       "tack.arrays.CountingArray");
        if (!d.is_scalar())
          throw nb::type_error("tack.arrays.CountingArray: dtype must be a scalar dtype");
        return tack::visit_scalar_kind(d.kind(), [&]<class S>() -> py_lazy {
          if constexpr (std::is_same_v<S, bool>) {
            throw nb::type_error("tack.arrays.CountingArray: bool does not count");
          } else {
            const S s0 = to_scalar<S>(start, "tack.arrays.CountingArray");
            const S s1 = to_scalar<S>(step, "tack.arrays.CountingArray");
            return py_lazy{make_computed<S>(tack::arrays::counting<S>(n, s0, s1), n,
                                            "CountingArray(n=" + std::to_string(n) + ")")};
          }
        });
      },
      "n"_a, "start"_a = 0, "step"_a = 1, "dtype"_a = nb::none());
  arrays.def(
      "constant",
      [](nb::handle value, index_t n, nb::handle dtype) {
        if (n < 0)
          throw nb::value_error(
              ("tack.arrays.ConstantArray: negative length " + std::to_string(n)).c_str());
        tack::dtype d;
        if (dtype.is_none()) {
          auto kind_of = [](nb::handle v) {
            return PyFloat_Check(v.ptr())  ? tack::scalar_kind::f64
                   : PyBool_Check(v.ptr()) ? tack::scalar_kind::boolean
                                           : tack::scalar_kind::i64;
          };
          if (PySequence_Check(value.ptr())) {
            nb::sequence seq = nb::borrow<nb::sequence>(value);
            const int c = static_cast<int>(nb::len(seq));
            tack::scalar_kind k = tack::scalar_kind::i64;
            for (nb::handle h : seq) {
              if (kind_of(h) == tack::scalar_kind::f64) k = tack::scalar_kind::f64;
            }
            d = tack::dtype::vector(k, c);
          } else {
            d = tack::dtype(kind_of(value));
          }
        } else {
          d = dtype_from(dtype, tack::dtype(), "tack.arrays.ConstantArray");
        }
        const node_ptr c = make_constant(d, {n}, value);
        return py_lazy{c};
      },
      "value"_a, "n"_a, "dtype"_a = nb::none());
  arrays.def(
      "cast",
      [](nb::handle a, nb::handle dtype) {
        node_ptr x = as_node(a, "tack.arrays.Cast");
        tack::dtype d = dtype_from(dtype, x->elem, "tack.arrays.Cast");
        if (!d.is_scalar() && (d.rows() != x->elem.rows() || d.cols() != x->elem.cols() ||
                               d.is_matrix() != x->elem.is_matrix())) {
          throw nb::value_error(("tack.arrays.Cast: " + std::string(x->elem.name()) + " to " +
                                 std::string(d.name()) +
                                 ": an element dtype must have the same component dimensions")
                                    .c_str());
        }
        return py_lazy{cast_to(x, d.kind())};
      },
      "a"_a, "dtype"_a);
  arrays.def(
      "random",
      [](const std::string& kind, index_t n, std::uint64_t seed, nb::handle lo, nb::handle hi,
         nb::handle dtype) {
        if (n < 0)
          throw nb::value_error(
              ("tack.arrays.Random: negative length " + std::to_string(n)).c_str());
        if (kind == "bits") {
          return py_lazy{make_computed<std::uint32_t>(
              tack::arrays::random_bits(n, seed), n,
              "RandomBits(n=" + std::to_string(n) + ", seed=" + std::to_string(seed) + ")")};
        }
        tack::dtype d =
            dtype_from(dtype, tack::dtype(tack::scalar_kind::f64), "tack.arrays.Random");
        if (d.kind() != tack::scalar_kind::f32 && d.kind() != tack::scalar_kind::f64) {
          throw nb::type_error("tack.arrays.Random: dtype must be tack.f32 or tack.f64");
        }
        auto make = [&]<class S>() -> py_lazy {
          if (kind == "normal") {
            return py_lazy{make_computed<S>(
                tack::arrays::random_normal<S>(n, seed), n,
                "RandomNormal(n=" + std::to_string(n) + ", seed=" + std::to_string(seed) + ")")};
          }
          const S l = lo.is_none() ? S(0) : to_scalar<S>(lo, "tack.arrays.RandomUniform");
          const S h = hi.is_none() ? S(1) : to_scalar<S>(hi, "tack.arrays.RandomUniform");
          return py_lazy{make_computed<S>(
              tack::arrays::random_uniform<S>(n, seed, l, h), n,
              "RandomUniform(n=" + std::to_string(n) + ", seed=" + std::to_string(seed) + ")")};
        };
        return d.kind() == tack::scalar_kind::f32 ? make.template operator()<float>()
                                                  : make.template operator()<double>();
      },
      "kind"_a, "n"_a, "seed"_a, "lo"_a = nb::none(), "hi"_a = nb::none(), "dtype"_a = nb::none());
  arrays.def(
      "permutation",
      [](nb::handle indices, nb::handle values) {
        node_ptr idx = as_node(indices, "tack.arrays.Permutation");
        node_ptr val = as_node(values, "tack.arrays.Permutation");
        if (!idx->elem.is_scalar() || tack::is_floating_kind(idx->kind()) ||
            idx->kind() == tack::scalar_kind::boolean) {
          throw nb::type_error(("tack.arrays.Permutation: indices must be integers, not " +
                                std::string(idx->elem.name()))
                                   .c_str());
        }
        const node_ptr p = make_permutation(idx, val);
        return py_lazy{p};
      },
      "indices"_a, "values"_a);
  arrays.def("concatenate", [](nb::args parts) {
    if (parts.size() < 1)
      throw nb::value_error("tack.arrays.Concatenate: needs at least one array");
    std::vector<node_ptr> all;
    for (nb::handle h : parts) {
      node_ptr p = as_node(h, "tack.arrays.Concatenate");
      if (!all.empty() && p->elem != all[0]->elem) {
        throw nb::value_error(("tack.arrays.Concatenate: part " + std::to_string(all.size()) +
                               " has " + std::string(p->elem.name()) + " elements, part 0 has " +
                               std::string(all[0]->elem.name()))
                                  .c_str());
      }
      all.push_back(p);
    }
    const node_ptr c = make_concatenate(all);
    return py_lazy{c};
  });
  arrays.def(
      "strided",
      [](nb::handle a, index_t step, index_t offset, nb::handle count, bool view) {
        node_ptr x = as_node(a, view ? "tack.arrays.View" : "tack.arrays.Strided");
        const char* op = view ? "tack.arrays.View" : "tack.arrays.Strided";
        if (step < 1)
          throw nb::value_error(
              (std::string(op) + ": step " + std::to_string(step) + " must be at least 1").c_str());
        if (offset < 0 || offset > x->n) {
          throw nb::index_error((std::string(op) + ": start " + std::to_string(offset) +
                                 " is outside " + x->name() + " (" + std::to_string(x->n) +
                                 " elements)")
                                    .c_str());
        }
        index_t n = (x->n - offset + step - 1) / step;
        if (!count.is_none()) {
          const index_t c = nb::cast<index_t>(count);
          if (c < 0 || offset + c > x->n) {
            throw nb::index_error((std::string(op) + ": " + std::to_string(c) + " elements from " +
                                   std::to_string(offset) + " run past " + x->name() + " (" +
                                   std::to_string(x->n) + " elements)")
                                      .c_str());
          }
          n = c;
        }
        const node_ptr v = make_strided(x, offset, step, n, view);
        return py_lazy{v};
      },
      "a"_a, "step"_a, "offset"_a, "count"_a.none(), "view"_a);
  arrays.def(
      "extract_component",
      [](nb::handle a, int c) {
        node_ptr x = as_node(a, "tack.arrays.ExtractComponent");
        if (c < 0 || c >= x->components()) {
          throw nb::index_error(("tack.arrays.ExtractComponent: component " + std::to_string(c) +
                                 " of " + std::string(x->elem.name()) + " (" +
                                 std::to_string(x->components()) + " components)")
                                    .c_str());
        }
        const node_ptr v = make_component(x, c);
        return py_lazy{v};
      },
      "a"_a, "component"_a);
  arrays.def("components", [](nb::args parts) {
    if (parts.size() < 2 || parts.size() > 4)
      throw nb::value_error("tack.arrays.Components: takes 2 to 4 scalar arrays");
    std::vector<node_ptr> all;
    for (nb::handle h : parts) {
      node_ptr p = as_node(h, "tack.arrays.Components");
      if (!p->elem.is_scalar())
        throw nb::value_error(
            ("tack.arrays.Components: " + p->name() + " is not a scalar array").c_str());
      if (!all.empty()) {
        if (p->kind() != all[0]->kind())
          throw nb::value_error("tack.arrays.Components: the components' dtypes differ");
        require_same_shape(*p, *all[0], "tack.arrays.Components");
      }
      all.push_back(p);
    }
    const node_ptr v = make_components(all);
    return py_lazy{v};
  });
  arrays.def("cartesian_product", [](nb::args axes) {
    if (axes.size() < 2 || axes.size() > 3)
      throw nb::value_error("tack.arrays.CartesianProduct: takes 2 or 3 coordinate arrays");
    std::vector<node_ptr> all;
    for (nb::handle h : axes) {
      node_ptr p = as_node(h, "tack.arrays.CartesianProduct");
      if (!p->elem.is_scalar() || p->shape.size() != 1) {
        throw nb::value_error(
            ("tack.arrays.CartesianProduct: " + p->name() + " is not a 1-D scalar array").c_str());
      }
      if (!all.empty() && p->kind() != all[0]->kind()) {
        throw nb::value_error("tack.arrays.CartesianProduct: the coordinate arrays' dtypes differ");
      }
      all.push_back(p);
    }
    const node_ptr v = make_cartesian_product(all);
    return py_lazy{v};
  });
  arrays.def(
      "uniform_coordinates",
      [](std::vector<index_t> dims, std::vector<double> origin, std::vector<double> spacing,
         nb::handle dtype) {
        const std::size_t r = dims.size();
        if (r < 1 || r > 3 || origin.size() != r || spacing.size() != r) {
          throw nb::value_error(
              "tack.arrays.UniformCoordinates: point_dims, origin and spacing need 1 to 3 entries "
              "each, the same number");
        }
        tack::dtype d = dtype_from(dtype, tack::dtype(tack::scalar_kind::f32),
                                   "tack.arrays.UniformCoordinates");
        for (std::size_t k = 0; k < r; ++k) {
          if (dims[k] < 0)
            throw nb::value_error("tack.arrays.UniformCoordinates: negative point dimension");
        }
        const node_ptr v = make_uniform_coordinates(dims, origin, spacing, d.kind());
        return py_lazy{v};
      },
      "point_dims"_a, "origin"_a, "spacing"_a, "dtype"_a = nb::none());
  arrays.def("materialize", [](const py_lazy& l) { return materialize(l.n); });
}

}  // namespace tackpy
