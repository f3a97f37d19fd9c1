# tack: the two commands are `make demo` and `make test`. Everything else is for developers.
SHELL := /bin/bash
BUILD ?= build
JOBS ?= $(shell nproc)
HOST_DIR := $(BUILD)/host
CUDA_DIR := $(BUILD)/cuda
HIP_DIR := $(BUILD)/hip
NVCC := $(shell command -v nvcc 2>/dev/null || ls /usr/local/cuda/bin/nvcc 2>/dev/null)
# Evaluated when a recipe runs (after `deps` has installed ccache), not when make reads this file:
# decided earlier, a fresh machine's first build would run without the launcher and the next one
# with it, and the changed settings would rebuild the Python extension from scratch.
CCACHE = $(shell command -v ccache 2>/dev/null)
# ccache keys on preprocessed text, which holds absolute paths: relative to the checkout, a fresh
# clone in another folder (CI) still hits the cache of an earlier build.
export CCACHE_BASEDIR := $(CURDIR)
export CCACHE_NOHASHDIR := 1
LAUNCHER = $(if $(CCACHE),-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_CUDA_COMPILER_LAUNCHER=ccache \
  -DCMAKE_HIP_COMPILER_LAUNCHER=ccache,)
CMAKE_FLAGS ?=
CTEST_FLAGS ?= --output-on-failure -j $(JOBS)

.PHONY: all deps demo test test-host test-cuda test-hip test-python test-mpi python test-sanitize bench bench-quick format gpu-check clean

all: test

deps:
	@scripts/install-deps

# configure once; later calls reuse the build directory
# Every variant names its GPU backend: with AUTO, a machine with hipcc would turn HIP on in the host
# build (one GPU backend per build).
# The host variant builds the library, the tests and the examples; the benchmarks have their own
# build directories (make bench, make bench-quick), compiled for the benchmark machine.
$(HOST_DIR)/CMakeCache.txt: | deps
	cmake -S . -B $(HOST_DIR) -DCMAKE_BUILD_TYPE=Release -DTACK_ENABLE_CUDA=OFF -DTACK_ENABLE_HIP=OFF \
	  -DTACK_ENABLE_BENCHMARKS=OFF $(LAUNCHER) $(CMAKE_FLAGS)

$(CUDA_DIR)/CMakeCache.txt: | deps
	cmake -S . -B $(CUDA_DIR) -DCMAKE_BUILD_TYPE=Release -DTACK_ENABLE_CUDA=ON -DTACK_ENABLE_HIP=OFF \
	  -DTACK_TESTS_GPU_ONLY=ON -DTACK_ENABLE_BENCHMARKS=OFF -DTACK_ENABLE_EXAMPLES=OFF \
	  -DCMAKE_CUDA_COMPILER=$(NVCC) $(LAUNCHER) $(CMAKE_FLAGS)

# The HIP variant: hipcc's clang compiles for gfx90a (MI200) unless HIP_ARCH says otherwise.
HIP_ARCH ?= gfx90a
$(HIP_DIR)/CMakeCache.txt: | deps
	cmake -S . -B $(HIP_DIR) -DCMAKE_BUILD_TYPE=Release -DTACK_ENABLE_CUDA=OFF -DTACK_ENABLE_HIP=ON \
	  -DTACK_TESTS_GPU_ONLY=ON -DTACK_ENABLE_BENCHMARKS=OFF -DTACK_ENABLE_EXAMPLES=OFF \
	  -DCMAKE_HIP_ARCHITECTURES=$(HIP_ARCH) $(LAUNCHER) $(CMAKE_FLAGS)

## make demo: configure, build and run examples/tour, then the Python tour (examples/tour.py)
demo: deps $(HOST_DIR)/CMakeCache.txt python
	cmake --build $(HOST_DIR) --target tour -j $(JOBS)
	$(HOST_DIR)/examples/tour/tour
	$(VENV)/bin/python examples/tour.py

## make test: the host build and every test; the Python package and its tests; then, when nvcc
## exists, the CUDA variant; then, when hipcc exists (deps installs Debian's), the HIP variant
test: test-host test-python test-mpi $(if $(NVCC),test-cuda,) test-hip-if-hipcc
	@echo "make test: all variants passed"

