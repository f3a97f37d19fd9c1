# SPDX-License-Identifier: BSD-3-Clause
"""Runs every benchmark suite and merges the results into one file a report can be made from.

    python benchmarks/run.py [--quick] [--build build/bench] [--out PATH] [--suites cpp,mpi,...]
    python benchmarks/run.py --gpu JSON...  (scripts/gpu-check: its Google Benchmark files)

Suites: `cpp` (every bench_* executable through scripts/run-benchmarks), `native` (the
implicit-array sums built with -march=native, from <build>-native), `mpi` (benchmarks/mpi
under mpirun, 2 ranks), `python` (bench_python.py: tack against NumPy and numexpr, at 1 and at
all threads), `kernels` (bench_kernels.py: tack.kernel against C++, Numba, Warp). The output,
`benchmarks/results/<host-label>.json`, holds the machine (lscpu's CPU, cores, load averages
before and after, compiler), the versions of tack and of every peer (or why a peer is absent), and
per benchmark every repetition's time with its median, minimum and maximum. `--quick` uses fewer
repetitions, shorter runs and smaller sizes (what `make bench-quick` runs).
benchmarks/report.py turns the file into docs/performance.md.
"""

import argparse
import datetime
import glob
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
VENV_PY = os.path.join(ROOT, "build", "venv", "bin", "python")
SCALE = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}


def sh(cmd, **kw):
    """stdout of `cmd` (a list), or "" when it cannot run."""
    try:
        return subprocess.run(cmd, capture_output=True, text=True, **kw).stdout.strip()
    except OSError:
        return ""


def loadavg():
    with open("/proc/loadavg") as f:
        return [float(x) for x in f.read().split()[:3]]


def lscpu():
    """lscpu's fields as a dict."""
    out = {}
    for line in sh(["lscpu"]).splitlines():
        k, _, v = line.partition(":")
        out[k.strip()] = v.strip()
    return out


def host_label(cpu):
    """A stable name for a kind of machine: vendor, model name, family/model, logical CPUs."""
    name = re.sub(r"\(r\)|\(tm\)|processor|cpu|\d+-core", "", cpu.get("Model name", "cpu").lower())
    name = "-".join(re.findall(r"[a-z0-9]+", name))[:32] or "cpu"
    return f"{name}-f{cpu.get('CPU family', '?')}m{cpu.get('Model', '?')}-{os.cpu_count()}cpu"


def cmake_cache(build):
    out = {}
    try:
        with open(os.path.join(build, "CMakeCache.txt")) as f:
            for line in f:
                m = re.match(r"([A-Za-z_0-9]+):[A-Z]+=(.*)", line)
                if m:
                    out[m.group(1)] = m.group(2)
    except OSError:
        pass
    return out


