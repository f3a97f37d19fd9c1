# SPDX-License-Identifier: BSD-3-Clause
"""Compiling generated kernels, and the disk cache of compiled variants.

A variant's cache key hashes everything that changes its machine code: the generated source
(which holds every function the kernel calls, whatever module defines it), the boundary's
version, tack's version, the compiler and its flags, and the CPU the code is compiled for. An
entry is ``<key>.so`` with ``<key>.sha256`` beside it; both are written under temporary names
and renamed, so processes racing on one kernel never see a partial entry, and an entry whose
checksum does not match (a truncated file) is rebuilt. The cache loads code into the process, so
its directory must belong to the user and be writable by no one else.
"""

import ctypes
import hashlib
import os
import platform
import shutil
import stat
import subprocess
import tempfile
import threading

ABI_VERSION = 2
# -ffp-contract=off: `b + s * c` rounds twice, as NumPy computes it, instead of one fused
# multiply-add, so a kernel's floating-point results equal NumPy's bit for bit.
_FLAGS = ["-std=c++20", "-O3", "-fno-math-errno", "-ffp-contract=off", "-fPIC", "-shared",
          "-fvisibility=hidden", "-w", "-Wl,-z,defs"]
_lock = threading.Lock()
_state = {"compiler": None, "cpu": None, "dir": None}


def include_dir():
    """The directory holding tack's headers (``tack/...``), as shipped in the package."""
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    return os.path.join(here, "include")


def compiler():
    """The C++ compiler of kernels: ``TACK_CXX``, else the one that built the package."""
    cxx = os.environ.get("TACK_CXX")
    if cxx:
        return cxx
    try:
        from .. import _build_info
        if _build_info.CXX and os.path.exists(_build_info.CXX):
            return _build_info.CXX
    except ImportError:
        pass
    return shutil.which("c++") or shutil.which("g++") or "c++"


def _compiler_identity(cxx, last=False):
    """The line of `cxx --version` that names it (`last`: nvcc names its release last)."""
    key = ("cxx", cxx)
    ident = _state.get(key)
    if ident is None:
        try:
            out = subprocess.run([cxx, "--version"], capture_output=True, text=True, timeout=60)
            lines = out.stdout.splitlines()
            ident = (lines[-1] if last else lines[0]) if lines else cxx
        except (OSError, subprocess.SubprocessError) as e:
            raise RuntimeError(f"tack: the kernel compiler {cxx!r} cannot be run ({e}); set "
                               "TACK_CXX to a C++20 compiler") from None
        _state[key] = ident
    return ident


def cpu_target():
    """What `-march=native` compiles for here: the CPU model and its feature flags."""
    if _state["cpu"] is None:
        model, flags = platform.machine(), ""
        try:
            with open("/proc/cpuinfo") as f:
                for line in f:
                    if line.startswith("model name") and model == platform.machine():
                        model += " " + line.split(":", 1)[1].strip()
                    elif line.startswith("flags") and not flags:
                        flags = line.split(":", 1)[1].strip()
        except OSError:
            pass
        _state["cpu"] = model + " " + hashlib.sha256(flags.encode()).hexdigest()[:16]
    return _state["cpu"]


# On x86-64, loops use 256-bit vectors even where the CPU has AVX-512: streaming kernels run faster
# so on CPUs that split 512-bit operations in two (AMD Zen 4), and compute-bound ones keep their
# throughput there (docs/decisions.md, "Host kernels use 256-bit vectors").
_TARGET = ["-march=native"] + (["-mprefer-vector-width=256"]
                               if platform.machine() in ("x86_64", "AMD64") else [])


def target_flags():
    """The flags that choose the instruction set of host kernels (``-march=native`` and, on
    x86-64, 256-bit vectors)."""
    return list(_TARGET)


def flags(debug=False):
    """The compiler flags of a variant (debug mode: tack's bounds checks on)."""
    return _FLAGS + _TARGET + [f"-DTACK_BOUNDS_CHECK={1 if debug else 0}"]


def _build_info(name, default=""):
    try:
        from .. import _build_info as info
        return getattr(info, name, default)
    except ImportError:
        return default


def nvcc():
    """The CUDA compiler of kernels that run on a GPU: ``TACK_NVCC``, else the one that built the
    package, else ``nvcc`` on the PATH or in /usr/local/cuda; None where there is none."""
    for candidate in (os.environ.get("TACK_NVCC"), _build_info("NVCC")):
        if candidate and os.path.exists(candidate):
            return candidate
    found = shutil.which("nvcc")
    if found:
        return found
    return "/usr/local/cuda/bin/nvcc" if os.path.exists("/usr/local/cuda/bin/nvcc") else None


def cuda_architecture():
    """The GPU architecture kernels are compiled for (``TACK_CUDA_ARCH``, else the first one the
    package's own CUDA code was built for): ``"90"`` compiles sm_90 code and its PTX, which newer
    GPUs compile on load."""
    arch = os.environ.get("TACK_CUDA_ARCH") or _build_info("CUDA_ARCHITECTURES") or "90"
    return arch.replace(";", " ").split()[0].split("-")[0]