# `deps` installs hipcc, so whether it exists is known only after it ran.
.PHONY: test-hip-if-hipcc
test-hip-if-hipcc: deps
	@if command -v hipcc >/dev/null; then $(MAKE) --no-print-directory test-hip; \
	else echo "make: hipcc not found: the HIP variant is skipped"; fi

# The Python package: a virtual environment under build/ with the pinned requirements, the package
# built from the repository root (`pip install .`, scikit-build-core + nanobind, incremental in
# build/python), then pytest. NVIDIA Warp is a second DLPack client for the tests where it installs.
VENV := $(BUILD)/venv
PY_REQS := python/requirements-test.txt
$(VENV)/.requirements: $(PY_REQS)
	python3 -m venv $(VENV)
	$(VENV)/bin/python -m pip install -q --disable-pip-version-check -r $(PY_REQS)
	$(VENV)/bin/python -m pip install -q --disable-pip-version-check warp-lang==1.19.0 \
	  || echo "make: warp-lang could not be installed; its DLPack tests will be skipped"
	$(VENV)/bin/python -m pip install -q --disable-pip-version-check vtk==9.7.2 \
	  || echo "make: vtk could not be installed; tests/python/test_vtk_files.py will be skipped"
	MPICC=mpicc $(VENV)/bin/python -m pip install -q --disable-pip-version-check --no-binary=mpi4py mpi4py==4.1.2 \
	  || echo "make: mpi4py could not be built against Open MPI (mpicc); tests/python/test_mpi*.py will be skipped"
	touch $@

# The extension links the host build's libtack.a (TACK_LIBRARY_FROM_BUILD) instead of compiling
# the library's sources a second time.
python: deps $(VENV)/.requirements $(HOST_DIR)/CMakeCache.txt
	cmake --build $(HOST_DIR) --target tack -j $(JOBS)
	$(VENV)/bin/python -m pip install -q --disable-pip-version-check --no-build-isolation \
	  --config-settings=cmake.define.TACK_LIBRARY_FROM_BUILD=$(CURDIR)/$(HOST_DIR) \
	  $(if $(CCACHE),--config-settings=cmake.define.CMAKE_CXX_COMPILER_LAUNCHER=ccache,) .

# The dataset tests read tack's files with VTK's own readers, through a small C++ helper.
test-python: python $(HOST_DIR)/CMakeCache.txt
	cmake --build $(HOST_DIR) --target dataset_write_samples -j $(JOBS)
	TACK_DATASET_SAMPLES_EXE=$(CURDIR)/$(HOST_DIR)/tests/dataset/dataset_write_samples \
	  $(VENV)/bin/python -m pytest -q -p no:cacheprovider -n $(JOBS) tests/python

# tack::mpi from Python under mpirun (2 and 4 ranks; the C++ MPI tests run in ctest, label mpi).
MPIRUN_FLAGS := --oversubscribe $(if $(filter 0,$(shell id -u)),--allow-run-as-root,)
test-mpi: python
	@$(VENV)/bin/python -c "import mpi4py" 2>/dev/null || MPICC=mpicc $(VENV)/bin/python -m pip install -q \
	  --disable-pip-version-check --no-binary=mpi4py mpi4py==4.1.2 2>/dev/null || true
	@if $(VENV)/bin/python -c "import mpi4py" 2>/dev/null; then \
	  for np in 2 4; do \
	    OMP_NUM_THREADS=1 timeout 600 mpirun -np $$np $(MPIRUN_FLAGS) $(VENV)/bin/python -m pytest -q \
	      -p no:cacheprovider tests/python/test_mpi.py || exit 1; \
	  done; \
	else echo "make: mpi4py is not installed in $(VENV): the tack.mpi tests under mpirun are skipped"; fi

test-host: deps $(HOST_DIR)/CMakeCache.txt
	cmake --build $(HOST_DIR) -j $(JOBS)
	cd $(HOST_DIR) && ctest $(CTEST_FLAGS)

