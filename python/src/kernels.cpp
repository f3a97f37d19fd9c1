// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
/// @file Launches of kernels compiled from Python (`tack.launch`): a variant, loaded from its
/// shared library, is a `tack_pk_run` function; this file fills its argument slots from the
/// Python arguments, refuses writes into read-only arrays, and runs it over blocks of the first
/// launch dimension on tack's threads, without the GIL.
///
/// The variant table lives here too: `tack.launch` asks `_kernels.lookup(table, signature)` and
/// only walks the kernel's Python source when that misses.

#include "common.hpp"

#include <tack/core/error.hpp>
#include <tack/exec/parallel_for.hpp>
#include <tack/exec/threads.hpp>

#include <tack/detail/gpu_runtime.hpp>
#include <tack/pykernel/abi.hpp>

#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <mutex>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace tackpy {
namespace {

using namespace nb::literals;

/// Debug mode (tack.set_debug): index checks on, and GPU launches wait to report failed checks.
bool debug_mode = false;

enum slot_kind : int { slot_array = 0, slot_int = 1, slot_float = 2, slot_bool = 3 };

/// One compiled variant as the launch path needs it.
struct variant {
  /// The CPU entry point, over a block of the first dimension (a variant that runs on the CPU).
  tack_pk_run_fn run = nullptr;
  /// The GPU entry point, over every index (a variant compiled by nvcc for a CUDA device).
  tack_pk_run_cuda_fn run_cuda = nullptr;
  /// Where the kernel runs; every array argument lives there.
  tack::device device = tack::cpu();
  /// Per slot: whether the kernel stores into it (read-only arrays there are refused).
  std::vector<bool> written;
  /// Per slot: how messages name it ("parameter 'a'").
  std::vector<std::string> names;
  /// "kernel 'blend' (file.py:12)".
  std::string label;
  int ndims = 1;
};

/// The slots of one launch, filled from Python values.
struct launch_slots {
  std::vector<tack_pk_slot> slots;
  std::vector<py_array*> arrays;  // borrowed from the Python objects, alive for the call
};

const void* pointer_of(const flat& f, bool write) {
  return std::visit(
      [write](const auto& h) -> const void* {
        if (h.size() == 0) return nullptr;
        if (write) return static_cast<const void*>(h.data());
        return static_cast<const void*>(h.as_const().data());
      },
      f);
}

[[noreturn]] void refuse_read_only(const variant& v, std::size_t s, int component) {
  std::string what = v.names[s];
  if (component >= 0) {
    what = "component " + std::to_string(component) + " of " + what;
  }
  raise(read_only_error_type, "tack.launch: " + v.label + " stores into " + what +
                                  ", which is read-only (copy it with tack.array(a), or pass a "
                                  "writable array)");
}

void fill_array(tack_pk_slot& slot, const py_array& a, const variant& v, std::size_t s) {
  const bool write = v.written[s];
  if (a.device() != v.device) {
    raise(device_error_type, "tack.launch: " + v.label + " runs on " + v.device.str() + ", and " +
                                 v.names[s] + " is " + a.describe() +
                                 " (copy it with a.to_device('" + v.device.str() + "'))");
  }
  if (a.is_soa()) {
    for (std::size_t c = 0; c < a.comps.size(); ++c) {
      const bool ro = std::visit([](const auto& h) { return h.read_only(); }, a.comps[c]);
      if (write && ro) refuse_read_only(v, s, static_cast<int>(c));
      slot.data[c] = const_cast<void*>(pointer_of(a.comps[c], write));
    }
  } else {
    if (write && a.read_only()) refuse_read_only(v, s, -1);
    slot.data[0] = const_cast<void*>(pointer_of(a.data, write));
  }
  slot.ndim = a.ndim;
  for (int d = 0; d < a.ndim; ++d) slot.shape[d] = a.shape[static_cast<std::size_t>(d)];
}

void fill_slots(launch_slots& out, const variant& v, nb::handle values, nb::handle kinds) {
  const std::size_t n = nb::len(values);
  if (n != v.written.size()) {
    throw nb::value_error("tack.launch: the argument slots do not match the compiled variant");
  }
  out.slots.assign(n, tack_pk_slot{});
  for (std::size_t s = 0; s < n; ++s) {
    nb::handle value = values[s];
    const int kind = nb::cast<int>(kinds[s]);
    tack_pk_slot& slot = out.slots[s];
    switch (kind) {
      case slot_array:
        fill_array(slot, nb::cast<const py_array&>(value), v, s);
        break;
      case slot_int: {
        // Python ints up to 2^64 - 1 (u64 values); below 2^63 as signed.
        int overflow = 0;
        const long long x = PyLong_AsLongLongAndOverflow(value.ptr(), &overflow);
        if (overflow > 0) {
          slot.value.u = nb::cast<std::uint64_t>(value);
        } else {
          slot.value.i = x;
        }
        break;
      }
      case slot_float:
        slot.value.f = nb::cast<double>(value);
        break;
      default:
        slot.value.i = nb::cast<bool>(value) ? 1 : 0;
        break;
    }
  }
}

/// Throws the Python exception of a kernel's failure: IndexError, RuntimeError, tack.DeviceError.
[[noreturn]] void report(const char* op, const std::string& label, tack_pk_error& error) {
  error.message[sizeof error.message - 1] = 0;
  const std::string msg = std::string(op) + ": " + label + ": " + error.message;
  if (error.kind == 1) throw nb::index_error(msg.c_str());
  if (error.kind == 3) throw tack::device_error(msg);
  throw std::runtime_error(msg);
}

/// Runs `v` over `dims` on its GPU, on the thread's current stream of that device.
void run_on_cuda(const variant& v, const std::vector<std::int64_t>& dims, const launch_slots& ls) {
  const int id = v.device.id();
  void* stream = reinterpret_cast<void*>(tack::detail::current_gpu_stream(id));
  tack_pk_error error{};
  if (v.run_cuda(ls.slots.data(), dims.data(), id, stream, debug_mode ? 1 : 0, &error) != 0) {
    report("tack.launch", v.label, error);
  }
}

/// Runs `v` over `dims`: on the CPU, blocks of the first dimension in parallel, the first failure
/// reported; on a GPU, one launch over every index.
void run(const variant& v, const std::vector<std::int64_t>& dims, const launch_slots& ls) {
  if (v.run_cuda != nullptr) return run_on_cuda(v, dims, ls);
  const std::int64_t n0 = dims.empty() ? 0 : dims[0];
  std::int64_t inner = 1;
  for (std::size_t d = 1; d < dims.size(); ++d) inner *= dims[d];
  if (n0 <= 0 || inner <= 0) return;
  tack_pk_error error{};
  int failed = 0;
  const int threads = tack::num_threads();
  // Blocks of at least 4096 elements each, at most 4 per thread: small launches run inline.
  const std::int64_t total = n0 * inner;
  std::int64_t nblocks =
      std::min<std::int64_t>(std::max<std::int64_t>(total / 4096, 1), std::int64_t(threads) * 4);
  nblocks = std::min(nblocks, n0);
  const tack_pk_slot* slots = ls.slots.data();
  const std::int64_t* d = dims.data();
  if (nblocks <= 1) {
    failed = v.run(slots, d, 0, n0, &error);
  } else {
    std::atomic<int> any{0};
    std::mutex first;
    tack::parallel_for(tack::cpu(), nblocks, [&](tack::index_t b) {
      if (any.load(std::memory_order_relaxed)) return;
      const std::int64_t lo = n0 * b / nblocks, hi = n0 * (b + 1) / nblocks;
      tack_pk_error e{};
      if (v.run(slots, d, lo, hi, &e) != 0) {
        std::lock_guard<std::mutex> lock(first);
        if (!any.exchange(1)) error = e;
      }
    });
    failed = any.load();
  }
  if (failed) report("tack.launch", v.label, error);
}

/// The variants of one kernel whose arguments are all arrays and numbers, by signature: the
/// launch path of a cached variant, which never returns to Python.
struct kernel_table {
  std::unordered_map<std::string, std::pair<nb::object, const variant*>> variants;
  std::uint64_t hits = 0;
};

/// The signature of a launch whose arguments are all arrays and numbers (false otherwise):
/// launch dimensions, debug mode, and per argument its dtype, rank and layout, or its kind of
/// number. Lengths and values are not part of it.
bool simple_signature(int ndims, nb::handle args, std::string& key) {
  key.clear();
  key.push_back(static_cast<char>(ndims));
  key.push_back(debug_mode ? 'd' : 'n');
  const std::size_t n = nb::len(args);
  for (std::size_t i = 0; i < n; ++i) {
    PyObject* a = PyTuple_GET_ITEM(args.ptr(), static_cast<Py_ssize_t>(i));
    if (PyFloat_CheckExact(a)) {
      key.push_back('f');
    } else if (PyBool_Check(a)) {
      key.push_back('b');
    } else if (PyLong_CheckExact(a)) {
      key.push_back('i');
    } else {
      py_array* p = nullptr;
      if (!nb::try_cast<py_array*>(nb::handle(a), p) || p == nullptr) return false;
      key.push_back('A');
      key.push_back(static_cast<char>(p->elem.kind()));
      key.push_back(static_cast<char>(p->elem.rows()));
      key.push_back(static_cast<char>(p->elem.cols()));
      key.push_back(static_cast<char>(p->ndim));
      key.push_back(p->is_soa() ? 's' : 'a');
      const tack::device dev = p->device();
      // A HIP array never matches a variant: kernels written in Python run on the CPU and CUDA.
      key.push_back(dev.is_cuda() ? 'c' : dev.is_hip() ? 'g' : 'h');
      key.push_back(static_cast<char>(dev.id()));
    }
  }
  return true;
}

bool parse_dims(nb::handle dims, std::vector<std::int64_t>& d) {
  d.clear();
  if (PyLong_CheckExact(dims.ptr())) {
    d.push_back(PyLong_AsLongLong(dims.ptr()));
  } else if (PyTuple_Check(dims.ptr())) {
    for (nb::handle x : dims) {
      if (!PyLong_CheckExact(x.ptr())) return false;
      d.push_back(PyLong_AsLongLong(x.ptr()));
    }
  } else {
    return false;
  }
  if (PyErr_Occurred()) {
    PyErr_Clear();
    return false;
  }
  // Anything unusual (no dimension, more than 3, a negative extent) takes the checked path.
  if (d.empty() || d.size() > 3) return false;
  for (auto x : d) {
    if (x < 0) return false;
  }
  return true;
}

/// Fills the slots of simple arguments (one slot each, in order) and runs `v`.
void launch_simple(const variant& v, const std::vector<std::int64_t>& d, nb::handle args) {
  launch_slots ls;
  const std::size_t n = nb::len(args);
  ls.slots.assign(n, tack_pk_slot{});
  for (std::size_t s = 0; s < n; ++s) {
    PyObject* a = PyTuple_GET_ITEM(args.ptr(), static_cast<Py_ssize_t>(s));
    tack_pk_slot& slot = ls.slots[s];
    if (PyFloat_CheckExact(a)) {
      slot.value.f = PyFloat_AS_DOUBLE(a);
    } else if (PyBool_Check(a)) {
      slot.value.i = a == Py_True ? 1 : 0;
    } else if (PyLong_CheckExact(a)) {
      int overflow = 0;
      const long long x = PyLong_AsLongLongAndOverflow(a, &overflow);
      if (overflow > 0) {
        slot.value.u = nb::cast<std::uint64_t>(nb::handle(a));
      } else if (overflow < 0) {
        throw nb::value_error(("tack.launch: " + v.names[s] + " does not fit in 64 bits").c_str());
      } else {
        slot.value.i = x;
      }
    } else {
      fill_array(slot, nb::cast<const py_array&>(nb::handle(a)), v, s);
    }
  }
  nb::gil_scoped_release release;
  run(v, d, ls);
}

/// Adds `v[lo..hi)` pairwise (the order of a balanced tree over the blocks).
template <class Acc>
Acc pairwise(const Acc* v, std::size_t lo, std::size_t hi) {
  if (hi - lo == 1) return v[lo];
  const std::size_t mid = lo + (hi - lo) / 2;
  const Acc a = pairwise(v, lo, mid), b = pairwise(v, mid, hi);
  if constexpr (std::is_integral_v<Acc>) {  // wraps, as NumPy's integer sums
    return static_cast<Acc>(static_cast<std::uint64_t>(a) + static_cast<std::uint64_t>(b));
  } else {
    return a + b;
  }
}

/// The sum of an implicit array of `n` elements by `fn` over fixed blocks (in parallel), the
/// blocks' sums added pairwise in block order: the same result for every thread count.
template <class Acc>
Acc sum_blocks(tack_pk_sum_fn fn, const tack_pk_slot* slots, std::int64_t n,
               const std::string& label) {
  constexpr std::int64_t block = std::int64_t(1) << 15;
  if (n <= 0) return Acc(0);
  const std::int64_t nblocks = (n + block - 1) / block;
  std::vector<Acc> partial(static_cast<std::size_t>(nblocks));
  tack_pk_error error{};
  std::atomic<int> any{0};
  std::mutex first;
  auto one = [&](tack::index_t b) {
    if (any.load(std::memory_order_relaxed)) return;
    tack_pk_error e{};
    const std::int64_t lo = b * block, hi = std::min(n, lo + block);
    if (fn(slots, lo, hi, &partial[static_cast<std::size_t>(b)], &e) != 0) {
      std::lock_guard<std::mutex> lock(first);
      if (!any.exchange(1)) error = e;
    }
  };
  if (nblocks == 1) {
    one(0);
  } else {
    tack::parallel_for(tack::cpu(), nblocks, one);
  }
  if (any.load()) report("tack.sum", label, error);
  return pairwise(partial.data(), 0, partial.size());
}

}  // namespace

