// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
/// @file The module `tack._core`: exception types and translation, and the registration of every
/// binding file.

#include "common.hpp"

#include <tack/core/error.hpp>

namespace tackpy {

nb::object read_only_error_type;
nb::object device_error_type;
nb::object export_error_type;

void raise(nb::handle type, const std::string& message) {
  PyErr_SetString(type.ptr(), message.c_str());
  throw nb::python_error();
}

void bind_kernels(nb::module_& m);  // kernels.cpp: launches of kernels compiled from Python
void bind_mpi(nb::module_& m);      // mpi.cpp: tack::mpi's partition and fixed-tree sums

}  // namespace tackpy

NB_MODULE(_core, m) {
  using namespace tackpy;
  m.doc() = "tack's C++ core: typed arrays, row views, DLPack, implicit arrays and algorithms";
  // The interned dtype objects and the exception types live as long as the process.
  nb::set_leak_warnings(false);

  // tack.ReadOnlyError is a ValueError and tack.DeviceError a RuntimeError, so code that catches
  // Python's built-in errors catches tack's; an export that cannot be made is both a BufferError
  // (what the array API asks of __dlpack__) and a ValueError (what tack's value_error maps to).
  read_only_error_type = nb::steal(
      PyErr_NewExceptionWithDoc("tack.ReadOnlyError", "A write to read-only memory (a ValueError).",
                                PyExc_ValueError, nullptr));
  device_error_type = nb::steal(PyErr_NewExceptionWithDoc(
      "tack.DeviceError", "A device that is missing or failed (a RuntimeError).",
      PyExc_RuntimeError, nullptr));
  {
    nb::object bases = nb::make_tuple(nb::handle(PyExc_BufferError), nb::handle(PyExc_ValueError));
    export_error_type = nb::steal(PyErr_NewExceptionWithDoc(
        "tack.ExportError",
        "An export (DLPack, buffer) that cannot be made (BufferError and ValueError).", bases.ptr(),
        nullptr));
  }
  m.attr("ReadOnlyError") = read_only_error_type;
  m.attr("DeviceError") = device_error_type;
  m.attr("ExportError") = export_error_type;

  nb::register_exception_translator([](const std::exception_ptr& p, void*) {
    try {
      std::rethrow_exception(p);
    } catch (const tack::read_only_error& e) {
      PyErr_SetString(read_only_error_type.ptr(), e.what());
    } catch (const tack::device_error& e) {
      PyErr_SetString(device_error_type.ptr(), e.what());
    } catch (const tack::out_of_memory& e) {
      PyErr_SetString(PyExc_MemoryError, e.what());
    } catch (const tack::index_error& e) {
      PyErr_SetString(PyExc_IndexError, e.what());
    } catch (const tack::type_error& e) {
      PyErr_SetString(PyExc_TypeError, e.what());
    } catch (const tack::value_error& e) {
      PyErr_SetString(PyExc_ValueError, e.what());
    } catch (const tack::error& e) {
      PyErr_SetString(PyExc_RuntimeError, e.what());
    }
  });

  bind_dtypes(m);
  bind_array(m);
  bind_factories(m);
  bind_dlpack(m);
  bind_lazy(m);
  bind_arrays(m);
  bind_algorithms(m);
  bind_dataset(m);
  bind_amr(m);
  bind_stream(m);
  bind_kernels(m);
  bind_mpi(m);
}
