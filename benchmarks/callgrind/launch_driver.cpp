// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
// Callgrind driver for the cost of `tack::launch` itself (issue 5: <= 2 us for an empty kernel over
// one element): 1000 launches of an empty kernel with three arrays, with one scalar, and 1000 calls
// of the kernel body through `parallel_for`. run.sh prints the instruction counts;
// callgrind_annotate on build/bench2/callgrind/launch_driver.out shows where a launch spends them.
#include <tack/array/factories.hpp>
#include <tack/exec/launch.hpp>
#include <tack/exec/parallel_for.hpp>

#include <cstdio>

using tack::index_t;

namespace {
struct empty_k {
  template <class... A>
  TACK_HOST_DEVICE void operator()(index_t, const A&...) const {}
};
}  // namespace

[[gnu::noinline]] void tack_launch_3_arrays_x1000(const tack::array<double>& a,
                                                  const tack::array<double>& b,
                                                  const tack::array<double>& c) {
  for (int k = 0; k < 1000; ++k)
    tack::launch(tack::cpu(), 1, empty_k{}, a, b.as_const(), c.as_const(), 2.0);
}
[[gnu::noinline]] void tack_launch_scalar_x1000() {
  for (int k = 0; k < 1000; ++k) tack::launch(tack::cpu(), 1, empty_k{}, 2.0);
}
[[gnu::noinline]] void tack_parallel_for_x1000() {
  for (int k = 0; k < 1000; ++k) tack::parallel_for(tack::cpu(), 1, [](index_t) {});
}

int main() {
  auto a = tack::zeros<double>(16), b = tack::zeros<double>(16), c = tack::zeros<double>(16);
  tack_launch_3_arrays_x1000(a, b, c);
  tack_launch_scalar_x1000();
  tack_parallel_for_x1000();
  std::printf("version %lld\n", static_cast<long long>(a.version()));
  return 0;
}
