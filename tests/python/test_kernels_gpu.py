# SPDX-License-Identifier: BSD-3-Clause
"""Kernels compiled from Python on a CUDA device: the kernels of the CPU tests launched over
arrays on the GPU, compared with the same launch on the CPU; row views, both layouts, implicit
arrays, device classes, atomics, streams, debug mode's checks reported from the GPU, and the
refusals of mixed devices.

The tests that need a GPU run where the package is built with CUDA
(``pip install . -C cmake.define.TACK_ENABLE_CUDA=ON``) and a device is present (scripts/gpu-check
does both); elsewhere they skip, and the rest (refusals, the CUDA variant compiled, linked and
loaded with nvcc) run."""

import ctypes
import shutil

import numpy as np
import pytest

import tack
from tack import arrays as ta
from tack.kernels import build
from test_kernels import blend, copy_k, fill3  # the CPU tests' kernels, launched on the GPU
from test_kernels_cache import Offset

GPU = "cuda:0"
HAS_GPU = tack.is_available(GPU)
needs_gpu = pytest.mark.skipif(not HAS_GPU, reason="no CUDA device in this process (a CPU build "
                               "of the package, or no GPU)")


def on(dev, values, dtype=None, layout=None):
    return tack.array(np.asarray(values), dtype, device=dev, layout=layout)


def host(a):
    return a.to_device("cpu").numpy()


# ---- kernels -------------------------------------------------------------------------------------

@tack.kernel
def rows_k(i, j, out, src):
    out[i, j] = src[i, j] * 2 + i - j


@tack.kernel
def vec_k(i, out, p, s):
    v = p[i]
    out[i] = tack.vec3(v[1], v[2], v[0]) * s + tack.cross(v, tack.vec3(0.0, 0.0, 1.0))


@tack.kernel
def histogram(i, bins, top, data):
    tack.atomic_add(bins, data[i] % len(bins), 1)
    tack.atomic_max(top, 0, data[i])


@tack.kernel
def read_at(i, out, src, k):
    out[i] = src[i + k]


@tack.func
def square_plus_one(x):
    return x * x + 1.0


@tack.func
def triangle(i):
    return i * (i + 1) // 2


# ---- on a GPU, against the CPU ---------------------------------------------------------------------

def both(fn):
    """`fn(device)` on the CPU and on the GPU."""
    return fn("cpu"), fn(GPU)


@needs_gpu
def test_blend_on_the_gpu_matches_the_cpu():
    rng = np.random.default_rng(1)
    x, y = rng.standard_normal(1000).astype(np.float32), rng.standard_normal(1000).astype(np.float32)

    def run(dev):
        out = tack.zeros(1000, tack.f32, device=dev)
        tack.launch(1000, blend, out, on(dev, x), on(dev, y), 0.25)
        return host(out)

    cpu, gpu = both(run)
    np.testing.assert_allclose(gpu, cpu, rtol=2e-6, atol=1e-6)  # fused multiply-adds may differ
    np.testing.assert_allclose(gpu, x + np.float32(0.25) * (y - x), rtol=2e-6, atol=1e-6)


@needs_gpu
def test_many_blocks_and_a_second_launch_from_the_cached_table():
    n = (1 << 22) + 3  # more threads than one grid-stride pass of the largest grid
    x = tack.array(np.arange(n, dtype=np.int64), device=GPU)
    out = tack.zeros(n, tack.i64, device=GPU)
    tack.launch(n, copy_k, out, x)
    hits = tack.kernels.stats()["memory_hits"]
    tack.launch(n, copy_k, out, x)
    assert tack.kernels.stats()["memory_hits"] == hits + 1
    np.testing.assert_array_equal(host(out), np.arange(n))


@needs_gpu
def test_three_dimensional_launch_on_the_gpu():
    a = tack.zeros((3, 4, 5), tack.i32, device=GPU)
    tack.launch((3, 4, 5), fill3, a)
    i, j, k = np.indices((3, 4, 5))
    np.testing.assert_array_equal(host(a), i * 100 + j * 10 + k)


