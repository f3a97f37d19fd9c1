# SPDX-License-Identifier: BSD-3-Clause
"""tack.dataset's files against VTK's own readers and writers (the `vtk` wheel), from Python:
td.write_vtk -> VTK reads every value, shape, component count and cell type; VTK writes ->
td.read_vtk gives the same meshes and fields. VTK's readers do not raise on bad files, so every
read checks GetErrorCode() and the output's shapes explicitly."""


import numpy as np
import pytest

import tack
import tack.dataset as td

try:
    import vtkmodules.vtkIOXML as vtkxml
    import vtkmodules.vtkCommonCore as vtkcore
    import vtkmodules.vtkCommonDataModel as vtkdm
    from vtkmodules.util import numpy_support
except ImportError as e:  # pragma: no cover - depends on the environment
    print(f"test_dataset_vtk: skipped, vtk is not installed ({e})")
    pytest.skip(f"vtk is not installed ({e}); pip install vtk", allow_module_level=True)

from vtk_checks import vtk_arrays, vtk_read  # noqa: E402 (after the vtk check)

ENCODINGS = [(e, h) for e in ("ascii", "binary", "appended") for h in ("uint32", "uint64")]


def add_fields(mesh):
    """Scalars, SoA vectors, 3x3 tensors (point data) and int32 cell ids (cell data)."""
    n, m = mesh.n_points, mesh.n_cells
    i = np.arange(n)
    want = {
        "scalar": ("point", 1, (0.5 * i).astype(np.float32)),
        "vector": ("point", 3, np.stack([i, 2 * i + 0.25, -i], axis=1).astype(np.float64)),
        "tensor": ("point", 9, ((9 * i[:, None] + np.arange(9)[None, :]) / 8.0).astype(np.float32)),
        "cell_id": ("cell", 1, (100 + np.arange(m)).astype(np.int32)),
    }
    mesh.fields["scalar"] = td.Field(td.H1(mesh), tack.array(want["scalar"][2]))
    mesh.fields["vector"] = td.Field(td.H1(mesh), tack.array(want["vector"][2], dtype=tack.vec3(tack.f64),
                                                             layout="soa"))
    mesh.fields["tensor"] = td.Field(td.H1(mesh), tack.array(want["tensor"][2].reshape(n, 3, 3), dtype=tack.mat3()))
    mesh.fields["cell_id"] = td.Field(td.L2(mesh), tack.array(want["cell_id"][2]))
    return want


def check_vtk_fields(data, want):
    got = vtk_arrays(data)
    assert set(got) == set(want)
    for name, (assoc, comps, values) in want.items():
        g_assoc, g_comps, g_values = got[name]
        assert (g_assoc, g_comps) == (assoc, comps), name
        assert g_values.dtype == values.dtype, name
        np.testing.assert_array_equal(g_values.reshape(values.shape), values, err_msg=name)


def kuhn_cube_and_others():
    """Points and cells: 6 tetrahedra of a cube, a hexahedron, a wedge, a pyramid, a quad, a
    triangle, a line and a vertex (every linear type tack reads)."""
    pts = []
    conn, types, offsets = [], [], [0]

    def cell(t, xs):
        for x in xs:
            conn.append(len(pts))
            pts.append([x[0] + 2.0 * len(types), x[1], x[2]])
        types.append(t)
        offsets.append(len(conn))

    cube = [[0, 0, 0], [1, 0, 0], [1, 1, 0], [0, 1, 0], [0, 0, 1], [1, 0, 1], [1, 1, 1], [0, 1, 1]]
    cell(10, [[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]])
    cell(12, cube)
    cell(11, [[0, 0, 0], [1, 0, 0], [0, 1, 0], [1, 1, 0], [0, 0, 1], [1, 0, 1], [0, 1, 1], [1, 1, 1]])
    cell(13, [[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1], [1, 0, 1], [0, 1, 1]])
    cell(14, [[0, 0, 0], [1, 0, 0], [1, 1, 0], [0, 1, 0], [0.5, 0.5, 1]])
    cell(9, [[0, 0, 0], [1, 0, 0], [1, 1, 0], [0, 1, 0]])
    cell(8, [[0, 0, 0], [1, 0, 0], [0, 1, 0], [1, 1, 0]])
    cell(5, [[0, 0, 0], [1, 0, 0], [0, 1, 0]])
    cell(3, [[0, 0, 0], [1, 1, 1]])
    cell(1, [[0, 0, 0]])
    return np.array(pts, dtype=np.float32), np.array(conn), np.array(offsets), np.array(types, dtype=np.uint8)


