// SPDX-License-Identifier: BSD-3-Clause
// tack::launch on the CPU backends: argument conversion per layout, checks, versions, row views.
#include <tack/arrays/all.hpp>
#include <tack/array/factories.hpp>
#include <tack/array/soa.hpp>
#include <tack/exec/atomic.hpp>
#include <tack/exec/launch.hpp>
#include <tack/types/vec.hpp>

#include <gtest/gtest.h>

#include "common/tack_test.hpp"

using tack::index_t;

namespace {
// One kernel source for every layout: y[i] = a * x[i] + y[i].
struct axpy {
  template <class Y, class X, class S>
  TACK_HOST_DEVICE void operator()(index_t i, Y y, X x, S a) const {
    y[i] += a * x[i];
  }
};
// Concrete parameter types: AoS vec3f only.
struct aos_only {
  TACK_HOST_DEVICE void operator()(index_t i, tack::view<tack::vec3f> v) const { v[i] = {1, 1, 1}; }
};
struct count_into {
  template <class H, class K>
  TACK_HOST_DEVICE void operator()(index_t i, H hist, K keys) const {
    tack::atomic_add(hist[keys[i]], 1);
  }
};
struct fill_index {
  template <class V>
  TACK_HOST_DEVICE void operator()(index_t i, V v) const {
    v[i] = static_cast<float>(i);
  }
};
struct first_component {
  template <class O, class P>
  TACK_HOST_DEVICE void operator()(index_t i, O out, P pos) const {
    out[i] = pos[i][0];
  }
};
}  // namespace

class Launch : public ::testing::TestWithParam<int> {
protected:
  void SetUp() override { tack::set_num_threads(GetParam()); }
};

TEST_P(Launch, OneKernelEveryLayout) {
  const index_t n = 1000;
  for (auto ly : {tack::layout::aos, tack::layout::soa}) {
    for (auto lx : {tack::layout::aos, tack::layout::soa}) {
      auto y = tack::full(n, tack::vec3f{1, 2, 3}, {.layout = ly});
      auto x = tack::full(n, tack::vec3f{1, 1, 1}, {.layout = lx});
      tack::launch(n, axpy{}, y, x.as_const(), 2.0f);
      for (auto v : y.to_vector()) ASSERT_EQ(v, (tack::vec3f{3, 4, 5}));
    }
  }
}

TEST_P(Launch, ConcreteKernelsAcceptOnlyTheirLayout) {
  auto aos = tack::zeros<tack::vec3f>(4);
  tack::launch(4, aos_only{}, aos);
  EXPECT_EQ(aos(3), (tack::vec3f{1, 1, 1}));
  auto soa = tack::zeros<tack::vec3f>(4, {.layout = tack::layout::soa});
  EXPECT_THROW_MSG(tack::launch(4, aos_only{}, soa), tack::value_error, "argument 1", "soa",
                   "tack::soa_view");
}

TEST_P(Launch, ChecksDevicesReadOnlyAndCounts) {
  std::vector<float> host(4);
  auto ro = tack::from_ptr(host.data(), {4});
  auto out = tack::zeros<float>(4);
  EXPECT_THROW_MSG(tack::launch(4, axpy{}, ro, out.as_const(), 1.0f), tack::read_only_error,
                   "argument 1", "as_const()");
  tack::launch(4, axpy{}, out, ro.as_const(), 1.0f);  // read-only input, passed as const: fine
  auto elsewhere = tack::from_ptr(host.data(), {4}, {.device = tack::cuda(0), .writable = true});
  EXPECT_THROW_MSG(tack::launch(tack::cpu(), 4, axpy{}, out, elsewhere.as_const(), 1.0f),
                   tack::value_error, "argument 2", "cuda:0", "launch runs on cpu");
  EXPECT_THROW_MSG(tack::launch(-1, axpy{}, out, out.as_const(), 1.0f), tack::value_error, "-1");
}

