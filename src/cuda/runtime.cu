// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
// The CUDA runtime calls of the host library (declared in tack/detail/cuda_runtime.hpp): device
// memory from stream-ordered pools, managed and pinned memory, copies (pageable host memory
// through pinned staging buffers), and the DLPack stream hand-over.
#include "check.hpp"

#include <tack/exec/backend/cuda/launch.hpp>

#include <tack/core/error.hpp>
#include <tack/detail/cuda_runtime.hpp>
#include <tack/memory/copy.hpp>

#include <cuda_runtime.h>

#include <cstdint>
#include <limits>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace tack::detail {
namespace {

namespace bc = tack::backend::cuda;
using cuda_impl::device_guard;

cudaMemcpyKind to_cuda(cuda_copy_kind k) {
  switch (k) {
    case cuda_copy_kind::host_to_device:
      return cudaMemcpyHostToDevice;
    case cuda_copy_kind::device_to_host:
      return cudaMemcpyDeviceToHost;
    case cuda_copy_kind::device_to_device:
      return cudaMemcpyDeviceToDevice;
    default:
      return cudaMemcpyDefault;
  }
}

std::string device_name(int id) { return "cuda:" + std::to_string(id); }

// Per device: whether allocations go through a memory pool of tack's (decided once, on the first
// allocation, where the device supports pools: the pool is created then with its release threshold
// raised, so that blocks freed between two synchronizations stay reserved for the next allocation
// instead of going back to the driver). The pools are never destroyed.
class pools {
public:
  static pools& get() {
    static pools* p = new pools;  // never destroyed: arrays may be freed during exit
    return *p;
  }
  // The device's pool, configured on first use, or null where the device has no memory pools.
  cudaMemPool_t pool(int id) {
    std::lock_guard lock(mutex_);
    if (static_cast<std::size_t>(id) >= state_.size())
      state_.resize(static_cast<std::size_t>(id) + 1);
    auto& s = state_[static_cast<std::size_t>(id)];
    if (!s.decided) {
      int supported = 0;
      TACK_IMPL_CUDA_CHECK(cudaDeviceGetAttribute(&supported, cudaDevAttrMemoryPoolsSupported, id),
                           "cudaDeviceGetAttribute(cudaDevAttrMemoryPoolsSupported)");
      if (supported) {
        // tack's own pool, not the device's default one: its release threshold is raised below,
        // and the default pool serves other libraries in the process (CuPy's or PyTorch's async
        // allocators, cudaMallocAsync callers), whose freed memory should still go back.
        cudaMemPoolProps props{};
        props.allocType = cudaMemAllocationTypePinned;
        props.handleTypes = cudaMemHandleTypeNone;
        props.location.type = cudaMemLocationTypeDevice;
        props.location.id = id;
        TACK_IMPL_CUDA_CHECK(cudaMemPoolCreate(&s.pool, &props), "cudaMemPoolCreate");
        std::uint64_t keep = std::numeric_limits<std::uint64_t>::max();
        TACK_IMPL_CUDA_CHECK(
            cudaMemPoolSetAttribute(s.pool, cudaMemPoolAttrReleaseThreshold, &keep),
            "cudaMemPoolSetAttribute(cudaMemPoolAttrReleaseThreshold)");
      }
      s.decided = true;
    }
    return s.pool;
  }
  // The pool if it was configured already (frees must not configure anything).
  cudaMemPool_t known_pool(int id) noexcept {
    std::lock_guard lock(mutex_);
    if (static_cast<std::size_t>(id) >= state_.size()) return nullptr;
    return state_[static_cast<std::size_t>(id)].pool;
  }

private:
  struct state {
    bool decided = false;
    cudaMemPool_t pool = nullptr;
  };
  std::mutex mutex_;
  std::vector<state> state_;
};

// Two pinned buffers, their events and a stream for the staged copies of one device. The stream is
// a blocking one: it waits for the work queued on the legacy default stream, where tack's kernels
// and stream-ordered allocations run.
struct staging_set {
  int device = 0;
  std::size_t chunk = staging_plan::default_chunk_bytes;
  void* buf[2] = {nullptr, nullptr};
  cudaEvent_t done[2] = {nullptr, nullptr};
  cudaStream_t stream = nullptr;

