// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
// Callgrind driver for the zero-overhead claims of implicit arrays (issue 6): each `tack_*`
// function and its `hand_*` twin do the same work over the same data; run.sh prints their
// instruction counts side by side. Serial loops over kernel forms (what a backend runs per thread),
// so the counts are repeatable. Built by run.sh with -O2 -march=x86-64-v3 (valgrind 3.19 has no
// AVX-512).
#include <tack/algorithms/reduce.hpp>
#include <tack/arrays/counting.hpp>
#include <tack/arrays/expressions.hpp>
#include <tack/arrays/permutation.hpp>
#include <tack/arrays/transform.hpp>
#include <tack/view/view.hpp>

#include <cstdint>
#include <cstdio>
#include <numeric>
#include <vector>

using tack::index_t;

namespace {
struct poly {
  TACK_HOST_DEVICE double operator()(double x) const { return (x * 1e-9 + 0.5) * x * 1e-9 + 0.25; }
};
}  // namespace

// A permutation of a transform of a counting array, copied out element by element.
[[gnu::noinline]] void tack_compose3(tack::view<double> out, tack::view<const std::int32_t> idx) {
  const auto e = tack::arrays::permutation(
      idx, tack::arrays::transform(tack::arrays::counting<double>(out.size()), poly{}));
  // Through the kernel form, as copyto and launch read it (counting's start-0, step-1 form).
  tack::visit_kernel_form(e, [&](const auto& k) {
    for (index_t i = 0; i < out.size(); ++i) out[i] = k[i];
  });
}
[[gnu::noinline]] void hand_compose3(double* out, const std::int32_t* idx, index_t n) {
  const poly f{};
  for (index_t i = 0; i < n; ++i) out[i] = f(static_cast<double>(idx[i]));
}

// A gather through a permutation, read through its kernel form as copyto does.
[[gnu::noinline]] void tack_gather(tack::view<double> out, tack::view<const std::int32_t> idx,
                                   tack::view<const double> values) {
  const auto e = tack::arrays::permutation(idx, values);
  tack::visit_kernel_form(e, [&](const auto& k) {
    for (index_t i = 0; i < out.size(); ++i) out[i] = k[i];
  });
}
[[gnu::noinline]] void hand_gather(double* out, const std::int32_t* idx, const double* values,
                                   index_t n) {
  for (index_t i = 0; i < n; ++i) out[i] = values[idx[i]];
}

// The expression a + s * b over kernel views, copied out.
[[gnu::noinline]] void tack_axpy_expr(tack::view<double> out, tack::view<const double> a,
                                      tack::view<const double> b, double s) {
  const auto e = a + s * b;
  for (index_t i = 0; i < out.size(); ++i) out[i] = e[i];
}
[[gnu::noinline]] void hand_axpy(double* out, const double* a, const double* b, double s,
                                 index_t n) {
  for (index_t i = 0; i < n; ++i) out[i] = a[i] + s * b[i];
}

// sum(transform(counting(n), f)) through the library's reduction (one thread: TACK_NUM_THREADS=1).
[[gnu::noinline]] double tack_sum_transform(index_t n) {
  return tack::sum(tack::arrays::transform(tack::arrays::counting<double>(n), poly{}));
}
[[gnu::noinline]] double hand_sum_simd(index_t n) {
  const poly f{};
  double s = 0;
#pragma omp simd reduction(+ : s)
  for (index_t i = 0; i < n; ++i) s += f(static_cast<double>(i));
  return s;
}

// The same over 32-bit counters: GCC 12 vectorizes int32 -> double, not int64 -> double.
[[gnu::noinline]] double tack_sum_transform_i32(index_t n) {
  return tack::sum(tack::arrays::transform(tack::arrays::counting<std::int32_t>(n), poly{}));
}
[[gnu::noinline]] double hand_sum_simd_i32(index_t n) {
  const poly f{};
  const auto m = static_cast<std::int32_t>(n);
  double s = 0;
#pragma omp simd reduction(+ : s)
  for (std::int32_t i = 0; i < m; ++i) s += f(static_cast<double>(i));
  return s;
}

int main() {
  const index_t n = index_t{1} << 20;
  std::vector<std::int32_t> idx(static_cast<std::size_t>(n));
  std::iota(idx.begin(), idx.end(), 0);
  for (index_t i = 0; i < n; ++i)
    std::swap(idx[static_cast<std::size_t>(i)], idx[static_cast<std::size_t>((i * 7919) % n)]);
  std::vector<double> a(idx.size(), 0.5), b(idx.size(), 2.0), out(idx.size());
  tack::view<double> o(out.data(), n);
  tack_compose3(o, tack::view<const std::int32_t>(idx.data(), n));
  hand_compose3(out.data(), idx.data(), n);
  tack_gather(o, tack::view<const std::int32_t>(idx.data(), n),
              tack::view<const double>(a.data(), n));
  hand_gather(out.data(), idx.data(), a.data(), n);
  tack_axpy_expr(o, tack::view<const double>(a.data(), n), tack::view<const double>(b.data(), n),
                 3.0);
  hand_axpy(out.data(), a.data(), b.data(), 3.0, n);
  const double s1 = tack_sum_transform(n), s2 = hand_sum_simd(n);
  const double s3 = tack_sum_transform_i32(n), s4 = hand_sum_simd_i32(n);
  std::printf("sums %.17g %.17g %.17g %.17g, out[7] %g\n", s1, s2, s3, s4, out[7]);
  return 0;
}