def machine(build):
    """The machine and the build: what a reader needs to know which figures may carry over."""
    cpu = lscpu()
    cache = cmake_cache(build)
    cxx = cache.get("CMAKE_CXX_COMPILER") or shutil.which("c++") or "c++"
    version = re.search(r"project\(tack VERSION ([0-9.]+)", open(os.path.join(ROOT, "CMakeLists.txt")).read())
    flags = cpu.get("Flags", "").split()
    return {
        "label": host_label(cpu),
        "cpu": cpu.get("Model name", "unknown"),
        "cpu_family": cpu.get("CPU family"),
        "cpu_model": cpu.get("Model"),
        "vector_isa": [f for f in ("avx2", "avx512f", "avx512dq") if f in flags],
        "cores": os.cpu_count(),
        "threads_per_core": cpu.get("Thread(s) per core"),
        "l3": cpu.get("L3 cache"),
        "kernel": os.uname().release,
        "compiler": (sh([cxx, "--version"]).splitlines() or ["unknown"])[0],
        "cxx_flags": (cache.get("CMAKE_CXX_FLAGS_RELEASE", "") + " " +
                      cache.get("CMAKE_CXX_FLAGS", "")).strip(),
        "bench_march": cache.get("TACK_BENCH_MARCH", ""),
        "tack_version": version.group(1) if version else "unknown",
        "commit": sh(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"]),
        "dirty": bool(sh(["git", "-C", ROOT, "status", "--porcelain", "--untracked-files=no"])),
        "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
    }


def dpkg_version(pkg):
    v = sh(["dpkg-query", "-W", "-f=${Version}", pkg])
    return v or None


def python_versions(py):
    """Versions of the Python peers as the benchmark interpreter sees them."""
    code = ("import json, importlib, sys\nout = {'python': sys.version.split()[0]}\n"
            "for m in ('numpy', 'numexpr', 'numba', 'warp', 'tack'):\n"
            "    try:\n        mod = importlib.import_module(m)\n"
            "        out[m] = getattr(mod, '__version__', None) or getattr(getattr(mod, 'config', None), 'version', '?')\n"
            "    except Exception as e:\n        out[m] = {'skipped': f'{m} does not import ({type(e).__name__}: {e})'}\n"
            "print(json.dumps(out))")
    try:
        return json.loads(sh([py, "-c", code]) or "{}")
    except ValueError:
        return {}


def peers(build, py):
    """Every peer: {"version": ...} when present, {"skipped": reason} when not."""
    def deb(pkg, what):
        v = dpkg_version(pkg)
        return {"version": v, "source": f"Debian {pkg}"} if v else {
            "skipped": f"{pkg} is not installed ({what}); `make bench` installs it as root"}

    out = {
        "std": {"version": (sh(["g++", "--version"]).splitlines() or ["?"])[0],
                "source": "libstdc++ and hand-written loops over raw pointers (same run)"},
        "eigen": deb("libeigen3-dev", "Eigen 3.4, vector and matrix arithmetic"),
        "thrust": deb("libthrust-dev", "Thrust with its OpenMP backend"),
        "kokkos": deb("libtrilinos-kokkos-dev", "Kokkos, Serial backend"),
        "google_benchmark": deb("libbenchmark-dev", "the C++ harness"),
        "amr_baseline": {"version": "tack::amr::baseline (this repository)",
                         "source": "separate box arrays, concatenated per level and copied back"},
        "dd": {"version": (sh(["dd", "--version"]).splitlines() or ["?"])[0],
               "source": "a dd-style loop in the benchmark (1 MiB blocks, as `dd bs=1M`)"},
    }
    mpi = sh(["mpirun", "--version"]).splitlines()
    out["mpi"] = {"version": mpi[0], "source": "bare MPI_Sendrecv"} if mpi else {
        "skipped": "mpirun not found (Debian openmpi-bin)"}
    if not glob.glob(os.path.join(build, "benchmarks", "mpi", "mpi_bench_*")):
        out["mpi"] = {"skipped": "tack was built without MPI (no mpi_bench_* in the build)"}
    pv = python_versions(py) if py else {}
    for m, src in (("numpy", "PyPI numpy"), ("numexpr", "PyPI numexpr"), ("numba", "PyPI numba"),
                   ("warp", "PyPI warp-lang, CPU kernels")):
        v = pv.get(m)
        out[m] = v if isinstance(v, dict) else ({"version": v, "source": src} if v else
                                                  {"skipped": "no Python interpreter with tack"})
    out["python"] = {"version": pv.get("python", "?")}
    out["tack_python"] = pv.get("tack") if isinstance(pv.get("tack"), dict) else {"version": pv.get("tack")}
    return out


# ---- Google Benchmark JSON -> samples --------------------------------------------------------------

def clean_name(name):
    """`group:variant/arg/real_time` -> `group:variant/arg` (drops the harness's own suffixes)."""
    parts = [p for p in name.split("/") if not re.match(
        r"(real_time|manual_time|iterations:\d+|min_time:[\d.]+|repeats:\d+|threads:\d+)$", p)]
    return "/".join(parts)


def samples_of(path, suite):
    """{name: record} from one Google Benchmark JSON file: every repetition's time in seconds
    and the counters (median over the repetitions)."""
    with open(path) as f:
        data = json.load(f)
    runs = {}
    for b in data.get("benchmarks", []):
        name = clean_name(b.get("run_name", b["name"]))
        if b.get("error_occurred"):
            runs[name] = {"suite": suite, "skipped": b.get("error_message", "error")}
            continue
        if b.get("run_type") == "aggregate":
            continue
        r = runs.setdefault(name, {"suite": suite, "times": [], "counters": {}})
        r["times"].append(b["real_time"] * SCALE[b.get("time_unit", "ns")])
        for k, v in b.items():
            if k in ("name", "run_name", "run_type", "repetitions", "repetition_index", "threads",
                     "iterations", "real_time", "cpu_time", "time_unit", "family_index",
                     "per_family_instance_index", "label", "aggregate_name", "aggregate_unit"):
                continue
            if isinstance(v, (int, float)):
                r["counters"].setdefault(k, []).append(v)
        r.setdefault("cpu_share", []).append(b["cpu_time"] / b["real_time"] if b["real_time"] else 0)
    for r in runs.values():
        finish(r)
    return runs


def finish(r):
    """Adds median/min/max of the times and reduces counter lists to their medians."""
    if "times" in r and r["times"]:
        r["median"] = statistics.median(r["times"])
        r["min"], r["max"] = min(r["times"]), max(r["times"])
    for k, v in list(r.get("counters", {}).items()):
        if isinstance(v, list):
            r["counters"][k + "_samples"] = v
            r["counters"][k] = statistics.median(v)
    if isinstance(r.get("cpu_share"), list) and r["cpu_share"]:
        r["cpu_share"] = statistics.median(r["cpu_share"])
    return r


# ---- suites ------------------------------------------------------------------------------------------

def run_cpp(build, quick, tmp, log):
    """Every bench_* executable through scripts/run-benchmarks (its JSON keeps the repetitions)."""
    out = os.path.join(tmp, "cpp")
    env = dict(os.environ, TACK_BENCH_OUT=out)
    env.setdefault("TACK_BENCH_REPS", "3" if quick else "5")
    env.setdefault("TACK_BENCH_MIN_TIME", "0.05" if quick else "0.3")
    if quick:  # the AMR hierarchy at a tenth of its boxes
        env.setdefault("TACK_AMR_BENCH_SCALE", "0.1")
    # quick: no prototypes, and none of the sorts no goal reads (a third of the suite's time)
    filt = os.environ.get("TACK_BENCH_FILTER", "-proto_|sort_t1|nan_last|sort_comp_t2" if quick else "")
    cmd = [os.path.join(ROOT, "scripts", "run-benchmarks"), build] + ([filt] if filt else [])
    subprocess.run(cmd, env=env, stdout=log, stderr=subprocess.STDOUT)
    runs = {}
    for path in sorted(glob.glob(os.path.join(out, "bench_*.json"))):
        try:
            runs.update(samples_of(path, "cpp"))
        except (OSError, ValueError) as e:
            print(f"run.py: {path} unreadable ({e})", file=log)
    return runs, {"repetitions": int(env["TACK_BENCH_REPS"]), "min_time_s": float(env["TACK_BENCH_MIN_TIME"]),
                  "filter": filt}


def run_native(build, quick, tmp, log):
    """The implicit-array sums again from a build with `-march=native` (<build>-native, configured
    with TACK_BENCH_MARCH=native): code generation differs by CPU there (names get "native.")."""
    exe = os.path.join(build + "-native", "benchmarks", "bench_arrays_implicit")
    if not os.path.exists(exe):
        return {}, {"skipped": f"no {exe} (make bench builds it)"}
    js = os.path.join(tmp, "native.json")
    cmd = [exe, "--benchmark_filter=sum_transform_counting", f"--benchmark_out={js}",
           "--benchmark_out_format=json", "--benchmark_repetitions=" + ("3" if quick else "5"),
           "--benchmark_min_time=" + ("0.1" if quick else "0.3"),
           "--benchmark_display_aggregates_only=true", "--benchmark_enable_random_interleaving=true"]
    print("== " + " ".join(cmd), file=log, flush=True)
    subprocess.run(cmd, stdout=log, stderr=subprocess.STDOUT)
    try:
        runs = {"native." + k: r for k, r in samples_of(js, "native").items()}
    except (OSError, ValueError) as e:
        return {}, {"skipped": f"{exe} wrote no results ({e})"}
    return runs, {"march": "native"}


def run_mpi(build, quick, tmp, log, ranks=2):
    """The MPI benchmarks under mpirun (2 ranks, one thread each): ghost exchange against bare
    MPI_Sendrecv, AMR fill, reductions, the stencil step."""
    exes = sorted(glob.glob(os.path.join(build, "benchmarks", "mpi", "mpi_bench_*")))
    if not exes or not shutil.which("mpirun"):
        return {}, {"skipped": "no MPI benchmarks in the build or no mpirun"}
    env = dict(os.environ, OMP_NUM_THREADS="1", TACK_NUM_THREADS="1",
               OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
               OMPI_MCA_mpi_yield_when_idle="1")
    reps = "2" if quick else "3"
    runs = {}
    for exe in exes:
        name = os.path.basename(exe)
        js = os.path.join(tmp, name + ".json")
        cmd = ["mpirun", "--oversubscribe", "-np", str(ranks), exe, f"--benchmark_out={js}",
               "--benchmark_out_format=json", f"--benchmark_repetitions={reps}",
               "--benchmark_display_aggregates_only=true"]
        print("== " + " ".join(cmd), file=log, flush=True)
        try:
            subprocess.run(cmd, env=env, stdout=log, stderr=subprocess.STDOUT, timeout=600)
            for k, r in samples_of(js, "mpi").items():
                runs[f"mpi.{name[len('mpi_bench_'):]}.{k}"] = r
        except (OSError, ValueError, subprocess.TimeoutExpired) as e:
            print(f"run.py: {name} failed ({e})", file=log)
    return runs, {"ranks": ranks, "repetitions": int(reps), "threads_per_rank": 1}


def run_python(py, quick, tmp, log):
    """bench_python.py at 1 thread and at every core, each in its own process (tack and numexpr
    fix their thread count at import)."""
    runs = {}
    for t in sorted({1, os.cpu_count()}):
        js = os.path.join(tmp, f"python_t{t}.json")
        env = dict(os.environ, TACK_NUM_THREADS=str(t), OMP_NUM_THREADS=str(t),
                   NUMEXPR_NUM_THREADS=str(t), NUMEXPR_MAX_THREADS=str(t))
        cmd = [py, os.path.join(HERE, "python", "bench_python.py"), "--json", js, "--threads", str(t)]
        if quick:
            cmd.append("--quick")
        print("== " + " ".join(cmd), file=log, flush=True)
        subprocess.run(cmd, env=env, stdout=log, stderr=subprocess.STDOUT)
        try:
            with open(js) as f:
                for k, r in json.load(f)["benchmarks"].items():
                    r["suite"] = "python"
                    runs[k] = finish(r)
        except (OSError, ValueError) as e:
            print(f"run.py: bench_python.py at {t} threads wrote nothing ({e})", file=log)
    return runs, {"threads": sorted({1, os.cpu_count()})}


def run_kernels(py, quick, tmp, log):
    """bench_kernels.py (tack.kernel against C++ tack::launch, Numba and Warp), as records."""
    js = os.path.join(tmp, "kernels.json")
    cmd = [py, os.path.join(HERE, "python", "bench_kernels.py"), "--json", js] + (["--quick"] if quick else [])
    print("== " + " ".join(cmd), file=log, flush=True)
    subprocess.run(cmd, stdout=log, stderr=subprocess.STDOUT)
    try:
        with open(js) as f:
            k = json.load(f)
    except (OSError, ValueError) as e:
        return {}, {"skipped": f"bench_kernels.py wrote no results ({e})"}
    runs, info = {}, {"skipped_peers": {}}

    def rec(name, v):
        if isinstance(v, (list, tuple)):  # (median, min, max[, times])
            r = {"suite": "kernels", "median": v[0], "min": v[1], "max": v[2]}
            if len(v) > 3:
                r["times"] = list(v[3])
            runs[name] = r
        elif isinstance(v, (int, float)):
            runs[name] = {"suite": "kernels", "median": v, "min": v, "max": v, "times": [v]}

    for threads, s in k.get("speed", {}).items():
        for kern in ("triad", "normalize_soa", "permutation_sum"):
            g = f"py_kernel_{kern}_t{threads}"
            rec(f"{g}:tack_kernel", s.get(kern))
            cpp = s.get("cpp", {})
            if "skipped" in cpp:
                info["skipped_peers"]["cpp"] = cpp["skipped"]
            else:
                rec(f"{g}:ref_cpp_launch", cpp.get(kern))
            for peer, p in s.get("peers", {}).items():
                if "skipped" in p:
                    info["skipped_peers"][f"{peer}_t{threads}"] = p["skipped"]
                else:
                    rec(f"{g}:ref_{peer}", p.get(kern))
    for key, v in k.get("compile", {}).items():
        if isinstance(v, (int, float)):
            runs[f"py_kernel_compile:{key}"] = {"suite": "kernels", "median": v, "min": v, "max": v,
                                                "times": [v]}
    for who, v in k.get("launch", {}).items():
        runs[f"py_kernel_launch_overhead:{'tack' if who == 'tack' else 'ref_' + who}"] = {
            "suite": "kernels", "median": v, "min": v, "max": v, "times": [v]}
    return runs, info


def merge_gpu(paths, out, vendor="cuda"):
    """scripts/gpu-check: its Google Benchmark files as a GPU results file (`vendor`: cuda or hip)."""
    res = {"kind": "gpu", "vendor": vendor,
           "machine": machine(os.path.join(ROOT, "build", vendor)), "benchmarks": {}}
    if vendor == "hip":
        info = sh(["rocminfo"])
        names = re.findall(r"Marketing Name:\s*(.+)", info or "")
        gpus = [n.strip() for n in names if "CPU" not in n and n.strip()]
        res["machine"]["gpu"] = gpus[0] if gpus else (re.findall(r"gfx[0-9a-f]+", info or "") or ["?"])[0]
        res["machine"]["hip"] = (sh(["hipcc", "--version"]).splitlines() or ["?"])[0]
    else:
        res["machine"]["gpu"] = sh(["nvidia-smi", "--query-gpu=name,driver_version", "--format=csv,noheader"])
        res["machine"]["cuda"] = (sh(["nvcc", "--version"]).splitlines() or ["?"])[-1]
    for p in paths:
        for k, r in samples_of(p, "gpu").items():
            res["benchmarks"][k] = r
    label = re.sub(r"[^a-z0-9]+", "-", (res["machine"]["gpu"] or "gpu").split(",")[0].lower()).strip("-")
    out = out or os.path.join(HERE, "results", f"gpu-{label}.json")
    os.makedirs(os.path.dirname(out), exist_ok=True)
    with open(out, "w") as f:
        json.dump(res, f, indent=1, sort_keys=True)
    print(f"run.py: GPU results in {out}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true", help="fewer repetitions, smaller sizes")
    ap.add_argument("--build", default=os.path.join(ROOT, "build", "bench"))
    ap.add_argument("--python", default=VENV_PY if os.path.exists(VENV_PY) else sys.executable)
    ap.add_argument("--out", help="default benchmarks/results/<host-label>.json")
    ap.add_argument("--suites", default="cpp,native,mpi,python,kernels")
    ap.add_argument("--gpu", nargs="+", help="merge gpu-check's Google Benchmark JSON files")
    ap.add_argument("--vendor", default="cuda", choices=["cuda", "hip"],
                    help="the GPU vendor of --gpu's files (scripts/gpu-check --hip: hip)")
    args = ap.parse_args()
    if args.gpu:
        return merge_gpu(args.gpu, args.out, args.vendor)
    build = os.path.abspath(args.build)
    res = {"kind": "cpu", "quick": args.quick, "machine": machine(build),
           "load_before": loadavg(), "suites": {}, "benchmarks": {},
           # the default thread count; groups named *_t1 / *_t2 set their own, and the Python suites
           # run at 1 thread and at every core
           "threads": int(os.environ.get("TACK_NUM_THREADS") or os.environ.get("OMP_NUM_THREADS")
                          or os.cpu_count())}
    res["peers"] = peers(build, args.python)
    out = args.out or os.path.join(HERE, "results", res["machine"]["label"] + ".json")
    tmp = tempfile.mkdtemp(prefix="tack-bench-")
    log_path = os.path.join(tmp, "run.log")
    print(f"run.py: {res['machine']['cpu']}, {res['machine']['cores']} cores, load average "
          f"{res['load_before']}; log {log_path}", flush=True)
    suites = {"cpp": lambda log: run_cpp(build, args.quick, tmp, log),
              "native": lambda log: run_native(build, args.quick, tmp, log),
              "mpi": lambda log: run_mpi(build, args.quick, tmp, log),
              "python": lambda log: run_python(args.python, args.quick, tmp, log),
              "kernels": lambda log: run_kernels(args.python, args.quick, tmp, log)}
    with open(log_path, "w") as log:
        for name in args.suites.split(","):
            t0, l0 = time.time(), loadavg()
            print(f"run.py: suite {name} ...", flush=True)
            runs, info = suites[name](log)
            info.update({"seconds": round(time.time() - t0, 1), "load_before": l0, "load_after": loadavg(),
                         "benchmarks": len(runs)})
            res["suites"][name] = info
            res["benchmarks"].update(runs)
            print(f"run.py: suite {name}: {len(runs)} benchmarks in {info['seconds']} s", flush=True)
    res["load_after"] = loadavg()
    os.makedirs(os.path.dirname(out), exist_ok=True)
    with open(out, "w") as f:
        json.dump(res, f, indent=1, sort_keys=True)
    print(f"run.py: {len(res['benchmarks'])} benchmarks in {out} (log {log_path})")


if __name__ == "__main__":
    main()
