// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
/// @file `tack.dataset` over `tack::dataset`: uniform, rectilinear and unstructured meshes, H1/L2
/// spaces, fields of any element type, interpolation, and VTK XML files both ways.
///
/// Every mesh, space and field here is the C++ object; the Python objects hold it (meshes through
/// a `std::shared_ptr`, so that spaces, fields and field maps made from one mesh see the same one).
/// Arrays cross as `tack.Array`s over the same memory: a field's values are the Python array given
/// (or, for a field read from a file, a `tack.Array` over the C++ handle), and a mesh's stored
/// arrays (points, connectivity, offsets, cell types, axes) are `tack.Array`s over its handles.

#include "common.hpp"

#include <tack/array/factories.hpp>
#include <tack/array/soa.hpp>
#include <tack/types/mat.hpp>
#include <tack/types/vec.hpp>

#include <tack/dataset/all.hpp>

#include <nanobind/stl/pair.h>

#include <map>
#include <utility>

namespace tackpy {

using namespace nb::literals;
namespace td = tack::dataset;

namespace {

// ---- element types -------------------------------------------------------------------------

/// A `tack.Array` (storage) over the rank-1 handle `a`: the same memory, the same version.
template <class T>
py_array to_py(const tack::array<T>& a) {
  using S = tack::scalar_t<T>;
  constexpr int C = tack::components_v<T>;
  py_array out;
  out.elem = tack::dtype_of<T>();
  out.ndim = 1;
  out.shape[0] = a.size();
  if constexpr (tack::is_scalar_v<T>) {
    out.data = a;
  } else {
    if (a.layout() == tack::layout::soa) {
      out.layout = tack::layout::soa;
      for (const auto& c : a.components()) out.comps.emplace_back(tack::array<S>(c));
    } else if (a.size() == 0) {
      out.data = tack::empty<S>(tack::shape<1>{0}, {.device = a.device()});
    } else {
      out.data = tack::array<S>(a.as_scalars().reshape(tack::shape<1>{a.size() * C}));
    }
  }
  return out;
}

/// A read-only handle of the library (`connectivity()`) as the writable handle of the same
/// memory that a `tack.Array` holds (writes through it bump the version the mesh watches).
template <class T>
tack::array<T> writable(const tack::array<const T>& a) {
  return tack::detail::array_access::mutable_alias(a);
}

/// The typed C++ array of element type `T` over a Python array's memory (1-D).
template <class T>
tack::array<T> typed(const py_array& a) {
  using S = tack::scalar_t<T>;
  const index_t n = a.size();
  if constexpr (tack::is_scalar_v<T>) {
    return part_as<S>(a.data);
  } else if constexpr (tack::is_vec_v<T>) {
    constexpr int N = tack::components_v<T>;
    if (a.is_soa()) {
      return [&]<std::size_t... K>(std::index_sequence<K...>)->tack::array<T> {
        return tack::soa(part_as<S>(a.comps[K])...);
      }
      (std::make_index_sequence<N>{});
    }
    return part_as<S>(a.data).reshape(tack::shape<2>{n, N}).template as_elements<T>();
  } else {
    // tack::soa takes vectors: a field over SoA matrices would hold a copy, and writes to the
    // array would not reach it, so such values are refused.
    if (a.is_soa()) {
      throw nb::type_error(("tack.dataset.Field: " + a.describe() +
                            " holds matrices structure-of-arrays, which a field cannot share; "
                            "pass an interleaved copy (values.copy(layout=\"aos\"))")
                               .c_str());
    }
    constexpr int R = tack::component_rows_v<T>, C = tack::component_cols_v<T>;
    return part_as<S>(a.data).reshape(tack::shape<3>{n, R, C}).template as_elements<T>();
  }
}

/// Any object as a Python array (`tack.asarray`'s conversion: a NumPy array is shared, not
/// copied).
py_array as_py_array(nb::handle h) { return array_argument(h, "tack.dataset"); }

// ---- meshes ---------------------------------------------------------------------------------

/// The Python side of a mesh: the C++ mesh (shared with the spaces and field maps made from this
/// object) and the Python `Field` objects by name, so that `fields[name]` gives back the object
/// stored. Fields that came from a file get their Python object on first access.
template <class M>
struct py_mesh {
  std::shared_ptr<M> mesh;
  std::shared_ptr<std::map<std::string, nb::object>> objects =
      std::make_shared<std::map<std::string, nb::object>>();
};
using py_uniform = py_mesh<td::uniform_grid>;
using py_rectilinear = py_mesh<td::rectilinear_grid>;
using py_unstructured = py_mesh<td::unstructured_grid>;

struct py_space {
  td::function_space space;
  nb::object mesh;
};

struct py_field {
  td::any_field field;
  nb::object space;
  nb::object values;
};

/// `mesh.fields`: the C++ field map of the mesh object `owner`, and its Python objects.
struct py_fields {
  nb::object owner;
  td::field_map* map;
  std::shared_ptr<std::map<std::string, nb::object>> objects;
};

/// Calls `f(py_mesh<M>&)` for the mesh object `h` (TypeError naming `op` for anything else).
template <class F>
decltype(auto) with_mesh(nb::handle h, const char* op, F&& f) {
  if (nb::isinstance<py_uniform>(h)) return f(nb::cast<py_uniform&>(h));
  if (nb::isinstance<py_rectilinear>(h)) return f(nb::cast<py_rectilinear&>(h));
  if (nb::isinstance<py_unstructured>(h)) return f(nb::cast<py_unstructured&>(h));
  throw nb::type_error((std::string("tack.dataset.") + op +
                        ": expected a mesh (td.uniform_grid, td.rectilinear_grid, "
                        "td.unstructured_grid or td.read_vtk), not " +
                        nb::cast<std::string>(nb::repr(h.type())))
                           .c_str());
}

/// The Python `Field` object of a C++ field of the mesh object `mesh` (its values a `tack.Array`
/// over the same memory).
nb::object field_object(const td::any_field& f, nb::handle mesh) {
  py_array values;
  if (!tack::visit_dtype(f.dtype(), [&]<class T>() { values = to_py(f.as<T>().values()); })) {
    throw nb::type_error(("tack.dataset: field of element type " + std::string(f.dtype().name()) +
                          " has no Python form")
                             .c_str());
  }
  nb::object space = nb::cast(py_space{f.space(), nb::borrow(mesh)});
  return nb::cast(py_field{f, space, wrap(std::move(values))});
}

td::any_field make_field(const td::function_space& space, const py_array& v) {
  if (v.ndim != 1) {
    throw nb::value_error(("tack.dataset.Field: the values must be 1-D (one element per degree of "
                           "freedom), got " +
                           v.describe())
                              .c_str());
  }
  td::any_field out;
  if (!tack::visit_dtype(v.elem, [&]<class T>() { out = td::field<T>(space, typed<T>(v)); })) {
    throw nb::type_error(("tack.dataset.Field: values of " + std::string(v.elem.name()) +
                          " cannot be a field; fields take scalars, vec2/3/4 and mat2/3/4 of f32 "
                          "or f64")
                             .c_str());
  }
  return out;
}

std::array<index_t, 3> dims3(const std::vector<index_t>& d) {
  if (d.empty() || d.size() > 3) {
    throw nb::value_error(("tack.dataset.uniform_grid: point_dims has 1 to 3 entries, got " +
                           std::to_string(d.size()))
                              .c_str());
  }
  std::array<index_t, 3> out{1, 1, 1};
  for (std::size_t k = 0; k < d.size(); ++k) out[k] = d[k];
  return out;
}

tack::vec3d vec3_of(const std::vector<double>& v, double fill, const char* what) {
  if (v.size() > 3)
    throw nb::value_error(
        (std::string("tack.dataset.uniform_grid: ") + what + " has at most 3 entries").c_str());
  tack::vec3d out{fill, fill, fill};
  for (std::size_t k = 0; k < v.size(); ++k) out[static_cast<int>(k)] = v[k];
  return out;
}

/// An axis of a rectilinear grid: a 1-D f32 or f64 array (shared when f64).
template <class F>
decltype(auto) with_axis(const py_array& a, const char* name, F&& f) {
  if (a.ndim != 1 || a.elem.components() != 1) {
    throw nb::value_error((std::string("tack.dataset.rectilinear_grid: axis ") + name +
                           " must be a 1-D array of coordinates, got " + a.describe())
                              .c_str());
  }
  if (a.elem == tack::dtype(tack::scalar_kind::f64)) return f(part_as<double>(a.data));
  if (a.elem == tack::dtype(tack::scalar_kind::f32)) return f(part_as<float>(a.data));
  throw nb::type_error((std::string("tack.dataset.rectilinear_grid: axis ") + name + " is " +
                        a.describe() +
                        "; the axes are f32 or f64 (numpy.arange(5.0), or "
                        "a.astype(tack.f64))")
                           .c_str());
}

/// The points of an unstructured grid: vec3 of f32/f64 (either layout), or a (n, 3) f32/f64
/// array read as vec3 (the same memory).
template <class F>
decltype(auto) with_points(const py_array& a, F&& f) {
  using K = tack::scalar_kind;
  const index_t n = a.ndim >= 1 ? a.shape[0] : 0;
  if (a.ndim == 1 && a.elem == tack::dtype::vector(K::f32, 3)) return f(typed<tack::vec3f>(a));
  if (a.ndim == 1 && a.elem == tack::dtype::vector(K::f64, 3)) return f(typed<tack::vec3d>(a));
  if (a.ndim == 2 && a.shape[1] == 3 && a.elem == tack::dtype(K::f32)) {
    return f(part_as<float>(a.data).reshape(tack::shape<2>{n, 3}).as_elements<tack::vec3f>());
  }
  if (a.ndim == 2 && a.shape[1] == 3 && a.elem == tack::dtype(K::f64)) {
    return f(part_as<double>(a.data).reshape(tack::shape<2>{n, 3}).as_elements<tack::vec3d>());
  }
  throw nb::type_error(("tack.dataset.unstructured_grid: points must be vec3 of f32 or f64, or "
                        "(n, 3) f32/f64 values; got " +
                        a.describe())
                           .c_str());
}

/// An integer array of the cells as `int64` (shared when it is one, converted otherwise).
tack::array<std::int64_t> cell_ints(const py_array& a, const char* what) {
  const auto k = a.elem.kind();
  if (a.ndim != 1 || a.elem.components() != 1 || k == tack::scalar_kind::f32 ||
      k == tack::scalar_kind::f64 || k == tack::scalar_kind::boolean) {
    throw nb::type_error((std::string("tack.dataset.unstructured_grid: ") + what +
                          " must be a 1-D integer array, got " + a.describe())
                             .c_str());
  }
  if (k == tack::scalar_kind::i64) return part_as<std::int64_t>(a.data);
  return part_as<std::int64_t>(
      copy_array(a, tack::dtype(tack::scalar_kind::i64), tack::layout::aos, a.device()).data);
}

td::vtk_options vtk_options_of(const std::string& encoding, const std::string& header) {
  td::vtk_options o;
  if (encoding == "ascii")
    o.encoding = td::vtk_encoding::ascii;
  else if (encoding == "binary")
    o.encoding = td::vtk_encoding::binary;
  else if (encoding == "appended")
    o.encoding = td::vtk_encoding::appended;
  else
    throw nb::value_error(
        ("tack.dataset.write_vtk: encoding must be \"ascii\", \"binary\" or \"appended\", not \"" +
         encoding + "\"")
            .c_str());
  if (header == "uint64")
    o.header = td::vtk_header::uint64;
  else if (header == "uint32")
    o.header = td::vtk_header::uint32;
  else
    throw nb::value_error(
        ("tack.dataset.write_vtk: header must be \"uint32\" or \"uint64\", not \"" + header + "\"")
            .c_str());
  return o;
}

// ---- interpolation --------------------------------------------------------------------------

/// One value as Python sees an element (`a[k]`): a NumPy scalar, or a (C,) / (R, C) NumPy array.
template <class T>
nb::object value_object(const T& v) {
  py_array one = to_py(tack::array_from(std::vector<T>{v}));
  return to_numpy(one)[nb::int_(0)];
}

/// Whether `h` is one point (three numbers) rather than an array of points.
bool is_one_point(nb::handle h) {
  if (nb::isinstance<py_array>(h)) return false;
  nb::object np = nb::module_::import_("numpy");
  nb::object a = np.attr("asarray")(h);
  return nb::cast<int>(a.attr("ndim")) == 1;
}

tack::vec3d point_of(nb::handle h) {
  nb::object np = nb::module_::import_("numpy");
  nb::object a = np.attr("asarray")(h, "dtype"_a = "float64");
  if (nb::cast<int>(a.attr("size")) != 3) {
    throw nb::value_error(("tack.dataset.Field.interpolate: a point has 3 coordinates, got " +
                           nb::cast<std::string>(nb::repr(h)))
                              .c_str());
  }
  return tack::vec3d{nb::cast<double>(a[nb::int_(0)]), nb::cast<double>(a[nb::int_(1)]),
                     nb::cast<double>(a[nb::int_(2)])};
}

/// The element types Python interpolates: every kernel variant is compiled per element type,
/// mesh form and layout, so the binding keeps to the common ones (the C++ API takes any
/// floating-point element type).
template <class T>
inline constexpr bool interpolated_from_python =
    std::is_same_v<T, float> || std::is_same_v<T, double> || std::is_same_v<T, tack::vec3f> ||
    std::is_same_v<T, tack::vec3d> || std::is_same_v<T, tack::mat3f> ||
    std::is_same_v<T, tack::mat3d>;

nb::object interpolate(const py_field& f, nb::handle points) {
  nb::object out;
  const bool ok = tack::visit_dtype(f.field.dtype(), [&]<class T>() {
    if constexpr (!std::is_floating_point_v<tack::scalar_t<T>>) {
      throw nb::type_error(("tack.dataset.Field.interpolate: interpolation needs a floating-point "
                            "element type; the field is " +
                            f.field.describe())
                               .c_str());
    } else if constexpr (!interpolated_from_python<T>) {
      throw nb::type_error(("tack.dataset.Field.interpolate: " + f.field.describe() +
                            "; from Python, fields of f32, f64, vec3 and mat3 (of f32 or f64) "
                            "interpolate")
                               .c_str());
    } else {
      const td::field<T>& typed_field = f.field.as<T>();
      if (is_one_point(points)) {
        const tack::vec3d p = point_of(points);
        T v;
        {
          nb::gil_scoped_release release;
          v = typed_field.interpolate(p);
        }
        out = value_object(v);
        return;
      }
      const py_array pts = as_py_array(points);
      py_array result = with_points(pts, [&](const auto& q) {
        tack::array<T> r;
        {
          nb::gil_scoped_release release;
          r = typed_field.interpolate(q);
        }
        return to_py(r);
      });
      out = wrap(std::move(result));
    }
  });
  if (!ok) throw nb::type_error(("tack.dataset.Field.interpolate: " + f.field.describe()).c_str());
  return out;
}

// ---- cyclic garbage collection: mesh -> its Field objects -> their space -> the mesh ----------

template <class M>
int mesh_traverse(PyObject* self, visitproc visit, void* arg) {
  Py_VISIT(Py_TYPE(self));
  if (!nb::inst_ready(self)) return 0;
  auto* m = nb::inst_ptr<py_mesh<M>>(self);
  if (m->objects) {
    for (auto& e : *m->objects) Py_VISIT(e.second.ptr());
  }
  return 0;
}
template <class M>
int mesh_clear(PyObject* self) {
  auto* m = nb::inst_ptr<py_mesh<M>>(self);
  if (m->objects) {
    std::map<std::string, nb::object> dropped;
    dropped.swap(*m->objects);  // released after the map is consistent
  }
  return 0;
}
template <class M>
PyType_Slot mesh_slots[] = {
    {Py_tp_traverse, (void*)mesh_traverse<M>}, {Py_tp_clear, (void*)mesh_clear<M>}, {0, nullptr}};

int space_traverse(PyObject* self, visitproc visit, void* arg) {
  Py_VISIT(Py_TYPE(self));
  if (!nb::inst_ready(self)) return 0;
  Py_VISIT(nb::inst_ptr<py_space>(self)->mesh.ptr());
  return 0;
}
int space_clear(PyObject* self) {
  nb::object dropped = std::move(nb::inst_ptr<py_space>(self)->mesh);
  return 0;
}
PyType_Slot space_slots[] = {
    {Py_tp_traverse, (void*)space_traverse}, {Py_tp_clear, (void*)space_clear}, {0, nullptr}};

int field_traverse(PyObject* self, visitproc visit, void* arg) {
  Py_VISIT(Py_TYPE(self));
  if (!nb::inst_ready(self)) return 0;
  auto* f = nb::inst_ptr<py_field>(self);
  Py_VISIT(f->space.ptr());
  Py_VISIT(f->values.ptr());
  return 0;
}
int field_clear(PyObject* self) {
  auto* f = nb::inst_ptr<py_field>(self);
  nb::object s = std::move(f->space), v = std::move(f->values);
  return 0;
}
PyType_Slot field_slots[] = {
    {Py_tp_traverse, (void*)field_traverse}, {Py_tp_clear, (void*)field_clear}, {0, nullptr}};

int fields_traverse(PyObject* self, visitproc visit, void* arg) {
  Py_VISIT(Py_TYPE(self));
  if (!nb::inst_ready(self)) return 0;
  Py_VISIT(nb::inst_ptr<py_fields>(self)->owner.ptr());
  return 0;
}
int fields_clear(PyObject* self) {
  nb::object dropped = std::move(nb::inst_ptr<py_fields>(self)->owner);
  return 0;
}
PyType_Slot fields_slots[] = {
    {Py_tp_traverse, (void*)fields_traverse}, {Py_tp_clear, (void*)fields_clear}, {0, nullptr}};

/// What the three mesh classes share: counts, the field map, description.
template <class M>
void def_mesh_common(nb::class_<py_mesh<M>>& cls) {
  cls.def_prop_ro("n_points", [](const py_mesh<M>& g) { return g.mesh->n_points(); })
      .def_prop_ro("n_cells", [](const py_mesh<M>& g) { return g.mesh->n_cells(); })
      .def_prop_ro(
          "fields",
          [](nb::handle self) {
            auto& g = nb::cast<py_mesh<M>&>(self);
            return py_fields{nb::borrow(self), &g.mesh->fields, g.objects};
          },
          "The fields on this mesh by name (`data.fields[\"velocity\"] = td.Field(space, "
          "values)`).")
      .def("__repr__", [](const py_mesh<M>& g) { return "tack.dataset." + g.mesh->describe(); });
}

nb::list field_names(const py_fields& m) {
  nb::list names;
  for (const auto& e : *m.map) names.append(e.first);
  return names;
}

nb::object field_at(const py_fields& m, const std::string& name) {
  const td::any_field& f = m.map->at(name);  // index_error naming the fields there are
  auto it = m.objects->find(name);
  if (it != m.objects->end()) return it->second;
  nb::object obj = field_object(f, m.owner);
  (*m.objects)[name] = obj;
  return obj;
}

}  // namespace

void bind_dataset(nb::module_& m) {
  nb::module_ ds = m.def_submodule("_dataset", "tack.dataset");

  auto uniform =
      nb::class_<py_uniform>(ds, "UniformGrid", nb::type_slots(mesh_slots<td::uniform_grid>),
                             "A uniform grid (VTK ImageData): points origin + spacing * (i, j, k), "
                             "x fastest; nothing stored.");
  def_mesh_common(uniform);
  uniform
      .def_prop_ro("point_dims",
                   [](const py_uniform& g) {
                     auto d = g.mesh->point_dims();
                     return nb::make_tuple(d[0], d[1], d[2]);
                   })
      .def_prop_ro("origin",
                   [](const py_uniform& g) {
                     auto o = g.mesh->origin();
                     return nb::make_tuple(o[0], o[1], o[2]);
                   })
      .def_prop_ro("spacing", [](const py_uniform& g) {
        auto s = g.mesh->spacing();
        return nb::make_tuple(s[0], s[1], s[2]);
      });

  auto rect = nb::class_<py_rectilinear>(
      ds, "RectilinearGrid", nb::type_slots(mesh_slots<td::rectilinear_grid>),
      "A rectilinear grid (VTK RectilinearGrid): the Cartesian product "
      "of three increasing axes, x fastest.");
  def_mesh_common(rect);
  rect.def_prop_ro("point_dims", [](const py_rectilinear& g) {
    auto d = g.mesh->point_dims();
    return nb::make_tuple(d[0], d[1], d[2]);
  });
  const char* axis_names[3] = {"x", "y", "z"};
  for (int d = 0; d < 3; ++d) {
    rect.def_prop_ro(
        axis_names[d],
        [d](const py_rectilinear& g) { return wrap(to_py(writable(g.mesh->axis(d)))); },
        "The axis's coordinates: an f64 tack.Array over the mesh's own memory.");
  }

  auto unst = nb::class_<py_unstructured>(
      ds, "UnstructuredGrid", nb::type_slots(mesh_slots<td::unstructured_grid>),
      "Points and cells of VTK's linear cell types (VTK UnstructuredGrid).");
  def_mesh_common(unst);
  unst.def_prop_ro(
          "points",
          [](const py_unstructured& g) {
            return std::visit([](const auto& p) { return wrap(to_py(p)); }, g.mesh->points());
          },
          "The points: a vec3 tack.Array over the mesh's memory (either layout, as given).")
      .def_prop_ro(
          "connectivity",
          [](const py_unstructured& g) { return wrap(to_py(writable(g.mesh->connectivity()))); },
          "The point indices of every cell, one cell after the other (i64, the mesh's memory).")
      .def_prop_ro(
          "offsets",
          [](const py_unstructured& g) { return wrap(to_py(writable(g.mesh->offsets()))); },
          "n_cells + 1 offsets from 0 into connectivity (i64, the mesh's memory).")
      .def_prop_ro(
          "cell_types",
          [](const py_unstructured& g) { return wrap(to_py(writable(g.mesh->cell_types()))); },
          "VTK cell type numbers (u8, the mesh's memory).")
      .def_prop_ro(
          "locator_builds", [](const py_unstructured& g) { return g.mesh->locator_builds(); },
          "How many times the cell locator was built (rebuilt when the points' write version "
          "changed).")
      .def(
          "__dlpack__",
          [](const py_unstructured& g, nb::handle stream, nb::handle max_version,
             nb::handle dl_device, nb::handle copy) {
            py_array p = std::visit([](const auto& a) { return to_py(a); }, g.mesh->points());
            return dunder_dlpack(p, stream, max_version, dl_device, copy);
          },
          nb::kw_only(), "stream"_a = nb::none(), "max_version"_a = nb::none(),
          "dl_device"_a = nb::none(), "copy"_a = nb::none(),
          "The points through DLPack (shared): `numpy.from_dlpack(mesh)` is (n, 3).")
      .def("__dlpack_device__", [](const py_unstructured& g) {
        py_array p = std::visit([](const auto& a) { return to_py(a); }, g.mesh->points());
        auto d = dlpack_device(p);
        return nb::make_tuple(d.first, d.second);
      });

  nb::class_<py_space>(ds, "FunctionSpace", nb::type_slots(space_slots),
                       "Where a field's values live and how they interpolate (H1, L2).")
      .def_prop_ro(
          "size", [](const py_space& s) { return s.space.size(); },
          "Values a field on this space has.")
      .def_prop_ro(
          "kind",
          [](const py_space& s) { return s.space.kind() == td::space_kind::H1 ? "H1" : "L2"; })
      .def_prop_ro("mesh", [](const py_space& s) { return s.mesh; })
      .def("__repr__", [](const py_space& s) { return s.space.describe(); });

  nb::class_<py_field>(
      ds, "Field", nb::type_slots(field_slots),
      "Coefficient values (a tack.Array of scalars, vectors or matrices) on a function space.")
      .def(
          "__init__",
          [](py_field* self, nb::handle space, nb::handle values) {
            if (!nb::isinstance<py_space>(space)) {
              throw nb::type_error("tack.dataset.Field: space must be td.H1(mesh) or td.L2(mesh)");
            }
            if (!nb::isinstance<py_array>(values)) {
              throw nb::type_error(("tack.dataset.Field: values must be a tack.Array, not " +
                                    nb::cast<std::string>(nb::repr(values.type())))
                                       .c_str());
            }
            new (self) py_field{make_field(nb::cast<const py_space&>(space).space,
                                           nb::cast<const py_array&>(values)),
                                nb::borrow(space), nb::borrow(values)};
          },
          "space"_a, "values"_a)
      .def_prop_ro("space", [](const py_field& f) { return f.space; })
      .def_prop_ro(
          "values", [](const py_field& f) { return f.values; }, "The values (the same memory).")
      .def_prop_ro("size", [](const py_field& f) { return f.field.size(); })
      .def_prop_ro("dtype", [](const py_field& f) { return dtype_object(f.field.dtype()); })
      .def("interpolate", &interpolate, "points"_a,
           "The field at one point (three numbers: a NumPy scalar or array, as `values[k]`), or at "
           "each "
           "of an array of points (vec3 tack.Array, or (n, 3) values: a tack.Array of the field's "
           "element type). NaN outside the mesh. Runs as a kernel on the values' device.")
      .def(
          "__dlpack__",
          [](const py_field& f, nb::handle stream, nb::handle max_version, nb::handle dl_device,
             nb::handle copy) {
            return dunder_dlpack(nb::cast<const py_array&>(f.values), stream, max_version,
                                 dl_device, copy);
          },
          nb::kw_only(), "stream"_a = nb::none(), "max_version"_a = nb::none(),
          "dl_device"_a = nb::none(), "copy"_a = nb::none(), "The values through DLPack (shared).")
      .def("__dlpack_device__",
           [](const py_field& f) {
             auto d = dlpack_device(nb::cast<const py_array&>(f.values));
             return nb::make_tuple(d.first, d.second);
           })
      .def("__repr__", [](const py_field& f) { return "tack.dataset." + f.field.describe(); });

  nb::class_<py_fields>(ds, "FieldMap", nb::type_slots(fields_slots),
                        "A mesh's fields by name, in insertion order.")
      .def("__setitem__",
           [](py_fields& m, const std::string& name, nb::handle f) {
             if (!nb::isinstance<py_field>(f)) {
               throw nb::type_error(("tack.dataset: fields[" + name + "] must be a td.Field, not " +
                                     nb::cast<std::string>(nb::repr(f.type())))
                                        .c_str());
             }
             (*m.map)[name] = nb::cast<const py_field&>(f).field;
             (*m.objects)[name] = nb::borrow(f);
           })
      .def("__getitem__", &field_at)
      .def(
          "get",
          [](const py_fields& m, const std::string& name, nb::handle fallback) -> nb::object {
            return m.map->contains(name) ? field_at(m, name) : nb::borrow(fallback);
          },
          "name"_a, "default"_a = nb::none())
      .def("__delitem__",
           [](py_fields& m, const std::string& name) {
             if (m.map->erase(name) == 0) throw nb::key_error(name.c_str());
             m.objects->erase(name);
           })
      .def("__contains__",
           [](const py_fields& m, const std::string& name) { return m.map->contains(name); })
      .def("__len__", [](const py_fields& m) { return m.map->size(); })
      .def("__iter__", [](const py_fields& m) { return nb::iter(field_names(m)); })
      .def("keys", &field_names)
      .def("items", [](const py_fields& m) {
        nb::list out;
        for (const auto& e : *m.map) out.append(nb::make_tuple(e.first, field_at(m, e.first)));
        return out;
      });

  ds.def(
      "uniform_grid",
      [](std::vector<index_t> dims, std::vector<double> origin, std::vector<double> spacing) {
        return py_uniform{std::make_shared<td::uniform_grid>(
            dims3(dims), vec3_of(origin, 0.0, "origin"), vec3_of(spacing, 1.0, "spacing"))};
      },
      "point_dims"_a, "origin"_a = std::vector<double>{}, "spacing"_a = std::vector<double>{},
      "A uniform grid of `point_dims` points (1 to 3 entries), origin (0, 0, 0) and spacing 1 by "
      "default.");
  ds.def(
      "rectilinear_grid",
      [](nb::handle x, nb::handle y, nb::handle z) {
        const py_array ax = as_py_array(x), ay = as_py_array(y), az = as_py_array(z);
        return with_axis(ax, "x", [&](const auto& xa) {
          return with_axis(ay, "y", [&](const auto& ya) {
            return with_axis(az, "z", [&](const auto& za) {
              return py_rectilinear{std::make_shared<td::rectilinear_grid>(xa, ya, za)};
            });
          });
        });
      },
      "x"_a, "y"_a, "z"_a,
      "A rectilinear grid over three strictly increasing f32/f64 axes (f64 axes are shared, f32 "
      "ones "
      "copied).");
  ds.def(
      "unstructured_grid",
      [](nb::handle points, nb::handle connectivity, nb::handle offsets, nb::handle cell_types) {
        const py_array p = as_py_array(points);
        const auto conn = cell_ints(as_py_array(connectivity), "connectivity");
        const auto off = cell_ints(as_py_array(offsets), "offsets");
        const py_array t = as_py_array(cell_types);
        return with_points(p, [&](const auto& pts) {
          if (t.ndim == 1 && t.elem == tack::dtype(tack::scalar_kind::u8)) {
            return py_unstructured{std::make_shared<td::unstructured_grid>(
                pts, conn, off, part_as<std::uint8_t>(t.data))};
          }
          return py_unstructured{
              std::make_shared<td::unstructured_grid>(pts, conn, off, cell_ints(t, "cell_types"))};
        });
      },
      "points"_a, "connectivity"_a, "offsets"_a, "cell_types"_a,
      "Points (vec3 or (n, 3), f32/f64, shared) and cells: connectivity, n_cells + 1 offsets from "
      "0, "
      "VTK cell type numbers (integers; i64 connectivity/offsets and u8 types are shared, others "
      "converted).");
  ds.def(
      "H1",
      [](nb::handle mesh) {
        return with_mesh(mesh, "H1", [&](auto& g) {
          return py_space{td::H1(*g.mesh), nb::borrow(mesh)};
        });
      },
      "mesh"_a, "One value per point, interpolated linearly in each cell.");
  ds.def(
      "L2",
      [](nb::handle mesh) {
        return with_mesh(mesh, "L2", [&](auto& g) {
          return py_space{td::L2(*g.mesh), nb::borrow(mesh)};
        });
      },
      "mesh"_a, "One value per cell, constant over the cell.");
  ds.def(
      "write_vtk",
      [](nb::handle mesh, const std::string& path, const std::string& encoding,
         const std::string& header) {
        const td::vtk_options o = vtk_options_of(encoding, header);
        with_mesh(mesh, "write_vtk", [&](auto& g) {
          // A copy of the mesh handle and its field map (handles), taken with the GIL: another
          // thread may add or remove fields while this one writes.
          const auto snapshot = *g.mesh;
          nb::gil_scoped_release release;
          td::write_vtk(snapshot, path, o);
        });
      },
      "mesh"_a, "path"_a, "encoding"_a = "appended", "header"_a = "uint64",
      "Writes the mesh and its fields as VTK XML (.vti uniform, .vtr rectilinear, .vtu "
      "unstructured), "
      "whole or not at all.");
  ds.def(
      "read_vtk",
      [](const std::string& path) -> nb::object {
        td::mesh m = [&] {
          nb::gil_scoped_release release;
          return td::read_vtk(path);
        }();
        return std::visit(
            [](auto& g) -> nb::object {
              using M = std::decay_t<decltype(g)>;
              return nb::cast(py_mesh<M>{std::make_shared<M>(std::move(g))});
            },
            m);
      },
      "path"_a,
      "Reads a .vti, .vtr or .vtu file (ascii, base64 or appended) with its point and cell data as "
      "fields; a malformed file is a ValueError naming it and the problem.");
  ds.def(
      "write_pvd",
      [](const std::string& path, const std::vector<std::pair<double, std::string>>& entries) {
        std::vector<td::pvd_entry> e;
        for (const auto& [time, file] : entries) e.push_back({time, file, 0});
        td::write_pvd(path, e);
      },
      "path"_a, "entries"_a, "A ParaView collection (.pvd) of (time, file) pairs: a time series.");
}

}  // namespace tackpy
