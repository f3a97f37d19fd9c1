// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
/// @file `tack.Stream` and `tack.current_stream`: `tack::stream` and `tack::stream_scope` from
/// Python. `with s:` makes `s` the current stream of its device on this thread, so every tack
/// call inside the block (copies, fills, reductions) goes to it, as in CuPy's `with stream:`.
/// `__cuda_stream__` is the CUDA stream protocol, so CuPy, Numba or PyTorch can take the stream.

#include "common.hpp"

#include <tack/exec/stream.hpp>

#include <nanobind/stl/unique_ptr.h>

#include <cstdio>
#include <thread>
#include <unordered_map>

namespace tackpy {
namespace {

/// The Python stream: the C++ handle and the scopes its `with` blocks opened, per thread
/// (innermost last): a scope sets the current stream of the thread that opened it, so a thread's
/// `__exit__` closes that thread's scope, even while another thread is inside `with s:` too. The
/// map is only touched with the GIL held.
struct py_stream {
  explicit py_stream(tack::stream s) : stream(std::move(s)) {}
  py_stream(const py_stream&) = delete;
  py_stream& operator=(const py_stream&) = delete;
  py_stream(py_stream&&) = default;
  py_stream& operator=(py_stream&&) = default;

  tack::stream stream;
  std::unordered_map<std::thread::id, std::vector<std::unique_ptr<tack::stream_scope>>> scopes;
};

std::string repr(const tack::stream& s) { return "tack.Stream(" + s.str() + ")"; }

}  // namespace

void bind_stream(nb::module_& m) {
  nb::class_<py_stream>(m, "Stream",
                        "An in-order queue of work on one device (tack::stream). On a CUDA "
                        "device, work queued on it returns at once and synchronize() waits for "
                        "it; on the CPU it runs when submitted. `with s:` makes it the current "
                        "stream of its device on this thread.")
      .def(
          "__init__",
          [](py_stream* self, nb::handle device) {
            new (self) py_stream(tack::stream(parse_device(device, "tack.Stream")));
          },
          nb::arg("device") = nb::none(),
          nb::sig("def __init__(self, device: str | None = None) -> None"),
          "A new stream on `device` (the default device if None).")
      .def_static(
          "borrow",
          [](nb::handle device, std::intptr_t native) {
            return py_stream(
                tack::stream::borrow(parse_device(device, "tack.Stream.borrow"), native));
          },
          nb::arg("device"), nb::arg("native"),
          nb::sig("def borrow(device: str, native: int) -> Stream"),
          "Wraps an application's cudaStream_t (an int) without owning it; 0 is the legacy default "
          "stream.")
      .def_prop_ro("device", [](const py_stream& s) { return s.stream.device().str(); })
      .def_prop_ro(
          "native", [](const py_stream& s) { return s.stream.native(); },
          "The cudaStream_t as an int (0 on the CPU).")
      .def_prop_ro(
          "idle", [](const py_stream& s) { return s.stream.idle(); },
          "Whether all work queued so far has completed.")
      .def(
          "synchronize",
          [](const py_stream& s) {
            nb::gil_scoped_release unlocked;
            s.stream.synchronize();
          },
          "Waits for all work queued on the stream.")
      .def("__eq__",
           [](const py_stream& a, nb::handle b) {
             return nb::isinstance<py_stream>(b) &&
                    a.stream == nb::cast<const py_stream&>(b).stream;
           })
      .def("__hash__",
           [](const py_stream& s) {
             return nb::hash(nb::make_tuple(s.stream.device().str(), s.stream.native()));
           })
      .def("__repr__", [](const py_stream& s) { return repr(s.stream); })
      .def(
          "__enter__",
          [](py_stream& s) -> py_stream& {
            s.scopes[std::this_thread::get_id()].push_back(
                std::make_unique<tack::stream_scope>(s.stream));
            return s;
          },
          nb::rv_policy::reference)
      .def(
          "__exit__",
          [](py_stream& s, nb::handle, nb::handle, nb::handle) {
            const auto mine = s.scopes.find(std::this_thread::get_id());
            if (mine != s.scopes.end()) {
              mine->second.pop_back();
              if (mine->second.empty()) s.scopes.erase(mine);
            }
            return false;
          },
          nb::arg("exc_type").none(), nb::arg("exc").none(), nb::arg("traceback").none(),
          nb::sig("def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | "
                  "None, traceback: types.TracebackType | None) -> bool"))
      .def("__cuda_stream__", [](const py_stream& s) {
        if (!s.stream.device().is_cuda()) {
          throw nb::type_error(
              ("tack.Stream.__cuda_stream__: " + repr(s.stream) + " is not a CUDA stream").c_str());
        }
        return nb::make_tuple(0, s.stream.native());
      });

  m.def(
      "current_stream",
      [](nb::handle device) {
        return py_stream(tack::current_stream(parse_device(device, "tack.current_stream")));
      },
      nb::arg("device") = nb::none(),
      nb::sig("def current_stream(device: str | None = None) -> Stream"),
      "The stream tack's work on `device` goes to on this thread (the innermost `with`).");
}

}  // namespace tackpy
