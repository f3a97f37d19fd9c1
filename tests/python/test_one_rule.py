# SPDX-License-Identifier: BSD-3-Clause
"""One rule, wherever it runs: conversions (astype, tack.arrays.Cast, stores in kernels), the
NaN-propagating minimum and maximum (stored and implicit arrays), and uniform coordinates computed
in their own precision, all agree bit for bit."""

import numpy as np
import pytest

import tack

ta = tack.arrays

KINDS = ["f32", "f64", "i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64", "bool"]
NP = {"f32": np.float32, "f64": np.float64, "i8": np.int8, "i16": np.int16, "i32": np.int32,
      "i64": np.int64, "u8": np.uint8, "u16": np.uint16, "u32": np.uint32, "u64": np.uint64,
      "bool": np.bool_}


def _sources(kind):
    """Values of `kind` that reach every edge: out of range of narrower kinds, NaN, ±inf, ±0."""
    if kind in ("f32", "f64"):
        v = [0.0, -0.0, 1.5, -1.5, 127.9, -128.9, 255.5, 3e9, -3e9, 1e19, -1e19, 2.0 ** 63,
             -(2.0 ** 63), 2.0 ** 64, 1e300 if kind == "f64" else 3e38, np.nan, np.inf, -np.inf]
        with np.errstate(over="ignore"):
            return np.array(v, dtype=NP[kind])
    if kind == "bool":
        return np.array([False, True], np.bool_)
    info = np.iinfo(NP[kind])
    v = [0, 1, -1, 127, -128, 255, 256, 32767, -32768, 65535, 2 ** 31 - 1, -(2 ** 31),
         2 ** 32 - 1, 2 ** 63 - 1, -(2 ** 63), 2 ** 64 - 1]
    return np.array([x for x in v if info.min <= x <= info.max], dtype=NP[kind])


def _expected(values, to):
    """The documented conversion: floats into integers saturate (NaN gives 0); everything else
    as NumPy's astype (wrapping integers, IEEE rounding, nonzero is True)."""
    dst = NP[to]
    if values.dtype.kind == "f" and to not in ("f32", "f64", "bool"):
        info = np.iinfo(dst)
        out = []
        for x in values.astype(np.float64):
            if np.isnan(x):
                out.append(0)
            elif x <= info.min:
                out.append(info.min)
            elif x >= float(info.max) + 1.0 or x >= 2.0 ** (info.bits - (info.min < 0)):
                out.append(info.max)
            else:
                out.append(int(x))
        return np.array(out, dtype=dst)
    with np.errstate(all="ignore"):
        return values.astype(dst)


@tack.kernel
def _convert_store(i, out, src):
    out[i] = src[i]


@pytest.mark.parametrize("src", KINDS)
def test_every_conversion_is_one_rule(src):
    values = _sources(src)
    a = tack.array(values)
    for to in KINDS:
        want = _expected(values, to)
        got_astype = a.astype(tack.dtype(to)).numpy()
        got_cast = ta.Cast(a, tack.dtype(to)).numpy()
        out = tack.zeros((len(values),), tack.dtype(to))
        tack.launch(len(values), _convert_store, out, a)
        got_kernel = out.numpy()
        for name, got in (("astype", got_astype), ("Cast", got_cast), ("kernel", got_kernel)):
            assert got.dtype == want.dtype, (src, to, name)
            np.testing.assert_array_equal(got, want, err_msg=f"{src} -> {to} by {name}")


def test_min_and_max_agree_on_signed_zeros_and_nan():
    # stored and implicit arrays reduce with the same element functors: NaN wins, ties keep the
    # first operand, so -0.0 and +0.0 come out the same way from both
    for values in ([0.0, -0.0], [-0.0, 0.0], [1.0, np.nan, -1.0], [np.nan, 2.0]):
        stored = tack.array(np.array(values, np.float64))
        implicit = stored * 1.0
        for f in (tack.min, tack.max):
            s, i = f(stored), f(implicit)
            assert np.array_equal(np.float64(s), np.float64(i), equal_nan=True), (values, f)
            assert np.signbit(s) == np.signbit(i), (values, f)
    # elementwise minimum/maximum: the first operand on ties, as the C++ functors
    a = tack.array(np.array([0.0, -0.0, np.nan, 1.0]))
    b = tack.array(np.array([-0.0, 0.0, 1.0, np.nan]))
    mn = tack.minimum(a, b).numpy()
    mx = tack.maximum(a, b).numpy()
    assert list(np.signbit(mn[:2])) == [False, True]
    assert list(np.signbit(mx[:2])) == [False, True]
    assert np.isnan(mn[2]) and np.isnan(mn[3]) and np.isnan(mx[2]) and np.isnan(mx[3])


