# SPDX-License-Identifier: BSD-3-Clause
"""Implicit arrays: arrays that compute each value from its index, or rearrange
others, without storing anything. Read them with ``numpy()``, reduce them with ``tack.sum``,
copy them into arrays with ``tack.copyto`` (one pass), and store into the writable ones
(``View``, ``Strided``, ``Permutation``, ``Concatenate``, ``ExtractComponent`` of stored
arrays; ``Components`` is read-only: it is not storage)::

    squares = tack.arrays.CountingArray(5) * tack.arrays.CountingArray(5)
    tack.copyto(out, a + 2.0 * b)         # one fused pass, no temporary array
"""

from . import _core
from .kernels import ktypes as _K

_impl = _core._arrays
ImplicitArray = _impl.ImplicitArray


class CountingArray(ImplicitArray):
    """``start + step * i`` for ``i < n`` (NumPy's dtype inference: integers give i64)."""

    def __init__(self, n, start=0, step=1, dtype=None):
        super().__init__(_impl.counting(n, start, step, dtype))
        t = _scalar_elem(self)
        self._tack_kernel_desc = ("counting", [("n", (int(n), _K.I64)),
                                               ("start", (_num(start, t), t)),
                                               ("step", (_num(step, t), t))], [], None)


class ConstantArray(ImplicitArray):
    """``value`` at every one of ``n`` indices (a sequence value is one vector element)."""

    def __init__(self, value, n, dtype=None):
        super().__init__(_impl.constant(value, n, dtype))
        elem = _elem_of(self)
        s = _K.scalar_of(elem)
        comps = list(value) if isinstance(value, (list, tuple)) else [value]
        self._tack_kernel_desc = ("constant", [("n", (int(n), _K.I64))] + [
            (f"value[{k}]", (_num(v, s), s)) for k, v in enumerate(comps)], [], None)


class CartesianProduct(ImplicitArray):
    """Every combination of the coordinates of 2 or 3 arrays, x fastest (the points of a
    rectilinear grid): vec2/vec3 elements."""

    def __init__(self, x, y, z=None):
        axes = (x, y) if z is None else (x, y, z)
        super().__init__(_impl.cartesian_product(*axes))
        self._tack_kernel_desc = ("cartesian_product", [], list(axes), None)


class UniformCoordinates(ImplicitArray):
    """The points of a uniform grid: ``origin + spacing * (i, j, k)``, x fastest."""

    def __init__(self, point_dims, origin=None, spacing=None, dtype=None):
        dims = tuple(point_dims)
        origin = tuple(origin) if origin is not None else (0.0,) * len(dims)
        spacing = tuple(spacing) if spacing is not None else (1.0,) * len(dims)
        super().__init__(_impl.uniform_coordinates(dims, origin, spacing, dtype))
        t = _scalar_elem(self)
        self._tack_kernel_desc = ("uniform_coordinates", [
            (f"point_dims[{k}]", (int(d), _K.I64)) for k, d in enumerate(dims)] + [
            (f"origin[{k}]", (float(v), t)) for k, v in enumerate(origin)] + [
            (f"spacing[{k}]", (float(v), t)) for k, v in enumerate(spacing)], [], len(dims))


class Cast(ImplicitArray):
    """``a``'s values converted to ``dtype`` (a scalar dtype keeps the element dimensions)."""

    def __new__(cls, a, dtype):
        if _over_kernel_arrays(a):
            from .kernels.lower import elem_of_dtype
            d = elem_of_dtype(_core.dtype(dtype))
            e = _elem_of(a)
            elem = _K.with_scalar(e, d) if isinstance(d, _K.Scalar) else d
            return KernelArray("cast", [], [a], None, elem, len(a), "Cast")
        return super().__new__(cls)

    def __init__(self, a, dtype):
        super().__init__(_impl.cast(a, dtype))
        self._tack_kernel_desc = ("cast", [], [a], None)


class RandomUniform(ImplicitArray):
    """Counter-based uniform values in [lo, hi): the same values on every device and thread count."""

    def __init__(self, n, seed, lo=0.0, hi=1.0, dtype=None):
        super().__init__(_impl.random("uniform", n, seed, lo, hi, dtype))
        t = _scalar_elem(self)
        self._tack_kernel_desc = ("random_uniform", [
            ("n", (int(n), _K.I64)), ("seed", (int(seed), _K.U64)),
            ("lo", (float(lo), t)), ("hi", (float(hi), t))], [], None)


class RandomNormal(ImplicitArray):
    """Counter-based standard normal values."""

    def __init__(self, n, seed, dtype=None):
        super().__init__(_impl.random("normal", n, seed, None, None, dtype))
        self._tack_kernel_desc = ("random_normal", [
            ("n", (int(n), _K.I64)), ("seed", (int(seed), _K.U64))], [], None)


