# SPDX-License-Identifier: BSD-3-Clause
"""tack.mpi: distributed arrays over mpi4py communicators (the Python face of ``tack::mpi``).

Each rank holds its rows of a global array as one ``tack.Array`` with ghost rows; messages are
posted on row views of it, which mpi4py reads and writes in place through DLPack::

    from mpi4py import MPI
    import tack, tack.mpi

    u = tack.mpi.DistributedArray(MPI.COMM_WORLD, (1000, 3), tack.f64, ghosts=1)
    u.local().fill(1.0)          # the owned rows: a row view of the piece
    u.exchange_ghosts()          # ghost rows from the neighbors
    total = tack.mpi.sum(u)      # the same bits for any number of ranks

Floating-point sums (``sum``, ``dot``, ``mean``) add the global scalar index space in the fixed
binary tree of the C++ library (docs/mpi.md), so their results are bit-identical for every
number of ranks and every partition, and equal to ``tack::mpi::sum``'s. Every collective call
first agrees across the ranks: a rank that passes another shape makes every rank raise
``ValueError``.
"""

from __future__ import annotations

import builtins
import zlib

import numpy as np

import tack
from tack import _core

try:  # mpi4py is optional: the module imports, and says what is missing when used.
    from mpi4py import MPI
except ImportError as exc:  # pragma: no cover - exercised where mpi4py is absent
    MPI = None
    _import_error = exc

__all__ = ["Partition", "DistributedArray", "exchange_ghosts", "sum", "min", "max", "dot", "mean",
           "gather", "scatter", "agree"]

_GHOST_TAG = 0x7A00


def _require_mpi(what):
    if MPI is None:
        raise ImportError(f"{what}: tack.mpi needs mpi4py (pip install mpi4py, built against the "
                          f"MPI library mpirun belongs to): {_import_error}")


def agree(comm, what, description):
    """Every rank passes ``description``; if they differ, every rank raises ``ValueError``."""
    _require_mpi(what)
    h = zlib.crc32(description.encode())
    lo = comm.allreduce(h, op=MPI.MIN)
    hi = comm.allreduce(h, op=MPI.MAX)
    if lo == hi:
        return
    everyone = comm.allgather(description)
    groups = {}
    for r, d in enumerate(everyone):
        groups.setdefault(d, []).append(r)
    parts = "; ".join(("rank " if len(rs) == 1 else "ranks ") + ",".join(map(str, rs)) +
                      " passed " + d for d, rs in groups.items())
    raise ValueError(f"{what}: the ranks of a communicator of {comm.Get_size()} ranks disagree "
                     f"(every rank must pass the same): {parts}")


#: Rank ``r`` owns global rows ``[first(r), end(r))``, consecutive in rank order:
#: ``tack::mpi::partition`` (``Partition.block(rows, ranks)``, ``Partition.from_counts(counts)``,
#: ``ranks``, ``rows``, ``offsets``, ``first/end/count/owner(...)``).
Partition = _core._mpi.Partition


def _ghost_runs(part, r, ghosts, periodic):
    """(piece_row, global_row, rows, owner) runs of rank r's ghost rows (as the C++ library)."""
    n, total = part.count(r), part.rows
    runs = []
    if total == 0 or ghosts == 0:
        return runs
    for i in list(range(ghosts)) + list(range(ghosts + n, 2 * ghosts + n)):
        if i == ghosts + n and runs:
            runs.append(None)  # the owned rows end any run
        g = part.first(r) - ghosts + i
        if periodic:
            g %= total
        elif g < 0 or g >= total:
            runs.append(None)
            continue
        q = part.owner(g)
        last = runs[-1] if runs else None
        if last is not None and last[3] == q and g == last[1] + last[2] and i == last[0] + last[2]:
            runs[-1] = (last[0], last[1], last[2] + 1, q)
        else:
            runs.append((i, g, 1, q))
    return [x for x in runs if x is not None]


