#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Instruction counts (valgrind --tool=callgrind) for tack's zero-overhead claims: each driver in this
# folder defines `tack_*` functions and their hand-written twins; this prints the inclusive
# instruction count (Ir) of each, side by side. Counts are repeatable on a noisy machine, unlike times.
#
#   benchmarks/callgrind/run.sh [build-dir]     (default build/bench2; needs its libtack.a and config.hpp)
#
# The drivers are built with -O2 -march=x86-64-v3: valgrind 3.19 has no AVX-512, so -march=native
# binaries die with SIGILL under it on AVX-512 machines. CXXFLAGS adds flags (e.g. -O3).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$root/build/bench2}
case "$build" in /*) ;; *) build=$root/$build ;; esac
out=${TACK_CALLGRIND_OUT:-$build/callgrind}
mkdir -p "$out"
lib=$(find "$build" -maxdepth 2 -name 'libtack.a' | head -n 1)
if [ -z "$lib" ] || [ ! -f "$build/include/tack/config.hpp" ]; then
  echo "run.sh: no libtack.a or include/tack/config.hpp in $build: configure and build target tack first" >&2
  exit 1
fi
command -v valgrind >/dev/null || { echo "run.sh: valgrind not found" >&2; exit 1; }
flags=(-std=c++20 -O2 -march=x86-64-v3 -fopenmp -DNDEBUG -I"$root/include" -I"$build/include")
# shellcheck disable=SC2206
extra=(${CXXFLAGS:-})

for driver in "$root"/benchmarks/callgrind/*_driver.cpp; do
  name=$(basename "$driver" .cpp)
  exe=$out/$name
  "${CXX:-g++}" "${flags[@]}" "${extra[@]}" "$driver" "$lib" -o "$exe"
  TACK_NUM_THREADS=1 OMP_NUM_THREADS=1 valgrind --tool=callgrind --callgrind-out-file="$out/$name.out" \
    "$exe" >/dev/null 2>"$out/$name.log"
  echo "== $name (${CXX:-g++} ${flags[*]:0:3} ${extra[*]:-}; inclusive instructions)"
  callgrind_annotate --inclusive=yes --threshold=100 "$out/$name.out" 2>/dev/null |
    awk '
      # Lines look like: "  12,345,678 (12.3%)  file:function(args) [binary]"
      /(tack|hand|raw|offset)_[a-z0-9_]+\(/ {
        n = $1; gsub(",", "", n)
        if (match($0, /(tack|hand|raw|offset)_[a-z0-9_]+\(/)) {
          f = substr($0, RSTART, RLENGTH - 1)
          if (!(f in seen)) { seen[f] = n; order[++k] = f }
        }
      }
      END {
        for (i = 1; i <= k; ++i) printf "  %-22s %14d\n", order[i], seen[order[i]]
      }'
done
