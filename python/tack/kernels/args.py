# SPDX-License-Identifier: BSD-3-Clause
"""Launch arguments: their kernel types, their flattening into argument slots, and the C++ that
rebuilds each argument's kernel form from the slots.

A launch's arguments are walked once: each stored array becomes one slot (pointers and shape),
each number one slot (its value), and device-class instances and library implicit arrays are
walked into their members. The walk yields the variant's *signature* (types only: a new length or
value never changes it) and the slot list passed to the compiled code.
"""

from . import ktypes as K
from .lower import elem_of_dtype, KernelTypeError

# slot kinds, as the extension reads them
SLOT_ARRAY, SLOT_INT, SLOT_FLOAT, SLOT_BOOL = 0, 1, 2, 3


class Walk:
    """The state of one walk over a launch's arguments."""

    __slots__ = ("tack", "slots", "kinds", "names", "keep")

    def __init__(self, tack_mod):
        self.tack = tack_mod
        self.slots = []   # the objects: tack.Array or a number
        self.kinds = []   # SLOT_* per slot
        self.names = []   # how messages name each slot ("parameter 'a'")
        self.keep = []    # imports kept alive for the launch

    def add(self, obj, kind, what):
        self.slots.append(obj)
        self.kinds.append(kind)
        self.names.append(what)
        return len(self.slots) - 1


def describe(w, value, what, depth=0):
    """The kernel type of argument `value` (named `what` in messages); appends its slots."""
    tack = w.tack
    if isinstance(value, tack.Array):
        return array_type(w, value, what)
    np_scalar = _numpy_scalar(value)  # before float: np.float64 is a float, but strong
    if np_scalar is not None:
        t, v = np_scalar
        return K.NumberField(t, w.add(v, SLOT_FLOAT if t.is_float else
                                      SLOT_BOOL if t.is_bool else SLOT_INT, what))
    if isinstance(value, bool):
        return K.NumberField(K.BOOL, w.add(value, SLOT_BOOL, what))
    if isinstance(value, int):
        if not -(2 ** 63) <= value < 2 ** 64:
            raise OverflowError(f"tack.launch: {what} = {value} does not fit in 64 bits")
        return K.NumberField(K.WINT, w.add(value, SLOT_INT, what))
    if isinstance(value, float):
        return K.NumberField(K.WFLOAT, w.add(value, SLOT_FLOAT, what))
    if depth > 16:
        raise TypeError(f"tack.launch: {what} nests device classes more than 16 deep")
    desc = getattr(value, "_tack_kernel_desc", None)
    if desc is not None:
        return implicit_type(w, value, desc, what, depth)
    if getattr(type(value), "__tack_device_class__", False):
        return class_type(w, value, what, depth)
    if isinstance(value, tack.arrays.ImplicitArray):
        if type(value) is tack.arrays.ImplicitArray:
            raise TypeError(
                f"tack.launch: {what} is an implicit array built by arithmetic on arrays "
                f"({value!r}); kernels take the library's implicit arrays and device classes, so "
                "pass the operands and write the arithmetic in the kernel")
        raise TypeError(
            f"tack.launch: {what} is a tack.arrays.{type(value).__name__}, which kernels do not "
            "take yet; store it with tack.copyto first")
    if hasattr(value, "__dlpack__"):
        arr = tack.from_dlpack(value)
        w.keep.append(arr)
        return array_type(w, arr, what)
    raise TypeError(f"tack.launch: {what} is a {type(value).__qualname__}, which kernels do not "
                    "take (arrays, tack.arrays implicit arrays, @tack.device_class instances, "
                    "Python numbers and DLPack tensors do)")


def _numpy_scalar(value):
    import numpy as np
    if isinstance(value, np.generic) and np.dtype(value.dtype) in K._BY_NUMPY:
        t = K.from_numpy(value.dtype)
        return t, value.item()
    return None


_ELEM_CACHE = {}


def array_type(w, a, what):
    d = a.dtype
    elem = _ELEM_CACHE.get(id(d))
    if elem is None:
        elem = _ELEM_CACHE[id(d)] = (d, elem_of_dtype(d))
    elem = elem[1]
    slot = w.add(a, SLOT_ARRAY, what)
    return K.ArrayT(elem, a.ndim, a.layout, slot, what)