class DistributedArray:
    """A global array of ``shape`` whose rows are split among the ranks of ``comm`` (an mpi4py
    communicator); each rank's piece is a ``tack.Array`` with ``ghosts`` extra rows on each side,
    zero-filled. Collective: every rank must pass the same arguments."""

    def __init__(self, comm, shape, dtype=None, *, ghosts=0, periodic=False, partition=None):
        _require_mpi("tack.mpi.DistributedArray")
        shape = tuple(int(s) for s in shape)
        dtype = tack.f32 if dtype is None else dtype
        self.comm = comm
        self.shape = shape
        self.dtype = dtype
        self.ghosts = int(ghosts)
        self.periodic = bool(periodic)
        self.partition = partition if partition is not None else Partition.block(
            builtins.max(shape[0], 0) if shape else 0, comm.Get_size())
        agree(comm, "tack.mpi.DistributedArray", self.signature())
        if not shape or any(s < 0 for s in shape):
            raise ValueError(f"tack.mpi.DistributedArray: the global shape {shape} needs at least "
                             f"one extent, none negative")
        if self.ghosts < 0:
            raise ValueError(f"tack.mpi.DistributedArray: ghosts {self.ghosts} is negative")
        if self.partition.ranks != comm.Get_size() or self.partition.rows != shape[0]:
            raise ValueError(f"tack.mpi.DistributedArray: {self.partition!r} does not fit "
                             f"{shape[0]} rows over {comm.Get_size()} ranks")
        self.rank = comm.Get_rank()
        n = self.partition.count(self.rank)
        self._piece = tack.zeros((n + 2 * self.ghosts,) + shape[1:], dtype)
        self._plan()

    def signature(self):
        return (f"DistributedArray of {self.dtype} global shape {self.shape}, {self.ghosts} ghost "
                f"rows{', periodic' if self.periodic else ''}, partition {self.partition.offsets}")

    @property
    def first_row(self):
        return self.partition.first(self.rank)

    @property
    def local_rows(self):
        return self.partition.count(self.rank)

    def local(self):
        """The owned rows: a row view of the piece (same memory)."""
        return self._piece[self.ghosts:self.ghosts + self.local_rows]

    def with_ghosts(self):
        """The whole piece: local row ``i`` is row ``i + ghosts``."""
        return self._piece

    def _plan(self):
        me, p, g = self.rank, self.partition, self.ghosts
        self._recvs, self._sends, self._self = [], [], []
        for tag, (piece_row, global_row, rows, owner) in enumerate(_ghost_runs(p, me, g, self.periodic)):
            if owner == me:
                self._self.append((piece_row, global_row - p.first(me) + g, rows))
            else:
                self._recvs.append((owner, _GHOST_TAG + tag, piece_row, rows))
        for r in range(p.ranks):
            if r == me:
                continue
            for tag, (_, global_row, rows, owner) in enumerate(_ghost_runs(p, r, g, self.periodic)):
                if owner == me:
                    self._sends.append((r, _GHOST_TAG + tag, global_row - p.first(me) + g, rows))

    def exchange_ghosts(self, agree_first=True):
        """Fills the ghost rows from the ranks that own them: Irecv/Isend posted on row views of
        the piece (DLPack buffers, no copy). Collective."""
        if agree_first:
            agree(self.comm, "tack.mpi.exchange_ghosts", self.signature())
        piece = self._piece
        requests = [self.comm.Irecv(piece[a:a + n], source=q, tag=t) for q, t, a, n in self._recvs]
        requests += [self.comm.Isend(piece[a:a + n], dest=q, tag=t) for q, t, a, n in self._sends]
        for dst, src, n in self._self:
            tack.copyto(piece[dst:dst + n], piece[src:src + n])
        MPI.Request.Waitall(requests)


def exchange_ghosts(a, agree_first=True):
    """Fills ``a``'s ghost rows (see ``DistributedArray.exchange_ghosts``)."""
    a.exchange_ghosts(agree_first)


# ---- reductions --------------------------------------------------------------------------------

def _scalars(arr):
    """The scalars of a host tack array in storage order, without a copy (through DLPack)."""
    return np.from_dlpack(arr).reshape(-1)


def _ordered_sum(comm, what, x, first, total, y=None):
    """The sum of the global scalar index space [0, total) in tack::mpi's fixed tree (the C++
    library's code: this rank's nodes, every rank's gathered and joined in rank order); this rank
    owns ``x`` (or the products ``x * y``) at ``first``."""
    in_float = x.dtype == np.float32
    mine = _core._mpi.local_nodes(x, y, int(first), in_float, what)
    return x.dtype.type(_core._mpi.finish(comm.allgather(mine), int(total), in_float, what))


def _float_scalars(a):
    x = _scalars(a.local())
    if not np.issubdtype(x.dtype, np.floating):
        x = x.astype(np.float64)
    return x


def sum(a):  # noqa: A001 - the library's name
    """The sum of every owned scalar over all ranks, on every rank; bit-identical for any number
    of ranks for floating point; exact for integers."""
    agree(a.comm, "tack.mpi.sum", a.signature())
    x = _scalars(a.local())
    if np.issubdtype(x.dtype, np.floating):
        per_row = _row_scalars(a)
        return _ordered_sum(a.comm, "tack.mpi.sum", x, a.first_row * per_row, a.shape[0] * per_row)
    return a.comm.allreduce(x.sum(dtype=np.int64 if x.dtype != np.uint64 else np.uint64).item(),
                            op=MPI.SUM)