@pytest.mark.parametrize("encoding,header", ENCODINGS)
def test_vtk_reads_what_tack_writes(tmp_path, encoding, header):
    img = td.uniform_grid((4, 3, 2), (0.5, -1.0, 2.0), (0.25, 0.5, 1.5))
    want_img = add_fields(img)
    path = tmp_path / f"img_{encoding}_{header}.vti"
    td.write_vtk(img, str(path), encoding, header)
    d = vtk_read(path)
    assert d.GetDimensions() == (4, 3, 2) and d.GetNumberOfCells() == 6
    np.testing.assert_allclose(d.GetOrigin(), (0.5, -1.0, 2.0))
    np.testing.assert_allclose(d.GetSpacing(), (0.25, 0.5, 1.5))
    check_vtk_fields(d, want_img)

    rect = td.rectilinear_grid([0.0, 0.5, 2.0], [1.0, 2.0], [-1.0, 0.0, 4.0])
    want_rect = add_fields(rect)
    path = tmp_path / f"rect_{encoding}_{header}.vtr"
    td.write_vtk(rect, str(path), encoding, header)
    d = vtk_read(path)
    assert d.GetDimensions() == (3, 2, 3)
    for coords, axis in ((d.GetXCoordinates(), rect.x), (d.GetYCoordinates(), rect.y), (d.GetZCoordinates(), rect.z)):
        np.testing.assert_array_equal(numpy_support.vtk_to_numpy(coords), axis.numpy())
    check_vtk_fields(d, want_rect)

    pts, conn, off, types = kuhn_cube_and_others()
    unst = td.unstructured_grid(tack.array(pts, dtype=tack.vec3(), layout="soa"), conn, off, types)
    want_unst = add_fields(unst)
    path = tmp_path / f"unst_{encoding}_{header}.vtu"
    td.write_vtk(unst, str(path), encoding, header)
    d = vtk_read(path)
    assert d.GetNumberOfCells() == len(types)
    assert [d.GetCellType(c) for c in range(d.GetNumberOfCells())] == list(types)
    np.testing.assert_array_equal(numpy_support.vtk_to_numpy(d.GetPoints().GetData()), pts)
    for c in range(d.GetNumberOfCells()):
        ids = d.GetCell(c).GetPointIds()
        assert [ids.GetId(k) for k in range(ids.GetNumberOfIds())] == list(conn[off[c]:off[c + 1]])
    check_vtk_fields(d, want_unst)


def vtk_arrays_on(data):
    n, m = data.GetNumberOfPoints(), data.GetNumberOfCells()
    s = numpy_support.numpy_to_vtk(np.linspace(0, 1, n).astype(np.float64), deep=1)
    s.SetName("s")
    v = numpy_support.numpy_to_vtk(np.arange(3 * n, dtype=np.float32).reshape(n, 3) / 4, deep=1)
    v.SetName("v")
    t = numpy_support.numpy_to_vtk(np.arange(9 * n, dtype=np.float64).reshape(n, 9) / 3, deep=1)
    t.SetName("t")
    c = numpy_support.numpy_to_vtk(np.arange(m, dtype=np.int32) * 7, deep=1)
    c.SetName("c")
    for a in (s, v, t):
        data.GetPointData().AddArray(a)
    data.GetCellData().AddArray(c)
    return {"s": ("H1", tack.f64, np.linspace(0, 1, n)),
            "v": ("H1", tack.vec3(tack.f32), np.arange(3 * n).reshape(n, 3) / 4),
            "t": ("H1", tack.mat3(tack.f64), np.arange(9 * n).reshape(n, 3, 3) / 3),
            "c": ("L2", tack.i32, np.arange(m) * 7)}


MODES = [("ascii", 32, False), ("binary", 32, False), ("binary", 64, False), ("appended", 32, False),
         ("appended", 64, False), ("appended", 64, True)]


def vtk_write(writer, data, path, mode, header, encode):
    writer.SetInputData(data)
    writer.SetCompressorTypeToNone()
    {"ascii": writer.SetDataModeToAscii, "binary": writer.SetDataModeToBinary,
     "appended": writer.SetDataModeToAppended}[mode]()
    writer.SetEncodeAppendedData(1 if encode else 0)
    (writer.SetHeaderTypeToUInt32 if header == 32 else writer.SetHeaderTypeToUInt64)()
    writer.SetFileName(str(path))
    assert writer.Write() == 1


def check_tack_fields(mesh, want):
    assert mesh.fields.keys() == list(want)
    for name, (kind, dtype, values) in want.items():
        f = mesh.fields[name]
        assert f.space.kind == kind and f.dtype is dtype, name
        np.testing.assert_allclose(f.values.numpy(), values, rtol=1e-6, err_msg=name)


