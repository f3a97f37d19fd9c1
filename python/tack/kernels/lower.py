# SPDX-License-Identifier: BSD-3-Clause
"""Lowering of Python kernels to C++ over tack's headers.

A ``@tack.kernel`` function is parsed with ``ast``, typed from the launch's arguments and written
out as C++: stored arrays become ``tack::view``/``tack::soa_view`` kernel views, library implicit
arrays their ``tack::arrays`` compositions, device classes generated structs whose indexing calls
their ``__getitem__``/``__setitem__``/``__len__``, and ``@tack.func`` functions inline functions
specialized per argument types. Python's operator semantics come from ``tack/pykernel/runtime.hpp``.

Every refusal is a ``TypeError`` naming the source file and line of the construct.
"""

import ast
import builtins
import inspect
import math
import textwrap

import numpy as np

from . import ktypes as K

_INDEX_CPP = "tack::index_t"
_RT = "tack::pykernel::"


class KernelTypeError(TypeError):
    """A construct a kernel cannot compile (a subclass of TypeError)."""


# ---- Python functions: source, AST, globals ------------------------------------------------------

class PyFunction:
    """The parsed source of a Python function (cached on the function object's wrapper)."""

    def __init__(self, fn):
        self.fn = fn
        self.name = fn.__name__
        self.qualname = fn.__qualname__
        try:
            lines, first = inspect.getsourcelines(fn)
        except (OSError, TypeError) as e:
            raise KernelTypeError(
                f"tack: the source of {fn.__qualname__!r} cannot be read ({e}); kernels and "
                "device functions must be defined in a file") from None
        self.source = textwrap.dedent("".join(lines))
        self.first_line = first
        self.filename = fn.__code__.co_filename
        tree = ast.parse(self.source)
        defs = [n for n in tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]
        if not defs or isinstance(defs[0], ast.AsyncFunctionDef):
            raise KernelTypeError(f"{self.where_line(1)}: {fn.__qualname__!r} is not a plain "
                                  "function definition")
        self.tree = defs[0]
        a = self.tree.args
        if a.vararg or a.kwarg or a.kwonlyargs or a.posonlyargs or a.defaults:
            raise KernelTypeError(f"{self.where(self.tree)}: {self.qualname}: kernels and device "
                                  "functions take plain positional parameters (no *args, "
                                  "**kwargs, keyword-only parameters or defaults)")
        self.params = [p.arg for p in a.args]

    def where_line(self, lineno):
        return f"{self.filename}:{self.first_line + lineno - 1}"

    def where(self, node):
        return self.where_line(getattr(node, "lineno", 1))

    def resolve(self, name):
        """The object a free name of the function refers to (closure, globals, builtins)."""
        fn = self.fn
        code = fn.__code__
        if fn.__closure__ and name in code.co_freevars:
            cell = fn.__closure__[code.co_freevars.index(name)]
            try:
                return True, cell.cell_contents
            except ValueError:
                return False, None
        if name in fn.__globals__:
            return True, fn.__globals__[name]
        if hasattr(builtins, name):
            return True, getattr(builtins, name)
        return False, None


# ---- the translation unit -----------------------------------------------------------------------

class Unit:
    """One generated C++ source: device-class structs, function specializations, the entry."""

    def __init__(self, debug):
        self.debug = debug
        self.includes = {"tack/pykernel/runtime.hpp"}
        self.structs = {}        # ClassT key -> struct name
        self.struct_code = []
        self.funcs = {}          # (id(py fn), arg type keys) -> FuncSpec
        self.func_code = []
        self.functors = {}       # key -> functor struct name
        self.in_progress = []    # (id(py fn)) chain, for recursion
        self.written = {}        # argument slot the kernel stores into -> where (file:line)
        self.counter = 0
        self.sources = []        # (qualname, source) of every Python function lowered
        self.tack = None         # the tack module (dtypes and intrinsics are recognized by it)
        self.functions = set()   # (module, qualname) of every Python function lowered

    def fresh(self, stem):
        self.counter += 1
        return f"{stem}_{self.counter}"

    def note_source(self, pyf):
        item = (pyf.qualname, pyf.filename, pyf.source)
        if item not in self.sources:
            self.sources.append(item)
        self.functions.add((pyf.fn.__module__, pyf.qualname))


class FuncSpec:
    __slots__ = ("name", "ret")

    def __init__(self, name, ret):
        self.name, self.ret = name, ret


def cstr(s):
    """A C string literal of `s`."""
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def cvt(code, src, dst):
    """`code` of type `src` converted to value type `dst`."""
    if src == dst:
        return code
    if isinstance(src, K.Scalar) and isinstance(dst, K.Scalar) and src.cpp() == dst.cpp():
        return code
    return f"{_RT}cvt<{dst.cpp()}>({code})"


# ---- element types from tack dtypes --------------------------------------------------------------

def elem_of_dtype(d):
    """The kernel type of a tack DType."""
    scalar = K.Scalar(K.TACK_NAMES[d.scalar.name])
    if d.is_scalar:
        return scalar
    if d.is_vector:
        return K.Vec(scalar, d.shape[0])
    return K.Mat(scalar, d.shape[0], d.shape[1])


# ---- lowering of one function ------------------------------------------------------------------