# The CUDA variant: the library, every header and the typed backend tests compiled by nvcc (sm_90).
# Tests that need a GPU skip with a reason where none is present.
test-cuda: deps $(CUDA_DIR)/CMakeCache.txt
	cmake --build $(CUDA_DIR) -j $(JOBS)
	cd $(CUDA_DIR) && ctest $(CTEST_FLAGS)

# The HIP variant: the library, every public header and the typed backend tests compiled by
# Debian's hipcc (clang 15) for $(HIP_ARCH), and an outside project with a HIP source
# (tests/find_package). Tests that need an AMD GPU skip with a reason where none is present.
test-hip: deps $(HIP_DIR)/CMakeCache.txt
	cmake --build $(HIP_DIR) -j $(JOBS)
	cd $(HIP_DIR) && ctest $(CTEST_FLAGS)

## make test-sanitize: ASan+UBSan over the whole suite (g++), the DLPack import fuzzer for 60 s
## (clang's libFuzzer under ASan+UBSan), then TSan over every test with real
## OpenMP threads: clang with LLVM's OpenMP and its Archer tool, which tells TSan about OpenMP's
## synchronization (GCC's libgomp is not instrumented, so TSan would report false races there).
ARCHER = $(firstword $(wildcard /usr/lib/llvm-*/lib/libarcher.so))
test-sanitize: deps
	TACK_DEPS_EXTRA="clang libomp-dev libclang-rt-14-dev" scripts/install-deps
	cmake -S . -B $(BUILD)/asan -DCMAKE_BUILD_TYPE=Debug -DTACK_ENABLE_CUDA=OFF -DTACK_ENABLE_HIP=OFF \
	  -DTACK_ENABLE_BENCHMARKS=OFF $(LAUNCHER) \
	  -DCMAKE_CXX_FLAGS="-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer"
	cmake --build $(BUILD)/asan -j $(JOBS)
	cd $(BUILD)/asan && ASAN_OPTIONS=detect_leaks=1 ctest $(CTEST_FLAGS) -LE 'find_package|^mpi$$'
	cd $(BUILD)/asan && ASAN_OPTIONS=detect_leaks=1:fast_unwind_on_malloc=0 \
	  LSAN_OPTIONS=suppressions=$(CURDIR)/scripts/lsan-openmpi.supp ctest $(CTEST_FLAGS) -L '^mpi$$'
	# The Python package under ASan+UBSan: the extension built with the sanitizers into its own
	# folder, pytest with their runtimes preloaded into the interpreter (leaks off: CPython keeps
	# its own allocations to the end). Kernels compiled from Python run uninstrumented inside it.
	$(MAKE) python
	$(VENV)/bin/python -m pip install -q --disable-pip-version-check --no-build-isolation --no-deps \
	  --target $(BUILD)/python-asan-pkg --upgrade --config-settings=build-dir=$(BUILD)/python-asan \
	  --config-settings=cmake.build-type=Debug \
	  "--config-settings=cmake.define.CMAKE_CXX_FLAGS=-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer -O1" \
	  $(if $(CCACHE),--config-settings=cmake.define.CMAKE_CXX_COMPILER_LAUNCHER=ccache,) .
	$(MAKE) $(HOST_DIR)/CMakeCache.txt
	cmake --build $(HOST_DIR) --target dataset_write_samples -j $(JOBS)
	PYTHONPATH=$(CURDIR)/$(BUILD)/python-asan-pkg ASAN_OPTIONS=detect_leaks=0 \
	  LD_PRELOAD="$$(g++ -print-file-name=libasan.so) $$(g++ -print-file-name=libubsan.so)" \
	  TACK_DATASET_SAMPLES_EXE=$(CURDIR)/$(HOST_DIR)/tests/dataset/dataset_write_samples \
	  $(VENV)/bin/python -m pytest -q -p no:cacheprovider tests/python --deselect tests/python/test_mpi.py
	cmake -S . -B $(BUILD)/fuzz -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=Debug -DTACK_ENABLE_CUDA=OFF -DTACK_ENABLE_HIP=OFF \
	  -DTACK_ENABLE_BENCHMARKS=OFF -DTACK_ENABLE_EXAMPLES=OFF $(LAUNCHER) \
	  -DCMAKE_CXX_FLAGS="-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer"
	cmake --build $(BUILD)/fuzz --target dlpack_import_fuzz -j $(JOBS)
	$(BUILD)/fuzz/tests/fuzz/dlpack_import_fuzz -max_total_time=60 -print_final_stats=1
	cmake --build $(BUILD)/fuzz --target vtk_read_fuzz -j $(JOBS)
	$(BUILD)/fuzz/tests/fuzz/vtk_read_fuzz -max_total_time=60 -print_final_stats=1
	cmake -S . -B $(BUILD)/tsan -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=Debug -DTACK_ENABLE_CUDA=OFF -DTACK_ENABLE_HIP=OFF \
	  -DTACK_ENABLE_BENCHMARKS=OFF -DTACK_ENABLE_EXAMPLES=OFF $(LAUNCHER) \
	  -DCMAKE_CXX_FLAGS="-fsanitize=thread -fno-omit-frame-pointer"
	cmake --build $(BUILD)/tsan -j $(JOBS)
	cd $(BUILD)/tsan && OMP_TOOL_LIBRARIES=$(ARCHER) OMP_NUM_THREADS=2 \
	  TSAN_OPTIONS="halt_on_error=1 ignore_noninstrumented_modules=1" \
	  ctest $(CTEST_FLAGS) -LE "compile_fail|find_package"

