// SPDX-License-Identifier: BSD-3-Clause
// tack::launch on the CPU passes restrict views when no writable argument overlaps another
// argument (disjoint rows of one array included), and plain views otherwise; results follow index
// order either way.
#include <tack/array/factories.hpp>
#include <tack/array/soa.hpp>
#include <tack/arrays/all.hpp>
#include <tack/exec/launch.hpp>
#include <tack/types/vec.hpp>

#include <gtest/gtest.h>

#include "common/tack_test.hpp"

#include <vector>

using tack::index_t;

namespace {
// Writes into `flag` whether the views it was given are restrict views.
struct which_form {
  template <class F, class Y, class X>
  TACK_HOST_DEVICE void operator()(index_t i, const F& flag, const Y& y, const X& x) const {
    if (i == 0) {
      flag[0] = tack::detail::is_restrict_form_v<Y> && tack::detail::is_restrict_form_v<X> &&
                tack::detail::is_restrict_form_v<F>;
    }
    y[i] = x[i];
  }
};
// Two outputs from one input.
struct two_outputs {
  template <class Y, class Z, class X>
  TACK_HOST_DEVICE void operator()(index_t i, const Y& y, const Z& z, const X& x) const {
    y[i] = 2.0f * x[i];
    z[i] = x[i] + 1.0f;
  }
};
struct plus_one {
  template <class Y, class X>
  TACK_HOST_DEVICE void operator()(index_t i, const Y& y, const X& x) const {
    y[i] = x[i] + 1.0f;
  }
};
// Concrete parameter types still take the restrict forms.
struct concrete_scale {
  TACK_HOST_DEVICE void operator()(index_t i, tack::view<float> y, tack::view<const float> x,
                                   float s) const {
    y[i] = s * x[i];
  }
};

bool restrict_form_seen(const tack::array<int>& flag, const tack::array<float>& y,
                        const tack::array<const float>& x) {
  tack::launch(tack::serial_backend{}, y.size(), which_form{}, flag, y, x);
  return flag.to_vector()[0] != 0;
}
}  // namespace

TEST(LaunchRestrict, DisjointArgumentsGetRestrictViews) {
  auto flag = tack::zeros<int>(1);
  auto a = tack::zeros<float>(8);
  EXPECT_TRUE(restrict_form_seen(flag, a.rows(0, 4), a.rows(4, 8).as_const()));
  EXPECT_FALSE(
      restrict_form_seen(flag, a.rows(0, 4), a.rows(3, 7).as_const()));  // one element shared
  EXPECT_FALSE(restrict_form_seen(flag, a.rows(0, 4), a.rows(0, 4).as_const()));
  EXPECT_TRUE(restrict_form_seen(flag, tack::zeros<float>(4), tack::zeros<float>(4)));
}

TEST(LaunchRestrict, ReadOnlyArgumentsMayOverlapEachOther) {
  auto x = tack::full<float>(4, 1.0f);
  auto y = tack::zeros<float>(4), z = tack::zeros<float>(4);
  EXPECT_TRUE(tack::writable_arguments_disjoint(y, z, x.as_const(), x.as_const()));
  tack::launch(tack::cpu(), 4, two_outputs{}, y, z, x.as_const());
  EXPECT_EQ(y.to_vector(), (std::vector<float>{2, 2, 2, 2}));
  EXPECT_EQ(z.to_vector(), (std::vector<float>{2, 2, 2, 2}));
}

TEST(LaunchRestrict, SoaOfOneArrayTwiceIsNotDisjoint) {
  auto x = tack::zeros<float>(3), y = tack::zeros<float>(3);
  EXPECT_FALSE(tack::writable_arguments_disjoint(tack::soa(x, x)));
  EXPECT_TRUE(tack::writable_arguments_disjoint(tack::soa(x, y)));
  EXPECT_FALSE(tack::writable_arguments_disjoint(tack::soa(x, y), y.as_const()));
  EXPECT_TRUE(tack::writable_arguments_disjoint(tack::soa(x, y).as_const(), y.as_const()));
}

TEST(LaunchRestrict, EmptyArraysOverlapNothing) {
  auto a = tack::zeros<float>(4);
  EXPECT_TRUE(tack::writable_arguments_disjoint(a, tack::zeros<float>(0)));
}

TEST(LaunchRestrict, ManyArgumentsBeyondTheInlineRanges) {
  std::vector<tack::array<float>> v;
  for (int k = 0; k < 10; ++k) v.push_back(tack::zeros<float>(2));
  EXPECT_TRUE(tack::writable_arguments_disjoint(v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7],
                                                v[8], v[9]));
  EXPECT_FALSE(tack::writable_arguments_disjoint(v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7],
                                                 v[8], v[9], v[9].as_const()));
}

