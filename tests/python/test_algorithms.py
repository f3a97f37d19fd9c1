# SPDX-License-Identifier: BSD-3-Clause
import numpy as np
import pytest

import tack
from tack import algorithms as alg


def test_reductions_match_numpy():
    x = np.random.default_rng(0).standard_normal(10001)
    a = tack.array(x)
    assert tack.sum(a) == pytest.approx(x.sum(), rel=1e-12)
    assert tack.min(a) == x.min() and tack.max(a) == x.max()
    assert tack.mean(a) == pytest.approx(x.mean(), rel=1e-12)
    assert alg.variance(a) == pytest.approx(x.var(), rel=1e-10)
    assert alg.stddev(a, ddof=1) == pytest.approx(x.std(ddof=1), rel=1e-10)
    assert alg.minmax(a) == (x.min(), x.max())
    assert tack.sum(tack.array(np.full(1000, 200, np.uint8))) == 200000  # 64-bit integer sums


def test_vector_reductions_count_components():
    v = tack.array(np.arange(12, dtype=np.float32).reshape(4, 3), dtype=tack.vec3())
    assert tack.sum(v) == 66
    assert tack.mean(v) == pytest.approx(5.5)
    assert tack.mean(v, 3) == pytest.approx(1.0)  # n counts scalar components
    assert alg.variance(v, 4) == pytest.approx(np.var([0, 1, 2, 3]))
    with pytest.raises(ValueError, match="n=13 is outside the 12 scalar components"):
        tack.mean(v, 13)


def test_empty_refusals():
    with pytest.raises(ValueError, match="empty"):
        tack.min(tack.zeros(0))
    with pytest.raises(ValueError, match="no values"):
        tack.mean(tack.zeros(0))


def test_sort_and_scans():
    x = np.array([3.0, np.nan, -1.0, 2.0])
    a = tack.array(x)
    alg.sort(a)
    got = a.numpy()
    np.testing.assert_array_equal(got[:3], [-1, 2, 3])
    assert np.isnan(got[3])
    k = tack.array(np.array([3, 1, 2], np.int32))
    v = tack.array(np.array([30.0, 10.0, 20.0]))
    alg.sort_by_key(k, v)
    np.testing.assert_array_equal(v.numpy(), [10, 20, 30])
    s = alg.inclusive_scan(tack.array(np.arange(5)))
    np.testing.assert_array_equal(s.numpy(), [0, 1, 3, 6, 10])
    e = alg.exclusive_scan(tack.array(np.arange(5)))
    np.testing.assert_array_equal(e.numpy(), [0, 0, 1, 3, 6])
    with pytest.raises(TypeError, match="no order"):
        alg.sort(tack.zeros(3, tack.vec2()))
    assert alg.dot(tack.ones(4), tack.full(4, 2.0)) == 8
    assert alg.sum(tack.arrays.CountingArray(4)) == 6


def test_algorithms_on_views_and_numpy_inputs():
    a = tack.array(np.arange(10.0))
    assert alg.sum(a[5:]) == 35
    assert tack.sum(np.arange(4.0)) == 6


def test_min_and_max_propagate_nan_as_numpy_does():
    for x in ([np.nan, 1.0, 0.0], [1.0, np.nan, 0.0], [np.nan], [0.0, 1.0, np.nan]):
        a = tack.array(np.array(x))
        assert np.isnan(tack.min(a)) and np.isnan(tack.max(a)), x
        assert np.isnan(tack.min(a + 0)) and np.isnan(tack.max(a + 0)), x  # the lazy path agrees
    big = np.random.default_rng(1).standard_normal(100_003).astype(np.float32)
    assert tack.min(tack.array(big)) == big.min() and tack.max(tack.array(big)) == big.max()
    big[77_777] = np.nan
    assert np.isnan(tack.max(tack.array(big)))
    assert tack.max(tack.array(np.array([-np.inf, -np.inf]))) == -np.inf


def test_sort_by_key_refuses_before_moving_anything():
    k = tack.array(np.array([3, 1, 2], np.int64))
    with pytest.raises(ValueError, match="share memory"):
        alg.sort_by_key(k, k)
    np.testing.assert_array_equal(k.numpy(), [3, 1, 2])
    src = np.array([10.0, 20.0, 30.0])
    src.flags.writeable = False
    with pytest.raises(tack.ReadOnlyError, match="sort_by_key"):
        alg.sort_by_key(k, tack.from_dlpack(src))
    np.testing.assert_array_equal(k.numpy(), [3, 1, 2])  # the keys did not move either
