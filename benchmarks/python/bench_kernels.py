# SPDX-License-Identifier: BSD-3-Clause
"""Kernels written in Python (tack.kernel) against the same kernels in C++ through tack::launch,
NVIDIA Warp's CPU kernels and Numba's @njit(parallel=True), in one run on one machine.

Kernel speed (median of repetitions, same thread count for every peer; Warp runs CPU kernels on
one thread, so it is compared at 1 thread; repetition k of every contender runs before
repetition k + 1 of any, so that each pair is measured under the same load):
  triad over 2^24 f32, normalize a SoA vec3 array of 2^22 elements in place, and the sum over a
  Permutation of a Transform of a CountingArray (2^24 elements).
Compilation: the first launch of a new small kernel (cold, empty cache), a further variant, a
cached variant loaded in a new process, disk per variant. Launch overhead: a cached kernel with 3
array arguments and n = 1.

Run: `build/venv/bin/python benchmarks/python/bench_kernels.py [--quick] [--json FILE]`
(`make bench` runs it). Warp and Numba are skipped with a reason when they do not import.
"""

import argparse
import glob
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
from bench_python import cpu_name  # noqa: E402  (the CPU as lscpu names it)


KERNELS = ("triad", "normalize_soa", "permutation_sum")
# How long a contender runs untimed before each timed run. libgomp's idle workers spin 300000
# pauses before they sleep (several ms on current x86 CPUs): the previous contender's workers must
# have stopped spinning. Run busy rather than asleep: on a VM an idle vCPU wakes slowly (a pause
# of 10-30 ms instead gave figures that changed with its length).
WARM_SECONDS = 0.02


def timed(f):
    """A callable that runs `f` once and returns its seconds."""
    def run():
        t0 = time.perf_counter()
        f()
        return time.perf_counter() - t0
    return run


def interleaved(contenders, reps):
    """Repetition k of every kernel of every contender runs before repetition k + 1 of any, so
    that repetition k of each is measured under the same load (on a shared machine a busy moment
    slows them alike) and benchmarks/run.py pairs them. Each timed run follows WARM_SECONDS of
    untimed runs of the same contender: the worker threads of the contender before it (OpenMP's,
    Numba's, another process's) spin for a while after their last run and would take a core from
    the first runs after a switch. `contenders`: name -> {kernel: callable returning its
    seconds}. Returns name -> {kernel: (median, min, max, times)}."""
    times = {c: {k: [] for k in ks} for c, ks in contenders.items()}
    for _ in range(reps):
        for k in KERNELS:
            for c, ks in contenders.items():
                if k in ks:
                    warm_until = time.perf_counter() + WARM_SECONDS
                    ks[k]()
                    while time.perf_counter() < warm_until:
                        ks[k]()
                    times[c][k].append(ks[k]())
    return {c: {k: (statistics.median(t), min(t), max(t), t) for k, t in ks.items()}
            for c, ks in times.items()}


# ---- one thread count, in a child process (thread counts are fixed at import) --------------------

