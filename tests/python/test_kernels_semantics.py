# SPDX-License-Identifier: BSD-3-Clause
"""Python and NumPy semantics inside kernels compiled from Python: floor division and modulo,
true division, powers, chained comparisons, short-circuit logic, fixed-width wrap-around,
NumPy 2 promotion (Python numbers are weak), typed local variables, stores that convert; then
property tests that compare random expressions and random copies with NumPy."""

import hashlib
import importlib.util
import os
import random
import subprocess
import sys
import tempfile

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import tack


def _np(name):
    """The NumPy dtype of a tack scalar name ("i8" is int8 here, as in tack)."""
    return tack.dtype(name).numpy


# ---- kernels -------------------------------------------------------------------------------------

@tack.kernel
def divmod_k(i, q, r, a, b):
    q[i] = a[i] // b[i]
    r[i] = a[i] % b[i]


@tack.kernel
def true_div(i, out, a, b):
    out[i] = a[i] / b[i]


@tack.kernel
def power_k(i, out, a, b):
    out[i] = a[i] ** b[i]


@tack.kernel
def chain_k(i, out, both, a, b, c):
    out[i] = a[i] < b[i] <= c[i]
    both[i] = a[i] > 0 and not b[i] > 0 or c[i] == 0


@tack.kernel
def chain_once(i, out, counter, lo, hi):
    out[i] = lo < tack.atomic_add(counter, 0, 1) < hi


@tack.kernel
def short_circuit(i, out, counts, a):
    if i < len(a) and a[i] > 0:
        out[i] = 1
    elif i >= len(a) or a[i] < 0:
        out[i] = 2
    if not i < len(a):
        out[i] = out[i] + 10
    if i < len(a) and a[i] > 0 and tack.atomic_add(counts, 0, 1) >= 0:
        out[i] = out[i] + 100
    if (i < len(a) and a[i] == 0) or tack.atomic_add(counts, 1, 1) < 0:
        out[i] = out[i] + 1000


@tack.kernel
def wrap_k(i, s, d, p, n, a, b):
    s[i] = a[i] + b[i]
    d[i] = a[i] - b[i]
    p[i] = a[i] * b[i]
    n[i] = -a[i]


@tack.kernel
def plus_one(i, out, a):
    out[i] = a[i] + 1


@tack.kernel
def scale_literal(i, out, x):
    out[i] = x[i] * 0.1


@tack.kernel
def scale_param(i, out, x, s):
    out[i] = x[i] * s


@tack.kernel
def mixed_add(i, out, x, j):
    out[i] = x[i] + j[i]


@tack.kernel
def typed_locals(i, out_i, out_f, x8, x32):
    s = 2
    out_i[i] = s * x8[i]
    t = 0.1
    out_f[i] = x32[i] * t


@tack.kernel
def copy_k(i, out, src):
    out[i] = src[i]


# ---- floor division, modulo, true division, powers -----------------------------------------------

@pytest.mark.parametrize("name", ["i64", "i32", "i8"])
def test_floor_division_and_modulo_of_integers(name):
    a = np.array([7, -7, 7, -7, 0, 5, -5, 3, 6, -6], _np(name))
    b = np.array([2, 2, -2, -2, 3, 0, 0, 1, -4, 4], _np(name))
    q, r = tack.zeros(10, tack.dtype(name)), tack.zeros(10, tack.dtype(name))
    tack.launch(10, divmod_k, q, r, tack.array(a), tack.array(b))
    with np.errstate(all="ignore"):
        np.testing.assert_array_equal(q.numpy(), np.floor_divide(a, b))  # by zero: 0
        np.testing.assert_array_equal(r.numpy(), np.remainder(a, b))
    assert q.numpy()[1] == -4 and r.numpy()[1] == 1 and r.numpy()[2] == -1


def test_floor_division_and_modulo_of_unsigned_integers():
    a = np.array([7, 255, 0, 9], np.uint8)
    b = np.array([2, 16, 3, 0], np.uint8)
    q, r = tack.zeros(4, tack.u8), tack.zeros(4, tack.u8)
    tack.launch(4, divmod_k, q, r, tack.array(a), tack.array(b))
    with np.errstate(all="ignore"):
        np.testing.assert_array_equal(q.numpy(), np.floor_divide(a, b))
        np.testing.assert_array_equal(r.numpy(), np.remainder(a, b))


