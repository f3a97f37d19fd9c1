# SPDX-License-Identifier: BSD-3-Clause
"""tack.dataset from Python: the snippet of docs/dataset.md as written, meshes of the three kinds,
fields of every element type, interpolation, zero-copy arrays, refusals, and the files it writes
and reads (tests/dataset/ is the C++ counterpart)."""

import gc
import sys
import threading

import numpy as np
import pytest

import tack
import tack.dataset as td


def test_seed001_dataset_fields_snippet():
    import tack.dataset as td

    data = td.uniform_grid((2, 2, 2))
    space = td.H1(data)
    values = tack.empty((space.size,), tack.vec3())
    values.fill([1.0, 0.0, 0.0])
    data.fields["velocity"] = td.Field(space, values)
    assert space.size == 8 and data.n_points == 8 and data.n_cells == 1
    assert data.fields["velocity"].values is values
    assert list(data.fields) == ["velocity"] and "velocity" in data.fields


# ---- meshes ------------------------------------------------------------------------------------

def test_uniform_grid_points_are_computed():
    g = td.uniform_grid((3, 2, 4), (1.0, 2.0, 3.0), (0.5, 1.0, 2.0))
    assert (g.n_points, g.n_cells, g.point_dims) == (24, 2 * 1 * 3, (3, 2, 4))
    assert g.origin == (1.0, 2.0, 3.0) and g.spacing == (0.5, 1.0, 2.0)
    pts = tack.empty((24,), tack.vec3(tack.f64))
    tack.copyto(pts, g.points)
    np.testing.assert_array_equal(pts.numpy()[1], [1.5, 2.0, 3.0])
    np.testing.assert_array_equal(pts.numpy()[23], [2.0, 3.0, 9.0])
    assert td.uniform_grid((4, 4)).point_dims == (4, 4, 1) and td.uniform_grid((4, 4)).n_cells == 9
    assert "uniform_grid (3, 2, 4)" in repr(g)


def test_uniform_grid_refusals():
    with pytest.raises(ValueError, match=r"uniform_grid.*\(0, 2, 2\)"):
        td.uniform_grid((0, 2, 2))
    with pytest.raises(ValueError, match="spacing"):
        td.uniform_grid((2, 2, 2), spacing=(1.0, -1.0, 1.0))
    with pytest.raises(ValueError, match="1 to 3 entries"):
        td.uniform_grid((2, 2, 2, 2))


def test_rectilinear_grid_axes_share_memory():
    x = np.array([0.0, 1.0, 3.0])
    g = td.rectilinear_grid(x, tack.array(np.array([0.0, 2.0], dtype=np.float32)), [5.0])
    assert (g.n_points, g.n_cells, g.point_dims) == (6, 2, (3, 2, 1))
    assert g.x.dtype is tack.f64 and g.y.dtype is tack.f64  # an f32 axis is copied to f64
    assert np.shares_memory(np.from_dlpack(g.x), x)  # an f64 NumPy axis is the mesh's memory
    np.testing.assert_array_equal(g.y.numpy(), [0.0, 2.0])
    pts = tack.empty((6,), tack.vec3(tack.f64))
    tack.copyto(pts, g.points)
    np.testing.assert_array_equal(pts.numpy()[4], [1.0, 2.0, 5.0])


def test_rectilinear_grid_refusals():
    with pytest.raises(ValueError, match=r"axis x.*increasing.*element 2"):
        td.rectilinear_grid([0.0, 2.0, 1.0], [0.0], [0.0])
    with pytest.raises(ValueError, match="axis y.*empty"):
        td.rectilinear_grid([0.0], np.zeros(0), [0.0])
    with pytest.raises(TypeError, match="axis z.*f32 or f64"):
        td.rectilinear_grid([0.0], [0.0], np.arange(3))
    with pytest.raises(ValueError, match="axis x.*1-D"):
        td.rectilinear_grid(np.zeros((2, 2)), [0.0], [0.0])


