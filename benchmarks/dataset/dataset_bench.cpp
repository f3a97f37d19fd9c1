// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
// tack::dataset: interpolation in a 128^3 uniform H1 vec3f field and in a tetrahedral mesh of
// about 10^6 cells (with its cell locator), and writing / reading a 256^3 vec3f field as an
// appended-raw .vti against a dd-style write / read of the same byte count in the same folder
// (TACK_BENCH_DIR, default /tmp). Counters: points/s; MB/s and the ratio to the dd-style rate.
#include "common/bench_util.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <fcntl.h>
#include <memory>
#include <string>
#include <tack/dataset/all.hpp>
#include <tack/tack.hpp>
#include <unistd.h>
#include <vector>

namespace td = tack::dataset;
using tack::index_t;

namespace {

std::string bench_dir() {
  const char* d = std::getenv("TACK_BENCH_DIR");
  return d && *d ? d : "/tmp";
}

tack::array<tack::vec3f> random_points(index_t n, float lo, float hi, std::uint64_t seed) {
  auto r = tack::arrays::random_uniform<float>(3 * n, seed, lo, hi);
  auto pts = tack::empty<tack::vec3f>(n);
  for (index_t i = 0; i < n; ++i) pts[i] = tack::vec3f{r[3 * i], r[3 * i + 1], r[3 * i + 2]};
  return pts;
}

void interpolate_uniform(benchmark::State& s) {
  const index_t N = 128;
  td::uniform_grid g({N, N, N});
  auto v = tack::empty<tack::vec3f>(g.n_points());
  {
    auto pts = g.points();
    for (index_t i = 0; i < g.n_points(); ++i) {
      auto p = pts[i];
      v[i] = tack::vec3f{float(p[0]), float(p[1] * 2), float(p[2] - p[0])};
    }
  }
  td::field f(td::H1(g), v);
  auto q = random_points(1000000, 0, float(N - 1), 7);
  for (auto _ : s) {
    auto r = f.interpolate(q);
    benchmark::DoNotOptimize(r);
  }
  s.counters["points/s"] =
      benchmark::Counter(double(q.size()) * double(s.iterations()), benchmark::Counter::kIsRate);
}

// The references for interpolate_uniform: the same field and points, the loop written by hand over
// raw pointers (OpenMP, the corners of the point 16 ahead prefetched, a fresh uninitialized output
// each time, as tack::empty gives). `FixedN` > 0 compiles the grid size into the loop (shifts
// instead of multiplies: a loop written for one grid); 0 reads it at run time, as a loop written
// for any grid does, and as tack does.
template <index_t FixedN>
void interpolate_uniform_by_hand(benchmark::State& s) {
  index_t grid = 128;
  benchmark::DoNotOptimize(grid);  // the compiler does not see the value
  const index_t N = FixedN > 0 ? FixedN : grid;
  constexpr index_t n = 1000000;
  std::vector<tack::vec3f> v(std::size_t(N * N * N));
  for (index_t i = 0; i < N * N * N; ++i) {
    const float x = float(i % N), y = float((i / N) % N), z = float(i / (N * N));
    v[std::size_t(i)] = tack::vec3f{x, y * 2, z - x};
  }
  const auto q = random_points(n, 0, float(N - 1), 7).to_vector();
  const tack::vec3f* V = v.data();
  const tack::vec3f* P = q.data();
  auto lerp = [](const tack::vec3f& a, const tack::vec3f& b, float t) {
    return tack::vec3f{a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t,
                       a[2] + (b[2] - a[2]) * t};
  };
  const float top = float(N - 1);
  for (auto _ : s) {
    std::unique_ptr<tack::vec3f[]> out(
        new tack::vec3f[std::size_t(n)]);  // uninitialized, as tack::empty
    tack::vec3f* O = out.get();
#pragma omp parallel for schedule(static)
    for (index_t i = 0; i < n; ++i) {
      if (i + 16 < n) {
        const tack::vec3f& a = P[i + 16];
        const char* c = reinterpret_cast<const char*>(
            V + (index_t(a[0]) + N * (index_t(a[1]) + N * index_t(a[2]))));
        for (index_t o : {index_t(0), N * 12, N * N * 12, N * N * 12 + N * 12}) {
          __builtin_prefetch(c + o);
          __builtin_prefetch(c + o + 23);
        }
      }
      const tack::vec3f p = P[i];
      if (!(p[0] >= 0 && p[0] <= top && p[1] >= 0 && p[1] <= top && p[2] >= 0 && p[2] <= top)) {
        O[i] = tack::vec3f{NAN, NAN, NAN};
        continue;
      }
      const index_t ix = std::min(index_t(p[0]), N - 2), iy = std::min(index_t(p[1]), N - 2),
                    iz = std::min(index_t(p[2]), N - 2);
      const float tx = p[0] - float(ix), ty = p[1] - float(iy), tz = p[2] - float(iz);
      const index_t b = ix + N * (iy + N * iz), sy = N, sz = N * N;
      const tack::vec3f c00 = lerp(V[b], V[b + 1], tx), c10 = lerp(V[b + sy], V[b + sy + 1], tx);
      const tack::vec3f c01 = lerp(V[b + sz], V[b + sz + 1], tx),
                        c11 = lerp(V[b + sz + sy], V[b + sz + sy + 1], tx);
      O[i] = lerp(lerp(c00, c10, ty), lerp(c01, c11, ty), tz);
    }
    benchmark::DoNotOptimize(O);
  }
  s.counters["points/s"] =
      benchmark::Counter(double(n) * double(s.iterations()), benchmark::Counter::kIsRate);
}

// A box of nx * ny * nz cubes, 6 tetrahedra each (Kuhn's subdivision along the main diagonal).
// `jitter` > 0 moves every interior point by up to that much on each axis (a deterministic hash),
// so that the cells no longer line up with the locator's bins: the general case.
td::unstructured_grid tet_box(index_t nx, index_t ny, index_t nz, float jitter = 0) {
  const index_t px = nx + 1, py = ny + 1, pz = nz + 1;
  auto pts = tack::empty<tack::vec3f>(px * py * pz);
  auto shake = [&](index_t i, index_t n, std::uint64_t h) {
    if (jitter == 0 || i == 0 || i == n - 1) return float(i);
    h = (h ^ (h >> 31)) * 0x9e3779b97f4a7c15ull;
    h ^= h >> 29;
    return float(i) + jitter * (float(h % 2001) / 1000.0f - 1.0f);
  };
  for (index_t k = 0; k < pz; ++k)
    for (index_t j = 0; j < py; ++j)
      for (index_t i = 0; i < px; ++i) {
        const auto id = static_cast<std::uint64_t>(i + px * (j + py * k));
        pts[i + px * (j + py * k)] = tack::vec3f{shake(i, px, 3 * id + 1), shake(j, py, 3 * id + 2),
                                                 shake(k, pz, 3 * id + 3)};
      }
  const int perms[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
  std::vector<index_t> conn;
  conn.reserve(static_cast<std::size_t>(nx * ny * nz * 24));
  for (index_t k = 0; k < nz; ++k)
    for (index_t j = 0; j < ny; ++j)
      for (index_t i = 0; i < nx; ++i)
        for (const auto& p : perms) {
          index_t c[3] = {i, j, k};
          conn.push_back(c[0] + px * (c[1] + py * c[2]));
          for (int a = 0; a < 3; ++a) {
            ++c[p[a]];
            conn.push_back(c[0] + px * (c[1] + py * c[2]));
          }
        }
  const index_t ncells = nx * ny * nz * 6;
  std::vector<index_t> off(static_cast<std::size_t>(ncells) + 1);
  for (index_t c = 0; c <= ncells; ++c) off[static_cast<std::size_t>(c)] = 4 * c;
  std::vector<std::uint8_t> types(static_cast<std::size_t>(ncells), 10);
  return td::unstructured_grid(pts, tack::array_from(conn), tack::array_from(off),
                               tack::array_from(types));
}

void interpolate_tets_mesh(benchmark::State& s, float jitter) {
  auto g = tet_box(50, 50, 67, jitter);  // 1,005,000 tetrahedra
  auto v = tack::empty<float>(g.n_points());
  for (index_t i = 0; i < g.n_points(); ++i) v[i] = float(i % 97);
  td::field f(td::H1(g), v);
  auto q = random_points(1000000, 0, 50, 11);
  (void)f.interpolate(tack::vec3d{1, 1, 1});  // builds the locator (not timed)
  for (auto _ : s) {
    auto r = f.interpolate(q);
    benchmark::DoNotOptimize(r);
  }
  s.counters["points/s"] =
      benchmark::Counter(double(q.size()) * double(s.iterations()), benchmark::Counter::kIsRate);
  s.counters["locator_builds"] = g.locator_builds();
}
void interpolate_tets(benchmark::State& s) { interpolate_tets_mesh(s, 0); }
void interpolate_tets_jittered(benchmark::State& s) { interpolate_tets_mesh(s, 0.15f); }

// 256^3 vec3f: 201 MB.
constexpr index_t io_n = 256;

td::uniform_grid& io_grid() {
  static td::uniform_grid g = [] {
    td::uniform_grid grid({io_n, io_n, io_n});
    auto v = tack::empty<tack::vec3f>(grid.n_points());
    for (index_t i = 0; i < grid.n_points(); ++i) v[i] = tack::vec3f{float(i), 1, 2};
    grid.fields["velocity"] = td::field(td::H1(grid), v);
    return grid;
  }();
  return g;
}
std::size_t io_bytes() {
  return static_cast<std::size_t>(io_n * io_n * io_n) * sizeof(tack::vec3f);
}

void write_vti(benchmark::State& s) {
  auto& g = io_grid();
  const std::string path = bench_dir() + "/tack_bench_256.vti";
  for (auto _ : s) td::write_vtk(g, path, {td::vtk_encoding::appended, td::vtk_header::uint64});
  s.counters["MB/s"] = benchmark::Counter(double(io_bytes()) * double(s.iterations()) / 1e6,
                                          benchmark::Counter::kIsRate);
}

// dd if=/dev/zero of=file bs=1M count=...: the same byte count written from memory in 1 MiB blocks.
void ref_dd_write(benchmark::State& s) {
  const std::string path = bench_dir() + "/tack_bench_dd.bin";
  auto& g = io_grid();
  const auto v = g.fields.at("velocity").as<tack::vec3f>().values();
  const char* src = reinterpret_cast<const char*>(v.as_const().data());
  for (auto _ : s) {
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    for (std::size_t off = 0; off < io_bytes(); off += std::size_t{1} << 20) {
      const std::size_t n = std::min<std::size_t>(std::size_t{1} << 20, io_bytes() - off);
      if (::write(fd, src + off, n) != static_cast<ssize_t>(n)) s.SkipWithError("write failed");
    }
    ::close(fd);
  }
  s.counters["MB/s"] = benchmark::Counter(double(io_bytes()) * double(s.iterations()) / 1e6,
                                          benchmark::Counter::kIsRate);
}

void read_vti(benchmark::State& s) {
  const std::string path = bench_dir() + "/tack_bench_256.vti";
  td::write_vtk(io_grid(), path, {td::vtk_encoding::appended, td::vtk_header::uint64});
  for (auto _ : s) {
    auto m = td::read_vtk(path);
    benchmark::DoNotOptimize(m);
  }
  s.counters["MB/s"] = benchmark::Counter(double(io_bytes()) * double(s.iterations()) / 1e6,
                                          benchmark::Counter::kIsRate);
}

// dd if=file of=/dev/null bs=1M: the same byte count read in 1 MiB blocks into one buffer.
void ref_dd_read(benchmark::State& s) {
  const std::string path = bench_dir() + "/tack_bench_dd.bin";
  {
    std::vector<char> zeros(std::size_t{1} << 20);
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    for (std::size_t off = 0; off < io_bytes(); off += zeros.size())
      if (::write(fd, zeros.data(), std::min(zeros.size(), io_bytes() - off)) < 0)
        s.SkipWithError("write failed");
    ::close(fd);
  }
  std::vector<char> buf(std::size_t{1} << 20);
  for (auto _ : s) {
    const int fd = ::open(path.c_str(), O_RDONLY);
    while (::read(fd, buf.data(), buf.size()) > 0) {
    }
    ::close(fd);
  }
  s.counters["MB/s"] = benchmark::Counter(double(io_bytes()) * double(s.iterations()) / 1e6,
                                          benchmark::Counter::kIsRate);
}

const bool registered = [] {
  tack::bench::add("interpolate_uniform_128", "ref_by_hand_vec3f_1e6",
                   interpolate_uniform_by_hand<0>)
      ->MinTime(1.0);
  tack::bench::add("interpolate_uniform_128", "ref_by_hand_fixed_128",
                   interpolate_uniform_by_hand<128>)
      ->MinTime(1.0);
  tack::bench::add("interpolate_uniform_128", "tack_h1_vec3f_1e6", interpolate_uniform)
      ->MinTime(1.0);
  tack::bench::add("interpolate_tets_1e6", "tack_h1_f32_1e6", interpolate_tets)->MinTime(1.0);
  tack::bench::add("interpolate_tets_1e6", "tack_h1_f32_1e6_jittered", interpolate_tets_jittered)
      ->MinTime(1.0);
  tack::bench::add("vti_write_256", "ref_dd_write", ref_dd_write)->MinTime(2.0);
  tack::bench::add("vti_write_256", "tack_appended_raw", write_vti)->MinTime(2.0);
  tack::bench::add("vti_read_256", "ref_dd_read", ref_dd_read)->MinTime(2.0);
  tack::bench::add("vti_read_256", "tack_appended_raw", read_vti)->MinTime(2.0);
  return true;
}();

}  // namespace
