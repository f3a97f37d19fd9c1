# SPDX-License-Identifier: BSD-3-Clause
"""tack.amr from Python: a ghost-filled field on a small synthetic hierarchy, written as a .vthb,
and a PNG of the slice z = 0.45 through every level (finer boxes drawn over coarser ones, box
outlines in white) when matplotlib is installed.

    python examples/amr/amr_slice.py [outdir]
"""

import os
import sys

import numpy as np

import tack
import tack.amr as ta

outdir = sys.argv[1] if len(sys.argv) > 1 else "amr_out"
os.makedirs(outdir, exist_ok=True)

h = ta.synthetic_hierarchy(scale=0.02, box_size=8, ghost=2)
print(h)
h.add_field("density", tack.f64)
g = h.ghost

# Values at the cell centres of each box's valid cells, written through the box's view.
for level in range(h.n_levels):
    dx = h.spacing(level)
    for b, (lo, hi) in enumerate(h.boxes(level)):
        view = h.box_values("density", level, b)  # (nz, ny, nx), ghosts included
        values = view.numpy()
        z, y, x = np.meshgrid(*[(np.arange(lo[d] - g, hi[d] + g + 1) + 0.5) * dx[d] for d in (2, 1, 0)], indexing="ij")
        r2 = (x - 0.5) ** 2 + (y - 0.52) ** 2 + (z - 0.45) ** 2
        values[g:-g, g:-g, g:-g] = (1.0 + 0.5 * (r2 < 0.02) + 0.3 * z + 0.2 * np.sin(8 * x))[g:-g, g:-g, g:-g]
        tack.copyto(view, values)

ta.average_down(h, "density")
ta.fill_ghost_cells(h, "density")
ta.write_vtk(h, os.path.join(outdir, "flow.vthb"))
print("wrote", os.path.join(outdir, "flow.vthb"))

try:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.patches import Rectangle
except ImportError:
    print("matplotlib is not installed: no PNG")
    sys.exit(0)

zc = 0.45
fig, ax = plt.subplots(figsize=(7, 6))
lo_v, hi_v = 1.0, 1.7
for level in range(h.n_levels):
    dx = h.spacing(level)
    k = int(np.floor(zc / dx[2]))
    for b, (lo, hi) in enumerate(h.boxes(level)):
        if not lo[2] <= k <= hi[2]:
            continue
        values = h.box_values("density", level, b).numpy()
        plane = values[k - lo[2] + g]  # ghosts included: the filled ghost cells show at the rim
        extent = [(lo[0] - g) * dx[0], (hi[0] + g + 1) * dx[0], (lo[1] - g) * dx[1], (hi[1] + g + 1) * dx[1]]
        ax.imshow(plane, origin="lower", extent=extent, vmin=lo_v, vmax=hi_v, cmap="viridis", zorder=level)
        ax.add_patch(Rectangle((lo[0] * dx[0], lo[1] * dx[1]), (hi[0] - lo[0] + 1) * dx[0], (hi[1] - lo[1] + 1) * dx[1],
                               fill=False, edgecolor="white", linewidth=0.3, zorder=level + 0.5))
ax.set_xlim(0, 1)
ax.set_ylim(0, 1)
ax.set_title("density at z = 0.45, %d levels, ghost cells filled" % h.n_levels)
png = os.path.join(outdir, "slice.png")
fig.savefig(png, dpi=120)
print("wrote", png)