class Lowerer:
    """Lowers one Python function (a kernel body or a ``@tack.func`` specialization)."""

    def __init__(self, unit, pyf, param_types, is_kernel, tack_mod):
        self.unit, self.pyf, self.is_kernel, self.tack = unit, pyf, is_kernel, tack_mod
        self.vars = {}        # name -> (cpp name, type)
        self.decls = {}       # cpp name -> type (hoisted declarations)
        self.aliases = {}     # name -> (code, type) for array-like locals
        self.lines = []
        self.indent = 1
        self.returns = []     # types of `return value` statements
        self.loop_depth = 0
        self.params = []      # (cpp name, type)
        for name, t in zip(pyf.params, param_types):
            if isinstance(t, K.NumberField):
                t = t.scalar
            elif isinstance(t, K.TupleField):
                t = t.vec
            cname = f"p_{name}"
            self.params.append((cname, t))
            self.vars[name] = (cname, t)

    # -- errors
    def refuse(self, node, msg):
        raise KernelTypeError(f"{self.pyf.where(node)}: in {self.pyf.qualname!r}: {msg}")

    def emit(self, line):
        self.lines.append("  " * self.indent + line)

    # -- statements
    def body(self, stmts):
        for s in stmts:
            self.stmt(s)

    def stmt(self, s):
        m = getattr(self, "s_" + type(s).__name__, None)
        if m is None:
            self.refuse(s, f"the statement '{type(s).__name__}' is not supported in kernels "
                        "(supported: assignments, if, for ... in range, while, break, continue, "
                        "return, pass and calls)")
        m(s)

    def s_Pass(self, s):
        pass

    def s_Expr(self, s):
        if isinstance(s.value, ast.Constant) and isinstance(s.value.value, str):
            return  # a docstring
        code, _ = self.expr(s.value, allow_void=True)
        self.emit(code + ";")

    def s_Break(self, s):
        if not self.loop_depth:
            self.refuse(s, "'break' outside a loop")
        self.emit("break;")

    def s_Continue(self, s):
        if not self.loop_depth:
            self.refuse(s, "'continue' outside a loop")
        self.emit("continue;")

    def s_Return(self, s):
        if s.value is None:
            if self.returns and any(t is not None for t in self.returns):
                self.refuse(s, "a function returns a value on one path and nothing on another")
            self.returns.append(None)
            self.emit("return;")
            return
        if self.is_kernel:
            self.refuse(s, "a kernel returns no value; store results into an array")
        code, t = self.expr(s.value)
        if not K.is_value(t):
            self.refuse(s, f"a device function returns numbers, vectors or matrices, not {t.name()}")
        if None in self.returns:
            self.refuse(s, "a function returns a value on one path and nothing on another")
        self.returns.append(t)
        # the conversion to the function's return type is filled in once every return is seen
        self.emit(f"return @RET{len(self.returns) - 1}@({code});")

    def s_If(self, s):
        cond = self.truth(s.test)
        self.emit(f"if ({cond}) {{")
        self.indent += 1
        self.body(s.body)
        self.indent -= 1
        if s.orelse:
            self.emit("} else {")
            self.indent += 1
            self.body(s.orelse)
            self.indent -= 1
        self.emit("}")

    def s_While(self, s):
        if s.orelse:
            self.refuse(s, "'while ... else' is not supported")
        self.emit("while (true) {")
        self.indent += 1
        cond = self.truth(s.test)
        self.emit(f"if (!({cond})) break;")
        self.loop_depth += 1
        self.body(s.body)
        self.loop_depth -= 1
        self.indent -= 1
        self.emit("}")

    def s_For(self, s):
        if s.orelse:
            self.refuse(s, "'for ... else' is not supported")
        it = s.iter
        ok, fn = (self.pyf.resolve(it.func.id) if isinstance(it, ast.Call) and
                  isinstance(it.func, ast.Name) and it.func.id not in self.vars else (False, None))
        if not (ok and fn is range) or it.keywords:
            self.refuse(s, "a kernel loops with 'for name in range(...)' only")
        if not isinstance(s.target, ast.Name):
            self.refuse(s, "the loop variable of 'for ... in range' is one name")
        args = [self.expr(a) for a in it.args]
        if not 1 <= len(args) <= 3:
            self.refuse(s, "range() takes 1 to 3 arguments")
        for (c, t), a in zip(args, it.args):
            if not isinstance(t, K.Scalar) or not (t.is_int or t.is_bool):
                self.refuse(a, f"range() takes integers, not {t.name()}")
        t = args[0][1]
        for _, u in args[1:]:
            t = K.promote(t, u)
        t = t.strong() if t.kind != "bool" else K.I64
        if len(args) == 1:
            start, stop, step = ("0", t), args[0], ("1", t)
        elif len(args) == 2:
            start, stop, step = args[0], args[1], ("1", t)
        else:
            start, stop, step = args
        var = self.assign_name(s.target, None, t, declare_only=True)
        lo = self.unit.fresh("stop")
        st = self.unit.fresh("step")
        ctr = self.unit.fresh("it")  # the body may rebind the loop variable, as in Python
        ct = t.cpp()
        self.emit("{")
        self.indent += 1
        self.emit(f"const {ct} {lo} = {cvt(stop[0], stop[1], t)};")
        self.emit(f"const {ct} {st} = {cvt(step[0], step[1], t)};")
        const_step = len(args) < 3 or (isinstance(it.args[2], ast.Constant)) or (
            isinstance(it.args[2], ast.UnaryOp) and isinstance(it.args[2].operand, ast.Constant))
        if const_step:
            step_value = 1 if len(args) < 3 else ast.literal_eval(it.args[2])
            if step_value == 0:
                self.refuse(s, "range() step must not be zero")
            cmp = f"{ctr} < {lo}" if step_value > 0 else f"{ctr} > {lo}"
        else:
            cmp = f"({st} > 0 ? {ctr} < {lo} : {ctr} > {lo})"
        self.emit(f"for ({ct} {ctr} = {cvt(start[0], start[1], t)}; {cmp}; "
                  f"{ctr} = {_RT}add<{ct}>({ctr}, {st})) {{")
        self.indent += 1
        self.emit(f"{var} = {ctr};")
        self.loop_depth += 1
        self.body(s.body)
        self.loop_depth -= 1
        self.indent -= 1
        self.emit("}")
        self.indent -= 1
        self.emit("}")

    def s_Assign(self, s):
        if len(s.targets) != 1:
            self.refuse(s, "chained assignment (a = b = ...) is not supported")
        target = s.targets[0]
        if isinstance(target, (ast.Tuple, ast.List)):
            self.unpack(target, s.value, s)
            return
        if isinstance(target, ast.Subscript):
            code, t = self.expr(s.value)
            self.store(target, code, t)
            return
        if isinstance(target, ast.Name):
            code, t = self.expr(s.value)
            self.assign_name(target, code, t)
            return
        if isinstance(target, ast.Attribute):
            self.refuse(s, "a kernel does not assign attributes; device-class attributes are "
                        "read-only inside kernels")
        self.refuse(s, "unsupported assignment target")

    def unpack(self, target, value, node):
        names = target.elts
        if isinstance(value, (ast.Tuple, ast.List)):
            if len(value.elts) != len(names):
                self.refuse(node, f"unpacking {len(value.elts)} values into {len(names)} names")
            vals = [self.expr(v) for v in value.elts]
            temps = []
            for code, t in vals:
                if not K.is_value(t):
                    self.refuse(node, "only numbers, vectors and matrices are unpacked")
                tmp = self.unit.fresh("tmp")
                self.emit(f"const {t.strong().cpp() if isinstance(t, K.Scalar) else t.cpp()} "
                          f"{tmp} = {cvt(code, t, t.strong()) if isinstance(t, K.Scalar) else code};")
                temps.append((tmp, t.strong() if isinstance(t, K.Scalar) else t))
            for n, (tmp, t) in zip(names, temps):
                self.assign_target(n, tmp, t, node)
            return
        code, t = self.expr(value)
        if not isinstance(t, K.Vec) or t.n != len(names):
            self.refuse(node, f"unpacking {t.name()} into {len(names)} names")
        tmp = self.unit.fresh("tmp")
        self.emit(f"const {t.cpp()} {tmp} = {code};")
        for c, n in enumerate(names):
            self.assign_target(n, f"{tmp}[{c}]", t.scalar, node)

    def assign_target(self, target, code, t, node):
        if isinstance(target, ast.Name):
            self.assign_name(target, code, t)
        elif isinstance(target, ast.Subscript):
            self.store(target, code, t)
        else:
            self.refuse(node, "unsupported assignment target")

    def assign_name(self, target, code, t, declare_only=False):
        name = target.id
        if name in self.aliases or (name in self.vars and not K.is_value(self.vars[name][1])):
            self.refuse(target, f"'{name}' names an array; it cannot be assigned")
        if not K.is_value(t):
            if isinstance(t, K.Indexable):
                if t.soa:
                    self.refuse(target, f"a structure-of-arrays array cannot be bound to another "
                                f"name ('{name}'); index it, or pass it to a device function")
                if name in self.vars:
                    self.refuse(target, f"'{name}' holds a value; it cannot name an array")
                self.aliases[name] = (code, t)
                return None
            self.refuse(target, f"a variable holds a number, a vector or a matrix, not {t.name()}")
        if name in self.vars:
            cname, vt = self.vars[name]
            if name in self.pyf.params and not self.is_param_value(name):
                self.refuse(target, f"'{name}' is a parameter of another kind")
            weak_fits = (isinstance(t, K.Scalar) and t.weak and isinstance(vt, K.Scalar) and
                         not vt.is_bool and (t.kind == "wint" or vt.is_float))
            if vt != t and not weak_fits:
                if not (isinstance(vt, K.Scalar) and vt.weak):
                    self.refuse(target, f"variable '{name}' changes type from {vt.name()} to "
                                f"{t.name()}; a variable keeps the type of its first assignment "
                                "(convert explicitly, e.g. float(x), or start it as 0.0)")
                self.refuse(target, f"parameter '{name}' (a Python number) cannot be reassigned "
                            f"a {t.name()}")
            if code is not None:
                self.emit(f"{cname} = {cvt(code, t, vt)};")
            return cname
        vt = t.strong() if isinstance(t, K.Scalar) else t
        cname = f"v_{name}"
        self.vars[name] = (cname, vt)
        self.decls[cname] = vt
        if code is not None:
            self.emit(f"{cname} = {cvt(code, t, vt)};")
        return cname

    def is_param_value(self, name):
        return K.is_value(self.vars[name][1])

    def s_AugAssign(self, s):
        op = type(s.op)
        if isinstance(s.target, ast.Name):
            name = s.target.id
            if name not in self.vars:
                self.refuse(s, f"'{name}' is used before it is assigned")
            cname, vt = self.vars[name]
            if not K.is_value(vt):
                self.refuse(s, f"'{name}' names an array; index it to update elements")
            vcode, vtype = self.expr(s.value)
            code, t = self.binop(op, (cname, vt), (vcode, vtype), s)
            self.assign_name(s.target, code, t)
            return
        if isinstance(s.target, ast.Subscript):
            self.aug_store(s.target, op, s.value, s)
            return
        self.refuse(s, "unsupported target of an augmented assignment")

    # -- truth values
    def truth(self, node):
        code, t = self.expr(node)
        return self.truth_of(code, t, node)

    def truth_of(self, code, t, node):
        if t == K.BOOL:
            return code
        if isinstance(t, K.Scalar):
            return f"{_RT}truth({code})"
        self.refuse(node, f"the truth value of {t.name()} is ambiguous")

    # -- expressions
    def expr(self, node, allow_void=False):
        m = getattr(self, "e_" + type(node).__name__, None)
        if m is None:
            self.refuse(node, f"the expression '{type(node).__name__}' is not supported in "
                        "kernels")
        code, t = m(node)
        if t is None and not allow_void:
            self.refuse(node, "this call returns no value")
        return code, t

    def value(self, node):
        code, t = self.expr(node)
        if not K.is_value(t):
            self.refuse(node, f"expected a number, a vector or a matrix, got {t.name()}")
        return code, t

    def e_Constant(self, node):
        return self.constant(node.value, node)

    def constant(self, v, node):
        if isinstance(v, np.generic) and np.dtype(v.dtype) in K._BY_NUMPY:
            t = K.from_numpy(v.dtype)  # NumPy scalars are strong, np.float64 included
            code, _ = self.constant(v.item(), node)
            return cvt(code, K.WFLOAT if t.is_float else K.BOOL if t.is_bool else K.WINT, t), t
        if isinstance(v, bool):
            return ("true" if v else "false"), K.BOOL
        if isinstance(v, int):
            if not -(2 ** 63) <= v < 2 ** 63:
                self.refuse(node, f"the integer {v} does not fit in 64 bits")
            if v == -(2 ** 63):
                return "(std::int64_t(-9223372036854775807) - 1)", K.WINT
            return f"std::int64_t({v})", K.WINT
        if isinstance(v, float):
            return float_literal(v), K.WFLOAT
        if isinstance(v, tuple) and v and all(isinstance(x, (int, float)) and not isinstance(
                x, bool) for x in v):
            items = [self.constant(x, node) for x in v]
            t = items[0][1]
            for _, u in items[1:]:
                t = K.promote(t, u)
            vt = K.Vec(t, len(items))
            return f"{vt.cpp()}{{{', '.join(cvt(c, u, vt.scalar) for c, u in items)}}}", vt
        return None, K.ConstT(v)

    def e_Name(self, node):
        name = node.id
        if name in self.aliases:
            return self.aliases[name]
        if name in self.vars:
            return self.vars[name]
        ok, obj = self.pyf.resolve(name)
        if not ok:
            self.refuse(node, f"name '{name}' is not defined (or is used before it is assigned)")
        code, t = self.constant(obj, node)
        if code is None and isinstance(obj, (int, float)):
            self.refuse(node, f"the global '{name}' cannot be used in a kernel")
        return code, t

    def e_Tuple(self, node):
        vals = [self.value(e) for e in node.elts]
        if not vals or not all(isinstance(t, K.Scalar) for _, t in vals):
            self.refuse(node, "a tuple in a kernel holds numbers (it becomes a vector)")
        t = vals[0][1]
        for _, u in vals[1:]:
            t = K.promote(t, u)
        vt = K.Vec(t, len(vals))
        return f"{vt.cpp()}{{{', '.join(cvt(c, u, vt.scalar) for c, u in vals)}}}", vt

    def e_Attribute(self, node):
        base_code, bt = self.expr(node.value)
        attr = node.attr
        if isinstance(bt, K.ConstT):
            obj = bt.obj
            if not hasattr(obj, attr):
                self.refuse(node, f"{getattr(obj, '__name__', obj)!r} has no attribute '{attr}'")
            value = getattr(obj, attr)
            code, t = self.constant(value, node)
            return code, t
        if isinstance(bt, K.ClassT):
            if attr in bt.fields:
                ft = bt.fields[attr]
                code = f"{base_code}.{attr}"
                if isinstance(ft, K.NumberField):
                    return code, ft.scalar
                if isinstance(ft, K.TupleField):
                    return code, ft.vec
                return code, ft
            if hasattr(bt.cls, attr):
                value = inspect.getattr_static(bt.cls, attr)
                code, t = self.constant(value, node)
                if code is None and not isinstance(t, K.ConstT):
                    self.refuse(node, f"class attribute '{attr}' cannot be used in a kernel")
                return code, t
            self.refuse(node, f"{bt.name()} has no attribute '{attr}'")
        if isinstance(bt, K.Indexable):
            if attr == "shape":
                return self.shape_of(base_code, bt, node)
            if attr == "ndim":
                return f"std::int64_t({bt.ndim})", K.WINT
            if attr == "size":
                return self.size_of(base_code, bt, node), K.I64
            self.refuse(node, f"{bt.name()} has no attribute '{attr}' in a kernel (shape, size "
                        "and ndim are available)")
        if isinstance(bt, K.Vec) and attr in "xyzw" and len(attr) == 1:
            c = "xyzw".index(attr)
            if c >= bt.n:
                self.refuse(node, f"{bt.name()} has no component '{attr}'")
            return f"{base_code}[{c}]", bt.scalar
        if isinstance(bt, K.Mat) and attr == "T":
            return f"tack::transpose({base_code})", K.Mat(bt.scalar, bt.cols, bt.rows)
        self.refuse(node, f"{bt.name()} has no attribute '{attr}'")

    def shape_of(self, code, t, node):
        if isinstance(t, K.ArrayT):
            items = ", ".join(f"{code}.extent({d})" for d in range(t.ndim))
            vt = K.Vec(K.I64, t.ndim)
            return f"{vt.cpp()}{{{items}}}", vt
        if isinstance(t, K.ImplicitT):
            return f"tack::vec<std::int64_t, 1>{{{code}.size()}}", K.Vec(K.I64, 1)
        self.refuse(node, f"{t.name()} has no shape")

    def size_of(self, code, t, node):
        if isinstance(t, (K.ArrayT, K.ImplicitT)):
            return f"{code}.size()"
        self.refuse(node, f"{t.name()} has no size")

    def rows_of(self, code, t, node):
        """len(a): the first extent."""
        if isinstance(t, K.ArrayT):
            return f"{code}.extent(0)"
        if isinstance(t, K.ImplicitT):
            return f"{code}.size()"
        if isinstance(t, K.ClassT):
            c, rt = self.method_call(code, t, "__len__", [], node, "len()")
            return cvt(c, rt, K.I64)
        self.refuse(node, f"len() of {t.name()}")

    # -- operators
    def e_BinOp(self, node):
        a = self.value(node.left)
        b = self.value(node.right)
        return self.binop(type(node.op), a, b, node)

    def binop(self, op, a, b, node):
        (ac, at), (bc, bt) = a, b
        sym = _BINOPS.get(op)
        if sym is None:
            self.refuse(node, f"the operator '{op.__name__}' is not supported")
        if isinstance(at, K.Scalar) and isinstance(bt, K.Scalar):
            return self.scalar_binop(op, ac, at, bc, bt, node)
        return self.element_binop(op, ac, at, bc, bt, node)

    def scalar_binop(self, op, ac, at, bc, bt, node):
        if at.is_bool and bt.is_bool and op not in (ast.BitAnd, ast.BitOr, ast.BitXor):
            self.refuse(node, "arithmetic on two booleans is not supported; use 'and'/'or' or "
                        "convert with int()")
        if op is ast.Div:
            t = K.true_divide_type(at, bt)
            ct = t.cpp()
            return f"({cvt(ac, at, t)} / {cvt(bc, bt, t)})", t
        t = K.promote(at, bt)
        ct = t.cpp()
        x, y = cvt(ac, at, t), cvt(bc, bt, t)
        if op in (ast.BitAnd, ast.BitOr, ast.BitXor, ast.LShift, ast.RShift):
            if t.is_float:
                self.refuse(node, f"bitwise operators take integers, not {t.name()}")
            if op is ast.LShift:
                return f"{_RT}lshift<{ct}>({x}, {y})", t
            if op is ast.RShift:
                return f"{_RT}rshift<{ct}>({x}, {y})", t
            return f"{ct}({x} {_BINOPS[op]} {y})", t
        if op is ast.MatMult:
            self.refuse(node, "'@' multiplies matrices and vectors")
        fn = _SCALAR_FN[op]
        return f"{_RT}{fn}<{ct}>({x}, {y})", t

    def element_binop(self, op, ac, at, bc, bt, node):
        sa, sb = K.scalar_of(at), K.scalar_of(bt)
        if op is ast.Div:
            s = K.true_divide_type(sa, sb).strong()
        else:
            s = K.promote(sa, sb).strong()
        if op not in (ast.Add, ast.Sub, ast.Mult, ast.Div, ast.MatMult):
            self.refuse(node, f"the operator '{_BINOPS[op]}' is not defined for {at.name()} and "
                        f"{bt.name()} (vectors and matrices take + - * / and @)")
        x = self.to_scalar_type(ac, at, s)
        y = self.to_scalar_type(bc, bt, s)
        at2, bt2 = K.with_scalar(at, s), K.with_scalar(bt, s)
        mat_product = op is ast.MatMult or (op is ast.Mult and isinstance(at, K.Mat) and
                                            isinstance(bt, (K.Mat, K.Vec)))
        if mat_product:
            if isinstance(at, K.Mat) and isinstance(bt, K.Vec):
                if at.cols != bt.n:
                    self.refuse(node, f"{at.name()} times {bt.name()}: the sizes do not match")
                return f"({x} * {y})", K.Vec(s, at.rows)
            if isinstance(at, K.Mat) and isinstance(bt, K.Mat):
                if at.cols != bt.rows:
                    self.refuse(node, f"{at.name()} times {bt.name()}: the sizes do not match")
                return f"({x} * {y})", K.Mat(s, at.rows, bt.cols)
            self.refuse(node, f"'@' of {at.name()} and {bt.name()}")
        if isinstance(at, K.Scalar) or isinstance(bt, K.Scalar):
            t = bt2 if isinstance(at, K.Scalar) else at2
            if isinstance(t, K.Mat) and op is ast.Div and isinstance(at, K.Scalar):
                self.refuse(node, "a number divided by a matrix is not defined")
            return f"({x} {_BINOPS[op]} {y})", t
        if type(at) is not type(bt) or at.key()[1:] != bt.key()[1:]:
            self.refuse(node, f"'{_BINOPS[op]}' of {at.name()} and {bt.name()}: the shapes differ")
        if isinstance(at, K.Mat) and op in (ast.Div,):
            self.refuse(node, "matrices are not divided component by component")
        return f"({x} {_BINOPS[op]} {y})", at2

    def to_scalar_type(self, code, t, s):
        if isinstance(t, K.Scalar):
            return cvt(code, t, s)
        return cvt(code, t, K.with_scalar(t, s))

    def e_UnaryOp(self, node):
        if isinstance(node.op, ast.Not):
            return f"(!{self.truth(node.operand)})", K.BOOL
        code, t = self.value(node.operand)
        if isinstance(node.op, ast.UAdd):
            return code, t
        if isinstance(node.op, ast.USub):
            if isinstance(t, K.Scalar):
                if t.is_bool:
                    self.refuse(node, "negating a boolean is not supported; use 'not'")
                return f"{_RT}neg<{t.cpp()}>({code})", t
            return f"(-{code})", t
        if isinstance(node.op, ast.Invert):
            if isinstance(t, K.Scalar) and t.is_bool:
                return f"(!{code})", t
            if isinstance(t, K.Scalar) and t.is_int:
                return f"{t.cpp()}(~{code})", t
            self.refuse(node, f"'~' of {t.name()}")
        self.refuse(node, "unsupported unary operator")

    def e_BoolOp(self, node):
        vals = [self.expr(v) for v in node.values]
        sym = "&&" if isinstance(node.op, ast.And) else "||"
        if all(t == K.BOOL for _, t in vals):
            return "(" + f" {sym} ".join(c for c, _ in vals) + ")", K.BOOL
        # Python returns one of the operands: they share one type here.
        ts = [t for _, t in vals]
        if not all(isinstance(t, K.Scalar) for t in ts):
            self.refuse(node, "'and'/'or' of values that are not numbers")
        t = ts[0]
        for u in ts[1:]:
            t = K.promote(t, u)
        ct = t.cpp()
        # Each later operand is evaluated only when the earlier ones did not decide.
        parts = []
        for i, (c, u) in enumerate(vals[:-1]):
            cond = f"{_RT}truth(t_)"
            cond = f"!{cond}" if sym == "&&" else cond
            parts.append(f"t_ = {cvt(c, u, t)}; if ({cond}) return t_;")
        last = cvt(vals[-1][0], vals[-1][1], t)
        return f"[&]() -> {ct} {{ {ct} t_{{}}; {' '.join(parts)} return {last}; }}()", t

    def e_Compare(self, node):
        operands = [node.left] + list(node.comparators)
        vals = [self.value(o) for o in operands]
        if len(node.ops) == 1:
            return self.compare(node.ops[0], vals[0], vals[1], node), K.BOOL
        # a < b < c: each operand evaluated once, later comparisons only when earlier ones held
        body = []
        names = []
        for i, (c, t) in enumerate(vals):
            nm = f"c{i}_"
            names.append((nm, t))
        body.append(f"const auto {names[0][0]} = {vals[0][0]};")
        for i, op in enumerate(node.ops):
            body.append(f"const auto {names[i + 1][0]} = {vals[i + 1][0]};")
            test = self.compare(op, names[i], names[i + 1], node)
            body.append(f"if (!({test})) return false;")
        return "[&]() -> bool { " + " ".join(body) + " return true; }()", K.BOOL

    def compare(self, op, a, b, node):
        (ac, at), (bc, bt) = a, b
        sym = _CMPOPS.get(type(op))
        if sym is None:
            self.refuse(node, f"the comparison '{type(op).__name__}' is not supported")
        if isinstance(at, K.Scalar) and isinstance(bt, K.Scalar):
            if at.is_int and bt.is_int and at.is_unsigned != bt.is_unsigned:
                # NumPy compares integers of mixed signedness exactly (not through float64)
                fn = {"<": "cmp_less", "<=": "cmp_less_equal", ">": "cmp_greater",
                      ">=": "cmp_greater_equal", "==": "cmp_equal", "!=": "cmp_not_equal"}[sym]
                return f"std::{fn}({ac}, {bc})"
            t = K.promote(at, bt)
            return f"({cvt(ac, at, t)} {sym} {cvt(bc, bt, t)})"
        if sym in ("==", "!=") and type(at) is type(bt) and at.key()[1:] == bt.key()[1:]:
            s = K.promote(K.scalar_of(at), K.scalar_of(bt))
            x = self.to_scalar_type(ac, at, s)
            y = self.to_scalar_type(bc, bt, s)
            return f"({x} {sym} {y})"
        self.refuse(node, f"'{sym}' of {at.name()} and {bt.name()}")

    def e_IfExp(self, node):
        cond = self.truth(node.test)
        a = self.value(node.body)
        b = self.value(node.orelse)
        t = self.common([a[1], b[1]], node)
        return f"({cond} ? {cvt(a[0], a[1], t)} : {cvt(b[0], b[1], t)})", t

    def common(self, ts, node):
        if all(isinstance(t, K.Scalar) for t in ts):
            t = ts[0]
            for u in ts[1:]:
                t = K.promote(t, u)
            return t
        if all(type(t) is type(ts[0]) and t.key()[1:] == ts[0].key()[1:] for t in ts):
            s = ts[0].scalar
            for u in ts[1:]:
                s = K.promote(s, u.scalar)
            return K.with_scalar(ts[0], s)
        self.refuse(node, "the values have different shapes: " + ", ".join(t.name() for t in ts))

    # -- indexing
    def index_codes(self, node):
        """The index expressions of a subscript, as (code, type) each."""
        sl = node.slice
        elts = sl.elts if isinstance(sl, ast.Tuple) else [sl]
        out = []
        for e in elts:
            if isinstance(e, ast.Slice):
                self.refuse(e, "slices are not supported inside kernels; pass a row view "
                            "(a[i:j]) as an argument instead")
            c, t = self.value(e)
            if isinstance(t, K.Vec) and len(elts) == 1 and t.scalar.is_int:
                out.extend((f"{c}[{k}]", t.scalar) for k in range(t.n))
                continue
            if not isinstance(t, K.Scalar) or not (t.is_int or t.is_bool):
                self.refuse(e, f"an index is an integer, not {t.name()}")
            out.append((c, t))
        return out

    def array_ref(self, code, t, idx, node):
        """The C++ element reference `a[i]` / `a(i, j)` of a stored or implicit array."""
        if len(idx) != t.ndim:
            self.refuse(node, f"{t.what} has {t.ndim} dimension(s) and is indexed with "
                        f"{len(idx)} index(es); give one index per dimension (a[i, j])")
        codes = []
        for d, (c, it) in enumerate(idx):
            c = cvt(c, it, K.I64)
            if self.unit.debug:
                extent = f"{code}.extent({d})" if isinstance(t, K.ArrayT) else f"{code}.size()"
                c = f"{_RT}check_index({c}, {extent}, {cstr(t.what)}, {d})"
            codes.append(c)
        if len(codes) == 1:
            return f"{code}[{codes[0]}]"
        return f"{code}({', '.join(codes)})"

    def e_Subscript(self, node):
        base_code, bt = self.expr(node.value)
        if isinstance(bt, (K.ArrayT, K.ImplicitT)):
            idx = self.index_codes(node)
            ref = self.array_ref(base_code, bt, idx, node)
            return f"static_cast<{bt.elem.cpp()}>({ref})", bt.elem
        if isinstance(bt, K.ClassT):
            arg = self.class_index(node)
            return self.method_call(base_code, bt, "__getitem__", [arg], node, "indexing")
        if isinstance(bt, K.Vec):
            (c, it), = self.single_index(node)
            return f"{base_code}[int({c})]", bt.scalar
        if isinstance(bt, K.Mat):
            idx = self.index_codes(node)
            if len(idx) == 2:
                return f"{base_code}(int({idx[0][0]}), int({idx[1][0]}))", bt.scalar
            if len(idx) == 1:
                return f"{base_code}[int({idx[0][0]})]", K.Vec(bt.scalar, bt.cols)
        self.refuse(node, f"{bt.name()} cannot be indexed")

    def single_index(self, node):
        idx = self.index_codes(node)
        if len(idx) != 1:
            self.refuse(node, "a vector takes one index")
        return idx

    def class_index(self, node):
        """The argument `__getitem__`/`__setitem__` receive: one index, or a vector of several."""
        sl = node.slice
        if isinstance(sl, ast.Tuple):
            vals = [self.value(e) for e in sl.elts]
            t = vals[0][1]
            for _, u in vals[1:]:
                t = K.promote(t, u)
            t = t.strong()
            vt = K.Vec(t, len(vals))
            return f"{vt.cpp()}{{{', '.join(cvt(c, u, t) for c, u in vals)}}}", vt
        return self.value(sl)

    def store(self, target, code, t):
        inner = target.value
        if isinstance(inner, ast.Subscript):
            # a[i][c] = v: a component of an element stored in place (either layout)
            arr_code, at = self.expr(inner.value)
            if isinstance(at, (K.ArrayT, K.ImplicitT)) and isinstance(at.elem, (K.Vec, K.Mat)):
                self.component_store(target, inner, arr_code, at, code, t)
                return
        base_code, bt = self.expr(target.value)
        if isinstance(bt, (K.ArrayT, K.ImplicitT)):
            self.check_writable(bt, target)
            idx = self.index_codes(target)
            ref = self.array_ref(base_code, bt, idx, target)
            self.emit(f"{ref} = {self.value_as(code, t, bt.elem, target)};")
            return
        if isinstance(bt, K.ClassT):
            arg = self.class_index(target)
            c, _ = self.method_call(base_code, bt, "__setitem__", [arg, (code, t)], target,
                                    "a store", allow_void=True)
            self.emit(c + ";")
            return
        if isinstance(bt, (K.Vec, K.Mat)) and isinstance(target.value, ast.Name) and \
                target.value.id in self.vars and target.value.id not in self.pyf.params:
            if not isinstance(t, K.Scalar):
                if isinstance(bt, K.Mat) and isinstance(t, K.Vec):
                    (c, _), = self.single_index(target)
                    self.emit(f"{base_code}[int({c})] = {cvt(code, t, K.Vec(bt.scalar, bt.cols))};")
                    return
                self.refuse(target, f"a component of {bt.name()} is a number")
            idx = self.index_codes(target)
            if isinstance(bt, K.Mat) and len(idx) == 2:
                self.emit(f"{base_code}(int({idx[0][0]}), int({idx[1][0]})) = "
                          f"{cvt(code, t, bt.scalar)};")
                return
            if len(idx) != 1:
                self.refuse(target, "a vector takes one index")
            self.emit(f"{base_code}[int({idx[0][0]})] = {cvt(code, t, bt.scalar)};")
            return
        self.refuse(target, f"{bt.name()} cannot be stored into")

    def component_store(self, target, inner, arr_code, at, code, t):
        self.check_writable(at, target)
        if not isinstance(t, K.Scalar):
            self.refuse(target, f"a component of {at.elem.name()} is a number, not {t.name()}")
        ref = self.array_ref(arr_code, at, self.index_codes(inner), inner)
        comp = self.index_codes(target)
        e = at.elem
        if isinstance(e, K.Vec):
            if len(comp) != 1:
                self.refuse(target, f"a component of {e.name()} takes one index")
            flat = f"int({comp[0][0]})"
        else:
            if len(comp) != 2:
                self.refuse(target, f"an entry of {e.name()} takes two indices (m[r, c])")
            flat = f"int({comp[0][0]}) * {e.cols} + int({comp[1][0]})"
        self.emit(f"{_RT}component({ref}, {flat}) = {cvt(code, t, e.scalar)};")

    def value_as(self, code, t, elem, node):
        if isinstance(elem, K.Scalar):
            if not isinstance(t, K.Scalar):
                self.refuse(node, f"storing {t.name()} into an element of {elem.name()}")
            return cvt(code, t, elem)
        if isinstance(t, K.Scalar):
            return cvt(code, t, elem)  # broadcast a number to every component
        if type(t) is not type(elem) or t.key()[1:] != elem.key()[1:]:
            self.refuse(node, f"storing {t.name()} into an element of {elem.name()}")
        return cvt(code, t, elem)

    def check_writable(self, bt, node):
        slots = bt.store_slots
        if slots is None:
            self.refuse(node, f"{bt.what} is a computed array ({bt.name()}); it cannot be "
                        "stored into")
        for slot in slots:
            self.unit.written.setdefault(slot, self.pyf.where(node))

    def aug_store(self, target, op, value_node, node):
        base_code, bt = self.expr(target.value)
        vcode, vt = self.value(value_node)
        if isinstance(bt, (K.ArrayT, K.ImplicitT)):
            self.check_writable(bt, target)
            idx = self.index_codes(target)
            temps = []
            self.emit("{")
            self.indent += 1
            for c, it in idx:
                tmp = self.unit.fresh("k")
                self.emit(f"const {_INDEX_CPP} {tmp} = {cvt(c, it, K.I64)};")
                temps.append((tmp, K.I64))
            ref = self.array_ref(base_code, bt, temps, target)
            self.emit(f"auto&& r_ = {ref};")
            cur = f"static_cast<{bt.elem.cpp()}>(r_)"
            code, t = self.binop(op, (cur, bt.elem), (vcode, vt), node)
            self.emit(f"r_ = {self.value_as(code, t, bt.elem, node)};")
            self.indent -= 1
            self.emit("}")
            return
        if isinstance(bt, K.ClassT):
            ac, at = self.class_index(target)
            self.emit("{")
            self.indent += 1
            tmp = self.unit.fresh("k")
            self.emit(f"const {at.strong().cpp() if isinstance(at, K.Scalar) else at.cpp()} "
                      f"{tmp} = {ac};")
            key = (tmp, at.strong() if isinstance(at, K.Scalar) else at)
            cur = self.method_call(base_code, bt, "__getitem__", [key], target, "indexing")
            code, t = self.binop(op, cur, (vcode, vt), node)
            c, _ = self.method_call(base_code, bt, "__setitem__", [key, (code, t)], target,
                                    "a store", allow_void=True)
            self.emit(c + ";")
            self.indent -= 1
            self.emit("}")
            return
        if isinstance(bt, (K.Vec, K.Mat)):
            cur = self.e_Subscript(target)
            code, t = self.binop(op, cur, (vcode, vt), node)
            self.store(target, code, t)
            return
        self.refuse(target, f"{bt.name()} cannot be stored into")

    # -- calls
    def e_Call(self, node):
        if node.keywords:
            self.refuse(node, "keyword arguments are not supported in kernels")
        f = node.func
        if isinstance(f, ast.Attribute):
            base_code, bt = self.expr(f.value)
            if isinstance(bt, K.ClassT):
                if f.attr in bt.fields:
                    self.refuse(node, f"attribute '{f.attr}' is not callable")
                args = [self.expr(a) for a in node.args]
                return self.method_call(base_code, bt, f.attr, args, node, "a call",
                                        allow_void=True)
            if isinstance(bt, K.ConstT):
                if not hasattr(bt.obj, f.attr):
                    self.refuse(node, f"{getattr(bt.obj, '__name__', bt.obj)!r} has no "
                                f"attribute '{f.attr}'")
                return self.call_object(getattr(bt.obj, f.attr), node, f"{f.attr}")
            self.refuse(node, f"{bt.name()} has no method '{f.attr}'")
        if isinstance(f, ast.Name):
            if f.id in self.vars or f.id in self.aliases:
                self.refuse(node, f"'{f.id}' is not callable")
            ok, obj = self.pyf.resolve(f.id)
            if not ok:
                self.refuse(node, f"name '{f.id}' is not defined")
            return self.call_object(obj, node, f.id)
        code, t = self.expr(f)
        if isinstance(t, K.ConstT):
            return self.call_object(t.obj, node, "the callee")
        self.refuse(node, "this call is not supported")

    def call_object(self, obj, node, label):
        from . import api
        if isinstance(obj, api.Func):
            args = [self.expr(a) for a in node.args]
            return self.call_func(obj, args, node, allow_void=True)
        if isinstance(obj, self.tack.DType):
            return self.dtype_call(obj, node)
        if isinstance(obj, type) and getattr(obj, "__tack_device_class__", False):
            self.refuse(node, f"device class {obj.__name__} cannot be constructed inside a "
                        "kernel; construct it on the host and pass it as an argument")
        from .intrinsics import handlers
        handler = handlers(self.tack).get(_ident(obj))
        if handler is not None:
            return handler(self, node)
        if obj is range:
            self.refuse(node, "range() is only used as 'for name in range(...)'")
        name = getattr(obj, "__qualname__", getattr(obj, "__name__", label))
        if inspect.isfunction(obj):
            self.refuse(node, f"'{name}' is a plain Python function; kernels call only functions "
                        "decorated with @tack.func")
        self.refuse(node, f"'{name}' cannot be called inside a kernel")

    def call_func(self, func, args, node, allow_void=False, self_arg=None):
        pyf = func.parsed()
        if self_arg is not None:
            args = [self_arg] + list(args)
        if len(args) != len(pyf.params):
            self.refuse(node, f"{pyf.qualname}() takes {len(pyf.params)} argument(s), "
                        f"{len(args)} given")
        for (c, t), a in zip(args, pyf.params):
            if isinstance(t, K.ConstT):
                self.refuse(node, f"argument '{a}' of {pyf.qualname}() is {t.name()}, which a "
                            "device function cannot take")
        spec = specialize(self.unit, func, [t for _, t in args], self.tack, node, self)
        code = f"{spec.name}({', '.join(c for c, _ in args)})"
        if spec.ret is None and not allow_void:
            self.refuse(node, f"{pyf.qualname}() returns no value")
        return code, spec.ret

    def method_call(self, code, ct, name, args, node, what, allow_void=False):
        from . import api
        method = inspect.getattr_static(ct.cls, name, None)
        if method is None:
            if name == "__setitem__":
                self.refuse(node, f"{ct.what} ({ct.name()}) defines no __setitem__: it is a "
                            "computed array and cannot be stored into")
            if name == "__getitem__":
                self.refuse(node, f"{ct.what} ({ct.name()}) defines no __getitem__ and cannot "
                            "be indexed")
            if name == "__len__":
                self.refuse(node, f"{ct.what} ({ct.name()}) defines no __len__")
            self.refuse(node, f"{ct.name()} has no method '{name}' ({what})")
        if not isinstance(method, api.Func):
            self.refuse(node, f"method '{name}' of {ct.name()} is not a @tack.func; decorate it "
                        "to call it in kernels")
        return self.call_func(method, args, node, allow_void=allow_void, self_arg=(code, ct))

    def dtype_call(self, d, node):
        """`tack.f32(x)` converts; `tack.vec3(tack.f64)(x, y, z)` builds a vector."""
        t = elem_of_dtype(d)
        if isinstance(t, K.Scalar):
            if len(node.args) != 1:
                self.refuse(node, f"tack.{d.name}(x) takes one value")
            c, u = self.value(node.args[0])
            if not isinstance(u, K.Scalar):
                self.refuse(node, f"tack.{d.name}() converts a number, not {u.name()}")
            return cvt(c, u, t), t
        return self.construct(t, node)

    def construct(self, t, node, args=None):
        args = node.args if args is None else args
        if isinstance(t, K.Vec):
            if len(args) == 1:
                c, u = self.value(args[0])
                if isinstance(u, K.Scalar) or (isinstance(u, K.Vec) and u.n == t.n):
                    return cvt(c, u, t), t
            if len(args) != t.n:
                self.refuse(node, f"{t.name()} takes {t.n} values, got {len(args)}")
            vals = [self.value(a) for a in args]
            for (c, u), a in zip(vals, args):
                if not isinstance(u, K.Scalar):
                    self.refuse(a, f"a component of {t.name()} is a number, not {u.name()}")
            return f"{t.cpp()}{{{', '.join(cvt(c, u, t.scalar) for c, u in vals)}}}", t
        # matrices: one list (or vector) per row
        if len(args) == 1 and not isinstance(args[0], (ast.List, ast.Tuple)):
            c, u = self.value(args[0])
            if isinstance(u, K.Scalar) or (isinstance(u, K.Mat) and u.key()[1:] == t.key()[1:]):
                return cvt(c, u, t), t
        if len(args) != t.rows:
            self.refuse(node, f"{t.name()} takes {t.rows} rows, got {len(args)}")
        comps = []
        for r in args:
            if isinstance(r, (ast.List, ast.Tuple)):
                vals = [self.value(e) for e in r.elts]
            else:
                c, u = self.value(r)
                if not isinstance(u, K.Vec):
                    self.refuse(r, f"a row of {t.name()} is a list or a vector")
                vals = [(f"{c}[{k}]", u.scalar) for k in range(u.n)]
            if len(vals) != t.cols:
                self.refuse(r, f"a row of {t.name()} has {t.cols} values, got {len(vals)}")
            comps.append("{" + ", ".join(cvt(c, u, t.scalar) for c, u in vals) + "}")
        return f"{t.cpp()}{{{', '.join(comps)}}}", t


