# SPDX-License-Identifier: BSD-3-Clause
"""Device classes and implicit arrays in kernels compiled from Python: Python's own indexing
protocol (__getitem__, __setitem__, __len__ as @tack.func methods), writable wrappers that store
through to the arrays they hold, tack.arrays.Function and Transform, and one generic kernel run
unchanged over every kind of array."""

import os
import re

import numpy as np
import pytest

import tack
from tack import arrays as ta

_FILE = os.path.basename(__file__)


def _at(tag):
    """The "file.py:LINE" a message names for the line of this file that ends with "# at:<tag>"."""
    with open(__file__, encoding="utf-8") as f:
        hits = [n for n, line in enumerate(f, 1) if line.rstrip().endswith("# at:" + tag)]
    assert len(hits) == 1, tag
    return re.escape(f"{_FILE}:{hits[0]}") + r"(?!\d)"


# ---- the indexing protocol, as the documentation writes it --------------------------------------

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


# ---- kernels -------------------------------------------------------------------------------------

@tack.kernel
def copy_k(i, out, src):
    out[i] = src[i]  # at:copy-store


@tack.kernel
def lengths(i, out, src):
    out[i] = len(src)  # at:len-use


@tack.kernel
def prefix_squares(i, out, src):
    acc = src[0] * 0
    for k in range(i + 1):
        acc += src[k] * src[k]
    out[i] = acc


@tack.kernel
def bump(i, a, v):
    a[i] += v


@tack.kernel
def atomic_into(i, a, x):
    tack.atomic_add(a, i, x[i])  # at:atomic-into


@tack.kernel
def copy2_k(i, j, out, src):
    out[i, j] = src[i, j]


@tack.kernel
def scale2(i, j, g, s):
    g[i, j] = g[i, j] * s


@tack.kernel
def method_k(i, out, obj, x):
    out[i] = obj.scaled(x[i]) + obj.twice_first()


def _prefix_squares(values):
    v = np.asarray(values)
    return np.cumsum(v * v, axis=0)


# ---- the Counting class --------------------------------------------------------------------------

def test_counting_class_in_a_kernel():
    c = Counting(5, 2, 3)
    out = tack.zeros(5, tack.i64)
    tack.launch(len(c), copy_k, out, c)
    np.testing.assert_array_equal(out.numpy(), [2, 5, 8, 11, 14])
    lens = tack.zeros(5, tack.i64)
    tack.launch(5, lengths, lens, c)
    np.testing.assert_array_equal(lens.numpy(), [5] * 5)


def test_counting_class_on_the_host():
    c = Counting(5, 2, 3)
    assert len(c) == 5
    assert c[4] == 14


def test_new_instance_numbers_do_not_recompile():
    out = tack.zeros(8, tack.i64)
    tack.launch(5, copy_k, out, Counting(5, 2, 3))
    before = tack.kernels.stats()
    tack.launch(8, copy_k, out, Counting(8, -7, 11))
    after = tack.kernels.stats()
    np.testing.assert_array_equal(out.numpy(), -7 + 11 * np.arange(8))
    assert after["compiles"] == before["compiles"]
    assert after["disk_loads"] == before["disk_loads"]
    assert after["memory_hits"] > before["memory_hits"]


def test_float_instance_numbers():
    out = tack.zeros(4, tack.f64)
    tack.launch(4, copy_k, out, Counting(4, 0.5, 0.25))
    np.testing.assert_array_equal(out.numpy(), 0.5 + 0.25 * np.arange(4))


# ---- one generic kernel over every kind of array -------------------------------------------------

@tack.func
def square_f(k):
    return k * k


def _sources():
    stored = np.array([3.0, -1.0, 2.5, 0.5, 4.0, -2.0, 1.0, 7.0])
    vec = np.arange(18, dtype=np.float32).reshape(6, 3) - 5
    soa = tack.zeros((6,), tack.vec3(), layout="soa")
    tack.copyto(soa, vec)
    order = np.array([4, 0, 9, 2, 2, 7], np.int64)
    return [
        ("stored", tack.array(stored), stored, tack.f64),
        ("row view", tack.array(stored)[2:7], stored[2:7], tack.f64),
        ("soa vec3", soa, vec, tack.vec3()),
        ("device class", Counting(6, 4, -3), 4 - 3 * np.arange(6), tack.i64),
        ("counting array", ta.CountingArray(7, 1, 2), 1 + 2 * np.arange(7), tack.i64),
        ("permutation of transform of counting",
         ta.Permutation(tack.array(order), ta.Transform(ta.CountingArray(10), square_f)),
         order * order, tack.i64),
    ]


