# SPDX-License-Identifier: BSD-3-Clause
"""tack's VTK XML files against VTK's own readers and writers (the `vtk` wheel).

The C++ helper tests/dataset/dataset_write_samples (path in TACK_DATASET_SAMPLES_EXE, e.g.
build/host/tests/dataset/dataset_write_samples) writes sample .vti/.vtr/.vtu files in every encoding,
and with `read <file>` prints what tack's reader finds as JSON. VTK's readers do not raise on bad
files, so every read checks GetErrorCode() and the output's shapes explicitly.
"""
import json
import os
import subprocess

import numpy as np
import pytest

try:
    import vtkmodules.vtkIOXML as vtkxml
    import vtkmodules.vtkCommonCore as vtkcore
    import vtkmodules.vtkCommonDataModel as vtkdm
    from vtkmodules.util import numpy_support
except ImportError as e:  # pragma: no cover - depends on the environment
    print(f"test_vtk_files: skipped, vtk is not installed ({e})")
    pytest.skip(f"vtk is not installed ({e}); pip install vtk", allow_module_level=True)

from vtk_checks import vtk_arrays, vtk_read  # noqa: E402 (after the vtk check)

EXE = os.environ.get("TACK_DATASET_SAMPLES_EXE")
if not EXE or not os.path.exists(EXE):
    print("test_vtk_files: skipped, TACK_DATASET_SAMPLES_EXE is not set to the built helper")
    pytest.skip("TACK_DATASET_SAMPLES_EXE is not set (build/host/tests/dataset/dataset_write_samples)",
                allow_module_level=True)

ENCODINGS = ["ascii", "binary32", "binary64", "appended32", "appended64"]


@pytest.fixture(scope="module")
def samples(tmp_path_factory):
    d = tmp_path_factory.mktemp("samples")
    subprocess.run([EXE, str(d)], check=True)
    return d


def tack_read(path):
    out = subprocess.run([EXE, "read", str(path)], check=True, capture_output=True, text=True)
    return json.loads(out.stdout)



def expected_fields(n_points, n_cells):
    i = np.arange(n_points)
    return {
        "scalar": ("point", 1, 0.5 * i),
        "vector": ("point", 3, np.stack([i, 2 * i + 0.25, -i], axis=1)),
        "tensor": ("point", 9, (9 * i[:, None] + np.arange(9)[None, :]) / 8.0),
        "cell_id": ("cell", 1, 100 + np.arange(n_cells)),
    }


def check_fields(data, tack_json):
    got = vtk_arrays(data)
    want = expected_fields(data.GetNumberOfPoints(), data.GetNumberOfCells())
    assert set(got) == set(want)
    for name, (assoc, comps, values) in want.items():
        g_assoc, g_comps, g_values = got[name]
        assert g_assoc == assoc, name
        assert g_comps == comps, name
        np.testing.assert_array_equal(g_values.reshape(values.shape), values, err_msg=name)
        t = tack_json["fields"][name]
        assert t["association"] == assoc and t["components"] == comps
        np.testing.assert_array_equal(np.asarray(t["values"]).reshape(values.shape), values, err_msg=name)


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_vtk_reads_tack_image_data(samples, encoding):
    path = samples / f"image_{encoding}.vti"
    img = vtk_read(path)
    assert img.GetDimensions() == (4, 3, 2)
    np.testing.assert_allclose(img.GetOrigin(), (0.5, -1, 2))
    np.testing.assert_allclose(img.GetSpacing(), (0.25, 0.5, 1.5))
    assert img.GetNumberOfCells() == 3 * 2 * 1
    check_fields(img, tack_read(path))


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_vtk_reads_tack_rectilinear_grid(samples, encoding):
    path = samples / f"rect_{encoding}.vtr"
    g = vtk_read(path)
    assert g.GetDimensions() == (3, 2, 3)
    for coords, want in ((g.GetXCoordinates(), [0, 0.5, 2]), (g.GetYCoordinates(), [1, 2]),
                         (g.GetZCoordinates(), [-1, 0, 4])):
        np.testing.assert_array_equal(numpy_support.vtk_to_numpy(coords), want)
    check_fields(g, tack_read(path))


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_vtk_reads_tack_unstructured_grid(samples, encoding):
    path = samples / f"unst_{encoding}.vtu"
    u = vtk_read(path)
    t = tack_read(path)
    assert u.GetNumberOfCells() == 10
    types = [u.GetCellType(c) for c in range(u.GetNumberOfCells())]
    assert types == [1, 3, 5, 8, 9, 10, 11, 12, 13, 14] == t["types"]
    pts = numpy_support.vtk_to_numpy(u.GetPoints().GetData())
    np.testing.assert_array_equal(pts, np.asarray(t["points"]))
    for c in range(u.GetNumberOfCells()):
        ids = u.GetCell(c).GetPointIds()
        got = [ids.GetId(k) for k in range(ids.GetNumberOfIds())]
        assert got == t["connectivity"][t["offsets"][c]:t["offsets"][c + 1]]
    check_fields(u, t)


def test_vtk_reads_the_pvd_series(samples):
    reader = vtkxml.vtkXMLGenericDataObjectReader  # noqa: F841 (import check)
    text = (samples / "series.pvd").read_text()
    assert 'type="Collection"' in text and 'file="image_appended64.vti"' in text


