// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
// tack::launch on every backend the build has (compiled by nvcc in CUDA builds, hipcc in HIP
// builds): one kernel source over AoS and SoA arrays, row views, atomics into views, implicit
// arguments.
#include <tack/array/factories.hpp>
#include <tack/array/soa.hpp>
#include <tack/arrays/counting.hpp>
#include <tack/exec/atomic.hpp>
#include <tack/exec/launch.hpp>
#include <tack/types/vec.hpp>

#include <gtest/gtest.h>

#include "common/tack_test.hpp"

namespace {
using tack::index_t;

// y[i] += a * x[i], for any layouts of y and x.
struct axpy {
  template <class Y, class X, class S>
  TACK_HOST_DEVICE void operator()(index_t i, Y y, X x, S a) const {
    y[i] += a * x[i];
  }
};
struct count_into {
  template <class H, class K>
  TACK_HOST_DEVICE void operator()(index_t i, H hist, K keys) const {
    tack::atomic_add(hist[keys[i]], 1);
  }
};
struct store_index {
  template <class V, class C>
  TACK_HOST_DEVICE void operator()(index_t i, V v, C c) const {
    v[i] = c[i];
  }
};

template <class Backend>
class LaunchBackend : public tack::test::backend_test<Backend> {
protected:
  tack::options on_device(tack::layout l = tack::layout::aos) {
    return {.device = tack::test::device_of<Backend>(), .layout = l};
  }
};

TYPED_TEST_SUITE(LaunchBackend, tack::test::backends, tack::test::backend_names);

TYPED_TEST(LaunchBackend, OneKernelEveryLayout) {
  const index_t n = 3000;
  std::vector<tack::vec3f> ones(static_cast<std::size_t>(n), tack::vec3f{1, 1, 1});
  for (auto ly : {tack::layout::aos, tack::layout::soa}) {
    for (auto lx : {tack::layout::aos, tack::layout::soa}) {
      auto y = tack::zeros<tack::vec3f>(n, this->on_device(ly));
      auto x = tack::zeros<tack::vec3f>(n, this->on_device(lx));
      tack::copyto(x, ones);
      tack::launch(TypeParam{}, n, axpy{}, y, x.as_const(), 2.0f);
      for (auto v : y.to_vector()) ASSERT_EQ(v, (tack::vec3f{2, 2, 2}));
    }
  }
}

TYPED_TEST(LaunchBackend, RowViewsAndImplicitArguments) {
  auto a = tack::zeros<double>(10, this->on_device());
  tack::launch(TypeParam{}, 3, store_index{}, a.rows(4, 7), tack::arrays::counting<double>(3, 1.0));
  EXPECT_EQ(a.to_vector(), (std::vector<double>{0, 0, 0, 0, 1, 2, 3, 0, 0, 0}));
}

TYPED_TEST(LaunchBackend, AtomicsIntoAView) {
  auto hist = tack::zeros<int>(8, this->on_device());
  auto keys = tack::zeros<int>(1000, this->on_device());
  std::vector<int> k(1000);
  for (std::size_t i = 0; i < k.size(); ++i) k[i] = static_cast<int>(i % 4);
  tack::copyto(keys, k);
  tack::launch(TypeParam{}, 1000, count_into{}, hist.rows(2, 6), keys.as_const());
  EXPECT_EQ(hist.to_vector(), (std::vector<int>{0, 0, 250, 250, 250, 250, 0, 0}));
}

}  // namespace
