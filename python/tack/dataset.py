# SPDX-License-Identifier: BSD-3-Clause
"""Dataset fields: a field couples coefficient values (any tack array) with a function
space on a mesh; the array's element type says how many components a value has, the space says
where values live and how they interpolate::

    import tack.dataset as td
    data = td.uniform_grid((2, 2, 2))
    space = td.H1(data)
    values = tack.empty((space.size,), tack.vec3())
    values.fill([1.0, 0.0, 0.0])
    data.fields["velocity"] = td.Field(space, values)
    data.fields["velocity"].interpolate((0.5, 0.5, 0.5))   # array([1., 0., 0.], dtype=float32)
    td.write_vtk(data, "flow.vti")
    again = td.read_vtk("flow.vti")

Meshes: ``uniform_grid(point_dims, origin, spacing)`` (points computed, nothing stored),
``rectilinear_grid(x, y, z)`` (three increasing axes) and ``unstructured_grid(points,
connectivity, offsets, cell_types)`` (VTK's linear cell types). Their stored arrays (``x``/``y``/
``z``; ``points``, ``connectivity``, ``offsets``, ``cell_types``) and every field's ``values`` are
``tack.Array`` objects over the mesh's own memory: ``numpy.from_dlpack`` shares it.
"""

from . import _core
from . import arrays as _arrays

_impl = _core._dataset
UniformGrid = _impl.UniformGrid
RectilinearGrid = _impl.RectilinearGrid
UnstructuredGrid = _impl.UnstructuredGrid
FunctionSpace = _impl.FunctionSpace
Field = _impl.Field
FieldMap = _impl.FieldMap
uniform_grid = _impl.uniform_grid
rectilinear_grid = _impl.rectilinear_grid
unstructured_grid = _impl.unstructured_grid
H1 = _impl.H1
L2 = _impl.L2
write_vtk = _impl.write_vtk
read_vtk = _impl.read_vtk
write_pvd = _impl.write_pvd


def _uniform_points(grid):
    """The points: ``tack.arrays.UniformCoordinates`` (vec3 of f64, computed from indices)."""
    return _arrays.UniformCoordinates(grid.point_dims, grid.origin, grid.spacing)


def _rectilinear_points(grid):
    """The points: ``tack.arrays.CartesianProduct(x, y, z)`` over the axes (nothing copied)."""
    return _arrays.CartesianProduct(grid.x, grid.y, grid.z)


UniformGrid.points = property(_uniform_points)
RectilinearGrid.points = property(_rectilinear_points)

__all__ = [
    "UniformGrid", "RectilinearGrid", "UnstructuredGrid", "FunctionSpace", "Field", "FieldMap",
    "uniform_grid", "rectilinear_grid", "unstructured_grid", "H1", "L2", "write_vtk", "read_vtk",
    "write_pvd",
]