# ---- VTK writes, tack reads ----------------------------------------------------------------

def vtk_image():
    img = vtkdm.vtkImageData()
    img.SetDimensions(3, 4, 2)
    img.SetOrigin(1.0, 2.0, -3.0)
    img.SetSpacing(0.5, 0.25, 2.0)
    return img


def add_vtk_arrays(data):
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
    return {"s": ("point", 1, np.linspace(0, 1, n)), "v": ("point", 3, np.arange(3 * n).reshape(n, 3) / 4),
            "t": ("point", 9, np.arange(9 * n).reshape(n, 9) / 3), "c": ("cell", 1, np.arange(m) * 7)}


MODES = [("ascii", 32, False), ("binary", 32, False), ("binary", 64, False), ("appended", 32, False),
         ("appended", 64, False), ("appended", 64, True)]


def configure(writer, mode, header, encode):
    writer.SetCompressorTypeToNone()
    {"ascii": writer.SetDataModeToAscii, "binary": writer.SetDataModeToBinary,
     "appended": writer.SetDataModeToAppended}[mode]()
    writer.SetEncodeAppendedData(1 if encode else 0)
    (writer.SetHeaderTypeToUInt32 if header == 32 else writer.SetHeaderTypeToUInt64)()


def check_tack_fields(t, want):
    assert set(t["fields"]) == set(want)
    for name, (assoc, comps, values) in want.items():
        f = t["fields"][name]
        assert f["association"] == assoc and f["components"] == comps, name
        np.testing.assert_allclose(np.asarray(f["values"]).reshape(values.shape), values, rtol=1e-6, err_msg=name)


@pytest.mark.parametrize("mode,header,encode", MODES)
def test_tack_reads_vtk_image_data(tmp_path, mode, header, encode):
    img = vtk_image()
    want = add_vtk_arrays(img)
    w = vtkxml.vtkXMLImageDataWriter()
    w.SetInputData(img)
    configure(w, mode, header, encode)
    path = tmp_path / "vtk.vti"
    w.SetFileName(str(path))
    assert w.Write() == 1
    t = tack_read(path)
    assert t["type"] == "ImageData" and t["dims"] == [3, 4, 2]
    assert t["origin"] == [1.0, 2.0, -3.0] and t["spacing"] == [0.5, 0.25, 2.0]
    check_tack_fields(t, want)


@pytest.mark.parametrize("mode,header,encode", MODES)
def test_tack_reads_vtk_rectilinear_grid(tmp_path, mode, header, encode):
    g = vtkdm.vtkRectilinearGrid()
    g.SetDimensions(2, 3, 2)
    xs = [np.array([0.0, 1.0]), np.array([-1.0, 0.0, 5.0]), np.array([2.0, 3.0])]
    g.SetXCoordinates(numpy_support.numpy_to_vtk(xs[0], deep=1))
    g.SetYCoordinates(numpy_support.numpy_to_vtk(xs[1], deep=1))
    g.SetZCoordinates(numpy_support.numpy_to_vtk(xs[2], deep=1))
    want = add_vtk_arrays(g)
    w = vtkxml.vtkXMLRectilinearGridWriter()
    w.SetInputData(g)
    configure(w, mode, header, encode)
    path = tmp_path / "vtk.vtr"
    w.SetFileName(str(path))
    assert w.Write() == 1
    t = tack_read(path)
    assert t["type"] == "RectilinearGrid"
    for a, b in zip(t["axes"], xs):
        np.testing.assert_array_equal(a, b)
    check_tack_fields(t, want)


@pytest.mark.parametrize("mode,header,encode", MODES)
def test_tack_reads_vtk_unstructured_grid(tmp_path, mode, header, encode):
    pts = vtkcore.vtkPoints()
    coords = np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1], [1, 1, 1], [2, 0, 0], [2, 1, 0],
                       [2, 0, 1], [2, 1, 1]], dtype=np.float64)
    pts.SetData(numpy_support.numpy_to_vtk(coords, deep=1))
    u = vtkdm.vtkUnstructuredGrid()
    u.SetPoints(pts)
    cells = [(10, [0, 1, 2, 3]), (10, [1, 2, 3, 4]), (5, [1, 5, 6]), (9, [1, 5, 7, 3]), (3, [5, 8]), (1, [8])]
    for ctype, ids in cells:
        idl = vtkcore.vtkIdList()
        for k in ids:
            idl.InsertNextId(k)
        u.InsertNextCell(ctype, idl)
    want = add_vtk_arrays(u)
    w = vtkxml.vtkXMLUnstructuredGridWriter()
    w.SetInputData(u)
    configure(w, mode, header, encode)
    path = tmp_path / "vtk.vtu"
    w.SetFileName(str(path))
    assert w.Write() == 1
    t = tack_read(path)
    assert t["type"] == "UnstructuredGrid"
    np.testing.assert_array_equal(np.asarray(t["points"]), coords)
    assert t["types"] == [c for c, _ in cells]
    assert t["connectivity"] == [k for _, ids in cells for k in ids]
    assert t["offsets"] == list(np.cumsum([0] + [len(ids) for _, ids in cells]))
    check_tack_fields(t, want)
