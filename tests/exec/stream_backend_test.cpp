// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
// tack::stream and tack::stream_scope on every backend the build has. On the CPU a stream is an
// empty queue (work runs when submitted), so the same calls must give the same results there; the
// GPU cases (cuda, hip) queue real work on GPU streams and skip without a GPU. Each case checks
// the order the stream promises: later work on a stream sees earlier work, copies that reach host
// memory are complete when they return, reductions wait for their stream.
// Compiled by nvcc in CUDA builds and hipcc in HIP builds: kernels are functors, defined outside
// gtest's TestBody; native streams come from the vendor through tack's name layer
// (exec/backend/gpu/api.hpp), so one test serves both.
#include <tack/algorithms/reduce.hpp>
#include <tack/algorithms/sort.hpp>
#include <tack/array/copyto.hpp>
#include <tack/array/factories.hpp>
#include <tack/exec/fence.hpp>
#include <tack/exec/launch.hpp>
#include <tack/exec/parallel_for.hpp>
#include <tack/exec/stream.hpp>

#include <gtest/gtest.h>

#include "common/tack_test.hpp"

#if TACK_IMPL_GPU_KERNELS
#include <tack/exec/backend/gpu/api.hpp>
#endif

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <vector>

namespace {

using tack::index_t;

// v[i] = i + offset.
struct write_index {
  template <class V>
  TACK_HOST_DEVICE void operator()(index_t i, V v, float offset) const {
    v[i] = static_cast<float>(i) + offset;
  }
};

// v[i] += x.
struct add_to {
  template <class V>
  TACK_HOST_DEVICE void operator()(index_t i, V v, float x) const {
    v[i] += x;
  }
};

// v[i] = x.
struct write_constant {
  template <class V>
  TACK_HOST_DEVICE void operator()(index_t i, V v, float x) const {
    v[i] = x;
  }
};

// v[i] = n - i (descending).
struct write_descending {
  template <class V>
  TACK_HOST_DEVICE void operator()(index_t i, V v) const {
    v[i] = static_cast<float>(v.size() - i);
  }
};

// A parallel_for kernel over a raw pointer: p[i] *= 2.
struct double_in_place {
  float* p;
  TACK_HOST_DEVICE void operator()(index_t i) const { p[i] *= 2.0f; }
};

// A kernel over a range{1, n}: p[j] += 1.
struct add_one_at_column {
  float* p;
  TACK_HOST_DEVICE void operator()(index_t, index_t j) const { p[j] += 1.0f; }
};

template <class B>
class streams : public tack::test::backend_test<B> {
protected:
  static constexpr bool gpu = tack::test::on_gpu<B>;
  tack::device dev() const { return tack::test::device_of<B>(); }
  tack::array<float> make(index_t n) const { return tack::empty<float>(n, {.device = dev()}); }
};
TYPED_TEST_SUITE(streams, tack::test::backends, tack::test::backend_names);

// Large enough that a GPU kernel is still running when the host moves on.
constexpr index_t big = index_t{1} << 22;

TYPED_TEST(streams, a_new_stream_names_its_device_and_is_idle_until_given_work) {
  const tack::stream s(this->dev());
  EXPECT_EQ(s.device(), this->dev());
  EXPECT_TRUE(s.idle());
  s.synchronize();
  tack::fence(s);
  const tack::stream copy = s;
  EXPECT_TRUE(copy == s);
  EXPECT_NE(s.str().find(this->dev().str()), std::string::npos) << s.str();
  if constexpr (TestFixture::gpu) {
    EXPECT_NE(s.native(), 0);
    EXPECT_FALSE(tack::stream(this->dev()) == s) << "two new GPU streams are two queues";
  } else {
    EXPECT_EQ(s.native(), 0);
    EXPECT_EQ(s.str(), "cpu stream");
  }
}

TYPED_TEST(streams, later_work_on_a_stream_sees_earlier_work) {
  const tack::stream s(this->dev());
  auto a = this->make(big);
  tack::launch(s, big, write_index{}, a, 1.0f);
  for (int k = 0; k < 5; ++k) tack::launch(s, big, add_to{}, a, 0.5f);
  // A copy into host memory is complete when it returns, after the launches queued before it.
  auto host = tack::empty<float>(big);
  tack::copyto(host, a, s);
  const std::vector<float> v = host.to_vector();
  for (index_t i = 0; i < big; i += 4099) ASSERT_EQ(v[std::size_t(i)], float(i) + 3.5f) << i;
  EXPECT_EQ(v.back(), float(big - 1) + 3.5f);
}

TYPED_TEST(streams, two_streams_each_keep_their_own_order) {
  const tack::stream s1(this->dev());
  const tack::stream s2(this->dev());
  auto a = this->make(big);
  auto b = this->make(big);
  tack::launch(s1, big, write_index{}, a, 0.0f);
  tack::launch(s2, big, write_index{}, b, 0.0f);
  for (int k = 0; k < 8; ++k) {
    tack::launch(s1, big, add_to{}, a, 1.0f);
    tack::launch(s2, big, add_to{}, b, 2.0f);
  }
  s1.synchronize();
  s2.synchronize();
  EXPECT_TRUE(s1.idle());
  EXPECT_TRUE(s2.idle());
  const auto va = a.to_vector();
  const auto vb = b.to_vector();
  for (index_t i = 0; i < big; i += 8191) {
    ASSERT_EQ(va[std::size_t(i)], float(i) + 8.0f) << i;
    ASSERT_EQ(vb[std::size_t(i)], float(i) + 16.0f) << i;
  }
}

TYPED_TEST(streams, parallel_for_on_a_stream_runs_after_the_launches_before_it) {
  const tack::stream s(this->dev());
  auto a = this->make(big);
  tack::launch(s, big, write_index{}, a, 2.0f);
  tack::parallel_for(s, big, double_in_place{a.data()});
  tack::parallel_for(s, tack::range{index_t{1}, big}, add_one_at_column{a.data()});
  s.synchronize();
  const auto v = a.to_vector();
  for (index_t i = 0; i < big; i += 10007)
    ASSERT_EQ(v[std::size_t(i)], 2.0f * (float(i) + 2.0f) + 1.0f) << i;
}

TYPED_TEST(streams, a_scope_makes_its_stream_current_and_scopes_nest) {
  const tack::stream s1(this->dev());
  const tack::stream s2(this->dev());
  const tack::stream before = tack::current_stream(this->dev());
  EXPECT_EQ(before.native(), 0);
  {
    const tack::stream_scope outer(s1);
    EXPECT_TRUE(tack::current_stream(this->dev()) == s1);
    {
      const tack::stream_scope inner(s2);
      EXPECT_TRUE(tack::current_stream(this->dev()) == s2);
      // Another device is not affected.
      EXPECT_EQ(tack::current_stream(tack::cpu()).native(), 0);
    }
    EXPECT_TRUE(tack::current_stream(this->dev()) == s1);
  }
  EXPECT_TRUE(tack::current_stream(this->dev()) == before);
}

TYPED_TEST(streams, reductions_in_a_scope_wait_for_the_work_before_them) {
  const tack::stream s(this->dev());
  auto a = this->make(big);
  tack::launch(s, big, write_index{}, a, 0.0f);
  tack::launch(s, big, add_to{}, a, 1.0f);  // a[i] = i + 1
  double total = 0;
  {
    const tack::stream_scope on(s);
    total = tack::sum(a.template astype<double>());
  }
  const double n = double(big);
  EXPECT_EQ(total, n * (n + 1) / 2);
}

TYPED_TEST(streams, device_copies_and_fills_follow_the_stream) {
  const tack::stream s(this->dev());
  auto a = this->make(big);
  auto b = this->make(big);
  {
    const tack::stream_scope on(s);
    a.fill(3.0f);
    tack::launch(s, big, add_to{}, a, 1.0f);
    tack::copyto(b, a);  // device to device: queued behind the launch
    tack::launch(s, big, add_to{}, b, 1.0f);
  }
  s.synchronize();
  const auto v = b.to_vector();
  for (index_t i = 0; i < big; i += 4099) ASSERT_EQ(v[std::size_t(i)], 5.0f) << i;
  EXPECT_EQ(a.to_vector().back(), 4.0f);
}

TYPED_TEST(streams, to_vector_async_on_a_stream_copies_what_the_stream_computed) {
  const tack::stream s(this->dev());
  auto a = this->make(big);
  tack::launch(s, big, write_index{}, a, 7.0f);
  auto pending = a.to_vector_async(s);
  const auto v = pending.get();
  ASSERT_EQ(v.size(), std::size_t(big));
  for (index_t i = 0; i < big; i += 4099) ASSERT_EQ(v[std::size_t(i)], float(i) + 7.0f) << i;
}

TYPED_TEST(streams, work_for_another_device_is_refused_with_the_stream_named) {
  if constexpr (!TestFixture::gpu) {
    GTEST_SKIP() << "every CPU array is on the stream's device";
  } else {
    const tack::stream s(this->dev());
    auto host = tack::zeros<float>(8);
    auto host2 = tack::zeros<float>(8);
    EXPECT_THROW_MSG(host.to_vector_async(s), tack::value_error, "to_vector_async",
                     this->dev().str(), "cpu");
    EXPECT_THROW_MSG(tack::copyto(host, host2, s), tack::value_error, "tack::copyto",
                     this->dev().str(), "no array of the copy");
    EXPECT_THROW_MSG(tack::launch(s, 8, add_to{}, host, 1.0f), tack::value_error, "tack::launch");
  }
}

#if TACK_IMPL_GPU_KERNELS
namespace api = tack::backend::gpu::api;

TYPED_TEST(streams, a_borrowed_stream_is_used_and_never_destroyed) {
  if constexpr (!TestFixture::gpu) {
    GTEST_SKIP() << "native streams are GPU streams";
  } else {
    api::stream_t native = nullptr;
    ASSERT_EQ(api::stream_create(&native), api::success);
    auto a = this->make(big);
    {
      const auto s = tack::stream::borrow(this->dev(), reinterpret_cast<std::intptr_t>(native));
      EXPECT_EQ(s.native(), reinterpret_cast<std::intptr_t>(native));
      tack::launch(s, big, write_index{}, a, 1.0f);
    }
    ASSERT_EQ(api::stream_synchronize(native), api::success) << "tack destroyed a borrowed stream";
    EXPECT_EQ(a.to_vector()[12345], 12346.0f);
    EXPECT_EQ(api::stream_destroy(native), api::success);
  }
}

// A non-blocking stream (as PyTorch's and CuPy's are) does not order with the default stream, where
// tack allocates, frees and sorts: tack orders those with it explicitly. Without that, the sort
// would read keys the stream's kernel has not written yet, and the reductions' scratch could be
// reused while the stream still reads it.
TYPED_TEST(streams, a_borrowed_non_blocking_stream_is_ordered_with_allocations_and_sorts) {
  if constexpr (!TestFixture::gpu) {
    GTEST_SKIP() << "non-blocking streams are GPU streams";
  } else {
    api::stream_t native = nullptr;
    ASSERT_EQ(api::stream_create_non_blocking(&native), api::success);
    {
      const auto s = tack::stream::borrow(this->dev(), reinterpret_cast<std::intptr_t>(native));
      const tack::stream_scope scope(s);
      for (int round = 0; round < 4; ++round) {
        auto a = this->make(big);  // allocated on the default stream, used on `native`
        tack::launch(big, write_constant{}, a, float(round + 1));
        ASSERT_EQ(tack::sum(a), float(big) * float(round + 1)) << "round " << round;  // exact
        tack::launch(big, write_descending{}, a);
        tack::sort(a);  // on the default stream, after the kernel above
        const auto v = a.to_vector();
        ASSERT_TRUE(std::is_sorted(v.begin(), v.end())) << "round " << round;
        ASSERT_EQ(v.front(), 1.0f);
        ASSERT_EQ(v.back(), float(big));
      }
    }
    EXPECT_EQ(api::stream_synchronize(native), api::success);
    EXPECT_EQ(api::stream_destroy(native), api::success);
  }
}
#endif

// ---- refusals that need no GPU -----------------------------------------------------------------

TEST(stream, refuses_a_device_that_is_not_there_and_a_native_handle_on_the_cpu) {
  EXPECT_THROW_MSG(tack::stream::borrow(tack::cpu(), 7), tack::value_error, "tack::stream::borrow",
                   "7", "CPU");
  const tack::device missing = tack::detail::first_gpu().is_hip()
                                   ? tack::hip(tack::detail::gpu_device_count())
                                   : tack::cuda(tack::detail::gpu_device_count());
  EXPECT_THROW_MSG(tack::stream{missing}, tack::device_error, "tack::stream", missing.str(),
                   "not available");
  EXPECT_THROW_MSG(tack::stream::borrow(missing, 0), tack::device_error, "tack::stream::borrow",
                   missing.str());
  // The other vendor's GPU: never in this build (one GPU backend per build), said so by name.
  const tack::device other = tack::detail::first_gpu().is_hip() ? tack::cuda(0) : tack::hip(0);
  EXPECT_THROW_MSG(tack::stream{other}, tack::device_error, "tack::stream", other.str(),
                   other.is_hip() ? "built without HIP" : "built without CUDA");
}

TEST(stream, the_default_stream_of_a_cpu_is_the_cpu_stream) {
  const tack::stream s = tack::current_stream(tack::cpu());
  EXPECT_EQ(s.native(), 0);
  EXPECT_TRUE(s == tack::stream(tack::cpu()));
  EXPECT_TRUE(s.idle());
}

}  // namespace