def speed_child(threads, quick):
    import numpy as np

    import tack

    reps = 5 if quick else 15
    out = {}
    # the sizes of the goals in both modes (--quick runs fewer repetitions): 2^22 int64 is the
    # size of a 32 MiB last-level cache, where the sum's figure depends on what ran before it
    n, m = 1 << 24, 1 << 22
    contenders = {}

    @tack.kernel
    def triad(i, a, b, c, s):
        a[i] = b[i] + s * c[i]

    @tack.kernel
    def normalize_k(i, v):
        v[i] = tack.normalize(v[i])

    @tack.func
    def square_plus_one(x):
        return x * x * 0.5 + 1.0

    a = tack.zeros((n,))
    b = tack.full((n,), 1.0)
    c = tack.full((n,), 2.0)
    tack.launch(n, triad, a, b, c, 0.5)
    v = tack.zeros((m,), tack.vec3(), layout="soa")
    v.fill([1.0, 2.0, 3.0])
    tack.launch(m, normalize_k, v)
    order = tack.array(np.arange(n, dtype=np.int64)[::-1].copy())
    composed = tack.arrays.Permutation(
        order, tack.arrays.Transform(tack.arrays.CountingArray(n, dtype=tack.f64),
                                     square_plus_one))
    tack.sum(composed)
    contenders["tack"] = {
        "triad": timed(lambda: tack.launch(n, triad, a, b, c, 0.5)),
        "normalize_soa": timed(lambda: tack.launch(m, normalize_k, v)),
        "permutation_sum": timed(lambda: tack.sum(composed)),
    }

    peers = {}
    try:
        import numba

        @numba.njit(parallel=True, fastmath=False, cache=False)
        def nb_triad(a, b, c, s):
            for i in numba.prange(a.shape[0]):
                a[i] = b[i] + s * c[i]

        @numba.njit(parallel=True, cache=False)
        def nb_normalize(x, y, z):
            for i in numba.prange(x.shape[0]):
                r = np.sqrt(x[i] * x[i] + y[i] * y[i] + z[i] * z[i])
                x[i] /= r
                y[i] /= r
                z[i] /= r

        @numba.njit(parallel=True, cache=False)
        def nb_permsum(order):
            s = 0.0
            for i in numba.prange(order.shape[0]):
                x = float(order[i])
                s += x * x * 0.5 + 1.0
            return s

        numba.set_num_threads(threads)
        na, nb_, nc = np.zeros(n, np.float32), np.ones(n, np.float32), np.full(n, 2, np.float32)
        s32 = np.float32(0.5)
        nb_triad(na, nb_, nc, s32)
        xs = [np.full(m, k, np.float32) for k in (1.0, 2.0, 3.0)]
        nb_normalize(*xs)
        norder = order.numpy()
        nb_permsum(norder)
        contenders["numba"] = {
            "triad": timed(lambda: nb_triad(na, nb_, nc, s32)),
            "normalize_soa": timed(lambda: nb_normalize(*xs)),
            "permutation_sum": timed(lambda: nb_permsum(norder)),
        }
        peers["numba"] = {"version": numba.__version__}
    except ImportError as e:
        peers["numba"] = {"skipped": f"numba does not import ({e})"}
    if threads == 1:
        try:
            import warp as wp
            wp.config.quiet = True
            wp.init()

            @wp.kernel
            def wp_triad(a: wp.array(dtype=wp.float32), b: wp.array(dtype=wp.float32),
                         c: wp.array(dtype=wp.float32), s: wp.float32):
                i = wp.tid()
                a[i] = b[i] + s * c[i]

            @wp.kernel
            def wp_normalize(x: wp.array(dtype=wp.float32), y: wp.array(dtype=wp.float32),
                             z: wp.array(dtype=wp.float32)):
                i = wp.tid()
                v = wp.normalize(wp.vec3(x[i], y[i], z[i]))
                x[i] = v[0]
                y[i] = v[1]
                z[i] = v[2]

            @wp.kernel
            def wp_permsum(order: wp.array(dtype=wp.int64), out: wp.array(dtype=wp.float64)):
                i = wp.tid()
                x = wp.float64(order[i])
                wp.atomic_add(out, 0, x * x * wp.float64(0.5) + wp.float64(1.0))

            wa = wp.zeros(n, dtype=wp.float32, device="cpu")
            wb = wp.full(n, 1.0, dtype=wp.float32, device="cpu")
            wc = wp.full(n, 2.0, dtype=wp.float32, device="cpu")
            wx = [wp.full(m, k, dtype=wp.float32, device="cpu") for k in (1.0, 2.0, 3.0)]
            wo = wp.array(order.numpy(), dtype=wp.int64, device="cpu")
            ws = wp.zeros(1, dtype=wp.float64, device="cpu")

            def run(k, dim, inputs):
                wp.launch(k, dim=dim, inputs=inputs, device="cpu")
                wp.synchronize_device("cpu")

            run(wp_triad, n, [wa, wb, wc, 0.5])
            run(wp_normalize, m, wx)
            run(wp_permsum, n, [wo, ws])
            contenders["warp"] = {
                "triad": timed(lambda: run(wp_triad, n, [wa, wb, wc, 0.5])),
                "normalize_soa": timed(lambda: run(wp_normalize, m, wx)),
                "permutation_sum": timed(lambda: run(wp_permsum, n, [wo, ws])),
            }
            peers["warp"] = {"version": wp.config.version}
        except ImportError as e:
            peers["warp"] = {"skipped": f"warp-lang does not import ({e})"}
    else:
        peers["warp"] = {"skipped": "Warp runs CPU kernels on one thread (compared at 1 thread)"}
    server = cpp_reference()
    if isinstance(server, dict):
        out["cpp"] = server
    else:
        contenders["cpp"] = {k: (lambda k=k: server.time(k)) for k in KERNELS}
    try:
        figures = interleaved(contenders, reps)
    finally:
        if not isinstance(server, dict):
            server.close()
    out.update(figures.pop("tack"))
    if "cpp" in figures:
        out["cpp"] = figures.pop("cpp")
    for peer, f in figures.items():
        peers[peer].update(f)
    out["peers"] = peers
    return out


