// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
/// @file DLPack both ways, per the Python array API standard (`__dlpack__`, `__dlpack_device__`,
/// `tack.from_dlpack`), NumPy's `__array__`, and `export_memory`, over tack's C++ DLPack
/// (`tack::to_dlpack`, `tack::from_dlpack`).

#include "common.hpp"

#include <tack/array/any_array.hpp>
#include <tack/array/shape.hpp>
#include <tack/interop/dlpack.hpp>

#include <nanobind/stl/optional.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/tuple.h>

namespace tackpy {

using namespace nb::literals;

namespace {

constexpr const char* versioned_name = "dltensor_versioned";
constexpr const char* legacy_name = "dltensor";

/// A capsule that nobody consumed still owns its tensor: release it.
void versioned_capsule_destructor(PyObject* cap) {
  if (PyCapsule_IsValid(cap, versioned_name)) {
    auto* t = static_cast<tack::dlpack::DLManagedTensorVersioned*>(
        PyCapsule_GetPointer(cap, versioned_name));
    if (t && t->deleter) t->deleter(t);
  }
}
void legacy_capsule_destructor(PyObject* cap) {
  if (PyCapsule_IsValid(cap, legacy_name)) {
    auto* t = static_cast<tack::dlpack::DLManagedTensor*>(PyCapsule_GetPointer(cap, legacy_name));
    if (t && t->deleter) t->deleter(t);
  }
}

/// A DLPack capsule that owns `t` (its deleter runs if the capsule cannot be made).
template <class M>
nb::object capsule_of(M* t, const char* name, PyCapsule_Destructor destructor) {
  PyObject* cap = PyCapsule_New(t, name, destructor);
  if (!cap) {
    t->deleter(t);
    throw nb::python_error();
  }
  return nb::steal(cap);
}

}  // namespace

// The flat storage is exported with the array's storage shape (tack::to_dlpack's export given
// the shape), so one instantiation per scalar type serves every rank.
nb::object export_capsule(const py_array& a, bool legacy, bool copied) {
  const auto sshape = a.storage_shape();
  return tack::visit_scalar_kind(a.elem.kind(), [&]<class S>() -> nb::object {
    const auto& f = part_as<S>(a.data);
    if (legacy) {
      auto* t = tack::detail::export_dlpack<tack::dlpack::DLManagedTensor>(
          f, "tack::to_dlpack_legacy", sshape);
      return capsule_of(t, legacy_name, legacy_capsule_destructor);
    }
    auto* t = tack::detail::export_dlpack<tack::dlpack::DLManagedTensorVersioned>(
        f, "tack::to_dlpack", sshape);
    if (copied) t->flags |= tack::dlpack::DLPACK_FLAG_BITMASK_IS_COPIED;
    return capsule_of(t, versioned_name, versioned_capsule_destructor);
  });
}

namespace {

[[noreturn]] void refuse_soa_export(const py_array& a, const char* op) {
  raise(export_error_type,
        std::string(op) + ": " + a.describe() +
            " is structure-of-arrays and has no single buffer to export; export its components "
            "(a.components) or an interleaved copy (tack.array(a, layout=\"aos\"))");
}

}  // namespace

std::pair<int, int> dlpack_device(const py_array& a) {
  return std::visit(
      [](const auto& f) {
        auto d = tack::detail::dlpack_device_of(f);
        return std::pair<int, int>(static_cast<int>(d.device_type), d.device_id);
      },
      a.first_part());
}

nb::object dunder_dlpack(const py_array& a, nb::handle stream, nb::handle max_version,
                         nb::handle dl_device, nb::handle copy) {
  const char* op = "tack.Array.__dlpack__";
  if (a.is_soa()) refuse_soa_export(a, op);
  const bool want_copy = !copy.is_none() && nb::cast<bool>(copy);
  const bool no_copy = !copy.is_none() && !nb::cast<bool>(copy);
  bool legacy = true;
  if (!max_version.is_none()) legacy = nb::cast<int>(max_version[0]) < 1;
  if (!stream.is_none() && !nb::isinstance<nb::int_>(stream)) {
    throw nb::type_error((std::string(op) + ": stream must be None or an int, got " +
                          nb::cast<std::string>(nb::repr(stream)))
                             .c_str());
  }
  const std::optional<std::intptr_t> consumer_stream =
      stream.is_none() ? std::nullopt
                       : std::optional<std::intptr_t>(nb::cast<std::intptr_t>(stream));
  if (consumer_stream && a.device().is_cpu() && *consumer_stream != -1) {
    throw nb::value_error((std::string(op) + ": stream must be None for CPU memory, got " +
                           nb::cast<std::string>(nb::repr(stream)))
                              .c_str());
  }
  py_array src = a;
  bool copied = false;
  if (!dl_device.is_none()) {
    auto want = nb::cast<std::pair<int, int>>(dl_device);
    if (want != dlpack_device(a)) {
      if (no_copy) {
        raise(export_error_type, std::string(op) + ": " + a.describe() +
                                     " is not on the requested device and copy=False");
      }
      if (want.first != 1) {
        raise(export_error_type, std::string(op) + ": cannot export " + a.describe() +
                                     " to DLPack device type " + std::to_string(want.first));
      }
      src = copy_array(a, a.elem, a.layout, tack::cpu());
      copied = true;
    }
  }
  if (want_copy && !copied) {
    src = copy_array(a, a.elem, a.layout, a.device());
    copied = true;
  }
  // CUDA memory: the consumer's stream waits for tack's work on the device (tack::to_dlpack's
  // stream protocol: None is the legacy default stream, -1 no synchronization).
  if (!src.device().is_cpu()) {
    const auto dev = std::visit([](const auto& f) { return tack::detail::dlpack_device_of(f); },
                                src.first_part());
    tack::detail::dlpack_hand_over(dev, consumer_stream, op);
  }
  return export_capsule(src, legacy, copied);
}

namespace {

/// A flat rank-1 handle over an imported `any_array` (the import's rank kept in `shape`).
py_array from_any(const tack::any_array& any) {
  py_array out;
  out.elem = any.dtype();
  const auto shape = any.shape();
  out.ndim = static_cast<int>(shape.size());
  for (int d = 0; d < out.ndim; ++d)
    out.shape[static_cast<std::size_t>(d)] = shape[static_cast<std::size_t>(d)];
  const index_t n = out.size();
  out.data = tack::visit_scalar_kind(out.elem.kind(), [&]<class S>() -> flat {
    flat f;
    [&]<int... Rm1>(std::integer_sequence<int, Rm1...>) {
      ((any.rank() == Rm1 + 1 ? (f = any.as<S, Rm1 + 1>().reshape(tack::shape<1>{n}), 0) : 0), ...);
    }
    (std::make_integer_sequence<int, tack::max_rank>{});
    return f;
  });
  return out;
}

}  // namespace

py_array from_dlpack(nb::handle obj, nb::handle device, nb::handle copy, bool writable) {
  const char* op = "tack.from_dlpack";
  nb::object cap;
  if (PyCapsule_CheckExact(obj.ptr())) {
    cap = nb::borrow(obj);
  } else if (nb::hasattr(obj, "__dlpack__")) {
    try {
      cap = obj.attr("__dlpack__")("max_version"_a = nb::make_tuple(1, 0));
    } catch (nb::python_error& e) {
      if (!e.matches(PyExc_TypeError)) throw;
      cap = obj.attr("__dlpack__")();
    }
  } else {
    throw nb::type_error((std::string(op) + ": " + nb::cast<std::string>(nb::repr(obj.type())) +
                          " has no __dlpack__ method and is not a DLPack capsule")
                             .c_str());
  }
  py_array out;
  if (PyCapsule_IsValid(cap.ptr(), versioned_name)) {
    auto* t = static_cast<tack::dlpack::DLManagedTensorVersioned*>(
        PyCapsule_GetPointer(cap.ptr(), versioned_name));
    if (PyCapsule_SetName(cap.ptr(), "used_dltensor_versioned") != 0) throw nb::python_error();
    out = from_any(tack::from_dlpack(t));
  } else if (PyCapsule_IsValid(cap.ptr(), legacy_name)) {
    auto* t =
        static_cast<tack::dlpack::DLManagedTensor*>(PyCapsule_GetPointer(cap.ptr(), legacy_name));
    if (PyCapsule_SetName(cap.ptr(), "used_dltensor") != 0) throw nb::python_error();
    out = from_any(tack::from_dlpack(
        t, writable ? tack::legacy_access::writable : tack::legacy_access::read_only));
  } else {
    throw nb::type_error((std::string(op) +
                          ": the capsule is neither an unused \"dltensor_versioned\" "
                          "nor an unused \"dltensor\" (a capsule can be consumed once)")
                             .c_str());
  }
  const bool want_copy = !copy.is_none() && nb::cast<bool>(copy);
  tack::device d = device.is_none() ? out.device() : parse_device(device, op);
  if (want_copy || d != out.device()) {
    if (!copy.is_none() && !nb::cast<bool>(copy)) {
      throw nb::value_error((std::string(op) + ": the tensor is on " + out.device().str() +
                             ", not " + d.str() + ", and copy=False")
                                .c_str());
    }
    return copy_array(out, out.elem, out.layout, d);
  }
  return out;
}

nb::object dunder_array(nb::handle self, nb::handle dtype, nb::handle copy) {
  const py_array& a = nb::cast<const py_array&>(self);
  nb::module_ np = nb::module_::import_("numpy");
  const bool no_copy = !copy.is_none() && !nb::cast<bool>(copy);
  const bool want_copy = !copy.is_none() && nb::cast<bool>(copy);
  nb::object out;
  if (a.is_soa() || !a.device().is_cpu() || want_copy) {
    if (no_copy) {
      throw nb::value_error(("tack.Array.__array__: " + a.describe() +
                             " cannot be seen by NumPy without a copy (copy=False)")
                                .c_str());
    }
    out = to_numpy(a);
  } else {
    out = np.attr("from_dlpack")(self);
  }
  if (!dtype.is_none()) {
    nb::object want = np.attr("dtype")(dtype);
    if (!want.equal(out.attr("dtype"))) {
      if (no_copy) {
        throw nb::value_error("tack.Array.__array__: a dtype conversion needs a copy (copy=False)");
      }
      out = out.attr("astype")(want);
    }
  }
  return out;
}

exported export_memory_of(const py_array& a) {
  const char* op = "tack.Array.export_memory";
  if (a.is_soa()) refuse_soa_export(a, op);
  if (std::visit([](const auto& f) { return f.is_view(); }, a.data)) {
    raise(export_error_type, std::string(op) + ": " + a.describe() +
                                 " has no allocation of its own; export the root, or a copy");
  }
  return std::visit(
      [](const auto& f) {
        auto e = f.export_memory();
        return exported{reinterpret_cast<std::uintptr_t>(e.data), e.nbytes, e.device.str(),
                        e.keep_alive};
      },
      a.data);
}

void bind_dlpack(nb::module_& m) {
  nb::class_<exported>(m, "ExportedMemory",
                       "A root's allocation handed out: `ptr`, `nbytes`, `device`; the memory "
                       "stays alive as long as this object.")
      .def_ro("ptr", &exported::ptr)
      .def_ro("nbytes", &exported::nbytes)
      .def_ro("device", &exported::device);

  m.def("from_dlpack", &from_dlpack, "x"_a, nb::kw_only(), "device"_a = nb::none(),
        "copy"_a = nb::none(), "writable"_a = false,
        nb::sig("def from_dlpack(x: typing.Any, *, device: str | None = None, copy: bool | None = "
                "None, writable: bool = False) -> Array"),
        "An array sharing the memory of any DLPack producer (NumPy, PyTorch, Warp, tack), keeping "
        "it alive; read-only tensors import read-only. A legacy (unversioned) capsule cannot say "
        "whether its memory may be written, so it imports read-only unless `writable=True` (the "
        "caller knows the producer allows writes) or `copy=True`. Vector types are never guessed: "
        "the array has the tensor's scalar type and shape.");
}

}  // namespace tackpy