class RandomBits(ImplicitArray):
    """Counter-based uniform 32-bit integers (u32)."""

    def __init__(self, n, seed):
        super().__init__(_impl.random("bits", n, seed, None, None, None))
        self._tack_kernel_desc = ("random_bits", [
            ("n", (int(n), _K.I64)), ("seed", (int(seed), _K.U64))], [], None)


class Permutation(ImplicitArray):
    """``values[indices[i]]``: a gather to read, a scatter to store into."""

    def __new__(cls, indices, values):
        if _over_kernel_arrays(indices, values):
            return KernelArray("permutation", [], [indices, values], None, _elem_of(values),
                               len(indices), "Permutation")
        return super().__new__(cls)

    def __init__(self, indices, values):
        super().__init__(_impl.permutation(indices, values))
        self._tack_kernel_desc = ("permutation", [], [indices, values], None)


class Concatenate(ImplicitArray):
    """The arrays one after another; a store writes the part holding the index."""

    def __init__(self, *arrays):
        super().__init__(_impl.concatenate(*arrays))
        self._tack_kernel_desc = ("concatenate", [], list(arrays), None)


class View(ImplicitArray):
    """``count`` elements of ``a`` from ``start`` (stores land in ``a``)."""

    def __new__(cls, a, start, count):
        if _over_kernel_arrays(a):
            return KernelArray("view", [("start", (int(start), _K.I64)),
                                        ("count", (int(count), _K.I64))], [a], None, _elem_of(a),
                               count, "View")
        return super().__new__(cls)

    def __init__(self, a, start, count):
        super().__init__(_impl.strided(a, 1, start, count, True))
        self._tack_kernel_desc = ("view", [("start", (int(start), _K.I64)),
                                           ("count", (int(count), _K.I64))], [a], None)


class Strided(ImplicitArray):
    """Every ``step``-th element of ``a`` from ``offset``, without copying (stores land in ``a``)."""

    def __init__(self, a, step, offset=0):
        super().__init__(_impl.strided(a, step, offset, None, False))
        self._tack_kernel_desc = ("strided", [("step", (int(step), _K.I64)),
                                              ("offset", (int(offset), _K.I64))], [a], None)


class ExtractComponent(ImplicitArray):
    """Component ``component`` of each vector or matrix element, as a scalar array."""

    def __init__(self, a, component):
        super().__init__(_impl.extract_component(a, component))
        self._tack_kernel_desc = ("extract_component", [("component", (int(component), _K.I64))],
                                  [a], None)


class Components(ImplicitArray):
    """A vector array over 2 to 4 scalar arrays of any kind, computed ones included. It is an
    implicit array, not storage: it reads back and reduces, but takes no copyto or fill
    (``tack.soa`` makes a stored SoA array)."""

    def __init__(self, x, y, z=None, w=None):
        parts = [p for p in (x, y, z, w) if p is not None]
        super().__init__(_impl.components(*parts))
        self._tack_kernel_desc = ("components", [], parts, None)


class KernelArray:
    """An implicit array whose values come from a ``@tack.func`` (``Function``, ``Transform``, and
    the library's arrays composed over them): kernels inline it; on the host, ``numpy()``,
    ``tack.copyto`` and the reductions evaluate it with a kernel."""

    _tack_kernel_array = True

    def __init__(self, kind, params, children, func, elem, n, what):
        self._tack_kernel_desc = (kind, params, list(children), (func, elem, None))
        self._elem = elem
        self._n = int(n)
        self._what = what

    @property
    def dtype(self):
        return _dtype_of(self._elem)

    @property
    def shape(self):
        return (self._n,)

    @property
    def size(self):
        return self._n

    @property
    def ndim(self):
        return 1

    @property
    def device(self):
        """Where the stored arrays it reads live (the default device when it reads none):
        where ``materialize`` puts its values and where kernels over it run."""
        return _device_of(self) or _core.default_device()

    def __len__(self):
        return self._n

    def materialize(self):
        """A stored array of these values (one kernel launch, on ``self.device``)."""
        import tack
        out = tack.empty((self._n,), self.dtype, device=self.device)
        tack.launch(self._n, _copy_kernel(), out, self)
        return out

    def numpy(self):
        """A host snapshot of the values, as ``tack.Array.numpy()``."""
        return self.materialize().numpy()

    def __repr__(self):
        return f"tack.arrays.{self._what} of {self._n} {self.dtype.name}"


def _device_of(obj):
    """The device of the first stored array `obj` reads (None when it reads none)."""
    if isinstance(obj, _core.Array):
        return obj.device
    desc = getattr(obj, "_tack_kernel_desc", None)
    if desc is not None:
        children = desc[2]
    elif getattr(type(obj), "__tack_device_class__", False):
        children = list(vars(obj).values())
    else:
        children = ()
    for child in children:
        found = _device_of(child)
        if found is not None:
            return found
    return None


def _copy_kernel():
    global _COPY
    if _COPY is None:
        import tack

        @tack.kernel
        def copy_values(i, out, src):
            out[i] = src[i]

        _COPY = copy_values
    return _COPY