class CppReference:
    """benchmarks/python/kernels_reference.cpp running as a server: `time(kernel)` runs the kernel
    once in C++ and returns its seconds."""

    def __init__(self, exe, sizes):
        self.proc = subprocess.Popen([exe, *sizes], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, text=True)
        for k in KERNELS:  # first touches and thread start-up, outside the timed runs
            self.time(k)

    def time(self, kernel):
        self.proc.stdin.write(kernel + "\n")
        self.proc.stdin.flush()
        reply = self.proc.stdout.readline()
        if not reply:
            raise RuntimeError(f"kernels_reference stopped (exit {self.proc.poll()})")
        return float(reply)

    def close(self):
        # the sums' total (which keeps them from being optimized away) and the thread count
        self.proc.stdin.write("check\n")
        self.proc.stdin.flush()
        self.check = self.proc.stdout.readline().split()
        self.proc.stdin.write("quit\n")
        self.proc.stdin.close()
        self.proc.wait()


def cpp_reference():
    """The same kernels in C++ through tack::launch (benchmarks/python/kernels_reference.cpp),
    compiled with the flags of Python kernels against the package's static library, as a
    `CppReference`, or {"skipped": why}. The thread count is the caller's (TACK_NUM_THREADS)."""
    from tack.kernels import build
    # the package's build compiles libtack.a, or links the host build's (the Makefile's way)
    libs = sorted(glob.glob(os.path.join(ROOT, "build", "python", "*", "libtack.a"))
                  + glob.glob(os.path.join(ROOT, "build", "host", "libtack.a")),
                  key=os.path.getmtime, reverse=True)
    cfg = glob.glob(os.path.join(ROOT, "build", "python", "*", "include"))
    if not libs or not cfg:
        return {"skipped": "no libtack.a in build/python/* or build/host (build the package first)"}
    exe = os.path.join(tempfile.gettempdir(), f"tack_kernels_reference_{os.getuid()}")
    src = os.path.join(HERE, "kernels_reference.cpp")
    stamp = exe + ".flags"
    wanted = " ".join(build.target_flags())
    old = open(stamp).read() if os.path.exists(stamp) else None
    if (not os.path.exists(exe) or os.path.getmtime(exe) < os.path.getmtime(src)
            or old != wanted):
        cmd = [build.compiler(), "-std=c++20", "-O3", "-fno-math-errno", "-ffp-contract=off",
               *build.target_flags(), "-fopenmp", "-I", os.path.join(ROOT, "include"), "-I", cfg[0], src, libs[0],
               "-o", exe]
        r = subprocess.run(cmd, capture_output=True, text=True)
        if r.returncode != 0:
            return {"skipped": "the C++ reference did not compile: " + r.stderr[-500:]}
        with open(stamp, "w") as f:
            f.write(wanted)
    return CppReference(exe, ["24", "22"])


# ---- compilation and launch overhead ----------------------------------------------------------------

