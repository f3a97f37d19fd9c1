# SPDX-License-Identifier: BSD-3-Clause
"""Implicit arrays (seed 001): arrays that compute each value from its index, or rearrange
others, without storing anything. Read them with ``numpy()``, reduce them with ``tack.sum``,
copy them into arrays with ``tack.copyto`` (one pass), and store into the writable ones
(``View``, ``Strided``, ``Permutation``, ``Concatenate``, ``ExtractComponent`` of stored
arrays; ``Components`` is read-only, as seed 001 says)::

    squares = tack.arrays.CountingArray(5) * tack.arrays.CountingArray(5)
    tack.copyto(out, a + 2.0 * b)         # one fused pass, no temporary array
"""

from . import _core

_impl = _core._arrays
ImplicitArray = _impl.ImplicitArray


class CountingArray(ImplicitArray):
    """``start + step * i`` for ``i < n`` (NumPy's dtype inference: integers give i64)."""

    def __init__(self, n, start=0, step=1, dtype=None):
        super().__init__(_impl.counting(n, start, step, dtype))


class ConstantArray(ImplicitArray):
    """``value`` at every one of ``n`` indices (a sequence value is one vector element)."""

    def __init__(self, value, n, dtype=None):
        super().__init__(_impl.constant(value, n, dtype))


class CartesianProduct(ImplicitArray):
    """Every combination of the coordinates of 2 or 3 arrays, x fastest (the points of a
    rectilinear grid): vec2/vec3 elements."""

    def __init__(self, x, y, z=None):
        axes = (x, y) if z is None else (x, y, z)
        super().__init__(_impl.cartesian_product(*axes))


class UniformCoordinates(ImplicitArray):
    """The points of a uniform grid: ``origin + spacing * (i, j, k)``, x fastest."""

    def __init__(self, point_dims, origin=None, spacing=None, dtype=None):
        dims = tuple(point_dims)
        origin = tuple(origin) if origin is not None else (0.0,) * len(dims)
        spacing = tuple(spacing) if spacing is not None else (1.0,) * len(dims)
        super().__init__(_impl.uniform_coordinates(dims, origin, spacing, dtype))


class Cast(ImplicitArray):
    """``a``'s values converted to ``dtype`` (a scalar dtype keeps the element dimensions)."""

    def __init__(self, a, dtype):
        super().__init__(_impl.cast(a, dtype))


class RandomUniform(ImplicitArray):
    """Counter-based uniform values in [lo, hi): the same values on every device and thread count."""

    def __init__(self, n, seed, lo=0.0, hi=1.0, dtype=None):
        super().__init__(_impl.random("uniform", n, seed, lo, hi, dtype))


class RandomNormal(ImplicitArray):
    """Counter-based standard normal values."""

    def __init__(self, n, seed, dtype=None):
        super().__init__(_impl.random("normal", n, seed, None, None, dtype))


class RandomBits(ImplicitArray):
    """Counter-based uniform 32-bit integers (u32)."""

    def __init__(self, n, seed):
        super().__init__(_impl.random("bits", n, seed, None, None, None))


class Permutation(ImplicitArray):
    """``values[indices[i]]``: a gather to read, a scatter to store into."""

    def __init__(self, indices, values):
        super().__init__(_impl.permutation(indices, values))


class Concatenate(ImplicitArray):
    """The arrays one after another; a store writes the part holding the index."""

    def __init__(self, *arrays):
        super().__init__(_impl.concatenate(*arrays))


class View(ImplicitArray):
    """``count`` elements of ``a`` from ``start`` (stores land in ``a``)."""

    def __init__(self, a, start, count):
        super().__init__(_impl.strided(a, 1, start, count, True))


class Strided(ImplicitArray):
    """Every ``step``-th element of ``a`` from ``offset``, without copying (stores land in ``a``)."""

    def __init__(self, a, step, offset=0):
        super().__init__(_impl.strided(a, step, offset, None, False))


class ExtractComponent(ImplicitArray):
    """Component ``component`` of each vector or matrix element, as a scalar array."""

    def __init__(self, a, component):
        super().__init__(_impl.extract_component(a, component))


class Components(ImplicitArray):
    """A vector array over 2 to 4 scalar arrays of any kind, computed ones included. It is an
    implicit array, not storage: it reads back and reduces, but takes no copyto or fill
    (``tack.soa`` makes a stored SoA array)."""

    def __init__(self, x, y, z=None, w=None):
        parts = [p for p in (x, y, z, w) if p is not None]
        super().__init__(_impl.components(*parts))


class Function(ImplicitArray):
    """Values from a Python function of the index: needs kernels compiled from Python."""

    def __init__(self, *args, **kwargs):
        raise NotImplementedError(
            "tack.arrays.Function: a Python function evaluated per index needs kernels compiled "
            "from Python, which this build of tack does not have yet; compose the library's "
            "implicit arrays and arithmetic instead"
        )


class Transform(ImplicitArray):
    """A Python function applied to another array's values: needs kernels compiled from Python."""

    def __init__(self, *args, **kwargs):
        raise NotImplementedError(
            "tack.arrays.Transform: a Python function applied per element needs kernels compiled "
            "from Python, which this build of tack does not have yet; use arithmetic on arrays "
            "(a * 2.0 + b, tack.sqrt(a)) instead"
        )


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
    "Strided", "ExtractComponent", "Components", "Function", "Transform", "sqrt", "abs", "exp",
    "log", "sin", "cos", "minimum", "maximum",
]
