# SPDX-License-Identifier: BSD-3-Clause
import threading

import numpy as np
import pytest

import tack


def test_metadata():
    a = tack.zeros((4, 5), tack.vec3(tack.f64))
    assert a.shape == (4, 5) and a.size == 20 and a.ndim == 2 and len(a) == 4
    assert a.dtype is tack.vec3(tack.f64) and a.scalar_dtype is tack.f64
    assert a.scalar_size == 8 and a.storage_shape == (4, 5, 3)
    assert a.nbytes == 20 * 24 and a.device == "cpu" and a.layout == "aos"
    assert a.components is None and not a.read_only
    assert "dtype=vec3(f64)" in repr(a) and repr(a).startswith("tack.array(")


def test_factories_and_defaults():
    assert tack.empty(5).dtype is tack.f32 and tack.empty(5).shape == (5,)
    np.testing.assert_array_equal(tack.zeros((2, 3)).numpy(), np.zeros((2, 3), np.float32))
    np.testing.assert_array_equal(tack.ones(4, tack.i32).numpy(), np.ones(4, np.int32))
    f = tack.full((3,), [1, 2, 3], tack.vec3(tack.i16))
    np.testing.assert_array_equal(f.numpy(), [[1, 2, 3]] * 3)
    m = tack.full(2, [[1, 2], [3, 4]], tack.mat2(tack.f64))
    assert m.numpy().shape == (2, 2, 2) and m.numpy()[1, 1, 0] == 3
    z = tack.zeros_like(f)
    assert z.dtype is f.dtype and z.shape == f.shape and np.all(z.numpy() == 0)
    assert tack.empty_like(f, tack.f64).dtype is tack.vec3(tack.f64)  # a scalar override keeps dims
    o = tack.ones_like(f, dtype=tack.vec3(tack.f32))
    assert o.dtype is tack.vec3(tack.f32) and np.all(o.numpy() == 1)
    fl = tack.full_like(tack.zeros(3), 2.5)
    assert np.all(fl.numpy() == 2.5)
    s = tack.zeros((3,), tack.vec3(), layout="soa")
    assert tack.empty_like(s).layout == "soa"


def test_bad_shapes_and_layouts():
    with pytest.raises(ValueError, match="negative extent -1"):
        tack.zeros((2, -1))
    with pytest.raises(ValueError, match="1 to 8"):
        tack.zeros(())
    with pytest.raises(ValueError, match="1 to 6 for this dtype"):
        tack.zeros((1,) * 7, tack.mat3())
    with pytest.raises(TypeError, match="shape entries must be integers"):
        tack.zeros((2.5,))
    with pytest.raises(ValueError, match='layout must be "aos" or "soa"'):
        tack.zeros(3, layout="columns")
    with pytest.raises(ValueError, match="needs vector or matrix elements; f32 is a scalar"):
        tack.zeros(3, layout="soa")
    with pytest.raises(ValueError, match="does not fit"):
        tack.empty((1 << 40, 1 << 40))


def test_array_copies_values():
    src = np.arange(12, dtype=np.float64).reshape(4, 3)
    a = tack.array(src)
    src[0, 0] = 100
    assert a.numpy()[0, 0] == 0 and a.dtype is tack.f64
    assert tack.array([1, 2, 3]).dtype is tack.i64
    assert tack.array([[1.0, 2.0]], dtype=tack.vec2()).shape == (1,)
    b = tack.array(a)
    b.fill(5)
    assert a.numpy()[1, 1] == 4  # a copy
    c = tack.array(a, dtype=tack.f32)
    assert c.dtype is tack.f32
    v = tack.array(np.ones((3, 3), np.float32), dtype=tack.vec3())
    s = tack.array(v, layout="soa")
    assert s.layout == "soa"
    back = tack.array(s, layout="aos")
    assert back.layout == "aos" and np.array_equal(back.numpy(), v.numpy())
    assert tack.array(v, dtype=tack.f64).dtype is tack.vec3(tack.f64)  # a scalar override keeps dims


def test_fill_rules():
    v = tack.empty((5,), tack.vec3())
    v.fill(2.0)
    assert np.all(v.numpy() == 2.0)
    v.fill((1, 2, 3))
    np.testing.assert_array_equal(v.numpy()[4], [1, 2, 3])
    with pytest.raises(ValueError, match="a value of vec3\\(f32\\) has 3 components, got 2"):
        v.fill([1, 2])
    i = tack.zeros(3, tack.u8)
    with pytest.raises(OverflowError, match="out of the range of u8"):
        i.fill(300)
    i.fill(2.7)  # truncates toward zero, as NumPy's fill
    assert i.numpy()[0] == 2
    with pytest.raises(TypeError, match="expected a number"):
        i.fill("x")


def test_copy_astype_reshape():
    a = tack.array(np.arange(6, dtype=np.float32))
    c = a.copy()
    c.fill(0)
    assert a.numpy()[5] == 5
    r = a.reshape(2, 3)
    assert r.shape == (2, 3)
    r.fill(1)
    assert a.numpy()[0] == 1  # reshape shares storage
    assert a.reshape((3, -1)).shape == (3, 2)
    with pytest.raises(ValueError, match="6 elements\\) to \\(4,\\)"):
        a.reshape(4)
    v = tack.ones((2,), tack.vec4())
    assert v.astype(tack.f64).dtype is tack.vec4(tack.f64)
    assert v.astype(tack.vec4(tack.i32)).dtype is tack.vec4(tack.i32)
    with pytest.raises(ValueError, match="vec4\\(f32\\) to mat2\\(f32\\).*same component dimensions"):
        v.astype(tack.mat2())
    f = tack.array(np.array([1.7, -2.2, 3.9]))
    np.testing.assert_array_equal(f.astype(tack.i32).numpy(), np.array([1.7, -2.2, 3.9]).astype(np.int32))


