// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
// Implicit arrays inside kernels on every backend the build has (serial, OpenMP, CUDA or HIP): each
// composition evaluated by parallel_for equals the same composition read in a host loop (random
// arrays bit for bit, so the values are the same on every device and thread count), and stores
// through writable compositions land in the storage. Compiled by nvcc (hipcc) in GPU builds:
// kernels are functors (or typed TACK_LAMBDAs in free functions), so every composition's
// operator[] must be callable on the device.

#include <tack/arrays/all.hpp>
#include <tack/exec/backend/gpu/api.hpp>
#include <tack/exec/ops.hpp>
#include <tack/exec/parallel_for.hpp>
#include <tack/exec/parallel_reduce.hpp>
#include <tack/exec/threads.hpp>
#include <tack/types/mat.hpp>
#include <tack/types/vec.hpp>
#include <tack/view/soa_view.hpp>
#include <tack/view/view.hpp>

#include <gtest/gtest.h>

#include "common/tack_test.hpp"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <type_traits>
#include <vector>

namespace {

#if TACK_IMPL_GPU_KERNELS
namespace api = tack::backend::gpu::api;
#endif
using tack::index_t;
using tack::vec3f;
namespace ta = tack::arrays;

// Memory for a backend's kernels with a host mirror: device memory (cudaMalloc / hipMalloc;
// managed memory is not host-accessible on every GPU machine) for a GPU backend, the mirror itself
// for the CPU. `view()` is what kernels index, `host_view()` what host loops read; upload() and
// download() copy between them. The GPU runtime is called directly, through tack's name layer
// (this file is compiled by nvcc in CUDA builds, by hipcc in HIP builds).
template <class Backend, class T>
class mirrored_buffer {
  static constexpr bool on_gpu = tack::test::on_gpu<Backend>;

public:
  explicit mirrored_buffer(index_t n) : host_(static_cast<std::size_t>(n > 0 ? n : 1)), n_(n) {
    if constexpr (on_gpu) {
#if TACK_IMPL_GPU_KERNELS
      void* p = nullptr;
      if (api::malloc(&p, bytes()) != api::success)
        throw std::runtime_error("device malloc failed");
      device_ = static_cast<T*>(p);
#endif
    } else {
      device_ = host_.data();
    }
    upload();
  }
  ~mirrored_buffer() {
#if TACK_IMPL_GPU_KERNELS
    if constexpr (on_gpu) (void)api::free(device_);
#endif
  }
  mirrored_buffer(const mirrored_buffer&) = delete;
  mirrored_buffer& operator=(const mirrored_buffer&) = delete;
  tack::view<T> view() const { return tack::view<T>(device_, n_); }
  tack::view<T> host_view() { return tack::view<T>(host_.data(), n_); }
  T& operator[](index_t i) { return host_[static_cast<std::size_t>(i)]; }
  void upload() {
#if TACK_IMPL_GPU_KERNELS
    if constexpr (on_gpu) {
      if (api::memcpy(device_, host_.data(), bytes(), api::host_to_device) != api::success)
        throw std::runtime_error("copy to the device failed");
    }
#endif
  }
  void download() {
#if TACK_IMPL_GPU_KERNELS
    if constexpr (on_gpu) {
      if (api::memcpy(host_.data(), device_, bytes(), api::device_to_host) != api::success)
        throw std::runtime_error("copy to the host failed");
    }
#endif
  }

private:
  std::size_t bytes() const { return host_.size() * sizeof(T); }
  std::vector<T> host_;
  index_t n_ = 0;
  T* device_ = nullptr;
};

// ---- kernels: functors, as code nvcc compiles must use --------------------------------------

template <class Out, class In>
struct copy_kernel {
  Out out;
  In in;
  TACK_HOST_DEVICE void operator()(index_t i) const { out[i] = in[i]; }
};

template <class Dst, class Src>
struct store_kernel {
  Dst dst;  // a writable composition, captured by value: stores go through shallow constness
  Src src;
  TACK_HOST_DEVICE void operator()(index_t i) const { dst[i] = src[i]; }
};

template <class A>
struct read_kernel {
  A a;
  TACK_HOST_DEVICE double operator()(index_t i) const { return static_cast<double>(a[i]); }
};

struct to_celsius {
  TACK_HOST_DEVICE float operator()(float k) const { return k - 273.15f; }
};
struct to_kelvin {
  TACK_HOST_DEVICE float operator()(float c) const { return c + 273.15f; }
};
struct cube {
  TACK_HOST_DEVICE double operator()(index_t i) const { return double(i) * double(i) * double(i); }
};

// ---- comparisons ------------------------------------------------------------------------------

template <class T>
bool close(const T& a, const T& b, double rel) {
  if constexpr (tack::is_vec_v<T>) {
    for (int c = 0; c < T::length; ++c)
      if (!close(a[c], b[c], rel)) return false;
    return true;
  } else if constexpr (std::is_floating_point_v<T>) {
    if (rel == 0) return a == b || (a != a && b != b);
    return std::abs(double(a) - double(b)) <= rel * (1 + std::abs(double(b)));
  } else {
    return a == b;
  }
}

// Evaluates `dev` (a composition over kernel memory) in a kernel on the backend and `host` (the
// same composition over the host mirrors) in a host loop; `rel == 0` asks for equal bits.
template <class Backend, class D, class H>
void expect_same_as_host(const D& dev, const H& host, const char* what, double rel = 0) {
  using V = tack::array_value_t<D>;
  static_assert(std::is_same_v<V, tack::array_value_t<H>>);
  const index_t n = dev.size();
  ASSERT_EQ(host.size(), n) << what;
  mirrored_buffer<Backend, V> out(n);
  tack::parallel_for(Backend{}, n, copy_kernel<tack::view<V>, D>{out.view(), dev});
  out.download();
  index_t bad = 0;
  for (index_t i = 0; i < n; ++i) {
    const V expected = host[i];
    if (!close(out[i], expected, rel) && bad++ < 3) ADD_FAILURE() << what << ": index " << i;
  }
  EXPECT_EQ(bad, 0) << what;
}
// A computed array (no memory) is the same object on both sides.
template <class Backend, class A>
void expect_same_as_host(const A& a, const char* what, double rel = 0) {
  expect_same_as_host<Backend>(a, a, what, rel);
}

template <class Backend>
void check_computed(index_t n) {
  expect_same_as_host<Backend>(ta::counting<double>(n, -1.0, 0.25), "counting");
  expect_same_as_host<Backend>(ta::constant(vec3f{1, 2, 3}, n), "constant");
  expect_same_as_host<Backend>(ta::function(n, cube{}), "function");
  expect_same_as_host<Backend>(
      ta::uniform_coordinates({7, 5, n / 35 + 1}, vec3f{0, 1, 2}, vec3f{0.5f, 0.25f, 2}),
      "uniform_coordinates");
  expect_same_as_host<Backend>(
      ta::cartesian_product(ta::counting<float>(9), ta::counting<float>(4, 1),
                            ta::counting<float>(3)),
      "cartesian_product");
  expect_same_as_host<Backend>(ta::cast<float>(ta::counting<int>(n, -5)), "cast");
  expect_same_as_host<Backend>(ta::transform(ta::counting<float>(n), to_celsius{}), "transform");
}

// The random arrays' claim: the same bits on every backend, for any thread count.
template <class Backend>
void check_random(index_t n) {
  expect_same_as_host<Backend>(ta::random_bits(n, 42), "random_bits");
  expect_same_as_host<Backend>(ta::random_bits<std::uint64_t>(n, 42), "random_bits<u64>");
  expect_same_as_host<Backend>(ta::random_uniform<float>(n, 7), "random_uniform<float>");
  expect_same_as_host<Backend>(ta::random_uniform<float>(n, 7, -3.0f, 2.5f),
                               "random_uniform<float>(lo, hi)");
  expect_same_as_host<Backend>(ta::random_uniform<double>(n, 8, 1.0, 1e6),
                               "random_uniform<double>(lo, hi)");
  expect_same_as_host<Backend>(ta::random_normal<float>(n, 9), "random_normal<float>");
  expect_same_as_host<Backend>(ta::random_normal<double>(n, 10), "random_normal<double>");
  // Pinned values (random_test.cpp): the device computes them too.
  mirrored_buffer<Backend, double> z(4);
  tack::parallel_for(Backend{}, 4,
                     copy_kernel<tack::view<double>, decltype(ta::random_normal<double>(4, 42))>{
                         z.view(), ta::random_normal<double>(4, 42)});
  z.download();
  EXPECT_EQ(z[0], 0x1.c5e30047aa1d8p-1);
  EXPECT_EQ(z[3], -0x1.5c1ac2af49655p-1);
}

// Builds each composition twice, over kernel memory and over the host mirrors, and compares.
template <class Backend, class Make, class... Buffers>
void compare(const char* what, Make make, double rel, Buffers&... b) {
  expect_same_as_host<Backend>(make(b.view()...), make(b.host_view()...), what, rel);
}

template <class Backend>
void check_rearranging_and_expressions(index_t n) {
  mirrored_buffer<Backend, float> a(n), b(n);
  mirrored_buffer<Backend, int> idx(n);
  mirrored_buffer<Backend, vec3f> p(n);
  mirrored_buffer<Backend, float> x(n), y(n), z(n);
  for (index_t i = 0; i < n; ++i) {
    a[i] = float(i % 97) - 40.0f;
    b[i] = 0.5f + float(i % 13);
    idx[i] = int((i * 7919) % n);
    p[i] = vec3f{float(i), float(-i), 0.5f * float(i)};
    x[i] = float(i);
    y[i] = float(2 * i);
    z[i] = float(3 * i);
  }
  for (auto* buf : {&a, &b, &x, &y, &z}) buf->upload();
  idx.upload();
  p.upload();
  auto soa = [n](auto vx, auto vy, auto vz) {
    return tack::soa_view<vec3f>({vx.data(), vy.data(), vz.data()}, {n});
  };
  compare<Backend>(
      "view", [n](auto va) { return ta::view(va, 3, n - 5); }, 0, a);
  compare<Backend>(
      "strided", [](auto va) { return ta::strided(va, 3, 2); }, 0, a);
  compare<Backend>(
      "permutation", [](auto vi, auto vb) { return ta::permutation(vi, vb); }, 0, idx, b);
  compare<Backend>(
      "concatenate",
      [](auto va, auto vb) { return ta::concatenate(va, vb, ta::constant(7.0f, 5)); }, 0, a, b);
  compare<Backend>(
      "concatenate AoS + SoA",
      [&](auto vp, auto vx, auto vy, auto vz) { return ta::concatenate(vp, soa(vx, vy, vz)); }, 0,
      p, x, y, z);
  compare<Backend>(
      "components",
      [n](auto va, auto vb) { return ta::components(va, vb, ta::counting<float>(n)); }, 0, a, b);
  compare<Backend>(
      "extract_component SoA",
      [&](auto vx, auto vy, auto vz) { return ta::extract_component(soa(vx, vy, vz), 2); }, 0, x, y,
      z);
  compare<Backend>(
      "extract_component AoS", [](auto vp) { return ta::extract_component(vp, 1); }, 0, p);
  compare<Backend>(
      "a + 2 b - 1", [](auto va, auto vb) { return va + 2.0f * vb - 1.0f; }, 0, a, b);
  compare<Backend>(
      "-(a b) / b", [](auto va, auto vb) { return -(va * vb) / vb; }, 0, a, b);
  compare<Backend>(
      "vec3f expression, both layouts",
      [&](auto vp, auto vx, auto vy, auto vz) { return vp * 2.0f + soa(vx, vy, vz); }, 0, p, x, y,
      z);
  compare<Backend>(
      "minimum/maximum",
      [](auto va, auto vb) { return tack::minimum(va, vb) + tack::maximum(va, 0.0f); }, 0, a, b);
  compare<Backend>(
      "abs", [](auto va) { return tack::abs(va); }, 0, a);
  compare<Backend>(
      "sqrt", [](auto vb) { return tack::sqrt(vb); }, 0, b);  // correctly rounded
  // libm and the GPU's math library may differ in the last bits.
  compare<Backend>(
      "exp + log", [](auto vb) { return tack::exp(vb / 10.0f) + tack::log(vb); }, 1e-5, b);
  compare<Backend>(
      "sin cos", [](auto va, auto vb) { return tack::sin(va) * tack::cos(vb); }, 1e-5, a, b);
  compare<Backend>(
      "pow", [](auto vb) { return tack::pow(vb, 1.5f); }, 1e-5, b);
  compare<Backend>(
      "component-wise sqrt of vec3f", [](auto vp) { return tack::sqrt(vp); }, 0, p);
  compare<Backend>(
      "deep composition",
      [n](auto va, auto vb) {
        return ta::view(ta::permutation(ta::counting<int>(n, n - 1, -1), ta::strided(va + vb, 1)),
                        1, n - 2) *
               ta::random_uniform<float>(n - 2, 3);
      },
      0, a, b);
}

template <class Backend>
void check_stores(index_t n) {
  mirrored_buffer<Backend, float> a(n), x(n), y(n), z(n);
  mirrored_buffer<Backend, vec3f> p(n);
  auto va = a.view();
  // strided: every other element
  tack::parallel_for(Backend{}, (n + 1) / 2,
                     store_kernel<decltype(ta::strided(va, 2)), decltype(ta::counting<float>(1))>{
                         ta::strided(va, 2), ta::counting<float>((n + 1) / 2, 1.0f)});
  a.download();
  for (index_t i = 0; i < n; ++i) ASSERT_EQ(a[i], i % 2 == 0 ? float(i / 2 + 1) : 0.0f) << i;
  // permutation: a scatter that reverses
  auto rev = ta::permutation(ta::counting<index_t>(n, n - 1, -1), va);
  tack::parallel_for(
      Backend{}, n,
      store_kernel<decltype(rev), decltype(ta::counting<float>(1))>{rev, ta::counting<float>(n)});
  a.download();
  for (index_t i = 0; i < n; ++i) ASSERT_EQ(a[i], float(n - 1 - i)) << i;
  // transform with an inverse: stores inverse(v)
  auto celsius = ta::transform(va, to_celsius{}, to_kelvin{});
  tack::parallel_for(Backend{}, n,
                     store_kernel<decltype(celsius), decltype(ta::constant(0.0f, 1))>{
                         celsius, ta::constant(0.0f, n)});
  a.download();
  for (index_t i = 0; i < n; ++i) ASSERT_EQ(a[i], 273.15f) << i;
  // components: each component to its own array
  auto comps = ta::components(x.view(), y.view(), z.view());
  auto source = ta::uniform_coordinates({n, 1, 1});
  tack::parallel_for(Backend{}, n, store_kernel<decltype(comps), decltype(source)>{comps, source});
  x.download();
  y.download();
  for (index_t i = 0; i < n; ++i) {
    ASSERT_EQ(x[i], float(i)) << i;
    ASSERT_EQ(y[i], 0.0f) << i;
  }
  // concatenate of AoS and SoA storage (a proxy finds the part), and extract_component
  tack::soa_view<vec3f> soa({x.view().data(), y.view().data(), z.view().data()}, {n});
  auto both = ta::concatenate(p.view(), soa);
  tack::parallel_for(Backend{}, 2 * n,
                     store_kernel<decltype(both), decltype(ta::constant(vec3f{}, 1))>{
                         both, ta::constant(vec3f{1, 2, 3}, 2 * n)});
  auto zs = ta::extract_component(soa, 2);
  tack::parallel_for(
      Backend{}, n,
      store_kernel<decltype(zs), decltype(ta::constant(0.0f, 1))>{zs, ta::constant(9.0f, n)});
  p.download();
  x.download();
  z.download();
  for (index_t i = 0; i < n; ++i) {
    ASSERT_EQ(p[i], (vec3f{1, 2, 3})) << i;
    ASSERT_EQ(x[i], 1.0f) << i;
    ASSERT_EQ(z[i], 9.0f) << i;
  }
}

// Reductions read implicit arrays directly; the sum is exact here, so every backend agrees.
template <class Backend>
void check_reduce(index_t n) {
  auto c = ta::counting<double>(n) * 2.0;
  const double s =
      tack::parallel_reduce(Backend{}, n, 0.0, read_kernel<decltype(c)>{c}, tack::ops::plus{});
  EXPECT_EQ(s, double(n) * double(n - 1));
}

// A typed TACK_LAMBDA capturing a composition (free function: nvcc refuses extended lambdas in
// gtest's private TestBody).
template <class Backend>
void check_lambda(index_t n) {
  mirrored_buffer<Backend, double> out(n);
  auto o = out.view();
  auto e = ta::random_uniform<double>(n, 1) * 10.0 + ta::counting<double>(n);
  tack::parallel_for(
      Backend{}, n, TACK_LAMBDA(index_t i) { o[i] = e[i]; });
  out.download();
  for (index_t i = 0; i < n; ++i) ASSERT_EQ(out[i], e[i]) << i;
}

template <class Backend>
class arrays_backend : public tack::test::backend_test<Backend> {};

TYPED_TEST_SUITE(arrays_backend, tack::test::backends, tack::test::backend_names);

TYPED_TEST(arrays_backend, computed_arrays_match_the_host) { check_computed<TypeParam>(10007); }

TYPED_TEST(arrays_backend, random_arrays_are_bit_identical_to_the_host) {
  check_random<TypeParam>(100003);
}

TYPED_TEST(arrays_backend, rearranging_arrays_and_expressions_match_the_host) {
  check_rearranging_and_expressions<TypeParam>(10007);
}

TYPED_TEST(arrays_backend, stores_through_compositions_reach_the_storage) {
  check_stores<TypeParam>(4099);
}

TYPED_TEST(arrays_backend, reductions_read_implicit_arrays) { check_reduce<TypeParam>(100000); }

TYPED_TEST(arrays_backend, lambdas_capture_compositions) { check_lambda<TypeParam>(5003); }

TYPED_TEST(arrays_backend, random_arrays_do_not_depend_on_the_thread_count) {
  const int saved = tack::num_threads();
  for (int t : {1, 2, 3}) {
    tack::set_num_threads(t);
    check_random<TypeParam>(20011);
  }
  tack::set_num_threads(saved);
}

}  // namespace
