// SPDX-License-Identifier: BSD-3-Clause
// Devices, memory spaces, the allocator registry, pools and buffers (docs/reference/arrays.md,
// "Devices and memory").
#include <tack/core/error.hpp>
#include <tack/memory/allocator.hpp>
#include <tack/memory/buffer.hpp>
#include <tack/memory/copy.hpp>
#include <tack/memory/device.hpp>

#include <gtest/gtest.h>

#include "common/tack_test.hpp"

#include <cstring>
#include <thread>
#include <vector>

TEST(Device, NamesAndParsing) {
  EXPECT_EQ(tack::cpu().str(), "cpu");
  EXPECT_EQ(tack::cuda().str(), "cuda:0");
  EXPECT_EQ(tack::cuda(3).str(), "cuda:3");
  EXPECT_EQ(tack::device::parse("cpu"), tack::cpu());
  EXPECT_EQ(tack::device::parse("cuda"), tack::cuda(0));
  EXPECT_EQ(tack::device::parse("cuda:2"), tack::cuda(2));
  EXPECT_EQ(tack::hip().str(), "hip:0");
  EXPECT_EQ(tack::hip(3).str(), "hip:3");
  EXPECT_EQ(tack::device::parse("hip"), tack::hip(0));
  EXPECT_EQ(tack::device::parse("hip:2"), tack::hip(2));
  EXPECT_NE(tack::hip(0), tack::cuda(0));
  EXPECT_TRUE(tack::hip().is_hip() && tack::hip().is_gpu() && !tack::hip().is_cuda());
  EXPECT_TRUE(tack::cuda().is_gpu() && !tack::cpu().is_gpu());
  for (const char* bad :
       {"gpu", "cuda:", "cuda:x", "cuda:-1", "", "CPU", "hip:", "hip:-2", "hipx", "rocm:0"}) {
    EXPECT_THROW_MSG(tack::device::parse(bad), tack::value_error, "is not a device", "hip:N");
  }
  EXPECT_TRUE(tack::is_available(tack::cpu()));
  EXPECT_FALSE(tack::is_available(tack::cuda(1000)));
  EXPECT_FALSE(tack::is_available(tack::hip(1000)));
  // One GPU backend per build: the other vendor's devices never exist here.
  if (!TACK_HAS_CUDA) EXPECT_FALSE(tack::is_available(tack::cuda(0)));
  if (!TACK_HAS_HIP) EXPECT_FALSE(tack::is_available(tack::hip(0)));
}

TEST(Device, AGpuOfAKindTheBuildLacksIsRefusedSayingWhichOptionAddsIt) {
  if (!TACK_HAS_HIP) {
    EXPECT_THROW_MSG(tack::set_default_device(tack::hip(1)), tack::device_error,
                     "tack::set_default_device", "hip:1", "not available", "built without HIP",
                     "TACK_ENABLE_HIP=ON", "hipcc");
    EXPECT_THROW_MSG(tack::buffer::allocate(tack::hip(), 16), tack::device_error, "hip:0",
                     "built without HIP");
    EXPECT_THROW_MSG(tack::get_allocator(tack::memory_space::unified, tack::hip(2)),
                     tack::device_error, "tack::get_allocator", "unified", "hip:2",
                     "built without HIP");
    EXPECT_THROW_MSG((void)tack::device_pool_used_bytes(tack::hip()), tack::device_error,
                     "device_pool_used_bytes", "hip:0", "built without HIP");
  }
  if (!TACK_HAS_CUDA) {
    EXPECT_THROW_MSG(tack::set_default_device(tack::cuda(1)), tack::device_error, "cuda:1",
                     "built without CUDA", "TACK_ENABLE_CUDA=ON", "nvcc");
  }
  EXPECT_THROW_MSG((void)tack::device_pool_used_bytes(tack::cpu()), tack::value_error, "cpu",
                   "tack::hip(id)");
}

TEST(Device, DefaultDevice) {
  EXPECT_EQ(tack::default_device(), tack::cpu());
  tack::set_default_device(tack::cpu());
  EXPECT_EQ(tack::default_device(), tack::cpu());
  if (!tack::is_available(tack::cuda())) {
    EXPECT_THROW_MSG(tack::set_default_device(tack::cuda()), tack::device_error, "cuda:0",
                     "not available");
    EXPECT_EQ(tack::default_device(), tack::cpu());
  }
}

