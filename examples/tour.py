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

# Structure-of-arrays over existing arrays, no copy.
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

# DLPack both ways: NumPy sees tack's memory and tack sees NumPy's.
shared = np.from_dlpack(temperature[1:3])
shared[0, 0] = 42.0
print("written through NumPy:", temperature.numpy()[1, 0])
imported = tack.from_dlpack(np.arange(4.0))
print("imported from NumPy:", imported, "read-only:", imported.read_only)

# Dataset fields: values on a mesh, written as a VTK file that ParaView opens.
import os  # noqa: E402
import tempfile  # noqa: E402

import tack.dataset as td  # noqa: E402

data = td.uniform_grid((16, 16, 4), spacing=(1 / 15, 1 / 15, 1 / 3))
space = td.H1(data)
speed = tack.array((np.arange(space.size, dtype=np.float32) % 16) / 15.0)   # x, point by point
data.fields["speed"] = td.Field(space, speed)
path = os.path.join(tempfile.mkdtemp(), "tour.vti")
td.write_vtk(data, path)
print("wrote", path, os.path.getsize(path), "bytes:", data, "with fields", list(data.fields))
