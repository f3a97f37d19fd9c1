# SPDX-License-Identifier: BSD-3-Clause
"""What kernels call that is not a ``@tack.func``: Python's builtins (``len``, ``abs``, ``min``,
``max``, ``int``, ``float``, ``bool``), ``math`` functions, and tack's intrinsics (``tack.dot``,
``tack.normalize``, ``tack.vec3(...)``, ``tack.identity``, ``tack.atomic_add``, ...). Each handler
takes the lowerer and the call's AST node and returns the C++ expression and its type.
"""

import ast
import math

from . import ktypes as K
from .lower import _RT, cstr, cvt, elem_of_dtype, KernelTypeError

def _args(low, node, n, what):
    if len(node.args) not in (n if isinstance(n, tuple) else (n,)):
        low.refuse(node, f"{what} takes {n} argument(s), got {len(node.args)}")
    return [low.expr(a) for a in node.args]


def _len(low, node):
    (c, t), = _args(low, node, 1, "len()")
    if isinstance(t, K.Vec):
        return f"std::int64_t({t.n})", K.WINT
    if isinstance(t, K.Indexable):
        return low.rows_of(c, t, node), K.I64
    low.refuse(node, f"len() of {t.name()}")


def _abs(low, node):
    (c, t), = _args(low, node, 1, "abs()")
    if isinstance(t, K.Scalar):
        if t.is_bool:
            return c, t
        return f"{_RT}abs<{t.cpp()}>({c})", t
    if K.is_value(t):
        return f"{_RT}map({c}, [](auto x) {{ return {_RT}abs(x); }})", t
    low.refuse(node, f"abs() of {t.name()}")


def _minmax(which):
    def handler(low, node):
        if len(node.args) < 2:
            low.refuse(node, f"{which}() takes two or more values in a kernel")
        vals = [low.value(a) for a in node.args]
        t = low.common([u for _, u in vals], node)
        code = cvt(vals[0][0], vals[0][1], t)
        for c, u in vals[1:]:
            code = f"{_RT}{'minimum' if which == 'min' else 'maximum'}({code}, {cvt(c, u, t)})"
        return code, t
    return handler


def _int(low, node):
    (c, t), = _args(low, node, 1, "int()")
    if not isinstance(t, K.Scalar):
        low.refuse(node, f"int() of {t.name()}")
    return cvt(c, t, K.I64), K.I64


def _float(low, node):
    (c, t), = _args(low, node, 1, "float()")
    if not isinstance(t, K.Scalar):
        low.refuse(node, f"float() of {t.name()}")
    return cvt(c, t, K.F64), K.F64


def _bool(low, node):
    (c, t), = _args(low, node, 1, "bool()")
    return low.truth_of(c, t, node), K.BOOL


def _math1(fn, name):
    def handler(low, node):
        (c, t), = _args(low, node, 1, f"{name}()")
        if isinstance(t, K.Scalar):
            r = K.math_type(t)
            return f"std::{fn}({cvt(c, t, r)})", r
        if isinstance(t, K.Vec):
            r = t.with_scalar(K.math_type(t.scalar)) if not t.scalar.is_float else t
            return f"{_RT}map({cvt(c, t, r)}, [](auto x) {{ return std::{fn}(x); }})", r
        low.refuse(node, f"{name}() of {t.name()}")
    return handler


def _math2(fn, name):
    def handler(low, node):
        (a, at), (b, bt) = _args(low, node, 2, f"{name}()")
        if not (isinstance(at, K.Scalar) and isinstance(bt, K.Scalar)):
            low.refuse(node, f"{name}() takes numbers")
        r = K.math_type(K.promote(at, bt))
        return f"std::{fn}({cvt(a, at, r)}, {cvt(b, bt, r)})", r
    return handler


def _dot(low, node):
    (a, at), (b, bt) = _args(low, node, 2, "tack.dot()")
    if not (isinstance(at, K.Vec) and isinstance(bt, K.Vec) and at.n == bt.n):
        low.refuse(node, f"tack.dot() of {at.name()} and {bt.name()}")
    s = K.promote(at.scalar, bt.scalar)
    return f"tack::dot({cvt(a, at, at.with_scalar(s))}, {cvt(b, bt, bt.with_scalar(s))})", s


def _cross(low, node):
    (a, at), (b, bt) = _args(low, node, 2, "tack.cross()")
    if not (isinstance(at, K.Vec) and isinstance(bt, K.Vec) and at.n == bt.n and at.n in (2, 3)):
        low.refuse(node, f"tack.cross() of {at.name()} and {bt.name()} (2- or 3-vectors)")
    s = K.promote(at.scalar, bt.scalar)
    r = s if at.n == 2 else K.Vec(s, 3)
    return f"tack::cross({cvt(a, at, at.with_scalar(s))}, {cvt(b, bt, bt.with_scalar(s))})", r