def class_type(w, obj, what, depth):
    fields = {}
    try:
        attrs = vars(obj)
    except TypeError:
        raise TypeError(f"tack.launch: {what} ({type(obj).__qualname__}) has no instance "
                        "attributes a kernel can read") from None
    for name, v in attrs.items():
        sub = f"{what} (attribute '{name}')"
        if isinstance(v, tuple):
            fields[name] = tuple_field(w, v, sub)
        else:
            fields[name] = describe(w, v, sub, depth + 1)
    return K.ClassT(type(obj), fields, what, None)


def tuple_field(w, v, what):
    if not v or not all(isinstance(x, (int, float)) for x in v):
        raise TypeError(f"tack.launch: {what} is a tuple; a kernel takes tuples of numbers only")
    s = K.WFLOAT if any(isinstance(x, float) for x in v) else K.WINT
    kind = SLOT_FLOAT if s is K.WFLOAT else SLOT_INT
    slots = [w.add(float(x) if s is K.WFLOAT else int(x), kind, what) for x in v]
    return K.TupleField(s.strong(), slots)


def implicit_type(w, obj, desc, what, depth):
    """A library implicit array: its composition, children first."""
    kind, params, children, extra = desc
    child_types = [describe(w, c, f"{what} (operand {i})", depth + 1)
                   for i, c in enumerate(children)]
    for i, c in enumerate(child_types):
        # a device class is an operand of a Transform (read through its __getitem__ and __len__)
        if isinstance(c, (K.NumberField, K.TupleField)):
            raise TypeError(f"tack.launch: operand {i} of {what} is not an array")
    numbers = []
    for name, (value, scalar) in params:
        slot_kind = SLOT_FLOAT if scalar.is_float else SLOT_BOOL if scalar.is_bool else SLOT_INT
        numbers.append((w.add(value, slot_kind, f"{what} ({name})"), scalar))
    elem = elem_of_dtype(obj.dtype) if kind not in ("function", "transform") else extra[1]
    writable = _writable(kind, child_types, extra)
    return K.ImplicitT(kind, elem, child_types, numbers, extra, writable, what)


def _writable(kind, children, extra):
    if kind in ("permutation",):
        return children[1].store_slots is not None
    if kind in ("view", "strided", "extract_component", "components", "concatenate"):
        return all(c.store_slots is not None for c in children)
    return False


# ---- the C++ that rebuilds kernel forms from slots -------------------------------------------------

def form_expr(unit, t):
    """A C++ expression of argument type `t`, read from the slots `S`."""
    if isinstance(t, K.ArrayT):
        s = t.slot
        e = t.elem
        if t.soa:
            unit.includes.add("tack/view/soa_view.hpp")
            sc = e.scalar.cpp()
            return (f"{t.cpp()}(tack::pykernel::components_of<{sc}, {K.components(e)}>(S[{s}]), "
                    f"tack::pykernel::extents_of<{t.ndim}>(S[{s}]))")
        unit.includes.add("tack/view/view.hpp")
        return (f"{t.cpp()}(static_cast<{e.cpp()}*>(S[{s}].data[0]), "
                f"tack::pykernel::extents_of<{t.ndim}>(S[{s}]))")
    if isinstance(t, K.NumberField):
        return number_expr(t.scalar, t.slot)
    if isinstance(t, K.TupleField):
        items = ", ".join(number_expr(t.scalar, s) for s in t.slots_)
        return f"{t.vec.cpp()}{{{items}}}"
    if isinstance(t, K.ClassT):
        name = struct_name(unit, t)
        items = ", ".join(form_expr(unit, f) for f in t.fields.values())
        return f"{name}{{{items}}}"
    if isinstance(t, K.ImplicitT):
        return implicit_expr(unit, t)
    raise KernelTypeError(f"tack: no kernel form for {t.name()}")


def number_expr(scalar, slot):
    member = "f" if scalar.is_float else "u" if scalar.is_unsigned else "i"
    if scalar.is_bool:
        return f"(S[{slot}].value.i != 0)"
    return f"static_cast<{scalar.cpp()}>(S[{slot}].value.{member})"


