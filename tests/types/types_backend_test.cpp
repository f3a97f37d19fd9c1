// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
// vec/mat operations inside TACK_HOST_DEVICE functors: the same kernel source runs in a host loop
// and, in GPU builds with a GPU, in a GPU kernel. Compiled by nvcc in CUDA builds and hipcc in HIP
// builds, so everything the functors call must be host/device code (a host-only call fails the
// build). The GPU runner calls the vendor through tack's name layer (exec/backend/gpu/api.hpp).
// The exec layer launches kernels in later tests; here a minimal runner per backend does it.

#include <tack/core/index.hpp>
#include <tack/core/macros.hpp>
#include <tack/exec/backend.hpp>
#include <tack/types/item.hpp>
#include <tack/types/mat.hpp>
#include <tack/types/vec.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <cstddef>
#include <limits>
#include <random>
#include <string>
#include <type_traits>

#if TACK_IMPL_GPU_KERNELS
#include <tack/exec/backend/gpu/api.hpp>
#define TACK_TEST_HAS_GPU_RUNNER 1
#else
#define TACK_TEST_HAS_GPU_RUNNER 0
#endif

namespace {

using tack::index_t;
using tack::mat;
using tack::vec;

// ---- the kernels ------------------------------------------------------------------------------

template <class T>
struct geometry_result {
  vec<T, 3> combo;
  vec<T, 3> cross;
  vec<T, 3> unit;
  vec<T, 3> filled;
  T dot;
  T norm;
  T cross2;
  bool equal;
};

template <class T>
struct geometry_kernel {
  const vec<T, 3>* a;
  const vec<T, 3>* b;
  geometry_result<T>* out;

  TACK_HOST_DEVICE void operator()(index_t i) const { out[i] = compute(i); }

  TACK_HOST_DEVICE geometry_result<T> compute(index_t i) const {
    const vec<T, 3> x = a[i];
    const vec<T, 3> y = b[i];
    geometry_result<T> r{};
    r.combo = T(2) * x + y * T(3) - x / T(4) - T(1) + (-y) * y;
    r.combo += vec<T, 3>{T(1), T(0), T(0)};
    r.combo *= T(0.5);
    r.cross = tack::cross(x, y);
    r.unit = tack::normalize(x);
    r.filled = vec<T, 3>::filled(x.z()) + x[0];
    r.dot = tack::dot(x, y);
    r.norm = tack::norm(x);
    r.cross2 = tack::cross(vec<T, 2>{x[0], x[1]}, vec<T, 2>{y[0], y[1]});
    r.equal = (x == x) && (x != y);
    return r;
  }
};

template <class T, int N>
struct matrix_result {
  mat<T, N, N> inv;
  mat<T, N, N> gram;
  vec<T, N> mv;
  vec<T, N> solved;
  T det;
};

template <class T, int N>
struct matrix_kernel {
  const mat<T, N, N>* m;
  const vec<T, N>* v;
  matrix_result<T, N>* out;

  TACK_HOST_DEVICE void operator()(index_t i) const { out[i] = compute(i); }

  TACK_HOST_DEVICE matrix_result<T, N> compute(index_t i) const {
    const mat<T, N, N> a = m[i];
    matrix_result<T, N> r{};
    r.inv = tack::inverse(a);
    r.gram = tack::transpose(a) * a + tack::identity<T, N>() - a * T(0);
    r.mv = a * v[i];
    r.solved = r.inv * r.mv;  // ≈ v[i]
    r.det = tack::determinant(a);
    return r;
  }
};

// ---- runners: one per backend ------------------------------------------------------------------

struct host_runner {
  static constexpr const char* name = "host loop";
  static constexpr const char* id = "host";  // in test names
  static bool available(std::string&) { return true; }
  template <class T>
  static T* allocate(std::size_t n) {
    return new T[n]{};
  }
  template <class T>
  static void release(T* p) {
    delete[] p;
  }
  template <class F>
  static void run(index_t n, const F& f) {
    for (index_t i = 0; i < n; ++i) {
      f(i);
    }
  }
};

#if TACK_TEST_HAS_GPU_RUNNER
namespace api = tack::backend::gpu::api;

template <class F>
__global__ void run_functor(F f, index_t n) {
  const index_t i = static_cast<index_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) {
    f(i);
  }
}

