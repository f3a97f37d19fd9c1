# SPDX-License-Identifier: BSD-3-Clause
"""DLPack both ways, per the Python array API standard, with NumPy (and Warp where installed)."""

import gc
import weakref

import numpy as np
import pytest

import tack


def test_numpy_imports_share_memory():
    a = tack.zeros((4, 3), tack.f64)
    n = np.from_dlpack(a)
    n[2, 1] = 5.0
    assert a.numpy()[2, 1] == 5.0
    v = np.from_dlpack(a[1:3])
    v[0, 0] = 9.0
    assert a.numpy()[1, 0] == 9.0
    assert a.__dlpack_device__() == (1, 0)


def test_vector_components_are_trailing_dimensions():
    v = tack.zeros((5,), tack.vec3())
    n = np.from_dlpack(v)
    assert n.shape == (5, 3) and n.dtype == np.float32
    m = np.from_dlpack(tack.zeros((2,), tack.mat3(tack.f64)))
    assert m.shape == (2, 3, 3)


def test_tack_imports_numpy_and_keeps_it_alive():
    class Holder:
        pass

    src = np.arange(10, dtype=np.int32)
    a = tack.from_dlpack(src)
    assert a.dtype is tack.i32 and a.shape == (10,)
    src[4] = 40
    assert a.numpy()[4] == 40  # shares
    base = src
    ref = weakref.ref(Holder())  # sanity: weakrefs work here
    del src, base
    gc.collect()
    assert a.numpy()[4] == 40 and ref() is None


def test_import_never_guesses_vectors():
    a = tack.from_dlpack(np.zeros((4, 3), np.float32))
    assert a.dtype is tack.f32 and a.shape == (4, 3)


def test_read_only_both_ways():
    src = np.zeros(4)
    src.flags.writeable = False
    a = tack.from_dlpack(src)
    assert a.read_only
    back = np.from_dlpack(a)
    assert not back.flags.writeable
    # tack's read-only arrays refuse the legacy capsule (it cannot say read-only)
    with pytest.raises(tack.ReadOnlyError):
        a.__dlpack__()
    cap = a.__dlpack__(max_version=(1, 0))
    assert "dltensor_versioned" in repr(cap)


def test_versioned_and_legacy_capsules():
    a = tack.zeros(3)
    assert "dltensor_versioned" in repr(a.__dlpack__(max_version=(1, 2)))
    assert '"dltensor"' in repr(a.__dlpack__()) or "dltensor" in repr(a.__dlpack__())
    b = tack.from_dlpack(a.__dlpack__(max_version=(1, 0)))  # a capsule imports directly
    b.fill(2)
    assert a.numpy()[0] == 2
    with pytest.raises(ValueError, match="stream must be None"):
        a.__dlpack__(stream=1)
    # -1 ("no synchronization") is allowed everywhere; a stream is an int or None
    assert "dltensor_versioned" in repr(a.__dlpack__(max_version=(1, 0), stream=-1))
    with pytest.raises(TypeError, match=r"__dlpack__: stream must be None or an int, got 'x'"):
        a.__dlpack__(stream="x")


class _LegacyProducer:
    """A producer that hands over legacy capsules only, even when asked for version 1 (as JAX
    0.10 does): nothing in the capsule says whether its memory may be written."""

    def __init__(self, values):
        self._tack = tack.array(values)

    def __dlpack__(self, stream=None, max_version=None, **_):
        return self._tack.__dlpack__()  # legacy

    def __dlpack_device__(self):
        return self._tack.__dlpack_device__()


def test_legacy_capsules_import_read_only_unless_the_caller_says_writable():
    src = _LegacyProducer(np.arange(4.0))
    a = tack.from_dlpack(src)
    assert a.read_only
    with pytest.raises(tack.ReadOnlyError, match="read-only"):
        a.fill(5.0)
    assert src._tack.numpy().tolist() == [0.0, 1.0, 2.0, 3.0]  # nothing was written
    w = tack.from_dlpack(src, writable=True)  # the caller knows the producer allows writes
    assert not w.read_only
    w.fill(5.0)
    assert src._tack.numpy().tolist() == [5.0] * 4
    c = tack.from_dlpack(src, copy=True)  # a copy is the caller's own
    assert not c.read_only
    c.fill(1.0)
    assert src._tack.numpy().tolist() == [5.0] * 4
    # a raw legacy capsule, too
    assert tack.from_dlpack(tack.zeros(3).__dlpack__()).read_only
    # versioned capsules keep saying it themselves
    assert not tack.from_dlpack(np.zeros(3)).read_only