TEST_P(Launch, ReadOnlySoaComponentIsNamed) {
  std::vector<float> host(4);
  auto x = tack::zeros<float>(4), z = tack::zeros<float>(4);
  auto y = tack::from_ptr(host.data(), {4});  // read-only: borrowed without writable
  auto pos = tack::soa(x, y, z);
  auto out = tack::zeros<float>(4);
  EXPECT_THROW_MSG(tack::launch(4, first_component{}, out, pos), tack::read_only_error,
                   "tack::launch", "component 1 of argument 2", "read-only", "as_const()");
  const auto v = out.version();
  tack::launch(4, first_component{}, out, pos.as_const());  // read through as_const: fine
  EXPECT_GT(out.version(), v);
}

TEST_P(Launch, WritableArgumentsBumpTheirVersion) {
  auto y = tack::zeros<float>(8);
  auto x = tack::ones<float>(8);
  const auto vy = y.version(), vx = x.version();
  tack::launch(8, axpy{}, y, x.as_const(), 1.0f);
  EXPECT_GT(y.version(), vy);
  EXPECT_EQ(x.version(), vx);
}

TEST_P(Launch, KernelsWriteOnlyTheViewsRows) {
  auto a = tack::zeros<float>(10);
  auto v = a.rows(3, 6);
  tack::launch(v.size(), fill_index{}, v);
  EXPECT_EQ(a.to_vector(), (std::vector<float>{0, 0, 0, 0, 1, 2, 0, 0, 0, 0}));
  // several views of one array in one kernel
  auto lo = a.rows(0, 5), hi = a.rows(5, 10);
  tack::launch(5, axpy{}, lo, hi.as_const(), 10.0f);
  EXPECT_EQ(a.to_vector(), (std::vector<float>{20, 0, 0, 0, 1, 2, 0, 0, 0, 0}));
}

TEST_P(Launch, AtomicsIntoAView) {
  auto hist = tack::zeros<int>(8);
  auto keys = tack::array_from<int>({0, 1, 1, 2, 2, 2, 3, 3, 3, 3});
  tack::launch(keys.size(), count_into{}, hist.rows(2, 6), keys.as_const());
  EXPECT_EQ(hist.to_vector(), (std::vector<int>{0, 0, 1, 2, 3, 4, 0, 0}));
}

TEST_P(Launch, ImplicitArgumentsAndSoaInsideThem) {
  auto out = tack::zeros<double>(5);
  tack::launch(5, axpy{}, out, tack::arrays::counting<double>(5), 3.0);
  EXPECT_EQ(out.to_vector(), (std::vector<double>{0, 3, 6, 9, 12}));
}

// A kernel whose parameter names the general counting type: launch passes counting's step-1 form,
// which converts to it, so the kernel runs for both steps.
struct store_counting {
  void operator()(tack::index_t i, tack::view<int> out,
                  tack::arrays::implicit_array<tack::arrays::counting_fn<int>> c) const {
    out[i] = c[i];
  }
};

TEST_P(Launch, AConcreteCountingParameterAcceptsEveryStep) {
  auto out = tack::zeros<int>(4);
  tack::launch(4, store_counting{}, out, tack::arrays::counting<int>(4, 5));
  EXPECT_EQ(out.to_vector(), (std::vector<int>{5, 6, 7, 8}));
  tack::launch(4, store_counting{}, out, tack::arrays::counting<int>(4, 5, -2));
  EXPECT_EQ(out.to_vector(), (std::vector<int>{5, 3, 1, -1}));
}

TEST_P(Launch, DisjointnessOfWritableArguments) {
  auto a = tack::zeros<double>({6, 3});
  EXPECT_TRUE(tack::writable_arguments_disjoint(a.rows(0, 2), a.rows(2, 4)));
  EXPECT_FALSE(tack::writable_arguments_disjoint(a, a.rows(2, 4)));
  EXPECT_FALSE(tack::writable_arguments_disjoint(a.rows(0, 3), a.rows(2, 4)));
  EXPECT_FALSE(tack::writable_arguments_disjoint(a, a.as_const()));  // read of a written array
  EXPECT_TRUE(tack::writable_arguments_disjoint(a.rows(0, 2), a.rows(2, 6).as_const(),
                                                a.rows(2, 6).as_const()));
  auto x = tack::zeros<float>(3);
  EXPECT_FALSE(tack::writable_arguments_disjoint(tack::soa(x, x)));
}

INSTANTIATE_TEST_SUITE_P(Threads, Launch, ::testing::Values(1, 2));