def test_to_device():
    a = tack.zeros(3)
    assert a.to_device("cpu") is a
    if not tack.is_available("cuda:0"):
        with pytest.raises(tack.DeviceError, match="cuda:0 is not available"):
            a.to_device("cuda:0")
        with pytest.raises(tack.DeviceError):
            tack.set_default_device("cuda:0")
        assert issubclass(tack.DeviceError, RuntimeError)
    if not tack.is_available("hip:0"):
        # A HIP device in a build without HIP (or without an AMD GPU): refused by name, saying why.
        with pytest.raises(tack.DeviceError, match="hip:0 is not available"):
            a.to_device("hip:0")
        with pytest.raises(tack.DeviceError, match="hip:0"):
            tack.set_default_device("hip:0")


def test_numpy_snapshot_and_async():
    a = tack.array(np.arange(10, dtype=np.int32))
    snap = a.numpy()
    a.fill(0)
    assert snap[9] == 9  # a snapshot
    fut = a.numpy_async()
    np.testing.assert_array_equal(fut.result(), np.zeros(10, np.int32))


def test_numpy_asarray_shares_memory():
    a = tack.zeros(8, tack.f64)
    view = np.asarray(a)
    view[3] = 7.0
    assert a.numpy()[3] == 7.0
    with pytest.raises(ValueError, match="without a copy"):
        np.asarray(tack.zeros(2, tack.vec2(), layout="soa"), copy=False)
    assert np.asarray(a, dtype=np.float32).dtype == np.float32


def test_copyto_from_numpy_is_bit_identical():
    rng = np.random.default_rng(1)
    src = rng.standard_normal((64, 3)).astype(np.float32)
    src[0, 0] = np.float32("nan")
    src[1, 1] = np.float32("-0.0")
    a = tack.empty((64,), tack.vec3())
    tack.copyto(a, src)
    assert a.numpy().tobytes() == src.tobytes()
    b = tack.empty((64, 3), tack.f32)
    tack.copyto(b, src[::-1])  # a non-contiguous source is read, not lost
    assert b.numpy().tobytes() == np.ascontiguousarray(src[::-1]).tobytes()
    with pytest.raises(ValueError, match="shapes differ"):
        tack.copyto(b, np.zeros((3, 3), np.float32))
    tack.copyto(b, 1.5)
    assert np.all(b.numpy() == 1.5)


def test_setitem_refused():
    a = tack.zeros(4)
    with pytest.raises(TypeError, match="tack.copyto\\(a\\[i:j\\], x\\)"):
        a[1:3] = 1.0
    with pytest.raises(TypeError, match="no slice assignment"):
        a[0] = 1.0


def test_array_from_ptr_borrows_read_only_by_default():
    buf = np.arange(6, dtype=np.float32)
    ptr = buf.ctypes.data
    a = tack.array_from_ptr(ptr, (2, 3), tack.f32, owner=buf)
    assert a.read_only and a.shape == (2, 3)
    buf[0] = 42
    assert a.numpy()[0, 0] == 42  # shares
    with pytest.raises(tack.ReadOnlyError, match="read-only"):
        a.fill(1)
    w = tack.array_from_ptr(ptr, 6, tack.f32, writable=True, owner=buf)
    w.fill(3)
    assert buf[5] == 3
    with pytest.raises(ValueError, match="not aligned"):
        tack.array_from_ptr(ptr + 1, 2, tack.f32)


def test_gil_released_during_large_copies():
    import sys

    a = tack.zeros(1 << 24, tack.f64)
    b = tack.ones(1 << 24, tack.f64)
    ticks = []
    running = threading.Event()
    stop = threading.Event()

    def count():
        running.set()
        while not stop.is_set():
            ticks.append(1)

    # With a switch interval of 1 s, the other thread runs during the copy only if the copy
    # releases the GIL (Python cannot preempt C++ code that holds it).
    old = sys.getswitchinterval()
    t = threading.Thread(target=count)
    t.start()
    running.wait()
    sys.setswitchinterval(1.0)
    try:
        before = len(ticks)
        tack.copyto(a, b)
        during = len(ticks) - before
    finally:
        sys.setswitchinterval(old)
        stop.set()
        t.join()
    assert during > 0
    assert tack.sum(a) == float(1 << 24)


def test_in_place_operators_write_the_memory_as_numpy_does():
    a = tack.zeros(3)
    b = a  # another name for the same array
    a += 1
    assert a is b and isinstance(a, tack.Array)
    np.testing.assert_array_equal(b.numpy(), [1, 1, 1])
    row = a[1:3]
    row *= 4  # through a row view: the root sees it
    np.testing.assert_array_equal(a.numpy(), [1, 4, 4])
    a -= tack.full(3, 0.5)
    a /= 2
    a **= 2
    np.testing.assert_allclose(a.numpy(), [0.0625, 3.0625, 3.0625])
    i = tack.array(np.arange(4, dtype=np.int32))
    i[1:4] += i[0:3]  # overlapping: values as read before the write, as NumPy gives
    n = np.arange(4, dtype=np.int32)
    n[1:4] += n[0:3]
    np.testing.assert_array_equal(i.numpy(), n)
    frozen = np.zeros(3)
    frozen.flags.writeable = False
    r = tack.from_dlpack(frozen)
    with pytest.raises(tack.ReadOnlyError):
        r += 1