_COPY = None


class Function(KernelArray):
    """``n`` values ``f(i)``, ``f`` a ``@tack.func``: ``tack.arrays.Function(n, f)``. Its dtype
    is what ``f`` returns for an int64 index (or ``dtype``, converting)."""

    def __init__(self, n, f, dtype=None):
        f = _require_func(f, "tack.arrays.Function")
        if int(n) < 0:
            raise ValueError(f"tack.arrays.Function: the length {n} is negative")
        elem = _result_elem(f, _K.INDEX, dtype, "tack.arrays.Function")
        super().__init__("function", [("n", (int(n), _K.I64))], [], f, elem, n, "Function")


class Transform(KernelArray):
    """``f(a[i])`` for each element of ``a`` (a stored or implicit array), ``f`` a
    ``@tack.func``: ``tack.arrays.Transform(a, f)``."""

    def __init__(self, a, f, dtype=None):
        f = _require_func(f, "tack.arrays.Transform")
        elem = _result_elem(f, _elem_of(a), dtype, "tack.arrays.Transform")
        super().__init__("transform", [], [a], f, elem, len(a), "Transform")


def _require_func(f, op):
    from .kernels.api import Func
    if not isinstance(f, Func):
        raise TypeError(f"{op}: f must be a @tack.func function, got {type(f).__qualname__} "
                        f"{getattr(f, '__qualname__', '')}".rstrip())
    return f


def _result_elem(f, arg, dtype, op):
    from .kernels import lower
    import tack
    if dtype is not None:
        return lower.elem_of_dtype(_core.dtype(dtype))
    unit = lower.Unit(False)
    unit.tack = tack
    spec = lower.specialize(unit, f, [arg], tack, None, None)
    if spec.ret is None:
        raise TypeError(f"{op}: {f.__qualname__}() returns no value")
    return spec.ret.strong() if isinstance(spec.ret, _K.Scalar) else spec.ret


def _over_kernel_arrays(*parts):
    """Whether a composition needs kernels to evaluate: an operand computed by a @tack.func, or
    a device class (read through its __getitem__)."""
    return any(isinstance(p, KernelArray) or getattr(type(p), "__tack_device_class__", False)
               for p in parts)


def _scalar_elem(a):
    return _K.scalar_of(_elem_of(a))


def _num(v, scalar):
    return float(v) if scalar.is_float else bool(v) if scalar.is_bool else int(v)


def _elem_of(a):
    from .kernels.lower import elem_of_dtype
    if isinstance(a, KernelArray):
        return a._elem
    if getattr(type(a), "__tack_device_class__", False):
        # what its __getitem__ returns for an int64 index, as a kernel would read it
        import tack
        from .kernels import args as kargs
        from .kernels import lower
        w = kargs.Walk(tack)
        t = kargs.describe(w, a, "the operand")
        unit = lower.Unit(False)
        unit.tack = tack
        return kargs.class_elem(unit, t)
    if not hasattr(a, "dtype"):
        raise TypeError(f"tack.arrays: expected an array, an implicit array or a device class "
                        f"instance, got {type(a).__qualname__}")
    return elem_of_dtype(a.dtype)


def _dtype_of(elem):
    s = _core.dtype(elem.scalar.kind if not isinstance(elem, _K.Scalar) else elem.kind)
    if isinstance(elem, _K.Vec):
        return _core.vec(elem.n, s)
    if isinstance(elem, _K.Mat):
        return _core.mat(elem.rows, elem.cols, s)
    return s


def _materialize(a):
    """A stored array with the values of ``a``."""
    return _impl.materialize(a)


def sqrt(a):
    """The square root of each component (an implicit array)."""
    return _core._unary(a, 2)


def abs(a):  # noqa: A001  (NumPy's name)
    """The absolute value of each component (an implicit array)."""
    return _core._unary(a, 1)


def exp(a):
    """e to the power of each component (an implicit array)."""
    return _core._unary(a, 3)


def log(a):
    """The natural logarithm of each component (an implicit array)."""
    return _core._unary(a, 4)


def sin(a):
    """The sine of each component (an implicit array)."""
    return _core._unary(a, 5)


def cos(a):
    """The cosine of each component (an implicit array)."""
    return _core._unary(a, 6)


def minimum(a, b):
    """The smaller of paired components (an implicit array)."""
    return _core._binary(a, b, 4, False)


def maximum(a, b):
    """The larger of paired components (an implicit array)."""
    return _core._binary(a, b, 5, False)


__all__ = [
    "ImplicitArray", "CountingArray", "ConstantArray", "CartesianProduct", "UniformCoordinates",
    "Cast", "RandomUniform", "RandomNormal", "RandomBits", "Permutation", "Concatenate", "View",
    "Strided", "ExtractComponent", "Components", "Function", "Transform", "KernelArray", "sqrt", "abs", "exp",
    "log", "sin", "cos", "minimum", "maximum",
]
