// SPDX-License-Identifier: BSD-3-Clause
// Arrays in memory the host cannot touch, on a build without a GPU: an allocator registered as
// cuda:0 device memory (backed by host memory so the test runs anywhere) stands in for cudaMalloc.
// Host element access must be refused with a device_error naming the way out.
#include <tack/array/factories.hpp>
#include <tack/memory/allocator.hpp>

#include <gtest/gtest.h>

#include "common/tack_test.hpp"

TEST(DeviceMemory, HostAccessIsRefused) {
  auto a = tack::empty<float>({4, 2}, {.allocator = tack::test::fake_device_allocator()});
  EXPECT_EQ(a.device(), tack::cuda(0));
  EXPECT_FALSE(a.host_accessible());
  EXPECT_EQ(a.describe(), "array<f32, 2> shape (4, 2) on cuda:0");
  EXPECT_THROW_MSG(a(0, 0), tack::device_error, "operator()", "on cuda:0", "device memory",
                   "to_vector()", "to_device(tack::cpu())");
  EXPECT_THROW_MSG(a[3], tack::device_error, "operator[]", "to_vector()");
  EXPECT_THROW_MSG(a.rows(1, 2)(0, 1), tack::device_error, "view of rows [1, 2) of 4");
  auto v = tack::empty<float>(3, {.allocator = tack::test::fake_device_allocator()});
  EXPECT_THROW_MSG(v.begin(), tack::device_error, "begin");
}
