// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
/// @file `tack.amr`: AMR hierarchies over `tack::amr` (level buffers, box row views handed to
/// Python as `tack.Array` views of the level buffer, ghost cells, average_down, .vthb files).

#include "common.hpp"

#include <tack/types/vec.hpp>

#include <mutex>

#include <tack/amr/all.hpp>

#include <nanobind/stl/array.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/tuple.h>

namespace tackpy {

using namespace nb::literals;
namespace amr = tack::amr;

namespace {

using corner = std::array<index_t, 3>;
using py_box = std::pair<corner, corner>;

/// A hierarchy shared by the Python objects that refer to it.
/// The Python hierarchy. Ghost filling and averaging release the GIL; `structure` keeps them and
/// the calls that change the levels or fields (regrid, add_field) from running at once on one
/// hierarchy from two threads.
struct py_hierarchy {
  std::shared_ptr<amr::hierarchy> h;
  std::shared_ptr<std::mutex> structure = std::make_shared<std::mutex>();
};

amr::box to_box(const py_box& b) { return amr::box{b.first, b.second}; }
py_box from_box(const amr::box& b) { return {b.lo, b.hi}; }

amr::boundary parse_boundary(const std::string& s) {
  if (s == "periodic") return amr::boundary::periodic;
  if (s == "extrapolate") return amr::boundary::extrapolate;
  throw nb::value_error(
      ("tack.amr: boundary must be \"periodic\" or \"extrapolate\", got \"" + s + "\"").c_str());
}

std::array<amr::boundary, 3> parse_boundaries(const std::vector<std::string>& b) {
  if (b.size() != 3) {
    throw nb::value_error(
        ("tack.amr: boundaries has one entry per axis (3), got " + std::to_string(b.size()))
            .c_str());
  }
  return {parse_boundary(b[0]), parse_boundary(b[1]), parse_boundary(b[2])};
}

/// Calls `f.template operator()<T>()` for the element types Python fields take.
template <class F>
bool with_amr_element(const tack::dtype& e, F&& f) {
  using K = tack::scalar_kind;
  if (e == tack::dtype(K::f32)) return f.template operator()<float>(), true;
  if (e == tack::dtype(K::f64)) return f.template operator()<double>(), true;
  if (e == tack::dtype::vector(K::f32, 3)) return f.template operator()<tack::vec3f>(), true;
  if (e == tack::dtype::vector(K::f64, 3)) return f.template operator()<tack::vec3d>(), true;
  return false;
}

/// Elements `[first, last)` of a level buffer as a Python array of `shape`, over the same memory.
template <class T>
py_array rows_as_py(const tack::array<T>& buf, index_t first, index_t last,
                    const std::vector<index_t>& shape) {
  using S = tack::scalar_t<T>;
  py_array a;
  a.elem = tack::dtype_of<T>();
  a.layout = buf.layout();
  a.ndim = static_cast<int>(shape.size());
  for (std::size_t d = 0; d < shape.size(); ++d) a.shape[d] = shape[d];
  if constexpr (tack::is_scalar_v<T>) {
    a.data = buf.rows(first, last);
  } else if (buf.layout() == tack::layout::soa) {
    for (const auto& c : buf.components()) a.comps.push_back(tack::array<S>(c.rows(first, last)));
    a.data = a.comps.front();
  } else {
    constexpr index_t N = tack::components_v<T>;
    a.data = tack::array<S>(buf.as_scalars().rows(first, last).reshape({(last - first) * N}));
  }
  return a;
}

const amr::detail::field_entry& entry(const py_hierarchy& p, const std::string& name) {
  return p.h->field_entry(name);
}

nb::object box_values(const py_hierarchy& p, const std::string& name, int l, std::size_t b) {
  const auto& e = entry(p, name);
  py_array out;
  with_amr_element(e.dtype, [&]<class T>() {
    const auto f = amr::get_field<T>(*p.h, name);
    const auto v = f.box_values(l, b);  // checks the level and the box
    const auto& lay = p.h->layout(l);
    out = rows_as_py<T>(f.level_buffer(l), lay.offsets[b], lay.offsets[b + 1],
                        {v.extent(0), v.extent(1), v.extent(2)});
  });
  return wrap(std::move(out));
}

nb::object level_buffer(const py_hierarchy& p, const std::string& name, int l) {
  const auto& e = entry(p, name);
  py_array out;
  with_amr_element(e.dtype, [&]<class T>() {
    const auto buf = amr::get_field<T>(*p.h, name).level_buffer(l);
    out = rows_as_py<T>(buf, 0, buf.size(), {buf.size()});
  });
  return wrap(std::move(out));
}

void add_field(py_hierarchy& p, const std::string& name, nb::handle dtype, nb::handle layout) {
  const tack::dtype e =
      dtype_from(dtype, tack::dtype(tack::scalar_kind::f64), "tack.amr.Hierarchy.add_field");
  const tack::layout lay = parse_layout(layout, "tack.amr.Hierarchy.add_field");
  const std::lock_guard lock(*p.structure);
  if (!with_amr_element(e, [&]<class T>() { amr::add_field<T>(*p.h, name, lay); })) {
    throw nb::type_error(("tack.amr.Hierarchy.add_field: fields of " + std::string(e.name()) +
                          " are not bound; fields from Python take f32, f64 and vec3 of f32 or f64")
                             .c_str());
  }
}

std::vector<py_box> boxes_of(const py_hierarchy& p, int l) {
  std::vector<py_box> out;
  for (const auto& b : p.h->boxes(l)) out.push_back(from_box(b));
  return out;
}

}  // namespace

void bind_amr(nb::module_& m) {
  nb::module_ a = m.def_submodule("_amr", "AMR level buffers (tack::amr)");

  nb::class_<py_hierarchy>(a, "Hierarchy", "Levels of boxes with one buffer per level and field")
      .def(
          "__init__",
          [](py_hierarchy* self, const py_box& domain,
             const std::vector<std::pair<int, std::vector<py_box>>>& levels, index_t ghost,
             const std::vector<std::string>& boundaries, const std::array<double, 3>& origin,
             const std::array<double, 3>& spacing) {
            std::vector<amr::level> lv;
            for (const auto& [ratio, boxes] : levels) {
              amr::level x{ratio, {}};
              for (const auto& b : boxes) x.boxes.push_back(to_box(b));
              lv.push_back(std::move(x));
            }
            amr::hierarchy_options o;
            o.ghost = ghost;
            o.boundaries = parse_boundaries(boundaries);
            o.origin = tack::vec3d{origin[0], origin[1], origin[2]};
            o.spacing = tack::vec3d{spacing[0], spacing[1], spacing[2]};
            new (self)
                py_hierarchy{std::make_shared<amr::hierarchy>(to_box(domain), std::move(lv), o)};
          },
          "domain"_a, "levels"_a, "ghost"_a = 2,
          "boundaries"_a = std::vector<std::string>{"periodic", "periodic", "periodic"},
          "origin"_a = std::array<double, 3>{0, 0, 0}, "spacing"_a = std::array<double, 3>{1, 1, 1})
      .def_prop_ro("n_levels", [](const py_hierarchy& p) { return p.h->n_levels(); })
      .def_prop_ro("n_boxes", [](const py_hierarchy& p) { return p.h->n_boxes(); })
      .def_prop_ro("ghost", [](const py_hierarchy& p) { return p.h->ghost(); })
      .def_prop_ro("field_names",
                   [](const py_hierarchy& p) {
                     std::vector<std::string> out;
                     for (const auto& e : p.h->fields()) out.push_back(e.name);
                     return out;
                   })
      .def("boxes", &boxes_of, "level"_a,
           "The boxes of a level as ((lo_x, lo_y, lo_z), (hi_x, hi_y, hi_z))")
      .def(
          "ratio", [](const py_hierarchy& p, int l) { return p.h->ratio(l); }, "level"_a)
      .def(
          "domain", [](const py_hierarchy& p, int l) { return from_box(p.h->domain(l)); },
          "level"_a = 0)
      .def(
          "spacing",
          [](const py_hierarchy& p, int l) {
            const auto s = p.h->spacing(l);
            return std::array<double, 3>{s[0], s[1], s[2]};
          },
          "level"_a)
      .def(
          "level_size", [](const py_hierarchy& p, int l) { return p.h->level_size(l); }, "level"_a)
      .def("add_field", &add_field, "name"_a, "dtype"_a = nb::none(), "layout"_a = "aos",
           "Adds a zeroed field (f32, f64, vec3 of either; layout \"aos\" or \"soa\")")
      .def("box_values", &box_values, "name"_a, "level"_a, "box"_a,
           "Box values, ghosts included, shape (nz, ny, nx): a view of the level buffer")
      .def("level_buffer", &level_buffer, "name"_a, "level"_a)
      .def(
          "regrid",
          [](py_hierarchy& p, int l, const std::vector<py_box>& boxes) {
            std::vector<amr::box> bs;
            for (const auto& b : boxes) bs.push_back(to_box(b));
            // With the GIL held, so that no Python call reads the levels meanwhile; the lock
            // waits for a ghost fill or averaging of another thread, which never needs the GIL.
            const std::lock_guard lock(*p.structure);
            p.h->regrid(l, std::move(bs));
          },
          "level"_a, "boxes"_a)
      .def("timings",
           [](const py_hierarchy& p) {
             const auto& t = p.h->timings();
             nb::dict d;
             d["kernel_seconds"] = t.kernel_seconds;
             d["launches"] = t.launches;
             d["copy_seconds"] = t.copy_seconds;
             d["copies"] = t.copies;
             return d;
           })
      .def("__repr__", [](const py_hierarchy& p) { return "tack.amr." + p.h->describe(); });

  a.def(
      "synthetic_hierarchy",
      [](double scale, index_t box_size, index_t ghost, int ratio, int levels,
         const std::vector<std::string>& boundaries) {
        amr::synthetic_options o;
        o.scale = scale;
        o.box_size = box_size;
        o.ghost = ghost;
        o.ratio = ratio;
        o.levels = levels;
        o.boundaries = parse_boundaries(boundaries);
        return py_hierarchy{std::make_shared<amr::hierarchy>(amr::synthetic_hierarchy(o))};
      },
      "scale"_a = 1.0, "box_size"_a = 16, "ghost"_a = 2, "ratio"_a = 2, "levels"_a = 5,
      "boundaries"_a = std::vector<std::string>{"periodic", "periodic", "extrapolate"});
  a.def(
      "fill_ghost_cells",
      [](const py_hierarchy& p, const std::string& name, std::optional<int> level) {
        nb::gil_scoped_release release;
        const std::lock_guard lock(*p.structure);
        if (level) {
          amr::fill_ghost_cells(*p.h, *level, name);
        } else {
          for (int l = 0; l < p.h->n_levels(); ++l) amr::fill_ghost_cells(*p.h, l, name);
        }
      },
      "hierarchy"_a, "name"_a, "level"_a = nb::none());
  a.def(
      "average_down",
      [](const py_hierarchy& p, const std::string& name, std::optional<int> fine_level) {
        nb::gil_scoped_release release;
        const std::lock_guard lock(*p.structure);
        if (fine_level) {
          amr::average_down(*p.h, *fine_level, name);
        } else {
          for (int l = p.h->n_levels() - 1; l >= 1; --l) amr::average_down(*p.h, l, name);
        }
      },
      "hierarchy"_a, "name"_a, "fine_level"_a = nb::none());
  a.def(
      "write_vtk",
      [](const py_hierarchy& p, const std::string& path) { amr::write_vtk(*p.h, path); },
      "hierarchy"_a, "path"_a);
}

}  // namespace tackpy
