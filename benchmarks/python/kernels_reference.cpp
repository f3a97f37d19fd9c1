// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
// The kernels of benchmarks/python/bench_kernels.py written in C++ through tack::launch: the
// reference the kernels written in Python are held to. bench_kernels.py compiles this file with
// the flags of kernels compiled from Python and runs it with the same thread count; it prints one
// JSON object of median seconds.
#include <tack/tack.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <numeric>
#include <vector>

namespace {

template <class F>
double median_seconds(F&& f, int reps) {
  std::vector<double> t;
  for (int r = 0; r < reps; ++r) {
    const auto t0 = std::chrono::steady_clock::now();
    f();
    const auto t1 = std::chrono::steady_clock::now();
    t.push_back(std::chrono::duration<double>(t1 - t0).count());
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

struct square_plus_one {
  TACK_HOST_DEVICE double operator()(double x) const { return x * x * 0.5 + 1.0; }
};

}  // namespace

int main(int argc, char** argv) {
  // kernels_reference [log2 n] [log2 m] [repetitions]: sizes of the triad and the sum, of the
  // normalized vectors, and the repetitions (defaults: 24, 22, 15).
  const int log_n = argc > 1 ? std::atoi(argv[1]) : 24;
  const int log_m = argc > 2 ? std::atoi(argv[2]) : 22;
  const int reps = argc > 3 ? std::atoi(argv[3]) : 15;
  // triad over n f32
  const tack::index_t n = tack::index_t(1) << log_n;
  auto a = tack::zeros<float>(n), b = tack::full<float>(n, 1.0f), c = tack::full<float>(n, 2.0f);
  const float s = 0.5f;
  const double triad = median_seconds(
      [&] {
        tack::launch(
            n, [=](tack::index_t i, auto a, auto b, auto c) { a[i] = b[i] + s * c[i]; }, a, b, c);
      },
      reps);
  // normalize a SoA vec3 array of 2^22 elements in place
  const tack::index_t m = tack::index_t(1) << log_m;
  auto v = tack::zeros<tack::vec3f>(m, tack::options{.layout = tack::layout::soa});
  v.fill(tack::vec3f{1.0f, 2.0f, 3.0f});
  const double normalize = median_seconds(
      [&] {
        tack::launch(
            m, [](tack::index_t i, auto v) { v[i] = tack::normalize(tack::vec3f(v[i])); }, v);
      },
      reps);
  // sum over a permutation of a transform of a counting array, 2^24 elements
  std::vector<std::int64_t> order_host(static_cast<std::size_t>(n));
  std::iota(order_host.begin(), order_host.end(), std::int64_t{0});
  std::reverse(order_host.begin(), order_host.end());
  auto order = tack::array_from(order_host);
  const auto composed = tack::arrays::permutation(
      order, tack::arrays::transform(tack::arrays::counting<double>(n), square_plus_one{}));
  double sink = 0;
  const double permsum = median_seconds([&] { sink += tack::sum(composed); }, reps);
  std::printf(
      "{\"triad\": %.9g, \"normalize_soa\": %.9g, \"permutation_sum\": %.9g, \"threads\": %d, "
      "\"check\": %.17g}\n",
      triad, normalize, permsum, tack::num_threads(), sink);
  return 0;
}
