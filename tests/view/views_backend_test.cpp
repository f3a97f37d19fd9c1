// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
// The kernel views in kernels: functors with TACK_HOST_DEVICE operator() that read and write
// view, soa_view (vec3f), mdview, array_view and rows(). Typed over two runners: a host loop, and,
// when the build's GPU compiler (nvcc, hipcc) compiles this file, a GPU kernel over managed memory
// (skipped without a GPU). The runners are local so this test depends only on the views, not on the
// exec layer; the GPU one calls the vendor through tack's name layer (exec/backend/gpu/api.hpp).

#include <tack/core/index.hpp>
#include <tack/core/macros.hpp>
#include <tack/exec/backend/gpu/api.hpp>
#include <tack/types/item.hpp>
#include <tack/view/array_view.hpp>
#include <tack/view/make_view.hpp>
#include <tack/view/mdview.hpp>
#include <tack/view/soa_view.hpp>
#include <tack/view/view.hpp>

#include <gtest/gtest.h>

#include <cstdlib>
#include <new>
#include <string>
#include <type_traits>

namespace {

using tack::index_t;
using tack::vec3f;

// ---- runners ----------------------------------------------------------------------------------

struct host_loop {
  static constexpr const char* name = "host_loop";
  static bool available() { return true; }
  static void* allocate(std::size_t bytes) { return std::calloc(bytes, 1); }
  static void release(void* p) { std::free(p); }
  template <class F>
  static void run(index_t n, F f) {
    for (index_t i = 0; i < n; ++i) f(i);
  }
};

#if TACK_IMPL_GPU_KERNELS
namespace api = tack::backend::gpu::api;

template <class F>
__global__ void views_test_kernel(index_t n, F f) {
  const index_t i = index_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) f(i);
}

struct gpu_kernel {
  static constexpr const char* name = api::kind == tack::device_kind::hip ? "hip" : "cuda";
  static bool available() {
    int count = 0;
    return api::get_device_count(&count) == api::success && count > 0;
  }
  // Managed memory: the kernel writes it, the host checks it after the synchronize.
  static void* allocate(std::size_t bytes) {
    void* p = nullptr;
    if (api::malloc_managed(&p, bytes) != api::success) return nullptr;
    (void)api::memset(p, 0, bytes);
    (void)api::device_synchronize();
    return p;
  }
  static void release(void* p) { (void)api::free_managed(p); }
  template <class F>
  static void run(index_t n, F f) {
    static_assert(std::is_trivially_copyable_v<F>, "kernel arguments are copied to the device");
    if (n == 0) return;
    const int block = 128;
    views_test_kernel<<<unsigned((n + block - 1) / block), block>>>(n, f);
    const api::error_t launched = api::get_last_error();
    const api::error_t finished = api::device_synchronize();
    ASSERT_EQ(launched, api::success) << api::error_string(launched);
    ASSERT_EQ(finished, api::success) << api::error_string(finished);
  }
};
#endif

// n zero-initialized values in memory the runner's kernels can use.
template <class Runner, class T>
class test_memory {
  T* data_;

public:
  explicit test_memory(index_t n)
      : data_(static_cast<T*>(Runner::allocate(sizeof(T) * std::size_t(n)))) {
    if (data_ == nullptr) throw std::bad_alloc();
  }
  test_memory(const test_memory&) = delete;
  test_memory& operator=(const test_memory&) = delete;
  ~test_memory() { Runner::release(data_); }
  T* data() const { return data_; }
  T& operator[](index_t i) const { return data_[i]; }
};

// ---- kernels ----------------------------------------------------------------------------------

// y[i] = 2 * x[i] + 1 over rank-1 views.
template <class T>
struct scale_kernel {
  tack::view<const T> x;
  tack::view<T> y;
  TACK_HOST_DEVICE void operator()(index_t i) const { y[i] = T(2) * x[i] + T(1); }
};

// b(j, i) = a(i, j): multi-index access of rank-2 views, flat launch index.
struct transpose_kernel {
  tack::view<const float, 2> a;
  tack::view<float, 2> b;
  TACK_HOST_DEVICE void operator()(index_t k) const {
    const index_t i = k / a.extent(1), j = k % a.extent(1);
    b(j, i) = a(i, j);
  }
};

// Writes only rows [begin, end) of v, through rows() taken inside the kernel.
struct rows_kernel {
  tack::view<int, 2> v;
  index_t begin, end;
  TACK_HOST_DEVICE void operator()(index_t k) const {
    auto r = v.rows(begin, end);
    if (k < r.size()) r[k] = int(100 + k);
  }
};

