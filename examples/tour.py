# SPDX-License-Identifier: BSD-3-Clause
"""A quick tour of tack from Python: `make demo` runs it."""

import numpy as np

import tack
import tack.arrays as ta

tack.set_default_device("cpu")

# Arrays of scalars, vectors and matrices; the element type says how many components.
temperature = tack.zeros((6, 3))
velocity = tack.empty((100,), tack.vec3(tack.f32))
velocity.fill([1.0, 0.0, 0.0])
print("velocity:", velocity.shape, velocity.dtype, "->", velocity.numpy().shape)

# Row views: rows 2 and 3, the same memory.
middle = temperature[2:4]
middle.fill(1.0)
print("rows after filling rows 2..4:\n", temperature.numpy())

# Structure-of-arrays storage over existing arrays, no copy.
x, y, z = (tack.array(np.linspace(0, 1, 5, dtype=np.float32) + k) for k in range(3))
pos = tack.soa(x, y, z)
print("soa:", pos.layout, pos.dtype, "sum of components:", tack.sum(pos))

# Implicit arrays and lazy arithmetic: one pass, nothing stored in between.
a = tack.array(np.arange(8, dtype=np.float32))
b = tack.ones(8)
out = tack.empty(8)
tack.copyto(out, a + 2.0 * b)
print("a + 2b:", out.numpy())
print("sum of squares of 0..99:", tack.sum(ta.CountingArray(100) * ta.CountingArray(100)))

# Kernels written in Python: compiled to C++ on first launch, cached on disk after.
@tack.func
def lerp(x, y, t):
    return x + t * (y - x)


@tack.kernel
def blend(i, out, x, y, t):
    out[i] = lerp(x[i], y[i], t)


tack.launch(8, blend, out, a, b, 0.25)
print("blend(a, 1, 0.25):", out.numpy())


# A device class: indexed in kernels exactly as an array (the indexing protocol).
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


@tack.kernel
def copy_values(i, dst, src):
    if i < len(src):
        dst[i] = src[i]


tack.launch(8, copy_values, out, Counting(8, 0.5, 0.25))
print("Counting(8, 0.5, 0.25):", out.numpy())


# One kernel over both layouts: a SoA array and an interleaved one, unchanged.
@tack.kernel
def normalize_all(i, v):
    v[i] = tack.normalize(v[i])


for layout in ("soa", "aos"):
    v = tack.full((4,), [3.0, 0.0, 4.0], tack.vec3(), layout=layout)
    tack.launch(4, normalize_all, v)
    print(f"normalized ({layout}):", v.numpy()[0])

# DLPack both ways: NumPy sees tack's memory and tack sees NumPy's.
shared = np.from_dlpack(temperature[1:3])
shared[0, 0] = 42.0
print("written through NumPy:", temperature.numpy()[1, 0])
imported = tack.from_dlpack(np.arange(4.0))
print("imported from NumPy:", imported, "read-only:", imported.read_only)

# Dataset fields: values on a mesh, written as a VTK file that ParaView opens, and a picture.
import os  # noqa: E402
import sys  # noqa: E402
import tempfile  # noqa: E402

import tack.dataset as td  # noqa: E402

out_dir = sys.argv[1] if len(sys.argv) > 1 else tempfile.mkdtemp(prefix="tack_tour_")
os.makedirs(out_dir, exist_ok=True)

# An analytic flow: a vortex about the z axis that decays away from it, and its pressure.
flow = td.uniform_grid((64, 64, 8), origin=(-1.5, -1.5, 0.0), spacing=(3 / 63, 3 / 63, 1 / 7))
space = td.H1(flow)
xyz = tack.empty((space.size,), tack.vec3(tack.f64))
tack.copyto(xyz, flow.points)                 # the grid's computed coordinates, x fastest
p = np.from_dlpack(xyz)                       # (n, 3), the same memory
swirl = np.exp(-2 * (p[:, 0] ** 2 + p[:, 1] ** 2))
velocity = tack.array(np.stack([-p[:, 1] * swirl, p[:, 0] * swirl, 0.1 * p[:, 2]], axis=1).astype(np.float32),
                      dtype=tack.vec3())
flow.fields["velocity"] = td.Field(space, velocity)
flow.fields["pressure"] = td.Field(space, tack.array((-swirl).astype(np.float32)))
vti = os.path.join(out_dir, "tour.vti")
td.write_vtk(flow, vti)
again = td.read_vtk(vti)
print("wrote", vti, os.path.getsize(vti), "bytes:", again, "with fields", list(again.fields))

# One slice, z = 0.5, sampled by interpolating the field (a kernel over 200 x 200 points).
n = 200
s = np.linspace(-1.5, 1.5, n)
X, Y = np.meshgrid(s, s)
points = np.stack([X.ravel(), Y.ravel(), np.full(X.size, 0.5)], axis=1)
u = flow.fields["velocity"].interpolate(points).numpy().reshape(n, n, 3)
speed = np.hypot(u[..., 0], u[..., 1])
print("speed on the slice z = 0.5: max", float(speed.max()), "at radius",
      float(np.hypot(X, Y)[np.unravel_index(speed.argmax(), speed.shape)]), "(exact: 0.5)")

import matplotlib  # noqa: E402

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

fig, ax = plt.subplots(figsize=(6, 5), dpi=100)
im = ax.imshow(speed, origin="lower", extent=(-1.5, 1.5, -1.5, 1.5), cmap="viridis")
k = slice(None, None, 12)
ax.quiver(X[k, k], Y[k, k], u[k, k, 0], u[k, k, 1], color="white", scale=6)
ax.set(title="tack tour: vortex speed |u| on the slice z = 0.5", xlabel="x", ylabel="y")
fig.colorbar(im, ax=ax, label="|u| (interpolated from the 64 x 64 x 8 H1 field)")
png = os.path.join(out_dir, "tour_slice.png")
fig.savefig(png)
print("wrote", png)
