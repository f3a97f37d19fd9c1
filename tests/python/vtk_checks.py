# SPDX-License-Identifier: BSD-3-Clause
"""Reading files with VTK's own XML readers, for the tests that compare tack's files with VTK's.
Import it after checking that `vtk` is installed (it imports vtkmodules). VTK's readers do not raise
on bad files, so `vtk_read` checks GetErrorCode() and that points were read."""
import os

import vtkmodules.vtkIOXML as vtkxml
from vtkmodules.util import numpy_support

READERS = {".vti": vtkxml.vtkXMLImageDataReader, ".vtr": vtkxml.vtkXMLRectilinearGridReader,
           ".vtu": vtkxml.vtkXMLUnstructuredGridReader}


def vtk_read(path):
    """The data set in `path`, read by the VTK reader its extension names; asserts it was read."""
    reader = READERS[os.path.splitext(str(path))[1]]()
    reader.SetFileName(str(path))
    reader.Update()
    assert reader.GetErrorCode() == 0, f"VTK could not read {path}"
    out = reader.GetOutput()
    assert out is not None and out.GetNumberOfPoints() > 0, f"VTK read no points from {path}"
    return out


def vtk_arrays(data):
    """{name: (association, components, values)} of a VTK data set's point and cell data."""
    res = {}
    for assoc, d in (("point", data.GetPointData()), ("cell", data.GetCellData())):
        for i in range(d.GetNumberOfArrays()):
            a = d.GetArray(i)
            res[a.GetName()] = (assoc, a.GetNumberOfComponents(), numpy_support.vtk_to_numpy(a))
    return res
