# SPDX-License-Identifier: BSD-3-Clause
"""The types of values inside a kernel compiled from Python, and NumPy 2's promotion between them.

Every expression of a kernel has one of these types, decided from the launch's arguments (no
annotations): a scalar of a fixed-width kind, a vector or matrix of them, a stored or implicit
array, a device-class instance, or a compile-time object (a module, a ``@tack.func``, a dtype).
Python numbers are *weak* scalars (``wint``, ``wfloat``), as in NumPy 2: an f32 value times a
Python float stays f32, while a variable assigned a Python number gets the default type (int64,
float64).
"""

import numpy as np

# kind -> (C++ type, NumPy type)
SCALARS = {
    "f32": ("float", np.float32),
    "f64": ("double", np.float64),
    "i8": ("std::int8_t", np.int8),
    "i16": ("std::int16_t", np.int16),
    "i32": ("std::int32_t", np.int32),
    "i64": ("std::int64_t", np.int64),
    "u8": ("std::uint8_t", np.uint8),
    "u16": ("std::uint16_t", np.uint16),
    "u32": ("std::uint32_t", np.uint32),
    "u64": ("std::uint64_t", np.uint64),
    "bool": ("bool", np.bool_),
}
_BY_NUMPY = {np.dtype(v[1]): k for k, v in SCALARS.items()}
#: tack's scalar dtype names -> kernel kinds.
TACK_NAMES = {"f32": "f32", "f64": "f64", "i8": "i8", "i16": "i16", "i32": "i32", "i64": "i64",
              "u8": "u8", "u16": "u16", "u32": "u32", "u64": "u64", "bool": "bool"}


class KType:
    """Base of kernel types: hashable, compared by value."""

    __slots__ = ()

    def key(self):
        raise NotImplementedError

    def __eq__(self, other):
        return type(self) is type(other) and self.key() == other.key()

    def __hash__(self):
        return hash((type(self).__name__, self.key()))

    def __repr__(self):
        return self.name()


class Scalar(KType):
    """A number: a fixed-width kind, or a weak Python int/float (``wint``, ``wfloat``)."""

    __slots__ = ("kind",)

    def __init__(self, kind):
        self.kind = kind

    def key(self):
        return self.kind

    @property
    def weak(self):
        return self.kind in ("wint", "wfloat")

    @property
    def is_float(self):
        return self.kind in ("f32", "f64", "wfloat")

    @property
    def is_int(self):
        return self.kind in ("i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64", "wint")

    @property
    def is_bool(self):
        return self.kind == "bool"

    @property
    def is_unsigned(self):
        return self.kind.startswith("u")

    def strong(self):
        """The type a variable holding this value has (weak int -> i64, weak float -> f64)."""
        return {"wint": I64, "wfloat": F64}.get(self.kind, self)

    def cpp(self):
        return {"wint": "std::int64_t", "wfloat": "double"}.get(self.kind) or SCALARS[self.kind][0]

    def numpy(self):
        return SCALARS[self.strong().kind][1]

    def name(self):
        return {"wint": "int", "wfloat": "float"}.get(self.kind, self.kind)


F32, F64, I64, I32, BOOL = Scalar("f32"), Scalar("f64"), Scalar("i64"), Scalar("i32"), Scalar("bool")
U64 = Scalar("u64")
WINT, WFLOAT = Scalar("wint"), Scalar("wfloat")
INDEX = I64


class Vec(KType):
    """``tack.vec(n, scalar)`` values."""

    __slots__ = ("scalar", "n")

    def __init__(self, scalar, n):
        self.scalar, self.n = scalar.strong(), n

    def key(self):
        return (self.scalar.kind, self.n)

    def cpp(self):
        return f"tack::vec<{self.scalar.cpp()}, {self.n}>"

    def name(self):
        return f"vec{self.n}({self.scalar.kind})"

    def with_scalar(self, s):
        return Vec(s, self.n)


class Mat(KType):
    """``tack.mat(rows, cols, scalar)`` values."""

    __slots__ = ("scalar", "rows", "cols")

    def __init__(self, scalar, rows, cols):
        self.scalar, self.rows, self.cols = scalar.strong(), rows, cols

    def key(self):
        return (self.scalar.kind, self.rows, self.cols)

    def cpp(self):
        return f"tack::mat<{self.scalar.cpp()}, {self.rows}, {self.cols}>"

    def name(self):
        return f"mat{self.rows}x{self.cols}({self.scalar.kind})"

    def with_scalar(self, s):
        return Mat(s, self.rows, self.cols)


def is_value(t):
    """Whether `t` is a number, vector or matrix (something a variable may hold)."""
    return isinstance(t, (Scalar, Vec, Mat))


def components(t):
    return t.n if isinstance(t, Vec) else t.rows * t.cols if isinstance(t, Mat) else 1


def scalar_of(t):
    return t if isinstance(t, Scalar) else t.scalar


def with_scalar(t, s):
    return s if isinstance(t, Scalar) else t.with_scalar(s)


class Indexable(KType):
    """Something a kernel indexes: stored arrays, implicit arrays and device-class instances.

    ``elem``: what ``a[i]`` reads; ``ndim``: its number of indices; ``slots``: the argument slots
    it reads; ``store_slots``: the slots a store writes (None: it takes no stores); ``what``: how
    messages name it ("parameter 'a'").
    """

    __slots__ = ()
    soa = False


