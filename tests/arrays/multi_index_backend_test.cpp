// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
// Implicit arrays of rank 2 and 3 inside kernels on every backend the build has (compiled by nvcc
// in CUDA builds, hipcc in HIP builds): a(i, j, k) and a[vec] read what the flat a[k] reads, for
// uniform_coordinates, cartesian_product and function over a shape.
#include <tack/array/factories.hpp>
#include <tack/arrays/all.hpp>
#include <tack/exec/launch.hpp>
#include <tack/types/vec.hpp>

#include <gtest/gtest.h>

#include "common/tack_test.hpp"

#include <vector>

namespace {
using tack::index_t;
namespace ta = tack::arrays;

// out[f] = 1 where a(k, j, i), a[{k, j, i}] and the flat a[f] agree, for f = i + nx * (j + ny * k).
struct agree3 {
  template <class O, class A>
  TACK_HOST_DEVICE void operator()(index_t f, const O& out, const A& a) const {
    const index_t nx = a.extent(2), ny = a.extent(1);
    const index_t i = f % nx, j = (f / nx) % ny, k = f / (nx * ny);
    const bool same = a(k, j, i) == a[f] && a[tack::vec<index_t, 3>{k, j, i}] == a[f];
    out[f] = same ? 1 : 0;
  }
};
struct agree2 {
  template <class O, class A>
  TACK_HOST_DEVICE void operator()(index_t f, const O& out, const A& a) const {
    const index_t nx = a.extent(1);
    out[f] = a(f / nx, f % nx) == a[f] ? 1 : 0;
  }
};
struct cube {
  TACK_HOST_DEVICE double operator()(tack::vec<index_t, 3> k) const {
    return double(100 * k[0] + 10 * k[1] + k[2]);
  }
};
// out(k, j, i) = a(k, j, i) through a rank-3 kernel view.
struct copy3 {
  template <class O, class A>
  TACK_HOST_DEVICE void operator()(index_t f, const O& out, const A& a) const {
    const index_t nx = a.extent(2), ny = a.extent(1);
    const index_t i = f % nx, j = (f / nx) % ny, k = f / (nx * ny);
    out(k, j, i) = a(k, j, i);
  }
};

template <class Backend>
class MultiIndexBackend : public tack::test::backend_test<Backend> {
protected:
  tack::options on_device() { return {.device = tack::test::device_of<Backend>()}; }
};
TYPED_TEST_SUITE(MultiIndexBackend, tack::test::backends, tack::test::backend_names);

TYPED_TEST(MultiIndexBackend, ThreeIndicesReadTheFlatElement) {
  auto pts = ta::uniform_coordinates({5, 4, 3}, tack::vec3f{1, 2, 3}, tack::vec3f{0.5f, 2, 4});
  auto out = tack::zeros<int>(pts.size(), this->on_device());
  tack::launch(TypeParam{}, pts.size(), agree3{}, out, pts);
  EXPECT_EQ(out.to_vector(), std::vector<int>(60, 1));
  auto f = ta::function({3, 2, 4}, cube{});
  auto out_f = tack::zeros<int>(f.size(), this->on_device());
  tack::launch(TypeParam{}, f.size(), agree3{}, out_f, f);
  EXPECT_EQ(out_f.to_vector(), std::vector<int>(24, 1));
}

TYPED_TEST(MultiIndexBackend, CartesianProductOfTwoAxes) {
  auto p = ta::cartesian_product(ta::counting<float>(7, 0.5f), ta::counting<float>(3, 10.0f));
  auto out = tack::zeros<int>(p.size(), this->on_device());
  tack::launch(TypeParam{}, p.size(), agree2{}, out, p);
  EXPECT_EQ(out.to_vector(), std::vector<int>(21, 1));
}

TYPED_TEST(MultiIndexBackend, IntoARank3ArrayOfTheSameShape) {
  auto pts = ta::uniform_coordinates({4, 3, 2});
  auto out = tack::zeros<tack::vec3f>({2, 3, 4}, this->on_device());
  tack::launch(TypeParam{}, pts.size(), copy3{}, out, pts);
  const auto v = out.to_vector();
  for (index_t f = 0; f < pts.size(); ++f) ASSERT_EQ(v[std::size_t(f)], pts[f]) << f;
}

}  // namespace
