// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
// The CUDA runtime calls of the host library (declared in tack/detail/cuda_runtime.hpp).
#include <tack/core/error.hpp>
#include <tack/detail/cuda_runtime.hpp>

#include <cuda_runtime.h>

#include <string>

namespace tack::detail {
namespace {

std::string describe(cudaError_t e, const char* what, const char* file, int line) {
  return std::string("tack: ") + what + " failed: " + cudaGetErrorName(e) + " (" +
         cudaGetErrorString(e) + ") at " + file + ":" + std::to_string(line);
}

#define TACK_IMPL_CUDA_CHECK(expr, what)                                                           \
  do {                                                                                             \
    cudaError_t tack_impl_err = (expr);                                                            \
    if (tack_impl_err != cudaSuccess) {                                                            \
      (void)cudaGetLastError(); /* clear the sticky-free error state */                           \
      throw ::tack::device_error(describe(tack_impl_err, what, __FILE__, __LINE__));              \
    }                                                                                              \
  } while (0)

void* checked_alloc(cudaError_t e, void* p, std::size_t bytes, const char* what) {
  if (e == cudaErrorMemoryAllocation) {
    (void)cudaGetLastError();
    throw out_of_memory(std::string("tack: ") + what + " of " + std::to_string(bytes) +
                        " bytes failed: out of device memory");
  }
  TACK_IMPL_CUDA_CHECK(e, what);
  return p;
}

struct device_guard {
  int previous = 0;
  explicit device_guard(int id) {
    cudaGetDevice(&previous);
    if (previous != id) TACK_IMPL_CUDA_CHECK(cudaSetDevice(id), "cudaSetDevice");
  }
  ~device_guard() { cudaSetDevice(previous); }
};

cudaMemcpyKind to_cuda(cuda_copy_kind k) {
  switch (k) {
  case cuda_copy_kind::host_to_device: return cudaMemcpyHostToDevice;
  case cuda_copy_kind::device_to_host: return cudaMemcpyDeviceToHost;
  case cuda_copy_kind::device_to_device: return cudaMemcpyDeviceToDevice;
  default: return cudaMemcpyDefault;
  }
}
}  // namespace

int cuda_device_count() noexcept {
  int n = 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess) {
    (void)cudaGetLastError();
    return 0;
  }
  return n;
}

void* cuda_malloc_device(std::size_t bytes, int id) {
  device_guard g(id);
  void* p = nullptr;
  const cudaError_t e = cudaMalloc(&p, bytes);  // before reading p: argument order is unspecified
  return checked_alloc(e, p, bytes, "cudaMalloc");
}
void* cuda_malloc_unified(std::size_t bytes, int id) {
  device_guard g(id);
  void* p = nullptr;
  const cudaError_t e = cudaMallocManaged(&p, bytes);  // before reading p: argument order is unspecified
  return checked_alloc(e, p, bytes, "cudaMallocManaged");
}
void* cuda_malloc_pinned(std::size_t bytes) {
  void* p = nullptr;
  const cudaError_t e = cudaMallocHost(&p, bytes);  // before reading p: argument order is unspecified
  return checked_alloc(e, p, bytes, "cudaMallocHost");
}
void cuda_free_device(void* p, int) noexcept { cudaFree(p); }
void cuda_free_unified(void* p, int) noexcept { cudaFree(p); }
void cuda_free_pinned(void* p) noexcept { cudaFreeHost(p); }

void cuda_memcpy(void* dst, const void* src, std::size_t bytes, cuda_copy_kind kind) {
  if (bytes == 0) return;
  TACK_IMPL_CUDA_CHECK(cudaMemcpy(dst, src, bytes, to_cuda(kind)), "cudaMemcpy");
}
void cuda_memcpy_async(void* dst, const void* src, std::size_t bytes, cuda_copy_kind kind) {
  if (bytes == 0) return;
  TACK_IMPL_CUDA_CHECK(cudaMemcpyAsync(dst, src, bytes, to_cuda(kind)), "cudaMemcpyAsync");
}
void cuda_memset(void* p, int value, std::size_t bytes) {
  if (bytes == 0) return;
  TACK_IMPL_CUDA_CHECK(cudaMemset(p, value, bytes), "cudaMemset");
}
void cuda_synchronize() { TACK_IMPL_CUDA_CHECK(cudaDeviceSynchronize(), "cudaDeviceSynchronize"); }

}  // namespace tack::detail
