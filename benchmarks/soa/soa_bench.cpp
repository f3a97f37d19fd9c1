// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
// Structure-of-arrays storage (issue 7, "Performance"):
// - `axpy3_{soa,aos}_*`: one kernel source `y[i] = y[i] + s * x[i]` over `vec3d` arrays through
//   `tack::launch`, SoA against the same loop hand-written over three raw pointers per array, AoS
//   against the hand-written interleaved loop (same OpenMP schedule). 2^23 elements. Target
//   <= 1.05.
// - `norm_{soa,aos}_*`: `out[i] = norm(v[i])` over 2^24 `vec3d`, SoA and AoS side by side, against
//   hand loops. Under GCC's default `-fmath-errno`, `std::sqrt` does not vectorize (g++ 12):
//   compare builds with and without `-fno-math-errno`.
// - With Kokkos found (`__has_include(<Kokkos_Core.hpp>)`: Debian's libtrilinos-kokkos-dev needs
//   `-isystem /usr/include/trilinos` and `-ltrilinos_kokkoscore`, which benchmarks/CMakeLists.txt
//   adds), the norm through `Kokkos::View<double*[3]>` with `LayoutLeft` (SoA) and `LayoutRight`
//   (AoS) on its Serial backend (the only one Debian builds), so those groups run one thread.
#include "common/bench_util.hpp"

#include <tack/array/factories.hpp>
#include <tack/array/soa.hpp>
#include <tack/exec/launch.hpp>
#include <tack/exec/threads.hpp>
#include <tack/types/vec.hpp>

#include <cmath>
#include <cstdint>
#include <string>

#if __has_include(<Kokkos_Core.hpp>)
#define TACK_BENCH_KOKKOS 1
#include <Kokkos_Core.hpp>
#else
#define TACK_BENCH_KOKKOS 0
#endif

namespace {
using namespace tack::bench;
using tack::index_t;
using tack::vec3d;

struct axpy_k {
  template <class Y, class X>
  TACK_HOST_DEVICE void operator()(index_t i, const Y& y, const X& x, double s) const {
    y[i] = y[i] + s * x[i];
  }
};
struct norm_k {
  template <class O, class V>
  TACK_HOST_DEVICE void operator()(index_t i, const O& out, const V& v) const {
    out[i] = tack::norm(static_cast<vec3d>(v[i]));
  }
};

// ---- hand-written references --------------------------------------------------------------------
[[gnu::noipa]] void hand_axpy_soa(double* yx, double* yy, double* yz, const double* xx,
                                  const double* xy, const double* xz, double s, index_t n,
                                  [[maybe_unused]] int t) {
  TACK_BENCH_OMP(omp parallel for schedule(static) num_threads(t))
  for (index_t i = 0; i < n; ++i) {
    yx[i] = yx[i] + s * xx[i];
    yy[i] = yy[i] + s * xy[i];
    yz[i] = yz[i] + s * xz[i];
  }
}
[[gnu::noipa]] void hand_axpy_aos(double* y, const double* x, double s, index_t n,
                                  [[maybe_unused]] int t) {
  TACK_BENCH_OMP(omp parallel for schedule(static) num_threads(t))
  for (index_t i = 0; i < n; ++i) {
    y[3 * i] = y[3 * i] + s * x[3 * i];
    y[3 * i + 1] = y[3 * i + 1] + s * x[3 * i + 1];
    y[3 * i + 2] = y[3 * i + 2] + s * x[3 * i + 2];
  }
}
[[gnu::noipa]] void hand_norm_soa(double* out, const double* x, const double* y, const double* z,
                                  index_t n, [[maybe_unused]] int t) {
  TACK_BENCH_OMP(omp parallel for schedule(static) num_threads(t))
  for (index_t i = 0; i < n; ++i) out[i] = std::sqrt(x[i] * x[i] + y[i] * y[i] + z[i] * z[i]);
}
[[gnu::noipa]] void hand_norm_aos(double* out, const double* v, index_t n, [[maybe_unused]] int t) {
  TACK_BENCH_OMP(omp parallel for schedule(static) num_threads(t))
  for (index_t i = 0; i < n; ++i) {
    const double x = v[3 * i], y = v[3 * i + 1], z = v[3 * i + 2];
    out[i] = std::sqrt(x * x + y * y + z * z);
  }
}

tack::array<vec3d> make_vec3(index_t n, tack::layout l, double base) {
  auto a = tack::empty<vec3d>(n, {.layout = l});
  if (l == tack::layout::soa) {
    auto c = a.components();
    for (int k = 0; k < 3; ++k) {
      double* p = c[static_cast<std::size_t>(k)].data();
      for (index_t i = 0; i < n; ++i) p[i] = base + k + static_cast<double>(i % 101) * 0.01;
    }
  } else {
    vec3d* p = a.data();
    for (index_t i = 0; i < n; ++i)
      for (int k = 0; k < 3; ++k) p[i][k] = base + k + static_cast<double>(i % 101) * 0.01;
  }
  return a;
}

double* comp(const tack::array<vec3d>& a, int k) {
  return a.components()[static_cast<std::size_t>(k)].data();
}
double* flat(const tack::array<vec3d>& a) { return reinterpret_cast<double*>(a.data()); }

void axpy3(benchmark::State& state, tack::layout l, bool use_tack, int t) {
  if (!threads(state, t)) return;
  const auto n = static_cast<index_t>(std::size_t{1} << 23);
  auto y = make_vec3(n, l, 1.0);
  auto x = make_vec3(n, l, 2.0);
  const auto cpu = tack::cpu();
  // Pointers taken once: components() builds a vector of handles.
  double *yx = nullptr, *yy = nullptr, *yz = nullptr, *xx = nullptr, *xy = nullptr, *xz = nullptr;
  if (l == tack::layout::soa) {
    yx = comp(y, 0), yy = comp(y, 1), yz = comp(y, 2);
    xx = comp(x, 0), xy = comp(x, 1), xz = comp(x, 2);
  }
  for (auto _ : state) {
    if (use_tack) {
      tack::launch(cpu, n, axpy_k{}, y, x.as_const(), 1e-6);
    } else if (l == tack::layout::soa) {
      hand_axpy_soa(yx, yy, yz, xx, xy, xz, 1e-6, n, t);
    } else {
      hand_axpy_aos(flat(y), flat(x), 1e-6, n, t);
    }
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations() * n);
  state.SetBytesProcessed(state.iterations() * n * 72);
}

void norm(benchmark::State& state, tack::layout l, bool use_tack, int t) {
  if (!threads(state, t)) return;
  const auto n = static_cast<index_t>(std::size_t{1} << 24);
  auto v = make_vec3(n, l, 1.0);
  auto out = tack::full<double>(n, -1.0);
  const auto cpu = tack::cpu();
  double *x = nullptr, *y = nullptr, *z = nullptr;
  if (l == tack::layout::soa) x = comp(v, 0), y = comp(v, 1), z = comp(v, 2);
  for (auto _ : state) {
    if (use_tack) {
      tack::launch(cpu, n, norm_k{}, out, v.as_const());
    } else if (l == tack::layout::soa) {
      hand_norm_soa(out.data(), x, y, z, n, t);
    } else {
      hand_norm_aos(out.data(), flat(v), n, t);
    }
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations() * n);
  state.SetBytesProcessed(state.iterations() * n * 32);
}

#if TACK_BENCH_KOKKOS
template <class Layout>
struct kokkos_norm {
  Kokkos::View<double*, Kokkos::HostSpace> out;
  Kokkos::View<const double* [3], Layout, Kokkos::HostSpace> v;
  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t i) const {
    out(i) = std::sqrt(v(i, 0) * v(i, 0) + v(i, 1) * v(i, 1) + v(i, 2) * v(i, 2));
  }
};