// SoA update: y[i] += a * x[i]; y[i][2] = i; reads of the proxy as vec3f; compound with scalars.
struct soa_axpy_kernel {
  float a;
  tack::soa_view<const vec3f> x;
  tack::soa_view<vec3f> y;
  TACK_HOST_DEVICE void operator()(index_t i) const {
    y[i] += a * x[i];
    const vec3f current = y[i];
    y[i] = current * 2.0f;
    y[i] /= 2.0f;
    y[i].component(2) = float(i);
  }
};

// AoS <-> SoA through the same element type: s[i] = aos[i]; back[i] = s[i].
struct aos_soa_kernel {
  tack::view<const vec3f> aos;
  tack::soa_view<vec3f> s;
  tack::view<vec3f> back;
  TACK_HOST_DEVICE void operator()(index_t i) const {
    s[i] = aos[i];
    back[i] = s[i];
  }
};

// A rank-2 SoA view's rows, inside the kernel.
struct soa_rows_kernel {
  tack::soa_view<vec3f, 2> v;
  TACK_HOST_DEVICE void operator()(index_t k) const {
    auto r = v.rows(1, 3);
    if (k < r.size()) r[k] = vec3f{1.0f, 2.0f, float(k)};
  }
};

// A structure-of-arrays mdview (layout_right over (3, N)): v(c, i) = 100 c + i, and a layout_left
// view of the same memory read back.
struct mdview_kernel {
  tack::mdview<double, tack::extents<3, tack::dyn>> v;
  tack::mdview<const double, tack::dextents<2>, tack::layout_left> as_left;  // (N, 3)
  tack::mdview<double, tack::dextents<1>> copy;
  TACK_HOST_DEVICE void operator()(index_t i) const {
    for (index_t c = 0; c < 3; ++c) v(c, i) = double(100 * c + i);
    copy[i] = as_left(i, 1);  // element (i, 1) of an N x 3 column-major view is v(1, i)
  }
};

// Axom views: c(i, j) += 1 over an MCArrayView, and every 2nd element through array_view.
struct array_view_kernel {
  tack::mc_array_view<int> c;
  tack::array_view<int> spaced;
  TACK_HOST_DEVICE void operator()(index_t k) const {
    c(k / c.extent(1), k % c.extent(1)) += 1;
    if (k < spaced.size()) spaced[k] *= 10;
  }
};

// ---- tests ------------------------------------------------------------------------------------

template <class Runner>
class ViewsBackend : public ::testing::Test {
protected:
  void SetUp() override {
    if (!Runner::available()) {
      GTEST_SKIP() << Runner::name << ": no GPU device is visible to this process";
    }
  }
};

struct runner_names {
  template <class Runner>
  static std::string GetName(int) {
    return Runner::name;
  }
};

#if TACK_IMPL_GPU_KERNELS
using runners = ::testing::Types<host_loop, gpu_kernel>;
#else
using runners = ::testing::Types<host_loop>;
#endif
TYPED_TEST_SUITE(ViewsBackend, runners, runner_names);

TYPED_TEST(ViewsBackend, ScalarViews) {
  constexpr index_t n = 1000;
  test_memory<TypeParam, double> x(n), y(n);
  for (index_t i = 0; i < n; ++i) x[i] = double(i);
  TypeParam::run(n, scale_kernel<double>{tack::view<const double>(x.data(), n),
                                         tack::view<double>(y.data(), n)});
  for (index_t i = 0; i < n; ++i) ASSERT_EQ(y[i], 2.0 * double(i) + 1.0) << "i = " << i;
  test_memory<TypeParam, int> xi(n), yi(n);
  for (index_t i = 0; i < n; ++i) xi[i] = int(i);
  TypeParam::run(n,
                 scale_kernel<int>{tack::view<int>(xi.data(), n), tack::view<int>(yi.data(), n)});
  EXPECT_EQ(yi[n - 1], 2 * int(n - 1) + 1);
}

TYPED_TEST(ViewsBackend, Rank2ViewsAndRows) {
  constexpr index_t rows = 37, cols = 5;
  test_memory<TypeParam, float> a(rows * cols), b(rows * cols);
  for (index_t k = 0; k < rows * cols; ++k) a[k] = float(k);
  TypeParam::run(rows * cols, transpose_kernel{tack::view<const float, 2>(a.data(), {rows, cols}),
                                               tack::view<float, 2>(b.data(), {cols, rows})});
  for (index_t i = 0; i < rows; ++i) {
    for (index_t j = 0; j < cols; ++j) ASSERT_EQ(b[j * rows + i], a[i * cols + j]);
  }
  test_memory<TypeParam, int> v(6 * 3);
  TypeParam::run(6 * 3, rows_kernel{tack::view<int, 2>(v.data(), {6, 3}), 2, 4});
  for (index_t k = 0; k < 18; ++k) {
    const bool inside = k >= 6 && k < 12;  // rows 2 and 3
    EXPECT_EQ(v[k], inside ? int(100 + k - 6) : 0) << "k = " << k;
  }
}

