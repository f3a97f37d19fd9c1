// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
// tack::amr's kernels on every backend the build has (serial, OpenMP, CUDA or HIP; nvcc or hipcc
// compiles this file in GPU builds): ghost cells and average_down of a vec3d SoA field and a float
// field give the serial CPU results (bit for bit on the CPU backends, to rounding on a GPU).

#include <tack/amr/all.hpp>
#include <tack/exec/threads.hpp>

#include "common/tack_test.hpp"

#include <cmath>
#include <type_traits>
#include <vector>

namespace amr = tack::amr;
using tack::index_t;

namespace {

struct ramp {
  TACK_HOST_DEVICE tack::vec3d operator()(const tack::vec3d& x) const {
    const double f = x[0] * x[1] - 2.0 * x[2] * x[2] + (x[1] > 0.6 ? 0.25 : 0.0);
    return tack::vec3d{f, -f + x[0], x[2]};
  }
};
struct scalar_ramp {
  TACK_HOST_DEVICE float operator()(const tack::vec3d& x) const {
    return static_cast<float>(ramp{}(x)[0]);
  }
};

template <class T>
std::vector<std::vector<T>> run(const tack::device& d, int threads, tack::layout layout) {
  tack::set_num_threads(threads);
  auto h = amr::synthetic_hierarchy(
      {.scale = 0.003, .box_size = 4, .ghost = 2, .levels = 4, .device = d});
  auto f = amr::add_field<T>(h, "u", layout);
  for (int l = 0; l < h.n_levels(); ++l) {
    if constexpr (std::is_same_v<T, float>) {
      amr::initialize(h, l, f, scalar_ramp{});
    } else {
      amr::initialize(h, l, f, ramp{});
    }
  }
  amr::average_down(h, f);
  amr::fill_ghost_cells(h, f);
  std::vector<std::vector<T>> out;
  for (int l = 0; l < h.n_levels(); ++l) out.push_back(f.level_buffer(l).to_vector());
  return out;
}

template <class B>
class amr_backend_test : public tack::test::backend_test<B> {
protected:
  void SetUp() override {
    tack::test::backend_test<B>::SetUp();
    threads_ = tack::num_threads();
  }
  void TearDown() override { tack::set_num_threads(threads_); }
  int threads_ = 1;
};
TYPED_TEST_SUITE(amr_backend_test, tack::test::backends, tack::test::backend_names);

template <class B, class T>
void compare(tack::layout layout) {
  const bool gpu = tack::test::on_gpu<B>;
  const int threads = std::is_same_v<B, tack::serial_backend> ? 1 : 2;
  const auto want = run<T>(tack::cpu(), 1, layout);
  const auto got = run<T>(tack::test::device_of<B>(), threads, layout);
  ASSERT_EQ(got.size(), want.size());
  for (std::size_t l = 0; l < got.size(); ++l) {
    ASSERT_EQ(got[l].size(), want[l].size());
    for (std::size_t i = 0; i < got[l].size(); ++i) {
      for (int k = 0; k < tack::components_v<T>; ++k) {
        const double a = amr::detail::component(got[l][i], k),
                     b = amr::detail::component(want[l][i], k);
        if (gpu) {
          ASSERT_NEAR(a, b, 1e-5 * (1 + std::abs(b))) << "level " << l << " element " << i;
        } else {
          ASSERT_EQ(a, b) << "level " << l << " element " << i;
        }
      }
    }
  }
}

}  // namespace

TYPED_TEST(amr_backend_test, vec3d_soa_matches_serial_cpu) {
  compare<TypeParam, tack::vec3d>(tack::layout::soa);
}
TYPED_TEST(amr_backend_test, float_aos_matches_serial_cpu) {
  compare<TypeParam, float>(tack::layout::aos);
}
