# SPDX-License-Identifier: BSD-3-Clause
"""``@tack.kernel``, ``@tack.func``, ``@tack.device_class`` and ``tack.launch``.

A launch walks its arguments into argument slots and a signature (types, layouts, classes; never
lengths or values), looks the signature up among the kernel's compiled variants, and on a miss
lowers the kernel for those types, compiles it (or loads it from the disk cache) and keeps it.
"""

import os
import threading
import weakref

from .. import _core
from . import args as A
from . import build, lower
from . import ktypes as K

_stats = {"compiles": 0, "disk_loads": 0, "memory_hits": 0}
_debug = [os.environ.get("TACK_DEBUG", "") not in ("", "0")]
_kernels = weakref.WeakSet()  # every Kernel, for clear_memory()
_try_launch = _core._kernels.try_launch
_core._kernels.set_debug(_debug[0])


def set_debug(enabled=True):
    """Debug mode: kernels check every array index against the array's own rows (an IndexError
    names the parameter, the index and the rows). Also set by ``TACK_DEBUG=1``. Variants of each
    mode are kept apart."""
    _debug[0] = bool(enabled)
    _core._kernels.set_debug(_debug[0])


def debug():
    """Whether debug mode is on."""
    return _debug[0]


def stats():
    """Counters of this process: variants compiled, loaded from the disk cache, and launches that
    found their variant in memory."""
    out = dict(_stats)
    out["memory_hits"] += sum(k._table.hits for k in _kernels)
    return out


def clear_memory():
    """Forgets every variant held in memory (the next launch loads it from the disk cache)."""
    for k in _kernels:
        k._variants.clear()
        k._table.clear()


def cache_dir():
    """The kernel cache directory in use (``TACK_KERNEL_CACHE``, default
    ``~/.cache/tack/kernels``)."""
    return build.cache_dir(create=False)


def include_dir():
    """The directory of tack's headers that generated kernels compile against."""
    return build.include_dir()


# Redefining a function (a module reloaded, a cell run again) makes every kernel that calls the
# old definition forget its in-memory variants: the next launch lowers it again, and the new
# source has a new cache key. (module, qualname) -> kernels whose variants call it.
_defined = set()
_dependents = {}


def _redefined(fn):
    key = (fn.__module__, fn.__qualname__)
    if key in _defined:
        for k in list(_dependents.get(key, ())):
            k._variants.clear()
            k._table.clear()
    _defined.add(key)


class Func:
    """A device function (``@tack.func``): generic, specialized per argument types where a kernel
    calls it. Called on the host, it runs the Python function as written."""

    def __init__(self, fn):
        _redefined(fn)
        self.fn = fn
        self._parsed = None
        self.__name__ = fn.__name__
        self.__qualname__ = fn.__qualname__
        self.__doc__ = fn.__doc__
        self.__module__ = fn.__module__
        self.__wrapped__ = fn

    def parsed(self):
        if self._parsed is None:
            self._parsed = lower.PyFunction(self.fn)
        return self._parsed

    def __call__(self, *args):
        return self.fn(*args)

    def __get__(self, obj, cls=None):
        if obj is None:
            return self
        return self.fn.__get__(obj, cls)

    def __repr__(self):
        return f"<tack.func {self.__qualname__}>"


def func(fn=None):
    """Marks a device function: ``@tack.func def lerp(a, b, t): return a + t * (b - a)``."""
    if fn is None:
        return func
    if isinstance(fn, Func):
        return fn
    if not callable(fn) or not hasattr(fn, "__code__"):
        raise TypeError(f"tack.func: expected a Python function, got {type(fn).__qualname__}")
    return Func(fn)


def device_class(cls=None):
    """Marks a class whose instances kernels take: ``__init__`` sets attributes (numbers and tuples
    of numbers are run-time parameters; arrays and device-class instances are held), and
    ``@tack.func`` methods (``__getitem__``, ``__setitem__``, ``__len__`` among them) make it
    indexable exactly as an array. Class attributes are compiled in."""
    if cls is None:
        return device_class
    if not isinstance(cls, type):
        raise TypeError(f"tack.device_class: expected a class, got {type(cls).__qualname__}")
    cls.__tack_device_class__ = True
    return cls