@pytest.mark.parametrize("case", range(6))
def test_one_generic_kernel_over_every_kind_of_array(case):
    name, src, values, dtype = _sources()[case]
    n = len(values)
    out = tack.zeros((n,), dtype)
    tack.launch(n, copy_k, out, src)
    np.testing.assert_array_equal(out.numpy(), values, err_msg=name)
    sq = tack.zeros((n,), dtype)
    tack.launch(n, prefix_squares, sq, src)
    np.testing.assert_allclose(sq.numpy(), _prefix_squares(values), rtol=1e-6, err_msg=name)
    lens = tack.zeros(n, tack.i64)
    tack.launch(n, lengths, lens, src)
    np.testing.assert_array_equal(lens.numpy(), [n] * n, err_msg=name)


# ---- writable device classes ---------------------------------------------------------------------

@tack.device_class
class Window:
    """count elements of a from start; stores land in a."""

    def __init__(self, a, start, count):
        self.a, self.start, self.count = a, start, count

    @tack.func
    def __getitem__(self, k):
        return self.a[self.start + k]

    @tack.func
    def __setitem__(self, k, v):
        self.a[self.start + k] = v  # at:window-store

    @tack.func
    def __len__(self):
        return self.count


@tack.device_class
class Joined:
    """first, then second; a store writes the part holding the index."""

    def __init__(self, first, second):
        self.first, self.second = first, second

    @tack.func
    def __getitem__(self, k):
        if k < len(self.first):
            return self.first[k]
        return self.second[k - len(self.first)]

    @tack.func
    def __setitem__(self, k, v):
        if k < len(self.first):
            self.first[k] = v
        else:
            self.second[k - len(self.first)] = v

    @tack.func
    def __len__(self):
        return len(self.first) + len(self.second)


@tack.device_class
class Split3:
    """A vec3 array kept as three scalar arrays; a store writes each component to its own."""

    def __init__(self, x, y, z):
        self.x, self.y, self.z = x, y, z

    @tack.func
    def __getitem__(self, k):
        return tack.vec3(self.x[k], self.y[k], self.z[k])

    @tack.func
    def __setitem__(self, k, v):
        self.x[k] = v[0]
        self.y[k] = v[1]
        self.z[k] = v[2]

    @tack.func
    def __len__(self):
        return len(self.x)


@tack.device_class
class Grid:
    """A 2-D view of a flat array: g[i, j] arrives as one index vector k."""

    def __init__(self, values, ny, nx):
        self.values = values
        self.shape = (ny, nx)

    @tack.func
    def __getitem__(self, k):
        return self.values[k[0] * self.shape[1] + k[1]]

    @tack.func
    def __setitem__(self, k, v):
        self.values[k[0] * self.shape[1] + k[1]] = v

    @tack.func
    def __len__(self):
        return self.shape[0]

    def plain(self, x):  # not a @tack.func: callable on the host only
        return x + 1


@tack.device_class
class Scaled:
    """Class attributes are compiled in; methods call each other."""

    FACTOR = 3
    OFFSETS = (10, 20, 30)

    def __init__(self, a):
        self.a = a

    @tack.func
    def __getitem__(self, k):
        return self.a[k] * self.FACTOR + self.OFFSETS[k % 3]

    @tack.func
    def __len__(self):
        return len(self.a)

    @tack.func
    def scaled(self, x):
        return x * self.FACTOR

    @tack.func
    def twice_first(self):
        return 2 * self[0]


@tack.device_class
class Shifted:
    """Holds another indexable object (a device class or a library implicit array)."""

    def __init__(self, inner, offset):
        self.inner, self.offset = inner, offset

    @tack.func
    def __getitem__(self, k):
        return self.inner[k] + self.offset

    @tack.func
    def __len__(self):
        return len(self.inner)