@pytest.mark.parametrize("mode,header,encode", MODES)
def test_tack_reads_what_vtk_writes(tmp_path, mode, header, encode):
    img = vtkdm.vtkImageData()
    img.SetDimensions(3, 4, 2)
    img.SetOrigin(1.0, 2.0, -3.0)
    img.SetSpacing(0.5, 0.25, 2.0)
    want = vtk_arrays_on(img)
    vtk_write(vtkxml.vtkXMLImageDataWriter(), img, tmp_path / "vtk.vti", mode, header, encode)
    g = td.read_vtk(str(tmp_path / "vtk.vti"))
    assert isinstance(g, td.UniformGrid)
    assert (g.point_dims, g.origin, g.spacing) == ((3, 4, 2), (1.0, 2.0, -3.0), (0.5, 0.25, 2.0))
    check_tack_fields(g, want)

    r = vtkdm.vtkRectilinearGrid()
    r.SetDimensions(2, 3, 2)
    axes = [np.array([0.0, 1.0]), np.array([-1.0, 0.0, 5.0]), np.array([2.0, 3.0])]
    r.SetXCoordinates(numpy_support.numpy_to_vtk(axes[0], deep=1))
    r.SetYCoordinates(numpy_support.numpy_to_vtk(axes[1], deep=1))
    r.SetZCoordinates(numpy_support.numpy_to_vtk(axes[2], deep=1))
    want = vtk_arrays_on(r)
    vtk_write(vtkxml.vtkXMLRectilinearGridWriter(), r, tmp_path / "vtk.vtr", mode, header, encode)
    g = td.read_vtk(str(tmp_path / "vtk.vtr"))
    assert isinstance(g, td.RectilinearGrid)
    for got, axis in zip((g.x, g.y, g.z), axes):
        np.testing.assert_array_equal(got.numpy(), axis)
    check_tack_fields(g, want)

    pts, conn, off, types = kuhn_cube_and_others()
    u = vtkdm.vtkUnstructuredGrid()
    vp = vtkcore.vtkPoints()
    vp.SetData(numpy_support.numpy_to_vtk(pts.astype(np.float64), deep=1))
    u.SetPoints(vp)
    for c, t in enumerate(types):
        ids = vtkcore.vtkIdList()
        for k in conn[off[c]:off[c + 1]]:
            ids.InsertNextId(int(k))
        u.InsertNextCell(int(t), ids)
    want = vtk_arrays_on(u)
    vtk_write(vtkxml.vtkXMLUnstructuredGridWriter(), u, tmp_path / "vtk.vtu", mode, header, encode)
    g = td.read_vtk(str(tmp_path / "vtk.vtu"))
    assert isinstance(g, td.UnstructuredGrid) and (g.n_points, g.n_cells) == (len(pts), len(types))
    assert g.points.dtype is tack.vec3(tack.f64)
    np.testing.assert_array_equal(g.points.numpy(), pts.astype(np.float64))
    np.testing.assert_array_equal(g.connectivity.numpy(), conn)
    np.testing.assert_array_equal(g.offsets.numpy(), off)
    np.testing.assert_array_equal(g.cell_types.numpy(), types)
    check_tack_fields(g, want)
    # what tack read interpolates: at the hexahedron's first corner (point 4), its value
    np.testing.assert_allclose(g.fields["v"].interpolate((2.0, 0.0, 0.0)), [3.0, 3.25, 3.5])


def test_vtk_reads_a_time_series(tmp_path):
    import xml.etree.ElementTree as ET

    g = td.uniform_grid((3, 3, 3))
    for step in range(3):
        g.fields["u"] = td.Field(td.H1(g), tack.full((27,), float(step)))
        td.write_vtk(g, str(tmp_path / f"u_{step}.vti"))
    td.write_pvd(str(tmp_path / "u.pvd"), [(0.5 * s, f"u_{s}.vti") for s in range(3)])
    root = ET.parse(tmp_path / "u.pvd").getroot()
    assert root.tag == "VTKFile" and root.get("type") == "Collection"
    steps = root.find("Collection").findall("DataSet")
    assert [float(d.get("timestep")) for d in steps] == [0.0, 0.5, 1.0]
    for s, d in enumerate(steps):  # each step's file, relative to the .pvd, read by VTK
        data = vtk_read(tmp_path / d.get("file"))
        np.testing.assert_array_equal(numpy_support.vtk_to_numpy(data.GetPointData().GetArray("u")), np.full(27, s))
