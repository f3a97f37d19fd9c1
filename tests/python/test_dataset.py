# SPDX-License-Identifier: BSD-3-Clause
"""tack.dataset from Python: the seed's snippet verbatim, and the file it writes."""

import numpy as np
import pytest

import tack


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


def test_fields_of_each_kind_and_refusals(tmp_path):
    import tack.dataset as td

    g = td.uniform_grid((3, 2, 2), (1.0, 0.0, 0.0), (0.5, 1.0, 1.0))
    assert g.point_dims == (3, 2, 2) and g.spacing == (0.5, 1.0, 1.0)
    h1, l2 = td.H1(g), td.L2(g)
    assert (h1.size, l2.size, h1.kind, l2.kind) == (12, 2, "H1", "L2")
    g.fields["t"] = td.Field(h1, tack.array(np.arange(12.0)))
    g.fields["stress"] = td.Field(l2, tack.zeros((2,), tack.mat3(tack.f64)))
    g.fields["v"] = td.Field(h1, tack.zeros((12,), tack.vec3(), layout="soa"))
    assert len(g.fields) == 3 and g.fields.keys() == ["t", "stress", "v"]
    del g.fields["stress"]
    assert "stress" not in g.fields
    with pytest.raises(KeyError):
        del g.fields["stress"]
    with pytest.raises(IndexError, match="stress"):
        g.fields["stress"]
    with pytest.raises(ValueError, match="5 elements but the H1 space"):
        td.Field(h1, tack.zeros(5))
    with pytest.raises(TypeError, match="not bound yet"):
        td.Field(h1, tack.zeros(12, tack.i32))
    with pytest.raises(ValueError, match="encoding"):
        td.write_vtk(g, str(tmp_path / "x.vti"), "zip")
    path = tmp_path / "g.vti"
    td.write_vtk(g, str(path))
    text = path.read_bytes()
    assert b"<ImageData" in text and b'Name="v"' in text and b'NumberOfComponents="3"' in text
    with pytest.raises(RuntimeError, match="No such file|cannot"):
        td.write_vtk(g, str(tmp_path / "missing" / "g.vti"))
    assert not (tmp_path / "missing").exists()


def test_written_file_reads_back_with_vtk(tmp_path):
    vtkIOXML = pytest.importorskip("vtkmodules.vtkIOXML", reason="VTK's wheel (vtk) is not installed")
    from vtkmodules.util.numpy_support import vtk_to_numpy
    import tack.dataset as td

    g = td.uniform_grid((4, 3, 2))
    vel = tack.array(np.arange(24 * 3, dtype=np.float32).reshape(24, 3), dtype=tack.vec3())
    g.fields["velocity"] = td.Field(td.H1(g), vel)
    for encoding in ("ascii", "binary", "appended"):
        path = str(tmp_path / f"g_{encoding}.vti")
        td.write_vtk(g, path, encoding)
        r = vtkIOXML.vtkXMLImageDataReader()
        r.SetFileName(path)
        r.Update()
        assert r.GetErrorCode() == 0
        img = r.GetOutput()
        assert img.GetDimensions() == (4, 3, 2)
        arr = vtk_to_numpy(img.GetPointData().GetArray("velocity"))
        np.testing.assert_array_equal(arr, vel.numpy())
