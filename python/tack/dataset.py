# SPDX-License-Identifier: BSD-3-Clause
"""Dataset fields (seed 001): a field couples coefficient values (any tack array) with a function
space on a mesh; the array's element type says how many components a value has, the space says
where values live and how they interpolate::

    import tack.dataset as td
    data = td.uniform_grid((2, 2, 2))
    space = td.H1(data)
    values = tack.empty((space.size,), tack.vec3())
    values.fill([1.0, 0.0, 0.0])
    data.fields["velocity"] = td.Field(space, values)
    td.write_vtk(data, "flow.vti")
"""

from . import _core

_impl = _core._dataset
UniformGrid = _impl.UniformGrid
FunctionSpace = _impl.FunctionSpace
Field = _impl.Field
FieldMap = _impl.FieldMap
uniform_grid = _impl.uniform_grid
H1 = _impl.H1
L2 = _impl.L2
write_vtk = _impl.write_vtk

__all__ = ["UniformGrid", "FunctionSpace", "Field", "FieldMap", "uniform_grid", "H1", "L2", "write_vtk"]
