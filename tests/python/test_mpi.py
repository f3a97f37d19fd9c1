# SPDX-License-Identifier: BSD-3-Clause
"""tack.mpi over mpi4py. `make test` runs this file under `mpirun -np 2` and `-np 4`; plain pytest
runs it on one rank. Skipped (with the reason) where mpi4py is not installed."""

import os

import numpy as np
import pytest

os.environ.setdefault("OMPI_ALLOW_RUN_AS_ROOT", "1")  # a singleton run as root (containers)
os.environ.setdefault("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")
MPI = pytest.importorskip("mpi4py.MPI", reason="mpi4py is not installed (make test builds it "
                          "against Open MPI when it can)")

import tack  # noqa: E402
import tack.mpi as tm  # noqa: E402

comm = MPI.COMM_WORLD


def value_at(i, total, seed=1):
    """Values at global indices `i` of a sequence of `total`, of very different magnitudes so that
    the order of additions shows. Drawn for the whole sequence, so every rank sees the same values
    (a draw sized by the rank's own indices would differ from rank to rank)."""
    rng = np.random.default_rng(seed)
    u = rng.uniform(-1, 1, size=total)
    e = rng.integers(-20, 21, size=total)
    return np.ldexp(u, e)[i]


def random_partition(rows, ranks, seed):
    rng = np.random.default_rng(seed)
    cuts = sorted([0, rows] + list(rng.integers(0, rows + 1, size=ranks - 1)))
    return tm.Partition.from_counts([int(cuts[r + 1] - cuts[r]) for r in range(ranks)])


def fill(a, seed=1):
    local = np.from_dlpack(a.local())  # the piece's own memory, through DLPack
    per_row = int(np.prod(a.shape[1:]))
    idx = np.arange(a.first_row * per_row, (a.first_row + a.local_rows) * per_row)
    total = a.shape[0] * per_row
    local[...] = value_at(idx, total, seed).astype(local.dtype).reshape(local.shape) if total else 0


@pytest.mark.parametrize("rows", [0, 1, 5, 17])
@pytest.mark.parametrize("ghosts", [1, 2])
@pytest.mark.parametrize("periodic", [False, True])
@pytest.mark.parametrize("seed", [0, 3])
def test_exchange_matches_serial_reference(rows, ghosts, periodic, seed):
    n = comm.Get_size()
    part = tm.Partition.block(rows, n) if seed == 0 else random_partition(rows, n, seed)
    a = tm.DistributedArray(comm, (rows, 2), tack.f64, ghosts=ghosts, periodic=periodic,
                            partition=part)
    whole = value_at(np.arange(rows * 2), rows * 2).reshape(rows, 2) if rows else np.zeros((0, 2))
    piece = np.from_dlpack(a.with_ghosts())
    piece[...] = -1.0
    np.from_dlpack(a.local())[...] = whole[a.first_row:a.first_row + a.local_rows]
    tm.exchange_ghosts(a)
    for i in range(piece.shape[0]):
        g = a.first_row - ghosts + i
        if rows and periodic:
            g %= rows
        want = whole[g] if 0 <= g < rows else -1.0
        np.testing.assert_array_equal(piece[i], want)


@pytest.mark.parametrize("dtype", [tack.f64, tack.f32])
@pytest.mark.parametrize("rows", [1, 7, 1000, 4099])
def test_sum_is_bit_identical_for_every_partition(dtype, rows):
    n = comm.Get_size()
    one = tm.DistributedArray(MPI.COMM_SELF, (rows, 3), dtype)  # the one-rank run, here
    fill(one)
    ref = tm.sum(one)
    x = np.from_dlpack(one.local()).reshape(-1)
    assert abs(float(ref) - float(np.sum(x.astype(np.float64)))) <= 1e-3 * (1 + abs(float(ref)))
    for seed in (0, 1, 2):
        part = tm.Partition.block(rows, n) if seed == 0 else random_partition(rows, n, seed)
        a = tm.DistributedArray(comm, (rows, 3), dtype, ghosts=1, partition=part)
        b = tm.DistributedArray(comm, (rows, 3), dtype, partition=part)
        fill(a)
        fill(b, seed=2)
        s = tm.sum(a)
        assert s.tobytes() == ref.tobytes(), (part, s, ref)
        assert tm.mean(a).tobytes() == (ref / type(ref)(rows * 3)).tobytes()
        d = tm.dot(a, b)
        one_b = tm.DistributedArray(MPI.COMM_SELF, (rows, 3), dtype)
        fill(one_b, seed=2)
        assert d.tobytes() == tm.dot(one, one_b).tobytes()
        assert tm.min(a) == np.min(x) and tm.max(a) == np.max(x)


def test_mismatched_shape_raises_on_every_rank():
    if comm.Get_size() == 1:
        pytest.skip("needs two ranks to disagree")
    rows = 11 if comm.Get_rank() == 0 else 10
    with pytest.raises(ValueError, match=r"tack.mpi.DistributedArray: .*disagree.*\(11, 3\)"):
        tm.DistributedArray(comm, (rows, 3), tack.f64)


def test_gather_scatter_and_dlpack_pieces():
    n = comm.Get_size()
    whole = np.arange(29 * 4, dtype=np.float64).reshape(29, 4)
    a = tm.scatter(comm, whole if comm.Get_rank() == n - 1 else None, root=n - 1, ghosts=1,
                   partition=random_partition(29, n, 5))
    local = np.from_dlpack(a.local())
    np.testing.assert_array_equal(local, whole[a.first_row:a.first_row + a.local_rows])
    got = tm.gather(a, root=0)
    if comm.Get_rank() == 0:
        np.testing.assert_array_equal(got, whole)
    else:
        assert got is None
    # The exported piece is the piece: a write through NumPy shows in tack's array.
    if a.local_rows:
        local[0, 0] = -5.0
        assert np.from_dlpack(a.with_ghosts())[1, 0] == -5.0
