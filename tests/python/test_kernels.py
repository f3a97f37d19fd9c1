# SPDX-License-Identifier: BSD-3-Clause
"""Kernels compiled from Python (@tack.kernel, @tack.func, tack.launch): arguments of every kind,
vector and matrix values, atomics, multi-dimensional launches, control flow, debug-mode bounds
checks, and the constructs a kernel refuses (each refusal names this file and the line)."""

import math
import os
import re

import numpy as np
import pytest

import tack
from tack import arrays as ta

_FILE = os.path.basename(__file__)


def _at(tag, or_def=False):
    """The "file.py:LINE" a message names for the line of this file that ends with "# at:<tag>"
    (or_def: that line or the "def" line of the function holding it)."""
    with open(__file__, encoding="utf-8") as f:
        lines = f.read().splitlines()
    hits = [n for n, line in enumerate(lines, 1) if line.rstrip().endswith("# at:" + tag)]
    assert len(hits) == 1, tag
    if not or_def:
        return re.escape(f"{_FILE}:{hits[0]}") + r"(?!\d)"
    d = next(n for n in range(hits[0], 0, -1) if lines[n - 1].startswith("def "))
    return re.escape(_FILE) + f":({d}|{hits[0]})(?!\\d)"


# ---- kernels shared by the tests -----------------------------------------------------------------

@tack.func
def lerp(a, b, t):
    return a + t * (b - a)


@tack.kernel
def blend(i, out, x, y, t):
    out[i] = lerp(x[i], y[i], t)


@tack.kernel
def copy_k(i, out, src):
    out[i] = src[i]


@tack.kernel
def copy2_k(i, j, out, src):
    out[i, j] = src[i, j]


@tack.kernel
def fill2(i, j, a):
    a[i, j] = i * 10 + j


@tack.kernel
def fill3(i, j, k, a):
    a[i, j, k] = i * 100 + j * 10 + k


@tack.kernel
def shape_k(i, out, a):
    out[0] = a.shape[0]
    out[1] = a.shape[1]
    out[2] = len(a)
    out[3] = len(a.shape)


@tack.kernel
def add_param(i, out, x, p):
    out[i] = x[i] + p


@tack.kernel
def flag_k(i, out, x, negate):
    if negate:
        out[i] = -x[i]
    else:
        out[i] = x[i]


# ---- the documented snippets ---------------------------------------------------------------------

def test_blend_snippet_matches_numpy_in_float32():
    n = 1000
    rng = np.random.default_rng(1)
    xs = rng.standard_normal(n).astype(np.float32)
    ys = rng.standard_normal(n).astype(np.float32)
    x, y, out = tack.array(xs), tack.array(ys), tack.empty(n)
    tack.launch(n, blend, out, x, y, 0.25)
    want = xs + 0.25 * (ys - xs)  # NumPy keeps float32 with a Python float
    assert want.dtype == np.float32
    np.testing.assert_allclose(out.numpy(), want, rtol=1e-6, atol=1e-7)


def test_func_runs_on_the_host():
    assert lerp(1.0, 3.0, 0.5) == 2.0
    assert lerp(2, 4, 1) == 4


def test_two_dimensional_launch_is_row_major():
    ny, nx = 4, 7
    a = tack.zeros((ny, nx), tack.i64)
    tack.launch((ny, nx), fill2, a)
    np.testing.assert_array_equal(a.numpy(), np.arange(ny)[:, None] * 10 + np.arange(nx))


def test_three_dimensional_launch():
    a = tack.zeros((3, 4, 5), tack.i32)
    tack.launch((3, 4, 5), fill3, a)
    i, j, k = np.indices((3, 4, 5))
    np.testing.assert_array_equal(a.numpy(), i * 100 + j * 10 + k)


def test_launch_dims_as_a_one_tuple_and_empty_launch():
    src = tack.array(np.arange(5.0))
    out = tack.zeros(5, tack.f64)
    tack.launch((5,), copy_k, out, src)
    np.testing.assert_array_equal(out.numpy(), np.arange(5.0))
    out2 = tack.zeros(5, tack.f64)
    tack.launch(0, copy_k, out2, src)  # nothing runs
    np.testing.assert_array_equal(out2.numpy(), np.zeros(5))


def test_shape_and_len_of_a_two_dimensional_array():
    a = tack.zeros((6, 3), tack.f32)
    out = tack.zeros(4, tack.i64)
    tack.launch(1, shape_k, out, a)
    np.testing.assert_array_equal(out.numpy(), [6, 3, 6, 2])


def test_two_dimensional_copy_of_a_row_view():
    src = tack.array(np.arange(24, dtype=np.float64).reshape(8, 3))
    out = tack.zeros((3, 3), tack.f64)
    tack.launch((3, 3), copy2_k, out, src[2:5])
    np.testing.assert_array_equal(out.numpy(), np.arange(24.0).reshape(8, 3)[2:5])


# ---- arguments -----------------------------------------------------------------------------------

SCALAR_DTYPES = ["f32", "f64", "i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64", "bool"]


