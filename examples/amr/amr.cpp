// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
// tack::amr in one page: a five-level hierarchy shaped like AMR-Wind's (small scale), a density
// and a velocity field (SoA), ghost cells filled on every level, the fine levels averaged down,
// and the result written as a VTK overlapping-AMR file (open <outdir>/flow.vthb in ParaView).
//   amr_example [outdir]          (default: amr_out)
#include <tack/tack.hpp>

#include <cstdio>
#include <filesystem>
#include <string>

namespace amr = tack::amr;

// A front across the domain plus a swirl: something with gradients at every level.
struct density {
  TACK_HOST_DEVICE double operator()(const tack::vec3d& x) const {
    const double r2 =
        (x[0] - 0.5) * (x[0] - 0.5) + (x[1] - 0.52) * (x[1] - 0.52) + (x[2] - 0.45) * (x[2] - 0.45);
    return 1.0 + (r2 < 0.02 ? 0.5 : 0.0) + 0.3 * x[2];
  }
};
struct velocity {
  TACK_HOST_DEVICE tack::vec3d operator()(const tack::vec3d& x) const {
    return tack::vec3d{-(x[1] - 0.52), x[0] - 0.5, 0.1 * x[2]};
  }
};

int main(int argc, char** argv) {
  const std::string outdir = argc > 1 ? argv[1] : "amr_out";
  std::filesystem::create_directories(outdir);

  auto h = amr::synthetic_hierarchy({.scale = 0.02, .box_size = 8, .ghost = 2});
  std::printf("%s\n", h.describe().c_str());
  for (int l = 0; l < h.n_levels(); ++l) {
    std::printf("  level %d: %zu boxes, buffer of %lld cells (ghosts included)\n", l,
                h.boxes(l).size(), static_cast<long long>(h.level_size(l)));
  }

  auto rho = amr::add_field<double>(h, "density");
  auto u = amr::add_field<tack::vec3d>(h, "velocity", tack::layout::soa);
  for (int l = 0; l < h.n_levels(); ++l) {
    amr::initialize(h, l, rho, density{});
    amr::initialize(h, l, u, velocity{});
  }

  // Fine data is the truth: average it down, then fill every level's ghost cells, coarsest first.
  h.reset_timings();
  amr::average_down(h, rho);
  amr::average_down(h, u);
  amr::fill_ghost_cells(h, rho);
  amr::fill_ghost_cells(h, u);
  std::printf("%lld launches for %lld boxes (%.3f ms in kernels)\n",
              static_cast<long long>(h.timings().launches), static_cast<long long>(h.n_boxes()),
              h.timings().kernel_seconds * 1e3);

  // A box is a row view of its level buffer: any tack algorithm takes it as an array.
  const auto box = rho.box_values(h.n_levels() - 1, 0);
  std::printf(
      "finest level, box 0: shape (%lld, %lld, %lld), density from %.4f to %.4f (ghosts "
      "included)\n",
      static_cast<long long>(box.extent(0)), static_cast<long long>(box.extent(1)),
      static_cast<long long>(box.extent(2)), tack::min(box), tack::max(box));

  const std::string path = outdir + "/flow.vthb";
  amr::write_vtk(h, path);
  std::printf("wrote %s\n", path.c_str());
}