class Kernel:
    """A kernel (``@tack.kernel``): its first ``len(dims)`` parameters are the launch indices."""

    def __init__(self, fn):
        self.fn = fn
        self._func = Func(fn)
        self._variants = {}
        self._table = _core._kernels.Table()  # the variants C++ launches without Python
        self._lock = threading.Lock()
        self.__name__ = fn.__name__
        self.__qualname__ = fn.__qualname__
        self.__doc__ = fn.__doc__
        self.__wrapped__ = fn
        _kernels.add(self)

    def parsed(self):
        return self._func.parsed()

    def __call__(self, *args):
        raise TypeError(f"tack.kernel {self.__qualname__!r} is launched with "
                        f"tack.launch(dims, {self.__name__}, ...), not called")

    def __repr__(self):
        return f"<tack.kernel {self.__qualname__}>"


def kernel(fn=None):
    """Marks a kernel: ``@tack.kernel def blend(i, out, x, y, t): out[i] = ...``; launched with
    ``tack.launch(n, blend, out, x, y, 0.25)``."""
    if fn is None:
        return kernel
    if isinstance(fn, Kernel):
        return fn
    if not callable(fn) or not hasattr(fn, "__code__"):
        raise TypeError(f"tack.kernel: expected a Python function, got {type(fn).__qualname__}")
    return Kernel(fn)


def _dims_tuple(dims):
    if isinstance(dims, int) and not isinstance(dims, bool):
        dims = (dims,)
    try:
        dims = tuple(int(d) for d in dims)
    except TypeError:
        raise TypeError(f"tack.launch: dims is an int or a tuple of 1 to 3 ints, not "
                        f"{type(dims).__qualname__}") from None
    if not 1 <= len(dims) <= 3:
        raise ValueError(f"tack.launch: dims has {len(dims)} entries; a launch has 1 to 3 "
                         "dimensions")
    for d in dims:
        if d < 0:
            raise ValueError(f"tack.launch: dims {dims} has a negative extent")
    return dims


def _walk(tack_mod, kern, ndims, args):
    w = A.Walk(tack_mod)
    params = kern.parsed().params[ndims:]
    types = []
    for i, a in enumerate(args):
        types.append(A.describe(w, a, f"parameter {params[i]!r}" if i < len(params)
                                else f"argument {i}"))
    return w, types


def _signature(types):
    return tuple((type(t).__name__, t.key()) for t in types)


# A variant includes the runtime and only the headers it uses (the least to parse when the
# precompiled prelude is not there yet); with it, `-include` loads the prelude first and these
# includes are no-ops.
_RUNTIME = "tack/pykernel/runtime.hpp"


def generate(tack_mod, kern, ndims, types, debug_mode, cuda=False):
    """The C++ source of `kern` for argument types `types`, and the unit it was built in."""
    unit = lower.Unit(debug_mode)
    unit.tack = tack_mod
    body = lower.lower_kernel_body(unit, kern, ndims, types, tack_mod)
    forms = [A.form_expr(unit, t) for t in types]
    pyf = kern.parsed()
    out = [f"// Generated by tack from kernel {pyf.qualname!r} ({pyf.where(pyf.tree)}).",
           f"// Argument types: {', '.join(t.name() for t in types)}.",
           f"// Debug mode: {'on' if debug_mode else 'off'} (TACK_BOUNDS_CHECK is a flag).",
           f"#include <{_RUNTIME}>"]
    for inc in sorted(unit.includes - {_RUNTIME}):
        out.append(f"#include <{inc}>")
    out.append("")
    out.append("namespace {")
    out.extend(unit.struct_code)
    out.extend(unit.func_code)
    out.append(body)
    out.append("}  // namespace")
    out.append("")
    idx = ["i0", "i1", "i2"][:ndims]
    call = f"tack_pk_body({', '.join(idx + [f'a{k}' for k in range(len(types))])})"
    decls = "\n".join(f"    const auto a{k} = {f};" for k, f in enumerate(forms))
    export = '#define TACK_PK_EXPORT extern "C" __attribute__((visibility("default")))'
    out.append(export)
    out.append("TACK_PK_EXPORT int tack_pk_abi(void) { return TACK_PK_ABI_VERSION; }")
    out.append("")
    loops = "    for (tack::index_t i0 = begin; i0 < end; ++i0) {\n"
    close = "    }\n"
    for d in range(1, ndims):
        loops += "  " * d + f"    for (tack::index_t i{d} = 0; i{d} < dims[{d}]; ++i{d}) {{\n"
        close = "  " * d + "    }\n" + close
    out.append(
        "TACK_PK_EXPORT int tack_pk_run(const tack_pk_slot* S, const int64_t* dims, "
        "int64_t begin,\n                           int64_t end, tack_pk_error* error) {\n"
        "  (void)S;\n  (void)dims;\n"
        "  return tack::pykernel::run_guarded(error, [&] {\n"
        f"{decls}\n{loops}" + "  " * ndims + f"    {call};\n{close}  }});\n}}")
    if cuda:
        out.append(_cuda_entry(ndims, len(types), decls, call))
    written = [k in unit.written for k in range(_slot_count(types))]
    return "\n".join(out) + "\n", unit, written