class ArrayT(Indexable):
    """A stored array (any layout, row views included): one argument slot."""

    __slots__ = ("elem", "ndim", "layout", "slot", "what")

    def __init__(self, elem, ndim, layout, slot, what):
        self.elem, self.ndim, self.layout, self.slot, self.what = elem, ndim, layout, slot, what

    def key(self):
        return (self.elem.key(), type(self.elem).__name__, self.ndim, self.layout, self.slot)

    @property
    def soa(self):
        return self.layout == "soa"

    @property
    def slots(self):
        return (self.slot,)

    @property
    def store_slots(self):
        return (self.slot,)

    def cpp(self):
        if self.soa:
            return f"tack::soa_view<{self.elem.cpp()}, {self.ndim}>"
        return f"tack::view<{self.elem.cpp()}, {self.ndim}>"

    def name(self):
        return f"array of {self.elem.name()} ({self.ndim}-d, {self.layout})"


class ImplicitT(Indexable):
    """A library implicit array (``tack.arrays.*``) lowered to its ``tack::arrays`` composition.

    ``kind``: the composition ("counting", "permutation", ...); ``children``: operand types;
    ``numbers``: (slot, Scalar) of its run-time numbers; ``extra``: compile-time parameters.
    """

    __slots__ = ("kind", "elem", "children", "numbers", "extra", "writable", "what")

    def __init__(self, kind, elem, children, numbers, extra, writable, what):
        self.kind, self.elem, self.children = kind, elem, tuple(children)
        self.numbers, self.extra, self.writable, self.what = tuple(numbers), extra, writable, what

    ndim = 1

    def key(self):
        return (self.kind, self.elem.key(), type(self.elem).__name__,
                tuple(c.key() for c in self.children), self.numbers, self.extra, self.writable)

    @property
    def slots(self):
        out = tuple(s for s, _ in self.numbers)
        for c in self.children:
            out += c.slots
        return out

    @property
    def store_slots(self):
        if not self.writable:
            return None
        out = ()
        for c in self.children[self.extra_written_children():]:
            out += c.store_slots or ()
        return out

    def extra_written_children(self):
        # a permutation writes its values, not its indices
        return 1 if self.kind == "permutation" else 0

    def name(self):
        return f"tack.arrays {self.kind} of {self.elem.name()}"


class ClassT(Indexable):
    """An instance of a ``@tack.device_class``: a generated struct.

    ``fields``: attribute name -> type (numbers: (slot, Scalar) pairs inside NumberField).
    """

    __slots__ = ("cls", "fields", "what", "ident")

    def __init__(self, cls, fields, what, ident):
        self.cls, self.fields, self.what, self.ident = cls, dict(fields), what, ident

    def key(self):
        return (id(self.cls), tuple((k, v.key(), type(v).__name__) for k, v in self.fields.items()))

    @property
    def slots(self):
        out = ()
        for v in self.fields.values():
            out += v.slots if hasattr(v, "slots") else ()
        return out

    @property
    def elem(self):
        return None

    #: As the operand of a library implicit array a device class is read through its
    #: __getitem__ (an adapter without stores), so such a composition takes no stores.
    store_slots = None

    def name(self):
        return f"device class {self.cls.__qualname__}"


class NumberField(KType):
    """A number a device class or an implicit array holds: read from an argument slot."""

    __slots__ = ("scalar", "slot")

    def __init__(self, scalar, slot):
        self.scalar, self.slot = scalar, slot

    def key(self):
        return (self.scalar.kind, self.slot)

    @property
    def slots(self):
        return (self.slot,)

    def name(self):
        return self.scalar.name()


class TupleField(KType):
    """A tuple of numbers a device class holds: one slot per entry, a vector in the kernel."""

    __slots__ = ("scalar", "slots_")

    def __init__(self, scalar, slots):
        self.scalar, self.slots_ = scalar, tuple(slots)

    def key(self):
        return (self.scalar.kind, self.slots_)

    @property
    def slots(self):
        return self.slots_

    @property
    def vec(self):
        return Vec(self.scalar, len(self.slots_))

    def name(self):
        return f"tuple of {len(self.slots_)} {self.scalar.name()}"


class ConstT(KType):
    """A compile-time object: a module, a function, a dtype, a class, a constant."""

    __slots__ = ("obj",)

    def __init__(self, obj):
        self.obj = obj

    def key(self):
        return id(self.obj)

    def name(self):
        return f"{type(self.obj).__name__} {getattr(self.obj, '__name__', self.obj)!r}"


class RangeT(KType):
    __slots__ = ()

    def key(self):
        return ()

    def name(self):
        return "range"


# ---- promotion -----------------------------------------------------------------------------------

def promote(a, b):
    """The scalar type of ``a op b`` for two scalar types (NumPy 2's rules, weak Python numbers)."""
    if a == b:
        return a
    if a.weak and b.weak:
        return WFLOAT if WFLOAT in (a, b) else WINT
    if a.weak or b.weak:
        weak, strong = (a, b) if a.weak else (b, a)
        probe = 1.0 if weak.kind == "wfloat" else 1
        return from_numpy(np.result_type(strong.numpy(), probe))
    return from_numpy(np.result_type(a.numpy(), b.numpy()))


def true_divide_type(a, b):
    """The scalar type of ``a / b``: floats stay, integers give float64 (weak: a Python float)."""
    t = promote(a, b)
    if t.is_float:
        return t
    return WFLOAT if t.weak else F64


def from_numpy(dt):
    return Scalar(_BY_NUMPY[np.dtype(dt)])


def math_type(t):
    """The float type a math function returns for `t` (integers: float64, as Python's math)."""
    if t.is_float:
        return t
    return WFLOAT if t.weak else F64