@pytest.mark.parametrize("name", SCALAR_DTYPES)
def test_copy_every_scalar_dtype(name):
    dt = tack.dtype(name).numpy
    rng = np.random.default_rng(3)
    if dt.kind == "b":
        values = rng.integers(0, 2, 50).astype(bool)
    elif dt.kind == "f":
        values = rng.standard_normal(50).astype(dt)
    else:
        info = np.iinfo(dt)
        values = rng.integers(info.min, info.max, 50, dtype=dt, endpoint=True)
    src = tack.array(values)
    out = tack.zeros(50, tack.dtype(name))
    tack.launch(50, copy_k, out, src)
    assert out.numpy().tobytes() == values.tobytes()


@pytest.mark.parametrize("dtype", [tack.vec2(tack.f64), tack.vec3(), tack.vec4(tack.i32),
                                   tack.mat2(), tack.mat3(tack.f64)])
def test_copy_vector_and_matrix_elements(dtype):
    values = np.arange(7 * dtype.components).reshape((7,) + dtype.shape).astype(dtype.numpy)
    src = tack.array(values, dtype=dtype)
    out = tack.zeros((7,), dtype)
    tack.launch(7, copy_k, out, src)
    np.testing.assert_array_equal(out.numpy(), values)


def test_copy_between_layouts():
    vals = np.arange(30, dtype=np.float32).reshape(10, 3)
    aos = tack.array(vals, dtype=tack.vec3())
    soa = tack.zeros((10,), tack.vec3(), layout="soa")
    tack.launch(10, copy_k, soa, aos)
    np.testing.assert_array_equal(soa.numpy(), vals)
    back = tack.zeros((10,), tack.vec3())
    tack.launch(10, copy_k, back, soa)
    np.testing.assert_array_equal(back.numpy(), vals)
    # tack.soa over existing arrays writes them
    x, y, z = tack.zeros(10), tack.zeros(10), tack.zeros(10)
    tack.launch(10, copy_k, tack.soa(x, y, z), aos)
    np.testing.assert_array_equal(y.numpy(), vals[:, 1])
    np.testing.assert_array_equal(z.numpy(), vals[:, 2])


def test_row_views_are_read_and_written_in_place():
    root = tack.zeros(10, tack.f64)
    src = tack.array(np.arange(10.0) * 10)
    tack.launch(3, copy_k, root[4:7], src[1:4])
    np.testing.assert_array_equal(root.numpy(), [0, 0, 0, 0, 10, 20, 30, 0, 0, 0])
    s = tack.zeros((6,), tack.vec2(), layout="soa")
    src2 = tack.array(np.arange(4, dtype=np.float32).reshape(2, 2), dtype=tack.vec2())
    tack.launch(2, copy_k, s[3:5], src2)
    got = s.numpy()
    np.testing.assert_array_equal(got[3:5], [[0, 1], [2, 3]])
    assert not got[:3].any() and not got[5:].any()


def test_numpy_arguments_are_shared_not_copied():
    out = np.zeros(6)
    src = np.arange(6.0) * 3
    tack.launch(6, copy_k, out, src)
    np.testing.assert_array_equal(out, src)
    out2 = np.zeros((2, 3), np.int32)
    tack.launch((2, 3), fill2, out2)
    np.testing.assert_array_equal(out2, [[0, 1, 2], [10, 11, 12]])


def test_a_read_only_argument_can_be_read():
    src = np.arange(5.0)
    src.flags.writeable = False
    out = tack.zeros(5, tack.f64)
    tack.launch(5, copy_k, out, src)
    np.testing.assert_array_equal(out.numpy(), src)
    buf = np.arange(5, dtype=np.float64)
    borrowed = tack.array_from_ptr(buf.ctypes.data, 5, tack.f64, owner=buf)
    assert borrowed.read_only
    tack.launch(5, copy_k, out, borrowed[1:4])
    np.testing.assert_array_equal(out.numpy()[:3], [1, 2, 3])


def test_python_numbers_are_weak_run_time_parameters():
    x8 = tack.array(np.array([127, 0, -128], np.int8))
    out = tack.zeros(3, tack.i64)
    tack.launch(3, add_param, out, x8, 1)  # int8 + Python int stays int8 and wraps, as in NumPy
    np.testing.assert_array_equal(out.numpy(), (np.array([127, 0, -128], np.int8) + 1).astype(np.int64))
    x32 = tack.array(np.array([0.1, 1.0, 3.3], np.float32))
    o64 = tack.zeros(3, tack.f64)
    tack.launch(3, add_param, o64, x32, 0.1)  # float32 + Python float stays float32
    np.testing.assert_array_equal(o64.numpy(), (x32.numpy() + 0.1).astype(np.float64))
    # a new value of a parameter reuses the compiled variant
    before = tack.kernels.stats()["compiles"]
    tack.launch(3, add_param, o64, x32, 2.5)
    np.testing.assert_array_equal(o64.numpy(), (x32.numpy() + np.float32(2.5)).astype(np.float64))
    assert tack.kernels.stats()["compiles"] == before