def test_floor_division_and_modulo_of_floats():
    a = np.array([7.5, -7.5, 7.5, -7.5, 1.0, 1.0, -1.0, 0.0, 5.0, -0.0, -1e-10])
    b = np.array([2.0, 2.0, -2.0, -2.0, 0.1, 0.0, 0.0, 0.0, -0.5, 3.0, 3.0])
    q, r = tack.zeros(11, tack.f64), tack.zeros(11, tack.f64)
    tack.launch(11, divmod_k, q, r, tack.array(a), tack.array(b))
    with np.errstate(all="ignore"):
        np.testing.assert_array_equal(q.numpy(), np.floor_divide(a, b))
        np.testing.assert_array_equal(r.numpy(), np.remainder(a, b))
    assert q.numpy()[4] == 9.0  # 1.0 // 0.1, as Python and NumPy give
    # float32 operands stay float32
    a32, b32 = a.astype(np.float32), b.astype(np.float32)
    q32, r32 = tack.zeros(11, tack.f32), tack.zeros(11, tack.f32)
    with np.errstate(all="ignore"):
        tack.launch(11, divmod_k, q32, r32, tack.array(a32), tack.array(b32))
        np.testing.assert_array_equal(q32.numpy(), np.floor_divide(a32, b32))
        np.testing.assert_array_equal(r32.numpy(), np.remainder(a32, b32))


def test_true_division_of_integers_gives_float64():
    a = np.array([7, -7, 1, 1, 0, 2**31 - 1], np.int32)
    b = np.array([2, 2, 3, 0, 0, 7], np.int32)
    out = tack.zeros(6, tack.f64)
    tack.launch(6, true_div, out, tack.array(a), tack.array(b))
    with np.errstate(all="ignore"):
        want = np.true_divide(a, b)
    assert want.dtype == np.float64
    np.testing.assert_array_equal(out.numpy(), want)  # 1/3 in float64, 1/0 inf, 0/0 nan
    a8, b8 = np.array([1, 100], np.int8), np.array([3, 7], np.int8)
    tack.launch(2, true_div, out, tack.array(a8), tack.array(b8))
    np.testing.assert_array_equal(out.numpy()[:2], a8 / b8)


def test_powers():
    a = np.array([2, -3, 0, 5, 7, -1], np.int64)
    b = np.array([10, 3, 0, 1, 0, 7], np.int64)
    out = tack.zeros(6, tack.i64)
    tack.launch(6, power_k, out, tack.array(a), tack.array(b))
    np.testing.assert_array_equal(out.numpy(), a ** b)
    a8 = np.array([3, 2, -2, 5], np.int8)
    b8 = np.array([5, 7, 7, 4], np.int8)
    o8 = tack.zeros(4, tack.i8)
    tack.launch(4, power_k, o8, tack.array(a8), tack.array(b8))
    np.testing.assert_array_equal(o8.numpy(), a8 ** b8)  # wraps: 3**5 is -13 in int8
    af = np.array([2.0, 9.0, -2.0, 0.0, 1.5])
    bf = np.array([0.5, 0.5, 3.0, 0.0, -2.0])
    of = tack.zeros(5, tack.f64)
    tack.launch(5, power_k, of, tack.array(af), tack.array(bf))
    np.testing.assert_allclose(of.numpy(), af ** bf, rtol=1e-15)


def test_integer_min_divided_by_minus_one_does_not_crash(tmp_path):
    # The C++ division traps on this overflow; NumPy gives the minimum (floor) and 0 (modulo).
    (tmp_path / "kmin.py").write_text(
        "import tack\n\n\n@tack.kernel\ndef dm(i, q, r, a, b):\n"
        "    q[i] = a[i] // b[i]\n    r[i] = a[i] % b[i]\n")
    script = (
        "import sys; sys.path.insert(0, sys.argv[1])\n"
        "import numpy as np, tack, kmin\n"
        "for dt in (np.int32, np.int64):\n"
        "    a = np.array([np.iinfo(dt).min, np.iinfo(dt).min], dt)\n"
        "    b = np.array([-1, 1], dt)\n"
        "    q, r = np.zeros(2, dt), np.zeros(2, dt)\n"
        "    tack.launch(2, kmin.dm, q, r, a, b)\n"
        "    with np.errstate(all='ignore'):\n"
        "        assert (q == np.floor_divide(a, b)).all(), (dt, q)\n"
        "        assert (r == np.remainder(a, b)).all(), (dt, r)\n"
        "print('ok')\n")
    proc = subprocess.run([sys.executable, "-c", script, str(tmp_path)], capture_output=True,
                          text=True, timeout=300)
    assert proc.returncode == 0 and "ok" in proc.stdout, (proc.returncode, proc.stderr[-2000:])