TEST(Allocator, RegistryAndSpaces) {
  const auto host = tack::get_allocator(tack::memory_space::host);
  EXPECT_EQ(tack::get_allocator(tack::memory_space::dynamic, tack::cpu()), host);
  EXPECT_EQ(tack::default_allocator(tack::cpu()), host);
  auto& a = tack::allocator_from_id(host);
  EXPECT_EQ(a.space(), tack::memory_space::host);
  EXPECT_EQ(a.device(), tack::cpu());
  EXPECT_EQ(a.name(), "host");
  EXPECT_THROW_MSG(tack::allocator_from_id(12345), tack::value_error, "12345");
  EXPECT_THROW_MSG(tack::allocator_from_id(-1), tack::value_error, "-1");
  if (!tack::is_available(tack::cuda())) {
    EXPECT_THROW_MSG(tack::get_allocator(tack::memory_space::device), tack::device_error,
                     "device memory", "not available");
  }
  EXPECT_EQ(tack::to_string(tack::memory_space::unified), "unified");
  EXPECT_TRUE(tack::host_accessible(tack::memory_space::pinned));
  EXPECT_FALSE(tack::host_accessible(tack::memory_space::device));
}

TEST(Allocator, HostMemoryIsAlignedAndFreshHugeBlocksAreZero) {
  auto& a = tack::allocator_from_id(tack::get_allocator(tack::memory_space::host));
  tack::release_host_cache();
  for (std::size_t bytes : {std::size_t{1}, std::size_t{100}, std::size_t{4} << 20}) {
    bool zeroed = false;
    void* p = a.allocate_reporting_zero(bytes, zeroed);
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(p) % 64, 0u);
    EXPECT_EQ(zeroed, bytes >= (std::size_t{2} << 20)) << bytes;  // fresh mappings only
    if (zeroed) {
      std::vector<char> zero(bytes, 0);
      EXPECT_EQ(std::memcmp(p, zero.data(), bytes), 0);
      EXPECT_EQ(reinterpret_cast<std::uintptr_t>(p) % (std::size_t{2} << 20), 0u);
    }
    std::memset(p, 1, bytes);
    a.deallocate(p, bytes);
  }
  EXPECT_EQ(a.allocate(0), nullptr);
  EXPECT_THROW_MSG(a.allocate(std::size_t{1} << 60), tack::out_of_memory, "bytes");
}

// Restores the host cache's limit and empties it around a test.
class HostCache : public ::testing::Test {
protected:
  void SetUp() override {
    saved_ = tack::host_cache_limit();
    tack::release_host_cache();
  }
  void TearDown() override {
    tack::set_host_cache_limit(saved_);
    tack::release_host_cache();
  }
  static constexpr std::size_t mib = std::size_t{1} << 20;
  std::size_t saved_ = 0;
};

TEST_F(HostCache, FreedLargeBlocksAreReusedAndReportedAsNotZero) {
  tack::set_host_cache_limit(64 * mib);
  void* first = nullptr;
  {
    auto b = tack::buffer::allocate(tack::cpu(), 6 * mib);
    EXPECT_TRUE(b.zeroed());
    first = b.data();
    std::memset(first, 0x5a, 6 * mib);
  }
  EXPECT_EQ(tack::host_cached_bytes(), 6 * mib);
  auto again = tack::buffer::allocate(tack::cpu(), 6 * mib - 100);  // same 2 MiB rounding
  EXPECT_EQ(again.data(), first);
  EXPECT_FALSE(again.zeroed());  // the old contents are still there
  EXPECT_EQ(static_cast<unsigned char*>(again.data())[12345], 0x5a);
  EXPECT_EQ(tack::host_cached_bytes(), 0u);
}

TEST_F(HostCache, ASmallerRequestTakesTheSmallestFitTrimmed) {
  tack::set_host_cache_limit(64 * mib);
  auto& a = tack::allocator_from_id(0);
  void* big = a.allocate(16 * mib);
  void* mid = a.allocate(8 * mib);
  a.deallocate(big, 16 * mib);
  a.deallocate(mid, 8 * mib);
  EXPECT_EQ(tack::host_cached_bytes(), 24 * mib);
  void* p = a.allocate(4 * mib);  // the 8 MiB block, its last 4 MiB returned to the system
  EXPECT_EQ(p, mid);
  EXPECT_EQ(tack::host_cached_bytes(), 16 * mib);
  std::memset(p, 1, 4 * mib);
  a.deallocate(p, 4 * mib);
  EXPECT_EQ(tack::host_cached_bytes(), 20 * mib);
}