@needs_gpu
def test_row_views_of_gpu_arrays_are_written_in_place():
    src = tack.array(np.arange(40.0).reshape(8, 5), device=GPU)
    out = tack.zeros((8, 5), device=GPU)
    tack.launch((3, 5), rows_k, out[2:5], src[4:7])
    expect = np.zeros((8, 5))
    i, j = np.indices((3, 5))
    expect[2:5] = np.arange(40.0).reshape(8, 5)[4:7] * 2 + i - j
    np.testing.assert_array_equal(host(out), expect)


@needs_gpu
@pytest.mark.parametrize("layout", ["aos", "soa"])
def test_vectors_in_both_layouts_on_the_gpu(layout):
    p = np.random.default_rng(2).standard_normal((100, 3))

    def run(dev):
        out = tack.zeros(100, tack.vec3(), device=dev, layout=layout)
        tack.launch(100, vec_k, out, on(dev, p, tack.vec3(), layout=layout), 2.0)
        return host(out)

    cpu, gpu = both(run)
    np.testing.assert_allclose(gpu, cpu, rtol=1e-14, atol=1e-14)


@needs_gpu
def test_implicit_arrays_and_device_classes_on_the_gpu():
    n = 64
    data = tack.array(np.arange(100.0), device=GPU)
    idx = tack.array(np.arange(n)[::-1].copy(), device=GPU)
    # a Permutation of a Transform of a CountingArray, a Function, a device class over a GPU array
    composed = ta.Permutation(idx, ta.Transform(ta.CountingArray(n, tack.f64), square_plus_one))
    out = tack.zeros(n, device=GPU)
    tack.launch(n, copy_k, out, composed)
    np.testing.assert_array_equal(host(out), np.arange(n)[::-1] ** 2 + 1.0)
    tri = tack.zeros(n, tack.i64, device=GPU)
    tack.launch(n, copy_k, tri, ta.Function(n, triangle))
    np.testing.assert_array_equal(host(tri), np.arange(n) * (np.arange(n) + 1) // 2)
    window = Offset(data, 30)
    tack.launch(n, copy_k, out, window)
    np.testing.assert_array_equal(host(out), np.arange(30.0, 30.0 + n))
    tack.launch(n, copy_k, Offset(data, 10), ta.ConstantArray(n, -1.0))
    expect = np.arange(100.0)
    expect[10:10 + n] = -1.0
    np.testing.assert_array_equal(host(data), expect)


@needs_gpu
def test_arrays_computed_by_funcs_over_gpu_arrays_stay_there():
    x = tack.array(np.arange(10.0), device=GPU)
    t = ta.Transform(x, square_plus_one)
    assert t.device == GPU
    stored = t.materialize()
    assert stored.device == GPU
    np.testing.assert_array_equal(stored.numpy(), np.arange(10.0) ** 2 + 1)
    assert tack.sum(t) == float(np.sum(np.arange(10.0) ** 2 + 1))
    dst = tack.zeros(10, device=GPU)
    tack.copyto(dst, t)
    np.testing.assert_array_equal(host(dst), np.arange(10.0) ** 2 + 1)


@needs_gpu
def test_atomics_on_the_gpu():
    data = np.random.default_rng(3).integers(0, 1000, 10000).astype(np.int32)
    bins = tack.zeros(16, tack.i32, device=GPU)
    top = tack.zeros(1, tack.i32, device=GPU)
    tack.launch(len(data), histogram, bins, top, tack.array(data, device=GPU))
    np.testing.assert_array_equal(host(bins), np.bincount(data % 16, minlength=16))
    assert host(top)[0] == data.max()


@needs_gpu
def test_debug_mode_reports_an_index_error_from_the_gpu_and_the_gpu_stays_usable(debug_mode):
    src = tack.array(np.arange(10.0), device=GPU)
    out = tack.zeros(10, device=GPU)
    with pytest.raises(IndexError, match=r"index 1[0-2] is out of range for axis 0 of "
                                         r"parameter 'src' with 10 rows"):
        tack.launch(10, read_at, out, src, 3)
    tack.launch(7, read_at, out, src, 3)  # the device still runs kernels
    np.testing.assert_array_equal(host(out)[:7], np.arange(3.0, 10.0))


@needs_gpu
def test_a_launch_on_a_stream_returns_at_once_and_orders_with_the_stream():
    n = 1 << 20
    x = tack.array(np.arange(n, dtype=np.float64), device=GPU)
    out = tack.zeros(n, device=GPU)
    s = tack.Stream(GPU)
    tack.launch(n, blend, out, x, x, 0.5, stream=s)
    s.synchronize()
    np.testing.assert_array_equal(host(out), np.arange(n, dtype=np.float64))
    with s:
        tack.launch(n, copy_k, out, tack.zeros(n, device=GPU))
    s.synchronize()
    assert not host(out).any()


@needs_gpu
def test_mixed_devices_are_refused_naming_both_parameters():
    out = tack.zeros(4, device=GPU)
    with pytest.raises(tack.DeviceError, match=r"parameter 'out' is on cuda:0 and parameter 'src' "
                                               r"is on cpu"):
        tack.launch(4, copy_k, out, tack.zeros(4))
    with pytest.raises(tack.DeviceError, match=r"runs on cpu .*parameter 'out' is on cuda:0"):
        tack.launch(4, copy_k, out, tack.zeros(4, device=GPU), device="cpu")
    with pytest.raises(tack.DeviceError, match="stream"):
        tack.launch(4, copy_k, out, out, stream=tack.Stream("cpu"))


# ---- everywhere ----------------------------------------------------------------------------------

@pytest.mark.skipif(HAS_GPU, reason="the device is present")
def test_a_device_that_is_not_there_is_refused():
    with pytest.raises(tack.DeviceError, match="cuda:0 is not available"):
        tack.launch(4, copy_k, tack.zeros(4), tack.zeros(4), device=GPU)


def test_a_hip_device_is_refused_by_kernels_written_in_python():
    # Kernels written in Python compile for the CPU and for CUDA only: a launch that would run on
    # an AMD GPU is a DeviceError naming the device (checked without one: the rule itself).
    from tack.kernels import api
    with pytest.raises(tack.DeviceError, match=r"run on the CPU and on CUDA GPUs, not on hip:0"):
        api._require_kernel_device(tack, "hip:0")
    api._require_kernel_device(tack, "cpu")
    api._require_kernel_device(tack, "cuda:0")


def test_a_cpu_launch_on_a_cpu_stream_and_a_stream_that_is_not_one():
    out = tack.zeros(4)
    tack.launch(4, copy_k, out, tack.ones(4), stream=tack.Stream("cpu"))
    np.testing.assert_array_equal(out.numpy(), np.ones(4))
    with pytest.raises(TypeError, match="tack.Stream"):
        tack.launch(4, copy_k, out, out, stream=0)


class _Error(ctypes.Structure):
    _fields_ = [("kind", ctypes.c_int32), ("message", ctypes.c_char * 512)]


def _nvcc_available():
    return build.nvcc() is not None and shutil.which("g++") is not None


@pytest.mark.skipif(not _nvcc_available(), reason="nvcc is not installed")
def test_the_cuda_variant_compiles_links_and_loads(tmp_path, monkeypatch):
    """The GPU path up to the device: nvcc compiles and links the variant (``-z defs``: it calls
    nothing of tack's library), it loads, exports ``tack_pk_run_cuda``, and reports a CUDA failure
    (an invalid device) as a tack.DeviceError's message instead of crashing."""
    monkeypatch.setenv("TACK_KERNEL_CACHE", str(tmp_path / "cache"))
    out = tack.zeros(8, tack.vec3(), layout="soa")
    src = tack.zeros(8, tack.vec3())
    source = tack.kernels.generated_source(vec_k, 8, out, src, 2.0, cuda=True)
    stats = {"compiles": 0, "disk_loads": 0}
    lib, key = build.load_or_build(source, stats, cuda=True)
    assert stats["compiles"] == 1
    assert (tmp_path / "cache" / f"{key}.cu").exists()
    run = lib.tack_pk_run_cuda
    run.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int32, ctypes.c_void_p,
                    ctypes.c_int32, ctypes.POINTER(_Error)]
    slots = (ctypes.c_char * 4096)()
    dims = (ctypes.c_int64 * 1)(8)
    err = _Error()
    assert run(slots, dims, -1, None, 0, ctypes.byref(err)) == 1
    assert err.kind == 3
    assert b"CUDA error" in err.message
    # the same source and flags are the same entry: the second build loads it
    build.load_or_build(source, stats, cuda=True)
    assert stats == {"compiles": 1, "disk_loads": 1}
    assert build.cache_key(source, cuda=True) != build.cache_key(source)