template <class Layout>
void norm_kokkos(benchmark::State& state) {
  const auto n = static_cast<std::int64_t>(std::size_t{1} << 24);
  Kokkos::View<double* [3], Layout, Kokkos::HostSpace> v("v", n);
  Kokkos::View<double*, Kokkos::HostSpace> out("out", n);
  for (std::int64_t i = 0; i < n; ++i)
    for (int k = 0; k < 3; ++k) v(i, k) = 1.0 + k + static_cast<double>(i % 101) * 0.01;
  const kokkos_norm<Layout> f{out, v};
  for (auto _ : state) {
    Kokkos::parallel_for("norm", Kokkos::RangePolicy<Kokkos::Serial>(0, n), f);
    Kokkos::fence();
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations() * n);
  state.SetBytesProcessed(state.iterations() * n * 32);
}
#endif

[[maybe_unused]] const bool registered = [] {
#if TACK_BENCH_KOKKOS
  Kokkos::initialize();
  std::atexit([] { Kokkos::finalize(); });
#endif
  for (int t : {1, 2}) {
    const std::string s = "_t" + std::to_string(t);
    for (auto l : {tack::layout::soa, tack::layout::aos}) {
      const std::string ls = l == tack::layout::soa ? "soa" : "aos";
      add("axpy3_" + ls + s, "tack_launch", [=](auto& st) { axpy3(st, l, true, t); });
      add("axpy3_" + ls + s, "ref_hand_loop", [=](auto& st) { axpy3(st, l, false, t); });
      add("norm_" + ls + s, "tack_launch", [=](auto& st) { norm(st, l, true, t); });
      add("norm_" + ls + s, "ref_hand_loop", [=](auto& st) { norm(st, l, false, t); });
#if TACK_BENCH_KOKKOS
      if (t == 1) {
        if (l == tack::layout::soa)
          add("norm_soa_t1", "ref_kokkos_left", norm_kokkos<Kokkos::LayoutLeft>);
        else
          add("norm_aos_t1", "ref_kokkos_right", norm_kokkos<Kokkos::LayoutRight>);
      }
#endif
    }
  }
  return true;
}();

}  // namespace