def test_exported_shape_of_every_rank_and_component():
    # The flat storage is exported with the storage shape: every rank, components trailing.
    for shape in [(5,), (2, 3), (2, 1, 3), (1, 2, 1, 2, 1, 2, 1, 2)]:
        a = tack.array(np.arange(np.prod(shape), dtype=np.float64).reshape(shape))
        got = np.from_dlpack(a)
        assert got.shape == shape
        assert got.strides == np.zeros(shape).strides
        assert np.array_equal(got.ravel(), np.arange(np.prod(shape)))
    v = tack.zeros((4, 2), tack.vec3())
    assert np.from_dlpack(v).shape == (4, 2, 3)
    rows = tack.array(np.arange(12, dtype=np.int32).reshape(4, 3))[1:3]  # a view exports its rows
    assert np.from_dlpack(rows).tolist() == [[3, 4, 5], [6, 7, 8]]


def test_copy_and_device_arguments():
    a = tack.zeros(3)
    cap = a.__dlpack__(max_version=(1, 0), copy=True)
    b = tack.from_dlpack(cap)
    b.fill(7)
    assert a.numpy()[0] == 0  # the export was a copy
    assert tack.from_dlpack(a, copy=True).numpy().shape == (3,)
    with pytest.raises(BufferError):
        a.__dlpack__(dl_device=(2, 0), copy=False)


def test_soa_is_not_exported_whole():
    s = tack.zeros((3,), tack.vec3(), layout="soa")
    with pytest.raises(BufferError, match="structure-of-arrays"):
        np.from_dlpack(s)
    with pytest.raises(ValueError, match="components"):
        s.__dlpack__()
    x = np.from_dlpack(s.components[0])
    x[1] = 4
    assert s.numpy()[1, 0] == 4


def test_export_outlives_every_tack_handle():
    a = tack.array(np.arange(5, dtype=np.float64))
    n = np.from_dlpack(a[1:4])
    del a
    gc.collect()
    np.testing.assert_array_equal(n, [1, 2, 3])


def test_unconsumed_capsule_releases_its_tensor():
    a = tack.zeros(100)
    for _ in range(100):
        a.__dlpack__(max_version=(1, 0))
        a.__dlpack__()
    gc.collect()
    # The exports are released: growth-free arrays don't tell, but the capsules must not leak
    # their keep-alive tokens (a is its only owner again).
    a.export_memory()


def test_consumed_capsule_cannot_be_imported_twice():
    a = tack.zeros(3)
    cap = a.__dlpack__(max_version=(1, 0))
    tack.from_dlpack(cap)
    with pytest.raises(TypeError, match="consumed once"):
        tack.from_dlpack(cap)


def test_unsupported_inputs():
    with pytest.raises(TypeError, match="no __dlpack__"):
        tack.from_dlpack([1, 2, 3])
    with pytest.raises(ValueError, match="row-major compact|contiguous"):
        tack.from_dlpack(np.arange(10.0)[::2])
    with pytest.raises((ValueError, TypeError, BufferError)):
        tack.from_dlpack(np.zeros(3, np.float16))


def test_warp_as_a_second_client():
    wp = pytest.importorskip("warp", reason="NVIDIA Warp (warp-lang) is not installed")
    wp.config.quiet = True
    wp.init()
    a = tack.array(np.arange(8, dtype=np.float32))
    w = wp.from_dlpack(a)
    assert w.shape == (8,)
    w_np = w.numpy()
    np.testing.assert_array_equal(w_np, np.arange(8, dtype=np.float32))
    src = wp.array(np.arange(4, dtype=np.float32), dtype=wp.float32, device="cpu")
    t = tack.from_dlpack(src)
    np.testing.assert_array_equal(t.numpy(), [0, 1, 2, 3])
    # Warp hands over legacy capsules, which cannot say whether the memory may be written: the
    # import is read-only until the caller says it knows (Warp's arrays are writable)
    assert t.read_only
    t = tack.from_dlpack(src, writable=True)
    t.fill(3)
    assert src.numpy()[2] == 3  # shares


def test_an_immutable_jax_array_is_not_written_through_dlpack():
    jnp = pytest.importorskip("jax.numpy")
    x = jnp.arange(4.0)
    a = tack.from_dlpack(x)
    with pytest.raises(tack.ReadOnlyError):
        a.fill(5.0)
    assert np.asarray(x).tolist() == [0.0, 1.0, 2.0, 3.0]
