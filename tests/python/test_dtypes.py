# SPDX-License-Identifier: BSD-3-Clause
import pickle

import numpy as np
import pytest

import tack


def test_scalar_dtypes_are_interned_and_named():
    names = ["f32", "f64", "i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64"]
    for name in names:
        d = getattr(tack, name)
        assert str(d) == name and repr(d) == name
        assert tack.dtype(name) is d
        assert d.is_scalar and d.shape == () and d.components == 1
    assert tack.f64.itemsize == 8 and tack.u8.itemsize == 1
    assert tack.dtype(np.float32) is tack.f32


def test_vectors_and_matrices():
    assert tack.vec3(tack.f32) is tack.vec3(tack.f32)
    assert tack.vec3() is tack.vec3(tack.f32)  # components default to f32
    assert tack.vec(3, tack.f32) is tack.vec3()
    assert str(tack.vec3(tack.f32)) == "vec3(f32)"
    assert str(tack.mat3(tack.f64)) == "mat3(f64)"
    assert str(tack.mat(2, 3)) == "mat2x3(f32)"
    assert tack.mat(2, 2) is tack.mat2()
    assert tack.vec4(tack.i32).shape == (4,) and tack.mat4().shape == (4, 4)
    assert tack.mat3().components == 9 and tack.mat3().itemsize == 36
    assert tack.vec2(tack.f64).scalar is tack.f64
    # a matrix and a vector with the same number of components remain distinct
    assert tack.vec4() is not tack.mat2() and tack.vec4() != tack.mat2()


def test_descriptors_are_immutable_and_hashable():
    d = tack.vec3()
    with pytest.raises(AttributeError):
        d.name = "x"
    assert {d: 1}[tack.vec3(tack.f32)] == 1
    assert pickle.loads(pickle.dumps(d)) is d


def test_bad_descriptors():
    with pytest.raises(ValueError, match="1 to 16 components, not 0"):
        tack.vec(0)
    with pytest.raises(ValueError, match="1 to 4 rows and columns, not 5x2"):
        tack.mat(5, 2)
    with pytest.raises(TypeError, match="component type must be a scalar dtype"):
        tack.vec(3, tack.vec3())
    with pytest.raises(TypeError, match="only inside kernels compiled from Python"):
        tack.vec3()(1.0, 2.0, 3.0)
