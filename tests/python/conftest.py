# SPDX-License-Identifier: BSD-3-Clause
import gc

import pytest

import tack


@pytest.fixture(autouse=True)
def _cpu_default():
    tack.set_default_device("cpu")
    yield
    gc.collect()
