// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
// The GPU memory layer on a GPU (CUDA or HIP, one test): the stream-ordered pool reuses freed
// blocks, out-of-memory and vendor errors name what failed, pinned and managed memory come from the
// allocator registry and cross DLPack both ways (kDLCUDAHost / kDLCUDAManaged with CUDA,
// kDLROCMHost / kDLROCM with HIP). The CPU backends check what the same calls say about the CPU
// (no pool); the GPU cases skip with a reason without a GPU. Compiled by nvcc in CUDA builds and
// hipcc in HIP builds.

#include <tack/array/copyto.hpp>
#include <tack/array/factories.hpp>
#include <tack/detail/gpu_runtime.hpp>
#include <tack/interop/dlpack.hpp>
#include <tack/memory/allocator.hpp>

#include <gtest/gtest.h>

#include "common/tack_test.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace {

using tack::index_t;

template <class B>
class gpu_runtime : public tack::test::backend_test<B> {
protected:
  static constexpr bool gpu = tack::test::on_gpu<B>;
  tack::device dev() const { return tack::test::device_of<B>(); }
  // The vendor's names in messages: "cudaMemcpy", "hipMemcpy".
  static std::string api(const char* suffix) {
    return std::string(tack::test::on_hip<B> ? "hip" : "cuda") + suffix;
  }
};
TYPED_TEST_SUITE(gpu_runtime, tack::test::backends, tack::test::backend_names);

TYPED_TEST(gpu_runtime, the_device_pool_keeps_freed_blocks_for_the_next_allocation) {
  if constexpr (!TestFixture::gpu) {
    EXPECT_THROW_MSG((void)tack::device_pool_reserved_bytes(tack::cpu()), tack::value_error,
                     "device_pool_reserved_bytes", "cpu", "tack::cuda(id)", "tack::hip(id)");
  } else {
    const std::size_t bytes = std::size_t{64} << 20;
    const auto n = static_cast<index_t>(bytes / sizeof(float));
    { auto a = tack::empty<float>(n, {.device = this->dev()}); }
    const std::size_t reserved = tack::device_pool_reserved_bytes(this->dev());
    EXPECT_GE(reserved, bytes) << "a freed block stays in the pool";
    for (int k = 0; k < 10; ++k) {
      auto b = tack::empty<float>(n, {.device = this->dev()});
      b.fill(float(k));
    }
    EXPECT_EQ(tack::device_pool_reserved_bytes(this->dev()), reserved)
        << "ten allocations of the freed size reuse it";
    tack::trim_device_pool(this->dev());
    EXPECT_LT(tack::device_pool_reserved_bytes(this->dev()), reserved);
  }
}

TYPED_TEST(gpu_runtime, out_of_memory_and_vendor_errors_name_what_failed) {
  if constexpr (!TestFixture::gpu) {
    GTEST_SKIP() << "device out-of-memory and vendor errors need a GPU";
  } else {
    const index_t huge = index_t{1} << 50;  // 4 PiB of floats
    EXPECT_THROW_MSG(tack::empty<float>(huge, {.device = this->dev()}), tack::out_of_memory,
                     std::to_string(huge * 4) + " bytes", this->dev().str(),
                     "out of device memory");
    // An invalid copy: the call, the file and the vendor's message.
    EXPECT_THROW_MSG(tack::detail::gpu_memcpy(nullptr, reinterpret_cast<const void*>(16), 8,
                                              tack::detail::gpu_copy_kind::device_to_device),
                     tack::device_error, this->api("Memcpy"), "runtime.cpp:", this->api("Error"));
    // The device still works afterwards.
    auto a = tack::full<int>(3, 4, {.device = this->dev()});
    EXPECT_EQ(a.to_vector(), (std::vector<int>{4, 4, 4}));
  }
}

TYPED_TEST(gpu_runtime, pinned_and_managed_memory_come_from_the_registry_and_cross_dlpack) {
  if constexpr (!TestFixture::gpu) {
    GTEST_SKIP() << "pinned and managed memory need a GPU";
  } else {
    const auto pinned_id = tack::get_allocator(tack::memory_space::pinned);
    const auto managed_id = tack::get_allocator(tack::memory_space::unified, this->dev());
    EXPECT_EQ(tack::allocator_from_id(pinned_id).space(), tack::memory_space::pinned);
    EXPECT_EQ(tack::allocator_from_id(managed_id).device(), this->dev());

    auto p = tack::empty<float>(1000, {.allocator = pinned_id});
    EXPECT_TRUE(p.host_accessible());
    for (index_t i = 0; i < 1000; ++i) p[i] = float(i);
    auto d = p.to_device(this->dev());  // pinned -> device: no staging
    EXPECT_EQ(d.to_vector(), p.to_vector());

    auto m = tack::empty<float>(1000, {.allocator = managed_id});
    EXPECT_TRUE(m.host_accessible());
    tack::copyto(m, d);
    EXPECT_EQ(m[999], 999.0f);

    auto* tp = tack::to_dlpack(p);
    EXPECT_EQ(tp->dl_tensor.device.device_type, tack::test::on_hip<TypeParam>
                                                    ? tack::dlpack::kDLROCMHost
                                                    : tack::dlpack::kDLCUDAHost);
    auto ip = tack::from_dlpack<float>(tp);
    EXPECT_TRUE(ip.host_accessible());
    EXPECT_EQ(ip[5], 5.0f);

    // Managed memory: kDLCUDAManaged, host-accessible again on import; ROCm has no managed type, so
    // HIP's is kDLROCM and imports as device memory.
    auto* tm = tack::to_dlpack(m, tack::test::on_hip<TypeParam> ? 0 : 2);
    EXPECT_EQ(tm->dl_tensor.device.device_type,
              tack::test::on_hip<TypeParam> ? tack::dlpack::kDLROCM : tack::dlpack::kDLCUDAManaged);
    auto im = tack::from_dlpack<float>(tm);
    EXPECT_EQ(im.device(), this->dev());
    EXPECT_EQ(im.host_accessible(), !tack::test::on_hip<TypeParam>);
    EXPECT_EQ(im.to_vector()[7], 7.0f);

    auto* td = tack::to_dlpack(d);
    EXPECT_EQ(td->dl_tensor.device.device_type,
              tack::test::on_hip<TypeParam> ? tack::dlpack::kDLROCM : tack::dlpack::kDLCUDA);
    auto id = tack::from_dlpack<float>(td);
    EXPECT_FALSE(id.host_accessible());
    EXPECT_EQ(id.to_vector(), p.to_vector());
  }
}

}  // namespace