def two_tets(points=None):
    """Two tetrahedra sharing the face (1, 2, 3) of the unit cube's corner."""
    if points is None:
        points = np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1], [1, 1, 1]], dtype=np.float32)
    return td.unstructured_grid(points, np.array([0, 1, 2, 3, 1, 2, 3, 4]), np.array([0, 4, 8]),
                                np.array([10, 10], dtype=np.uint8))


def test_unstructured_grid_arrays_are_the_meshes_memory():
    pts = np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1], [1, 1, 1]], dtype=np.float32)
    conn = np.array([0, 1, 2, 3, 1, 2, 3, 4], dtype=np.int64)
    g = td.unstructured_grid(pts, conn, [0, 4, 8], np.array([10, 10], dtype=np.uint8))
    assert (g.n_points, g.n_cells) == (5, 2)
    assert g.points.dtype is tack.vec3(tack.f32) and g.points.shape == (5,)
    assert g.connectivity.dtype is tack.i64 and g.offsets.dtype is tack.i64 and g.cell_types.dtype is tack.u8
    # zero-copy both ways: the NumPy inputs are the mesh's arrays
    p = np.from_dlpack(g.points)
    assert p.shape == (5, 3) and np.shares_memory(p, pts)
    assert np.shares_memory(np.from_dlpack(g.connectivity), conn)
    assert np.shares_memory(np.from_dlpack(g), pts)  # the mesh itself exports its points
    np.testing.assert_array_equal(np.from_dlpack(g.offsets), [0, 4, 8])
    np.testing.assert_array_equal(np.from_dlpack(g.cell_types), [10, 10])
    # writes are visible both ways
    pts[4, 0] = 2.0
    assert g.points.numpy()[4, 0] == 2.0
    g.points[4:5].fill([1.0, 1.0, 1.0])
    assert pts[4, 0] == 1.0
    # integer arrays of other types are converted (not shared); f64 points and vec3 arrays work
    g32 = td.unstructured_grid(pts.astype(np.float64), conn.astype(np.int32), np.array([0, 4, 8], np.int16),
                               np.array([10, 10], dtype=np.int32))
    assert g32.connectivity.dtype is tack.i64 and g32.points.dtype is tack.vec3(tack.f64)
    assert not np.shares_memory(np.from_dlpack(g32.connectivity), conn)
    v = tack.array(pts, dtype=tack.vec3())
    assert np.shares_memory(np.from_dlpack(td.unstructured_grid(v, conn, [0, 4, 8], [10, 10]).points),
                            np.from_dlpack(v))


def test_unstructured_grid_soa_points():
    pts = tack.array(np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1], [1, 1, 1]], dtype=np.float64),
                     dtype=tack.vec3(tack.f64), layout="soa")
    g = two_tets(pts)
    assert g.points.layout == "soa"
    assert np.shares_memory(np.from_dlpack(g.points.components[0]), np.from_dlpack(pts.components[0]))
    with pytest.raises(BufferError, match="structure-of-arrays"):
        np.from_dlpack(g)
    f = td.Field(td.H1(g), tack.array(np.array([0.0, 1.0, 2.0, 3.0, 6.0])))
    assert f.interpolate((0.1, 0.2, 0.3)) == pytest.approx(1.4)


def test_unstructured_grid_refusals():
    pts = np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1], [1, 1, 1]], dtype=np.float32)
    conn = np.array([0, 1, 2, 3])
    with pytest.raises(ValueError, match="cell type 42.*not supported"):
        td.unstructured_grid(pts, conn, [0, 4], np.array([42], np.uint8))
    with pytest.raises(ValueError, match="cell type 99"):
        td.unstructured_grid(pts, conn, [0, 4], [99])
    with pytest.raises(ValueError, match=r"connectivity\[3\] = 5.*5 points"):
        td.unstructured_grid(pts, [0, 1, 2, 5], [0, 4], [10])
    with pytest.raises(ValueError, match="offsets are not increasing.*cell 1"):
        td.unstructured_grid(pts, [0, 1, 2, 3, 1, 2, 3, 4], [0, 4, 4], [10, 10])
    with pytest.raises(ValueError, match=r"n_cells \+ 1"):
        td.unstructured_grid(pts, conn, [4], [10])
    with pytest.raises(ValueError, match="hexahedron.*has 4 points"):
        td.unstructured_grid(pts, conn, [0, 4], [12])
    with pytest.raises(TypeError, match="connectivity must be a 1-D integer array"):
        td.unstructured_grid(pts, np.array([0.0, 1, 2, 3]), [0, 4], [10])
    with pytest.raises(TypeError, match="offsets must be a 1-D integer array"):
        td.unstructured_grid(pts, conn, np.array([[0, 4]]), [10])
    with pytest.raises(TypeError, match="points must be vec3"):
        td.unstructured_grid(pts[:, :2].copy(), conn, [0, 4], [10])
    with pytest.raises(TypeError, match="points must be vec3"):
        td.unstructured_grid(pts.astype(np.int32), conn, [0, 4], [10])


