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