def test_numpy_scalars_are_strong_parameters():
    # NumPy 2: a NumPy scalar keeps its type (np.float64 too, although it subclasses float)
    x32 = np.array([0.1, 1.0, 3.3], np.float32)
    o64 = tack.zeros(3, tack.f64)
    tack.launch(3, add_param, o64, tack.array(x32), np.float64(0.1))
    want = x32 + np.float64(0.1)
    assert want.dtype == np.float64
    np.testing.assert_array_equal(o64.numpy(), want)
    tack.launch(3, add_param, o64, tack.array(x32), np.float32(0.1))
    np.testing.assert_array_equal(o64.numpy(), (x32 + np.float32(0.1)).astype(np.float64))
    x8 = np.array([127, 0, -128], np.int8)
    oi = tack.zeros(3, tack.i64)
    tack.launch(3, add_param, oi, tack.array(x8), np.int64(1))  # int8 + int64: int64, no wrap
    np.testing.assert_array_equal(oi.numpy(), x8 + np.int64(1))
    tack.launch(3, add_param, oi, tack.array(x8), np.int8(1))  # int8 + int8 wraps
    with np.errstate(all="ignore"):
        np.testing.assert_array_equal(oi.numpy(), x8 + np.int8(1))


def test_a_non_contiguous_numpy_argument_is_refused_not_copied():
    base = np.zeros(10)
    with pytest.raises(ValueError):
        tack.launch(5, copy_k, base[::2], np.arange(5.0))  # a copy would lose the stores
    assert not base.any()
    with pytest.raises(ValueError):
        tack.launch((3, 4), copy2_k, np.zeros((3, 4), order="F"), np.zeros((3, 4)))


def test_bool_parameter():
    x = tack.array(np.array([1.0, -2.0]))
    out = tack.zeros(2, tack.f64)
    tack.launch(2, flag_k, out, x, True)
    np.testing.assert_array_equal(out.numpy(), [-1, 2])
    before = tack.kernels.stats()["compiles"]
    tack.launch(2, flag_k, out, x, False)
    np.testing.assert_array_equal(out.numpy(), [1, -2])
    assert tack.kernels.stats()["compiles"] == before


@tack.func
def row_of(a, k):
    return a[k]


@tack.kernel
def soa_through_func(i, out, a):
    out[i] = row_of(a, i) + tack.vec3(len(a), a.shape[0], 0)


@tack.kernel
def add_rows(i, a, x):
    a[i] += x[i]


@tack.kernel
def component_store(i, a, x):
    a[i][1] = x[i]
    a[i][0] += 1.0


def test_a_soa_array_passed_to_a_func_and_asked_its_shape():
    vals = np.arange(12, dtype=np.float32).reshape(4, 3)
    s = tack.zeros((4,), tack.vec3(), layout="soa")
    tack.copyto(s, vals)
    out = tack.zeros((4,), tack.vec3())
    tack.launch(4, soa_through_func, out, s)
    np.testing.assert_array_equal(out.numpy(), vals + [4, 4, 0])


@pytest.mark.parametrize("layout", ["aos", "soa"])
def test_augmented_vector_store(layout):
    vals = np.arange(12, dtype=np.float32).reshape(4, 3)
    a = tack.zeros((4,), tack.vec3(), layout=layout)
    tack.copyto(a, vals)
    tack.launch(4, add_rows, a, tack.array(vals * 10, dtype=tack.vec3()))
    np.testing.assert_array_equal(a.numpy(), vals * 11)


@pytest.mark.parametrize("layout", ["aos", "soa"])
def test_component_stores(layout):
    a = tack.zeros((3,), tack.vec3(), layout=layout)
    tack.launch(3, component_store, a, tack.array(np.array([5.0, 6.0, 7.0], np.float32)))
    np.testing.assert_array_equal(a.numpy(), [[1, 5, 0], [1, 6, 0], [1, 7, 0]])


def test_launch_argument_errors():
    with pytest.raises(TypeError, match="copy_k"):
        tack.launch(3, copy_k, tack.zeros(3))  # one argument short
    with pytest.raises(ValueError):
        tack.launch((1, 1, 1, 1), copy_k, tack.zeros(3), tack.zeros(3))  # at most 3 dimensions


# ---- vector and matrix values --------------------------------------------------------------------

@tack.kernel
def vec_ops(i, out_v, out_s, m, x, y):
    v = x[i]
    w = y[i]
    out_v[i] = m[i] * v + 2.0 * tack.cross(v, w) - w
    out_s[i, 0] = tack.dot(v, w)
    out_s[i, 1] = tack.length(v)
    out_s[i, 2] = v[0] + w[2]
    n = tack.normalize(v)
    out_s[i, 3] = n[1]


