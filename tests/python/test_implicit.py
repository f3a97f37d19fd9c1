# SPDX-License-Identifier: BSD-3-Clause
"""tack.arrays: the implicit arrays (computed and rearranging, docs/reference/python.md) and lazy
arithmetic."""

import numpy as np
import pytest

import tack
from tack import arrays as ta


def test_counting_and_constant():
    c = ta.CountingArray(5)
    assert c.shape == (5,) and c.dtype is tack.i64
    np.testing.assert_array_equal(c.numpy(), [0, 1, 2, 3, 4])
    f = ta.CountingArray(4, 1.0, 0.5)
    np.testing.assert_array_equal(f.numpy(), [1.0, 1.5, 2.0, 2.5])
    assert ta.CountingArray(3, dtype=tack.f32).dtype is tack.f32
    k = ta.ConstantArray(2.5, 3)
    np.testing.assert_array_equal(k.numpy(), [2.5] * 3)
    v = ta.ConstantArray((1.0, 0.0, 0.0), 2)
    assert v.dtype is tack.vec3(tack.f64) and v.numpy().shape == (2, 3)
    assert tack.sum(ta.CountingArray(101)) == 5050
    with pytest.raises(ValueError, match="negative length"):
        ta.CountingArray(-1)


def test_cartesian_product_and_uniform_coordinates():
    x = tack.array(np.array([0.0, 1.0]))
    y = tack.array(np.array([10.0, 20.0, 30.0]))
    p = ta.CartesianProduct(x, y)
    assert p.dtype is tack.vec2(tack.f64) and p.size == 6
    np.testing.assert_array_equal(p.numpy()[:3], [[0, 10], [1, 10], [0, 20]])
    u = ta.UniformCoordinates((2, 2, 2), (1.0, 0.0, 0.0), (0.5, 1.0, 2.0))
    assert u.dtype is tack.vec3(tack.f32) and u.size == 8
    np.testing.assert_array_equal(u.numpy()[7], [1.5, 1.0, 2.0])


def test_cast_and_random():
    c = ta.Cast(ta.CountingArray(4), tack.f32)
    assert c.dtype is tack.f32
    r = ta.RandomUniform(1000, seed=7)
    vals = r.numpy()
    assert vals.min() >= 0 and vals.max() < 1
    np.testing.assert_array_equal(vals, ta.RandomUniform(1000, seed=7).numpy())  # counter based
    assert not np.array_equal(vals, ta.RandomUniform(1000, seed=8).numpy())
    assert ta.RandomNormal(10, 1).dtype is tack.f64
    assert ta.RandomBits(10, 1).dtype is tack.u32


def test_rearranging_arrays_read_and_write():
    values = tack.array(np.arange(10, dtype=np.float32))
    order = tack.array(np.array([9, 0, 5], dtype=np.int64))
    p = ta.Permutation(order, values)
    np.testing.assert_array_equal(p.numpy(), [9, 0, 5])
    tack.copyto(p, np.array([-1, -2, -3], np.float32))  # scatter
    assert values.numpy()[9] == -1 and values.numpy()[5] == -3
    s = ta.Strided(values, 3, 1)
    np.testing.assert_array_equal(s.numpy(), [1, 4, 7])
    s.fill(0)
    assert values.numpy()[4] == 0 and values.numpy()[3] == 3
    v = ta.View(values, 2, 3)
    np.testing.assert_array_equal(v.numpy(), [2, 3, 0])
    a, b = tack.zeros(2), tack.ones(3)
    cat = ta.Concatenate(a, b)
    np.testing.assert_array_equal(cat.numpy(), [0, 0, 1, 1, 1])
    tack.copyto(cat, np.arange(5, dtype=np.float32))
    np.testing.assert_array_equal(b.numpy(), [2, 3, 4])
    vec = tack.array(np.arange(6, dtype=np.float32).reshape(2, 3), dtype=tack.vec3())
    e = ta.ExtractComponent(vec, 1)
    np.testing.assert_array_equal(e.numpy(), [1, 4])
    e.fill(9)
    np.testing.assert_array_equal(vec.numpy()[:, 1], [9, 9])
    x, y = tack.zeros(2), tack.array(np.array([2.0, 4.0], np.float32))
    comp = ta.Components(x, y)
    assert comp.dtype is tack.vec2()
    np.testing.assert_array_equal(comp.numpy(), [[0, 2], [0, 4]])
    assert tack.sum(comp) == 6
    # Components is an implicit array, not storage: no copyto, no fill (tack.soa makes storage)
    with pytest.raises(TypeError, match="tack.soa"):
        tack.copyto(comp, np.array([[1, 2], [3, 4]], np.float32))
    with pytest.raises(TypeError, match="not storage"):
        comp.fill(1.0)
    # a computed component is fine for reading
    np.testing.assert_array_equal(ta.Components(ta.CountingArray(2, dtype=tack.f32), y).numpy()[1], [1, 4])