# ---- spaces and fields -------------------------------------------------------------------------

def test_fields_of_each_kind_and_refusals(tmp_path):
    g = td.uniform_grid((3, 2, 2), (1.0, 0.0, 0.0), (0.5, 1.0, 1.0))
    h1, l2 = td.H1(g), td.L2(g)
    assert (h1.size, l2.size, h1.kind, l2.kind) == (12, 2, "H1", "L2")
    assert h1.mesh is g
    g.fields["t"] = td.Field(h1, tack.array(np.arange(12.0)))
    g.fields["stress"] = td.Field(l2, tack.zeros((2,), tack.mat3(tack.f64)))
    g.fields["v"] = td.Field(h1, tack.zeros((12,), tack.vec3(), layout="soa"))
    g.fields["id"] = td.Field(l2, tack.array(np.array([3, 4], dtype=np.int32)))
    g.fields["v2"] = td.Field(h1, tack.zeros((12,), tack.vec2(tack.f64), layout="soa"))
    g.fields["m4"] = td.Field(l2, tack.zeros((2,), tack.mat4()))
    assert len(g.fields) == 6 and g.fields.keys() == ["t", "stress", "v", "id", "v2", "m4"]
    assert [name for name, _ in g.fields.items()] == g.fields.keys()
    del g.fields["stress"]
    assert "stress" not in g.fields and g.fields.get("stress") is None
    assert g.fields.get("t") is g.fields["t"]
    with pytest.raises(KeyError):
        del g.fields["stress"]
    with pytest.raises(IndexError, match="no field named 'stress'.*'t'"):
        g.fields["stress"]
    with pytest.raises(ValueError, match="5 elements but the H1 space.*size 12"):
        td.Field(h1, tack.zeros(5))
    with pytest.raises(ValueError, match="1-D"):
        td.Field(h1, tack.zeros((12, 1)))
    with pytest.raises(TypeError, match="values must be a tack.Array"):
        td.Field(h1, np.zeros(12))
    with pytest.raises(TypeError, match="space must be"):
        td.Field(g, tack.zeros(12))
    with pytest.raises(TypeError, match="td.Field"):
        g.fields["x"] = tack.zeros(12)
    with pytest.raises(TypeError, match="expected a mesh"):
        td.H1(tack.zeros(3))
    other = td.uniform_grid((3, 2, 2))
    with pytest.raises(ValueError, match="field 'x'.*another mesh"):
        g.fields["x"] = td.Field(td.H1(other), tack.zeros(12))
    # replacing keeps the place
    g.fields["t"] = td.Field(l2, tack.ones(2))
    assert g.fields.keys()[0] == "t" and g.fields["t"].space.kind == "L2"


def test_field_values_share_memory_both_ways():
    g = td.uniform_grid((2, 2, 2))
    values = tack.zeros((8,), tack.vec3())
    f = td.Field(td.H1(g), values)
    n = np.from_dlpack(f)  # the field exports its values
    assert n.shape == (8, 3) and np.shares_memory(n, np.from_dlpack(values))
    n[3] = [1.0, 2.0, 3.0]
    np.testing.assert_array_equal(values.numpy()[3], [1.0, 2.0, 3.0])
    values[5:6].fill([7.0, 8.0, 9.0])
    np.testing.assert_array_equal(n[5], [7.0, 8.0, 9.0])
    assert f.dtype is tack.vec3(tack.f32) and f.size == 8 and "field<vec3(f32)>" in repr(f)


