# SPDX-License-Identifier: BSD-3-Clause
"""The Python snippets of the tours (row views, element types, structure-of-arrays storage, the
indexing protocol), as a user writes them."""

import numpy as np
import pytest

import tack


def test_seed000_array_views_snippet():
    rows = tack.zeros((6, 3))
    middle = rows[2:4]                 # rows 2 and 3, the same memory
    middle.fill(1.0)
    assert rows.numpy()[3, 0] == 1.0 and rows.numpy()[4, 0] == 0.0


def test_seed001_shape_and_element_type_snippet():
    import numpy as np
    import tack

    tack.set_default_device("cpu")
    temperature = tack.empty((100,))
    velocity = tack.empty((100,), tack.vec3(tack.f32))
    stress = tack.empty((100,), tack.mat3(tack.f32))
    velocity.fill([1.0, 0.0, 0.0])
    assert velocity.shape == (100,)
    assert velocity.size == 100
    assert velocity.dtype is tack.vec3(tack.f32)
    assert velocity.numpy().shape == (100, 3)
    # "All three arrays contain 100 elements."
    assert temperature.size == velocity.size == stress.size == 100
    assert temperature.dtype is tack.f32
    assert stress.numpy().shape == (100, 3, 3)


def test_seed001_soa_snippet():
    n = 10
    x, y, z = (tack.array(np.arange(n, dtype=np.float32) + k) for k in (0, 100, 200))
    pos = tack.soa(x, y, z)                                  # existing arrays, no copy
    vel = tack.zeros((n,), tack.vec3(), layout="soa")        # new ones
    assert pos.layout == "soa" and vel.layout == "soa"
    assert pos.dtype is tack.vec3(tack.f32)
    np.testing.assert_array_equal(pos.numpy()[:, 1], np.arange(n, dtype=np.float32) + 100)
    x.fill(7.0)  # no copy: the SoA array sees its components' writes
    assert pos.numpy()[3, 0] == 7.0
    assert np.all(vel.numpy() == 0.0)


@tack.device_class
class Counting:
    def __init__(self, n, start, step):
        self.n, self.start, self.step = n, start, step

    @tack.func
    def __getitem__(self, k):
        return self.start + self.step * k

    @tack.func
    def __len__(self):
        return self.n


@tack.kernel
def _gather_all(i, out, src):
    if i < len(src):
        out[i] = src[i]


def test_seed001_counting_device_class_in_a_kernel():
    # The indexing protocol: a device class with __getitem__ and __len__ is indexed as an array.
    out = tack.zeros((6,), tack.f64)
    tack.launch(6, _gather_all, out, Counting(4, 1.5, 2.0))
    np.testing.assert_array_equal(out.numpy(), [1.5, 3.5, 5.5, 7.5, 0.0, 0.0])
    # a new length and start: the same compiled variant
    before = tack.kernels.stats()["compiles"] + tack.kernels.stats()["disk_loads"]
    tack.launch(6, _gather_all, out, Counting(6, -1.0, 0.5))
    assert tack.kernels.stats()["compiles"] + tack.kernels.stats()["disk_loads"] == before
    np.testing.assert_array_equal(out.numpy(), [-1.0, -0.5, 0.0, 0.5, 1.0, 1.5])


def test_seed001_array_never_infers_vectors():
    n = 7
    a = tack.array(np.zeros((n, 3), np.float32))
    assert a.dtype is tack.f32 and a.shape == (n, 3)
    v = tack.array(np.zeros((n, 3), np.float32), dtype=tack.vec3())
    assert v.dtype is tack.vec3(tack.f32) and v.shape == (n,)
    m = tack.array(np.zeros((n, 3, 3)), dtype=tack.mat3(tack.f64))
    assert m.shape == (n,)
    with pytest.raises(ValueError, match="trailing dimension of 3"):
        tack.array(np.zeros((n, 2), np.float32), dtype=tack.vec3())
    with pytest.raises(ValueError, match="two trailing dimensions"):
        tack.array(np.zeros((n, 3, 2)), dtype=tack.mat3())