@tack.kernel
def bits_k(i, o_and, o_or, o_xor, o_shl, o_shr, o_inv, a, b):
    o_and[i] = a[i] & b[i]
    o_or[i] = a[i] | b[i]
    o_xor[i] = a[i] ^ b[i]
    o_shl[i] = a[i] << b[i]
    o_shr[i] = a[i] >> b[i]
    o_inv[i] = ~a[i]


@pytest.mark.parametrize("name", ["i32", "u8", "i64", "u64"])
def test_bitwise_operators_and_shifts_match_numpy(name):
    dt = _np(name)
    a = np.array([5, -8 if dt.kind == "i" else 200, 1, 3, 7, 1], dt)
    b = np.array([3, 40, 31, 0, 64, 63], dt)  # shifts past the width give what NumPy gives
    outs = [tack.zeros(6, tack.dtype(name)) for _ in range(6)]
    tack.launch(6, bits_k, *outs, tack.array(a), tack.array(b))
    with np.errstate(all="ignore"):
        wants = [a & b, a | b, a ^ b, np.left_shift(a, b), np.right_shift(a, b), ~a]
    for got, want in zip(outs, wants):
        np.testing.assert_array_equal(got.numpy(), want)


# ---- comparisons and logic -----------------------------------------------------------------------

def test_chained_comparisons_and_logic():
    a = np.array([1.0, 3.0, 2.0, 2.0, -1.0, 0.5])
    b = np.array([2.0, 2.0, 2.0, 3.0, 0.0, -1.0])
    c = np.array([2.0, 5.0, 1.0, 3.0, 0.0, 0.0])
    out, both = tack.zeros(6, tack.bool_), tack.zeros(6, tack.bool_)
    tack.launch(6, chain_k, out, both, tack.array(a), tack.array(b), tack.array(c))
    np.testing.assert_array_equal(out.numpy(), (a < b) & (b <= c))
    np.testing.assert_array_equal(both.numpy(), ((a > 0) & ~(b > 0)) | (c == 0))


@tack.kernel
def min_max_k(i, lo, hi, x, y):
    lo[i] = min(x[i], y[i])
    hi[i] = max(x[i], y[i])


def test_builtin_min_and_max_propagate_nan_as_numpy_minimum_and_maximum():
    x = np.array([1.0, np.nan, 3.0, -0.5])
    y = np.array([np.nan, 2.0, 1.0, 4.0])
    lo, hi = tack.zeros(4, tack.f64), tack.zeros(4, tack.f64)
    tack.launch(4, min_max_k, lo, hi, tack.array(x), tack.array(y))
    np.testing.assert_array_equal(lo.numpy(), np.minimum(x, y))  # nan, nan, 1, -0.5
    np.testing.assert_array_equal(hi.numpy(), np.maximum(x, y))
    i8 = np.array([-128, 127, 5, 0], np.int8)
    u32 = np.array([7, 0, 4000000000, 1], np.uint32)
    lo2, hi2 = tack.zeros(4, tack.i64), tack.zeros(4, tack.i64)
    tack.launch(4, min_max_k, lo2, hi2, tack.array(i8), tack.array(u32))  # compared as int64
    np.testing.assert_array_equal(lo2.numpy(), np.minimum(i8, u32))
    np.testing.assert_array_equal(hi2.numpy(), np.maximum(i8, u32))


@tack.kernel
def compare_all(i, out, a, b):
    out[i, 0] = a[i] < b[i]
    out[i, 1] = a[i] <= b[i]
    out[i, 2] = a[i] > b[i]
    out[i, 3] = a[i] >= b[i]
    out[i, 4] = a[i] == b[i]
    out[i, 5] = a[i] != b[i]


def test_comparisons_of_uint64_and_int64_are_exact():
    # NumPy compares these exactly (no detour through float64, where 2**63 - 1 and 2**63 are equal)
    u = np.array([2**63, 2**64 - 1, 5, 2**63, 0], np.uint64)
    s = np.array([2**63 - 1, -1, 5, -(2**63), -1], np.int64)
    out = tack.zeros((5, 6), tack.bool_)
    tack.launch(5, compare_all, out, tack.array(u), tack.array(s))
    want = np.stack([u < s, u <= s, u > s, u >= s, u == s, u != s], axis=1)
    np.testing.assert_array_equal(out.numpy(), want)


