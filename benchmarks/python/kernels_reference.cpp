// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
// The kernels of benchmarks/python/bench_kernels.py written in C++ through tack::launch: the
// reference the kernels written in Python are held to. bench_kernels.py compiles this file with
// the flags of kernels compiled from Python and runs it with the same thread count, as a server:
// each line it reads names a kernel, which runs once, and the reply is its time in seconds. The
// Python kernels and every peer then run in turn, one repetition each, so that a repetition of
// each is measured under the same load (a busy machine slows them alike).
#include <tack/tack.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <numeric>
#include <string_view>
#include <vector>

namespace {

template <class F>
double seconds(F&& f) {
  const auto t0 = std::chrono::steady_clock::now();
  f();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

struct square_plus_one {
  TACK_HOST_DEVICE double operator()(double x) const { return x * x * 0.5 + 1.0; }
};

}  // namespace

int main(int argc, char** argv) {
  // kernels_reference [log2 n] [log2 m]: sizes of the triad and the sum, and of the normalized
  // vectors (defaults: 24, 22). Reads kernel names (triad, normalize_soa, permutation_sum) one per
  // line and answers each with the seconds of one run; `check` prints the sums' total (so that
  // they are not optimized away) and the thread count.
  const int log_n = argc > 1 ? std::atoi(argv[1]) : 24;
  const int log_m = argc > 2 ? std::atoi(argv[2]) : 22;
  // triad over n f32
  const tack::index_t n = tack::index_t(1) << log_n;
  auto a = tack::zeros<float>(n), b = tack::full<float>(n, 1.0f), c = tack::full<float>(n, 2.0f);
  const float s = 0.5f;
  // normalize a SoA vec3 array of m elements in place
  const tack::index_t m = tack::index_t(1) << log_m;
  auto v = tack::zeros<tack::vec3f>(m, tack::options{.layout = tack::layout::soa});
  v.fill(tack::vec3f{1.0f, 2.0f, 3.0f});
  // sum over a permutation of a transform of a counting array of n elements
  std::vector<std::int64_t> order_host(static_cast<std::size_t>(n));
  std::iota(order_host.begin(), order_host.end(), std::int64_t{0});
  std::reverse(order_host.begin(), order_host.end());
  auto order = tack::array_from(order_host);
  const auto composed = tack::arrays::permutation(
      order, tack::arrays::transform(tack::arrays::counting<double>(n), square_plus_one{}));
  double sink = 0;
  char line[64];
  while (std::fgets(line, sizeof line, stdin) != nullptr) {
    const std::string_view what(line, std::strcspn(line, "\r\n"));
    double t = -1;
    if (what == "triad") {
      t = seconds([&] {
        tack::launch(
            n, [=](tack::index_t i, auto a, auto b, auto c) { a[i] = b[i] + s * c[i]; }, a, b, c);
      });
    } else if (what == "normalize_soa") {
      t = seconds([&] {
        tack::launch(
            m, [](tack::index_t i, auto v) { v[i] = tack::normalize(tack::vec3f(v[i])); }, v);
      });
    } else if (what == "permutation_sum") {
      t = seconds([&] { sink += tack::sum(composed); });
    } else if (what == "check") {
      std::printf("%.17g %d\n", sink, tack::num_threads());
      std::fflush(stdout);
      continue;
    } else {
      return what == "quit" ? 0 : 2;
    }
    std::printf("%.9g\n", t);
    std::fflush(stdout);
  }
  return 0;
}
