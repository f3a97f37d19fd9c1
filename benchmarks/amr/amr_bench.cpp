// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
// tack::amr on the full-size synthetic hierarchy (AMR-Wind's five levels, 15,598 boxes): ghost
// cells on every level (coarsest first) and average_down from the finest level, of a vec3d field in
// SoA, with level buffers and box row views (`views`) against the way AMR codes did it before
// (`ref_concat_copy`: separately allocated box arrays concatenated per level, the same kernels,
// copies back box by box), in the same run. Counters: outside_share, the part of the wall time
// outside the kernels (copies, placing, and the launches' own cost: launches times the cost of an
// empty launch measured here); launches per iteration; cells (ghost cells filled + coarse cells
// averaged) per second. Environment: TACK_AMR_BENCH_BOX (box edge, default 8),
// TACK_AMR_BENCH_SCALE (box-count scale, default 1).
#include "common/bench_util.hpp"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <tack/amr/all.hpp>
#include <tack/tack.hpp>

namespace amr = tack::amr;
using tack::index_t;

namespace {

struct wave {
  TACK_HOST_DEVICE tack::vec3d operator()(const tack::vec3d& x) const {
    const double f =
        x[0] * x[0] - 0.5 * x[1] + 3.0 * x[2] * x[2] * x[2] + (x[0] > 0.41 ? 0.3 : 0.0);
    return tack::vec3d{f, 2.0 * f - x[0], x[1] * x[2]};
  }
};

struct noop {
  template <class A, class B>
  TACK_HOST_DEVICE void operator()(index_t, const A&, const B&) const {}
};

double env_or(const char* name, double fallback) {
  const char* v = std::getenv(name);
  return v && *v ? std::atof(v) : fallback;
}

/// The hierarchy, its field and the same values as separate box arrays, made once.
struct state {
  amr::hierarchy h;
  amr::field<tack::vec3d> u;
  amr::box_arrays<tack::vec3d> old;
  double empty_launch_s = 0;
  index_t ghost_cells = 0, averaged_cells = 0;

  state()
      : h(amr::synthetic_hierarchy(
            {.scale = env_or("TACK_AMR_BENCH_SCALE", 1.0),
             .box_size = static_cast<index_t>(env_or("TACK_AMR_BENCH_BOX", 8))})) {
    u = amr::add_field<tack::vec3d>(h, "velocity", tack::layout::soa);
    for (int l = 0; l < h.n_levels(); ++l) amr::initialize(h, l, u, wave{});
    old = amr::baseline::separate(h, u);
    for (int l = 0; l < h.n_levels(); ++l) {
      const auto& p = h.plan(l);
      ghost_cells += p.copy_cells + p.interp_cells + p.boundary_cells;
      averaged_cells += p.average_cells;
    }
    // The cost of one launch that does nothing, with two array arguments like the real ones.
    const auto buf = u.level_buffer(0);
    const auto segs = h.plan(0).copies.as_const();
    const int reps = 2000;
    const auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < reps; ++i) tack::launch(h.device(), 2, noop{}, buf, segs);
    empty_launch_s =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() / reps;
    std::fprintf(
        stderr,
        "amr_bench: %s, %lld ghost cells, %lld averaged cells per pass; empty launch %.2f us\n",
        h.describe().c_str(), static_cast<long long>(ghost_cells),
        static_cast<long long>(averaged_cells), empty_launch_s * 1e6);
  }
};

state& shared() {
  static state s;
  return s;
}

enum class op { ghost_cells, average_down, both };

void run(benchmark::State& st, op which, bool views) {
  state& s = shared();
  const amr::hierarchy& h = s.h;
  h.reset_timings();
  double wall = 0;
  for (auto _ : st) {
    const auto t0 = std::chrono::steady_clock::now();
    if (which != op::average_down) {
      for (int l = 0; l < h.n_levels(); ++l) {
        if (views) {
          amr::fill_ghost_cells(h, l, s.u);
        } else {
          amr::baseline::fill_ghost_cells(h, l, s.old);
        }
      }
    }
    if (which != op::ghost_cells) {
      for (int l = h.n_levels() - 1; l >= 1; --l) {
        if (views) {
          amr::average_down(h, l, s.u);
        } else {
          amr::baseline::average_down(h, l, s.old);
        }
      }
    }
    wall += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  }
  const auto& t = h.timings();
  const double launch_cost = double(t.launches) * s.empty_launch_s;
  const double kernels = t.kernel_seconds - launch_cost;
  st.counters["outside_share"] = (wall - kernels) / wall;
  st.counters["copy_share"] = t.copy_seconds / wall;
  st.counters["launches"] = double(t.launches) / double(st.iterations());
  const double cells = double(which == op::average_down ? 0 : s.ghost_cells) +
                       double(which == op::ghost_cells ? 0 : s.averaged_cells);
  st.counters["cells_per_s"] =
      benchmark::Counter(cells * double(st.iterations()), benchmark::Counter::kIsRate);
}

const bool registered = [] {
  const std::pair<const char*, op> ops[] = {{"amr_ghost_cells", op::ghost_cells},
                                            {"amr_average_down", op::average_down},
                                            {"amr_end_to_end", op::both}};
  for (const auto& [name, which] : ops) {
    const op w = which;
    tack::bench::add(name, "ref_concat_copy", [w](benchmark::State& st) {
      run(st, w, false);
    })->Iterations(3);
    tack::bench::add(name, "views", [w](benchmark::State& st) { run(st, w, true); })->Iterations(3);
  }
  return true;
}();

}  // namespace