def test_a_chained_comparison_evaluates_the_middle_once():
    n = 300
    out = tack.zeros(n, tack.bool_)
    counter = tack.zeros(1, tack.i64)
    tack.launch(n, chain_once, out, counter, -1, n)
    assert counter.numpy()[0] == n
    assert out.numpy().all()


def test_and_or_short_circuit(debug_mode):
    a = np.array([3.0, 0.0, -2.0, 5.0, 0.0])
    n = len(a) + 3
    out = tack.zeros(n, tack.i32)
    counts = tack.zeros(2, tack.i64)
    tack.launch(n, short_circuit, out, counts, tack.array(a))  # never reads a past its end
    want = np.zeros(n, np.int32)
    want[:5] = np.where(a > 0, 101, np.where(a < 0, 2, 0))
    want[:5] += np.where(a == 0, 1000, 0)  # the other elements run the atomic, which gives >= 0
    want[5:] = 2 + 10  # past the end: the second operand of each "or", never a[i]
    np.testing.assert_array_equal(out.numpy(), want)
    assert counts.numpy()[0] == (a > 0).sum()
    assert counts.numpy()[1] == n - (a == 0).sum()


@tack.kernel
def python_values(i, out, a):
    out[i, 0] = a[i] if i < len(a) else -1.0  # the other branch is never evaluated
    if i < len(a):
        out[i, 1] = a[i] or 5.0
        out[i, 2] = a[i] and 5.0
        if a[i]:
            out[i, 3] = 1.0
        else:
            out[i, 3] = 2.0
    p, q = 1, 2
    p, q = q, p
    out[i, 4] = p * 10 + q


def test_conditional_expressions_and_or_values_and_truthiness(debug_mode):
    a = np.array([0.0, 3.0, np.nan, -0.0])
    out = tack.zeros((6, 5), tack.f64)
    tack.launch(6, python_values, out, tack.array(a))
    o = out.numpy()
    np.testing.assert_array_equal(o[:, 0], [0, 3, np.nan, 0, -1, -1])
    np.testing.assert_array_equal(o[:4, 1], [x or 5.0 for x in a])
    np.testing.assert_array_equal(o[:4, 2], [x and 5.0 for x in a])
    np.testing.assert_array_equal(o[:4, 3], [1.0 if x else 2.0 for x in a])
    np.testing.assert_array_equal(o[:, 4], [21] * 6)


# ---- loops ---------------------------------------------------------------------------------------

@tack.kernel
def loop_semantics(i, out):
    s = 0
    for k in range(5):
        s += k
        k = k + 10  # rebinding the loop variable does not change the iteration
    out[i, 0] = s
    n = 3
    c = 0
    for k in range(n):  # the range is evaluated once
        n = n + 1
        c += 1
    out[i, 1] = c
    last = -1
    for last in range(i, i + 5):
        pass
    out[i, 2] = last  # the last value taken, as in Python
    t = 0
    for k in range(10, 0, -3):
        t = t * 100 + k
    out[i, 3] = t
    for k in range(i + 100, i):  # empty: the variable keeps its value
        t = -1
    out[i, 4] = t
    for k in range(0, 10, 4):
        t = k
    out[i, 5] = k


def test_for_loops_follow_python():
    out = tack.zeros((3, 6), tack.i64)
    tack.launch(3, loop_semantics, out)
    want = []
    for i in range(3):
        row = [10, 3, i + 4, 10070401, 10070401, 8]
        want.append(row)
    np.testing.assert_array_equal(out.numpy(), want)


# ---- fixed-width integers and promotion ----------------------------------------------------------

WRAP_CASES = {
    "i8": ([127, -128, 100, -100, 5], [1, -1, 100, 100, -7]),
    "u8": ([255, 0, 200, 16, 3], [1, 1, 100, 16, 250]),
    "i32": ([2**31 - 1, -(2**31), 65536, -46341, 7], [1, -1, 65536, 46341, -9]),
    "u64": ([2**64 - 1, 0, 2**32, 2**63, 12], [1, 1, 2**32, 2, 5]),
    "i64": ([2**63 - 1, -(2**63), 2**32, -(2**62), 3], [1, -1, 2**32, 4, -4]),
}