def test_meshes_fields_and_spaces_are_collected():
    values = tack.zeros((8,), tack.vec3())
    before = sys.getrefcount(values)

    def make():
        g = td.uniform_grid((2, 2, 2))
        g.fields["v"] = td.Field(td.H1(g), values)  # mesh -> field -> space -> mesh: a cycle
        return g.fields

    fields = make()
    assert sys.getrefcount(values) > before
    del fields
    gc.collect()
    assert sys.getrefcount(values) == before


# ---- interpolation -----------------------------------------------------------------------------

def linear_vec(p):
    return np.stack([p[..., 0] + 2 * p[..., 1], 3 * p[..., 2], np.ones_like(p[..., 0])], axis=-1)


def test_uniform_interpolation_one_point_and_many():
    g = td.uniform_grid((5, 4, 3), (-1.0, 0.0, 2.0), (0.5, 1.0, 0.25))
    pts = tack.empty((g.n_points,), tack.vec3(tack.f64))
    tack.copyto(pts, g.points)
    v = tack.array(linear_vec(pts.numpy()).astype(np.float32), dtype=tack.vec3())
    f = td.Field(td.H1(g), v)
    u = f.interpolate((-0.3, 1.7, 2.4))
    assert isinstance(u, np.ndarray) and u.shape == (3,) and u.dtype == np.float32
    np.testing.assert_allclose(u, [-0.3 + 3.4, 7.2, 1.0], rtol=1e-5)
    q = np.array([[-1, 0, 2], [1, 3, 2.5], [5, 0, 0], [0.1, 0.2, 2.3]], dtype=np.float32)
    r = f.interpolate(q)  # a NumPy (n, 3) array: shared as vec3 points
    assert isinstance(r, tack.Array) and r.dtype is tack.vec3(tack.f32) and r.shape == (4,)
    rn = r.numpy()
    np.testing.assert_allclose(rn[[0, 1, 3]], linear_vec(q.astype(np.float64))[[0, 1, 3]], rtol=1e-5, atol=1e-5)
    assert np.isnan(rn[2]).all()  # outside the mesh: NaN in every component
    # vec3 tack arrays of either precision and layout give the same results
    for qa in (tack.array(q, dtype=tack.vec3()), tack.array(q.astype(np.float64), dtype=tack.vec3(tack.f64)),
               tack.array(q, dtype=tack.vec3(), layout="soa")):
        np.testing.assert_array_equal(f.interpolate(qa).numpy()[[0, 1, 3]], rn[[0, 1, 3]])
    # SoA values too
    fs = td.Field(td.H1(g), v.copy(layout="soa"))
    np.testing.assert_allclose(fs.interpolate(q).numpy()[[0, 1, 3]], rn[[0, 1, 3]], rtol=1e-6)
    # a (3,) NumPy array and a list are one point
    np.testing.assert_array_equal(f.interpolate(np.array([-0.3, 1.7, 2.4])), u)
    assert np.isnan(f.interpolate([9.0, 9.0, 9.0])).all()
    # an empty array of points
    assert f.interpolate(np.zeros((0, 3))).shape == (0,)


def test_l2_scalar_and_matrix_interpolation():
    g = td.uniform_grid((3, 3, 2))
    c = td.Field(td.L2(g), tack.array(np.array([10.0, 20.0, 30.0, 40.0])))
    assert c.interpolate((0.5, 0.5, 0.5)) == 10.0 and c.interpolate((1.5, 0.5, 0.5)) == 20.0
    assert c.interpolate((0.2, 1.9, 0.9)) == 30.0 and np.isnan(c.interpolate((0.2, 1.9, 1.1)))
    m = tack.zeros((4,), tack.mat3(tack.f64))
    m[2:3].fill(np.arange(9.0).reshape(3, 3))
    mf = td.Field(td.L2(g), m)
    np.testing.assert_array_equal(mf.interpolate((0.2, 1.9, 0.9)), np.arange(9.0).reshape(3, 3))
    r = mf.interpolate(np.array([[0.2, 1.9, 0.9], [0.5, 0.5, 0.5]]))
    assert r.dtype is tack.mat3(tack.f64) and r.numpy().shape == (2, 3, 3)


