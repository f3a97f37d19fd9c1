# SPDX-License-Identifier: BSD-3-Clause
"""AMR level buffers (tack::amr): a hierarchy of levels of boxes, with one buffer per level and
field holding every box's values (ghost cells included) back to back; each box's values are a
view of that buffer::

    import tack.amr as ta
    h = ta.synthetic_hierarchy(scale=0.01, box_size=8)
    h.add_field("rho", tack.f64)
    box = h.box_values("rho", 1, 0)          # shape (nz, ny, nx), a view of level 1's buffer
    tack.copyto(box, values)                  # writes land in the level buffer
    ta.fill_ghost_cells(h, "rho")             # every level, coarsest first
    ta.average_down(h, "rho")                 # finest level first
    ta.write_vtk(h, "flow.vthb")              # VTK overlapping AMR, one .vti per box
"""

from . import _core

_impl = _core._amr
Hierarchy = _impl.Hierarchy
synthetic_hierarchy = _impl.synthetic_hierarchy
fill_ghost_cells = _impl.fill_ghost_cells
average_down = _impl.average_down
write_vtk = _impl.write_vtk

__all__ = ["Hierarchy", "synthetic_hierarchy", "fill_ghost_cells", "average_down", "write_vtk"]
