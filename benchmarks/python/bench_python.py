# SPDX-License-Identifier: BSD-3-Clause
"""tack from Python against NumPy on the same data, in one process (issue 13's targets).

Each figure is the median of repeated runs; ratios are against NumPy measured in the same run.
Run: `build/venv/bin/python benchmarks/python/bench_python.py` (make bench runs it too).
"""

import os
import platform
import statistics
import subprocess
import sys
import time
import timeit

import numpy as np

import tack


def best_of(stmt, number, repeat=7, globals_=None):
    t = timeit.repeat(stmt, number=number, repeat=repeat, globals=globals_)
    return statistics.median(t) / number


def cpu_name():
    try:
        out = subprocess.run(["lscpu"], capture_output=True, text=True).stdout
        for line in out.splitlines():
            if line.startswith("Model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor()


def report(name, tack_s, ref_s, target, higher_is_better_ratio):
    # ratio is how many times faster tack is than the reference (ref time / tack time)
    ratio = ref_s / tack_s
    ok = ratio >= target if higher_is_better_ratio else ratio >= target
    print(f"{name:48s} tack {tack_s * 1e9:12.1f} ns  ref {ref_s * 1e9:12.1f} ns  "
          f"speed {ratio:5.2f}x (target >= {target:.2f}x) {'met' if ok else 'MISSED'}")
    return ratio


def main():
    threads = os.environ.get("TACK_NUM_THREADS") or os.environ.get("OMP_NUM_THREADS") or os.cpu_count()
    print(f"CPU: {cpu_name()}, threads: {threads}, "
          f"NumPy {np.__version__}, Python {sys.version.split()[0]}")
    # a[2:4] against NumPy's slice (target: tack's time <= 1.0x NumPy's)
    t = tack.zeros((100, 3), tack.f64)
    n = np.zeros((100, 3))
    g = {"t": t, "n": n}
    report("a[2:4] (row view)", best_of("t[2:4]", 200000, globals_=g), best_of("n[2:4]", 200000, globals_=g), 1.0, True)
    # tack.zeros((10,)) against np.zeros (target: tack's time <= 1.5x)
    g = {"tack": tack, "np": np}
    report("zeros((10,))", best_of("tack.zeros((10,))", 100000, globals_=g),
           best_of("np.zeros((10,), np.float32)", 100000, globals_=g), 1 / 1.5, True)
    # sum of 2^25 float64 (target: >= 1.5x np.sum)
    x = np.random.default_rng(0).standard_normal(1 << 25)
    a = tack.array(x)
    g = {"tack": tack, "np": np, "a": a, "x": x}
    report("sum of 2^25 f64", best_of("tack.sum(a)", 3, 7, g), best_of("np.sum(x)", 3, 7, g), 1.5, True)
    # copyto(out, a + s*b) over 2^24 f32 against NumPy's fastest triad (target >= 1.3x)
    m = 1 << 24
    an = np.random.default_rng(1).standard_normal(m).astype(np.float32)
    bn = np.random.default_rng(2).standard_normal(m).astype(np.float32)
    outn = np.empty_like(an)
    tmp = np.empty_like(an)
    at, bt, outt = tack.array(an), tack.array(bn), tack.empty(m)
    s = np.float32(1.5)

    def numpy_triad():
        np.multiply(bn, s, out=tmp)
        np.add(an, tmp, out=outn)

    def tack_triad():
        tack.copyto(outt, at + 1.5 * bt)

    tack_triad()
    numpy_triad()
    assert np.allclose(outt.numpy(), outn)
    g = {"numpy_triad": numpy_triad, "tack_triad": tack_triad}
    report("copyto(out, a + s*b), 2^24 f32", best_of("tack_triad()", 3, 7, g), best_of("numpy_triad()", 3, 7, g), 1.3, True)
    # The same expression over 2^25 f64, the shape of the C++ benchmark `axpy_expr`
    # (bench_arrays_implicit): its `tack_copyto_a_plus_s_b` time, given in nanoseconds through
    # TACK_CPP_AXPY_NS, is the compiled composition the run-time one is compared with.
    big = 1 << 25
    ad = tack.array(np.random.default_rng(3).standard_normal(big))
    bd = tack.array(np.random.default_rng(4).standard_normal(big))
    od = tack.empty(big, tack.f64)
    g = {"tack": tack, "ad": ad, "bd": bd, "od": od}
    td = best_of("tack.copyto(od, ad + 1.5 * bd)", 3, 7, g)
    print(f"{'copyto(out, a + s*b), 2^25 f64':48s} tack {td * 1e9:12.1f} ns")
    cpp = os.environ.get("TACK_CPP_AXPY_NS")
    if cpp:
        print(f"{'  run-time composition / C++ compiled':48s} speed {float(cpp) / (td * 1e9):5.2f}x (target >= 0.70x)")


if __name__ == "__main__":
    main()