def test_rectilinear_and_unstructured_interpolation():
    g = td.rectilinear_grid([0.0, 1.0, 3.0], [0.0, 2.0], [0.0, 0.5, 1.0])
    pts = tack.empty((g.n_points,), tack.vec3(tack.f64))
    tack.copyto(pts, g.points)
    p = pts.numpy()
    f = td.Field(td.H1(g), tack.array(2 * p[:, 0] - p[:, 1] + 4 * p[:, 2]))
    assert f.interpolate((2.2, 0.7, 0.6)) == pytest.approx(4.4 - 0.7 + 2.4)
    assert np.isnan(f.interpolate((3.1, 0.7, 0.6)))
    u = two_tets()
    t = td.Field(td.H1(u), tack.array(np.array([0.0, 1.0, 2.0, 3.0, 6.0], dtype=np.float32)))  # x + 2y + 3z
    assert t.interpolate((0.1, 0.2, 0.3)) == pytest.approx(1.4, rel=1e-6)
    assert t.interpolate((0.6, 0.6, 0.6)) == pytest.approx(3.6, rel=1e-6)
    assert np.isnan(t.interpolate((-0.1, 0.2, 0.3)))
    r = t.interpolate(np.array([[0.1, 0.2, 0.3], [2, 2, 2], [0.6, 0.6, 0.6]]))
    np.testing.assert_allclose(r.numpy(), [1.4, np.nan, 3.6], rtol=1e-6)
    cells = td.Field(td.L2(u), tack.array(np.array([7.0, 8.0])))
    assert cells.interpolate((0.1, 0.1, 0.1)) == 7.0 and cells.interpolate((0.6, 0.6, 0.6)) == 8.0


def test_locator_is_rebuilt_only_when_the_points_are_written():
    u = two_tets()
    f = td.Field(td.H1(u), tack.array(np.array([0.0, 1.0, 2.0, 3.0, 6.0])))
    assert u.locator_builds == 0
    f.interpolate((0.1, 0.1, 0.1))
    assert u.locator_builds == 1
    u.points.numpy()  # reads do not count
    f.interpolate(np.array([[0.2, 0.2, 0.2]]))
    assert u.locator_builds == 1
    u.points[4:5].fill([2.0, 2.0, 2.0])  # a write through a row view of the points
    assert not np.isnan(f.interpolate((1.2, 1.2, 1.2)))
    assert u.locator_builds == 2
    f.interpolate((1.2, 1.2, 1.2))
    assert u.locator_builds == 2
    # a write to the connectivity is validated before the next build
    tack.copyto(u.connectivity[7:8], tack.array(np.array([9], dtype=np.int64)))
    with pytest.raises(ValueError, match=r"connectivity\[7\] = 9"):
        f.interpolate((0.1, 0.1, 0.1))


def test_interpolation_refusals():
    g = td.uniform_grid((2, 2, 2))
    f = td.Field(td.H1(g), tack.zeros(8))
    with pytest.raises(ValueError, match="3 coordinates"):
        f.interpolate((0.5, 0.5))
    with pytest.raises(TypeError, match="points must be vec3"):
        f.interpolate(np.zeros((4, 2)))
    with pytest.raises(TypeError, match="points must be vec3"):
        f.interpolate(tack.zeros((4,), tack.vec2()))
    i = td.Field(td.H1(g), tack.zeros(8, tack.i32))
    with pytest.raises(TypeError, match="floating-point element type"):
        i.interpolate((0.5, 0.5, 0.5))
    v4 = td.Field(td.H1(g), tack.zeros((8,), tack.vec4()))
    with pytest.raises(TypeError, match="f32, f64, vec3 and mat3"):
        v4.interpolate((0.5, 0.5, 0.5))


