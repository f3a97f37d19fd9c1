// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
#pragma once
/// @file The shared geometry of the dataset meshes (what spaces and fields refer to), the cell
/// locator of unstructured meshes, and the dispatch from a geometry to its kernel form.

#include <tack/array/array.hpp>
#include <tack/array/factories.hpp>
#include <tack/core/error.hpp>
#include <tack/dataset/cell_type.hpp>
#include <tack/dataset/detail/locator.hpp>
#include <tack/dataset/detail/stencil.hpp>
#include <tack/dataset/detail/structured_forms.hpp>
#include <tack/types/vec.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <variant>
#include <vector>

namespace tack::dataset {

/// Which of the three mesh types a geometry is.
/// `if (space.geometry().kind() == tack::dataset::mesh_kind::uniform) { ... }`
enum class mesh_kind { uniform, rectilinear, unstructured };

namespace detail {

inline std::string dims_string(const std::array<index_t, 3>& d) {
  std::string s = "(";
  s += std::to_string(d[0]);
  s += ", ";
  s += std::to_string(d[1]);
  s += ", ";
  s += std::to_string(d[2]);
  s += ")";
  return s;
}

/// Cells of a structured grid with `dims` points: VTK's count (an axis of one point adds no
/// factor; any axis of zero points gives none).
inline index_t structured_cells(const std::array<index_t, 3>& d) {
  if (d[0] <= 0 || d[1] <= 0 || d[2] <= 0) return 0;
  index_t n = 1;
  for (auto e : d) n *= e > 1 ? e - 1 : 1;
  return n;
}

/// What every mesh shares with the spaces and fields made on it (never the fields themselves).
class mesh_geometry {
public:
  virtual ~mesh_geometry() = default;
  virtual mesh_kind kind() const noexcept = 0;
  virtual index_t n_points() const = 0;
  virtual index_t n_cells() const = 0;
  virtual std::string describe() const = 0;
};

class uniform_geometry final : public mesh_geometry {
public:
  std::array<index_t, 3> dims{};
  vec3d origin{};
  vec3d spacing{};
  mesh_kind kind() const noexcept override { return mesh_kind::uniform; }
  index_t n_points() const override { return dims[0] * dims[1] * dims[2]; }
  index_t n_cells() const override { return structured_cells(dims); }
  std::string describe() const override { return "uniform_grid " + dims_string(dims); }
  uniform_form form() const {
    return uniform_form::make({dims[0], dims[1], dims[2]}, {origin[0], origin[1], origin[2]},
                              {spacing[0], spacing[1], spacing[2]});
  }
};

class rectilinear_geometry final : public mesh_geometry {
public:
  std::array<array<double>, 3> axes;
  std::array<index_t, 3> dims() const { return {axes[0].size(), axes[1].size(), axes[2].size()}; }
  mesh_kind kind() const noexcept override { return mesh_kind::rectilinear; }
  index_t n_points() const override { return axes[0].size() * axes[1].size() * axes[2].size(); }
  index_t n_cells() const override { return structured_cells(dims()); }
  std::string describe() const override { return "rectilinear_grid " + dims_string(dims()); }
};

/// The bins of a cell locator: a uniform grid of half-open bins over the mesh's bounding box; each
/// bin lists the cells whose bounding boxes meet it (a box face on a bin face counts for the bin
/// above only). A query within `eps` bins of a bin face also searches across it.
struct cell_locator {
  array<index_t> bin_start;
  array<locator_entry> entries;  // bin by bin: each listed cell with its box
  index_t bins[3] = {1, 1, 1};
  double lo[3] = {0, 0, 0};
  double inv_bin[3] = {0, 0, 0};
  double eps[3] = {0, 0, 0};
};

class unstructured_geometry final : public mesh_geometry {
public:
  std::variant<array<vec3f>, array<vec3d>> points;
  array<index_t> connectivity;
  array<index_t> offsets;  // n_cells + 1, from 0
  array<std::uint8_t> types;

  mesh_kind kind() const noexcept override { return mesh_kind::unstructured; }
  index_t n_points() const override {
    return std::visit([](const auto& p) { return p.size(); }, points);
  }
  index_t n_cells() const override { return types.size(); }
  std::string describe() const override {
    return "unstructured_grid of " + std::to_string(n_points()) + " points and " +
           std::to_string(n_cells()) + " cells";
  }