def struct_name(unit, t):
    """The generated struct of device-class type `t` (emitted once per unit)."""
    key = t.key()
    name = unit.structs.get(key)
    if name is not None:
        return name
    for f in t.fields.values():  # nested classes first
        if isinstance(f, K.ClassT):
            struct_name(unit, f)
    name = unit.fresh(f"C_{t.cls.__name__}")
    templ, members = [], []
    for i, (fname, f) in enumerate(t.fields.items()):
        if isinstance(f, K.NumberField):
            members.append(f"  {f.scalar.cpp()} {fname};")
        elif isinstance(f, K.TupleField):
            members.append(f"  {f.vec.cpp()} {fname};")
        else:
            templ.append(f"class F{i}")
            members.append(f"  F{i} {fname};")
    head = f"template <{', '.join(templ)}>\n" if templ else ""
    code = f"// device class {t.cls.__qualname__}\n{head}struct {name} {{\n" + "\n".join(
        members) + "\n};"
    unit.structs[key] = name
    unit.struct_code.append(code)
    return name


_FACTORIES = {
    "counting": "counting", "constant": "constant", "permutation": "permutation",
    "view": "view", "strided": "strided", "concatenate": "concatenate",
    "extract_component": "extract_component", "components": "components", "cast": "cast",
}
_HEADERS = {
    "counting": "counting", "constant": "constant", "permutation": "permutation", "view": "view",
    "strided": "strided", "concatenate": "concatenate", "extract_component": "extract_component",
    "components": "components", "cast": "cast", "function": "function", "transform": "transform",
    "cartesian_product": "cartesian_product", "uniform_coordinates": "uniform_coordinates",
    "random_uniform": "random", "random_normal": "random", "random_bits": "random",
}


def implicit_expr(unit, t):
    unit.includes.add(f"tack/arrays/{_HEADERS[t.kind]}.hpp")
    # a device class operand is read through its __getitem__ and __len__
    kids = [f"{indexable_name(unit, c)}{{{form_expr(unit, c)}}}" if isinstance(c, K.ClassT)
            else form_expr(unit, c) for c in t.children]
    nums = [number_expr(s, slot) for slot, s in t.numbers]
    k = t.kind
    e = t.elem
    if k == "counting":
        n, start, step = nums
        return f"tack::arrays::counting<{e.cpp()}>(static_cast<tack::index_t>({n}), {start}, {step})"
    if k == "constant":
        n = nums[0]
        vals = nums[1:]
        value = vals[0] if isinstance(e, K.Scalar) else f"{e.cpp()}{{{', '.join(vals)}}}"
        return f"tack::arrays::constant<{e.cpp()}>({value}, static_cast<tack::index_t>({n}))"
    if k == "permutation":
        return f"tack::arrays::permutation({kids[0]}, {kids[1]})"
    if k == "view":
        return f"tack::arrays::view({kids[0]}, {nums[0]}, {nums[1]})"
    if k == "strided":
        return f"tack::arrays::strided({kids[0]}, {nums[0]}, {nums[1]})"
    if k == "concatenate":
        return f"tack::arrays::concatenate({', '.join(kids)})"
    if k == "extract_component":
        return f"tack::arrays::extract_component({kids[0]}, int({nums[0]}))"
    if k == "components":
        return f"tack::arrays::components({', '.join(kids)})"
    if k == "cast":
        return f"tack::arrays::cast<{e.cpp() if isinstance(e, K.Scalar) else e.cpp()}>({kids[0]})"
    if k == "cartesian_product":
        return f"tack::arrays::cartesian_product({', '.join(kids)})"
    if k == "uniform_coordinates":
        r = t.extra
        sc = e.cpp() if isinstance(e, K.Scalar) else e.scalar.cpp()
        n = [f"static_cast<tack::index_t>({x})" for x in nums[:r]]
        origin, spacing = nums[r:2 * r], nums[2 * r:]
        if r == 1:  # origin + spacing * i, as counting computes it
            unit.includes.add("tack/arrays/counting.hpp")
            return f"tack::arrays::counting<{sc}>({n[0]}, {origin[0]}, {spacing[0]})"
        return (f"tack::arrays::uniform_coordinates<{sc}>(std::array<tack::index_t, {r}>{{"
                f"{', '.join(n)}}}, {e.cpp()}{{{', '.join(origin)}}}, "
                f"{e.cpp()}{{{', '.join(spacing)}}})")
    if k in ("random_uniform", "random_normal", "random_bits"):
        n = f"static_cast<tack::index_t>({nums[0]})"
        rest = "".join(f", {x}" for x in nums[1:])
        return f"tack::arrays::{k}<{e.cpp()}>({n}{rest})"
    if k == "function":
        functor = t.extra[2]
        return (f"tack::arrays::function(static_cast<tack::index_t>({nums[0]}), "
                f"{functor_name(unit, t)}{{}})") if functor is None else functor
    if k == "transform":
        return f"tack::arrays::transform({kids[0]}, {functor_name(unit, t)}{{}})"
    raise KernelTypeError(f"tack: the implicit array '{k}' is not supported in kernels")