# ---- files -------------------------------------------------------------------------------------

def test_write_read_round_trips_every_mesh_and_encoding(tmp_path):
    g = td.uniform_grid((4, 3, 2), (0.5, -1.0, 2.0), (0.25, 0.5, 1.5))
    r = td.rectilinear_grid([0.0, 0.5, 2.0], [1.0, 2.0], [-1.0, 0.0, 4.0])
    u = two_tets()
    for mesh in (g, r, u):
        n, m = mesh.n_points, mesh.n_cells
        mesh.fields["s"] = td.Field(td.H1(mesh), tack.array(np.arange(n, dtype=np.float32) / 2))
        mesh.fields["v"] = td.Field(td.H1(mesh), tack.array(np.arange(3 * n, dtype=np.float64).reshape(n, 3),
                                                            dtype=tack.vec3(tack.f64), layout="soa"))
        mesh.fields["t"] = td.Field(td.H1(mesh), tack.array(np.arange(9 * n, dtype=np.float32).reshape(n, 3, 3) / 8,
                                                            dtype=tack.mat3()))
        mesh.fields["c"] = td.Field(td.L2(mesh), tack.array(100 + np.arange(m, dtype=np.int32)))
    for mesh, ext, kind in ((g, "vti", td.UniformGrid), (r, "vtr", td.RectilinearGrid), (u, "vtu", td.UnstructuredGrid)):
        for enc in ("ascii", "binary", "appended"):
            for header in ("uint32", "uint64"):
                path = str(tmp_path / f"m_{enc}_{header}.{ext}")
                td.write_vtk(mesh, path, enc, header)
                back = td.read_vtk(path)
                assert isinstance(back, kind) and (back.n_points, back.n_cells) == (mesh.n_points, mesh.n_cells)
                assert back.fields.keys() == ["s", "v", "t", "c"]
                for name in ("s", "v", "t", "c"):
                    a, b = mesh.fields[name], back.fields[name]
                    assert b.dtype is a.dtype and b.space.kind == a.space.kind and b.space.mesh is back
                    np.testing.assert_array_equal(b.values.numpy(), a.values.numpy(), err_msg=f"{path} {name}")
                assert back.fields["s"] is back.fields["s"]  # one Python object per field
    back = td.read_vtk(str(tmp_path / "m_appended_uint64.vti"))
    assert back.point_dims == (4, 3, 2) and back.origin == (0.5, -1.0, 2.0) and back.spacing == (0.25, 0.5, 1.5)
    back = td.read_vtk(str(tmp_path / "m_binary_uint32.vtr"))
    np.testing.assert_array_equal(back.z.numpy(), [-1.0, 0.0, 4.0])
    back = td.read_vtk(str(tmp_path / "m_ascii_uint64.vtu"))
    np.testing.assert_array_equal(back.points.numpy(), u.points.numpy())
    np.testing.assert_array_equal(back.connectivity.numpy(), u.connectivity.numpy())
    np.testing.assert_array_equal(back.offsets.numpy(), [0, 4, 8])
    np.testing.assert_array_equal(back.cell_types.numpy(), [10, 10])
    # a field read from a file interpolates and shares its memory with NumPy
    s = back.fields["s"]
    assert s.interpolate((0.1, 0.2, 0.3)) == pytest.approx(0.5 * (0.1 + 2 * 0.2 + 3 * 0.3), rel=1e-6)
    assert np.shares_memory(np.from_dlpack(s), np.from_dlpack(s.values))
    td.write_pvd(str(tmp_path / "series.pvd"), [(0.0, "m_ascii_uint64.vtu"), (0.5, "m_binary_uint64.vtu")])
    text = (tmp_path / "series.pvd").read_text()
    assert 'type="Collection"' in text and 'timestep="0.5"' in text and 'file="m_binary_uint64.vtu"' in text