@tack.device_class
class NoLen:
    def __init__(self, a):
        self.a = a

    @tack.func
    def __getitem__(self, k):
        return self.a[k]


def test_a_view_like_class_writes_through():
    big = tack.zeros(10, tack.f64)
    src = tack.array(np.array([1.0, 2.0, 3.0, 4.0]))
    w = Window(big, 3, 4)
    tack.launch(len(w), copy_k, w, src)
    np.testing.assert_array_equal(big.numpy(), [0, 0, 0, 1, 2, 3, 4, 0, 0, 0])
    tack.launch(4, bump, w, 0.5)  # a get and a set sharing the index
    np.testing.assert_array_equal(big.numpy(), [0, 0, 0, 1.5, 2.5, 3.5, 4.5, 0, 0, 0])
    out = tack.zeros(4, tack.f64)
    tack.launch(4, copy_k, out, Window(big, 2, 4))
    np.testing.assert_array_equal(out.numpy(), [0, 1.5, 2.5, 3.5])
    # a view-like class over a SoA array writes the components
    s = tack.zeros((5,), tack.vec2(), layout="soa")
    v = tack.array(np.array([[1, 2], [3, 4]], np.float32), dtype=tack.vec2())
    tack.launch(2, copy_k, Window(s, 2, 2), v)
    np.testing.assert_array_equal(s.numpy(), [[0, 0], [0, 0], [1, 2], [3, 4], [0, 0]])


def test_a_scatter_through_permutation():
    values = tack.zeros(6, tack.f32)
    order = tack.array(np.array([5, 1, 3], np.int64))
    src = tack.array(np.array([10, 20, 30], np.float32))
    tack.launch(3, copy_k, ta.Permutation(order, values), src)
    np.testing.assert_array_equal(values.numpy(), [0, 20, 0, 30, 0, 10])


def test_a_concatenate_like_class_writes_the_part_holding_the_index():
    a, b = tack.zeros(2, tack.i32), tack.zeros(3, tack.i32)
    j = Joined(a, b)
    src = tack.array(np.array([1, 2, 3, 4, 5], np.int32))
    tack.launch(5, copy_k, j, src)
    np.testing.assert_array_equal(a.numpy(), [1, 2])
    np.testing.assert_array_equal(b.numpy(), [3, 4, 5])
    out = tack.zeros(5, tack.i32)
    tack.launch(5, copy_k, out, j)
    np.testing.assert_array_equal(out.numpy(), [1, 2, 3, 4, 5])


def test_a_components_like_class_writes_each_component():
    x, y, z = tack.zeros(4), tack.zeros(4), tack.zeros(4)
    vals = np.arange(12, dtype=np.float32).reshape(4, 3)
    s = Split3(x, y, z)
    tack.launch(4, copy_k, s, tack.array(vals, dtype=tack.vec3()))
    np.testing.assert_array_equal(x.numpy(), vals[:, 0])
    np.testing.assert_array_equal(y.numpy(), vals[:, 1])
    np.testing.assert_array_equal(z.numpy(), vals[:, 2])
    back = tack.zeros((4,), tack.vec3())
    tack.launch(4, copy_k, back, s)
    np.testing.assert_array_equal(back.numpy(), vals)
    sq = tack.zeros((4,), tack.vec3())
    tack.launch(4, prefix_squares, sq, s)
    np.testing.assert_array_equal(sq.numpy(), _prefix_squares(vals))


def test_several_indices_arrive_as_one_vector():
    ny, nx = 3, 4
    flat = tack.array(np.arange(ny * nx, dtype=np.float64))
    g = Grid(flat, ny, nx)
    out = tack.zeros((ny, nx), tack.f64)
    tack.launch((ny, nx), copy2_k, out, g)
    np.testing.assert_array_equal(out.numpy(), np.arange(12.0).reshape(3, 4))
    tack.launch((ny, nx), scale2, g, 2.0)
    np.testing.assert_array_equal(flat.numpy(), 2 * np.arange(12.0))
    lens = tack.zeros(1, tack.i64)
    tack.launch(1, lengths, lens, g)
    assert lens.numpy()[0] == ny
    # another shape of the same class is the same variant: the tuple entries are parameters
    before = tack.kernels.stats()["compiles"]
    g2 = Grid(tack.array(np.arange(6, dtype=np.float64)), 2, 3)
    out2 = tack.zeros((2, 3), tack.f64)
    tack.launch((2, 3), copy2_k, out2, g2)
    np.testing.assert_array_equal(out2.numpy(), np.arange(6.0).reshape(2, 3))
    assert tack.kernels.stats()["compiles"] == before