// Rows of one array overlapping by one element: each index's stores happen in index order, as a
// loop over i would do them, whatever the backend vectorizes.
TEST(LaunchRestrict, OutputsOverlappingByOneElementFollowIndexOrder) {
  constexpr index_t n = 64;
  auto a = tack::zeros<float>(2 * n - 1);
  auto x = tack::zeros<float>(n);
  std::vector<float> xs(n), expected(2 * n - 1, 0.0f);
  for (index_t i = 0; i < n; ++i) xs[std::size_t(i)] = float(i);
  tack::copyto(x, tack::array_from(xs));
  for (index_t i = 0; i < n; ++i) {
    expected[std::size_t(i)] = 2.0f * float(i);          // y = a[0, n)
    expected[std::size_t(n - 1 + i)] = float(i) + 1.0f;  // z = a[n - 1, 2n - 1)
  }
  EXPECT_FALSE(tack::writable_arguments_disjoint(a.rows(0, n), a.rows(n - 1, 2 * n - 1)));
  tack::launch(tack::serial_backend{}, n, two_outputs{}, a.rows(0, n), a.rows(n - 1, 2 * n - 1),
               x.as_const());
  EXPECT_EQ(a.to_vector(), expected);
}

TEST(LaunchRestrict, InputOverlappingTheOutputByAllButOneElementFollowsIndexOrder) {
  constexpr index_t n = 64;
  auto a = tack::zeros<float>(n + 1);
  // y = a[1, n + 1), x = a[0, n): y[i] = x[i] + 1 makes a[k] = k in index order.
  tack::launch(tack::serial_backend{}, n, plus_one{}, a.rows(1, n + 1), a.rows(0, n).as_const());
  std::vector<float> expected(std::size_t(n + 1));
  for (index_t k = 0; k <= n; ++k) expected[std::size_t(k)] = float(k);
  EXPECT_EQ(a.to_vector(), expected);
}

TEST(LaunchRestrict, SoaOutputsOverlappingByOneElementFollowIndexOrder) {
  constexpr index_t n = 32;
  auto a = tack::zeros<float>(2 * n - 1);
  auto b = tack::zeros<float>(n), c = tack::zeros<float>(n);
  auto x = tack::full<tack::vec2f>(n, tack::vec2f{1.0f, 3.0f});
  // y's first component and z's first component share one element of a.
  auto y = tack::soa(a.rows(0, n), b), z = tack::soa(a.rows(n - 1, 2 * n - 1), c);
  EXPECT_FALSE(tack::writable_arguments_disjoint(y, z, x.as_const()));
  tack::launch(tack::serial_backend{}, n, two_outputs{}, y, z, x.as_const());
  const auto av = a.to_vector();
  for (index_t i = 0; i < n - 1; ++i) EXPECT_EQ(av[std::size_t(i)], 2.0f);
  EXPECT_EQ(av[std::size_t(n - 1)], 2.0f);  // y[n - 1] is stored after z[0]
  for (index_t i = n; i < 2 * n - 1; ++i) EXPECT_EQ(av[std::size_t(i)], 2.0f);
  EXPECT_EQ(b.to_vector(), std::vector<float>(n, 6.0f));
  EXPECT_EQ(c.to_vector(), std::vector<float>(n, 4.0f));
}

class LaunchRestrictThreads : public tack::test::restores_num_threads {};

TEST_F(LaunchRestrictThreads, ConcreteKernelsTakeRestrictViews) {
  auto x = tack::full<float>(5, 2.0f);
  for (int threads : {1, 2}) {
    tack::set_num_threads(threads);
    auto y = tack::zeros<float>(5);
    tack::launch(tack::cpu(), 5, concrete_scale{}, y, x.as_const(), 3.0f);
    EXPECT_EQ(y.to_vector(), std::vector<float>(5, 6.0f));
  }
}

TEST_F(LaunchRestrictThreads, DisjointAndOverlappingResultsOnEveryThreadCount) {
  constexpr index_t n = 10000;
  auto x = tack::zeros<float>(n);
  tack::copyto(x, tack::arrays::counting<float>(n));
  for (int threads : {1, 2}) {
    tack::set_num_threads(threads);
    auto y = tack::zeros<float>(n), z = tack::zeros<float>(n);
    tack::launch(tack::cpu(), n, two_outputs{}, y, z, x.as_const());
    const auto yv = y.to_vector(), zv = z.to_vector();
    for (index_t i = 0; i < n; ++i) {
      ASSERT_EQ(yv[std::size_t(i)], 2.0f * float(i));
      ASSERT_EQ(zv[std::size_t(i)], float(i) + 1.0f);
    }
    // Overlapping by one element. On two threads two iterations store that element: a race of
    // the kernel itself (ThreadSanitizer reports it), so the overlap runs on one thread.
    if (threads > 1) continue;
    auto a = tack::zeros<float>(2 * n - 1);
    tack::launch(tack::cpu(), n, two_outputs{}, a.rows(0, n), a.rows(n - 1, 2 * n - 1),
                 x.as_const());
    const auto av = a.to_vector();
    for (index_t i = 0; i < n - 1; ++i) ASSERT_EQ(av[std::size_t(i)], 2.0f * float(i));
    for (index_t i = 1; i < n; ++i) ASSERT_EQ(av[std::size_t(n - 1 + i)], float(i) + 1.0f);
  }
}
