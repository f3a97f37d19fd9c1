# SPDX-License-Identifier: BSD-3-Clause
import numpy as np
import pytest

import tack


def test_soa_over_existing_arrays_shares():
    x = tack.zeros(4)
    y = tack.ones(4)
    p = tack.soa(x, y)
    assert p.dtype is tack.vec2(tack.f32) and p.layout == "soa" and p.shape == (4,)
    assert p.components[0].shape == (4,) and p.components[1].dtype is tack.f32
    p.fill([5, 6])
    assert x.numpy()[0] == 5 and y.numpy()[3] == 6


def test_soa_x_x_is_allowed():
    x = tack.zeros(3)
    p = tack.soa(x, x)
    p.fill([1, 2])
    assert x.numpy()[0] == 2  # component 1 written last


def test_soa_refusals():
    with pytest.raises(ValueError, match="2 to 4"):
        tack.soa(tack.zeros(3))
    with pytest.raises(ValueError, match="differs from component 0"):
        tack.soa(tack.zeros(3), tack.zeros(4))
    with pytest.raises(ValueError, match="differs from component 0"):
        tack.soa(tack.zeros(3), tack.zeros(3, tack.f64))
    with pytest.raises(TypeError, match="not a tack.Array"):
        tack.soa(tack.zeros(3), np.zeros(3))
    with pytest.raises(ValueError, match="must be a scalar array"):
        tack.soa(tack.zeros(3, tack.vec2()), tack.zeros(3, tack.vec2()))


def test_host_operations_work_per_component():
    s = tack.zeros((5,), tack.vec3(tack.f64), layout="soa")
    tack.copyto(s, np.arange(15, dtype=np.float64).reshape(5, 3))
    np.testing.assert_array_equal(s.components[1].numpy(), [1, 4, 7, 10, 13])
    assert tack.sum(s) == sum(range(15))
    assert tack.max(s) == 14 and tack.min(s) == 0
    a = tack.array(s, layout="aos")
    np.testing.assert_array_equal(a.numpy(), s.numpy())
    s2 = tack.empty_like(s)
    tack.copyto(s2, a)  # AoS into SoA
    np.testing.assert_array_equal(s2.numpy(), a.numpy())
    assert tack.mean(s, 4) == pytest.approx(1.5)  # the first 4 components in storage order


def test_soa_of_matrices():
    m = tack.zeros((3,), tack.mat2(), layout="soa")
    assert len(m.components) == 4
    m.fill([[1, 2], [3, 4]])
    np.testing.assert_array_equal(m.numpy()[2], [[1, 2], [3, 4]])


def test_soa_with_a_read_only_component_is_read_only_and_writes_nothing():
    src = np.array([10.0, 20.0, 30.0])
    src.flags.writeable = False
    w = tack.zeros(3, tack.f64)
    s = tack.soa(w, tack.from_dlpack(src))
    assert s.read_only
    with pytest.raises(tack.ReadOnlyError):
        s.fill([7, 8])
    with pytest.raises(tack.ReadOnlyError):
        tack.copyto(s, np.ones((3, 2)))
    np.testing.assert_array_equal(w.numpy(), [0, 0, 0])  # no component was written
