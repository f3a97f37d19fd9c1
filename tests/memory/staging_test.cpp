// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
// The host arithmetic of device copies: how a host <-> device copy of pageable memory is cut into
// chunks for the two pinned staging buffers (detail::staging_plan), and what the device memory
// pool's functions say about devices that have no pool.

#include <tack/array/copyto.hpp>
#include <tack/array/factories.hpp>
#include <tack/config.hpp>
#include <tack/memory/allocator.hpp>
#include <tack/memory/copy.hpp>
#include <tack/types/vec.hpp>

#include <gtest/gtest.h>

#include "common/tack_test.hpp"

#include <cstddef>
#include <cstdint>

namespace {

using tack::detail::staging_plan;

TEST(StagingPlan, ChunksCoverTheCopyOnceInOrderAlternatingBuffers) {
  for (std::size_t chunk :
       {std::size_t{1}, std::size_t{7}, std::size_t{4096}, staging_plan::default_chunk_bytes}) {
    for (std::size_t bytes : {std::size_t{0}, std::size_t{1}, chunk - 1 + (chunk == 1), chunk,
                              chunk + 1, 3 * chunk, 5 * chunk + chunk / 2 + 1}) {
      const staging_plan plan{bytes, chunk};
      std::size_t next = 0;
      for (std::size_t k = 0; k < plan.chunks(); ++k) {
        const auto c = plan.chunk(k);
        EXPECT_EQ(c.offset, next) << "chunk " << k << " of " << bytes << " bytes by " << chunk;
        EXPECT_GT(c.size, 0u);
        EXPECT_LE(c.size, chunk);
        if (k + 1 < plan.chunks()) {
          EXPECT_EQ(c.size, chunk) << "only the last chunk is short";
        }
        EXPECT_EQ(c.slot, static_cast<int>(k % 2));
        if (k > 0) {
          EXPECT_NE(c.slot, plan.chunk(k - 1).slot) << "consecutive chunks use different buffers";
        }
        next += c.size;
      }
      EXPECT_EQ(next, bytes) << bytes << " bytes by " << chunk;
      EXPECT_EQ(plan.chunks(), (bytes + chunk - 1) / chunk);
    }
  }
}

TEST(StagingPlan, OnlyLargeCopiesOfPageableMemoryAreStaged) {
  EXPECT_FALSE(staging_plan::staged(staging_plan::min_bytes - 1, true));
  EXPECT_TRUE(staging_plan::staged(staging_plan::min_bytes, true));
  EXPECT_TRUE(staging_plan::staged(std::size_t{1} << 30, true));
  EXPECT_FALSE(staging_plan::staged(std::size_t{1} << 30, false)) << "pinned memory goes directly";
  const staging_plan one{staging_plan::default_chunk_bytes, staging_plan::default_chunk_bytes};
  EXPECT_EQ(one.chunks(), 1u);
  const staging_plan empty{0, staging_plan::default_chunk_bytes};
  EXPECT_EQ(empty.chunks(), 0u);
}

TEST(DevicePool, TheCpuHasNoneAndAnAbsentGpuIsADeviceError) {
  EXPECT_THROW_MSG(tack::set_device_pool_release_threshold(tack::cpu(), 0), tack::value_error,
                   "tack::set_device_pool_release_threshold", "cpu", "tack::cuda(id)");
  EXPECT_THROW_MSG((void)tack::device_pool_used_bytes(tack::cpu()), tack::value_error,
                   "device_pool_used_bytes", "cpu");
  EXPECT_THROW_MSG(tack::trim_device_pool(tack::cuda(1000)), tack::device_error,
                   "tack::trim_device_pool", "cuda:1000", "not available");
}

TEST(ComponentCopy, HostToHostStaysInTheArrayLoops) {
  float a[6] = {}, b[6] = {1, 2, 3, 4, 5, 6};
  const std::uintptr_t ab[3] = {reinterpret_cast<std::uintptr_t>(a),
                                reinterpret_cast<std::uintptr_t>(a + 1),
                                reinterpret_cast<std::uintptr_t>(a + 2)};
  const std::uintptr_t bb[3] = {reinterpret_cast<std::uintptr_t>(b),
                                reinterpret_cast<std::uintptr_t>(b + 2),
                                reinterpret_cast<std::uintptr_t>(b + 4)};
  const tack::detail::component_span dst{ab, 3, 12, tack::scalar_kind::f32, true, 0};
  const tack::detail::component_span src{bb, 3, 4, tack::scalar_kind::f32, true, 0};
  EXPECT_THROW_MSG(tack::detail::copy_components(dst, src, 2), tack::value_error, "copy_components",
                   "host memory");
}

TEST(ComponentCopy, DeviceMemoryWithoutAGpuBackendIsADeviceError) {
  if (TACK_HAS_CUDA || TACK_HAS_HIP) {
    GTEST_SKIP() << "this build has a GPU backend: the copy would run on a GPU";
  }
  // Device memory (host memory registered as cuda:0) across layouts: the device kernel is named,
  // and both options that add a GPU backend.
  auto dev = tack::empty<tack::vec3f>(4, {.allocator = tack::test::fake_device_allocator()});
  auto host = tack::zeros<tack::vec3f>(4, {.layout = tack::layout::soa});
  EXPECT_THROW_MSG(tack::copyto(dev, host), tack::device_error, "needs a GPU backend",
                   "TACK_ENABLE_CUDA=ON", "TACK_ENABLE_HIP=ON");
  EXPECT_THROW_MSG((void)dev.astype<double>(), tack::device_error, "cuda:0", "without CUDA");
  EXPECT_THROW_MSG(dev.fill(tack::vec3f{1, 2, 3}), tack::device_error, "a device fill",
                   "needs a GPU backend");
}

}  // namespace