void bind_kernels(nb::module_& m) {
  nb::module_ k = m.def_submodule("_kernels", "Launching kernels compiled from Python.");
  nb::class_<variant>(k, "Variant")
      .def(
          "__init__",
          [](variant* self, std::uintptr_t run, std::vector<bool> written,
             std::vector<std::string> names, std::string label, int ndims, nb::handle device,
             std::uintptr_t run_cuda) {
            const tack::device d = parse_device(device, "tack.launch");
            if (d.is_hip()) {
              throw tack::device_error(
                  "tack.launch: kernels written in Python run on the CPU and "
                  "on CUDA GPUs, not on " +
                  d.str() + " (HIP)");
            }
            if (d.is_cuda() == (run_cuda == 0)) {
              throw nb::value_error("tack.launch: a variant for a GPU has a CUDA entry point");
            }
            new (self) variant{reinterpret_cast<tack_pk_run_fn>(run),
                               reinterpret_cast<tack_pk_run_cuda_fn>(run_cuda),
                               d,
                               std::move(written),
                               std::move(names),
                               std::move(label),
                               ndims};
          },
          "run"_a, "written"_a, "names"_a, "label"_a, "ndims"_a, "device"_a = "cpu",
          "run_cuda"_a = 0)
      .def_prop_ro("label", [](const variant& v) { return v.label; });

  nb::class_<kernel_table>(k, "Table")
      .def(nb::init<>())
      .def_ro("hits", &kernel_table::hits)
      .def("clear", [](kernel_table& t) { t.variants.clear(); })
      .def(
          "add",
          [](kernel_table& t, nb::handle dims, nb::tuple args, nb::object v) {
            std::vector<std::int64_t> d;
            std::string key;
            if (!parse_dims(dims, d) || !simple_signature(static_cast<int>(d.size()), args, key)) {
              return false;
            }
            const variant* p = &nb::cast<const variant&>(v);
            t.variants[key] = {std::move(v), p};
            return true;
          },
          "dims"_a, "args"_a, "variant"_a);

  k.def("set_debug", [](bool on) { debug_mode = on; });
  // The device a launch names ("cpu", "cuda:0"; None: the default device), as a string;
  // tack.DeviceError where it is not available in this process.
  k.def(
      "device", [](nb::handle d) { return parse_device(d, "tack.launch").str(); },
      "device"_a.none());

  // tack.sum of an implicit array computed by a @tack.func: one pass, no stored temporary.
  // acc: 0 float, 1 double, 2 int64, 3 uint64 (the accumulator tack.sum uses for the scalar kind).
  k.def(
      "sum",
      [](const variant& v, std::uintptr_t fn, nb::handle values, nb::handle kinds, std::int64_t n,
         int acc) -> nb::object {
        launch_slots ls;
        fill_slots(ls, v, values, kinds);
        const auto f = reinterpret_cast<tack_pk_sum_fn>(fn);
        const tack_pk_slot* s = ls.slots.data();
        switch (acc) {
          case 0: {
            float r;
            {
              nb::gil_scoped_release release;
              r = sum_blocks<float>(f, s, n, v.label);
            }
            return nb::cast(r);
          }
          case 1: {
            double r;
            {
              nb::gil_scoped_release release;
              r = sum_blocks<double>(f, s, n, v.label);
            }
            return nb::cast(r);
          }
          case 2: {
            std::int64_t r;
            {
              nb::gil_scoped_release release;
              r = sum_blocks<std::int64_t>(f, s, n, v.label);
            }
            return nb::cast(r);
          }
          default: {
            std::uint64_t r;
            {
              nb::gil_scoped_release release;
              r = sum_blocks<std::uint64_t>(f, s, n, v.label);
            }
            return nb::cast(r);
          }
        }
      },
      "variant"_a, "fn"_a, "values"_a, "kinds"_a, "n"_a, "acc"_a);

  // The launch of a cached variant: false when the arguments are not all arrays and numbers, or
  // no variant has their signature yet (Python then walks, compiles and adds it).
  k.def(
      "try_launch",
      [](kernel_table& t, nb::handle dims, nb::tuple args) {
        thread_local std::vector<std::int64_t> d;
        thread_local std::string key;
        if (!parse_dims(dims, d) || !simple_signature(static_cast<int>(d.size()), args, key)) {
          return false;
        }
        const auto it = t.variants.find(key);
        if (it == t.variants.end()) return false;
        const variant& v = *it->second.second;
        const nb::object keep = it->second.first;  // alive while the kernel runs without the GIL
        ++t.hits;
        const std::vector<std::int64_t> dims_copy = d;
        launch_simple(v, dims_copy, args);
        return true;
      },
      "table"_a, "dims"_a, "args"_a);

  k.def(
      "launch",
      [](const variant& v, nb::handle dims, nb::handle values, nb::handle kinds) {
        std::vector<std::int64_t> d;
        if (PyLong_Check(dims.ptr())) {
          d.push_back(nb::cast<std::int64_t>(dims));
        } else {
          for (nb::handle x : dims) d.push_back(nb::cast<std::int64_t>(x));
        }
        if (static_cast<int>(d.size()) != v.ndims) {
          throw nb::value_error(("tack.launch: " + v.label + " was compiled for " +
                                 std::to_string(v.ndims) + " launch dimension(s)")
                                    .c_str());
        }
        launch_slots ls;
        fill_slots(ls, v, values, kinds);
        nb::gil_scoped_release release;
        run(v, d, ls);
      },
      "variant"_a, "dims"_a, "values"_a, "kinds"_a);
}

}  // namespace tackpy
