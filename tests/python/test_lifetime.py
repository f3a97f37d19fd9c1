# SPDX-License-Identifier: BSD-3-Clause
"""A view, an export or an import outliving every other reference."""

import gc
import weakref

import numpy as np

import tack


class Owner:
    """A Python object whose death we can watch (NumPy arrays take no weak references)."""

    def __init__(self, n):
        self.buf = np.arange(n, dtype=np.float64)

    def __dlpack__(self, **kw):
        return self.buf.__dlpack__(**kw)

    def __dlpack_device__(self):
        return self.buf.__dlpack_device__()


def test_import_keeps_its_producer_alive_until_the_last_view():
    owner = Owner(10)
    ref = weakref.ref(owner)
    buf_ref = owner.buf
    a = tack.from_dlpack(owner)
    view = a[2:5]
    del owner, a
    gc.collect()
    np.testing.assert_array_equal(view.numpy(), [2, 3, 4])
    del view
    gc.collect()
    assert ref() is None
    assert buf_ref[0] == 0


def test_array_from_ptr_owner_released_with_the_last_array():
    owner = Owner(4)
    ref = weakref.ref(owner)
    a = tack.array_from_ptr(owner.buf.ctypes.data, 4, tack.f64, owner=owner)
    v = a[1:3]
    del owner, a
    gc.collect()
    assert ref() is not None
    np.testing.assert_array_equal(v.numpy(), [1, 2])
    del v
    gc.collect()
    assert ref() is None


def test_numpy_export_outlives_the_array():
    a = tack.array(np.arange(6.0))
    n = np.from_dlpack(a)
    m = np.asarray(a[2:4])
    del a
    gc.collect()
    assert n.sum() == 15 and list(m) == [2, 3]


def test_numpy_snapshot_owns_its_memory():
    snap = tack.ones((1000, 3), tack.f32).numpy()
    gc.collect()
    assert snap.sum() == 3000 and snap.flags.owndata is False


def test_export_memory_keeps_the_allocation():
    a = tack.zeros(16)
    e = a.export_memory()
    del a
    gc.collect()
    view = tack.array_from_ptr(e.ptr, 16, tack.f32, owner=e)
    assert tack.sum(view) == 0