def _row_scalars(a):
    piece = _scalars(a.with_ghosts())
    rows = a.with_ghosts().shape[0]
    return piece.shape[0] // rows if rows else 0


def mean(a):
    """The mean of every owned scalar over all ranks (floating point: its own type; integers:
    float64); no elements anywhere raises ``ValueError``."""
    agree(a.comm, "tack.mpi.mean", a.signature())
    per_row = _row_scalars(a)
    total = a.shape[0] * per_row
    if total == 0:
        raise ValueError(f"tack.mpi.mean: {a.signature()} has no elements on any rank")
    x = _float_scalars(a)
    s = _ordered_sum(a.comm, "tack.mpi.mean", x, a.first_row * per_row, total)
    return x.dtype.type(s / x.dtype.type(total))


def dot(a, b):
    """The sum of products of paired scalars of two arrays of the same global shape and
    partition; bit-identical for any number of ranks for floating point."""
    agree(a.comm, "tack.mpi.dot", a.signature() + " with " + b.signature())
    if a.shape != b.shape or a.partition != b.partition:
        raise ValueError(f"tack.mpi.dot: the arrays differ in global shape or partition: "
                         f"{a.signature()} and {b.signature()}")
    x, y = _scalars(a.local()), _scalars(b.local())
    per_row = _row_scalars(a)
    if np.issubdtype(x.dtype, np.floating):
        return _ordered_sum(a.comm, "tack.mpi.dot", x, a.first_row * per_row, a.shape[0] * per_row,
                            y)
    return a.comm.allreduce(int(np.dot(x.astype(np.int64), y.astype(np.int64))), op=MPI.SUM)


def _extremum(a, what, op, fn):
    agree(a.comm, what, a.signature())
    if a.shape[0] * _row_scalars(a) == 0:
        raise ValueError(f"{what}: {a.signature()} has no elements on any rank")
    x = _scalars(a.local())
    mine = fn(x).item() if x.shape[0] else None
    values = [v for v in a.comm.allgather(mine) if v is not None]
    return x.dtype.type(op(values))


def min(a):  # noqa: A001
    """The smallest owned scalar over all ranks."""
    return _extremum(a, "tack.mpi.min", builtins.min, np.min)


def max(a):  # noqa: A001
    """The largest owned scalar over all ranks."""
    return _extremum(a, "tack.mpi.max", builtins.max, np.max)


# ---- moving whole arrays -----------------------------------------------------------------------

def gather(a, root=0):
    """The global array as a NumPy array on ``root`` (``None`` elsewhere)."""
    agree(a.comm, "tack.mpi.gather", a.signature() + f" to root {root}")
    x = np.from_dlpack(a.local())
    per_row = int(np.prod(x.shape[1:], dtype=np.int64))
    counts = [a.partition.count(r) * per_row for r in range(a.partition.ranks)]
    out = None
    if a.rank == root:
        out = np.empty((a.shape[0],) + tuple(x.shape[1:]), dtype=x.dtype)
        a.comm.Gatherv(np.ascontiguousarray(x), [out, counts], root=root)
    else:
        a.comm.Gatherv(np.ascontiguousarray(x), None, root=root)
    return out


def scatter(comm, values, dtype=None, root=0, **distribution):
    """A ``DistributedArray`` holding ``values`` (an array-like on ``root``; ignored elsewhere),
    with the given ``ghosts``/``periodic``/``partition``."""
    _require_mpi("tack.mpi.scatter")
    if comm.Get_rank() == root:
        host = np.ascontiguousarray(np.asarray(values))
        meta = (host.shape, host.dtype.str)
    else:
        host, meta = None, None
    shape, dstr = comm.bcast(meta, root=root)
    if dtype is None:
        dtype = tack.dtype(np.dtype(dstr))
    a = DistributedArray(comm, shape, dtype, **distribution)
    local = np.from_dlpack(a.local())
    per_row = int(np.prod(shape[1:], dtype=np.int64))
    counts = [a.partition.count(r) * per_row for r in range(a.partition.ranks)]
    recv = np.empty_like(local) if local.size else np.empty(0, dtype=local.dtype)
    comm.Scatterv([host, counts] if comm.Get_rank() == root else None, recv, root=root)
    if local.size:
        local[...] = recv.reshape(local.shape)
    return a
