# SPDX-License-Identifier: BSD-3-Clause
"""tack.Stream and tack.current_stream: tack::stream and tack::stream_scope from Python.

On the CPU a stream is an empty queue (work runs when submitted), so the same code gives the same
results; the CUDA cases need a GPU and skip without one.
"""

import numpy as np
import pytest

import tack

has_gpu = tack.is_available("cuda:0")
devices = ["cpu"] + (["cuda:0"] if has_gpu else [])


@pytest.mark.parametrize("device", devices)
def test_a_stream_names_its_device_and_waits(device):
    s = tack.Stream(device)
    assert s.device == device
    assert s.idle
    s.synchronize()
    assert s == s
    assert hash(s) == hash(s)
    assert device in repr(s)
    if device == "cpu":
        assert s.native == 0
        assert s == tack.Stream("cpu")  # every CPU stream is the same queue
    else:
        assert s.native != 0
        assert s != tack.Stream(device)


@pytest.mark.parametrize("device", devices)
def test_with_makes_the_stream_current_and_nests(device):
    s1, s2 = tack.Stream(device), tack.Stream(device)
    before = tack.current_stream(device)
    assert before.native == 0
    with s1 as entered:
        assert entered is s1
        assert tack.current_stream(device) == s1
        with s2:
            assert tack.current_stream(device) == s2
        assert tack.current_stream(device) == s1
    assert tack.current_stream(device) == before


@pytest.mark.parametrize("device", devices)
def test_a_block_leaves_the_scope_on_an_exception(device):
    s = tack.Stream(device)
    with pytest.raises(ZeroDivisionError):
        with s:
            1 / 0
    assert tack.current_stream(device).native == 0


@pytest.mark.parametrize("device", devices)
def test_work_inside_the_block_follows_the_stream(device):
    s = tack.Stream(device)
    n = 1 << 20
    a = tack.zeros((n,), tack.f32, device=device)
    b = tack.empty((n,), tack.f32, device=device)
    with s:
        a.fill(2.0)
        tack.copyto(b, a)
        total = tack.sum(b)  # a reduction waits for its stream
    assert total == 2.0 * n
    s.synchronize()
    np.testing.assert_array_equal(b.to_device("cpu").numpy(), np.full(n, 2.0, np.float32))


def test_cuda_stream_protocol_is_refused_on_the_cpu():
    with pytest.raises(TypeError, match="not a CUDA stream"):
        tack.Stream("cpu").__cuda_stream__()


@pytest.mark.skipif(not has_gpu, reason="needs a CUDA device")
def test_cuda_stream_protocol_gives_the_handle():
    s = tack.Stream("cuda:0")
    assert s.__cuda_stream__() == (0, s.native)
    borrowed = tack.Stream.borrow("cuda:0", s.native)
    assert borrowed == s


def test_refusals_name_the_device_and_the_value():
    with pytest.raises(ValueError, match="native handle 7"):
        tack.Stream.borrow("cpu", 7)
    if not has_gpu:
        with pytest.raises(tack.DeviceError, match="cuda:0"):
            tack.Stream("cuda:0")
    with pytest.raises(TypeError, match="device must be a string"):
        tack.Stream(3)
