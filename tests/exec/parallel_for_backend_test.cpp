// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
// parallel_for on every backend the build has: each index runs exactly once, ranges visit every
// (i, j[, k]) once in the right place, bad counts are refused before anything runs.
// Compiled by nvcc in CUDA builds and hipcc in HIP builds: kernels are functors or typed
// TACK_LAMBDAs, defined in free functions (nvcc refuses extended lambdas inside gtest's private
// TestBody).
#include <tack/exec/parallel_for.hpp>
#include <tack/exec/threads.hpp>

#include <gtest/gtest.h>

#include "common/tack_test.hpp"

#include <cstddef>
#include <string>
#include <vector>

namespace {

using tack::index_t;
using tack::test::shared_buffer;

// A functor kernel (the form generic kernels take): counts visits and records a value.
struct mark_kernel {
  int* visits;
  long long* values;
  TACK_HOST_DEVICE void operator()(index_t i) const {
    visits[i] += 1;
    values[i] = 3 * i + 1;
  }
};

template <class Backend>
void check_each_index_once(index_t n) {
  shared_buffer<Backend, int> visits(n);
  shared_buffer<Backend, long long> values(n);
  tack::parallel_for(Backend{}, n, mark_kernel{visits.data(), values.data()});
  for (index_t i = 0; i < n; ++i) {
    ASSERT_EQ(visits[i], 1) << "n = " << n << ", index " << i;
    ASSERT_EQ(values[i], 3 * i + 1) << "n = " << n << ", index " << i;
  }
}

template <class Backend>
void check_lambda_kernel(index_t n) {
  shared_buffer<Backend, float> x(n);
  shared_buffer<Backend, float> y(n);
  for (index_t i = 0; i < n; ++i) {
    x[i] = static_cast<float>(i);
    y[i] = 1.0f;
  }
  float* xp = x.data();
  float* yp = y.data();
  const float a = 2.0f;
  tack::parallel_for(
      Backend{}, n, TACK_LAMBDA(index_t i) { yp[i] = a * xp[i] + yp[i]; });
  for (index_t i = 0; i < n; ++i) ASSERT_EQ(y[i], 2.0f * static_cast<float>(i) + 1.0f) << i;
}

template <class Backend>
void check_range2(index_t nx, index_t ny) {
  const index_t n = nx * ny;
  shared_buffer<Backend, int> visits(n);
  shared_buffer<Backend, long long> where(n);
  int* v = visits.data();
  long long* w = where.data();
  tack::parallel_for(
      Backend{}, tack::range{nx, ny}, TACK_LAMBDA(index_t i, index_t j) {
        v[i * ny + j] += 1;
        w[i * ny + j] = i * 100000 + j;
      });
  for (index_t i = 0; i < nx; ++i) {
    for (index_t j = 0; j < ny; ++j) {
      ASSERT_EQ(visits[i * ny + j], 1) << "range{" << nx << ", " << ny << "} at " << i << ", " << j;
      ASSERT_EQ(where[i * ny + j], i * 100000 + j);
    }
  }
}

template <class Backend>
void check_range3(index_t nx, index_t ny, index_t nz) {
  const index_t n = nx * ny * nz;
  shared_buffer<Backend, int> visits(n);
  shared_buffer<Backend, long long> where(n);
  int* v = visits.data();
  long long* w = where.data();
  tack::parallel_for(
      Backend{}, tack::range{nx, ny, nz}, TACK_LAMBDA(index_t i, index_t j, index_t k) {
        const index_t flat = (i * ny + j) * nz + k;
        v[flat] += 1;
        w[flat] = (i * 1000 + j) * 1000 + k;
      });
  for (index_t i = 0; i < nx; ++i) {
    for (index_t j = 0; j < ny; ++j) {
      for (index_t k = 0; k < nz; ++k) {
        const index_t flat = (i * ny + j) * nz + k;
        ASSERT_EQ(visits[flat], 1) << "range{" << nx << ", " << ny << ", " << nz << "}";
        ASSERT_EQ(where[flat], (i * 1000 + j) * 1000 + k);
      }
    }
  }
}

template <class Backend>
void check_range1(index_t n) {
  shared_buffer<Backend, int> visits(n);
  int* v = visits.data();
  tack::parallel_for(
      Backend{}, tack::range{n}, TACK_LAMBDA(index_t i) { v[i] += 1; });
  for (index_t i = 0; i < n; ++i) ASSERT_EQ(visits[i], 1);
}

// A kernel that must never run (used with empty and refused launches).
struct never_kernel {
  int* flag;
  TACK_HOST_DEVICE void operator()(index_t) const { *flag = 1; }
  TACK_HOST_DEVICE void operator()(index_t, index_t) const { *flag = 1; }
  TACK_HOST_DEVICE void operator()(index_t, index_t, index_t) const { *flag = 1; }
};

template <class Backend>
void check_refusals() {
  shared_buffer<Backend, int> flag(1);
  const never_kernel k{flag.data()};
  tack::parallel_for(Backend{}, 0, k);
  tack::parallel_for(Backend{}, tack::range{0, 5}, k);
  tack::parallel_for(Backend{}, tack::range{5, 0}, k);
  tack::parallel_for(Backend{}, tack::range{3, 4, 0}, k);
  EXPECT_THROW_MSG(tack::parallel_for(Backend{}, -5, k), tack::value_error, "tack::parallel_for",
                   "n = -5");
  EXPECT_THROW_MSG(tack::parallel_for(Backend{}, tack::range{4, -2}, k), tack::value_error,
                   "tack::parallel_for", "{4, -2}", "dimension 1");
  try {
    const index_t big = index_t{1} << 40;
    tack::parallel_for(Backend{}, tack::range{big, big}, k);
    ADD_FAILURE() << "an overflowing range was accepted";
  } catch (const tack::value_error& e) {
    EXPECT_NE(std::string(e.what()).find("2^63"), std::string::npos) << e.what();
  }
  EXPECT_EQ(flag[0], 0) << "a kernel ran for an empty or refused launch";
}

template <class Backend>
class parallel_for_backend : public tack::test::backend_test<Backend> {};

TYPED_TEST_SUITE(parallel_for_backend, tack::test::backends, tack::test::backend_names);

TYPED_TEST(parallel_for_backend, runs_each_index_exactly_once) {
  // Sizes around the OpenMP chunk (4096) and the thread shares, and odd ones.
  for (index_t n : {index_t{1}, index_t{2}, index_t{3}, index_t{17}, index_t{4095}, index_t{4096},
                    index_t{4097}, index_t{100003}}) {
    check_each_index_once<TypeParam>(n);
  }
}

TYPED_TEST(parallel_for_backend, typed_lambda_kernel) { check_lambda_kernel<TypeParam>(10007); }

TYPED_TEST(parallel_for_backend, ranges_visit_every_index_once_in_place) {
  check_range1<TypeParam>(9001);
  check_range2<TypeParam>(1, 1);
  check_range2<TypeParam>(3, 5000);  // rows longer than a chunk
  check_range2<TypeParam>(5000, 3);  // chunks spanning many rows
  check_range2<TypeParam>(257, 129);
  check_range3<TypeParam>(7, 11, 13);
  check_range3<TypeParam>(2, 3, 3000);
  check_range3<TypeParam>(300, 1, 17);
}

TYPED_TEST(parallel_for_backend, empty_and_negative_launches) { check_refusals<TypeParam>(); }

TYPED_TEST(parallel_for_backend, works_with_several_thread_counts) {
  const int saved = tack::num_threads();
  for (int t : {1, 2, 3, 5}) {
    tack::set_num_threads(t);
    check_each_index_once<TypeParam>(10001);
    check_range2<TypeParam>(13, 777);
  }
  tack::set_num_threads(saved);
}

// ---- device dispatch (not typed: the device picks the backend) ----------------------------------

void check_device_dispatch() {
  std::vector<int> out(1000, 0);
  int* p = out.data();
  tack::parallel_for(
      tack::cpu(), 1000, TACK_LAMBDA(index_t i) { p[i] = static_cast<int>(i); });
  for (int i = 0; i < 1000; ++i) ASSERT_EQ(out[static_cast<std::size_t>(i)], i);
  std::vector<int> grid(6 * 7, 0);
  int* g = grid.data();
  tack::parallel_for(
      tack::cpu(), tack::range{6, 7},
      TACK_LAMBDA(index_t i, index_t j) { g[i * 7 + j] = static_cast<int>(i - j); });
  for (int i = 0; i < 6; ++i) {
    for (int j = 0; j < 7; ++j) ASSERT_EQ(grid[static_cast<std::size_t>(i * 7 + j)], i - j);
  }
}

TEST(parallel_for_device, cpu_device_runs_the_kernel) { check_device_dispatch(); }

// A launch on GPU `d`, which this process does not have: a device_error naming the operation and
// the device, and, where the build has no backend for the device's kind, the option that adds it.
void check_unavailable_gpu(tack::device d) {
  int flag = 0;
  int* f = &flag;
  try {
    tack::parallel_for(
        d, 10, TACK_LAMBDA(index_t) { *f = 1; });
    ADD_FAILURE() << "a launch on unavailable device " << d.str() << " was accepted";
  } catch (const tack::device_error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("tack::parallel_for"), std::string::npos) << what;
    EXPECT_NE(what.find(d.str()), std::string::npos) << what;
    if (d.kind() != tack::detail::gpu_device_kind) {
      EXPECT_NE(what.find(d.is_hip() ? "TACK_ENABLE_HIP=ON" : "TACK_ENABLE_CUDA=ON"),
                std::string::npos)
          << what;
    }
  }
  EXPECT_EQ(flag, 0);
}

TEST(parallel_for_device, unavailable_cuda_device_is_a_device_error) {
  if (tack::is_available(tack::cuda())) GTEST_SKIP() << "a CUDA device is present";
  check_unavailable_gpu(tack::cuda());
}

TEST(parallel_for_device, unavailable_hip_device_is_a_device_error) {
  if (tack::is_available(tack::hip())) GTEST_SKIP() << "a HIP device is present";
  check_unavailable_gpu(tack::hip());
}

}  // namespace
