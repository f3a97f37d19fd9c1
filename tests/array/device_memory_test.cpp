// SPDX-License-Identifier: BSD-3-Clause
// Arrays in memory the host cannot touch, on a build without a GPU: an allocator registered as
// cuda:0 device memory (backed by host memory so the test runs anywhere) stands in for cudaMalloc.
// Host element access must be refused with a device_error naming the way out.
#include <tack/array/factories.hpp>
#include <tack/memory/allocator.hpp>

#include <gtest/gtest.h>

#include <new>

namespace {
struct fake_device_allocator final : tack::allocator {
  void* allocate(std::size_t bytes) override { return ::operator new(bytes, std::align_val_t{64}); }
  void deallocate(void* p, std::size_t) noexcept override { ::operator delete(p, std::align_val_t{64}); }
  tack::memory_space space() const noexcept override { return tack::memory_space::device; }
  tack::device device() const noexcept override { return tack::cuda(0); }
  std::string name() const override { return "fake cuda:0 device"; }
};

tack::allocator_id fake_device() {
  static const tack::allocator_id id =
      tack::register_allocator(std::make_shared<fake_device_allocator>());
  return id;
}
}  // namespace

#define EXPECT_THROW_MSG(expr, type, ...)                                                          \
  do {                                                                                             \
    try {                                                                                          \
      (void)(expr);                                                                                \
      ADD_FAILURE() << #expr " did not throw " #type;                                              \
    } catch (const type& e) {                                                                      \
      for (const char* frag : {__VA_ARGS__})                                                       \
        EXPECT_NE(std::string(e.what()).find(frag), std::string::npos)                             \
            << "message \"" << e.what() << "\" lacks \"" << frag << "\"";                          \
    }                                                                                              \
  } while (0)

TEST(DeviceMemory, HostAccessIsRefused) {
  auto a = tack::empty<float>({4, 2}, {.allocator = fake_device()});
  EXPECT_EQ(a.device(), tack::cuda(0));
  EXPECT_FALSE(a.host_accessible());
  EXPECT_EQ(a.describe(), "array<f32, 2> shape (4, 2) on cuda:0");
  EXPECT_THROW_MSG(a(0, 0), tack::device_error, "operator()", "on cuda:0", "device memory",
                   "to_vector()", "to_device(tack::cpu())");
  EXPECT_THROW_MSG(a[3], tack::device_error, "operator[]", "to_vector()");
  EXPECT_THROW_MSG(a.rows(1, 2)(0, 1), tack::device_error, "view of rows [1, 2) of 4");
  auto v = tack::empty<float>(3, {.allocator = fake_device()});
  EXPECT_THROW_MSG(v.begin(), tack::device_error, "begin");
}