def _slot_count(types):
    n = 0
    for t in types:
        s = t.slots if hasattr(t, "slots") else ()
        n = max([n] + [x + 1 for x in s])
    return n


def _cuda_entry(ndims, nargs, decls, call):
    """The CUDA launcher: the same body in a `__global__` grid-stride loop over every index, and
    `tack_pk_run_cuda`, which builds the arguments on the host and launches it
    (`tack::pykernel::run_cuda`: the device, the stream, and debug mode's failure record)."""
    params = ", ".join(f"A{k} a{k}" for k in range(nargs))
    templ = ", ".join(f"class A{k}" for k in range(nargs))
    templ = f"template <{templ}>\n" if nargs else ""
    unflat = ["    const tack::index_t i0 = t / inner;"]
    if ndims >= 2:
        unflat.append(f"    const tack::index_t i1 = (t / {'d2' if ndims == 3 else '1'}) % d1;")
    if ndims == 3:
        unflat.append("    const tack::index_t i2 = t % d2;")
    sep = ", " if nargs else ""
    return (
        "\n#if defined(__CUDACC__)\n"
        f"{templ}__global__ void tack_pk_global(tack::index_t total, tack::index_t inner, "
        f"tack::index_t d1, tack::index_t d2{sep}{params}) {{\n"
        "  (void)d1;\n  (void)d2;\n"
        "  const tack::index_t stride = tack::index_t(gridDim.x) * blockDim.x;\n"
        "  for (tack::index_t t = tack::index_t(blockIdx.x) * blockDim.x + threadIdx.x; t < total;\n"
        "       t += stride) {\n" + "\n".join(unflat) + f"\n    {call};\n  }}\n}}\n\n"
        "TACK_PK_EXPORT int tack_pk_run_cuda(const tack_pk_slot* S, const int64_t* dims, "
        "int32_t device,\n                                void* stream, int32_t debug, "
        "tack_pk_error* error) {\n"
        "  (void)S;\n"
        "  return tack::pykernel::run_guarded(error, [&] {\n"
        f"{decls}\n"
        f"    const tack::index_t d1 = {'dims[1]' if ndims >= 2 else '1'}, "
        f"d2 = {'dims[2]' if ndims == 3 else '1'};\n"
        "    const tack::index_t inner = d1 * d2, total = dims[0] * inner;\n"
        "    if (tack::pykernel::run_cuda(error, device, stream, debug, total,\n"
        "                                 [&](unsigned blocks, unsigned threads, cudaStream_t s) {\n"
        "          tack_pk_global<<<blocks, threads, 0, s>>>(total, inner, d1, d2"
        f"{sep}{', '.join(f'a{k}' for k in range(nargs))});\n"
        "        }) != 0) {\n"
        "      throw tack::pykernel::reported{};\n"
        "    }\n"
        "  });\n}\n#endif\n")


class _Compiled:
    __slots__ = ("variant", "lib", "key", "source")

    def __init__(self, variant, lib, key, source):
        self.variant, self.lib, self.key, self.source = variant, lib, key, source


def _compile_variant(tack_mod, kern, ndims, types, debug_mode, device):
    cuda = device != "cpu"
    source, unit, written = generate(tack_mod, kern, ndims, types, debug_mode, cuda=cuda)
    for key in unit.functions:
        _dependents.setdefault(key, weakref.WeakSet()).add(kern)
    with build.compile_lock():
        lib, key = build.load_or_build(source, _stats, debug_mode, cuda=cuda)
    import ctypes
    run = ctypes.cast(lib.tack_pk_run, ctypes.c_void_p).value
    run_cuda = ctypes.cast(lib.tack_pk_run_cuda, ctypes.c_void_p).value if cuda else 0
    pyf = kern.parsed()
    label = f"kernel {pyf.qualname!r} ({pyf.where(pyf.tree)})"
    return _Compiled(None, lib, key, source), run, run_cuda, written, label, unit.written


