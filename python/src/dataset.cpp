// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
/// @file `tack.dataset`: uniform grids, function spaces, fields and VTK files over
/// `tack::dataset` (the seed's snippet: `td.uniform_grid`, `td.H1`, `td.Field`, `data.fields`).

#include "common.hpp"

#include <tack/dataset/all.hpp>

#include <map>

namespace tackpy {

using namespace nb::literals;
namespace td = tack::dataset;

namespace {

/// A uniform grid shared by every Python object that refers to it (its fields live in it).
struct py_grid {
  std::shared_ptr<td::uniform_grid> grid;
  /// The Python Field objects by name, so that `fields[name]` gives back the object stored.
  std::shared_ptr<std::map<std::string, nb::object>> objects = std::make_shared<std::map<std::string, nb::object>>();
};

struct py_space {
  td::function_space space;
  nb::object mesh;
};

struct py_field {
  td::any_field field;
  nb::object space;
  nb::object values;
};

struct py_fields {
  py_grid g;
};

/// The typed C++ array a field needs, sharing the Python array's memory.
template <class T>
tack::array<T> typed(const py_array& a) {
  using S = tack::scalar_t<T>;
  const index_t n = a.size();
  if constexpr (tack::is_scalar_v<T>) {
    return part_as<S>(a.data);
  } else if constexpr (tack::is_vec_v<T>) {
    if (a.is_soa()) return tack::soa(part_as<S>(a.comps[0]), part_as<S>(a.comps[1]), part_as<S>(a.comps[2]));
    return part_as<S>(a.data).reshape(tack::shape<2>{n, 3}).template as_elements<T>();
  } else {
    // A SoA matrix array is gathered into one interleaved copy (tack::soa takes vectors).
    const py_array x = a.is_soa() ? copy_array(a, a.elem, tack::layout::aos, a.device()) : a;
    return part_as<S>(x.data).reshape(tack::shape<3>{n, 3, 3}).template as_elements<T>();
  }
}

td::any_field make_field(const td::function_space& space, const py_array& v) {
  if (v.ndim != 1) {
    throw nb::value_error(("tack.dataset.Field: the values must be 1-D (one element per degree of "
                           "freedom), got " + v.describe())
                              .c_str());
  }
  const tack::dtype e = v.elem;
  using K = tack::scalar_kind;
  if (e == tack::dtype(K::f32)) return td::field<float>(space, typed<float>(v));
  if (e == tack::dtype(K::f64)) return td::field<double>(space, typed<double>(v));
  if (e == tack::dtype::vector(K::f32, 3)) return td::field<tack::vec3f>(space, typed<tack::vec3f>(v));
  if (e == tack::dtype::vector(K::f64, 3)) return td::field<tack::vec3d>(space, typed<tack::vec3d>(v));
  if (e == tack::dtype::matrix(K::f32, 3, 3)) return td::field<tack::mat3f>(space, typed<tack::mat3f>(v));
  if (e == tack::dtype::matrix(K::f64, 3, 3)) return td::field<tack::mat3d>(space, typed<tack::mat3d>(v));
  throw nb::type_error(("tack.dataset.Field: values of " + std::string(e.name()) +
                        " are not bound yet; fields from Python take f32, f64, vec3 and mat3 of "
                        "f32 or f64")
                           .c_str());
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
  if (v.size() > 3) throw nb::value_error((std::string("tack.dataset.uniform_grid: ") + what + " has at most 3 entries").c_str());
  tack::vec3d out{fill, fill, fill};
  for (std::size_t k = 0; k < v.size(); ++k) out[static_cast<int>(k)] = v[k];
  return out;
}

}  // namespace

void bind_dataset(nb::module_& m) {
  nb::module_ ds = m.def_submodule("_dataset", "tack.dataset");

  nb::class_<py_grid>(ds, "UniformGrid", "A uniform grid: points origin + spacing * (i, j, k), x fastest.")
      .def_prop_ro("point_dims", [](const py_grid& g) { auto d = g.grid->point_dims(); return nb::make_tuple(d[0], d[1], d[2]); })
      .def_prop_ro("origin", [](const py_grid& g) { auto o = g.grid->origin(); return nb::make_tuple(o[0], o[1], o[2]); })
      .def_prop_ro("spacing", [](const py_grid& g) { auto s = g.grid->spacing(); return nb::make_tuple(s[0], s[1], s[2]); })
      .def_prop_ro("n_points", [](const py_grid& g) { return g.grid->n_points(); })
      .def_prop_ro("n_cells", [](const py_grid& g) { return g.grid->n_cells(); })
      .def_prop_ro("fields", [](const py_grid& g) { return py_fields{g}; },
                   "The fields on this mesh by name (`data.fields[\"velocity\"] = td.Field(space, values)`).")
      .def("__repr__", [](const py_grid& g) { return "tack.dataset." + g.grid->describe(); });

  nb::class_<py_space>(ds, "FunctionSpace", "Where a field's values live and how they interpolate (H1, L2).")
      .def_prop_ro("size", [](const py_space& s) { return s.space.size(); }, "Values a field on this space has.")
      .def_prop_ro("kind", [](const py_space& s) { return s.space.kind() == td::space_kind::H1 ? "H1" : "L2"; })
      .def_prop_ro("mesh", [](const py_space& s) { return s.mesh; })
      .def("__repr__", [](const py_space& s) { return s.space.describe(); });

  nb::class_<py_field>(ds, "Field", "Coefficient values (any tack array of scalars, vec3 or mat3) on a function space.")
      .def("__init__",
           [](py_field* self, nb::handle space, nb::handle values) {
             if (!nb::isinstance<py_space>(space)) {
               throw nb::type_error("tack.dataset.Field: space must be td.H1(mesh) or td.L2(mesh)");
             }
             if (!nb::isinstance<py_array>(values)) {
               throw nb::type_error(("tack.dataset.Field: values must be a tack.Array, not " +
                                     nb::cast<std::string>(nb::repr(values.type())))
                                        .c_str());
             }
             new (self) py_field{make_field(nb::cast<const py_space&>(space).space, nb::cast<const py_array&>(values)),
                                 nb::borrow(space), nb::borrow(values)};
           },
           "space"_a, "values"_a)
      .def_prop_ro("space", [](const py_field& f) { return f.space; })
      .def_prop_ro("values", [](const py_field& f) { return f.values; }, "The values (the same memory).")
      .def_prop_ro("size", [](const py_field& f) { return f.field.size(); })
      .def_prop_ro("dtype", [](const py_field& f) { return dtype_object(f.field.dtype()); })
      .def("__repr__", [](const py_field& f) { return "tack.dataset." + f.field.describe(); });

  nb::class_<py_fields>(ds, "FieldMap", "A mesh's fields by name, in insertion order.")
      .def("__setitem__",
           [](py_fields& m, const std::string& name, nb::handle f) {
             if (!nb::isinstance<py_field>(f)) {
               throw nb::type_error(("tack.dataset: fields[" + name + "] must be a td.Field, not " +
                                     nb::cast<std::string>(nb::repr(f.type())))
                                        .c_str());
             }
             m.g.grid->fields[name] = nb::cast<const py_field&>(f).field;
             (*m.g.objects)[name] = nb::borrow(f);
           })
      .def("__getitem__",
           [](const py_fields& m, const std::string& name) -> nb::object {
             (void)m.g.grid->fields.at(name);  // index_error naming the fields there are
             return (*m.g.objects)[name];
           })
      .def("__delitem__",
           [](py_fields& m, const std::string& name) {
             if (m.g.grid->fields.erase(name) == 0) {
               throw nb::key_error(name.c_str());
             }
             m.g.objects->erase(name);
           })
      .def("__contains__", [](const py_fields& m, const std::string& name) { return m.g.grid->fields.contains(name); })
      .def("__len__", [](const py_fields& m) { return m.g.grid->fields.size(); })
      .def("__iter__",
           [](const py_fields& m) {
             nb::list names;
             for (const auto& e : m.g.grid->fields) names.append(e.first);
             return nb::iter(names);
           })
      .def("keys", [](const py_fields& m) {
        nb::list names;
        for (const auto& e : m.g.grid->fields) names.append(e.first);
        return names;
      });

  ds.def("uniform_grid",
         [](std::vector<index_t> dims, std::vector<double> origin, std::vector<double> spacing) {
           return py_grid{std::make_shared<td::uniform_grid>(dims3(dims), vec3_of(origin, 0.0, "origin"),
                                                             vec3_of(spacing, 1.0, "spacing"))};
         },
         "point_dims"_a, "origin"_a = std::vector<double>{}, "spacing"_a = std::vector<double>{},
         "A uniform grid of `point_dims` points (1 to 3 entries), origin (0, 0, 0) and spacing 1 by default.");
  ds.def("H1", [](nb::handle mesh) { return py_space{td::H1(*nb::cast<const py_grid&>(mesh).grid), nb::borrow(mesh)}; },
         "mesh"_a, "One value per point, interpolated linearly in each cell.");
  ds.def("L2", [](nb::handle mesh) { return py_space{td::L2(*nb::cast<const py_grid&>(mesh).grid), nb::borrow(mesh)}; },
         "mesh"_a, "One value per cell, constant over the cell.");
  ds.def("write_vtk",
         [](const py_grid& g, const std::string& path, const std::string& encoding) {
           td::vtk_options o;
           if (encoding == "ascii") o.encoding = td::vtk_encoding::ascii;
           else if (encoding == "binary") o.encoding = td::vtk_encoding::binary;
           else if (encoding == "appended") o.encoding = td::vtk_encoding::appended;
           else throw nb::value_error(("tack.dataset.write_vtk: encoding must be \"ascii\", \"binary\" or \"appended\", not \"" + encoding + "\"").c_str());
           nb::gil_scoped_release release;
           td::write_vtk(*g.grid, path, o);
         },
         "mesh"_a, "path"_a, "encoding"_a = "appended",
         "Writes the mesh and its fields as VTK XML ImageData (.vti), whole or not at all.");
}

}  // namespace tackpy