@tack.func
def get2(obj, a, b):
    return obj[a, b]


@tack.kernel
def add2(i, j, g, v):
    g[i, j] += v


@tack.kernel
def via_func2(i, j, out, g):
    out[i, j] = get2(g, i, j)


@tack.kernel
def calls_plain_method(i, out, g):
    out[i] = g.plain(1.0)  # at:plain-method


def test_multi_index_augmented_store_and_a_class_passed_to_a_func():
    flat = np.arange(6.0)
    g = Grid(flat, 2, 3)
    tack.launch((2, 3), add2, g, 1.5)
    np.testing.assert_array_equal(flat, np.arange(6.0) + 1.5)
    out = np.zeros((2, 3))
    tack.launch((2, 3), via_func2, out, g)
    np.testing.assert_array_equal(out, (np.arange(6.0) + 1.5).reshape(2, 3))
    assert g.plain(1.0) == 2.0
    with pytest.raises(TypeError, match=_at("plain-method")) as info:
        tack.launch(2, calls_plain_method, np.zeros(2), g)
    assert "plain" in str(info.value)


def test_class_attributes_and_methods():
    a = tack.array(np.arange(6, dtype=np.int64))
    obj = Scaled(a)
    out = tack.zeros(6, tack.i64)
    tack.launch(6, copy_k, out, obj)
    np.testing.assert_array_equal(out.numpy(), np.arange(6) * 3 + np.array([10, 20, 30] * 2))
    x = tack.array(np.array([1.0, 2.0]))
    out2 = tack.zeros(2, tack.f64)
    tack.launch(2, method_k, out2, obj, x)
    np.testing.assert_array_equal(out2.numpy(), [3.0 + 20, 6.0 + 20])


def test_held_objects_compose():
    inner = Counting(5, 1, 1)
    out = tack.zeros(5, tack.f64)
    tack.launch(5, copy_k, out, Shifted(inner, 0.5))
    np.testing.assert_array_equal(out.numpy(), np.arange(1, 6) + 0.5)
    tack.launch(5, copy_k, out, Shifted(Shifted(ta.CountingArray(5, 10), 0.25), 0.25))
    np.testing.assert_array_equal(out.numpy(), np.arange(10, 15) + 0.5)
    tack.launch(5, copy_k, out, Shifted(tack.array(np.arange(5.0))[0:5], 1.0))
    np.testing.assert_array_equal(out.numpy(), np.arange(5.0) + 1)


def test_a_missing_method_is_refused_only_when_used():
    a = tack.array(np.arange(4.0))
    out = tack.zeros(4, tack.f64)
    tack.launch(4, copy_k, out, NoLen(a))  # no len() needed
    np.testing.assert_array_equal(out.numpy(), np.arange(4.0))
    with pytest.raises(TypeError, match=_at("len-use")):
        tack.launch(4, lengths, tack.zeros(4, tack.i64), NoLen(a))


# ---- library implicit arrays in kernels ----------------------------------------------------------