def test_file_refusals(tmp_path):
    g = td.uniform_grid((2, 2, 2))
    g.fields["v"] = td.Field(td.H1(g), tack.zeros((8,), tack.vec3(), layout="soa"))
    with pytest.raises(ValueError, match="encoding"):
        td.write_vtk(g, str(tmp_path / "x.vti"), "zip")
    with pytest.raises(ValueError, match="header"):
        td.write_vtk(g, str(tmp_path / "x.vti"), "binary", "uint16")
    with pytest.raises(ValueError, match=r"uniform_grid is written as a \.vti"):
        td.write_vtk(g, str(tmp_path / "x.vtu"))
    with pytest.raises(TypeError, match="expected a mesh"):
        td.write_vtk(tack.zeros(3), str(tmp_path / "x.vti"))
    path = tmp_path / "g.vti"
    td.write_vtk(g, str(path))
    text = path.read_bytes()
    assert b"<ImageData" in text and b'Name="v"' in text and b'NumberOfComponents="3"' in text
    # an unwritable path: a RuntimeError (tack::error) with the OS message, and nothing left
    with pytest.raises(RuntimeError, match="No such file or directory"):
        td.write_vtk(g, str(tmp_path / "missing" / "g.vti"))
    assert not (tmp_path / "missing").exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["g.vti"]
    # bad files: ValueError naming the file and the problem
    with pytest.raises(ValueError, match="cannot open.*nothing.vti"):
        td.read_vtk(str(tmp_path / "nothing.vti"))
    (tmp_path / "trunc.vti").write_bytes(text[:-40])  # inside the appended data
    with pytest.raises(ValueError, match="trunc.vti.*truncated"):
        td.read_vtk(str(tmp_path / "trunc.vti"))
    (tmp_path / "bad.vti").write_bytes(b"<VTKFile type='ImageData'><ImageData></VTKFile>")
    with pytest.raises(ValueError, match="bad.vti.*malformed"):
        td.read_vtk(str(tmp_path / "bad.vti"))
    (tmp_path / "poly.vtp").write_bytes(b"<VTKFile type='PolyData'></VTKFile>")
    with pytest.raises(ValueError, match="PolyData"):
        td.read_vtk(str(tmp_path / "poly.vtp"))


def test_cells_written_through_numpy_are_never_read_past():
    # NumPy writes do not move the write version, so they are not validated; interpolation skips
    # a cell whose point indices no longer fit instead of reading past the points.
    pts = np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]], float)
    conn = np.array([0, 1, 2, 3])
    g = td.unstructured_grid(pts, conn, np.array([0, 4]), np.array([10], np.uint8))
    f = td.Field(td.H1(g), tack.array([0.0, 1.0, 2.0, 3.0]))
    assert f.interpolate([0.1, 0.1, 0.1]) == pytest.approx(0.6)
    np.from_dlpack(g.connectivity)[1] = 10**12
    assert np.isnan(f.interpolate([0.1, 0.1, 0.1]))


def test_write_vtk_while_another_thread_changes_the_fields(tmp_path):
    # write_vtk releases the GIL: it writes a snapshot of the field map taken before.
    g = td.uniform_grid((24, 24, 24))
    sp = td.H1(g)
    for i in range(3):
        g.fields[f"f{i}"] = td.Field(sp, tack.zeros(sp.size))
    stop = threading.Event()
    errors = []

    def writer():
        try:
            while not stop.is_set():
                td.write_vtk(g, str(tmp_path / "race.vti"), "binary")
        except Exception as e:  # pragma: no cover - reported below
            errors.append(e)

    t = threading.Thread(target=writer)
    t.start()
    try:
        for k in range(300):
            g.fields[f"x{k % 3}"] = td.Field(sp, tack.zeros(sp.size))
            del g.fields[f"x{k % 3}"]
    finally:
        stop.set()
        t.join()
    assert not errors


def test_a_field_refuses_soa_matrix_values_it_could_not_share():
    g = td.uniform_grid((2, 2, 2))
    v = tack.zeros((8,), tack.mat3(tack.f64), layout="soa")
    with pytest.raises(TypeError, match="structure-of-arrays.*layout=\"aos\""):
        td.Field(td.H1(g), v)
    f = td.Field(td.H1(g), v.copy(layout="aos"))
    assert f.values.layout == "aos"
