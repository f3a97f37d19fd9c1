// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
// Restrict views in `tack::launch` (disjoint writable arguments on the CPU): a kernel writing two
// outputs from one input, `y[i] = 2 x[i]; z[i] = x[i] + 1`, on one thread, over arrays that fit in
// the L2 cache (4096 elements) and over large ones (2^22 elements).
// - `tack_launch`: disjoint arrays, so the kernel gets restrict views.
// - `tack_launch_plain`: the same kernel body in a functor with a data member, which `launch`
//   never restricts (it cannot see what a kernel's members point to): plain views, the
//   instantiation an overlapping call gets.
// - `ref_restrict_loop`: the loop hand-written over `restrict` raw pointers.
// Groups: `soa_vec3f` (structure-of-arrays vec3f: 9 pointers; GCC will not version a loop for the
// 33 alias checks it would need, so without restrict the loop stays scalar) and `float` (3
// pointers; GCC versions the loop with run-time alias checks, so restrict saves only those).
#include "common/bench_util.hpp"

#include <tack/array/factories.hpp>
#include <tack/exec/launch.hpp>
#include <tack/types/vec.hpp>

#include <string>
#include <type_traits>

namespace {
using namespace tack::bench;
using tack::index_t;

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

enum class kind { tack, tack_plain, hand };

template <class T>
void two(benchmark::State& state, kind k, index_t n, bool soa) {
  if (!threads(state, 1)) return;
  tack::options o;
  if (soa) o.layout = tack::layout::soa;
  T value{};
  if constexpr (std::is_same_v<T, float>) {
    value = 1.5f;
  } else {
    value = T::filled(1.5f);
  }
  auto x = tack::full<T>(n, value, o);
  auto y = tack::zeros<T>(n, o), z = tack::zeros<T>(n, o);
  for (auto _ : state) {
    switch (k) {
      case kind::tack:
        tack::launch(tack::cpu(), n, two_outputs{}, y, z, x.as_const());
        break;
      case kind::tack_plain:
        tack::launch(tack::cpu(), n, two_outputs_with_member{}, y, z, x.as_const());
        break;
      case kind::hand:
        if constexpr (std::is_same_v<T, float>) {
          restrict_loop(y.data(), z.data(), x.as_const().data(), n);
        } else {
          const auto yc = y.components(), zc = z.components();
          const auto xc = x.as_const().components();
          for (int c = 0; c < 3; ++c)
            restrict_loop(yc[std::size_t(c)].data(), zc[std::size_t(c)].data(),
                          xc[std::size_t(c)].data(), n);
        }
        break;
    }
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations() * n);
}

[[maybe_unused]] const bool registered = [] {
  for (index_t n : {index_t(small_n), index_t(1) << 22}) {
    const std::string s = "_n" + std::to_string(n);
    auto unit = [n](benchmark::internal::Benchmark* b) {
      b->Unit(n < 100000 ? benchmark::kMicrosecond : benchmark::kMillisecond);
    };
    unit(add("two_outputs_soa_vec3f" + s, "tack_launch",
             [n](auto& st) { two<tack::vec3f>(st, kind::tack, n, true); }));
    unit(add("two_outputs_soa_vec3f" + s, "tack_launch_plain",
             [n](auto& st) { two<tack::vec3f>(st, kind::tack_plain, n, true); }));
    unit(add("two_outputs_soa_vec3f" + s, "ref_restrict_loop",
             [n](auto& st) { two<tack::vec3f>(st, kind::hand, n, true); }));
    unit(add("two_outputs_float" + s, "tack_launch",
             [n](auto& st) { two<float>(st, kind::tack, n, false); }));
    unit(add("two_outputs_float" + s, "tack_launch_plain",
             [n](auto& st) { two<float>(st, kind::tack_plain, n, false); }));
    unit(add("two_outputs_float" + s, "ref_restrict_loop",
             [n](auto& st) { two<float>(st, kind::hand, n, false); }));
  }
  return true;
}();

}  // namespace