TYPED_TEST(ViewsBackend, SoaViewOfVec3f) {
  constexpr index_t n = 300;
  test_memory<TypeParam, float> x0(n), x1(n), x2(n), y0(n), y1(n), y2(n);
  for (index_t i = 0; i < n; ++i) {
    x0[i] = 1.0f;
    x1[i] = float(i);
    x2[i] = -1.0f;
    y0[i] = 10.0f;
  }
  tack::soa_view<vec3f> y({y0.data(), y1.data(), y2.data()}, n);
  tack::soa_view<vec3f> x({x0.data(), x1.data(), x2.data()}, n);
  TypeParam::run(n, soa_axpy_kernel{2.0f, x, y});
  for (index_t i = 0; i < n; ++i) {
    ASSERT_EQ(y0[i], 12.0f);
    ASSERT_EQ(y1[i], 2.0f * float(i));
    ASSERT_EQ(y2[i], float(i));
  }
}

TYPED_TEST(ViewsBackend, AosToSoaAndBack) {
  constexpr index_t n = 129;
  test_memory<TypeParam, vec3f> aos(n), back(n);
  test_memory<TypeParam, float> s0(n), s1(n), s2(n);
  for (index_t i = 0; i < n; ++i) aos[i] = vec3f{float(i), float(2 * i), float(3 * i)};
  TypeParam::run(n, aos_soa_kernel{tack::view<const vec3f>(aos.data(), n),
                                   tack::soa_view<vec3f>({s0.data(), s1.data(), s2.data()}, n),
                                   tack::view<vec3f>(back.data(), n)});
  for (index_t i = 0; i < n; ++i) {
    ASSERT_EQ(s1[i], float(2 * i));
    ASSERT_EQ(s2[i], float(3 * i));
    ASSERT_EQ(back[i], aos[i]);
  }
}

TYPED_TEST(ViewsBackend, SoaRowsInsideTheKernel) {
  constexpr index_t rows = 5, cols = 4;
  test_memory<TypeParam, float> c0(rows * cols), c1(rows * cols), c2(rows * cols);
  tack::soa_view<vec3f, 2> v({c0.data(), c1.data(), c2.data()}, {rows, cols});
  TypeParam::run(rows * cols, soa_rows_kernel{v});
  for (index_t k = 0; k < rows * cols; ++k) {
    const bool inside = k >= 4 && k < 12;  // rows 1 and 2
    EXPECT_EQ(c0[k], inside ? 1.0f : 0.0f) << "k = " << k;
    EXPECT_EQ(c2[k], inside ? float(k - 4) : 0.0f) << "k = " << k;
  }
}

TYPED_TEST(ViewsBackend, Mdview) {
  constexpr index_t n = 11;
  test_memory<TypeParam, double> memory(3 * n), copy(n);
  auto v = tack::make_view<double, 3, tack::dyn>(memory.data(), n);
  tack::mdview<const double, tack::dextents<2>, tack::layout_left> as_left(memory.data(), n, 3);
  TypeParam::run(
      n, mdview_kernel{v, as_left, tack::mdview<double, tack::dextents<1>>(copy.data(), n)});
  for (index_t c = 0; c < 3; ++c) {
    for (index_t i = 0; i < n; ++i) ASSERT_EQ(memory[c * n + i], double(100 * c + i));
  }
  for (index_t i = 0; i < n; ++i) EXPECT_EQ(copy[i], double(100 + i));
}

TYPED_TEST(ViewsBackend, ArrayViews) {
  test_memory<TypeParam, int> a(6), b(6);
  const int values[] = {2, 5, 6, 11, 1, 4};
  for (index_t i = 0; i < 6; ++i) a[i] = b[i] = values[i];
  TypeParam::run(6, array_view_kernel{tack::mc_array_view<int>(a.data(), 3, 2),
                                      tack::array_view<int>(b.data(), 3, 2)});
  const int expect_a[] = {3, 6, 7, 12, 2, 5};
  const int expect_b[] = {20, 5, 60, 11, 10, 4};
  for (index_t i = 0; i < 6; ++i) {
    EXPECT_EQ(a[i], expect_a[i]) << "i = " << i;
    EXPECT_EQ(b[i], expect_b[i]) << "i = " << i;
  }
}

}  // namespace
