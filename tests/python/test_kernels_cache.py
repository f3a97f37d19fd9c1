# SPDX-License-Identifier: BSD-3-Clause
"""The compiled-kernel cache (in memory and on disk, TACK_KERNEL_CACHE), its safety rules,
recompiling after an edit, launches from several threads and processes at once, and the
generated C++/CUDA source (compiled with nvcc where one is installed)."""

import importlib
import json
import os
import shutil
import stat
import subprocess
import sys
import textwrap
import threading
import time

import numpy as np
import pytest

import tack
from tack import arrays as ta

# ---- kernels of this process ---------------------------------------------------------------------

_ext = None  # the module call_ext calls into; set by the test that edits it


@tack.kernel
def call_ext(i, out, x):
    out[i] = _ext.scale(x[i])


@tack.kernel
def axpy(i, out, x, a):
    out[i] = a * x[i] + i


@tack.kernel
def cache_probe(i, out, x):
    out[i] = x[i] * 3.0 - 1.0


@tack.kernel
def soa_copy(i, out, src):
    out[i] = src[i] * 2.0


@tack.kernel
def atomics_k(i, bins, acc, data, v):
    tack.atomic_add(bins, data[i], 1)
    tack.atomic_max(acc, 0, v[i])


@tack.kernel
def grid_math(i, j, a, s):
    a[i, j] = tack.sqrt(float(i * j)) + tack.sin(s * j) + i // 2 - j % 3


@tack.kernel
def computed_k(i, out, grid, points, noise, bits):
    out[i] = grid[i] + points[i] * noise[i] + float(bits[i] % 7)


@tack.device_class
class Offset:
    def __init__(self, a, start):
        self.a, self.start = a, start

    @tack.func
    def __getitem__(self, k):
        return self.a[self.start + k]

    @tack.func
    def __setitem__(self, k, v):
        self.a[self.start + k] = v

    @tack.func
    def __len__(self):
        return len(self.a) - self.start


# ---- helpers for fresh processes -----------------------------------------------------------------

_MODULE = textwrap.dedent("""\
    import tack


    @tack.kernel
    def fill(i, out, s):
        out[i] = s * i + 0.5
""")

_SCRIPT = textwrap.dedent("""\
    import json, sys
    sys.path.insert(0, sys.argv[1])
    import numpy as np
    import tack
    import kmod

    result = {}
    try:
        out = tack.zeros(100, tack.f64)
        tack.launch(100, kmod.fill, out, 2.0)
        result["ok"] = bool(np.array_equal(out.numpy(), 2.0 * np.arange(100) + 0.5))
    except PermissionError as e:
        result["permission_error"] = str(e)
    result["stats"] = tack.kernels.stats()
    result["dir"] = str(tack.kernels.cache_dir())
    print(json.dumps(result))
""")


def _env(cache):
    env = dict(os.environ)
    env.pop("TACK_DEBUG", None)
    env["TACK_KERNEL_CACHE"] = str(cache)
    return env


def _module_dir(tmp_path):
    d = tmp_path / "mod"
    d.mkdir(exist_ok=True)
    (d / "kmod.py").write_text(_MODULE)
    return d