struct gpu_runner {
  static constexpr const char* name = api::kind == tack::device_kind::hip ? "hip" : "cuda";
  static constexpr const char* id = name;
  static bool available(std::string& why) {
    int count = 0;
    const api::error_t e = api::get_device_count(&count);
    if (e != api::success || count == 0) {
      why = std::string("no ") + api::vendor +
            " device: " + (e != api::success ? api::error_string(e) : "0 devices");
      return false;
    }
    return true;
  }
  // Managed memory: the host fills inputs and reads outputs; the kernel works on the device.
  template <class T>
  static T* allocate(std::size_t n) {
    void* p = nullptr;
    const api::error_t e = api::malloc_managed(&p, n * sizeof(T));
    EXPECT_EQ(e, api::success) << api::error_string(e);
    return static_cast<T*>(p);
  }
  template <class T>
  static void release(T* p) {
    (void)api::free_managed(p);
  }
  template <class F>
  static void run(index_t n, const F& f) {
    const unsigned blocks = static_cast<unsigned>((n + 127) / 128);
    run_functor<<<blocks, 128>>>(f, n);
    const api::error_t launch = api::get_last_error();
    ASSERT_EQ(launch, api::success) << api::error_string(launch);
    const api::error_t sync = api::device_synchronize();
    ASSERT_EQ(sync, api::success) << api::error_string(sync);
  }
};
#endif

template <class Runner, class T>
struct config {
  using runner = Runner;
  using scalar = T;
};

using backend_cases = ::testing::Types<config<host_runner, float>, config<host_runner, double>
#if TACK_TEST_HAS_GPU_RUNNER
                                       ,
                                       config<gpu_runner, float>, config<gpu_runner, double>
#endif
                                       >;

template <class C>
class TypesBackend : public ::testing::Test {
protected:
  void SetUp() override {
    std::string why;
    if (!C::runner::available(why)) {
      GTEST_SKIP() << C::runner::name << " backend unavailable here: " << why;
    }
  }
};
struct case_names {
  template <class C>
  static std::string GetName(int) {
    return std::string(C::runner::id) + "_" +
           (std::is_same_v<typename C::scalar, float> ? "f32" : "f64");
  }
};
TYPED_TEST_SUITE(TypesBackend, backend_cases, case_names);

// Owns one runner allocation for the length of a test.
template <class Runner, class T>
struct buffer {
  explicit buffer(std::size_t n) : data(Runner::template allocate<T>(n)) {}
  ~buffer() { Runner::release(data); }
  buffer(const buffer&) = delete;
  buffer& operator=(const buffer&) = delete;
  T* data;
};

// Relative closeness in units of the type's epsilon: device results may differ from the host's in
// the last bits (fused multiply-add contraction), never by more than a few ulps of the magnitudes.
template <class T>
bool close(T got, T expect, T scale, double ulps = 64) {
  return std::fabs(static_cast<double>(got) - static_cast<double>(expect)) <=
         ulps * std::numeric_limits<T>::epsilon() * (static_cast<double>(std::fabs(scale)) + 1.0);
}

