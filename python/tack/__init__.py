# SPDX-License-Identifier: BSD-3-Clause
"""tack: typed arrays and zero-copy views for scientific computing on CPUs and GPUs.

The Python face of the C++ library::

    import tack
    rows = tack.zeros((6, 3))
    middle = rows[2:4]            # rows 2 and 3, the same memory
    middle.fill(1.0)
    velocity = tack.empty((100,), tack.vec3(tack.f32))
    velocity.fill([1.0, 0.0, 0.0])
"""

from . import _core
from ._core import (
    Array,
    DType,
    DeviceError,
    ExportError,
    ReadOnlyError,
    Stream,
    array,
    array_from_ptr,
    asarray,
    current_stream,
    default_device,
    dtype,
    empty,
    empty_like,
    from_dlpack,
    full,
    full_like,
    is_available,
    mat,
    ones,
    ones_like,
    set_default_device,
    soa,
    vec,
    zeros,
    zeros_like,
)

__version__ = "0.1.0"

#: Scalar dtypes (interned: ``tack.dtype("f32") is tack.f32``).
f32 = _core._scalar(0)
f64 = _core._scalar(1)
i8 = _core._scalar(2)
i16 = _core._scalar(3)
i32 = _core._scalar(4)
i64 = _core._scalar(5)
u8 = _core._scalar(6)
u16 = _core._scalar(7)
u32 = _core._scalar(8)
u64 = _core._scalar(9)
bool_ = _core._scalar(10)


def _dtype_by_name(name):
    """The dtype a name gives (what pickling a dtype stores)."""
    return dtype(name)


def vec2(scalar=None):
    """The 2-vector dtype (``tack.vec2(tack.f64)``); components default to f32."""
    return vec(2, scalar)


def vec3(scalar=None):
    """The 3-vector dtype (``tack.vec3(tack.f32)``); components default to f32."""
    return vec(3, scalar)


def vec4(scalar=None):
    """The 4-vector dtype; components default to f32."""
    return vec(4, scalar)


def mat2(scalar=None):
    """The 2x2 matrix dtype; components default to f32."""
    return mat(2, 2, scalar)


def mat3(scalar=None):
    """The 3x3 matrix dtype (``tack.mat3(tack.f32)``); components default to f32."""
    return mat(3, 3, scalar)


def mat4(scalar=None):
    """The 4x4 matrix dtype; components default to f32."""
    return mat(4, 4, scalar)


def numpy_async(a):
    """Starts the host snapshot of ``a`` and returns an object whose ``result()`` waits for it."""
    return a.numpy_async()


def _numpy_async(self):
    from concurrent.futures import ThreadPoolExecutor

    # The copy runs without the GIL, so the caller's Python work goes on meanwhile.
    pool = ThreadPoolExecutor(max_workers=1)
    future = pool.submit(self.numpy)
    pool.shutdown(wait=False)
    return future


Array.numpy_async = _numpy_async


from . import algorithms, arrays  # noqa: E402  (they import names defined above)
from .arrays import abs, cos, exp, log, maximum, minimum, sin, sqrt  # noqa: E402
from . import kernels  # noqa: E402
from .arrays import KernelArray as _KernelArray  # noqa: E402


def _host_values(a):
    """A stored array of `a`'s values when `a` is computed by a @tack.func, else `a` itself."""
    return a.materialize() if isinstance(a, _KernelArray) else a


def copyto(dst, src):
    """Copies ``src``'s values into ``dst`` (same shape; converting as ``astype``): arrays,
    implicit arrays (one fused pass), NumPy values, and arrays computed by ``@tack.func``."""
    if isinstance(src, _KernelArray):
        if dst.shape != src.shape:
            raise ValueError(f"tack.copyto: the destination has shape {dst.shape} and the source "
                             f"{src!r} has shape {src.shape}")
        launch(src.size, _arrays._copy_kernel(), dst, src)
        return
    _core.copyto(dst, src)


def sum(a, *args, **kwargs):  # noqa: A001  (NumPy's name)
    """The sum of ``a``'s scalar components (see ``tack._core.sum``); an implicit array computed
    by a ``@tack.func`` is summed in one fused pass on the CPU (on a GPU, its values are stored
    first)."""
    if isinstance(a, _KernelArray) and not args and not kwargs and a.device == "cpu":
        return kernels.api.kernel_array_sum(a)
    return _core.sum(_host_values(a), *args, **kwargs)


def min(a, *args, **kwargs):  # noqa: A001
    """The smallest scalar component of ``a`` (NaN propagates)."""
    return _core.min(_host_values(a), *args, **kwargs)


def max(a, *args, **kwargs):  # noqa: A001
    """The largest scalar component of ``a`` (NaN propagates)."""
    return _core.max(_host_values(a), *args, **kwargs)


def mean(a, *args, **kwargs):
    """The mean of ``a``'s scalar components."""
    return _core.mean(_host_values(a), *args, **kwargs)


from . import arrays as _arrays  # noqa: E402
from .kernels.api import (  # noqa: E402
    atomic_add, atomic_max, atomic_min, cross, device_class, dot, func, identity, kernel, launch,
    length, normalize, set_debug,
)

__all__ = [
    "Array", "DType", "DeviceError", "ExportError", "ReadOnlyError", "Stream", "algorithms",
    "array", "array_from_ptr", "arrays", "asarray", "bool_", "copyto", "current_stream",
    "default_device", "device_class",
    "dtype", "empty", "empty_like", "f32", "f64", "from_dlpack", "full", "full_like", "func",
    "i16", "i32", "i64", "i8", "is_available", "mat", "mat2", "mat3", "mat4", "max", "mean",
    "min", "numpy_async", "ones", "ones_like", "set_default_device", "soa", "sum", "u16", "u32",
    "u64", "u8", "vec", "vec2", "vec3", "vec4", "zeros", "zeros_like",
    "abs", "sqrt", "exp", "log", "sin", "cos", "minimum", "maximum",
    "kernel", "launch", "set_debug", "kernels", "atomic_add", "atomic_min", "atomic_max", "dot",
    "cross", "length", "normalize", "identity",
]