TEST_F(HostCache, TheLimitEvictsTheOldestBlocksAndZeroTurnsTheCacheOff) {
  auto& a = tack::allocator_from_id(0);
  tack::set_host_cache_limit(10 * mib);
  void* p1 = a.allocate(4 * mib);
  void* p2 = a.allocate(4 * mib);
  void* p3 = a.allocate(4 * mib);
  a.deallocate(p1, 4 * mib);
  a.deallocate(p2, 4 * mib);
  a.deallocate(p3, 4 * mib);  // 12 MiB > 10: p1 goes
  EXPECT_EQ(tack::host_cached_bytes(), 8 * mib);
  void* q = a.allocate(4 * mib);
  EXPECT_TRUE(q == p2 || q == p3);
  a.deallocate(q, 4 * mib);
  void* huge = a.allocate(12 * mib);  // larger than the limit: never kept
  a.deallocate(huge, 12 * mib);
  EXPECT_EQ(tack::host_cached_bytes(), 8 * mib);
  tack::set_host_cache_limit(0);  // lowering the limit evicts at once
  EXPECT_EQ(tack::host_cache_limit(), 0u);
  EXPECT_EQ(tack::host_cached_bytes(), 0u);
  void* r = a.allocate(4 * mib);
  a.deallocate(r, 4 * mib);
  EXPECT_EQ(tack::host_cached_bytes(), 0u);
}

TEST_F(HostCache, ZerosOnAReusedBlockIsZero) {
  tack::set_host_cache_limit(64 * mib);
  {
    auto b = tack::buffer::allocate(tack::cpu(), 8 * mib);
    std::memset(b.data(), 0xff, 8 * mib);
  }
  ASSERT_EQ(tack::host_cached_bytes(), 8 * mib);
  auto again = tack::buffer::allocate(tack::cpu(), 8 * mib);
  ASSERT_FALSE(again.zeroed());
  // What tack::zeros does with a block that is not known to be zero.
  double zero = 0.0;
  tack::detail::host_fill(again.data(), &zero, sizeof zero, 8 * mib / sizeof zero);
  const auto* d = static_cast<const double*>(again.data());
  for (std::size_t i = 0; i < 8 * mib / sizeof(double); i += 4099) ASSERT_EQ(d[i], 0.0) << i;
}

TEST_F(HostCache, ThreadsAllocateAndFreeConcurrently) {
  tack::set_host_cache_limit(16 * mib);
  auto& a = tack::allocator_from_id(0);
  auto work = [&a](unsigned char tag) {
    for (int k = 0; k < 40; ++k) {
      const std::size_t bytes = (2 + static_cast<std::size_t>(k % 3) * 2) * mib;
      auto* p = static_cast<unsigned char*>(a.allocate(bytes));
      p[0] = tag;
      p[bytes - 1] = tag;
      EXPECT_EQ(p[0], tag);
      a.deallocate(p, bytes);
    }
  };
  std::thread t1(work, 1), t2(work, 2);
  t1.join();
  t2.join();
  EXPECT_LE(tack::host_cached_bytes(), 16 * mib);
}

// A user allocator registered next to the library's: counts what it hands out.
struct counting_allocator final : tack::allocator {
  int live = 0;
  void* allocate(std::size_t bytes) override {
    ++live;
    return ::operator new (bytes, std::align_val_t{64});
  }
  void deallocate(void* p, std::size_t) noexcept override {
    --live;
    ::operator delete (p, std::align_val_t{64});
  }
  tack::memory_space space() const noexcept override { return tack::memory_space::host; }
  tack::device device() const noexcept override { return tack::cpu(); }
  std::string name() const override { return "counting"; }
};

TEST(Allocator, UserAllocatorsAndPools) {
  auto counting = std::make_shared<counting_allocator>();
  const auto id = tack::register_allocator(counting);
  EXPECT_EQ(tack::allocator_from_id(id).name(), "counting");
  {
    auto b = tack::buffer::allocate_with(id, 100);
    EXPECT_EQ(counting->live, 1);
    EXPECT_EQ(b.allocator(), id);
  }
  EXPECT_EQ(counting->live, 0);

  const auto pool = tack::make_pool_allocator(id);
  EXPECT_EQ(tack::allocator_from_id(pool).name(), "pool(counting)");
  void* first;
  {
    auto b = tack::buffer::allocate_with(pool, 1000);
    first = b.data();
    EXPECT_EQ(counting->live, 1);
  }
  EXPECT_EQ(counting->live, 1);  // kept by the pool
  EXPECT_EQ(tack::pool_cached_bytes(pool), 1024u);
  {
    auto b = tack::buffer::allocate_with(pool, 900);  // same size class: reused
    EXPECT_EQ(b.data(), first);
    EXPECT_EQ(counting->live, 1);
    EXPECT_EQ(tack::pool_cached_bytes(pool), 0u);
  }
  tack::release_pool(pool);
  EXPECT_EQ(counting->live, 0);
  EXPECT_EQ(tack::pool_cached_bytes(pool), 0u);
  EXPECT_THROW_MSG(tack::release_pool(id), tack::value_error, "not a pool");
  EXPECT_THROW_MSG(tack::register_allocator(nullptr), tack::value_error, "null");
}