TYPED_TEST(TypesBackend, VectorOperationsInAKernel) {
  using R = typename TypeParam::runner;
  using T = typename TypeParam::scalar;
  constexpr index_t n = 1000;
  buffer<R, vec<T, 3>> a(n);
  buffer<R, vec<T, 3>> b(n);
  buffer<R, geometry_result<T>> out(n);
  std::mt19937 gen(5);
  std::uniform_real_distribution<T> u(T(-10), T(10));
  for (index_t i = 0; i < n; ++i) {
    a.data[i] = vec<T, 3>{u(gen), u(gen), u(gen)};
    b.data[i] = vec<T, 3>{u(gen), u(gen), u(gen)};
  }
  a.data[0] = vec<T, 3>{};  // normalize(0) must be NaN on every backend
  R::run(n, geometry_kernel<T>{a.data, b.data, out.data});

  const geometry_kernel<T> reference{a.data, b.data, nullptr};
  for (index_t i = 0; i < n; ++i) {
    // The same kernel code, evaluated directly on the host, is the reference.
    const geometry_result<T> expect = reference.compute(i);
    const geometry_result<T>& got = out.data[i];
    const T big = T(100);
    for (int c = 0; c < 3; ++c) {
      ASSERT_TRUE(close(got.combo[c], expect.combo[c], big)) << i << " combo " << c;
      ASSERT_TRUE(close(got.cross[c], expect.cross[c], big)) << i << " cross " << c;
      ASSERT_TRUE(close(got.filled[c], expect.filled[c], big)) << i << " filled " << c;
      if (i == 0) {
        ASSERT_TRUE(std::isnan(got.unit[c])) << "normalize(0) component " << c;
      } else {
        ASSERT_TRUE(close(got.unit[c], expect.unit[c], T(1))) << i << " unit " << c;
      }
    }
    ASSERT_TRUE(close(got.dot, expect.dot, big)) << i;
    ASSERT_TRUE(close(got.norm, expect.norm, big)) << i;
    ASSERT_TRUE(close(got.cross2, expect.cross2, big)) << i;
    ASSERT_TRUE(got.equal) << i;
    // Properties that hold whatever the rounding.
    ASSERT_TRUE(close(tack::dot(got.cross, a.data[i]), T(0), big * big)) << i;
    if (i > 0) {
      ASSERT_TRUE(close(tack::norm(got.unit), T(1), T(1))) << i;
    }
  }
}

template <class R, class T, int N>
void check_matrices() {
  constexpr index_t n = 500;
  buffer<R, mat<T, N, N>> m(n);
  buffer<R, vec<T, N>> v(n);
  buffer<R, matrix_result<T, N>> out(n);
  std::mt19937 gen(17 + N);
  std::uniform_real_distribution<T> u(T(-1), T(1));
  for (index_t i = 0; i < n; ++i) {
    for (int r = 0; r < N; ++r) {
      for (int c = 0; c < N; ++c) {
        m.data[i](r, c) = u(gen) + (r == c ? T(N) : T(0));  // diagonally dominant: invertible
      }
      v.data[i][r] = u(gen);
    }
  }
  m.data[0] = mat<T, N, N>{};  // singular: NaN inverse on every backend
  R::run(n, matrix_kernel<T, N>{m.data, v.data, out.data});

  const matrix_kernel<T, N> reference{m.data, v.data, nullptr};
  for (index_t i = 0; i < n; ++i) {
    const matrix_result<T, N> expect = reference.compute(i);
    const matrix_result<T, N>& got = out.data[i];
    ASSERT_TRUE(close(got.det, expect.det, std::fabs(expect.det) * T(4))) << i;
    for (int r = 0; r < N; ++r) {
      for (int c = 0; c < N; ++c) {
        if (i == 0) {
          ASSERT_TRUE(std::isnan(got.inv(r, c))) << "inverse of the zero matrix, entry " << r << c;
        } else {
          ASSERT_TRUE(close(got.inv(r, c), expect.inv(r, c), T(1))) << i << " inv " << r << c;
        }
        ASSERT_TRUE(close(got.gram(r, c), expect.gram(r, c), T(4 * N * N))) << i << " gram";
      }
      ASSERT_TRUE(close(got.mv[r], expect.mv[r], T(2 * N))) << i << " mv " << r;
      if (i > 0) {
        ASSERT_TRUE(close(got.solved[r], v.data[i][r], T(2 * N))) << i << " solved " << r;
      }
    }
  }
}

TYPED_TEST(TypesBackend, MatrixOperationsInAKernel) {
  using R = typename TypeParam::runner;
  using T = typename TypeParam::scalar;
  check_matrices<R, T, 2>();
  check_matrices<R, T, 3>();
  check_matrices<R, T, 4>();
}

}  // namespace