def _implicit_sources():
    v = tack.array(np.arange(10, dtype=np.float32))
    vec = tack.array(np.arange(12, dtype=np.float64).reshape(4, 3), dtype=tack.vec3(tack.f64))
    order = tack.array(np.array([3, 3, 0, 9], np.int64))
    return {
        "CountingArray": ta.CountingArray(5, 2, 3),
        "CountingArray f32": ta.CountingArray(5, 0.5, 0.25, dtype=tack.f32),
        "ConstantArray": ta.ConstantArray(2.5, 4),
        "ConstantArray vec": ta.ConstantArray((1.0, 2.0, 3.0), 3),
        "Permutation": ta.Permutation(order, v),
        "View": ta.View(v, 2, 5),
        "Strided": ta.Strided(v, 3, 1),
        "Concatenate": ta.Concatenate(v, tack.zeros(3)),
        "ExtractComponent": ta.ExtractComponent(vec, 2),
        "Components": ta.Components(tack.zeros(3), tack.ones(3)),
        "Components of computed": ta.Components(ta.CountingArray(4, dtype=tack.f64),
                                                ta.ConstantArray(1.0, 4)),
        "Cast": ta.Cast(ta.CountingArray(4), tack.f32),
        "Function": ta.Function(6, square_f),
        "Transform": ta.Transform(v, square_f),
        "UniformCoordinates 3-D": ta.UniformCoordinates((3, 2, 2), (0.0, 0.5, -1.0),
                                                        (0.1, 1.0, 0.25)),
        "UniformCoordinates 2-D f64": ta.UniformCoordinates((3, 4), (0.1, 0.0), (0.3, 2.0),
                                                            dtype=tack.f64),
        "UniformCoordinates 1-D": ta.UniformCoordinates((7,), (0.1,), (0.3,)),
        "CartesianProduct 2-D": ta.CartesianProduct(tack.array(np.array([1.0, 2.5, 3.0])),
                                                    tack.array(np.array([-4.0, 5.0]))),
        "CartesianProduct 3-D of computed": ta.CartesianProduct(
            ta.CountingArray(3), tack.array(np.array([7, 9], np.int64)),
            ta.ConstantArray(-1, 2)),
        "RandomUniform f32": ta.RandomUniform(9, 3, lo=-2.0, hi=5.0, dtype=tack.f32),
        "RandomUniform largest seed": ta.RandomUniform(9, 2 ** 64 - 1),
        "RandomNormal": ta.RandomNormal(9, 11),
        "RandomNormal f32": ta.RandomNormal(9, 11, dtype=tack.f32),
        "RandomBits": ta.RandomBits(9, 2 ** 40 + 1),
    }


@pytest.mark.parametrize("name", list(_implicit_sources()))
def test_library_implicit_arrays_read_in_a_kernel(name):
    src = _implicit_sources()[name]
    want = src.numpy()
    n = want.shape[0]
    out = tack.zeros((n,), src.dtype)
    tack.launch(n, copy_k, out, src)
    np.testing.assert_array_equal(out.numpy(), want)
    lens = tack.zeros(n, tack.i64)
    tack.launch(n, lengths, lens, src)
    np.testing.assert_array_equal(lens.numpy(), [n] * n)


def test_computed_library_arrays_change_values_without_recompiling():
    def variants_made():
        st = tack.kernels.stats()
        return st["compiles"] + st["disk_loads"]

    out = tack.zeros((6,), tack.vec2(tack.f64))
    r = tack.zeros((6,), tack.f64)
    tack.launch(6, copy_k, out, ta.UniformCoordinates((3, 2), (0.0, 0.0), (1.0, 1.0),
                                                      dtype=tack.f64))
    tack.launch(6, copy_k, r, ta.RandomNormal(6, 1))
    before = variants_made()
    grid = ta.UniformCoordinates((2, 3), (0.5, -1.0), (0.25, 2.0), dtype=tack.f64)
    tack.launch(6, copy_k, out, grid)
    tack.launch(6, copy_k, r, ta.RandomNormal(6, 2))
    assert variants_made() == before  # new sizes, origins and seeds are run-time values
    np.testing.assert_array_equal(out.numpy(), grid.numpy())
    np.testing.assert_array_equal(r.numpy(), ta.RandomNormal(6, 2).numpy())


def test_computed_library_arrays_are_read_only_in_kernels():
    for src in (ta.UniformCoordinates((3, 2), (0.0, 0.0), (1.0, 1.0)),
                ta.CartesianProduct(tack.zeros(2), tack.zeros(3)), ta.RandomUniform(4, 1)):
        with pytest.raises(TypeError, match=r"test_kernels_classes.py:\d+.*computed array"):
            tack.launch(len(src), _store_zero, src)


@tack.kernel
def _store_zero(i, dst):
    dst[i] = dst[i] * 0