def test_computed_arrays_refuse_stores():
    with pytest.raises(TypeError, match="computes its values"):
        tack.copyto(ta.CountingArray(3), np.zeros(3))
    with pytest.raises(TypeError, match="computes its values"):
        ta.ConstantArray(1.0, 3).fill(2.0)
    ro = np.zeros(3)
    ro.flags.writeable = False
    with pytest.raises(tack.ReadOnlyError, match="read-only"):
        tack.copyto(ta.View(tack.from_dlpack(ro), 0, 2), np.ones(2))
    with pytest.raises(tack.ReadOnlyError, match="read-only"):
        tack.copyto(ta.Concatenate(tack.zeros(1, tack.f64), tack.from_dlpack(ro)), np.ones(4))


def test_lazy_arithmetic_one_pass():
    a = tack.array(np.arange(8, dtype=np.float32))
    b = tack.array(np.ones(8, dtype=np.float32))
    e = a + 2.0 * b
    assert isinstance(e, ta.ImplicitArray) and e.dtype is tack.f32
    out = tack.empty(8)
    tack.copyto(out, e)
    np.testing.assert_array_equal(out.numpy(), np.arange(8) + 2.0)
    assert tack.sum(a * b) == 28
    np.testing.assert_allclose(tack.sqrt(a).numpy(), np.sqrt(np.arange(8, dtype=np.float32)))
    np.testing.assert_array_equal((-a).numpy(), -np.arange(8))
    np.testing.assert_array_equal((1 - a / 2).numpy(), 1 - np.arange(8) / 2)
    ints = tack.array(np.arange(4))
    assert (ints / 2).dtype is tack.f64 and (ints * 2).dtype is tack.i64
    assert (ints * 0.5).dtype is tack.f64 and (a * 2).dtype is tack.f32
    v = tack.ones((3,), tack.vec3())
    np.testing.assert_array_equal((v * tack.array(np.array([1, 2, 3], np.float32))).numpy()[2], [3, 3, 3])
    with pytest.raises(ValueError, match="shapes differ"):
        a + tack.zeros(3)
    big = ta.CountingArray(100000, dtype=tack.f64)
    assert tack.sum(big * 2.0 + 1.0) == float(np.sum(np.arange(100000) * 2.0 + 1.0))
    assert tack.max(ta.RandomUniform(5000, 3) * 10) < 10
    assert tack.mean(ta.CountingArray(5, dtype=tack.f64)) == 2.0


def test_lazy_reductions_do_not_depend_on_blocks_or_threads():
    r = ta.RandomNormal(1 << 18, 11, dtype=tack.f32)
    s1 = tack.sum(r * r)
    s2 = tack.sum(r * r)
    assert s1 == s2
    assert abs(s1 / (1 << 18) - 1.0) < 0.05


def test_function_and_transform_take_device_functions_only():
    with pytest.raises(TypeError, match=r"tack.arrays.Function: f must be a @tack.func"):
        ta.Function(10, lambda i: i)
    with pytest.raises(TypeError, match=r"tack.arrays.Transform: f must be a @tack.func"):
        ta.Transform(ta.CountingArray(3), lambda v: v)


def test_stores_through_implicit_arrays_read_overlapping_memory_first():
    # Stored block by block, a shifted copy would read values already overwritten: as NumPy's
    # a[1:] = a[:-1], the values are those before the store.
    n = 10_000
    a = tack.array(np.arange(n, dtype=np.int64))
    tack.copyto(ta.View(a, 1, n - 1), a[0 : n - 1])
    ref = np.arange(n)
    ref[1:] = ref[:-1].copy()
    np.testing.assert_array_equal(a.numpy(), ref)
    b = tack.array(np.arange(n, dtype=np.int64))
    tack.copyto(ta.View(b, 0, n - 1), b[1:n] * 2)  # the other direction
    ref = np.arange(n)
    ref[:-1] = ref[1:] * 2
    np.testing.assert_array_equal(b.numpy(), ref)
