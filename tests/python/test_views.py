# SPDX-License-Identifier: BSD-3-Clause
"""Row views a[i:j]: Python bounds, empty ranges, refused steps, views of views, lifetime,
read-only roots, shared write versions, SoA rows, and the refusals (docs/reference/views.md)."""

import gc
import weakref

import numpy as np
import pytest

import tack


def test_reads_and_writes_reach_the_root():
    a = tack.array(np.arange(18, dtype=np.float32).reshape(6, 3))
    v = a[2:4]
    assert v.shape == (2, 3) and v.is_view
    np.testing.assert_array_equal(v.numpy(), np.arange(6, 12).reshape(2, 3))
    tack.copyto(v, np.full((2, 3), -1, np.float32))
    assert a.numpy()[3, 2] == -1 and a.numpy()[4, 0] == 12


def test_python_bounds():
    a = tack.array(np.arange(10))
    np.testing.assert_array_equal(a[-3:].numpy(), [7, 8, 9])
    np.testing.assert_array_equal(a[:-8].numpy(), [0, 1])
    np.testing.assert_array_equal(a[5:100].numpy(), [5, 6, 7, 8, 9])
    np.testing.assert_array_equal(a[-100:2].numpy(), [0, 1])
    assert a[:].shape == (10,)


def test_empty_range_gives_a_new_empty_array():
    a = tack.zeros((6, 3))
    e = a[4:2]
    assert e.shape == (0, 3) and e.size == 0 and not e.is_view
    assert a[10:20].shape == (0, 3)


def test_step_refused_naming_strided():
    a = tack.zeros(6)
    with pytest.raises(ValueError, match="tack.arrays.Strided"):
        a[::2]
    with pytest.raises(ValueError, match="step of -1"):
        a[::-1]


def test_index_beside_the_slice_refused():
    a = tack.zeros((6, 3))
    with pytest.raises(IndexError, match="one slice"):
        a[1:3, 0]
    with pytest.raises(IndexError, match="one slice"):
        a[..., 1]


def test_integer_index():
    a = tack.array(np.arange(6).reshape(3, 2))
    row = a[1]
    assert row.shape == (2,)
    np.testing.assert_array_equal(row.numpy(), [2, 3])
    assert tack.array(np.arange(5))[-1] == 4
    with pytest.raises(IndexError, match="out of range"):
        a[3]


def test_view_of_view_views_the_root():
    a = tack.array(np.arange(10, dtype=np.float64))
    vv = a[2:8][1:3]
    np.testing.assert_array_equal(vv.numpy(), [3, 4])
    vv.fill(0)
    assert a.numpy()[3] == 0 and a.numpy()[4] == 0 and a.numpy()[5] == 5


def test_views_of_vector_and_matrix_arrays():
    v = tack.zeros((5,), tack.vec3())
    v[1:3].fill([1, 2, 3])
    np.testing.assert_array_equal(v.numpy()[1:3], [[1, 2, 3]] * 2)
    assert np.all(v.numpy()[3] == 0)
    m = tack.zeros((4,), tack.mat2(tack.f64))
    m[3:].fill([[1, 2], [3, 4]])
    assert m.numpy()[3, 1, 0] == 3 and m.numpy()[2, 1, 0] == 0


def test_soa_views_component_by_component():
    s = tack.zeros((6,), tack.vec3(), layout="soa")
    v = s[2:4]
    assert v.layout == "soa" and v.shape == (2,)
    v.fill([1, 2, 3])
    got = s.numpy()
    np.testing.assert_array_equal(got[2:4], [[1, 2, 3]] * 2)
    assert np.all(got[:2] == 0) and np.all(got[4:] == 0)
    comps = v.components
    assert len(comps) == 3 and comps[1].shape == (2,)
    np.testing.assert_array_equal(comps[2].numpy(), [3, 3])


def test_versions_are_shared_with_the_root():
    a = tack.zeros(8)
    v0 = a.version
    a[2:4].fill(1)
    assert a.version > v0
    v1 = a.version
    tack.copyto(a[5:], np.ones(3, np.float32))
    assert a.version > v1
    assert a[1:2].version == a.version


def test_a_view_keeps_its_root_alive():
    a = tack.array(np.arange(100, dtype=np.float64))
    v = a[10:20]
    del a
    gc.collect()
    np.testing.assert_array_equal(v.numpy(), np.arange(10, 20))


def test_a_view_keeps_a_dlpack_import_alive():
    src = np.arange(12, dtype=np.float32)
    ref = weakref.ref(src) if hasattr(src, "__weakref__") else None
    imported = tack.from_dlpack(src)
    v = imported[3:5]
    del src, imported
    gc.collect()
    np.testing.assert_array_equal(v.numpy(), [3, 4])
    if ref is not None:
        assert ref() is not None  # the import still holds NumPy's array
    del v
    gc.collect()
    if ref is not None:
        assert ref() is None  # released exactly when the last view went


def test_read_only_propagates_to_views():
    src = np.arange(6, dtype=np.float64)
    src.flags.writeable = False
    a = tack.from_dlpack(src)
    assert a.read_only
    v = a[1:3]
    assert v.read_only
    with pytest.raises(tack.ReadOnlyError, match="read-only"):
        v.fill(0)
    with pytest.raises(tack.ReadOnlyError):
        tack.copyto(v, np.zeros(2))
    assert issubclass(tack.ReadOnlyError, ValueError)


def test_export_memory_refused_on_views():
    a = tack.zeros(10)
    e = a.export_memory()
    assert e.nbytes == 40 and e.device == "cpu" and e.ptr != 0
    with pytest.raises(tack.ExportError, match="no allocation of its own"):
        a[2:4].export_memory()
    with pytest.raises(ValueError):
        a[2:4].export_memory()


def test_reductions_copies_and_reshapes_of_views():
    a = tack.array(np.arange(12, dtype=np.float64))
    v = a[2:8]
    assert tack.sum(v) == sum(range(2, 8))
    assert tack.min(v) == 2 and tack.max(v) == 7
    assert tack.mean(v) == pytest.approx(4.5)
    r = v.reshape(2, 3)
    np.testing.assert_array_equal(r.numpy(), np.arange(2, 8).reshape(2, 3))
    c = v.copy()
    assert not c.is_view
    np.testing.assert_array_equal(np.from_dlpack(a[1:3]), [1, 2])