def cuda_flags(debug=False):
    """The nvcc flags of a variant that runs on a GPU: one CUDA runtime per process (the shared
    one the package links), host code as position-independent as the CPU variants."""
    arch = cuda_architecture()
    return ["-x", "cu", "-std=c++20", "-O3", "--extended-lambda", "--expt-relaxed-constexpr",
            f"-gencode=arch=compute_{arch},code=[sm_{arch},compute_{arch}]", "-cudart", "shared",
            "-shared", "-Xcompiler", "-fPIC,-fvisibility=hidden,-fno-math-errno", "-w",
            "-Xlinker", "-z,defs", f"-DTACK_BOUNDS_CHECK={1 if debug else 0}"]


def headers_digest():
    """A digest of the contents of the headers the package carries (recorded at build time)."""
    return _build_info("HEADERS")


def cache_dir(create=True):
    """The kernel cache directory (``TACK_KERNEL_CACHE``, default ``~/.cache/tack/kernels``),
    created private to the user; a directory others can write is refused."""
    path = os.environ.get("TACK_KERNEL_CACHE") or os.path.join(
        os.path.expanduser("~"), ".cache", "tack", "kernels")
    path = os.path.abspath(path)
    if create:
        os.makedirs(path, mode=0o700, exist_ok=True)
        check_private(path)
    return path


def check_private(path):
    st = os.stat(path)
    if hasattr(os, "getuid") and st.st_uid != os.getuid():
        raise PermissionError(
            f"tack: the kernel cache directory {path} belongs to another user (uid {st.st_uid}); "
            "tack loads compiled code from it, so it must be your own. Set TACK_KERNEL_CACHE to a "
            "directory of yours")
    if st.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
        raise PermissionError(
            f"tack: the kernel cache directory {path} is writable by other users (mode "
            f"{stat.S_IMODE(st.st_mode):04o}); tack loads compiled code from it, so it refuses to "
            f"use it. Run 'chmod 700 {path}' or set TACK_KERNEL_CACHE to a private directory")


def _toolchain(cuda, debug):
    """The compiler, its identity and its flags for a variant (`cuda`: one that runs on a GPU)."""
    if not cuda:
        cxx = compiler()
        return cxx, _compiler_identity(cxx), flags(debug)
    tool = nvcc()
    if tool is None:
        raise RuntimeError("tack: a kernel on a GPU is compiled with nvcc, and none was found "
                           "(set TACK_NVCC, or put the CUDA toolkit's bin folder on PATH)")
    # nvcc compiles host code with the compiler that built the package
    return tool, _compiler_identity(tool, last=True), cuda_flags(debug) + ["-ccbin", compiler()]


def cache_key(source, debug=False, cuda=False):
    from .. import __version__
    tool, ident, tool_flags = _toolchain(cuda, debug)
    h = hashlib.sha256()
    for part in (f"abi {ABI_VERSION}", f"tack {__version__}", headers_digest(), ident,
                 _compiler_identity(compiler()), tool, " ".join(tool_flags), cpu_target(),
                 source):
        h.update(part.encode())
        h.update(b"\0")
    return h.hexdigest()[:40]