_SMALL = '''
import sys, time
t0 = time.perf_counter()
import tack
import numpy as np
t_import = time.perf_counter() - t0

@tack.kernel
def small(i, out, x, y):
    out[i] = x[i] * y[i] + 1.0

@tack.kernel
def small2(i, out, x, y):
    out[i] = x[i] - y[i] * 2.0

a, b, c = (tack.zeros((16,)) for _ in range(3))
t0 = time.perf_counter()
tack.launch(16, small, a, b, c)
t_first = time.perf_counter() - t0
t0 = time.perf_counter()
tack.launch(16, small, tack.zeros((16,), tack.f64), b, c)
t_variant = time.perf_counter() - t0
t0 = time.perf_counter()
tack.launch(16, small2, a, b, c)
t_second_kernel = time.perf_counter() - t0
print(t_import, t_first, t_variant, t_second_kernel, tack.kernels.stats()["compiles"],
      tack.kernels.stats()["disk_loads"])
'''


def compile_figures():
    d = tempfile.mkdtemp(prefix="tack-bench-cache-")
    try:
        env = dict(os.environ, TACK_KERNEL_CACHE=os.path.join(d, "cache"))
        script = os.path.join(d, "small_kernels.py")  # kernels are read from their source file
        with open(script, "w") as f:
            f.write(_SMALL)
        cold = subprocess.run([sys.executable, script], capture_output=True, text=True, env=env)
        warm = subprocess.run([sys.executable, script], capture_output=True, text=True, env=env)
        c = [float(x) for x in cold.stdout.split()]
        w = [float(x) for x in warm.stdout.split()]
        # new kernels in a later process (kernels over stored arrays compile without the
        # precompiled prelude: their headers parse faster than it loads)
        with open(script, "w") as f:
            f.write(_SMALL.replace("* 2.0", "* 3.0").replace("+ 1.0", "+ 4.0"))
        later = subprocess.run([sys.executable, script], capture_output=True, text=True, env=env)
        p = [float(x) for x in later.stdout.split()]
        sizes = [os.path.getsize(p) for p in glob.glob(os.path.join(d, "cache", "*.so"))]
        return {"first_launch_cold": c[1], "further_variant": c[2], "second_kernel": c[3],
                "cached_load_new_process": w[1], "compiles_cold": c[4], "disk_loads_warm": w[5],
                "new_kernel_later": p[1], "new_variant_later": p[2],
                "max_bytes_per_variant": max(sizes) if sizes else None}
    finally:
        shutil.rmtree(d, ignore_errors=True)


def launch_overhead(quick):
    import tack
    import numpy as np

    @tack.kernel
    def three(i, a, b, c):
        a[i] = b[i] + c[i]

    a, b, c = (tack.zeros((1,)) for _ in range(3))
    tack.launch(1, three, a, b, c)
    k = 20000 if quick else 200000
    t = []
    for _ in range(5):
        t0 = time.perf_counter()
        for _ in range(k):
            tack.launch(1, three, a, b, c)
        t.append((time.perf_counter() - t0) / k)
    out = {"tack": statistics.median(t)}
    try:
        import numba

        @numba.njit
        def nb_three(a, b, c):
            for i in range(a.shape[0]):
                a[i] = b[i] + c[i]

        na, nb_, nc = (np.zeros(1, np.float32) for _ in range(3))
        nb_three(na, nb_, nc)
        t0 = time.perf_counter()
        for _ in range(k):
            nb_three(na, nb_, nc)
        out["numba"] = (time.perf_counter() - t0) / k
    except ImportError:
        pass
    try:
        import warp as wp
        wp.config.quiet = True
        wp.init()

        @wp.kernel
        def wp_three(a: wp.array(dtype=wp.float32), b: wp.array(dtype=wp.float32),
                     c: wp.array(dtype=wp.float32)):
            i = wp.tid()
            a[i] = b[i] + c[i]

        wa, wb, wc = (wp.zeros(1, dtype=wp.float32, device="cpu") for _ in range(3))
        wp.launch(wp_three, dim=1, inputs=[wa, wb, wc], device="cpu")
        kw = k // 10
        t0 = time.perf_counter()
        for _ in range(kw):
            wp.launch(wp_three, dim=1, inputs=[wa, wb, wc], device="cpu")
        out["warp"] = (time.perf_counter() - t0) / kw
    except ImportError:
        pass
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--json")
    ap.add_argument("--child", type=int)
    args = ap.parse_args()
    if args.child:
        print(json.dumps(speed_child(args.child, args.quick)))
        return
    results = {"cpu": cpu_name(), "cores": os.cpu_count(), "python": platform.python_version()}
    results["speed"] = {}
    for threads in (1, 2):
        env = dict(os.environ, TACK_NUM_THREADS=str(threads), OMP_NUM_THREADS=str(threads),
                   NUMBA_NUM_THREADS=str(threads))
        cmd = [sys.executable, __file__, "--child", str(threads)] + (["--quick"] if args.quick
                                                                      else [])
        r = subprocess.run(cmd, capture_output=True, text=True, env=env)
        if r.returncode != 0:
            print(r.stderr[-3000:], file=sys.stderr)
            sys.exit(1)
        results["speed"][threads] = json.loads(r.stdout.strip().splitlines()[-1])
    results["compile"] = compile_figures()
    results["launch"] = launch_overhead(args.quick)
    print_report(results)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=1)