def _run(tmp_path, cache, env=None):
    proc = subprocess.run([sys.executable, "-c", _SCRIPT, str(_module_dir(tmp_path))],
                          env=env or _env(cache), capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return json.loads(proc.stdout.strip().splitlines()[-1])


def _so_files(cache):
    return [os.path.join(d, f) for d, _, files in os.walk(cache) for f in files if f.endswith(".so")]


# ---- the cache in this process -------------------------------------------------------------------

def test_stats_and_cache_dir():
    s = tack.kernels.stats()
    for key in ("compiles", "disk_loads", "memory_hits"):
        assert isinstance(s[key], int) and s[key] >= 0
    d = str(tack.kernels.cache_dir())
    want = os.environ.get("TACK_KERNEL_CACHE") or os.path.join(os.path.expanduser("~"), ".cache",
                                                               "tack", "kernels")
    assert os.path.abspath(d) == os.path.abspath(want)


def test_memory_hits_and_clear_memory():
    x = tack.array(np.arange(5.0))
    out = tack.zeros(5, tack.f64)
    tack.launch(5, cache_probe, out, x)  # compiled, or loaded from disk
    s0 = tack.kernels.stats()
    tack.launch(5, cache_probe, out, x)
    s1 = tack.kernels.stats()
    assert s1["memory_hits"] == s0["memory_hits"] + 1
    assert s1["compiles"] == s0["compiles"] and s1["disk_loads"] == s0["disk_loads"]
    tack.kernels.clear_memory()
    out.fill(0)
    tack.launch(5, cache_probe, out, x)
    s2 = tack.kernels.stats()
    assert s2["disk_loads"] == s1["disk_loads"] + 1
    assert s2["compiles"] == s1["compiles"]
    np.testing.assert_array_equal(out.numpy(), np.arange(5.0) * 3 - 1)


def test_editing_a_func_in_another_module_recompiles(tmp_path, monkeypatch):
    global _ext
    nonce = f"{os.getpid()}{time.time_ns() % 10**9}"
    name = f"tack_edited_{nonce}"
    path = tmp_path / f"{name}.py"
    body = "import tack\n\n\n@tack.func\ndef scale(x):\n    return {}\n"
    path.write_text(body.format(f"x * 2.0 + {nonce}.0"))
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(sys, "dont_write_bytecode", True)
    importlib.invalidate_caches()
    module = importlib.import_module(name)
    try:
        _ext = module
        x = tack.array(np.array([1.0, 2.0, 3.0]))
        out = tack.zeros(3, tack.f64)
        tack.launch(3, call_ext, out, x)
        np.testing.assert_array_equal(out.numpy(), [2.0 + int(nonce), 4.0 + int(nonce), 6.0 + int(nonce)])
        before = tack.kernels.stats()["compiles"]
        path.write_text(body.format(f"x * 3.0 + {nonce}.0 - 100.0"))  # another size: no stale reload
        importlib.reload(module)
        tack.launch(3, call_ext, out, x)
        np.testing.assert_array_equal(out.numpy(),
                                      [3.0 + int(nonce) - 100, 6.0 + int(nonce) - 100, 9.0 + int(nonce) - 100])
        assert tack.kernels.stats()["compiles"] > before
    finally:
        _ext = None
        sys.modules.pop(name, None)


def test_threads_launching_at_once():
    n, errors = 257, []

    def work(t):
        try:
            x = tack.array(np.arange(n, dtype=np.float64) * (t + 1))
            out = tack.zeros(n, tack.f64)
            for k in range(50):
                a = float(t * 100 + k)
                tack.launch(n, axpy, out, x, a)
                want = a * (np.arange(n) * (t + 1)) + np.arange(n)
                if not np.array_equal(out.numpy(), want):
                    errors.append((t, k))
        except Exception as e:  # noqa: BLE001  (reported below)
            errors.append((t, repr(e)))

    threads = [threading.Thread(target=work, args=(t,)) for t in range(4)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert not errors, errors[:5]


# ---- the disk cache, in fresh processes ----------------------------------------------------------

def test_a_second_process_loads_from_disk(tmp_path):
    cache = tmp_path / "cache"  # created by tack
    first = _run(tmp_path, cache)
    assert first["ok"] and first["stats"]["compiles"] >= 1 and first["stats"]["disk_loads"] == 0
    assert os.path.abspath(first["dir"]) == os.path.abspath(cache)
    assert stat.S_IMODE(os.stat(cache).st_mode) == 0o700
    assert _so_files(cache)
    second = _run(tmp_path, cache)
    assert second["ok"] and second["stats"]["compiles"] == 0 and second["stats"]["disk_loads"] >= 1


def test_default_cache_dir_is_under_home(tmp_path):
    env = _env(tmp_path)
    del env["TACK_KERNEL_CACHE"]
    env.pop("XDG_CACHE_HOME", None)
    env["HOME"] = str(tmp_path / "home")
    result = _run(tmp_path, None, env=env)
    assert result["ok"]
    want = tmp_path / "home" / ".cache" / "tack" / "kernels"
    assert os.path.abspath(result["dir"]) == os.path.abspath(want)
    assert want.is_dir() and stat.S_IMODE(os.stat(want).st_mode) == 0o700


def test_a_cache_writable_by_others_is_refused(tmp_path):
    cache = tmp_path / "cache"
    assert _run(tmp_path, cache)["ok"]  # populated
    os.chmod(cache, 0o777)
    try:
        result = _run(tmp_path, cache)
        assert "ok" not in result, "a world-writable cache was used"
        assert str(cache) in result["permission_error"], result["permission_error"]
        assert result["stats"]["disk_loads"] == 0
    finally:
        os.chmod(cache, 0o700)
    again = _run(tmp_path, cache)
    assert again["ok"] and again["stats"]["compiles"] == 0


def test_a_cache_writable_by_the_group_is_refused(tmp_path):
    cache = tmp_path / "cache"
    cache.mkdir(mode=0o700)
    os.chmod(cache, 0o770)
    result = _run(tmp_path, cache)
    assert "ok" not in result and str(cache) in result["permission_error"]


def test_a_symlink_to_a_world_writable_directory_is_refused(tmp_path):
    target = tmp_path / "open"
    target.mkdir()
    os.chmod(target, 0o777)
    link = tmp_path / "link"
    link.symlink_to(target)
    result = _run(tmp_path, link)
    assert "ok" not in result and "permission_error" in result
    assert not os.listdir(target)  # nothing written there either


def test_a_corrupted_cache_entry_is_rebuilt(tmp_path):
    cache = tmp_path / "cache"
    assert _run(tmp_path, cache)["ok"]
    files = _so_files(cache)
    assert files
    for f in files:
        size = os.path.getsize(f)
        with open(f, "r+b") as fh:
            fh.truncate(max(size // 3, 1))
    rebuilt = _run(tmp_path, cache)
    assert rebuilt["ok"] and rebuilt["stats"]["compiles"] >= 1
    third = _run(tmp_path, cache)
    assert third["ok"] and third["stats"]["compiles"] == 0 and third["stats"]["disk_loads"] >= 1


def test_a_garbage_cache_entry_is_rebuilt(tmp_path):
    cache = tmp_path / "cache"
    assert _run(tmp_path, cache)["ok"]
    for f in _so_files(cache):
        with open(f, "wb") as fh:
            fh.write(b"\x7fELF not really a shared library" * 10)
    rebuilt = _run(tmp_path, cache)
    assert rebuilt["ok"] and rebuilt["stats"]["compiles"] >= 1


def test_processes_compiling_the_same_kernel_at_once(tmp_path):
    cache = tmp_path / "cache"
    mod = str(_module_dir(tmp_path))
    procs = [subprocess.Popen([sys.executable, "-c", _SCRIPT, mod], env=_env(cache),
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for _ in range(3)]
    for p in procs:
        out, err = p.communicate(timeout=300)
        assert p.returncode == 0, err[-3000:]
        assert json.loads(out.strip().splitlines()[-1])["ok"]
    after = _run(tmp_path, cache)
    assert after["ok"] and after["stats"]["compiles"] == 0


_EDITED_MAIN = textwrap.dedent("""\
    import tack
    import khelp

    SCALE = {scale}


    @tack.device_class
    class C:
        FACTOR = {factor}

        def __init__(self, n):
            self.n = n

        @tack.func
        def __getitem__(self, k):
            return k * self.FACTOR


    @tack.kernel
    def k(i, out, c):
        out[i] = SCALE * i + c[i] + khelp.h(i)
""")

_EDITED_HELPER = "import tack\n\n\n@tack.func\ndef h(x):\n    return x * {mult}\n"

_EDITED_SCRIPT = textwrap.dedent("""\
    import json, sys
    sys.path.insert(0, sys.argv[1])
    import numpy as np
    import tack
    import kmain

    out = np.zeros(3)
    tack.launch(3, kmain.k, out, kmain.C(3))
    print(json.dumps(out.tolist()))
""")


def test_edits_between_processes_are_seen(tmp_path):
    # a new process with the same disk cache: an edited module constant, class attribute or
    # function in another module gives a new variant, never the stale one
    cache, d = tmp_path / "cache", tmp_path / "edited"
    d.mkdir()
    results = []
    for scale, factor, mult in ((1.0, 10, 100), (2.0, 10, 100), (2.0, 20, 100), (2.0, 20, 1000)):
        (d / "kmain.py").write_text(_EDITED_MAIN.format(scale=scale, factor=factor))
        (d / "khelp.py").write_text(_EDITED_HELPER.format(mult=mult))
        proc = subprocess.run([sys.executable, "-c", _EDITED_SCRIPT, str(d)], env=_env(cache),
                              capture_output=True, text=True, timeout=300)
        assert proc.returncode == 0, proc.stderr[-3000:]
        results.append(json.loads(proc.stdout.strip().splitlines()[-1]))
    assert results == [[0, 111, 222], [0, 112, 224], [0, 122, 244], [0, 1022, 2044]]


# ---- generated source ----------------------------------------------------------------------------

def _nvcc():
    found = shutil.which("nvcc")
    if found:
        return found
    return "/usr/local/cuda/bin/nvcc" if os.path.exists("/usr/local/cuda/bin/nvcc") else None


def _source_cases():
    soa = tack.zeros((8,), tack.vec3(), layout="soa")
    return [
        ("soa_copy", 8, soa_copy, (tack.zeros((8,), tack.vec3()), soa)),
        ("device_class", 4, soa_copy, (Offset(tack.zeros(8, tack.f64), 2),
                                       ta.Permutation(tack.array(np.arange(4)), tack.zeros(8, tack.f64)))),
        ("atomics", 16, atomics_k, (tack.zeros(4, tack.i32), tack.zeros(1, tack.f32),
                                    tack.array(np.arange(16) % 4), tack.ones(16))),
        ("grid_math", (3, 5), grid_math, (tack.zeros((3, 5), tack.f64), 0.5)),
        ("computed_arrays", 12, computed_k,
         (tack.zeros((12,), tack.vec3(tack.f64)),
          ta.UniformCoordinates((3, 2, 2), (0.0, 0.0, 0.0), (0.5, 1.0, 2.0), dtype=tack.f64),
          ta.CartesianProduct(tack.zeros(3, tack.f64), ta.CountingArray(2, dtype=tack.f64),
                              tack.ones(2, tack.f64)),
          ta.RandomNormal(12, 5), ta.RandomBits(12, 9))),
    ]


def test_kernel_headers_leave_out_the_heavy_standard_headers():
    # A small kernel's compile time is mostly parsing: the headers a kernel over stored arrays
    # includes stay clear of <string>, <iterator>, <stdexcept> and the like (about half of the
    # parse time). Atomics (<atomic>) and implicit arrays (their errors) add their own.
    from tack.kernels import build
    src = ("#include <tack/pykernel/runtime.hpp>\n#include <tack/view/view.hpp>\n"
           "#include <tack/view/soa_view.hpp>\n")
    r = subprocess.run([build.compiler(), "-std=c++20", "-H", "-fsyntax-only", "-x", "c++",
                        "-I", str(tack.kernels.include_dir()), "-"], input=src, text=True,
                       capture_output=True)
    assert r.returncode == 0, r.stderr[-2000:]
    included = {line.split()[-1].rsplit("/", 1)[-1] for line in r.stderr.splitlines()
                if line.startswith(".")}
    assert "view.hpp" in included and "soa_view.hpp" in included
    heavy = {"string", "iterator", "stdexcept", "string_view", "ios", "memory", "vector",
             "functional", "sstream"} & included
    assert not heavy, f"the kernel prelude includes {sorted(heavy)}"


def test_only_kernels_with_heavier_headers_use_the_precompiled_prelude():
    from tack.kernels import build
    light = tack.kernels.generated_source(soa_copy, 8, tack.zeros((8,), tack.vec3()),
                                          tack.zeros((8,), tack.vec3(), layout="soa"))
    assert build._light(light)
    for name, dims, kernel, args in _source_cases():
        if name in ("atomics", "computed_arrays"):
            assert not build._light(tack.kernels.generated_source(kernel, dims, *args)), name


def test_generated_source_is_text():
    for name, dims, kernel, args in _source_cases():
        cpu = tack.kernels.generated_source(kernel, dims, *args)
        gpu = tack.kernels.generated_source(kernel, dims, *args, cuda=True)
        assert isinstance(cpu, str) and isinstance(gpu, str) and cpu and gpu, name
        assert cpu != gpu, name
    # the same launches compile and run on the CPU
    name, n, kernel, args = _source_cases()[-1]
    tack.launch(n, kernel, *args)
    g, p, r, b = (a.numpy() for a in args[1:])
    np.testing.assert_array_equal(args[0].numpy(), g + p * r[:, None] + (b % 7)[:, None])
    out = tack.zeros((3, 5), tack.f64)
    tack.launch((3, 5), grid_math, out, 0.5)
    i, j = np.indices((3, 5))
    np.testing.assert_allclose(out.numpy(), np.sqrt(i * j) + np.sin(0.5 * j) + i // 2 - j % 3,
                               rtol=1e-14)


@pytest.mark.skipif(_nvcc() is None, reason="nvcc is not installed")
def test_generated_cuda_source_compiles_with_nvcc(tmp_path):
    nvcc = _nvcc()
    include = str(tack.kernels.include_dir())
    jobs = []
    for name, dims, kernel, args in _source_cases():
        src = tmp_path / f"{name}.cu"
        src.write_text(tack.kernels.generated_source(kernel, dims, *args, cuda=True))
        cmd = [nvcc, "-std=c++20", "-arch=sm_90", "--extended-lambda", "--expt-relaxed-constexpr",
               "-c", "-o", str(tmp_path / f"{name}.o"), "-I", include, str(src)]
        jobs.append((name, cmd))
    for k in range(0, len(jobs), 2):  # two compilers at a time
        # nvcc runs without a sanitizer runtime preloaded into this interpreter (make
        # test-sanitize preloads one; nvcc's own binaries crash under it)
        env = {key: v for key, v in os.environ.items() if key != "LD_PRELOAD"}
        running = [(name, subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                           text=True, env=env)) for name, cmd in jobs[k:k + 2]]
        for name, p in running:
            out, _ = p.communicate(timeout=600)
            assert p.returncode == 0, f"{name}:\n{out[-4000:]}"
            assert (tmp_path / f"{name}.o").stat().st_size > 0