def _checksum(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


class CompileError(RuntimeError):
    """The C++ compiler failed on generated code (a bug of tack's lowering, or the compiler)."""


def load_or_build(source, stats, debug=False, cuda=False):
    """The loaded library of `source`: from the disk cache, else compiled into it (by nvcc, for
    a GPU, with `cuda`)."""
    key = cache_key(source, debug, cuda)
    d = cache_dir()
    so = os.path.join(d, key + ".so")
    sumfile = os.path.join(d, key + ".sha256")
    lib = _try_load(so, sumfile)
    if lib is not None:
        stats["disk_loads"] += 1
        return lib, key
    lib = _compile(source, d, key, so, sumfile, debug, cuda)
    stats["compiles"] += 1
    return lib, key


def _try_load(so, sumfile):
    try:
        with open(sumfile) as f:
            expected = f.read().strip()
    except OSError:
        return None
    try:
        if _checksum(so) != expected:
            return None
        return _load(so)
    except (OSError, AttributeError):
        return None


def _load(path):
    lib = ctypes.CDLL(path, mode=os.RTLD_LOCAL | os.RTLD_NOW)
    if lib.tack_pk_abi() != ABI_VERSION:
        raise OSError(f"{path} was built for another version of the kernel boundary")
    return lib


def _compile(source, d, key, so, sumfile, debug, cuda):
    """Compiles `source` and enters it in the cache; returns the library this process compiled.

    The source goes to `<key>.cpp` (the same name and text in every process, so every process
    compiles the same bytes) and the library to a temporary name, which this process loads
    before renaming it into place: another process racing on the same key may replace the
    entry between our rename and a load by name, but never what we load."""
    tool, _, tool_flags = _toolchain(cuda, debug)
    suffix = ".cu" if cuda else ".cpp"
    src = os.path.join(d, key + suffix)
    fd, tmp_src = tempfile.mkstemp(prefix=f".{key}-", suffix=suffix, dir=d)
    with os.fdopen(fd, "w") as f:
        f.write(source)
    os.replace(tmp_src, src)
    fd, tmp_so = tempfile.mkstemp(prefix=f".{key}-", suffix=".so", dir=d)
    os.close(fd)
    pch = [] if cuda or _light(source) else _precompiled(d, tool, debug)
    cmd = [tool, *tool_flags, "-I", include_dir(), *pch, "-o", tmp_so, src]
    try:
        env = None
        if cuda:  # nvcc's own programs crash under a preloaded sanitizer (make test-sanitize)
            env = {k: v for k, v in os.environ.items() if k != "LD_PRELOAD"}
        out = subprocess.run(cmd, capture_output=True, text=True, env=env)
        if out.returncode != 0:
            raise CompileError(
                "tack: compiling a kernel failed (this is a bug in tack's lowering or in the "
                f"compiler; the source is {src}):\n{' '.join(cmd)}\n" + out.stderr[-6000:])
        lib = _load(tmp_so)
        digest = _checksum(tmp_so)
        fd, tmp_sum = tempfile.mkstemp(prefix=f".{key}-", suffix=".sha256", dir=d)
        with os.fdopen(fd, "w") as f:
            f.write(digest)
        os.replace(tmp_sum, sumfile)
        os.replace(tmp_so, so)  # the .so last: an entry is complete once it is there
        return lib
    finally:
        if os.path.exists(tmp_so):
            os.unlink(tmp_so)


def compile_lock():
    return _lock


# ---- the precompiled prelude -------------------------------------------------------------------
# Parsing headers is most of a small kernel's compile time. The first compile of a process that
# needs more than the light headers (atomics, implicit arrays) starts building a precompiled
# `tack/pykernel/prelude.hpp` in the background (per compiler, flags and headers, kept in the
# cache); later such compiles use it once it is there. A kernel's machine code is the same with
# or without it, so it is not part of a variant's key.

_pch_started = set()
# Headers a kernel over stored arrays includes: they parse faster than a 40 MB precompiled header
# loads, so such a kernel compiles without it.
_LIGHT_HEADERS = {"tack/pykernel/runtime.hpp", "tack/view/view.hpp", "tack/view/soa_view.hpp"}


def _light(source):
    """Whether `source` includes only the light headers."""
    included = {line.split("<", 1)[1].split(">", 1)[0] for line in source.splitlines()
                if line.startswith("#include <")}
    return included <= _LIGHT_HEADERS


def _pch_dir(d, cxx, debug):
    h = hashlib.sha256()
    for part in (_compiler_identity(cxx), cxx, " ".join(flags(debug)), headers_digest(),
                 include_dir()):
        h.update(part.encode())
        h.update(b"\0")
    return os.path.join(d, "pch-" + h.hexdigest()[:24])


def _precompiled(d, cxx, debug):
    """The flags that use the precompiled prelude when it exists (starting its build if not)."""
    ident = _compiler_identity(cxx)
    if os.environ.get("TACK_KERNEL_PCH", "1") == "0" or not ("g++" in ident or "GCC" in ident):
        return []  # GCC's precompiled headers only (TACK_KERNEL_PCH=0 turns them off)
    pdir = _pch_dir(d, cxx, debug)
    header = os.path.join(pdir, "tack_prelude.hpp")
    if os.path.exists(header + ".gch") and os.path.exists(header):
        return ["-include", header]
    if pdir not in _pch_started:
        _pch_started.add(pdir)
        threading.Thread(target=_build_pch, args=(pdir, header, cxx, debug), daemon=True).start()
    return []


def _build_pch(pdir, header, cxx, debug):
    try:
        os.makedirs(pdir, mode=0o700, exist_ok=True)
        fd, tmp_h = tempfile.mkstemp(prefix=".prelude-", suffix=".hpp", dir=pdir)
        with os.fdopen(fd, "w") as f:
            f.write("#include <tack/pykernel/prelude.hpp>\n")
        tmp_gch = tmp_h + ".gch"
        base = [x for x in flags(debug) if x not in ("-shared", "-Wl,-z,defs")]
        # at the lowest priority: on a machine with few cores it must not slow the compiles a
        # user waits for
        nice = [shutil.which("nice"), "-n", "19"] if shutil.which("nice") else []
        r = subprocess.run([*nice, cxx, *base, "-I", include_dir(), "-x", "c++-header", tmp_h,
                            "-o", tmp_gch], capture_output=True)
        if r.returncode == 0:
            os.replace(tmp_h, header)
            os.replace(tmp_gch, header + ".gch")  # the .gch last: its presence means ready
        for p in (tmp_h, tmp_gch):
            if os.path.exists(p):
                os.unlink(p)
    except OSError:
        pass