def print_report(r):
    print(f"CPU: {r['cpu']}, {r['cores']} cores, Python {r['python']}")
    for threads, s in r["speed"].items():
        cpp = s["cpp"]
        for name, goal_cpp in (("triad", 1.05), ("normalize_soa", 1.05), ("permutation_sum", 1.05)):
            t = s[name][0]
            line = f"{threads} thread(s) {name:16s} tack.kernel {t * 1e3:8.3f} ms"
            if "skipped" not in cpp:
                ratio = t / cpp[name][0]
                line += (f" | C++ tack::launch {cpp[name][0] * 1e3:8.3f} ms, ratio {ratio:5.2f} "
                         f"(goal <= {goal_cpp}) {'met' if ratio <= goal_cpp else 'MISSED'}")
            for peer, p in s["peers"].items():
                if "skipped" in p:
                    continue
                pr = t / p[name][0]
                line += (f" | {peer} {p[name][0] * 1e3:8.3f} ms, ratio {pr:5.2f} (goal <= 1.0) "
                         f"{'met' if pr <= 1.0 else 'MISSED'}")
            print(line)
        for peer, p in s["peers"].items():
            if "skipped" in p:
                print(f"{threads} thread(s) {peer}: skipped: {p['skipped']}")
    c = r["compile"]
    print(f"first launch, cold cache: {c['first_launch_cold']:.3f} s (goal <= 1.0 s) "
          f"{'met' if c['first_launch_cold'] <= 1.0 else 'MISSED'}")
    print(f"further variant: {c['further_variant']:.3f} s, a second kernel: "
          f"{c['second_kernel']:.3f} s (goal <= 0.4 s) "
          f"{'met' if max(c['further_variant'], c['second_kernel']) <= 0.4 else 'MISSED'}")
    print(f"in a later process: a new kernel "
          f"{c['new_kernel_later']:.3f} s, a new variant {c['new_variant_later']:.3f} s "
          f"(goal <= 0.4 s) "
          f"{'met' if max(c['new_kernel_later'], c['new_variant_later']) <= 0.4 else 'MISSED'}")
    print(f"cached variant in a new process: {c['cached_load_new_process'] * 1e3:.2f} ms "
          f"(goal <= 10 ms) {'met' if c['cached_load_new_process'] <= 0.01 else 'MISSED'}")
    print(f"disk per variant: {c['max_bytes_per_variant']} bytes (goal <= 1 MB)")
    ln = r["launch"]
    print(f"launch overhead, 3 arrays, n = 1: tack {ln['tack'] * 1e6:.2f} us (goal <= 3 us) "
          f"{'met' if ln['tack'] <= 3e-6 else 'MISSED'}"
          + "".join(f", {k} {v * 1e6:.2f} us" for k, v in ln.items() if k != "tack"))


if __name__ == "__main__":
    main()