  explicit staging_set(int id) : device(id) {
    device_guard g(id);
    try {
      TACK_IMPL_CUDA_CHECK(cudaStreamCreate(&stream), "cudaStreamCreate");
      for (int k = 0; k < 2; ++k) {
        TACK_IMPL_CUDA_CHECK(cudaEventCreateWithFlags(&done[k], cudaEventDisableTiming),
                             "cudaEventCreateWithFlags");
        const cudaError_t e = cudaHostAlloc(&buf[k], chunk, cudaHostAllocPortable);
        if (e != cudaSuccess)
          cuda_impl::throw_alloc_error(e, "cudaHostAlloc (staging)", chunk, "the host", __FILE__,
                                       __LINE__);
      }
    } catch (...) {
      release();  // the destructor does not run for a constructor that throws
      throw;
    }
  }
  ~staging_set() { release(); }
  staging_set(const staging_set&) = delete;
  staging_set& operator=(const staging_set&) = delete;

private:
  void release() noexcept {
    for (int k = 0; k < 2; ++k) {
      if (buf[k]) (void)cudaFreeHost(buf[k]);
      if (done[k]) (void)cudaEventDestroy(done[k]);
      buf[k] = nullptr;
      done[k] = nullptr;
    }
    if (stream) (void)cudaStreamDestroy(stream);
    stream = nullptr;
  }
};

// Idle staging sets, reused by later copies; one per concurrent copy at most.
class staging_cache {
public:
  static staging_cache& get() {
    static staging_cache* c = new staging_cache;  // never destroyed: copies may run at exit
    return *c;
  }
  std::unique_ptr<staging_set> take(int id) {
    {
      std::lock_guard lock(mutex_);
      for (std::size_t k = 0; k < idle_.size(); ++k) {
        if (idle_[k]->device == id) {
          auto s = std::move(idle_[k]);
          idle_.erase(idle_.begin() + static_cast<std::ptrdiff_t>(k));
          return s;
        }
      }
    }
    return std::make_unique<staging_set>(id);
  }
  void give_back(std::unique_ptr<staging_set> s) noexcept {
    std::lock_guard lock(mutex_);
    try {
      idle_.push_back(std::move(s));
    } catch (...) {
    }
  }

private:
  std::mutex mutex_;
  std::vector<std::unique_ptr<staging_set>> idle_;
};

// The device a device pointer belongs to.
int device_of_pointer(const void* p) {
  cudaPointerAttributes a{};
  TACK_IMPL_CUDA_CHECK(cudaPointerGetAttributes(&a, p), "cudaPointerGetAttributes");
  return a.device;
}

// Host -> device from pageable memory: the host copy of chunk k into a pinned buffer overlaps the
// DMA of chunk k - 1 from the other buffer.
void staged_to_device(void* dst, const void* src, std::size_t bytes, const bc::work_stream& ws) {
  const int id = device_of_pointer(dst);
  device_guard g(id);
  auto set = staging_cache::get().take(id);
  const cudaStream_t stream = ws.queued ? ws.handle : set->stream;
  const staging_plan plan{bytes, set->chunk};
  bool used[2] = {false, false};
  for (std::size_t k = 0; k < plan.chunks(); ++k) {
    const auto c = plan.chunk(k);
    if (used[c.slot]) {
      TACK_IMPL_CUDA_CHECK(cudaEventSynchronize(set->done[c.slot]), "cudaEventSynchronize");
    }
    host_copy(set->buf[c.slot], static_cast<const char*>(src) + c.offset, c.size);
    TACK_IMPL_CUDA_CHECK(cudaMemcpyAsync(static_cast<char*>(dst) + c.offset, set->buf[c.slot],
                                         c.size, cudaMemcpyHostToDevice, stream),
                         "cudaMemcpyAsync (staged host to device)");
    TACK_IMPL_CUDA_CHECK(cudaEventRecord(set->done[c.slot], stream), "cudaEventRecord");
    used[c.slot] = true;
  }
  TACK_IMPL_CUDA_CHECK(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
  staging_cache::get().give_back(std::move(set));
}

// Device -> pageable host: the DMA of chunk k + 1 overlaps the host copy of chunk k.
void staged_to_host(void* dst, const void* src, std::size_t bytes, const bc::work_stream& ws) {
  const int id = device_of_pointer(src);
  device_guard g(id);
  auto set = staging_cache::get().take(id);
  const cudaStream_t stream = ws.queued ? ws.handle : set->stream;
  const staging_plan plan{bytes, set->chunk};
  auto start = [&](std::size_t k) {
    const auto c = plan.chunk(k);
    TACK_IMPL_CUDA_CHECK(cudaMemcpyAsync(set->buf[c.slot], static_cast<const char*>(src) + c.offset,
                                         c.size, cudaMemcpyDeviceToHost, stream),
                         "cudaMemcpyAsync (staged device to host)");
    TACK_IMPL_CUDA_CHECK(cudaEventRecord(set->done[c.slot], stream), "cudaEventRecord");
  };
  const std::size_t chunks = plan.chunks();
  if (chunks > 0) start(0);
  for (std::size_t k = 0; k < chunks; ++k) {
    if (k + 1 < chunks) start(k + 1);  // its buffer's previous chunk (k - 1) was copied out below
    const auto c = plan.chunk(k);
    TACK_IMPL_CUDA_CHECK(cudaEventSynchronize(set->done[c.slot]), "cudaEventSynchronize");
    host_copy(static_cast<char*>(dst) + c.offset, set->buf[c.slot], c.size);
  }
  TACK_IMPL_CUDA_CHECK(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
  staging_cache::get().give_back(std::move(set));
}

// The work stream of a copy: the thread's current stream of the device its device side is on.
bc::work_stream stream_of_copy(const void* dst, const void* src, cuda_copy_kind kind) {
  if (!any_current_cuda_stream()) return {};
  const void* device_side = kind == cuda_copy_kind::device_to_host ? src : dst;
  if (kind == cuda_copy_kind::any) {
    cudaPointerAttributes a{};
    TACK_IMPL_CUDA_CHECK(cudaPointerGetAttributes(&a, dst), "cudaPointerGetAttributes");
    if (a.type != cudaMemoryTypeDevice && a.type != cudaMemoryTypeManaged) device_side = src;
  }
  const std::intptr_t s = current_cuda_stream(device_of_pointer(device_side));
  return s == 0 ? bc::work_stream{} : bc::work_stream{reinterpret_cast<cudaStream_t>(s), true};
}

}  // namespace

namespace cuda_impl {
cudaStream_t nonblocking_current_stream(int id) noexcept {
  const std::intptr_t native = current_cuda_stream(id);
  if (native == 0) return nullptr;
  const auto s = reinterpret_cast<cudaStream_t>(native);
  unsigned flags = 0;
  if (cudaStreamGetFlags(s, &flags) != cudaSuccess) {
    (void)cudaGetLastError();
    return s;  // unknown: ordering explicitly is always safe
  }
  return (flags & cudaStreamNonBlocking) != 0 ? s : nullptr;
}

void order_after(cudaStream_t later, cudaStream_t earlier, const char* what) {
  cudaEvent_t e = nullptr;
  TACK_IMPL_CUDA_CHECK(cudaEventCreateWithFlags(&e, cudaEventDisableTiming),
                       (std::string(what) + ": cudaEventCreateWithFlags").c_str());
  const cudaError_t recorded = cudaEventRecord(e, earlier);
  const cudaError_t waited = recorded == cudaSuccess ? cudaStreamWaitEvent(later, e, 0) : recorded;
  (void)cudaEventDestroy(e);  // released once the wait is resolved
  TACK_IMPL_CUDA_CHECK(waited,
                       (std::string(what) + ": cudaEventRecord / cudaStreamWaitEvent").c_str());
}

void* scratch_alloc(std::size_t bytes, int device_id) {
  return cuda_malloc_device(bytes, device_id);
}
void scratch_free(void* p, int device_id) noexcept { cuda_free_device(p, device_id); }
}  // namespace cuda_impl

int cuda_device_count() noexcept {
  int n = 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess) {
    (void)cudaGetLastError();
    return 0;
  }
  return n;
}

void* cuda_malloc_device(std::size_t bytes, int id) {
  if (bytes == 0) return nullptr;
  device_guard g(id);
  void* p = nullptr;
  if (cudaMemPool_t pool = pools::get().pool(id)) {
    // Stream-ordered on the legacy default stream: tack's kernels and copies run there (or on
    // blocking streams, which order with it), so the block is ready for them. A non-blocking
    // current stream is made to wait for the allocation.
    const cudaError_t e = cudaMallocFromPoolAsync(&p, bytes, pool, cudaStreamLegacy);
    if (e != cudaSuccess)
      cuda_impl::throw_alloc_error(e, "cudaMallocFromPoolAsync", bytes, device_name(id), __FILE__,
                                   __LINE__);
    if (const cudaStream_t s = cuda_impl::nonblocking_current_stream(id)) {
      try {
        cuda_impl::order_after(s, cudaStreamLegacy, "tack: device allocation");
      } catch (...) {
        (void)cudaFreeAsync(p, cudaStreamLegacy);
        throw;
      }
    }
    return p;
  }
  const cudaError_t e = cudaMalloc(&p, bytes);  // before reading p: argument order is unspecified
  if (e != cudaSuccess)
    cuda_impl::throw_alloc_error(e, "cudaMalloc", bytes, device_name(id), __FILE__, __LINE__);
  return p;
}
void* cuda_malloc_unified(std::size_t bytes, int id) {
  if (bytes == 0) return nullptr;
  device_guard g(id);
  void* p = nullptr;
  const cudaError_t e = cudaMallocManaged(&p, bytes);
  if (e != cudaSuccess)
    cuda_impl::throw_alloc_error(e, "cudaMallocManaged", bytes, device_name(id), __FILE__,
                                 __LINE__);
  return p;
}
void* cuda_malloc_pinned(std::size_t bytes) {
  if (bytes == 0) return nullptr;
  void* p = nullptr;
  const cudaError_t e = cudaHostAlloc(&p, bytes, cudaHostAllocPortable);
  if (e != cudaSuccess)
    cuda_impl::throw_alloc_error(e, "cudaHostAlloc", bytes, "the host (pinned)", __FILE__,
                                 __LINE__);
  return p;
}
void cuda_free_device(void* p, int id) noexcept {
  if (!p) return;
  int previous = 0;
  (void)cudaGetDevice(&previous);
  if (previous != id) (void)cudaSetDevice(id);
  if (pools::get().known_pool(id)) {
    // The block is reused in the legacy stream's order: a non-blocking current stream's work,
    // which may still read it, is made to come first.
    if (const cudaStream_t s = cuda_impl::nonblocking_current_stream(id)) {
      try {
        cuda_impl::order_after(cudaStreamLegacy, s, "tack: device free");
      } catch (...) {
        (void)cudaStreamSynchronize(s);  // no event: wait for the stream instead
      }
    }
    (void)cudaFreeAsync(p, cudaStreamLegacy);
  } else {
    (void)cudaFree(p);
  }
  if (previous != id) (void)cudaSetDevice(previous);
  (void)cudaGetLastError();  // at exit the runtime may be unloading: nothing to report to
}
void cuda_free_unified(void* p, int) noexcept {
  if (p) (void)cudaFree(p);
}
void cuda_free_pinned(void* p) noexcept {
  if (p) (void)cudaFreeHost(p);
}

void cuda_set_pool_release_threshold(int id, std::uint64_t bytes) {
  device_guard g(id);
  if (cudaMemPool_t pool = pools::get().pool(id)) {
    TACK_IMPL_CUDA_CHECK(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &bytes),
                         "cudaMemPoolSetAttribute(cudaMemPoolAttrReleaseThreshold)");
  }
}
namespace {
std::size_t pool_attribute(int id, cudaMemPoolAttr attr, const char* what) {
  device_guard g(id);
  cudaMemPool_t pool = pools::get().pool(id);
  if (!pool) return 0;
  std::uint64_t v = 0;
  TACK_IMPL_CUDA_CHECK(cudaMemPoolGetAttribute(pool, attr, &v), what);
  return static_cast<std::size_t>(v);
}
}  // namespace
std::size_t cuda_pool_reserved_bytes(int id) {
  return pool_attribute(id, cudaMemPoolAttrReservedMemCurrent,
                        "cudaMemPoolGetAttribute(cudaMemPoolAttrReservedMemCurrent)");
}
std::size_t cuda_pool_used_bytes(int id) {
  return pool_attribute(id, cudaMemPoolAttrUsedMemCurrent,
                        "cudaMemPoolGetAttribute(cudaMemPoolAttrUsedMemCurrent)");
}
void cuda_trim_pool(int id, std::size_t keep_bytes) {
  device_guard g(id);
  if (cudaMemPool_t pool = pools::get().pool(id)) {
    TACK_IMPL_CUDA_CHECK(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
    TACK_IMPL_CUDA_CHECK(cudaMemPoolTrimTo(pool, keep_bytes), "cudaMemPoolTrimTo");
  }
}

bool cuda_host_pageable(const void* p) {
  cudaPointerAttributes a{};
  const cudaError_t e = cudaPointerGetAttributes(&a, p);
  if (e != cudaSuccess) {
    (void)cudaGetLastError();
    return true;
  }
  return a.type == cudaMemoryTypeUnregistered;
}

void cuda_memcpy(void* dst, const void* src, std::size_t bytes, cuda_copy_kind kind) {
  if (bytes == 0) return;
  const bc::work_stream ws = stream_of_copy(dst, src, kind);
  if (kind == cuda_copy_kind::host_to_device &&
      staging_plan::staged(bytes, cuda_host_pageable(src))) {
    staged_to_device(dst, src, bytes, ws);
    return;
  }
  if (kind == cuda_copy_kind::device_to_host &&
      staging_plan::staged(bytes, cuda_host_pageable(dst))) {
    staged_to_host(dst, src, bytes, ws);
    return;
  }
  if (!ws.queued) {
    TACK_IMPL_CUDA_CHECK(cudaMemcpy(dst, src, bytes, to_cuda(kind)), "cudaMemcpy");
    return;
  }
  // On a tack::stream: in the stream's order; a copy that touches host memory is complete when it
  // returns (the host may read or reuse its side), a device-to-device one is only queued.
  TACK_IMPL_CUDA_CHECK(cudaMemcpyAsync(dst, src, bytes, to_cuda(kind), ws.handle),
                       "cudaMemcpyAsync");
  if (kind != cuda_copy_kind::device_to_device) {
    TACK_IMPL_CUDA_CHECK(cudaStreamSynchronize(ws.handle), "cudaStreamSynchronize");
  }
}
void cuda_memcpy_async(void* dst, const void* src, std::size_t bytes, cuda_copy_kind kind) {
  if (bytes == 0) return;
  const bc::work_stream ws = stream_of_copy(dst, src, kind);
  TACK_IMPL_CUDA_CHECK(cudaMemcpyAsync(dst, src, bytes, to_cuda(kind), ws.handle),
                       "cudaMemcpyAsync");
}
void cuda_memset(void* p, int value, std::size_t bytes) {
  if (bytes == 0) return;
  const bc::work_stream ws = stream_of_copy(p, p, cuda_copy_kind::device_to_device);
  if (!ws.queued) {
    TACK_IMPL_CUDA_CHECK(cudaMemset(p, value, bytes), "cudaMemset");
    return;
  }
  TACK_IMPL_CUDA_CHECK(cudaMemsetAsync(p, value, bytes, ws.handle), "cudaMemsetAsync");
}
void cuda_synchronize() { TACK_IMPL_CUDA_CHECK(cudaDeviceSynchronize(), "cudaDeviceSynchronize"); }

void cuda_synchronize_device(int id, const char* what) {
  device_guard g(id);
  const cudaError_t e = cudaDeviceSynchronize();
  if (e != cudaSuccess)
    cuda_impl::throw_error(e, (std::string(what) + ": cudaDeviceSynchronize").c_str(), __FILE__,
                           __LINE__);
}

std::intptr_t cuda_stream_create(int id) {
  device_guard g(id);
  cudaStream_t s = nullptr;
  TACK_IMPL_CUDA_CHECK(cudaStreamCreate(&s), "tack::stream: cudaStreamCreate");
  return reinterpret_cast<std::intptr_t>(s);
}

void cuda_stream_destroy(int id, std::intptr_t stream) noexcept {
  int previous = 0;
  if (cudaGetDevice(&previous) != cudaSuccess) return;
  if (previous != id) (void)cudaSetDevice(id);
  (void)cudaStreamDestroy(reinterpret_cast<cudaStream_t>(stream));
  if (previous != id) (void)cudaSetDevice(previous);
}

void cuda_stream_synchronize(int id, std::intptr_t stream, const char* what) {
  device_guard g(id);
  const cudaError_t e = cudaStreamSynchronize(reinterpret_cast<cudaStream_t>(stream));
  if (e != cudaSuccess)
    cuda_impl::throw_error(e, (std::string(what) + ": cudaStreamSynchronize").c_str(), __FILE__,
                           __LINE__);
}

bool cuda_stream_idle(int id, std::intptr_t stream, const char* what) {
  device_guard g(id);
  const cudaError_t e = cudaStreamQuery(reinterpret_cast<cudaStream_t>(stream));
  if (e == cudaSuccess) return true;
  if (e == cudaErrorNotReady) {
    (void)cudaGetLastError();
    return false;
  }
  cuda_impl::throw_error(e, (std::string(what) + ": cudaStreamQuery").c_str(), __FILE__, __LINE__);
}

void cuda_stream_wait_for_device(int id, std::intptr_t stream) {
  device_guard g(id);
  cudaStream_t consumer = stream == 1   ? cudaStreamLegacy
                          : stream == 2 ? cudaStreamPerThread
                                        : reinterpret_cast<cudaStream_t>(stream);
  if (consumer == cudaStreamLegacy) return;  // tack's work is queued there already
  cudaEvent_t ready = nullptr;
  TACK_IMPL_CUDA_CHECK(cudaEventCreateWithFlags(&ready, cudaEventDisableTiming),
                       "cudaEventCreateWithFlags");
  cudaError_t e = cudaEventRecord(ready, cudaStreamLegacy);
  if (e == cudaSuccess) e = cudaStreamWaitEvent(consumer, ready, 0);
  (void)cudaEventDestroy(ready);  // destroying a recorded event is safe: the wait keeps it
  TACK_IMPL_CUDA_CHECK(e, "cudaStreamWaitEvent (DLPack consumer stream)");
}

}  // namespace tack::detail