def _length(low, node):
    (a, at), = _args(low, node, 1, "tack.length()")
    if not isinstance(at, K.Vec):
        low.refuse(node, f"tack.length() of {at.name()}")
    r = K.math_type(at.scalar)
    return f"tack::norm({cvt(a, at, at.with_scalar(r))})", r


def _normalize(low, node):
    (a, at), = _args(low, node, 1, "tack.normalize()")
    if not isinstance(at, K.Vec):
        low.refuse(node, f"tack.normalize() of {at.name()}")
    r = at.with_scalar(K.math_type(at.scalar))
    return f"tack::normalize({cvt(a, at, r)})", r


def _identity(low, node):
    if not 1 <= len(node.args) <= 2:
        low.refuse(node, "tack.identity(n, dtype=tack.f32)")
    try:
        n = ast.literal_eval(node.args[0])
    except ValueError:
        n = None
    if not isinstance(n, int) or not 1 <= n <= 4:
        low.refuse(node, "tack.identity(n) takes a literal size from 1 to 4")
    s = K.F32
    if len(node.args) == 2:
        _, dt = low.expr(node.args[1])
        if not (isinstance(dt, K.ConstT) and isinstance(dt.obj, low.tack.DType)
                and dt.obj.is_scalar):
            low.refuse(node, "the second argument of tack.identity() is a scalar dtype")
        s = elem_of_dtype(dt.obj)
    t = K.Mat(s, n, n)
    return f"tack::identity<{s.cpp()}, {n}>()", t


def _elem_ctor(n_or_shape):
    def handler(low, node):
        args = node.args
        # tack.vec3(tack.f64) is a dtype (its call then builds values): evaluate on the host
        if len(args) <= 1 and all(_is_dtype_node(low, a) for a in args):
            vals = [low.expr(a)[1].obj for a in args]
            return None, K.ConstT(_ctor_dtype(low.tack, n_or_shape, vals[0] if vals else None))
        if isinstance(n_or_shape, int):
            vals = [low.value(a) for a in args]
            if len(vals) == 1 and isinstance(vals[0][1], K.Vec):
                s = vals[0][1].scalar
            else:
                s = None
                for _, u in vals:
                    if not isinstance(u, K.Scalar):
                        low.refuse(node, f"a component of vec{n_or_shape} is a number")
                    s = u if s is None else K.promote(s, u)
                if s is None or s.weak:
                    s = K.F32 if s is None or s.kind == "wfloat" or s.kind == "wint" else s
            return low.construct(K.Vec(s, n_or_shape), node)
        rows, cols = n_or_shape
        s = None
        for r in args:
            elts = r.elts if isinstance(r, (ast.List, ast.Tuple)) else [r]
            for e in elts:
                _, u = low.value(e)
                u = u if isinstance(u, K.Scalar) else u.scalar
                s = u if s is None else K.promote(s, u)
        if s is None or s.weak:
            s = K.F32
        return low.construct(K.Mat(s, rows, cols), node)
    return handler


def _is_dtype_node(low, a):
    try:
        _, t = low.expr(a)
    except KernelTypeError:
        return False
    return isinstance(t, K.ConstT) and isinstance(t.obj, low.tack.DType)


def _ctor_dtype(tack_mod, shape, scalar):
    if isinstance(shape, int):
        return tack_mod.vec(shape, scalar)
    return tack_mod.mat(shape[0], shape[1], scalar)


def _vec_generic(low, node):
    # tack.vec(n, scalar) -> a dtype, called to build values
    try:
        n = ast.literal_eval(node.args[0])
    except (ValueError, IndexError):
        low.refuse(node, "tack.vec(n, dtype) takes a literal length")
    scalar = low.expr(node.args[1])[1].obj if len(node.args) > 1 else None
    return None, K.ConstT(low.tack.vec(n, scalar))


def _mat_generic(low, node):
    try:
        r, c = ast.literal_eval(node.args[0]), ast.literal_eval(node.args[1])
    except (ValueError, IndexError):
        low.refuse(node, "tack.mat(rows, cols, dtype) takes literal sizes")
    scalar = low.expr(node.args[2])[1].obj if len(node.args) > 2 else None
    return None, K.ConstT(low.tack.mat(r, c, scalar))