def float_literal(v):
    if math.isnan(v):
        return "double(NAN)"
    if math.isinf(v):
        return "double(INFINITY)" if v > 0 else "double(-INFINITY)"
    return f"double({v.hex()})" if v != int(v) or abs(v) > 2 ** 53 else f"double({v!r})"


_BINOPS = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/", ast.FloorDiv: "//",
           ast.Mod: "%", ast.Pow: "**", ast.BitAnd: "&", ast.BitOr: "|", ast.BitXor: "^",
           ast.LShift: "<<", ast.RShift: ">>", ast.MatMult: "@"}
_SCALAR_FN = {ast.Add: "add", ast.Sub: "sub", ast.Mult: "mul", ast.FloorDiv: "floordiv",
              ast.Mod: "mod", ast.Pow: "pow"}
_CMPOPS = {ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">=", ast.Eq: "==", ast.NotEq: "!="}


def _ident(obj):
    try:
        hash(obj)
        return obj
    except TypeError:
        return id(obj)


# ---- specialization of @tack.func ----------------------------------------------------------------

def specialize(unit, func, arg_types, tack_mod, node, caller):
    """The C++ function of `func` for `arg_types` (lowered once per unit)."""
    tack_mod = tack_mod or unit.tack
    pyf = func.parsed()
    unit.note_source(pyf)
    key = (id(func), tuple((type(t).__name__, t.key()) for t in arg_types))
    spec = unit.funcs.get(key)
    if spec is not None:
        return spec
    if key in unit.in_progress:
        caller.refuse(node, f"{pyf.qualname}() calls itself (directly or through other "
                      "functions); recursion is not supported in kernels")
    unit.in_progress.append(key)
    try:
        low = Lowerer(unit, pyf, arg_types, False, tack_mod)
        low.body(pyf.tree.body)
    finally:
        unit.in_progress.pop()
    rets = [t for t in low.returns if t is not None]
    ret = None
    if rets:
        ret = low.common(rets, pyf.tree)
    name = unit.fresh(f"f_{pyf.name.strip('_') or 'fn'}")
    rcpp = ret.cpp() if ret is not None else "void"
    lines = function_head(low, rcpp, name)
    body = "\n".join(low.lines)
    for i, t in enumerate(low.returns):
        if t is not None:
            body = body.replace(f"@RET{i}@(", f"{_RT}cvt<{ret.cpp()}>(" if t != ret else "(")
    lines.append(body)
    if ret is not None:
        lines.append(f"  return {rcpp}{{}};")
    lines.append("}")
    spec = FuncSpec(name, ret)
    unit.funcs[key] = spec
    unit.func_code.append("\n".join(lines))
    return spec