def _launch_device(tack_mod, kern, w, device):
    """Where a launch runs: the device its arrays live on (all on one), or ``device`` (which
    they must live on), or the default device for a launch without arrays."""
    where = {}
    for obj, kind, name in zip(w.slots, w.kinds, w.names):
        if kind == A.SLOT_ARRAY:
            where.setdefault(obj.device, name)
    pyf = kern.parsed()
    label = f"kernel {pyf.qualname!r} ({pyf.where(pyf.tree)})"
    if device is not None:
        dev = _core._kernels.device(str(device))
        for d, name in where.items():
            if d != dev:
                raise tack_mod.DeviceError(
                    f"tack.launch: {label} runs on {dev} (device={device!r}), and {name} is on "
                    f"{d} (copy it with a.to_device({dev!r}))")
        return dev
    if len(where) > 1:
        (d1, n1), (d2, n2) = list(where.items())[:2]
        raise tack_mod.DeviceError(
            f"tack.launch: {label}: {n1} is on {d1} and {n2} is on {d2}; the arrays of a launch "
            f"live on one device (copy one with a.to_device({d1!r}))")
    if where:
        return next(iter(where))
    return _core._kernels.device(None)


def _require_kernel_device(tack_mod, dev):
    """Kernels written in Python compile for the CPU (``TACK_CXX``) and for CUDA GPUs (nvcc);
    a HIP device is a DeviceError naming it."""
    if str(dev).startswith("hip"):
        raise tack_mod.DeviceError(
            f"tack.launch: kernels written in Python run on the CPU and on CUDA GPUs, not on {dev} "
            f"(HIP); copy the arrays to the CPU with a.to_device('cpu'), or write the kernel in "
            f"C++ with tack::launch")


def launch(dims, kern, *args, device=None, stream=None):
    """Runs ``kern`` at every index of ``dims`` (an int, or a tuple of up to 3 ints, row-major):
    ``tack.launch(n, blend, out, x, y, 0.25)``. Arguments: tack arrays of any element type, rank
    and layout (row views too), ``tack.arrays`` implicit arrays, ``@tack.device_class``
    instances, Python numbers, and DLPack tensors (imported without a copy).

    The kernel runs where its arrays live: on the CPU, or on a CUDA device (in a CUDA build of
    the package), on the current stream of that device or on ``stream`` (a ``tack.Stream``).
    On a GPU's default stream, or in debug mode, the launch waits for the kernel; on another
    stream it returns at once."""
    if device is None and stream is None and type(kern) is Kernel and \
            _try_launch(kern._table, dims, args):
        return
    import tack as tack_mod
    if not isinstance(kern, Kernel):
        raise TypeError(f"tack.launch: the kernel is a {type(kern).__qualname__}; decorate the "
                        "function with @tack.kernel")
    dims = _dims_tuple(dims)
    w, types = _walk(tack_mod, kern, len(dims), args)
    dev = _launch_device(tack_mod, kern, w, device)
    _require_kernel_device(tack_mod, dev)
    if stream is not None:
        if not isinstance(stream, tack_mod.Stream):
            raise TypeError(f"tack.launch: stream is a tack.Stream, not "
                            f"{type(stream).__qualname__}")
        if stream.device != dev:
            raise tack_mod.DeviceError(f"tack.launch: the launch runs on {dev}, and stream "
                                       f"{stream!r} is on {stream.device}")
    sig = (len(dims), _debug[0], dev, _signature(types))
    compiled = kern._variants.get(sig)
    if compiled is None:
        with kern._lock:
            compiled = kern._variants.get(sig)
            if compiled is None:
                c, run, run_cuda, written, label, unit_written = _compile_variant(
                    tack_mod, kern, len(dims), types, _debug[0], dev)
                # a written slot is named with the first store into it
                names = [f"{n} at {unit_written[k]}" if k in unit_written else n
                         for k, n in enumerate(w.names)]
                written = written + [False] * (len(names) - len(written))
                c.variant = _core._kernels.Variant(run, written, names, label, len(dims), dev,
                                                   run_cuda)
                kern._variants[sig] = compiled = c
    else:
        _stats["memory_hits"] += 1
    # The C++ table infers the device from the arrays: a launch without any stays on this path.
    if any(k == A.SLOT_ARRAY for k in w.kinds):
        kern._table.add(dims, args, compiled.variant)
    if stream is None:
        _core._kernels.launch(compiled.variant, dims, w.slots, w.kinds)
    else:
        with stream:
            _core._kernels.launch(compiled.variant, dims, w.slots, w.kinds)


