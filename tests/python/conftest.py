# SPDX-License-Identifier: BSD-3-Clause
import gc

import pytest

import tack


@pytest.fixture(autouse=True)
def _cpu_default():
    tack.set_default_device("cpu")
    yield
    gc.collect()


@pytest.fixture
def debug_mode():
    """Kernels compiled from Python check every index (tack.set_debug) for the test's duration."""
    tack.set_debug(True)
    try:
        yield
    finally:
        tack.set_debug(False)