def function_head(low, rcpp, name):
    """The first lines of a lowered function: its signature (values by value, arrays and classes
    as template parameters by reference) and the hoisted declarations of its variables."""
    templ, params = [], []
    for i, (cname, t) in enumerate(low.params):
        if K.is_value(t):
            params.append(f"{t.cpp()} {cname}")
        else:
            templ.append(f"class A{i}")
            params.append(f"const A{i}& {cname}")
    head = f"template <{', '.join(templ)}>\n" if templ else ""
    lines = [f"{head}TACK_FORCEINLINE {rcpp} {name}({', '.join(params)}) {{"]
    for cname, t in low.decls.items():
        lines.append(f"  {t.cpp()} {cname}{{}};")
    return lines


def lower_kernel_body(unit, kernel, ndims, arg_types, tack_mod):
    """The C++ body function of a kernel: `tack_pk_body(i, [j, [k,]] params...)`."""
    pyf = kernel.parsed()
    unit.note_source(pyf)
    if len(pyf.params) != ndims + len(arg_types):
        raise TypeError(
            f"tack.launch: kernel {pyf.qualname!r} ({pyf.where(pyf.tree)}) takes "
            f"{len(pyf.params)} parameters: {ndims} index(es) for a {ndims}-dimensional launch "
            f"and {len(pyf.params) - ndims} argument(s); {len(arg_types)} argument(s) given")
    low = Lowerer(unit, pyf, [K.INDEX] * ndims + list(arg_types), True, tack_mod)
    low.body(pyf.tree.body)
    lines = function_head(low, "void", "tack_pk_body")
    lines.append("\n".join(low.lines))
    lines.append("}")
    return "\n".join(lines)