def test_vector_and_matrix_arithmetic_matches_numpy():
    n = 64
    rng = np.random.default_rng(5)
    mv = rng.standard_normal((n, 3, 3)).astype(np.float32)
    xv = rng.standard_normal((n, 3)).astype(np.float32) + 2
    yv = rng.standard_normal((n, 3)).astype(np.float32)
    m = tack.array(mv, dtype=tack.mat3())
    x = tack.array(xv, dtype=tack.vec3())
    y = tack.zeros((n,), tack.vec3(), layout="soa")
    tack.copyto(y, yv)
    out_v = tack.zeros((n,), tack.vec3())
    out_s = tack.zeros((n, 4), tack.f32)
    tack.launch(n, vec_ops, out_v, out_s, m, x, y)
    want_v = np.einsum("nij,nj->ni", mv, xv) + 2.0 * np.cross(xv, yv) - yv
    np.testing.assert_allclose(out_v.numpy(), want_v, rtol=1e-5, atol=1e-5)
    s = out_s.numpy()
    np.testing.assert_allclose(s[:, 0], np.einsum("ni,ni->n", xv, yv), rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(s[:, 1], np.linalg.norm(xv, axis=1), rtol=1e-5)
    np.testing.assert_allclose(s[:, 2], xv[:, 0] + yv[:, 2], rtol=1e-6, atol=1e-6)
    np.testing.assert_allclose(s[:, 3], xv[:, 1] / np.linalg.norm(xv, axis=1), rtol=1e-5, atol=1e-6)


@tack.kernel
def mat_vec(i, out, m, v):
    out[i] = m[i] * v[i]


@pytest.mark.parametrize("layout", ["aos", "soa"])
def test_mat4_times_vec4_in_every_layout(layout):
    rng = np.random.default_rng(8)
    mv = rng.standard_normal((9, 4, 4)).astype(np.float32)
    vv = rng.standard_normal((9, 4)).astype(np.float32)
    m = tack.zeros((9,), tack.mat4(), layout=layout)  # 16 components: 16 SoA arrays
    v = tack.zeros((9,), tack.vec4(), layout=layout)
    tack.copyto(m, mv)
    tack.copyto(v, vv)
    out = tack.zeros((9,), tack.vec4(), layout=layout)
    tack.launch(9, mat_vec, out, m, v)
    np.testing.assert_allclose(out.numpy(), np.einsum("nij,nj->ni", mv, vv), rtol=1e-5, atol=1e-5)


@tack.kernel
def constructors(i, lit, mixed, typed, four, mv, ident, ident64, unit, x32, x64):
    lit[i] = tack.vec3(1, 2, 0.1)
    mixed[i] = tack.vec3(x64[i], 0.1, 2)
    typed[i] = tack.vec3(tack.f64)(0.1, 0.2, 0.3)
    four[i] = tack.vec(4, tack.f64)(0.1, 1, 2, x64[i])
    mv[i] = tack.mat2([1, 2], [3, 4]) * tack.vec2(x32[i], 1)
    ident[i] = tack.identity(3) * tack.vec3(1.0, 2.0, 3.0)
    ident64[i] = tack.identity(3, tack.f64) * tack.vec3(tack.f64)(0.1, 0.2, 0.3)
    unit[i] = tack.normalize(tack.vec3(3, 0, 4))


def test_element_constructors_and_their_component_types():
    n = 3
    f64v = tack.vec3(tack.f64)
    lit, mixed, typed, ident64 = (tack.zeros((n,), f64v) for _ in range(4))
    four = tack.zeros((n,), tack.vec4(tack.f64))
    mv = tack.zeros((n,), tack.vec2())
    ident = tack.zeros((n,), tack.vec3())
    unit = tack.zeros((n,), f64v)
    x32 = tack.array(np.array([1, 2, 3], np.float32))
    x64 = tack.array(np.array([0.5, 1.5, 2.5]))
    tack.launch(n, constructors, lit, mixed, typed, four, mv, ident, ident64, unit, x32, x64)
    # only Python numbers: float32 components
    np.testing.assert_array_equal(lit.numpy()[0], [1, 2, float(np.float32(0.1))])
    # a float64 argument: float64 components, the literals taken exactly
    np.testing.assert_array_equal(mixed.numpy()[:, 1], [0.1] * 3)
    np.testing.assert_array_equal(mixed.numpy()[:, 0], [0.5, 1.5, 2.5])
    np.testing.assert_array_equal(typed.numpy()[2], [0.1, 0.2, 0.3])
    np.testing.assert_array_equal(four.numpy()[1], [0.1, 1, 2, 1.5])
    np.testing.assert_array_equal(mv.numpy(), [[x + 2, 3 * x + 4] for x in (1, 2, 3)])
    np.testing.assert_array_equal(ident.numpy(), [[1, 2, 3]] * 3)
    np.testing.assert_array_equal(ident64.numpy()[0], [0.1, 0.2, 0.3])
    np.testing.assert_allclose(unit.numpy()[0], [0.6, 0, 0.8], rtol=1e-6, atol=1e-7)


@tack.kernel
def math_k(i, out, x):
    v = x[i]
    out[i, 0] = math.sqrt(v)
    out[i, 1] = tack.sqrt(v)
    out[i, 2] = tack.exp(v)
    out[i, 3] = tack.log(v)
    out[i, 4] = tack.sin(v) + tack.cos(v)
    out[i, 5] = tack.abs(-v) + abs(-2 * v)
    out[i, 6] = tack.minimum(v, 1.0) + tack.maximum(v, 1.0) * 10
    out[i, 7] = min(v, 2.0) + max(v, 2.0) * 10 + min(1, 2, 3)
    out[i, 8] = math.pi + math.e
    out[i, 9] = int(v * 3.7) + int(-v * 3.7) * 100
    out[i, 10] = float(i) / 4
    out[i, 11] = bool(v > 1.5)
    out[i, 12] = tack.f32(v)
    out[i, 13] = tack.i32(-v * 2.5)
    out[i, 14] = math.exp(math.log(v)) + math.floor(-v)


def test_math_functions_builtins_and_casts():
    xs = np.array([0.3, 1.0, 1.7, 2.9, 9.1])
    out = tack.zeros((5, 15), tack.f64)
    tack.launch(5, math_k, out, tack.array(xs))
    o = out.numpy()
    np.testing.assert_allclose(o[:, 0], np.sqrt(xs), rtol=1e-14)
    np.testing.assert_allclose(o[:, 1], np.sqrt(xs), rtol=1e-14)
    np.testing.assert_allclose(o[:, 2], np.exp(xs), rtol=1e-14)
    np.testing.assert_allclose(o[:, 3], np.log(xs), rtol=1e-14)
    np.testing.assert_allclose(o[:, 4], np.sin(xs) + np.cos(xs), rtol=1e-14)
    np.testing.assert_allclose(o[:, 5], 3 * xs, rtol=1e-14)
    np.testing.assert_allclose(o[:, 6], np.minimum(xs, 1) + np.maximum(xs, 1) * 10, rtol=1e-14)
    np.testing.assert_allclose(o[:, 7], np.minimum(xs, 2) + np.maximum(xs, 2) * 10 + 1, rtol=1e-14)
    np.testing.assert_allclose(o[:, 8], math.pi + math.e, rtol=1e-15)
    np.testing.assert_array_equal(o[:, 9], [int(x * 3.7) + int(-x * 3.7) * 100 for x in xs])
    np.testing.assert_array_equal(o[:, 10], np.arange(5) / 4)
    np.testing.assert_array_equal(o[:, 11], xs > 1.5)
    np.testing.assert_array_equal(o[:, 12], xs.astype(np.float32).astype(np.float64))
    np.testing.assert_array_equal(o[:, 13], (-xs * 2.5).astype(np.int32))  # toward zero
    np.testing.assert_allclose(o[:, 14], xs + np.floor(-xs), rtol=1e-14)


# ---- control flow and device functions -----------------------------------------------------------

@tack.func
def collatz_steps(n):
    steps = 0
    while n != 1:
        if n % 2 == 0:
            n = n // 2
        else:
            n = 3 * n + 1
        steps += 1
    return steps


@tack.func
def first_multiple(start, m, limit):
    found = -1
    for j in range(start, limit):
        if j % m != 0:
            continue
        found = j
        break
    return found


@tack.func
def square(x):
    return x * x


@tack.func
def hypot2(a, b):
    return tack.sqrt(square(a) + square(b))


@tack.func
def sign(x):
    if x > 0:
        return 1
    if x < 0:
        return -1
    return 0


@tack.kernel
def control_k(i, steps, firsts, sums, kinds, funcs, x):
    steps[i] = collatz_steps(i + 1)
    firsts[i] = first_multiple(i, 7, i + 5)
    s = 0
    for j in range(i, -1, -2):
        s += j
    for j in range(3):
        s += 1000
    for j in range(2, 4):
        s += 100000 * j
    k = 0
    while True:
        k += 1
        if k >= i:
            break
    sums[i] = s + k * 10000000
    if i % 3 == 0:
        kinds[i] = 0
    elif i % 3 == 1:
        kinds[i] = 1
    else:
        kinds[i] = 2
    funcs[i, 0] = hypot2(x[i], 4.0)
    funcs[i, 1] = square(i) + sign(x[i] - 1.0)


@tack.kernel
def early_return(i, out):
    if i % 2 == 0:
        return
    out[i] = 1


def _collatz(n):
    steps = 0
    while n != 1:
        n = n // 2 if n % 2 == 0 else 3 * n + 1
        steps += 1
    return steps


def test_loops_branches_and_nested_functions():
    n = 20
    steps, firsts, sums, kinds = (tack.zeros(n, tack.i64) for _ in range(4))
    funcs = tack.zeros((n, 2), tack.f64)
    xs = np.linspace(-2, 3, n)
    tack.launch(n, control_k, steps, firsts, sums, kinds, funcs, tack.array(xs))
    np.testing.assert_array_equal(steps.numpy(), [_collatz(i + 1) for i in range(n)])
    want_first = []
    for i in range(n):
        hits = [j for j in range(i, i + 5) if j % 7 == 0]
        want_first.append(hits[0] if hits else -1)
    np.testing.assert_array_equal(firsts.numpy(), want_first)
    want_sums = [sum(range(i, -1, -2)) + 3000 + 500000 + max(i, 1) * 10000000 for i in range(n)]
    np.testing.assert_array_equal(sums.numpy(), want_sums)
    np.testing.assert_array_equal(kinds.numpy(), np.arange(n) % 3)
    np.testing.assert_allclose(funcs.numpy()[:, 0], np.hypot(xs, 4.0), rtol=1e-14)
    np.testing.assert_array_equal(funcs.numpy()[:, 1], np.arange(n) ** 2 + np.sign(xs - 1.0))


def test_return_in_a_kernel_ends_that_index():
    out = tack.zeros(7, tack.i32)
    tack.launch(7, early_return, out)
    np.testing.assert_array_equal(out.numpy(), [0, 1, 0, 1, 0, 1, 0])


# ---- atomics -------------------------------------------------------------------------------------

@tack.kernel
def histogram(i, bins, weights, data, w):
    tack.atomic_add(bins, data[i], 1)
    tack.atomic_add(weights, data[i], w[i])


@tack.kernel
def vec_accumulate(i, acc, idx, v):
    tack.atomic_add(acc, idx[i], v[i])


@tack.kernel
def extremes(i, lo, hi, x):
    tack.atomic_min(lo, 0, x[i])
    tack.atomic_max(hi, 0, x[i])


@tack.kernel
def claim(i, slots, counter):
    slots[tack.atomic_add(counter, 0, 1)] = i


@tack.kernel
def bump_once(i, a, counter):
    a[tack.atomic_add(counter, 0, 1)] += 2.0


@tack.kernel
def vec_claim(i, olds, acc):
    olds[i] = tack.atomic_add(acc, 0, tack.vec2(1, 2))


def test_histogram_with_integer_and_float_atomics():
    n, nb = 20000, 10
    rng = np.random.default_rng(7)
    data = rng.integers(0, nb, n)
    w = rng.integers(0, 4, n).astype(np.float32)  # sums stay exact in float32
    bins = tack.zeros(nb, tack.i32)
    weights = tack.zeros(nb, tack.f32)
    tack.launch(n, histogram, bins, weights, tack.array(data), tack.array(w))
    np.testing.assert_array_equal(bins.numpy(), np.bincount(data, minlength=nb))
    np.testing.assert_array_equal(weights.numpy(), np.bincount(data, weights=w, minlength=nb))


def test_atomics_on_row_views():
    n, nb = 5000, 10
    data = np.arange(n) % nb
    bins = tack.zeros(nb + 4, tack.i32)
    weights = tack.zeros(nb + 4, tack.f32)
    tack.launch(n, histogram, bins[2:12], weights[2:12], tack.array(data), tack.ones(n))
    want = np.zeros(nb + 4, np.int32)
    want[2:12] = n // nb
    np.testing.assert_array_equal(bins.numpy(), want)
    np.testing.assert_array_equal(weights.numpy(), want)


@pytest.mark.parametrize("layout", ["aos", "soa"])
def test_vector_atomic_add(layout):
    n, nb = 6000, 4
    idx = np.arange(n) % nb
    vals = np.stack([np.ones(n), np.arange(n) % 3, -np.ones(n)], axis=1).astype(np.float32)
    acc = tack.zeros((nb,), tack.vec3(), layout=layout)
    tack.launch(n, vec_accumulate, acc, tack.array(idx), tack.array(vals, dtype=tack.vec3()))
    want = np.zeros((nb, 3), np.float32)
    np.add.at(want, idx, vals)
    np.testing.assert_array_equal(acc.numpy(), want)
    # on a row view of the accumulator too
    acc2 = tack.zeros((nb + 2,), tack.vec3(), layout=layout)
    tack.launch(n, vec_accumulate, acc2[1:5], tack.array(idx), tack.array(vals, dtype=tack.vec3()))
    got = acc2.numpy()
    np.testing.assert_array_equal(got[1:5], want)
    assert not got[0].any() and not got[5].any()


ATOMIC_DTYPES = ["f32", "f64", "i32", "i64", "u32", "u64"]


@pytest.mark.parametrize("name", ATOMIC_DTYPES)
def test_atomic_min_and_max(name):
    rng = np.random.default_rng(11)
    dt = tack.dtype(name).numpy
    if dt.kind == "f":
        xs = (rng.standard_normal(10000) * 1000).astype(dt)
    else:
        info = np.iinfo(dt)
        xs = rng.integers(info.min, info.max, 10000, dtype=dt, endpoint=True)
    lo = tack.array(xs[:1].copy())
    hi = tack.array(xs[:1].copy())
    tack.launch(len(xs), extremes, lo, hi, tack.array(xs))
    assert lo.numpy()[0] == xs.min() and hi.numpy()[0] == xs.max()


@tack.kernel
def count_k(i, bins, data):
    tack.atomic_add(bins, data[i], 1)


@pytest.mark.parametrize("name", ATOMIC_DTYPES)
def test_atomic_add_of_every_atomic_dtype(name):
    data = np.arange(20000) % 7
    bins = tack.zeros(7, tack.dtype(name))
    tack.launch(len(data), count_k, bins, tack.array(data))
    np.testing.assert_array_equal(bins.numpy(), np.bincount(data, minlength=7))


@pytest.mark.parametrize("name", ["i8", "u8", "i16", "u16"])
def test_atomics_on_narrow_integers_are_refused(name):
    with pytest.raises(TypeError, match=_at("count")):
        tack.launch(4, tack.kernel(count_narrow), tack.zeros(4, tack.dtype(name)), tack.array(np.arange(4)))


@tack.kernel
def vec_extremes(i, lo, hi, v):
    tack.atomic_min(lo, 0, v[i])
    tack.atomic_max(hi, 0, v[i])


@pytest.mark.parametrize("layout", ["aos", "soa"])
def test_vector_atomic_min_and_max_are_per_component(layout):
    rng = np.random.default_rng(13)
    vals = rng.integers(-1000, 1000, (5000, 3)).astype(np.float32)
    lo = tack.zeros((1,), tack.vec3(), layout=layout)
    hi = tack.zeros((1,), tack.vec3(), layout=layout)
    lo.fill([1e9, 1e9, 1e9])
    hi.fill([-1e9, -1e9, -1e9])
    tack.launch(5000, vec_extremes, lo, hi, tack.array(vals, dtype=tack.vec3()))
    np.testing.assert_array_equal(lo.numpy()[0], vals.min(axis=0))
    np.testing.assert_array_equal(hi.numpy()[0], vals.max(axis=0))


def test_atomics_return_the_old_value():
    n = 1000
    slots = tack.full(n, -1, tack.i64)
    counter = tack.zeros(1, tack.i32)
    tack.launch(n, claim, slots, counter)
    assert counter.numpy()[0] == n
    np.testing.assert_array_equal(np.sort(slots.numpy()), np.arange(n))
    olds = tack.zeros((n,), tack.vec2())
    acc = tack.zeros((1,), tack.vec2(), layout="soa")
    tack.launch(n, vec_claim, olds, acc)
    np.testing.assert_array_equal(acc.numpy()[0], [n, 2 * n])
    o = olds.numpy()
    np.testing.assert_array_equal(np.sort(o[:, 0]), np.arange(n))
    np.testing.assert_array_equal(o[:, 1], 2 * o[:, 0])


def test_augmented_store_evaluates_its_index_once():
    n = 500
    a = tack.zeros(n, tack.f64)
    counter = tack.zeros(1, tack.i64)
    tack.launch(n, bump_once, a, counter)
    assert counter.numpy()[0] == n
    np.testing.assert_array_equal(a.numpy(), np.full(n, 2.0))


# ---- debug mode ----------------------------------------------------------------------------------

def test_debug_mode_reports_an_index_out_of_range(debug_mode):
    src = tack.array(np.arange(10.0))
    out = tack.zeros(11, tack.f64)
    with pytest.raises(IndexError) as info:
        tack.launch(11, copy_k, out, src)
    msg = str(info.value)
    assert "index 10" in msg and "parameter 'src'" in msg and "10 rows" in msg, msg


def test_debug_mode_checks_a_row_view_against_its_own_rows(debug_mode):
    src = tack.array(np.arange(10.0))
    out = tack.zeros(4, tack.f64)
    with pytest.raises(IndexError) as info:
        tack.launch(4, copy_k, out, src[2:5])  # index 3 lies inside the root, past the view
    msg = str(info.value)
    assert "index 3" in msg and "parameter 'src'" in msg and "3 rows" in msg, msg
    tack.launch(3, copy_k, out, src[2:5])
    np.testing.assert_array_equal(out.numpy()[:3], [2, 3, 4])


def test_debug_mode_checks_soa_arrays(debug_mode):
    src = tack.zeros((4,), tack.vec3(), layout="soa")
    out = tack.zeros((5,), tack.vec3())
    with pytest.raises(IndexError, match="parameter 'src'"):
        tack.launch(5, copy_k, out, src)


@tack.kernel
def get_at(i, out, a, j):
    out[i] = a[i, j]


@tack.device_class
class Shift:
    def __init__(self, a, start):
        self.a, self.start = a, start

    @tack.func
    def __getitem__(self, k):
        return self.a[self.start + k]


def test_debug_mode_checks_every_axis_implicit_arrays_and_held_arrays(debug_mode):
    with pytest.raises(IndexError, match="index 3.*parameter 'a'"):
        tack.launch(2, get_at, tack.zeros(2, tack.f64), tack.zeros((2, 3), tack.f64), 3)
    with pytest.raises(IndexError, match="index 3.*parameter 'src'.*3 rows"):
        tack.launch(5, copy_k, tack.zeros(5, tack.i64), ta.CountingArray(3))
    with pytest.raises(IndexError, match="index 3.*parameter 'src'.*3 rows"):
        tack.launch(5, copy_k, tack.zeros(5, tack.f64), ta.View(tack.zeros(10, tack.f64), 2, 3))
    with pytest.raises(IndexError, match="index 4.*parameter 'src'"):
        tack.launch(5, copy_k, tack.zeros(5, tack.f64), Shift(tack.zeros(4, tack.f64), 1))
    with pytest.raises(IndexError, match="index 4.*parameter 'out'.*4 rows"):
        tack.launch(5, copy_k, tack.zeros(4, tack.f64), tack.zeros(5, tack.f64))
    with pytest.raises(IndexError, match="index 3.*parameter 'bins'.*3 rows"):  # atomics too
        tack.launch(2, count_k, tack.zeros(10, tack.i32)[2:5], tack.array(np.array([1, 3])))


def test_debug_mode_off_again():
    tack.set_debug(True)
    tack.set_debug(False)
    src = tack.array(np.arange(10.0))
    out = tack.zeros(5, tack.f64)
    tack.launch(5, copy_k, out, src)
    np.testing.assert_array_equal(out.numpy(), np.arange(5.0))


# ---- refusals ------------------------------------------------------------------------------------
# Kept undecorated here and decorated inside the test, so that a refusal may come from the
# decorator or from the launch (the compile).

def plain_helper(x):
    return x + 1


def calls_plain(i, out):
    out[i] = plain_helper(i)  # at:plain-call


def retyped(i, out):
    v = 1
    v = 0.5  # at:retyped
    out[i] = v


def uses_try(i, out):
    try:  # at:try
        out[i] = 1
    except Exception:
        pass


def uses_with(i, out):
    with open(os.devnull):  # at:with
        out[i] = 1


def uses_lambda(i, out):
    f = lambda x: x + 1  # noqa: E731  # at:lambda
    out[i] = f(i)


def uses_yield(i, out):
    out[i] = 1
    yield i  # at:yield


def uses_listcomp(i, out):
    out[i] = len([j for j in range(3)])  # at:listcomp


@tack.func
def fact(n):
    if n <= 1:
        return 1
    return n * fact(n - 1)  # at:recursion


def recursive(i, out):
    out[i] = fact(i)


def aliases_soa(i, a):
    b = a  # at:alias
    b[i] = b[i] * 2.0


def flat_atomic(i, a, x):
    tack.atomic_add(a, 3 * i + 1, x[i])  # at:flat-atomic


def write_a(i, a, v):
    a[i] = v  # at:write-a


def double_a(i, a):
    a[i] = a[i] * 2.0  # at:double-a


def count_narrow(i, bins, data):
    tack.atomic_add(bins, data[i], 1)  # at:count


def test_calling_a_plain_python_function_is_refused():
    with pytest.raises(TypeError, match=_at("plain-call")) as info:
        tack.launch(3, tack.kernel(calls_plain), tack.zeros(3, tack.i64))
    assert "plain_helper" in str(info.value)


def test_a_variable_that_changes_type_is_refused():
    with pytest.raises(TypeError, match=_at("retyped")):
        tack.launch(3, tack.kernel(retyped), tack.zeros(3, tack.f64))


@pytest.mark.parametrize("fn,tag", [(uses_try, "try"), (uses_with, "with"), (uses_lambda, "lambda"),
                                    (uses_yield, "yield"), (uses_listcomp, "listcomp")])
def test_unsupported_statements_are_refused(fn, tag):
    with pytest.raises(TypeError, match=_at(tag)):
        tack.launch(3, tack.kernel(fn), tack.zeros(3, tack.f64))


def test_recursion_is_refused():
    with pytest.raises(TypeError, match=_at("recursion")):
        tack.launch(3, tack.kernel(recursive), tack.zeros(3, tack.i64))


def test_binding_a_soa_parameter_to_another_name_is_refused():
    a = tack.zeros((3,), tack.vec3(), layout="soa")
    with pytest.raises(TypeError, match=_at("alias")):
        tack.launch(3, tack.kernel(aliases_soa), a)


def test_scalar_atomic_at_a_flat_component_index_of_a_soa_array_is_refused():
    a = tack.zeros((3,), tack.vec3(), layout="soa")
    with pytest.raises(TypeError, match=_at("flat-atomic")):
        tack.launch(3, tack.kernel(flat_atomic), a, tack.ones(3))


def test_writing_a_borrowed_read_only_array_is_refused():
    buf = np.arange(4, dtype=np.float64)
    a = tack.array_from_ptr(buf.ctypes.data, 4, tack.f64, owner=buf)
    with pytest.raises(tack.ReadOnlyError, match="parameter 'a'") as info:
        tack.launch(4, tack.kernel(write_a), a, 1.0)
    assert re.search(_at("write-a", or_def=True), str(info.value)), str(info.value)
    np.testing.assert_array_equal(buf, np.arange(4.0))


def test_writing_a_read_only_numpy_array_is_refused():
    x = np.arange(4.0)
    x.flags.writeable = False
    with pytest.raises(tack.ReadOnlyError, match="parameter 'a'") as info:
        tack.launch(4, tack.kernel(write_a), x, 1.0)
    assert re.search(_at("write-a", or_def=True), str(info.value)), str(info.value)
    np.testing.assert_array_equal(x, np.arange(4.0))


def test_writing_a_soa_array_with_a_read_only_component_is_refused():
    ro = np.array([10.0, 20.0, 30.0])
    ro.flags.writeable = False
    w = tack.array(np.array([1.0, 2.0, 3.0]))
    a = tack.soa(w, tack.from_dlpack(ro))
    with pytest.raises(tack.ReadOnlyError, match="component 1 of parameter 'a'") as info:
        tack.launch(3, tack.kernel(double_a), a)
    assert re.search(_at("double-a", or_def=True), str(info.value)), str(info.value)
    np.testing.assert_array_equal(w.numpy(), [1, 2, 3])  # nothing was written


def _make_scaler(scale):
    @tack.kernel
    def scaler(i, out):
        out[i] = scale * i

    return scaler


def test_a_kernel_defined_in_a_function_sees_its_closure():
    out = tack.zeros(3, tack.f64)
    tack.launch(3, _make_scaler(2.0), out)
    np.testing.assert_array_equal(out.numpy(), [0, 2, 4])
    tack.launch(3, _make_scaler(3.0), out)
    np.testing.assert_array_equal(out.numpy(), [0, 3, 6])