@pytest.mark.parametrize("name", list(WRAP_CASES))
def test_fixed_width_integers_wrap_as_numpy(name):
    a = np.array(WRAP_CASES[name][0], dtype=_np(name))
    b = np.array(WRAP_CASES[name][1], dtype=_np(name))
    outs = [tack.zeros(5, tack.dtype(name)) for _ in range(4)]
    tack.launch(5, wrap_k, *outs, tack.array(a), tack.array(b))
    with np.errstate(all="ignore"):
        for got, want in zip(outs, (a + b, a - b, a * b, -a)):
            np.testing.assert_array_equal(got.numpy(), want)


@pytest.mark.parametrize("name", ["i8", "u8", "i32", "u64"])
def test_an_array_value_plus_a_python_int_keeps_its_type(name):
    info = np.iinfo(_np(name))
    a = np.array([info.max, info.min, 1], dtype=_np(name))
    out = tack.zeros(3, tack.f64)
    tack.launch(3, plus_one, out, tack.array(a))
    with np.errstate(all="ignore"):
        want = a + 1
    assert want.dtype == _np(name)
    np.testing.assert_array_equal(out.numpy(), want.astype(np.float64))


def test_float32_times_a_python_float_stays_float32():
    x = np.array([0.1, 1.0 / 3, 7.7, -2.2, 123.456], np.float32)
    out = tack.zeros(5, tack.f64)
    tack.launch(5, scale_literal, out, tack.array(x))
    want = x * 0.1
    assert want.dtype == np.float32
    np.testing.assert_array_equal(out.numpy(), want.astype(np.float64))
    tack.launch(5, scale_param, out, tack.array(x), 0.1)  # the same through a parameter
    np.testing.assert_array_equal(out.numpy(), want.astype(np.float64))
    tack.launch(5, scale_param, out, tack.array(x), 3)  # a Python int too
    np.testing.assert_array_equal(out.numpy(), (x * 3).astype(np.float64))
    x8 = np.array([3, -5, 127], np.int8)
    tack.launch(3, scale_param, out, tack.array(x8), 0.5)  # an integer times a Python float: float64
    np.testing.assert_array_equal(out.numpy()[:3], x8 * 0.5)


def test_mixed_kinds_promote_as_numpy():
    x = np.array([0.1, 1.5, -3.3], np.float32)
    j = np.array([1, 2**40, -7], np.int64)
    out = tack.zeros(3, tack.f64)
    tack.launch(3, mixed_add, out, tack.array(x), tack.array(j))
    want = x + j
    assert want.dtype == np.float64  # float32 + int64 -> float64
    np.testing.assert_array_equal(out.numpy(), want)
    u = np.array([2**63, 5, 0], np.uint64)
    s = np.array([-1, -7, 3], np.int64)
    tack.launch(3, mixed_add, out, tack.array(u), tack.array(s))
    want = u + s
    assert want.dtype == np.float64  # uint64 + int64 -> float64
    np.testing.assert_array_equal(out.numpy(), want)
    u32 = np.array([4000000000, 1, 2], np.uint32)
    i8 = np.array([-1, -128, 127], np.int8)
    o64 = tack.zeros(3, tack.i64)
    tack.launch(3, mixed_add, o64, tack.array(u32), tack.array(i8))
    np.testing.assert_array_equal(o64.numpy(), u32 + i8)  # int64, no wrap


@tack.kernel
def vec_add(i, out, v, w):
    out[i] = v[i] + w[i]


@tack.kernel
def vec_scale(i, out, v):
    out[i] = v[i] * 0.1


def test_vector_values_promote_component_by_component_as_numpy():
    vi = np.array([[16777217, 1, 2]], np.int32)
    wf = np.zeros((1, 3), np.float32)
    out = tack.zeros((1,), tack.vec3(tack.f64))
    tack.launch(1, vec_add, out, tack.array(vi, dtype=tack.vec3(tack.i32)), tack.array(wf, dtype=tack.vec3()))
    np.testing.assert_array_equal(out.numpy(), vi + wf)  # int32 + float32: float64, exact
    x = np.array([[0.1, 1 / 3, 7.7]], np.float32)
    tack.launch(1, vec_scale, out, tack.array(x, dtype=tack.vec3()))
    np.testing.assert_array_equal(out.numpy(), (x * 0.1).astype(np.float64))  # stays float32
    j = np.array([16777217], np.int64)
    tack.launch(1, vec_add, out, tack.array(x, dtype=tack.vec3()), tack.array(j))
    np.testing.assert_array_equal(out.numpy(), x + j[:, None])  # a vector plus a scalar