def generated_source(kern, dims, *args, cuda=False):
    """The C++ source a launch of ``kern`` over ``dims`` with ``args`` compiles (with
    ``cuda=True``, also the CUDA launcher nvcc compiles)."""
    import tack as tack_mod
    dims = _dims_tuple(dims)
    _, types = _walk(tack_mod, kern, len(dims), args)
    return generate(tack_mod, kern, len(dims), types, _debug[0], cuda=cuda)[0]


# ---- host sums of implicit arrays computed by @tack.func -------------------------------------------

_sum_variants = {}
_ACC = {"f32": ("float", 0), "f64": ("double", 1), "u8": ("std::uint64_t", 3),
        "u16": ("std::uint64_t", 3), "u32": ("std::uint64_t", 3), "u64": ("std::uint64_t", 3)}


def generate_sum(tack_mod, t, debug_mode):
    """The C++ of `tack_pk_sum` over an implicit array of type `t`, and its accumulator code."""
    unit = lower.Unit(debug_mode)
    unit.tack = tack_mod
    form = A.form_expr(unit, t)
    s = K.scalar_of(t.elem)
    acc, code = _ACC.get(s.kind, ("std::int64_t", 2))
    out = [f"// Generated by tack: the sum of {t.name()}.",
           f"// Debug mode: {'on' if debug_mode else 'off'} (TACK_BOUNDS_CHECK is a flag).",
           f"#include <{_RUNTIME}>"]
    out += [f"#include <{inc}>" for inc in sorted((unit.includes | {"tack/core/kernel_form.hpp"})
                                                   - {_RUNTIME})]
    out += ["", "namespace {"] + unit.struct_code + unit.func_code + ["}  // namespace", ""]
    out.append('#define TACK_PK_EXPORT extern "C" __attribute__((visibility("default")))')
    out.append("TACK_PK_EXPORT int tack_pk_abi(void) { return TACK_PK_ABI_VERSION; }")
    out.append(
        "TACK_PK_EXPORT int tack_pk_sum(const tack_pk_slot* S, int64_t begin, int64_t end, "
        "void* out,\n                           tack_pk_error* error) {\n"
        "  return tack::pykernel::run_guarded(error, [&] {\n"
        f"    const auto a0 = {form};\n"
        "    // the composition's specialized form (counting with start 0, step 1 as T(i))\n"
        "    tack::visit_kernel_form(a0, [&](const auto& k) {\n"
        f"      *static_cast<{acc}*>(out) = tack::pykernel::block_sum<{acc}, {t.elem.cpp()}>(k, "
        "begin, end);\n    });\n  });\n}")
    return "\n".join(out) + "\n", code


def kernel_array_sum(obj):
    """``tack.sum`` of an implicit array computed by a ``@tack.func``: one fused pass, blocks
    summed in parallel and added in block order (the result does not depend on the threads)."""
    import ctypes

    import tack as tack_mod
    w = A.Walk(tack_mod)
    t = A.describe(w, obj, "the array")
    sig = (_debug[0], _signature([t]))
    entry = _sum_variants.get(sig)
    if entry is None:
        source, acc = generate_sum(tack_mod, t, _debug[0])
        with build.compile_lock():
            lib, _ = build.load_or_build(source, _stats, _debug[0])
        fn = ctypes.cast(lib.tack_pk_sum, ctypes.c_void_p).value
        variant = _core._kernels.Variant(0, [False] * len(w.names), list(w.names), repr(obj), 1)
        entry = _sum_variants[sig] = (variant, fn, acc, lib)
    variant, fn, acc, _ = entry
    return _core._kernels.sum(variant, fn, w.slots, w.kinds, len(obj), acc)


# ---- the host side of kernel intrinsics ------------------------------------------------------------

def _kernel_only(name):
    def f(*args, **kwargs):
        raise TypeError(f"tack.{name}() is used inside kernels (@tack.kernel, @tack.func)")
    f.__name__ = name
    f.__qualname__ = name
    f.__doc__ = f"``tack.{name}(...)`` inside a kernel (see docs/python.md)."
    return f


atomic_add = _kernel_only("atomic_add")
atomic_min = _kernel_only("atomic_min")
atomic_max = _kernel_only("atomic_max")
dot = _kernel_only("dot")
cross = _kernel_only("cross")
length = _kernel_only("length")
normalize = _kernel_only("normalize")
identity = _kernel_only("identity")
