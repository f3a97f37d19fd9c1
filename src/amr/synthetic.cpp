// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
// tack::amr::synthetic_hierarchy: levels of equal-sized boxes chosen, level after level, among the
// children of the coarser level's boxes that nest in it, nearest a feature first.

#include <tack/amr/synthetic.hpp>

#include <algorithm>
#include <cmath>
#include <string>
#include <tuple>
#include <unordered_set>

namespace tack::amr {
namespace {

using block = std::array<index_t, 3>;

std::uint64_t pack(const block& b) {
  constexpr index_t bias = index_t(1) << 20;
  return (static_cast<std::uint64_t>(b[0] + bias) << 42) |
         (static_cast<std::uint64_t>(b[1] + bias) << 21) | static_cast<std::uint64_t>(b[2] + bias);
}

}  // namespace

hierarchy synthetic_hierarchy(const synthetic_options& o) {
  const char* op = "tack::amr::synthetic_hierarchy";
  if (!(o.scale > 0) || !std::isfinite(o.scale) || o.scale > 64) {
    throw value_error(std::string(op) + ": scale must be in (0, 64], got " +
                      std::to_string(o.scale));
  }
  if (o.box_size < 1 || o.box_size > 1024) {
    throw value_error(std::string(op) + ": box_size must be in [1, 1024], got " +
                      std::to_string(o.box_size));
  }
  if (o.levels < 1 || o.levels > static_cast<int>(synthetic_full_counts.size())) {
    throw value_error(std::string(op) + ": levels must be 1 to 5, got " + std::to_string(o.levels));
  }
  if (o.ratio != 2 && o.ratio != 4) {
    throw value_error(std::string(op) + ": ratio must be 2 or 4, got " + std::to_string(o.ratio));
  }
  const index_t B = o.box_size;
  const index_t r = o.ratio;
  const index_t n0 = std::max<index_t>(2, std::llround(8.0 * std::cbrt(o.scale)));
  const box domain{{0, 0, 0}, {n0 * B - 1, n0 * B - 1, n0 * B - 1}};
  // The feature, in level-0 cells: an ellipsoid stretched along x, a little off the centre.
  const double ext = double(n0 * B);
  const double fc[3] = {0.5 * ext, 0.52 * ext, 0.45 * ext};
  const double stretch[3] = {1.6, 1.0, 1.0};

  std::vector<level> levels;
  std::vector<block> blocks;  // the current level's boxes, in box-size units
  for (index_t z = 0; z < n0; ++z) {
    for (index_t y = 0; y < n0; ++y) {
      for (index_t x = 0; x < n0; ++x) blocks.push_back({x, y, z});
    }
  }
  auto to_boxes = [&](const std::vector<block>& bs) {
    std::vector<box> out;
    out.reserve(bs.size());
    for (const block& b : bs)
      out.push_back(box{{b[0] * B, b[1] * B, b[2] * B},
                        {b[0] * B + B - 1, b[1] * B + B - 1, b[2] * B + B - 1}});
    return out;
  };
  levels.push_back(level{1, to_boxes(blocks)});
  index_t nblocks = n0;    // blocks per axis on the current level
  double level_scale = 1;  // level-0 cells per cell of the current level
  for (int l = 1; l < o.levels; ++l) {
    std::unordered_set<std::uint64_t> coarse;
    coarse.reserve(blocks.size() * 2);
    for (const block& b : blocks) coarse.insert(pack(b));
    const index_t cblocks = nblocks;
    nblocks *= r;
    level_scale /= double(r);
    // A child nests when every coarse cell under it grown by the ghost width (wrapped on periodic
    // axes, clipped on the others) is in a coarse box.
    auto nested = [&](const block& f) {
      std::array<std::array<index_t, 2>, 3> range{};
      for (std::size_t d = 0; d < 3; ++d) {
        index_t a = floor_div(f[d] * B - o.ghost, r);
        index_t b = floor_div(f[d] * B + B - 1 + o.ghost, r);
        if (o.boundaries[d] != boundary::periodic) {
          a = std::max<index_t>(a, 0);
          b = std::min<index_t>(b, cblocks * B - 1);
        }
        range[d] = {floor_div(a, B), floor_div(b, B)};
      }
      for (index_t z = range[2][0]; z <= range[2][1]; ++z) {
        for (index_t y = range[1][0]; y <= range[1][1]; ++y) {
          for (index_t x = range[0][0]; x <= range[0][1]; ++x) {
            block c{x, y, z};
            for (std::size_t d = 0; d < 3; ++d) {
              if (o.boundaries[d] == boundary::periodic)
                c[d] = c[d] - floor_div(c[d], cblocks) * cblocks;
            }
            if (!coarse.count(pack(c))) return false;
          }
        }
      }
      return true;
    };
    std::vector<std::pair<double, block>> candidates;
    for (const block& cb : blocks) {
      for (index_t k = 0; k < r * r * r; ++k) {
        const block f{cb[0] * r + k % r, cb[1] * r + (k / r) % r, cb[2] * r + k / (r * r)};
        if (!nested(f)) continue;
        double d2 = 0;
        for (std::size_t d = 0; d < 3; ++d) {
          const double centre = (double(f[d] * B) + 0.5 * double(B)) * level_scale;
          const double t = (centre - fc[d]) / stretch[d];
          d2 += t * t;
        }
        candidates.push_back({d2, f});
      }
    }
    std::sort(candidates.begin(), candidates.end());
    const auto want = static_cast<std::size_t>(std::max<long long>(
        1, std::llround(double(synthetic_full_counts[static_cast<std::size_t>(l)]) * o.scale)));
    if (candidates.size() > want) candidates.resize(want);
    blocks.clear();
    for (const auto& c : candidates) blocks.push_back(c.second);
    // Boxes in z, y, x order, so that neighbours are near each other in the level buffer.
    std::sort(blocks.begin(), blocks.end(), [](const block& a, const block& b) {
      return std::tie(a[2], a[1], a[0]) < std::tie(b[2], b[1], b[0]);
    });
    if (blocks.empty()) break;
    levels.push_back(level{o.ratio, to_boxes(blocks)});
  }
  hierarchy_options ho;
  ho.ghost = o.ghost;
  ho.boundaries = o.boundaries;
  ho.origin = vec3d{0, 0, 0};
  const double dx = 1.0 / double(n0 * B);
  ho.spacing = vec3d{dx, dx, dx};
  ho.device = o.device;
  return hierarchy(domain, std::move(levels), ho);
}

}  // namespace tack::amr
