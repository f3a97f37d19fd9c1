// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
// Eigen 3.4 as a peer of vector and matrix arithmetic, one thread (Eigen runs coefficient-wise
// expressions on one thread), over the same memory: Eigen maps tack's arrays (`Eigen::Map`).
// - `eigen_axpy_t1`: `y += a x` over 2^24 doubles, `tack::launch` against Eigen's expression.
// - `eigen_dot_t1`, `eigen_sum_t1`: `tack::dot`, `tack::sum` against `x.dot(y)`, `x.sum()`.
// - `eigen_normalize_vec3d_t1`: normalize 2^22 `vec3d` in place (AoS), `tack::normalize` in a
//   kernel against `Map<Matrix3Xd>::colwise().normalize()`.
// - `eigen_mat3_vec3d_t1`: `y[i] = M x[i]` for a fixed 3x3 matrix over 2^22 `vec3d`, against
//   `Y.noalias() = M * X`.
// Without Eigen (Debian's libeigen3-dev) every group reports a skip with the reason.
#include "common/bench_util.hpp"

#include <tack/tack.hpp>

#if __has_include(<Eigen/Core>)
#define TACK_BENCH_EIGEN 1
#include <Eigen/Core>
#else
#define TACK_BENCH_EIGEN 0
#endif

#include <string>

namespace {
using namespace tack::bench;
using tack::index_t;

constexpr index_t n_scalar = index_t{1} << 24;
constexpr index_t n_vec = index_t{1} << 22;

struct axpy_k {
  template <class Y, class X>
  TACK_HOST_DEVICE void operator()(index_t i, const Y& y, const X& x, double a) const {
    y[i] = y[i] + a * x[i];
  }
};
struct normalize_k {
  template <class V>
  TACK_HOST_DEVICE void operator()(index_t i, const V& v) const {
    v[i] = tack::normalize(tack::vec3d(v[i]));
  }
};
struct mat_vec_k {
  tack::mat3d m;
  template <class Y, class X>
  TACK_HOST_DEVICE void operator()(index_t i, const Y& y, const X& x) const {
    y[i] = m * tack::vec3d(x[i]);
  }
};

#if TACK_BENCH_EIGEN
using vec_map = Eigen::Map<Eigen::VectorXd>;
using mat3x_map = Eigen::Map<Eigen::Matrix3Xd>;

void axpy(benchmark::State& state, bool eigen) {
  if (!threads(state, 1)) return;
  auto y = tack::full<double>(n_scalar, 1.0);
  auto x = tack::full<double>(n_scalar, 0.5);
  vec_map ey(y.data(), n_scalar), ex(x.data(), n_scalar);
  for (auto _ : state) {
    if (eigen) {
      ey += 1e-9 * ex;
    } else {
      tack::launch(tack::cpu(), n_scalar, axpy_k{}, y, x.as_const(), 1e-9);
    }
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(state.iterations() * n_scalar * 24);
}

void reduce(benchmark::State& state, bool eigen, bool dot) {
  if (!threads(state, 1)) return;
  auto y = tack::full<double>(n_scalar, 1.0);
  auto x = tack::full<double>(n_scalar, 0.5);
  vec_map ey(y.data(), n_scalar), ex(x.data(), n_scalar);
  for (auto _ : state) {
    double s = 0;
    if (eigen) {
      s = dot ? ex.dot(ey) : ex.sum();
    } else {
      s = dot ? tack::dot(x, y) : tack::sum(x);
    }
    benchmark::DoNotOptimize(s);
  }
  state.SetBytesProcessed(state.iterations() * n_scalar * (dot ? 16 : 8));
}

void normalize(benchmark::State& state, bool eigen) {
  if (!threads(state, 1)) return;
  auto v = tack::full<tack::vec3d>(n_vec, tack::vec3d{1.0, 2.0, 3.0});
  mat3x_map ev(reinterpret_cast<double*>(v.data()), 3, n_vec);
  for (auto _ : state) {
    if (eigen) {
      ev.colwise().normalize();
    } else {
      tack::launch(tack::cpu(), n_vec, normalize_k{}, v);
    }
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(state.iterations() * n_vec * 48);
}

void mat_vec(benchmark::State& state, bool eigen) {
  if (!threads(state, 1)) return;
  auto x = tack::full<tack::vec3d>(n_vec, tack::vec3d{1.0, 2.0, 3.0});
  auto y = tack::zeros<tack::vec3d>(n_vec);
  tack::mat3d m{};
  Eigen::Matrix3d em;
  for (int r = 0; r < 3; ++r) {
    for (int c = 0; c < 3; ++c) {
      m(r, c) = 1.0 + r - 0.5 * c;
      em(r, c) = m(r, c);
    }
  }
  mat3x_map ex(reinterpret_cast<double*>(x.data()), 3, n_vec);
  mat3x_map ey(reinterpret_cast<double*>(y.data()), 3, n_vec);
  for (auto _ : state) {
    if (eigen) {
      ey.noalias() = em * ex;
    } else {
      tack::launch(tack::cpu(), n_vec, mat_vec_k{m}, y, x.as_const());
    }
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(state.iterations() * n_vec * 48);
}
#endif

const int registered = [] {
#if TACK_BENCH_EIGEN
  add("eigen_axpy_t1", "tack_launch", [](auto& s) { axpy(s, false); });
  add("eigen_axpy_t1", "ref_eigen", [](auto& s) { axpy(s, true); });
  add("eigen_dot_t1", "tack_dot", [](auto& s) { reduce(s, false, true); });
  add("eigen_dot_t1", "ref_eigen", [](auto& s) { reduce(s, true, true); });
  add("eigen_sum_t1", "tack_sum", [](auto& s) { reduce(s, false, false); });
  add("eigen_sum_t1", "ref_eigen", [](auto& s) { reduce(s, true, false); });
  add("eigen_normalize_vec3d_t1", "tack_launch", [](auto& s) { normalize(s, false); });
  add("eigen_normalize_vec3d_t1", "ref_eigen", [](auto& s) { normalize(s, true); });
  add("eigen_mat3_vec3d_t1", "tack_launch", [](auto& s) { mat_vec(s, false); });
  add("eigen_mat3_vec3d_t1", "ref_eigen", [](auto& s) { mat_vec(s, true); });
#else
  add("eigen_axpy_t1", "ref_eigen", [](benchmark::State& s) {
    s.SkipWithError("Eigen not found: install libeigen3-dev (make bench does, as root)");
    for (auto _ : s) {
    }
  });
#endif
  return 0;
}();

}  // namespace
