// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
// tack::copyto and tack::fill into destinations that are not tack::arrays (every algorithm takes
// stored and implicit arrays): writable implicit arrays store through to the
// arrays they wrap (a copy into a permutation scatters), versions of held arrays are bumped, and
// read-only, device and size mismatches are refused. Computed destinations do not compile
// (tests/compile_fail/arrays_store.cpp, cases 6 and 7).

#include <tack/array/copyto.hpp>
#include <tack/array/factories.hpp>
#include <tack/arrays/all.hpp>
#include <tack/types/vec.hpp>
#include <tack/view/view.hpp>

#include <gtest/gtest.h>

#include <vector>

#include "common/tack_test.hpp"

namespace {

using tack::index_t;
namespace ta = tack::arrays;

struct twice {
  TACK_HOST_DEVICE float operator()(float x) const { return 2 * x; }
};
struct half {
  TACK_HOST_DEVICE float operator()(float x) const { return x / 2; }
};

TEST(StoreAlgorithms, CopyIntoAPermutationScatters) {
  auto out = tack::zeros<double>(4);
  auto order = tack::array_from<int>({2, 0, 3, 1});
  const auto before = out.version();
  tack::copyto(ta::permutation(order, out), tack::array_from<double>({10, 11, 12, 13}));
  EXPECT_EQ(out.to_vector(), (std::vector<double>{11, 13, 10, 12}));  // out[order[i]] = v[i]
  EXPECT_GT(out.version(), before);
  // An implicit source is evaluated in the same pass, without a temporary.
  tack::copyto(ta::permutation(order, out), ta::counting<double>(4, 1.0, 1.0));
  EXPECT_EQ(out.to_vector(), (std::vector<double>{2, 4, 1, 3}));
}

TEST(StoreAlgorithms, CopyThroughStridedViewsAndInverses) {
  auto a = tack::zeros<float>(6);
  tack::copyto(ta::strided(a, 2, 1), ta::constant(5.0f, 3));
  EXPECT_EQ(a.to_vector(), (std::vector<float>{0, 5, 0, 5, 0, 5}));
  // A transform with an inverse stores inverse(v): the stored value is half of what is written.
  tack::copyto(ta::transform(a, twice{}, half{}), tack::array_from<float>({2, 4, 6, 8, 10, 12}));
  EXPECT_EQ(a.to_vector(), (std::vector<float>{1, 2, 3, 4, 5, 6}));
  // A kernel view over host memory is a writable array too.
  std::vector<float> host(3);
  tack::copyto(tack::view<float>(host.data(), 3), a.rows(0, 3));
  EXPECT_EQ(host, (std::vector<float>{1, 2, 3}));
}

TEST(StoreAlgorithms, FillAnyWritableArray) {
  auto a = tack::zeros<double>(5);
  tack::fill(a, 1.5);
  EXPECT_EQ(a.to_vector(), (std::vector<double>(5, 1.5)));
  tack::fill(ta::strided(a, 2), -1.0);
  EXPECT_EQ(a.to_vector(), (std::vector<double>{-1, 1.5, -1, 1.5, -1}));
  auto pts = tack::zeros<tack::vec3f>(3);
  tack::fill(ta::extract_component(pts, 2), 7.0f);  // the z coordinates
  EXPECT_EQ(pts(1), (tack::vec3f{0, 0, 7}));
  auto soa = tack::zeros<tack::vec3f>(2, {.layout = tack::layout::soa});
  tack::fill(soa, tack::vec3f{1, 2, 3});
  EXPECT_EQ(soa.to_vector()[1], (tack::vec3f{1, 2, 3}));
  tack::fill(ta::view(a, 1, 2), 0.0);  // start 1, count 2
  EXPECT_EQ(a.to_vector(), (std::vector<double>{-1, 0, 0, 1.5, -1}));
}

TEST(StoreAlgorithms, EmptyDestinations) {
  auto a = tack::zeros<double>(0);
  EXPECT_NO_THROW(tack::fill(ta::strided(a, 3), 1.0));
  EXPECT_NO_THROW(tack::copyto(ta::strided(a, 3), ta::counting<double>(0)));
}

TEST(StoreAlgorithms, Refusals) {
  auto out = tack::zeros<double>(4);
  auto order = tack::array_from<int>({0, 1, 2, 3});
  EXPECT_THROW_MSG(tack::copyto(ta::permutation(order, out), ta::counting<double>(3)),
                   tack::value_error, "tack::copyto", "3 elements", "4");
  std::vector<double> host(4, 1.0);
  auto ro = tack::from_ptr(host.data(), {4});  // borrowed without `writable`: read-only
  EXPECT_THROW_MSG(tack::copyto(ta::strided(ro, 2), ta::counting<double>(2)), tack::read_only_error,
                   "tack::copyto", "read-only", ro.describe());
  EXPECT_THROW_MSG(tack::fill(ta::permutation(order, ro), 0.0), tack::read_only_error, "tack::fill",
                   "read-only");
  EXPECT_EQ(host, (std::vector<double>(4, 1.0)));  // nothing written
}

TEST(StoreAlgorithms, DeviceMemoryIsRefusedOnTheHostPath) {
  auto dev = tack::empty<double>(4, {.allocator = tack::test::fake_device_allocator()});
  ASSERT_FALSE(dev.host_accessible());
  EXPECT_THROW_MSG(tack::fill(ta::strided(dev, 2), 1.0), tack::device_error, "tack::fill",
                   "device memory", "tack::launch");
  auto host = tack::zeros<double>(4);
  EXPECT_THROW_MSG(tack::copyto(ta::strided(host, 1), dev), tack::device_error, "tack::copyto",
                   "source", "device memory");
}

}  // namespace