def test_local_variables_from_python_literals_are_int64_and_float64():
    x8 = np.array([100, -100, 127], np.int8)
    x32 = np.array([0.1, 3.0, 1.0 / 3], np.float32)
    out_i = tack.zeros(3, tack.i64)
    out_f = tack.zeros(3, tack.f64)
    tack.launch(3, typed_locals, out_i, out_f, tack.array(x8), tack.array(x32))
    np.testing.assert_array_equal(out_i.numpy(), np.int64(2) * x8)  # 200, not an int8 wrap
    np.testing.assert_array_equal(out_f.numpy(), x32 * np.float64(0.1))


def test_stores_convert_to_the_element_type():
    x = np.array([1e20, -1e20, np.nan, 2.7, -2.7, np.inf, -np.inf])
    o32 = tack.zeros(7, tack.i32)
    tack.launch(7, copy_k, o32, tack.array(x))
    np.testing.assert_array_equal(o32.numpy(), [2**31 - 1, -(2**31), 0, 2, -2, 2**31 - 1, -(2**31)])
    y = np.array([-5.0, 300.0, 2.9, np.nan])
    o8 = tack.zeros(4, tack.u8)
    tack.launch(4, copy_k, o8, tack.array(y))
    np.testing.assert_array_equal(o8.numpy(), [0, 255, 2, 0])
    big = np.array([300, -129, 5], np.int64)
    oi8 = tack.zeros(3, tack.i8)
    tack.launch(3, copy_k, oi8, tack.array(big))
    np.testing.assert_array_equal(oi8.numpy(), big.astype(np.int8))  # integers wrap as astype
    of = tack.zeros(3, tack.f32)
    tack.launch(3, copy_k, of, tack.array(np.array([0.1, 1e300, -1e-300])))
    with np.errstate(over="ignore"):
        want = np.array([0.1, 1e300, -1e-300]).astype(np.float32)
    np.testing.assert_array_equal(of.numpy(), want)


# ---- random expressions against NumPy ------------------------------------------------------------
# Hypothesis draws a seed; the expression tree, the dtypes and the values come from a generator
# seeded with it (far more varied examples than drawing the tree node by node under derandomize).

EXPR_DTYPES = ["i8", "i16", "i32", "i64", "u8", "u32", "f32", "f64"]
_VARS = ("a", "b", "c")
_BINOPS = ["+", "-", "*", "/", "//", "%"]
_CMPS = ["<", "<=", ">", ">=", "==", "!="]
_LITERALS = ["1", "2", "3", "5", "0.5", "2.0", "0.1", "3.25"]


def _random_expr(rng, depth):
    """(kernel text, NumPy text) of a numeric expression over a, b, c. Python numbers appear only
    as second operands, so two of them never meet (NumPy would refuse some such pairs)."""
    if depth == 0 or rng.random() < 0.15:
        v = rng.choice(_VARS)
        return f"{v}[i]", v

    def operand():
        if rng.random() < 0.3:
            t = rng.choice(_LITERALS)
            return t, t
        return _random_expr(rng, depth - 1)

    x, nx = _random_expr(rng, depth - 1)
    kind = rng.choices(["bin", "pow", "neg", "abs", "minmax"], weights=[8, 1, 1, 1, 2])[0]
    if kind == "bin":
        op = rng.choice(_BINOPS)
        y, ny = operand()
        return f"({x} {op} {y})", f"({nx} {op} {ny})"
    if kind == "pow":
        k = rng.randint(0, 3)
        return f"({x} ** {k})", f"({nx} ** {k})"
    if kind == "neg":
        return f"(-{x})", f"(-{nx})"
    if kind == "abs":
        return f"abs({x})", f"abs({nx})"
    fn = rng.choice(["min", "max"])
    y, ny = operand()
    return f"{fn}({x}, {y})", f"np.{fn}imum({nx}, {ny})"  # NaN propagates, as in NumPy


def _random_root(rng):
    kind = rng.choices(["arith", "cmp", "chain"], weights=[6, 2, 1])[0]
    if kind == "arith":
        return _random_expr(rng, 3)
    x, nx = _random_expr(rng, 2)
    y, ny = _random_expr(rng, 2)
    if kind == "cmp":
        op = rng.choice(_CMPS)
        return f"{x} {op} {y}", f"({nx} {op} {ny})"
    z, nz = _random_expr(rng, 2)
    o1, o2 = rng.choice(_CMPS[:4]), rng.choice(_CMPS[:4])
    return f"{x} {o1} {y} {o2} {z}", f"(({nx} {o1} {ny}) & ({ny} {o2} {nz}))"


