// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
// Callgrind driver for the zero-overhead claims of views (issue 4): a STREAM triad through
// `tack::view<double>` and through `mdview<double, dextents<1>, layout_right>` against raw
// pointers, a loop taking `rows()` of a kernel view per block against indexing with an offset, and
// 1000 creations of a host row view `a.rows(i, i + 2)` (callgrind_annotate shows where they go).
// run.sh builds it with -O2 -march=x86-64-v3 and prints the instruction counts side by side.
#include <tack/array/factories.hpp>
#include <tack/view/layout_right.hpp>
#include <tack/view/mdview.hpp>
#include <tack/view/view.hpp>

#include <cstdio>
#include <vector>

using tack::index_t;
using md = tack::mdview<double, tack::dextents<1>, tack::layout_right>;
using cmd = tack::mdview<const double, tack::dextents<1>, tack::layout_right>;

[[gnu::noinline]] void tack_triad_view(tack::view<double> a, tack::view<const double> b,
                                       tack::view<const double> c, double s) {
  for (index_t i = 0; i < a.size(); ++i) a[i] = b[i] + s * c[i];
}
[[gnu::noinline]] void tack_triad_mdview(md a, cmd b, cmd c, double s) {
  for (index_t i = 0; i < a.extent(0); ++i) a[i] = b[i] + s * c[i];
}
[[gnu::noinline]] void raw_triad(double* a, const double* b, const double* c, double s, index_t n) {
  for (index_t i = 0; i < n; ++i) a[i] = b[i] + s * c[i];
}

constexpr index_t block = 64;
[[gnu::noinline]] void tack_rows_loop(tack::view<double> y, tack::view<const double> x, double s) {
  for (index_t b = 0; b < y.size(); b += block) {
    auto yr = y.rows(b, b + block);
    auto xr = x.rows(b, b + block);
    for (index_t k = 0; k < block; ++k) yr[k] = s * xr[k] + yr[k];
  }
}
[[gnu::noinline]] void offset_rows_loop(tack::view<double> y, tack::view<const double> x,
                                        double s) {
  for (index_t b = 0; b < y.size(); b += block)
    for (index_t k = 0; k < block; ++k) y[b + k] = s * x[b + k] + y[b + k];
}

[[gnu::noinline]] double tack_rows_create_x1000(const tack::array<double>& a) {
  double s = 0;
  for (index_t i = 0; i < 1000; ++i) s += static_cast<double>(a.rows(i % 990, i % 990 + 2).size());
  return s;
}

int main() {
  const index_t n = index_t{1} << 20;
  std::vector<double> a(static_cast<std::size_t>(n)), b(a.size(), 0.5), c(a.size(), 2.0);
  tack_triad_view(tack::view<double>(a.data(), n), tack::view<const double>(b.data(), n),
                  tack::view<const double>(c.data(), n), 3.0);
  tack_triad_mdview(md(a.data(), n), cmd(b.data(), n), cmd(c.data(), n), 3.0);
  raw_triad(a.data(), b.data(), c.data(), 3.0, n);
  tack_rows_loop(tack::view<double>(a.data(), n), tack::view<const double>(b.data(), n), 1e-9);
  offset_rows_loop(tack::view<double>(a.data(), n), tack::view<const double>(b.data(), n), 1e-9);
  const double r = tack_rows_create_x1000(tack::zeros<double>(1000));
  std::printf("a[7] %g %g\n", a[7], r);
  return 0;
}