  /// The locator for the current values: rebuilt when the write version of the points (or of
  /// the connectivity, offsets or types) has changed since the last build.
  std::shared_ptr<const cell_locator> locator() const;
  /// How many times the locator was built (a diagnostic for tests).
  int locator_builds() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return builds_;
  }
  /// Checks the cell arrays against the points (types, offsets, counts, index range); throws
  /// `value_error` naming `op` and the offending cell.
  void validate(const char* op) const;
  /// Records that the cell arrays were validated at their current versions.
  void mark_validated() const {
    std::lock_guard<std::mutex> lock(mutex_);
    validated_key_ = key();
  }

private:
  using version_key = std::array<std::uint64_t, 4>;
  version_key key() const {
    const auto pv = std::visit([](const auto& p) { return p.version(); }, points);
    return {pv, connectivity.version(), offsets.version(), types.version()};
  }
  mutable std::mutex mutex_;
  mutable std::shared_ptr<const cell_locator> locator_;
  mutable version_key built_key_{};
  mutable version_key validated_key_{};
  mutable int builds_ = 0;
};

inline void unstructured_geometry::validate(const char* op) const {
  const index_t np = n_points();
  const auto t = types.to_vector();
  const auto o = offsets.to_vector();
  const index_t nc = static_cast<index_t>(t.size());
  const std::string where = std::string("tack::dataset::") + op + ": ";
  if (static_cast<index_t>(o.size()) != nc + 1) {
    throw value_error(where + "offsets has " + std::to_string(o.size()) + " entries for " +
                      std::to_string(nc) + " cell types; it must have n_cells + 1 = " +
                      std::to_string(nc + 1) + " (starting at 0; VTK files store only the ends)");
  }
  if (o[0] != 0)
    throw value_error(where + "offsets[0] is " + std::to_string(o[0]) + "; it must be 0");
  const index_t nconn = connectivity.size();
  for (index_t c = 0; c < nc; ++c) {
    const int ty = t[static_cast<std::size_t>(c)];
    const int want = cell_type_points(ty);
    if (want == 0) {
      throw value_error(where + "cell " + std::to_string(c) + " has cell type " +
                        std::to_string(ty) + " (" + cell_type_name(ty) +
                        "), which is not supported; supported: " + supported_cell_types());
    }
    const index_t a = o[static_cast<std::size_t>(c)], b = o[static_cast<std::size_t>(c) + 1];
    if (b <= a) {
      throw value_error(where + "offsets are not increasing at cell " + std::to_string(c) + " (" +
                        std::to_string(a) + " then " + std::to_string(b) + ")");
    }
    if (b - a != want) {
      throw value_error(where + "cell " + std::to_string(c) + " (" + cell_type_name(ty) + ") has " +
                        std::to_string(b - a) + " points; a " + cell_type_name(ty) + " has " +
                        std::to_string(want));
    }
  }
  if (o.back() != nconn) {
    throw value_error(where + "offsets end at " + std::to_string(o.back()) +
                      " but connectivity has " + std::to_string(nconn) + " entries");
  }
  const auto conn = connectivity.to_vector();
  for (index_t k = 0; k < nconn; ++k) {
    const index_t v = conn[static_cast<std::size_t>(k)];
    if (v < 0 || v >= np) {
      auto cell = std::upper_bound(o.begin(), o.end(), k) - o.begin() - 1;
      throw value_error(where + "connectivity[" + std::to_string(k) + "] = " + std::to_string(v) +
                        " (cell " + std::to_string(cell) + ") is not a point index; the mesh has " +
                        std::to_string(np) + " points");
    }
  }
}

inline std::shared_ptr<const cell_locator> unstructured_geometry::locator() const {
  std::lock_guard<std::mutex> lock(mutex_);
  const version_key k = key();
  if (locator_ && k == built_key_) return locator_;
  if (k[1] != validated_key_[1] || k[2] != validated_key_[2] || k[3] != validated_key_[3]) {
    validate("unstructured_grid (cell locator)");
    validated_key_ = k;
  }
  auto loc = std::make_shared<cell_locator>();
  std::vector<double> xyz;  // the points as doubles
  std::visit(
      [&](const auto& p) {
        const auto v = p.to_vector();
        xyz.resize(v.size() * 3);
        for (std::size_t i = 0; i < v.size(); ++i)
          for (int d = 0; d < 3; ++d)
            xyz[3 * i + static_cast<std::size_t>(d)] = static_cast<double>(v[i][d]);
      },
      points);
  const auto conn = connectivity.to_vector();
  const auto off = offsets.to_vector();
  const index_t nc = static_cast<index_t>(off.size()) - 1;
  std::vector<double> boxes(static_cast<std::size_t>(nc) * 6);
  double lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
  double mean_ext[3] = {0, 0, 0};
  for (index_t c = 0; c < nc; ++c) {
    double* b = &boxes[static_cast<std::size_t>(c) * 6];
    for (int d = 0; d < 3; ++d) {
      b[d] = INFINITY;
      b[3 + d] = -INFINITY;
    }
    for (index_t k = off[static_cast<std::size_t>(c)]; k < off[static_cast<std::size_t>(c) + 1];
         ++k) {
      const double* x = &xyz[static_cast<std::size_t>(conn[static_cast<std::size_t>(k)]) * 3];
      for (int d = 0; d < 3; ++d) {
        b[d] = std::min(b[d], x[d]);
        b[3 + d] = std::max(b[3 + d], x[d]);
      }
    }
    for (int d = 0; d < 3; ++d) {
      lo[d] = std::min(lo[d], b[d]);
      hi[d] = std::max(hi[d], b[3 + d]);
      mean_ext[d] += b[3 + d] - b[d];
    }
  }
  if (nc == 0) {
    for (int d = 0; d < 3; ++d) lo[d] = hi[d] = 0;
  }
  // Bins as large as the mean cell box on each axis (a cell then meets few bins and a bin holds
  // few cells), over the mesh's box exactly: a mesh whose cells line up with the bins (one made
  // from a structured grid) lists each cell once. Points outside the box by the tolerance fall in
  // the outer bins (the query clamps).
  double ext[3];
  index_t total = 1;
  for (int d = 0; d < 3; ++d) {
    ext[d] = hi[d] - lo[d];
    const double h = nc > 0 ? mean_ext[d] / static_cast<double>(nc) : 0.0;
    index_t b =
        ext[d] > 0 && h > 0 ? static_cast<index_t>(std::floor(ext[d] / h * (1 + 1e-12))) : 1;
    b = std::clamp<index_t>(b, 1, 1024);
    if (total * b > (index_t{1} << 26)) b = std::max<index_t>(1, (index_t{1} << 26) / total);
    loc->bins[d] = b;
    loc->lo[d] = lo[d];
    loc->inv_bin[d] = ext[d] > 0 ? static_cast<double>(b) / ext[d] : 0.0;
    total *= b;
  }
  // A cell holds points up to its tolerance outside its box: the largest cell's tolerance, in
  // bins, is how near a bin face a query must be to search across it.
  {
    double max_ext[3] = {0, 0, 0};
    for (index_t c = 0; c < nc; ++c)
      for (int d = 0; d < 3; ++d)
        max_ext[d] = std::max(
            max_ext[d], boxes[static_cast<std::size_t>(c) * 6 + 3 + static_cast<std::size_t>(d)] -
                            boxes[static_cast<std::size_t>(c) * 6 + static_cast<std::size_t>(d)]);
    for (int d = 0; d < 3; ++d) {
      double big = 0;  // the largest cell extent on any axis (a distance tolerance is isotropic)
      for (int e = 0; e < 3; ++e) big = std::max(big, max_ext[e]);
      loc->eps[d] = std::min(0.25, 4 * param_tol * (1 + big * loc->inv_bin[d]) + 1e-9);
    }
  }
  auto bin_range = [&](const double* b, int d, index_t& first, index_t& last) {
    const double f0 = (b[d] - lo[d]) * loc->inv_bin[d], f1 = (b[3 + d] - lo[d]) * loc->inv_bin[d];
    // the bins [floor(f0), ceil(f1)): a box face on a bin face (up to rounding, 1e-9 bins)
    // belongs to the bin above; queries that near a face search both bins
    first = std::clamp<index_t>(static_cast<index_t>(std::floor(f0 + 1e-9)), 0, loc->bins[d] - 1);
    last = std::clamp<index_t>(static_cast<index_t>(std::ceil(f1 - 1e-9)) - 1, first,
                               loc->bins[d] - 1);
  };
  std::vector<index_t> start(static_cast<std::size_t>(total) + 1, 0);
  for (int pass = 0; pass < 2; ++pass) {
    std::vector<index_t> fill;
    std::vector<index_t> cells;
    if (pass == 1) {
      for (std::size_t i = 1; i < start.size(); ++i) start[i] += start[i - 1];
      fill.assign(start.begin(), start.end() - 1);
      cells.resize(static_cast<std::size_t>(start.back()));
    }
    for (index_t c = 0; c < nc; ++c) {
      const double* b = &boxes[static_cast<std::size_t>(c) * 6];
      index_t r[3][2];
      for (int d = 0; d < 3; ++d) bin_range(b, d, r[d][0], r[d][1]);
      for (index_t z = r[2][0]; z <= r[2][1]; ++z)
        for (index_t y = r[1][0]; y <= r[1][1]; ++y)
          for (index_t x = r[0][0]; x <= r[0][1]; ++x) {
            const auto bin = static_cast<std::size_t>(x + loc->bins[0] * (y + loc->bins[1] * z));
            if (pass == 0) {
              ++start[bin + 1];
            } else {
              cells[static_cast<std::size_t>(fill[bin]++)] = c;
            }
          }
    }
    if (pass == 1) {
      // the boxes enlarged by a little more than rounding to float loses, so that the quick
      // rejection never drops a cell that the exact test would accept
      std::vector<locator_entry> entries(cells.size());
      for (std::size_t k = 0; k < cells.size(); ++k) {
        const auto c = static_cast<std::size_t>(cells[k]);
        locator_entry& e = entries[k];
        e.cell = cells[k];
        for (std::size_t d = 0; d < 3; ++d) {
          const double lo_d = boxes[6 * c + d], hi_d = boxes[6 * c + 3 + d];
          const double pad =
              1e-5 * (hi_d - lo_d) + 1e-6 * std::max(std::fabs(lo_d), std::fabs(hi_d)) + 1e-30;
          e.lo[d] = static_cast<float>(lo_d - pad);
          e.hi[d] = static_cast<float>(hi_d + pad);
        }
      }
      const tack::device dev = connectivity.device();
      loc->bin_start = array_from(start).to_device(dev);
      loc->entries = array_from(entries).to_device(dev);
    }
  }
  locator_ = loc;
  built_key_ = k;
  ++builds_;
  return locator_;
}

}  // namespace detail
}  // namespace tack::dataset