def _random_values(rng, name, n):
    dt = _np(name)
    if dt.kind == "f":
        pool = [0.0, -0.0, 1.0, -1.0, 0.5, 2.0, -3.0, 7.0]
        vals = [rng.choice(pool) if rng.random() < 0.3 else rng.uniform(-50, 50) for _ in range(n)]
        return np.array(vals, dtype=dt)
    info = np.iinfo(dt)
    lo, hi = (0, 200) if dt.kind == "u" else (-100, 100)
    vals = [rng.randint(info.min, info.max) if rng.random() < 0.2 else rng.randint(lo, hi)
            for _ in range(n)]
    return np.array(vals, dtype=dt)


_EXPR_DIR = os.path.join(tempfile.gettempdir(), f"tack-kernel-expressions-{os.getuid()}")


def _kernel_from_source(expr):
    """The kernel `def k(i, out, a, b, c): out[i] = <expr>` from a real file (so that its source
    can be read), one module per expression."""
    src = f"import tack\n\n\ndef k(i, out, a, b, c):\n    out[i] = {expr}\n"
    name = "tack_expr_" + hashlib.sha1(src.encode()).hexdigest()[:16]
    if name in sys.modules:
        return tack.kernel(sys.modules[name].k)
    os.makedirs(_EXPR_DIR, exist_ok=True)
    path = os.path.join(_EXPR_DIR, name + ".py")
    if not os.path.exists(path):
        tmp = f"{path}.{os.getpid()}.tmp"
        with open(tmp, "w", encoding="utf-8") as f:
            f.write(src)
        os.replace(tmp, path)
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return tack.kernel(module.k)


def _expression_case(seed):
    rng = random.Random(seed)
    expr, np_expr = _random_root(rng)
    arrays = [_random_values(rng, rng.choice(EXPR_DTYPES), 16) for _ in _VARS]
    return expr, np_expr, arrays


@settings(max_examples=60, deadline=None, derandomize=True)
@given(st.integers(0, 2**32 - 1))
def test_random_expressions_match_numpy(seed):
    expr, np_expr, arrays = _expression_case(seed)
    env = dict(zip(_VARS, arrays), np=np)
    with np.errstate(all="ignore"):
        want = np.asarray(eval(np_expr, env))  # noqa: S307  (our own generated text)
    out = tack.zeros(len(arrays[0]), tack.dtype(want.dtype))
    kernel = _kernel_from_source(expr)
    tack.launch(len(arrays[0]), kernel, out, *[tack.array(x) for x in arrays])
    got = out.numpy()
    info = f"\n{expr}\nover " + "\n".join(f"{v} = {x!r}" for v, x in zip(_VARS, arrays))
    assert got.dtype == want.dtype, info
    if want.dtype.kind == "f":
        rtol = 1e-5 if want.dtype == np.float32 else 1e-12
        np.testing.assert_allclose(got, want, rtol=rtol, equal_nan=True, err_msg=info)
    else:
        np.testing.assert_array_equal(got, want, err_msg=info)


# ---- random copies against NumPy -----------------------------------------------------------------

@tack.kernel
def copy1(i, out, src):
    out[i] = src[i]


@tack.kernel
def copy2(i, j, out, src):
    out[i, j] = src[i, j]


@tack.kernel
def copy3(i, j, k, out, src):
    out[i, j, k] = src[i, j, k]


_COPY_KERNELS = {1: copy1, 2: copy2, 3: copy3}
_COPY_DTYPES = ["f32", "f64", "i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64", "bool",
                "vec3(f32)", "vec2(f64)", "vec4(i32)", "mat2(f32)"]


@st.composite
def _copy_cases(draw):
    dtype = tack.dtype(draw(st.sampled_from(_COPY_DTYPES)))
    rank = draw(st.integers(1, 3))
    shape = tuple(draw(st.lists(st.integers(1, 5), min_size=rank, max_size=rank)))
    rows = shape[0] + draw(st.integers(0, 3))
    start = draw(st.integers(0, rows - shape[0]))
    dst_rows = shape[0] + draw(st.integers(0, 3))
    dst_start = draw(st.integers(0, dst_rows - shape[0]))
    layouts = ["aos", "soa"] if not dtype.is_scalar else ["aos"]
    src_layout = draw(st.sampled_from(layouts))
    dst_layout = draw(st.sampled_from(layouts))
    seed = draw(st.integers(0, 2**31))
    return dtype, shape, rows, start, dst_rows, dst_start, src_layout, dst_layout, seed