def test_lazy_arithmetic_results_are_refused_with_the_way_out():
    a = tack.zeros(4)
    with pytest.raises(TypeError, match=r"parameter 'src'.*built by arithmetic.*write the "
                                        r"arithmetic in the kernel"):
        tack.launch(4, copy_k, tack.zeros(4), a + 1.0)


def test_library_implicit_arrays_written_in_a_kernel():
    v = tack.zeros(10, tack.f64)
    tack.launch(3, copy_k, ta.View(v, 4, 3), tack.array(np.array([1.0, 2.0, 3.0])))
    np.testing.assert_array_equal(v.numpy(), [0, 0, 0, 0, 1, 2, 3, 0, 0, 0])
    s = tack.zeros(10, tack.f64)
    tack.launch(4, copy_k, ta.Strided(s, 3, 0), tack.array(np.array([1.0, 2.0, 3.0, 4.0])))
    np.testing.assert_array_equal(s.numpy(), [1, 0, 0, 2, 0, 0, 3, 0, 0, 4])
    a, b = tack.zeros(2, tack.f64), tack.zeros(2, tack.f64)
    tack.launch(4, copy_k, ta.Concatenate(a, b), tack.array(np.array([5.0, 6.0, 7.0, 8.0])))
    np.testing.assert_array_equal(a.numpy(), [5, 6])
    np.testing.assert_array_equal(b.numpy(), [7, 8])
    vec = tack.zeros((3,), tack.vec3(tack.f64))
    tack.launch(3, copy_k, ta.ExtractComponent(vec, 1), tack.array(np.array([1.0, 2.0, 3.0])))
    np.testing.assert_array_equal(vec.numpy(), [[0, 1, 0], [0, 2, 0], [0, 3, 0]])
    x, y = tack.zeros(3), tack.zeros(3)
    vals = np.array([[1, 2], [3, 4], [5, 6]], np.float32)
    tack.launch(3, copy_k, ta.Components(x, y), tack.array(vals, dtype=tack.vec2()))
    np.testing.assert_array_equal(x.numpy(), [1, 3, 5])
    np.testing.assert_array_equal(y.numpy(), [2, 4, 6])
    # an augmented store through a permutation reads and writes the same element
    w = tack.array(np.arange(5.0))
    tack.launch(2, bump, ta.Permutation(tack.array(np.array([4, 1], np.int64)), w), 10.0)
    np.testing.assert_array_equal(w.numpy(), [0, 11, 2, 3, 14])


# ---- Function and Transform ----------------------------------------------------------------------

@tack.func
def halve_plus(x):
    return x * 0.5 + 1.0


@tack.func
def spiral(k):
    return tack.vec3(float(k), 0.0, 1.0)


@tack.func
def norm(v):
    return tack.length(v)


def test_function_array():
    f = ta.Function(6, square_f)
    assert f.shape == (6,) and f.dtype is tack.i64
    np.testing.assert_array_equal(f.numpy(), np.arange(6) ** 2)
    assert tack.sum(f) == 55 and tack.min(f) == 0 and tack.max(f) == 25
    out = tack.zeros(6, tack.i64)
    tack.copyto(out, f)
    np.testing.assert_array_equal(out.numpy(), np.arange(6) ** 2)
    g = ta.Function(4, square_f, dtype=tack.f32)
    assert g.dtype is tack.f32
    np.testing.assert_array_equal(g.numpy(), np.array([0, 1, 4, 9], np.float32))
    s = ta.Function(3, spiral)
    assert s.dtype is tack.vec3(tack.f64)
    np.testing.assert_array_equal(s.numpy(), [[0, 0, 1], [1, 0, 1], [2, 0, 1]])


