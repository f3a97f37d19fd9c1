# SPDX-License-Identifier: BSD-3-Clause
"""benchmarks/report.py: a GPU results file of either vendor fills the GPU section against the
same goals (the references are named per vendor: cudaMemcpy/hipMemcpy, CUB/rocPRIM)."""

import glob
import json
import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
RESULTS = [p for p in glob.glob(os.path.join(ROOT, "benchmarks", "results", "*.json"))
           if not os.path.basename(p).startswith("gpu-")]
pytestmark = pytest.mark.skipif(not RESULTS or sys.version_info < (3, 11),
                                reason="needs a committed CPU results file and tomllib")


def _gpu_results(vendor):
    lib = "cub" if vendor == "cuda" else "rocprim"
    rate = lambda v: {"counters": {"bytes_per_second": v}}  # noqa: E731
    time = lambda v: {"times": [v, v * 1.01, v * 0.99]}  # noqa: E731
    b = {"tack_triad": rate(90.0), f"{vendor}_memcpy_d2d": rate(100.0),
         "tack_copy": rate(80.0), "tack_fill": rate(95.0),
         "tack_sum": time(1.0), f"{lib}_reduce_sum": time(0.95),
         "tack_sort": time(2.0), f"{lib}_radix_sort": time(1.5),
         "tack_launch_empty": time(1.0), "bare_launch_and_sync": time(1.0),
         "tack_launch_on_stream": time(1.0), "bare_launch_on_stream": time(1.0),
         "aos_to_soa": rate(85.0), f"{vendor}_memcpy_d2d_vec3f": rate(100.0)}
    machine = {"gpu": "a GPU", vendor: f"{vendor} 1.0", "cpu": "a CPU", "commit": "0000000",
               "date": "2026-12-05"}
    return {"kind": "gpu", "vendor": vendor, "machine": machine, "benchmarks": b}


@pytest.mark.parametrize("vendor", ["cuda", "hip"])
def test_a_gpu_results_file_of_either_vendor_fills_the_gpu_section(tmp_path, vendor):
    gpu = tmp_path / "gpu.json"
    gpu.write_text(json.dumps(_gpu_results(vendor)))
    out = tmp_path / "performance.md"
    r = subprocess.run([sys.executable, os.path.join(ROOT, "benchmarks", "report.py"), RESULTS[0],
                        "--gpu", str(gpu), "--out", str(out)], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    text = out.read_text()
    section = text[text.index("## GPU"):text.index("## Running the benchmarks")]
    assert f"{vendor} 1.0" in section
    assert "not measured" not in section
    rows = [line for line in section.splitlines() if line.startswith("| ") and "verdict" not in line]
    assert len(rows) == 8
    assert "| 0.90 | – | ≥ 0.85 | met |" in section          # triad: 90 of 100 bytes/s
    assert "| 0.80 | – | ≥ 0.85 | **missed** |" in section  # copy: 80 of 100
    assert "0.75" in section                                 # sort: 1.5 s against 2 s