@settings(max_examples=40, deadline=None, derandomize=True)
@given(_copy_cases())
def test_random_copies_match_numpy(case):
    dtype, shape, rows, start, dst_rows, dst_start, src_layout, dst_layout, seed = case
    rng = np.random.default_rng(seed)
    full_shape = (rows,) + shape[1:] + dtype.shape
    scalar = dtype.numpy
    if scalar.kind == "b":
        values = rng.integers(0, 2, full_shape).astype(bool)
    elif scalar.kind == "f":
        values = rng.standard_normal(full_shape).astype(scalar)
    else:
        info = np.iinfo(scalar)
        values = rng.integers(info.min, info.max, full_shape, dtype=scalar, endpoint=True)
    src = tack.empty((rows,) + shape[1:], dtype, layout=src_layout)
    tack.copyto(src, values)
    dst = tack.zeros((dst_rows,) + shape[1:], dtype, layout=dst_layout)
    n = shape[0]
    dims = n if len(shape) == 1 else shape
    tack.launch(dims, _COPY_KERNELS[len(shape)], dst[dst_start:dst_start + n], src[start:start + n])
    want = np.zeros_like(values, shape=(dst_rows,) + values.shape[1:])
    want[dst_start:dst_start + n] = values[start:start + n]
    got = dst.numpy()
    assert got.tobytes() == want.tobytes(), (case, got, want)


# ---- random converting stores against NumPy ------------------------------------------------------

_SCALARS = ["f32", "f64", "i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64", "bool"]


def _converted(values, to):
    """values stored into an array of dtype `to`: as NumPy's astype, except that a float stored
    into an integer saturates at the integer's range and NaN gives 0."""
    to = _np(to)
    if values.dtype.kind != "f" or to.kind not in "iu":
        with np.errstate(all="ignore"):
            return values.astype(to)
    info = np.iinfo(to)
    out = []
    for x in values.tolist():
        if x != x:
            out.append(0)
        elif x >= info.max:
            out.append(int(info.max))
        elif x <= info.min:
            out.append(int(info.min))
        else:
            out.append(int(x))  # toward zero
    return np.array(out, dtype=to)


@st.composite
def _conversion_cases(draw):
    frm = draw(st.sampled_from(_SCALARS))
    to = draw(st.sampled_from(_SCALARS))
    seed = draw(st.integers(0, 2**31))
    return frm, to, seed


@settings(max_examples=40, deadline=None, derandomize=True)
@given(_conversion_cases())
def test_random_converting_stores_match_numpy(case):
    frm, to, seed = case
    rng = np.random.default_rng(seed)
    dt = _np(frm)
    n = 24
    if dt.kind == "b":
        values = rng.integers(0, 2, n).astype(bool)
    elif dt.kind == "f":
        special = np.array([np.nan, np.inf, -np.inf, 0.0, -0.0, 0.5, -0.5, 1e30, -1e30, 2.0**63,
                            2.0**64, -(2.0**63), 255.5, -128.5, 65535.9, 4294967295.5])
        values = np.concatenate([special, rng.standard_normal(n - len(special)) * 1e4]).astype(dt)
    else:
        info = np.iinfo(dt)
        values = rng.integers(info.min, info.max, n, dtype=dt, endpoint=True)
    out = tack.zeros(n, tack.dtype(to))
    tack.launch(n, copy_k, out, tack.array(values))
    want = _converted(values, to)
    got = out.numpy()
    assert got.dtype == want.dtype
    np.testing.assert_array_equal(got, want, err_msg=f"{frm} -> {to}: {values!r}")


@tack.kernel
def _multiply_add(i, out, b, s, c):
    out[i] = b[i] + s * c[i]


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_multiply_add_rounds_as_numpy_bit_for_bit(dtype):
    """No fused multiply-add: `b + s * c` rounds the product, then the sum, as NumPy does (a
    fused one differs in the last bit for about a third of random inputs)."""
    rng = np.random.default_rng(11)
    b, c = rng.standard_normal(4096).astype(dtype), rng.standard_normal(4096).astype(dtype)
    s = dtype(1.0 / 3.0)
    out = tack.zeros(4096, tack.dtype(np.dtype(dtype)))
    tack.launch(4096, _multiply_add, out, tack.array(b), s, tack.array(c))
    np.testing.assert_array_equal(out.numpy(), b + s * c)