def test_transform_array():
    xs = np.array([3.0, -1.0, 0.25, 8.0], np.float32)
    t = ta.Transform(tack.array(xs), halve_plus)
    assert t.dtype is tack.f32 and t.shape == (4,)  # float32 times a Python float stays float32
    want = xs * 0.5 + 1.0
    np.testing.assert_array_equal(t.numpy(), want)
    assert tack.sum(t) == pytest.approx(float(want.sum()))
    assert tack.min(t) == want.min() and tack.max(t) == want.max()
    out = tack.zeros(4, tack.f32)
    tack.copyto(out, t)
    np.testing.assert_array_equal(out.numpy(), want)
    t64 = ta.Transform(tack.array(xs), halve_plus, dtype=tack.f64)
    assert t64.dtype is tack.f64
    np.testing.assert_array_equal(t64.numpy(), want.astype(np.float64))
    vec = np.array([[3, 4, 0], [0, 0, 2]], np.float32)
    lengths_ = ta.Transform(tack.array(vec, dtype=tack.vec3()), norm)
    assert lengths_.dtype is tack.f32
    np.testing.assert_allclose(lengths_.numpy(), [5, 2], rtol=1e-7)
    # compositions
    tt = ta.Transform(ta.Function(5, square_f), halve_plus)
    np.testing.assert_array_equal(tt.numpy(), np.arange(5) ** 2 * 0.5 + 1.0)
    p = ta.Permutation(tack.array(np.array([2, 0], np.int64)), ta.Transform(ta.CountingArray(3), square_f))
    np.testing.assert_array_equal(p.numpy(), [4, 0])


def test_function_and_transform_compose_with_other_arrays():
    assert len(ta.Function(5, square_f)) == 5
    assert tack.mean(ta.Function(5, square_f)) == 6.0
    empty = ta.Function(0, square_f)
    assert empty.numpy().shape == (0,) and tack.sum(empty) == 0
    np.testing.assert_array_equal(ta.View(ta.Function(6, square_f), 2, 3).numpy(), [4, 9, 16])
    s = tack.zeros((3,), tack.vec3(), layout="soa")
    tack.copyto(s, np.array([[3, 4, 0], [0, 0, 1], [1, 2, 2]], np.float32))
    np.testing.assert_allclose(ta.Transform(s, norm).numpy(), [5, 1, 3], rtol=1e-7)
    with pytest.raises(TypeError, match="tack.func"):
        ta.Function(3, lambda k: k)


def test_transform_of_a_device_class():
    # a user's indexable class is an array like the library's: Transform takes it too
    t = ta.Transform(Counting(4, 1, 2), square_f)
    assert t.dtype is tack.i64 and t.shape == (4,)
    np.testing.assert_array_equal(t.numpy(), [1, 9, 25, 49])
    out = tack.zeros(4, tack.i64)
    tack.launch(4, copy_k, out, t)
    np.testing.assert_array_equal(out.numpy(), [1, 9, 25, 49])


# ---- refusals ------------------------------------------------------------------------------------

def test_storing_into_a_computed_array_is_refused():
    src = tack.array(np.arange(3, dtype=np.int64))
    for target in (ta.CountingArray(3), ta.Transform(ta.CountingArray(3), square_f),
                   ta.Function(3, square_f), Counting(3, 0, 1)):
        with pytest.raises(TypeError, match=_at("copy-store")):
            tack.launch(3, copy_k, target, src)


def test_storing_through_a_class_into_a_computed_array_is_refused():
    with pytest.raises(TypeError, match=re.escape(_FILE) + r":\d+"):
        tack.launch(3, copy_k, Window(ta.CountingArray(5), 1, 3), tack.array(np.arange(3)))


def test_storing_through_a_class_into_a_read_only_array_is_refused():
    ro = np.zeros(5)
    ro.flags.writeable = False
    with pytest.raises(tack.ReadOnlyError):
        tack.launch(3, copy_k, Window(ro, 1, 3), tack.array(np.arange(3.0)))
    assert not ro.any()


def test_storing_through_implicit_arrays_into_read_only_arrays_is_refused():
    ro = np.zeros(6)
    ro.flags.writeable = False
    soa = tack.soa(tack.zeros(3, tack.f64), tack.from_dlpack(ro[:3]), tack.zeros(3, tack.f64))
    ones = tack.ones(2, tack.f64)
    for target in (ta.View(ro, 1, 2), ta.Strided(ro, 2), ta.Permutation(tack.array(np.arange(2)), ro),
                   ta.Concatenate(tack.zeros(1, tack.f64), ro), ta.ExtractComponent(soa, 1)):
        with pytest.raises(tack.ReadOnlyError, match="parameter 'out'"):
            tack.launch(2, copy_k, target, ones)
    with pytest.raises(tack.ReadOnlyError, match="parameter 'out'"):
        tack.launch(2, copy_k, ta.Components(tack.zeros(6, tack.f64), ro), tack.ones((2,), tack.vec2(tack.f64)))
    assert not ro.any()
    # read-only indices of a permutation are only read: the scatter is fine
    idx = np.array([2, 0])
    idx.flags.writeable = False
    values = np.zeros(3)
    tack.launch(2, copy_k, ta.Permutation(idx, values), tack.array(np.array([1.0, 2.0])))
    np.testing.assert_array_equal(values, [2, 0, 1])