def test_uniform_coordinates_are_computed_in_their_own_precision():
    # origin + spacing * index in f32 (as tack::arrays::uniform_coordinates<float>), not in double
    # and rounded afterwards: the two differ in the last bit for these values
    dims, origin, spacing = (7, 5, 3), (0.1, -2.3, 1e-3), (0.7, 0.11, 3.3)
    got = ta.UniformCoordinates(dims, origin, spacing, dtype=tack.f32).numpy()
    k = np.arange(np.prod(dims))
    idx = np.stack([k % dims[0], (k // dims[0]) % dims[1], k // (dims[0] * dims[1])], axis=1)
    o = np.array(origin, np.float32)
    s = np.array(spacing, np.float32)
    want = o + s * idx.astype(np.float32)  # f32 arithmetic, one rounding per operation
    assert want.dtype == np.float32
    np.testing.assert_array_equal(got, want)
    in_double = (np.array(origin) + np.array(spacing) * idx).astype(np.float32)
    assert not np.array_equal(in_double, want)  # the test can tell the two apart


# ---- tack.mpi's partition and sums are tack::mpi's (no MPI needed) -------------------------------

class _OneRank:
    """The communicator of a one-rank run (what tack.mpi's sums ask of mpi4py)."""

    def allgather(self, x):
        return [x]


def _tree_reference(x, dtype):
    """The fixed tree written out in NumPy: each maximal aligned node of [0, n) summed by adding
    adjacent pairs level by level, and the nodes added from left to right (docs/mpi.md)."""
    def node_sum(v):
        while v.shape[0] > 1:
            v = (v[0::2] + v[1::2]).astype(dtype)
        return dtype(v[0])
    pos, out, total = 0, None, x.shape[0]
    while pos < total:
        level = 62 if pos == 0 else (pos & -pos).bit_length() - 1
        while pos + (1 << level) > total:
            level -= 1
        s = node_sum(x[pos:pos + (1 << level)].astype(dtype))
        out = s if out is None else dtype(out + s)
        pos += 1 << level
    return dtype(0) if out is None else out


def test_mpi_partition_is_the_cpp_class():
    import tack.mpi as tm
    assert tm.Partition is tack._core._mpi.Partition
    p = tm.Partition.block(10, 4)
    assert p.offsets == [0, 3, 6, 8, 10] and (p.ranks, p.rows) == (4, 10)
    assert [p.count(r) for r in range(4)] == [3, 3, 2, 2]
    assert p.owner(6) == 2 and p.first(3) == 8 and p.end(3) == 10
    assert p == tm.Partition.from_counts([3, 3, 2, 2]) and p != tm.Partition.block(10, 5)
    assert repr(p) == "Partition([0, 3, 6, 8, 10])"
    assert tm.Partition.from_counts([0, 5, 0]).owner(4) == 1  # empty ranks are skipped
    with pytest.raises(ValueError, match=r"partition::block: -1 rows over 4 ranks"):
        tm.Partition.block(-1, 4)
    with pytest.raises(ValueError, match=r"rank 1 has a negative count -2"):
        tm.Partition.from_counts([3, -2])
    with pytest.raises(IndexError, match=r"row 10 is outside the 10 rows"):
        p.owner(10)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_mpi_ordered_sum_is_the_same_bits_for_every_partition(dtype):
    import tack.mpi as tm
    rng = np.random.default_rng(5)
    x = (rng.standard_normal(10_000) * 10.0 ** rng.integers(-8, 8, 10_000)).astype(dtype)
    whole = tm._ordered_sum(_OneRank(), "test", x, 0, x.shape[0])
    assert whole == _tree_reference(x, dtype) and type(whole) is dtype
    for seed in range(6):
        cuts = np.sort(np.random.default_rng(seed).integers(0, x.shape[0], seed + 1))
        bounds = [0, *cuts.tolist(), x.shape[0]]
        pieces = [tack._core._mpi.local_nodes(x[lo:hi], None, lo, dtype == np.float32, "test")
                  for lo, hi in zip(bounds[:-1], bounds[1:])]
        s = tack._core._mpi.finish(pieces, x.shape[0], dtype == np.float32, "test")
        assert dtype(s).tobytes() == whole.tobytes(), bounds
    # ranks whose ranges leave a gap are refused, naming the operation
    gap = [tack._core._mpi.local_nodes(x[:10], None, 0, False, "tack.mpi.sum"),
           tack._core._mpi.local_nodes(x[20:30], None, 20, False, "tack.mpi.sum")]
    with pytest.raises(ValueError, match=r"tack.mpi.sum: the ranks' ranges do not tile \[0, 30\)"):
        tack._core._mpi.finish(gap, 30, False, "tack.mpi.sum")


def test_mpi_dot_and_integer_values_through_the_tree():
    import tack.mpi as tm
    x = np.arange(1, 1001, dtype=np.float64) / 7
    y = np.linspace(-1, 1, 1000)
    assert tm._ordered_sum(_OneRank(), "t", x, 0, 1000, y) == _tree_reference(x * y, np.float64)
    ints = np.arange(-500, 500, dtype=np.int32)
    mine = tack._core._mpi.local_nodes(ints, None, 0, False, "t")
    assert tack._core._mpi.finish([mine], 1000, False, "t") == float(ints.sum())
    with pytest.raises(ValueError, match="an f32 sum of values that are not f32"):
        tack._core._mpi.local_nodes(ints, None, 0, True, "t")


# ---- one conversion into an array argument ------------------------------------------------------

def test_asarray_is_the_one_conversion_of_the_bindings():
    assert tack.asarray is tack._core.asarray
    a = tack.array(np.arange(5.0))
    assert tack.asarray(a) is a  # a matching array is itself
    assert tack.asarray(a, tack.f64) is a
    b = tack.asarray(a, tack.f32)
    assert b is not a and b.dtype is tack.f32
    x = np.arange(6.0)
    shared = tack.asarray(x)
    x[0] = 42.0
    assert shared.numpy()[0] == 42.0  # a NumPy array is shared, not copied
    lazy = tack.asarray(a + 1.0)  # an implicit array is evaluated
    assert isinstance(lazy, tack.Array) and lazy.numpy().tolist() == [1, 2, 3, 4, 5]
    assert tack.asarray([[1, 2], [3, 4]]).shape == (2, 2)  # anything else is copied
    soa = tack.asarray(np.ones((3, 3)), tack.vec3(), layout="soa")
    assert soa.layout == "soa" and soa.dtype is tack.vec3()
    # the bindings convert through it: a reduction takes NumPy values, lists and implicit arrays
    assert tack.sum(np.array([3.0, 1.0, 2.0])) == 6.0
    assert tack.sum([[1, 2], [3, 4]]) == 10
    assert tack.sum(tack.arrays.CountingArray(4) * -1.0) == -6.0
    with pytest.raises(TypeError, match=r"tack.sum: expected an array, got <class 'object'>"):
        tack.sum(object())


_KINDS = ["f32", "f64", "i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64", "bool"]


@pytest.mark.parametrize("a", _KINDS)
def test_arithmetic_promotes_as_numpy_for_every_pair_of_kinds(a):
    """tack::promote_kinds (types/scalar.hpp) is NumPy 2's table for tack's kinds: the lazy
    arithmetic of every pair of arrays gets NumPy's result dtype (division aside)."""
    for b in _KINDS:
        x, y = tack.zeros(3, tack.dtype(a)), tack.zeros(3, tack.dtype(b))
        expect = np.result_type(x.numpy().dtype, y.numpy().dtype)
        assert (x + y).dtype is tack.dtype(expect), (a, b)
        assert (x * y).numpy().dtype == expect, (a, b)


def test_the_stubs_give_the_factories_real_signatures():
    """Editors read tack/_core.pyi (written by nanobind's stubgen when the package is built): the
    factories, dtypes and reductions are typed, not `object`."""
    import pathlib
    path = pathlib.Path(tack.__file__).parent / "_core.pyi"
    if not path.exists():  # a build under the sanitizers: stubgen cannot import it
        pytest.skip(f"{path} was not written when this package was built")
    stub = path.read_text()
    for name in ("empty", "zeros", "ones", "full", "empty_like", "zeros_like", "ones_like",
                 "full_like", "array", "asarray", "copyto", "set_default_device", "dtype", "vec",
                 "mat", "sum", "min", "max", "mean"):
        line = next(x for x in stub.splitlines() if x.startswith(f"def {name}("))
        assert ": object" not in line and "-> object" not in line, line
    assert "def zeros(shape: int | tuple[int, ...], dtype: DType | str | None = None" in stub


def test_the_stubs_give_arrays_dtypes_and_streams_real_signatures():
    """The methods of tack.Array, tack.DType and tack.Stream are typed in tack/_core.pyi as well:
    `object` is left only where any object is taken (array_from_ptr's `owner`, Stream.__eq__), the
    stub parses, every name in its annotations is defined or imported, and what the annotations say
    is what the calls return."""
    import ast
    import builtins
    import pathlib
    path = pathlib.Path(tack.__file__).parent / "_core.pyi"
    if not path.exists():  # a build under the sanitizers: stubgen cannot import it
        pytest.skip(f"{path} was not written when this package was built")
    tree = ast.parse(path.read_text())
    classes = {n.name: n for n in tree.body if isinstance(n, ast.ClassDef)}

    def functions():
        for n in tree.body:
            if isinstance(n, ast.FunctionDef):
                yield n.name, n
            elif isinstance(n, ast.ClassDef):
                for m in n.body:
                    if isinstance(m, ast.FunctionDef):
                        yield f"{n.name}.{m.name}", m

    def annotations(fn):
        a = fn.args
        for p in a.posonlyargs + a.args + a.kwonlyargs + [a.vararg, a.kwarg]:
            if p is not None and p.annotation is not None:
                yield p.arg, p.annotation
        if fn.returns is not None:
            yield "return", fn.returns

    def method(cls, name):
        fn = next(n for n in classes[cls].body if isinstance(n, ast.FunctionDef) and n.name == name)
        return ast.unparse(fn.args), ast.unparse(fn.returns)

    with_object = {(f, p) for f, fn in functions() for p, ann in annotations(fn)
                   if any(isinstance(x, ast.Name) and x.id == "object" for x in ast.walk(ann))}
    assert with_object == {("array_from_ptr", "owner"), ("Stream.__eq__", "arg")}, with_object

    defined = set(dir(builtins)) | set(classes)
    for n in ast.walk(tree):
        if isinstance(n, (ast.Import, ast.ImportFrom)):
            defined |= {(a.asname or a.name).split(".")[0] for a in n.names}
    used = {x.id for _, fn in functions() for _, ann in annotations(fn) for x in ast.walk(ann)
            if isinstance(x, ast.Name)}
    assert used <= defined, used - defined

    operand = "Array | ImplicitArray | float | int | bool"
    assert method("Array", "__add__") == (f"self, other: {operand}, /", "ImplicitArray")
    assert method("Array", "__rmul__") == (f"self, other: {operand}, /", "ImplicitArray")
    assert method("Array", "__iadd__") == (f"self, other: {operand}, /", "Array")
    assert method("Array", "numpy") == ("self", "numpy.typing.NDArray[Any]")
    assert method("Array", "astype") == ("self, dtype: DType | numpy.typing.DTypeLike", "Array")
    assert method("Array", "dtype") == ("self", "DType")
    assert method("Array", "to_device") == ("self, device: str", "Array")
    assert method("Array", "__getitem__")[1] == "Array | numpy.generic | numpy.typing.NDArray[Any]"
    assert method("DType", "scalar") == ("self", "DType")
    assert any(isinstance(n, ast.ImportFrom) and n.module == "tack.arrays"
               and [a.name for a in n.names] == ["ImplicitArray"] for n in tree.body)

    a = tack.zeros(4)
    v = tack.zeros(4, tack.vec3(tack.f32))
    assert isinstance(a + 1, tack.arrays.ImplicitArray)
    assert isinstance(-a, tack.arrays.ImplicitArray)
    assert isinstance(a.numpy(), np.ndarray)
    assert isinstance(a.dtype, tack.DType) and isinstance(v.dtype.scalar, tack.DType)
    assert isinstance(v.dtype.numpy, np.dtype)
    assert isinstance(a[0], np.generic) and isinstance(v[0], np.ndarray)
    assert isinstance(tack.zeros((2, 3))[0], tack.Array) and isinstance(a[1:3], tack.Array)
    assert a.components is None
    soa = tack.zeros(4, tack.vec3(tack.f32), layout="soa").components
    assert isinstance(soa, tuple) and all(isinstance(c, tack.Array) for c in soa)
