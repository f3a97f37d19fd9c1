// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
// Callgrind driver for restrict views in `tack::launch`: 100 launches of `y[i] = 2 x[i];
// z[i] = x[i] + 1` over 4096 structure-of-arrays vec3f elements on one thread, with disjoint
// arrays (restrict views), with the same kernel body in a functor holding a data member (plain
// views: launch never restricts a kernel with members), and the loop hand-written over restrict
// pointers. Vectorization needs -O3 with GCC 12 (`CXXFLAGS=-O3 benchmarks/callgrind/run.sh`).
#include <tack/array/factories.hpp>
#include <tack/exec/launch.hpp>
#include <tack/types/vec.hpp>

#include <cstdio>

using tack::index_t;

namespace {
struct two_outputs {
  template <class Y, class Z, class X>
  TACK_HOST_DEVICE void operator()(index_t i, const Y& y, const Z& z, const X& x) const {
    y[i] = 2.0f * x[i];
    z[i] = x[i] + 1.0f;
  }
};
struct two_outputs_with_member {
  float unused = 0.0f;
  template <class Y, class Z, class X>
  TACK_HOST_DEVICE void operator()(index_t i, const Y& y, const Z& z, const X& x) const {
    y[i] = 2.0f * x[i];
    z[i] = x[i] + 1.0f;
  }
};
[[gnu::noipa]] void restrict_loop(float* __restrict__ y, float* __restrict__ z,
                                  const float* __restrict__ x, index_t n) {
  for (index_t i = 0; i < n; ++i) {
    y[i] = 2.0f * x[i];
    z[i] = x[i] + 1.0f;
  }
}
using arr = tack::array<tack::vec3f>;
}  // namespace

[[gnu::noinline]] void tack_restrict_soa_x100(const arr& y, const arr& z, const arr& x) {
  for (int k = 0; k < 100; ++k)
    tack::launch(tack::cpu(), y.size(), two_outputs{}, y, z, x.as_const());
}
[[gnu::noinline]] void tack_plain_soa_x100(const arr& y, const arr& z, const arr& x) {
  for (int k = 0; k < 100; ++k)
    tack::launch(tack::cpu(), y.size(), two_outputs_with_member{}, y, z, x.as_const());
}
[[gnu::noinline]] void hand_restrict_soa_x100(const arr& y, const arr& z, const arr& x) {
  const auto yc = y.components(), zc = z.components();
  const auto xc = x.as_const().components();
  for (int k = 0; k < 100; ++k)
    for (std::size_t c = 0; c < 3; ++c)
      restrict_loop(yc[c].data(), zc[c].data(), xc[c].data(), y.size());
}

int main() {
  tack::options o;
  o.layout = tack::layout::soa;
  const index_t n = 4096;
  auto x = tack::full<tack::vec3f>(n, tack::vec3f::filled(1.5f), o);
  auto y = tack::zeros<tack::vec3f>(n, o), z = tack::zeros<tack::vec3f>(n, o);
  tack_restrict_soa_x100(y, z, x);
  tack_plain_soa_x100(y, z, x);
  hand_restrict_soa_x100(y, z, x);
  std::printf("%g\n", double(y.components()[0].to_vector()[7]));
  return 0;
}