def test_atomics_on_implicit_arrays_and_device_classes_are_refused():
    x = tack.ones(3, tack.f64)
    stored = tack.zeros(5, tack.f64)
    tack.launch(3, atomic_into, stored, x)  # a stored array takes atomics
    np.testing.assert_array_equal(stored.numpy(), [1, 1, 1, 0, 0])
    for target in (ta.View(stored, 0, 4), ta.Permutation(tack.array(np.arange(3)), stored),
                   Window(stored, 1, 3), ta.CountingArray(3, dtype=tack.f64)):
        with pytest.raises(TypeError, match=_at("atomic-into")):
            tack.launch(3, atomic_into, target, x)


@tack.func
def _half_square_plus_one(x):
    return x * x * 0.5 + 1.0


def test_sum_of_a_composition_over_a_func_is_one_fused_pass():
    # tack.sum of a Permutation of a Transform of a CountingArray: summed by one generated pass
    # (no stored temporary), blocks added in block order, so the value is the same every time and
    # equals NumPy's sum to rounding.
    n = 200_003
    order = np.arange(n, dtype=np.int64)[::-1].copy()
    p = ta.Permutation(tack.array(order),
                       ta.Transform(ta.CountingArray(n, dtype=tack.f64), _half_square_plus_one))
    want = np.sum(np.arange(n, dtype=np.float64) ** 2 * 0.5 + 1.0)
    got = tack.sum(p)
    assert isinstance(got, float)
    assert got == pytest.approx(float(want), rel=1e-13)
    assert tack.sum(p) == got
    # integers wrap and sum in 64 bits, as NumPy's sums
    big = ta.Function(1000, _int_big)
    want_i = np.sum((np.arange(1000, dtype=np.int64) * np.int64(2**61)))
    assert tack.sum(big) == int(want_i)
    assert tack.sum(ta.Function(0, _int_big)) == 0
    # f32 elements sum in f32, as a stored f32 array's sum
    f = ta.Transform(tack.array(np.full(1000, 0.1, np.float32)), _identity_f)
    assert tack.sum(f) == pytest.approx(float(np.sum(np.full(1000, 0.1, np.float32))), rel=1e-6)


@tack.func
def _int_big(i):
    return i * 2305843009213693952


@tack.func
def _identity_f(x):
    return x


def test_library_arrays_compose_over_device_classes():
    # A device class is an operand of the library's arrays as a stored array is: read through
    # its __getitem__ and __len__, in kernels and on the host. Such a composition takes no stores
    # (the class is read through a value), so a store into it is refused when the kernel compiles.
    c = Counting(5, 1.0, 2.0)
    p = ta.Permutation(tack.array(np.array([4, 3, 2, 1, 0])), c)
    out = tack.zeros((5,), tack.f64)
    tack.launch(5, copy_k, out, p)
    np.testing.assert_array_equal(out.numpy(), [9.0, 7.0, 5.0, 3.0, 1.0])
    np.testing.assert_array_equal(p.numpy(), [9.0, 7.0, 5.0, 3.0, 1.0])
    assert tack.sum(p) == 25.0
    np.testing.assert_array_equal(ta.View(c, 1, 3).numpy(), [3.0, 5.0, 7.0])
    np.testing.assert_array_equal(ta.Cast(c, tack.i32).numpy(), [1, 3, 5, 7, 9])
    with pytest.raises(TypeError, match=r"test_kernels_classes.py:\d+.*computed array"):
        tack.launch(5, _store_one, p)


@tack.kernel
def _store_one(i, dst):
    dst[i] = 1.0