def functor_name(unit, t):
    """The functor struct calling the @tack.func of a Function/Transform."""
    from .lower import specialize, cvt
    key = ("functor", t.key())
    name = unit.functors.get(key)
    if name is not None:
        return name
    func, elem, _ = t.extra
    child = None if t.kind == "function" else t.children[0]
    arg_t = K.INDEX if child is None else class_elem(unit, child) if isinstance(
        child, K.ClassT) else child.elem
    spec = specialize(unit, func, [arg_t], None, None, None)
    name = unit.fresh(f"Fn_{func.parsed().name}")
    code = (f"struct {name} {{\n  TACK_FORCEINLINE {elem.cpp()} operator()({arg_t.cpp()} x) "
            f"const {{ return {cvt(f'{spec.name}(x)', spec.ret, elem)}; }}\n}};")
    unit.functors[key] = name
    unit.func_code.append(code)
    return name


def _class_spec(unit, t, method, args):
    from . import api
    from .lower import specialize, KernelTypeError as KTE
    fn = getattr(t.cls, "__dict__", {}).get(method)
    for base in t.cls.__mro__:
        fn = base.__dict__.get(method)
        if fn is not None:
            break
    if not isinstance(fn, api.Func):
        raise KTE(f"tack: {t.what} ({t.name()}) has no @tack.func {method}; a device class an "
                  "implicit array reads defines __getitem__ and __len__")
    return specialize(unit, fn, [t] + args, None, None, None)


def class_elem(unit, t):
    """What `obj[i]` of device-class type `t` reads (its __getitem__ for an int64 index)."""
    spec = _class_spec(unit, t, "__getitem__", [K.INDEX])
    if spec.ret is None:
        raise KernelTypeError(f"tack: {t.name()}.__getitem__ returns no value")
    return spec.ret.strong() if isinstance(spec.ret, K.Scalar) else spec.ret


def indexable_name(unit, t):
    """An adapter giving a device-class struct the `operator[]` and `size()` that the
    `tack::arrays` compositions read their operands with."""
    key = ("indexable", t.key())
    name = unit.functors.get(key)
    if name is not None:
        return name
    get = _class_spec(unit, t, "__getitem__", [K.INDEX])
    size = _class_spec(unit, t, "__len__", [])
    elem = class_elem(unit, t)
    from .lower import cvt
    name = unit.fresh(f"Ix_{t.cls.__name__}")
    code = (f"template <class S>\nstruct {name} {{\n  S self;\n"
            f"  TACK_FORCEINLINE {elem.cpp()} operator[](tack::index_t k) const {{ return "
            f"{cvt(f'{get.name}(self, k)', get.ret, elem)}; }}\n"
            f"  TACK_FORCEINLINE tack::index_t size() const {{ return "
            f"static_cast<tack::index_t>({size.name}(self)); }}\n}};\n"
            f"template <class S>\n{name}(S) -> {name}<S>;")
    unit.functors[key] = name
    unit.func_code.append(code)
    return name