## make bench: install the peers, build the benchmarks (Release, in $(BENCH_DIR)), run every suite
## into benchmarks/results/<host-label>.json (benchmarks/run.py), then regenerate docs/performance.md
## and docs/performance/*.svg (benchmarks/report.py). make bench-quick: fewer repetitions, shorter
## runs and smaller sizes (<= 10 min on 2 cores). A peer that cannot be installed is skipped, and the
## report says why. $(BENCH_DIR)-native holds the implicit-array benchmark built with -march=native.
## BENCH_REUSE_PYTHON=1 benchmarks the tack package already in build/venv instead of
## rebuilding it first (`make python`).
BENCH_DIR ?= $(BUILD)/bench
BENCH_DEB := libeigen3-dev libthrust-dev libtrilinos-kokkos-dev
BENCH_PYPI := numexpr==2.14.2 numba==0.68.1 warp-lang==1.19.0 matplotlib==3.11.2
bench bench-quick: deps $(if $(BENCH_REUSE_PYTHON),,python)
	TACK_DEPS_EXTRA="$(BENCH_DEB)" scripts/install-deps \
	  || echo "make: peer packages missing ($(BENCH_DEB)); the report names the rows they skip"
	@for p in $(BENCH_PYPI); do $(VENV)/bin/python -m pip install -q --disable-pip-version-check $$p \
	  || echo "make: $$p could not be installed; the report names the rows it skips"; done
	cmake -S . -B $(BENCH_DIR) -DCMAKE_BUILD_TYPE=Release -DTACK_ENABLE_CUDA=OFF -DTACK_ENABLE_HIP=OFF \
	  -DTACK_ENABLE_TESTS=OFF -DTACK_ENABLE_EXAMPLES=OFF $(LAUNCHER) $(CMAKE_FLAGS)
	cmake --build $(BENCH_DIR) -j $(JOBS)
	cmake -S . -B $(BENCH_DIR)-native -DCMAKE_BUILD_TYPE=Release -DTACK_ENABLE_CUDA=OFF -DTACK_ENABLE_HIP=OFF \
	  -DTACK_ENABLE_TESTS=OFF -DTACK_ENABLE_EXAMPLES=OFF -DTACK_BENCH_MARCH=native $(LAUNCHER) $(CMAKE_FLAGS)
	cmake --build $(BENCH_DIR)-native --target bench_arrays_implicit -j $(JOBS)
	$(VENV)/bin/python benchmarks/run.py --build $(BENCH_DIR) $(if $(filter bench-quick,$@),--quick,)
	$(VENV)/bin/python benchmarks/report.py

## make gpu-check: what scripts/gpu-check runs on a machine with a GPU
gpu-check:
	scripts/gpu-check

format:
	find include src tests benchmarks examples python/src -name '*.hpp' -o -name '*.cpp' -o -name '*.cu' | xargs clang-format -i

clean:
	rm -rf $(BUILD)
