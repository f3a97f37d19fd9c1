# SPDX-License-Identifier: BSD-3-Clause
"""Kernels written in Python, compiled to C++ over tack's headers (``tack.kernel``,
``tack.func``, ``tack.device_class``, ``tack.launch``), and their cache::

    @tack.kernel
    def scale(i, out, x, s):
        out[i] = s * x[i]

    tack.launch(len(x), scale, out, x, 2.0)
"""

from .api import (  # noqa: F401
    Func, Kernel, cache_dir, clear_memory, debug, device_class, func, generated_source,
    include_dir, kernel, launch, set_debug, stats,
)
from .lower import KernelTypeError  # noqa: F401

__all__ = ["Func", "Kernel", "KernelTypeError", "cache_dir", "clear_memory", "debug",
           "device_class", "func", "generated_source", "include_dir", "kernel", "launch",
           "set_debug", "stats"]
