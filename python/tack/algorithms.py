# SPDX-License-Identifier: BSD-3-Clause
"""Algorithms over any array, view or implicit array. Statistics reduce scalar
components in storage order, and a statistic's explicit ``n`` counts scalar components."""

from . import _core
from ._core import max, mean, min, sum  # noqa: A004  (the library's names)

_impl = _core._algorithms
variance = _impl.variance
stddev = _impl.stddev
sort = _impl.sort
sort_by_key = _impl.sort_by_key
inclusive_scan = _impl.inclusive_scan
exclusive_scan = _impl.exclusive_scan
dot = _impl.dot
minmax = _impl.minmax

__all__ = ["sum", "min", "max", "mean", "variance", "stddev", "sort", "sort_by_key",
           "inclusive_scan", "exclusive_scan", "dot", "minmax"]
