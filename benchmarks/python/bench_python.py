# SPDX-License-Identifier: BSD-3-Clause
"""tack from Python against NumPy and numexpr on the same data, in one process.

Groups (`<group>_t<threads>:<variant>`, variants `ref_*` are the peers):
- `py_row_view`: `a[2:4]` of a (100, 3) f64 array, against NumPy's slice.
- `py_zeros_small`: `tack.zeros((10,))` against `np.zeros((10,), np.float32)`.
- `py_sum`: `tack.sum` of 2^25 f64 against `np.sum`.
- `py_triad_f32`: `tack.copyto(out, a + 1.5 * b)` over 2^24 f32 against NumPy's fastest triad
  (`np.multiply(b, s, out=t); np.add(a, t, out=out)`) and against numexpr.
- `py_expr_*`: run-time compositions written into `out` against numexpr's `evaluate(..., out=out)`
  at the same thread count (numexpr is the anchor of block-wise evaluation).
- `py_axpy_f64`: the triad over 2^25 f64, the shape of the C++ `axpy_expr` benchmark.

Run: `build/venv/bin/python benchmarks/python/bench_python.py [--quick] [--json PATH]`. The thread
count is fixed when tack and numexpr are imported: set TACK_NUM_THREADS (benchmarks/run.py runs
this script once per thread count). Each time is one call, taken from repeated timeit runs.
"""

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import timeit

import numpy as np

import tack


def cpu_name():
    """The CPU as lscpu names it."""
    try:
        out = subprocess.run(["lscpu"], capture_output=True, text=True).stdout
        for line in out.splitlines():
            if line.startswith("Model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor()


class Bench:
    """Collects per-repetition times under `group:variant` names and prints ratios."""

    def __init__(self, threads, reps):
        self.threads, self.reps, self.results = threads, reps, {}

    def time(self, group, variant, f, number):
        """Times `f` `number` times per repetition; records seconds per call."""
        f()
        t = [x / number for x in timeit.repeat(f, number=number, repeat=self.reps)]
        self.results[f"{group}_t{self.threads}:{variant}"] = {"times": t, "unit": "s"}
        return statistics.median(t)

    def skip(self, group, variant, reason):
        self.results[f"{group}_t{self.threads}:{variant}"] = {"skipped": reason}

    def show(self):
        groups = {}
        for k, r in self.results.items():
            g, _, v = k.partition(":")
            groups.setdefault(g, {})[v] = r
        for g, vs in groups.items():
            tack_v = [v for v in vs if not v.startswith("ref_") and "times" in vs[v]]
            for v, r in vs.items():
                if "skipped" in r:
                    print(f"{g}:{v:28s} skipped: {r['skipped']}")
                    continue
                m = statistics.median(r["times"])
                line = f"{g}:{v:28s} {m * 1e9:14.1f} ns"
                if v.startswith("ref_") and tack_v:
                    t = statistics.median(vs[tack_v[0]]["times"])
                    line += f"   {tack_v[0]} speed-up {m / t:5.2f}x"
                print(line)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true", help="smaller arrays, fewer repetitions")
    ap.add_argument("--json", help="write the times here")
    ap.add_argument("--threads", type=int, help="label (the count comes from TACK_NUM_THREADS)")
    args = ap.parse_args()
    threads = args.threads or int(os.environ.get("TACK_NUM_THREADS") or os.cpu_count())
    reps = 5 if args.quick else 7
    b = Bench(threads, reps)
    print(f"CPU: {cpu_name()}, threads: {threads}, NumPy {np.__version__}, Python {sys.version.split()[0]}")
    small = 20000 if args.quick else 200000

    t, n = tack.zeros((100, 3), tack.f64), np.zeros((100, 3))
    b.time("py_row_view", "tack", lambda: t[2:4], small)
    b.time("py_row_view", "ref_numpy", lambda: n[2:4], small)
    b.time("py_zeros_small", "tack", lambda: tack.zeros((10,)), small // 2)
    b.time("py_zeros_small", "ref_numpy", lambda: np.zeros((10,), np.float32), small // 2)

    big = 1 << (23 if args.quick else 25)
    x = np.random.default_rng(0).standard_normal(big)
    a = tack.array(x)
    b.time("py_sum", "tack", lambda: tack.sum(a), 3)
    b.time("py_sum", "ref_numpy", lambda: np.sum(x), 3)

    m = 1 << (22 if args.quick else 24)
    an = np.random.default_rng(1).standard_normal(m).astype(np.float32)
    bn = np.random.default_rng(2).standard_normal(m).astype(np.float32)
    cn = np.random.default_rng(5).standard_normal(m).astype(np.float32)
    outn, tmp = np.empty_like(an), np.empty_like(an)
    at, bt, ct, outt = tack.array(an), tack.array(bn), tack.array(cn), tack.empty(m)
    s = np.float32(1.5)

    def numpy_triad():
        np.multiply(bn, s, out=tmp)
        np.add(an, tmp, out=outn)

    tack.copyto(outt, at + 1.5 * bt)
    numpy_triad()
    assert np.allclose(outt.numpy(), outn)
    b.time("py_triad_f32", "tack", lambda: tack.copyto(outt, at + 1.5 * bt), 3)
    b.time("py_triad_f32", "ref_numpy", numpy_triad, 3)

    # numexpr: the same expressions, evaluated block-wise into `out`, same thread count
    exprs = {  # group: (tack expression, numexpr string)
        "py_expr_triad_f32": (lambda: at + 1.5 * bt, "an + 1.5 * bn"),
        "py_expr_fma_f32": (lambda: at * bt + ct, "an * bn + cn"),
        "py_expr_sin_f32": (lambda: tack.sin(at) * bt + ct, "sin(an) * bn + cn"),
    }
    try:
        import numexpr as ne
        ne.set_num_threads(threads)
        env = {"an": an, "bn": bn, "cn": cn}
        for g, (te, ns) in exprs.items():
            tack.copyto(outt, te())
            ne.evaluate(ns, local_dict=env, out=outn)
            assert np.allclose(outt.numpy(), outn, rtol=1e-5, atol=1e-5), g
            b.time(g, "tack", lambda te=te: tack.copyto(outt, te()), 3)
            b.time(g, "ref_numexpr", lambda ns=ns: ne.evaluate(ns, local_dict=env, out=outn), 3)
    except ImportError as e:
        for g in exprs:
            b.skip(g, "ref_numexpr", f"numexpr does not import ({e}); `make bench` pip-installs it")

    big2 = 1 << 25  # always: the C++ `axpy_expr` it is compared with has 2^25 elements
    ad = tack.array(np.random.default_rng(3).standard_normal(big2))
    bd = tack.array(np.random.default_rng(4).standard_normal(big2))
    od = tack.empty(big2, tack.f64)
    b.time("py_axpy_f64", "tack", lambda: tack.copyto(od, ad + 1.5 * bd), 3)

    b.show()
    if args.json:
        info = {"cpu": cpu_name(), "threads": threads, "numpy": np.__version__,
                "python": sys.version.split()[0], "quick": args.quick}
        with open(args.json, "w") as f:
            json.dump({"info": info, "benchmarks": b.results}, f, indent=1)


if __name__ == "__main__":
    main()
