// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
// Bounds checks inside kernels on every backend the build has (this file turns them on, as Debug
// builds do). A kernel that indexes past a row view is reported with the index, the view's extent
// and the root's rows. On the CPU the installed handler throws `tack::index_error` out of the
// launch; on a GPU the kernel prints the same report and traps, which poisons the GPU context,
// so that case runs in a child process (a death test) and skips without a GPU.
// Compiled by nvcc in CUDA builds and hipcc in HIP builds: kernels are functors.
#define TACK_BOUNDS_CHECK 1
#include <tack/array/factories.hpp>
#include <tack/exec/launch.hpp>
#include <tack/types/vec.hpp>

#include <gtest/gtest.h>

#include "common/tack_test.hpp"

#include <cstdio>
#include <cstdlib>
#include <unistd.h>

namespace {

using tack::index_t;

// Writes element `k` of the kernel view from iteration 0 only.
struct write_at {
  index_t k;
  template <class V>
  TACK_HOST_DEVICE void operator()(index_t i, V v) const {
    if (i == 0) v[k] = typename V::value_type{};
  }
};

// Reads element (i, j) of a rank-2 kernel view from iteration 0 only.
struct read_at_2d {
  index_t i0, j0;
  template <class V>
  TACK_HOST_DEVICE void operator()(index_t i, V v, float* out) const {
    if (i == 0) *out = v(i0, j0);
  }
};

// The child of a death test: device printf writes to stdout, which the death test does not read,
// so stdout goes to stderr first, unbuffered: std::abort flushes no stdio buffer, and the report
// is in what the GPU runtime wrote to stdout. The launch must trap; its device_error is printed
// before the child aborts. A launch that returns normally exits with 0, which fails the test.
template <class F>
void trap_in_child(const F& launch) {
  std::fflush(stdout);
  ::dup2(2, 1);
  std::setvbuf(stdout, nullptr, _IONBF, 0);
  try {
    launch();
  } catch (const tack::device_error& e) {
    std::fflush(stdout);
    std::fprintf(stderr, "device_error: %s\n", e.what());
    std::fflush(stderr);
    std::abort();
  }
  std::exit(0);
}

template <class B>
class kernel_bounds : public tack::test::backend_test<B> {
protected:
  static constexpr bool gpu = tack::test::on_gpu<B>;
  tack::device dev() const { return tack::test::device_of<B>(); }
  void SetUp() override {
    tack::test::backend_test<B>::SetUp();
    previous_ = tack::set_precondition_handler(tack::throwing_precondition_handler);
    // A GPU runtime cannot run in a forked child of a process that initialized it: re-execute.
    GTEST_FLAG_SET(death_test_style, "threadsafe");
  }
  void TearDown() override { tack::set_precondition_handler(previous_); }

private:
  tack::precondition_handler previous_ = nullptr;
};
TYPED_TEST_SUITE(kernel_bounds, tack::test::backends, tack::test::backend_names);

TYPED_TEST(kernel_bounds, an_index_past_a_row_view_names_the_view_and_the_roots_rows) {
  auto a = tack::zeros<float>(8, {.device = this->dev()});
  a.fill(1.0f);
  const auto rows = a.rows(2, 6);
  tack::launch(this->dev(), 1, write_at{3}, rows);  // the view's last row: inside
  if constexpr (TestFixture::gpu) {
    EXPECT_DEATH(trap_in_child([&] { tack::launch(this->dev(), 1, write_at{4}, rows); }),
                 "index 4 out of range for extent 4 \\(rows \\[2, 6\\) of a root with 8 rows\\)");
  } else {
    EXPECT_THROW_MSG(tack::launch(this->dev(), 1, write_at{4}, rows), tack::index_error,
                     "index 4 out of range for extent 4 (rows [2, 6) of a root with 8 rows)");
    EXPECT_THROW_MSG(tack::launch(this->dev(), 1, write_at{-1}, rows), tack::index_error,
                     "index -1 out of range for extent 4");
  }
  const auto v = a.to_vector();
  EXPECT_EQ(v[6], 1.0f) << "the element past the view was written";
  EXPECT_EQ(v[5], 0.0f) << "the in-range write was lost";
}

TYPED_TEST(kernel_bounds, a_soa_row_view_is_checked_per_component_view) {
  auto a = tack::zeros<tack::vec3f>(6, {.device = this->dev(), .layout = tack::layout::soa});
  const auto rows = a.rows(1, 3);
  if constexpr (TestFixture::gpu) {
    EXPECT_DEATH(trap_in_child([&] { tack::launch(this->dev(), 1, write_at{2}, rows); }),
                 "index 2 out of range for extent 2 \\(rows \\[1, 3\\) of a root with 6 rows\\)");
  } else {
    EXPECT_THROW_MSG(tack::launch(this->dev(), 1, write_at{2}, rows), tack::index_error,
                     "index 2 out of range for extent 2 (rows [1, 3) of a root with 6 rows)");
  }
}

TYPED_TEST(kernel_bounds, a_multi_index_names_its_dimension) {
  auto a = tack::zeros<float>(tack::shape{4, 3}, {.device = this->dev()});
  auto out = tack::zeros<float>(1, {.device = this->dev()});
  float* result = out.data();
  if constexpr (TestFixture::gpu) {
    EXPECT_DEATH(trap_in_child([&] {
                   tack::launch(this->dev(), 1, read_at_2d{1, 3}, a.as_const(), result);
                 }),
                 "index 3 out of range for extent 3 in dimension 1");
  } else {
    EXPECT_THROW_MSG(tack::launch(this->dev(), 1, read_at_2d{1, 3}, a.as_const(), result),
                     tack::index_error, "index 3 out of range for extent 3 in dimension 1");
  }
}

}  // namespace