def _atomic(kind):
    def handler(low, node):
        if len(node.args) != 3:
            low.refuse(node, f"tack.atomic_{kind}(array, index, value)")
        bc, bt = low.expr(node.args[0])
        if not isinstance(bt, K.ArrayT):
            what = getattr(bt, "what", None) or bt.name()
            low.refuse(node, f"tack.atomic_{kind}: {what} ({bt.name()}) has no storage to update "
                       "atomically (no address, no atomics); pass a stored array")
        ia = node.args[1]
        idx = low.index_codes(ast.Subscript(value=node.args[0], slice=ia, ctx=ast.Load(),
                                            lineno=node.lineno))
        vc, vt = low.value(node.args[2])
        elem = bt.elem
        low.unit.written.setdefault(bt.slot, low.pyf.where(node))
        low.unit.includes.add("tack/exec/atomic.hpp")
        s = K.scalar_of(elem)
        if s.kind not in ("f32", "f64", "i32", "i64", "u32", "u64"):
            low.refuse(node, f"tack.atomic_{kind}: {s.kind} elements have no atomics (32- and "
                       "64-bit integers and floats do)")
        if isinstance(elem, K.Scalar) or not isinstance(vt, K.Scalar):
            ref = low.array_ref(bc, bt, idx, node)
            return f"tack::atomic_{kind}({ref}, {low.value_as(vc, vt, elem, node)})", elem
        # a number into an array of vectors: a flat component index of the interleaved buffer
        if bt.soa:
            low.refuse(node, f"tack.atomic_{kind}: a number at a flat component index of "
                       f"{bt.what}, a structure-of-arrays array (it has no single interleaved "
                       "buffer); update the element with a vector value instead")
        if len(idx) != 1 or bt.ndim != 1:
            low.refuse(node, f"tack.atomic_{kind}: a flat component index takes one index")
        k = cvt(idx[0][0], idx[0][1], K.I64)
        n = K.components(elem)
        if low.unit.debug:
            k = (f"{_RT}check_index({k}, {bc}.size() * {n}, "
                 f"{cstr(bt.what + ' (scalar components)')}, 0)")
        return (f"tack::atomic_{kind}(reinterpret_cast<{s.cpp()}*>({bc}.data())[{k}], "
                f"{cvt(vc, vt, s)})"), s
    return handler


_HANDLERS = None


def handlers(tack_mod):
    """The handlers by the object they stand for (`len`, `math.sqrt`, `tack.dot`, ...)."""
    global _HANDLERS
    if _HANDLERS is not None:
        return _HANDLERS
    h = {
        len: _len, abs: _abs, min: _minmax("min"), max: _minmax("max"), int: _int,
        float: _float, bool: _bool,
        math.sqrt: _math1("sqrt", "sqrt"), math.exp: _math1("exp", "exp"),
        math.log: _math1("log", "log"), math.sin: _math1("sin", "sin"),
        math.cos: _math1("cos", "cos"), math.tan: _math1("tan", "tan"),
        math.atan: _math1("atan", "atan"), math.asin: _math1("asin", "asin"),
        math.acos: _math1("acos", "acos"), math.floor: _math1("floor", "floor"),
        math.ceil: _math1("ceil", "ceil"), math.fabs: _math1("fabs", "fabs"),
        math.tanh: _math1("tanh", "tanh"), math.log2: _math1("log2", "log2"),
        math.log10: _math1("log10", "log10"), math.exp2 if hasattr(math, "exp2") else None:
            _math1("exp2", "exp2"),
        math.atan2: _math2("atan2", "atan2"), math.pow: _math2("pow", "pow"),
        math.fmod: _math2("fmod", "fmod"), math.hypot: _math2("hypot", "hypot"),
        math.copysign: _math2("copysign", "copysign"),
        tack_mod.sqrt: _math1("sqrt", "tack.sqrt"), tack_mod.exp: _math1("exp", "tack.exp"),
        tack_mod.log: _math1("log", "tack.log"), tack_mod.sin: _math1("sin", "tack.sin"),
        tack_mod.cos: _math1("cos", "tack.cos"), tack_mod.abs: _abs,
        tack_mod.minimum: _minmax("min"), tack_mod.maximum: _minmax("max"),
        tack_mod.dot: _dot, tack_mod.cross: _cross, tack_mod.length: _length,
        tack_mod.normalize: _normalize, tack_mod.identity: _identity,
        tack_mod.vec2: _elem_ctor(2), tack_mod.vec3: _elem_ctor(3), tack_mod.vec4: _elem_ctor(4),
        tack_mod.mat2: _elem_ctor((2, 2)), tack_mod.mat3: _elem_ctor((3, 3)),
        tack_mod.mat4: _elem_ctor((4, 4)), tack_mod.vec: _vec_generic, tack_mod.mat: _mat_generic,
        tack_mod.atomic_add: _atomic("add"), tack_mod.atomic_min: _atomic("min"),
        tack_mod.atomic_max: _atomic("max"),
    }
    h.pop(None, None)
    _HANDLERS = h
    return h