TEST(Buffer, AllocateBorrowVersionOwner) {
  auto b = tack::buffer::allocate(tack::cpu(), 256);
  EXPECT_TRUE(b);
  EXPECT_EQ(b.nbytes(), 256u);
  EXPECT_EQ(b.device(), tack::cpu());
  EXPECT_FALSE(b.read_only());
  EXPECT_FALSE(b.is_borrowed());
  EXPECT_EQ(b.version(), 0u);
  auto shared = b;
  shared.bump_version();
  EXPECT_EQ(b.version(), 1u);
  EXPECT_EQ(b.use_count(), 2);

  int releases = 0;
  std::vector<int> host(4);
  {
    auto owner = std::shared_ptr<void>(nullptr, [&](void*) { ++releases; });
    auto borrowed = tack::buffer::borrow(host.data(), 16, tack::cpu(), true, owner);
    owner.reset();
    EXPECT_TRUE(borrowed.read_only());
    EXPECT_TRUE(borrowed.is_borrowed());
    EXPECT_EQ(borrowed.allocator(), -1);
    auto copy = borrowed;
    EXPECT_EQ(releases, 0);
    EXPECT_THROW_MSG(copy.reallocate(32, 16), tack::value_error, "borrowed");
  }
  EXPECT_EQ(releases, 1);  // exactly once
}

TEST(Buffer, ReallocateMovesOnceAndKeepsContents) {
  auto b = tack::buffer::allocate(tack::cpu(), 16);
  std::memcpy(b.data(), "0123456789abcdef", 16);
  b.reallocate(1 << 22, 16);
  EXPECT_EQ(std::memcmp(b.data(), "0123456789abcdef", 16), 0);
  EXPECT_EQ(b.nbytes(), std::size_t{1} << 22);
  EXPECT_THROW_MSG(b.reallocate(8, 16), tack::value_error, "cannot keep 16 bytes");
  EXPECT_THROW(b.reallocate(std::size_t{1} << 60, 16), tack::out_of_memory);
  EXPECT_EQ(std::memcmp(b.data(), "0123456789abcdef", 16), 0);  // strong guarantee
}

TEST(Copy, HostCopyAndFillPatterns) {
  // Every element size and misalignment, below and above the streaming threshold.
  for (std::size_t bytes : {std::size_t{0}, std::size_t{37}, std::size_t{9} << 20}) {
    std::vector<unsigned char> src(bytes + 7), dst(bytes + 7, 0);
    for (std::size_t i = 0; i < src.size(); ++i) src[i] = static_cast<unsigned char>(i * 31);
    tack::detail::host_copy(dst.data() + 3, src.data() + 1, bytes);
    EXPECT_EQ(std::memcmp(dst.data() + 3, src.data() + 1, bytes), 0);
    EXPECT_EQ(dst[bytes + 3], 0);  // nothing written past the range
  }
  // Large fills (streaming stores, sampled) and small ones (cached stores, every element); the
  // element sizes 1, 2, 4, 8 and 16 have their own pattern set-up.
  for (std::size_t size : {1u, 2u, 3u, 4u, 8u, 12u, 16u, 24u, 36u, 72u}) {
    for (const bool large : {true, false}) {
      const std::size_t count = large ? (std::size_t{9} << 20) / size + 5 : 1000 / size + 3;
      const std::size_t step = large ? 997 : 1;
      std::vector<unsigned char> value(size), out(size * count + 2, 0xEE);
      for (std::size_t i = 0; i < size; ++i) value[i] = static_cast<unsigned char>(i + 1);
      tack::detail::host_fill(out.data() + 1, value.data(), size, count);
      for (std::size_t k = 0; k < count; k += step) {
        ASSERT_EQ(std::memcmp(out.data() + 1 + k * size, value.data(), size), 0)
            << size << " " << k;
      }
      EXPECT_EQ(std::memcmp(out.data() + 1 + (count - 1) * size, value.data(), size), 0);
      EXPECT_EQ(out[0], 0xEE);                 // nothing before
      EXPECT_EQ(out[size * count + 1], 0xEE);  // nothing after
    }
  }
}
