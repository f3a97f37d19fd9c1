// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
// The GPU runtime calls of the host library (declared in tack/detail/gpu_runtime.hpp), one source
// for CUDA and HIP over the name layer of exec/backend/gpu/api.hpp (compiled by nvcc or hipcc):
// device memory from stream-ordered pools, managed and pinned memory, copies (pageable host memory
// through pinned staging buffers), streams, and the DLPack stream hand-over.
#include "check.hpp"

#include <tack/exec/backend/gpu/launch.hpp>

#include <tack/core/error.hpp>
#include <tack/detail/gpu_runtime.hpp>
#include <tack/memory/copy.hpp>

#include <cstdint>
#include <limits>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace tack::detail {
namespace {

namespace bc = tack::backend::gpu;
namespace api = tack::backend::gpu::api;
using gpu_impl::device_guard;
using gpu_impl::device_of_pointer;

api::memcpy_kind to_api(gpu_copy_kind k) {
  switch (k) {
    case gpu_copy_kind::host_to_device:
      return api::host_to_device;
    case gpu_copy_kind::device_to_host:
      return api::device_to_host;
    case gpu_copy_kind::device_to_device:
      return api::device_to_device;
    default:
      return api::memcpy_default;
  }
}

std::string device_name(int id) { return device(api::kind, id).str(); }

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
  api::mem_pool_t pool(int id) {
    std::lock_guard lock(mutex_);
    if (static_cast<std::size_t>(id) >= state_.size())
      state_.resize(static_cast<std::size_t>(id) + 1);
    auto& s = state_[static_cast<std::size_t>(id)];
    if (!s.decided) {
      bool supported = false;
      TACK_IMPL_GPU_CHECK(api::memory_pools_supported(id, &supported),
                          TACK_IMPL_GPU_NAME("DeviceGetAttribute (memory pools supported)"));
      if (supported) {
        // tack's own pool, not the device's default one: its release threshold is raised below,
        // and the default pool serves other libraries in the process (CuPy's or PyTorch's async
        // allocators, cudaMallocAsync callers), whose freed memory should still go back.
        TACK_IMPL_GPU_CHECK(api::mem_pool_create(&s.pool, id), TACK_IMPL_GPU_NAME("MemPoolCreate"));
        TACK_IMPL_GPU_CHECK(
            api::mem_pool_set_release_threshold(s.pool, std::numeric_limits<std::uint64_t>::max()),
            TACK_IMPL_GPU_NAME("MemPoolSetAttribute (release threshold)"));
      }
      s.decided = true;
    }
    return s.pool;
  }
  // The pool if it was configured already (frees must not configure anything).
  api::mem_pool_t known_pool(int id) noexcept {
    std::lock_guard lock(mutex_);
    if (static_cast<std::size_t>(id) >= state_.size()) return nullptr;
    return state_[static_cast<std::size_t>(id)].pool;
  }

private:
  struct state {
    bool decided = false;
    api::mem_pool_t pool = nullptr;
  };
  std::mutex mutex_;
  std::vector<state> state_;
};

// Two pinned buffers, their events and a stream for the staged copies of one device. The stream is
// a blocking one: it waits for the work queued on the default stream, where tack's kernels
// and stream-ordered allocations run.
struct staging_set {
  int device = 0;
  std::size_t chunk = staging_plan::default_chunk_bytes;
  void* buf[2] = {nullptr, nullptr};
  api::event_t done[2] = {nullptr, nullptr};
  api::stream_t stream = nullptr;

  explicit staging_set(int id) : device(id) {
    device_guard g(id);
    try {
      TACK_IMPL_GPU_CHECK(api::stream_create(&stream), TACK_IMPL_GPU_NAME("StreamCreate"));
      for (int k = 0; k < 2; ++k) {
        TACK_IMPL_GPU_CHECK(api::event_create(&done[k]),
                            TACK_IMPL_GPU_NAME("EventCreateWithFlags"));
        const api::error_t e = api::host_alloc(&buf[k], chunk);
        if (e != api::success)
          gpu_impl::throw_alloc_error(e, api::host_alloc_name, chunk, "the host (staging)",
                                      __FILE__, __LINE__);
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
      if (buf[k]) (void)api::host_free(buf[k]);
      if (done[k]) (void)api::event_destroy(done[k]);
      buf[k] = nullptr;
      done[k] = nullptr;
    }
    if (stream) (void)api::stream_destroy(stream);
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

// Host -> device from pageable memory: the host copy of chunk k into a pinned buffer overlaps the
// DMA of chunk k - 1 from the other buffer.
void staged_to_device(void* dst, const void* src, std::size_t bytes, const bc::work_stream& ws) {
  const int id = device_of_pointer(dst);
  device_guard g(id);
  auto set = staging_cache::get().take(id);
  const api::stream_t stream = ws.queued ? ws.handle : set->stream;
  const staging_plan plan{bytes, set->chunk};
  bool used[2] = {false, false};
  for (std::size_t k = 0; k < plan.chunks(); ++k) {
    const auto c = plan.chunk(k);
    if (used[c.slot]) {
      TACK_IMPL_GPU_CHECK(api::event_synchronize(set->done[c.slot]),
                          TACK_IMPL_GPU_NAME("EventSynchronize"));
    }
    host_copy(set->buf[c.slot], static_cast<const char*>(src) + c.offset, c.size);
    TACK_IMPL_GPU_CHECK(api::memcpy_async(static_cast<char*>(dst) + c.offset, set->buf[c.slot],
                                          c.size, api::host_to_device, stream),
                        TACK_IMPL_GPU_NAME("MemcpyAsync (staged host to device)"));
    TACK_IMPL_GPU_CHECK(api::event_record(set->done[c.slot], stream),
                        TACK_IMPL_GPU_NAME("EventRecord"));
    used[c.slot] = true;
  }
  TACK_IMPL_GPU_CHECK(api::stream_synchronize(stream), TACK_IMPL_GPU_NAME("StreamSynchronize"));
  staging_cache::get().give_back(std::move(set));
}

// Device -> pageable host: the DMA of chunk k + 1 overlaps the host copy of chunk k.
void staged_to_host(void* dst, const void* src, std::size_t bytes, const bc::work_stream& ws) {
  const int id = device_of_pointer(src);
  device_guard g(id);
  auto set = staging_cache::get().take(id);
  const api::stream_t stream = ws.queued ? ws.handle : set->stream;
  const staging_plan plan{bytes, set->chunk};
  auto start = [&](std::size_t k) {
    const auto c = plan.chunk(k);
    TACK_IMPL_GPU_CHECK(
        api::memcpy_async(set->buf[c.slot], static_cast<const char*>(src) + c.offset, c.size,
                          api::device_to_host, stream),
        TACK_IMPL_GPU_NAME("MemcpyAsync (staged device to host)"));
    TACK_IMPL_GPU_CHECK(api::event_record(set->done[c.slot], stream),
                        TACK_IMPL_GPU_NAME("EventRecord"));
  };
  const std::size_t chunks = plan.chunks();
  if (chunks > 0) start(0);
  for (std::size_t k = 0; k < chunks; ++k) {
    if (k + 1 < chunks) start(k + 1);  // its buffer's previous chunk (k - 1) was copied out below
    const auto c = plan.chunk(k);
    TACK_IMPL_GPU_CHECK(api::event_synchronize(set->done[c.slot]),
                        TACK_IMPL_GPU_NAME("EventSynchronize"));
    host_copy(static_cast<char*>(dst) + c.offset, set->buf[c.slot], c.size);
  }
  TACK_IMPL_GPU_CHECK(api::stream_synchronize(stream), TACK_IMPL_GPU_NAME("StreamSynchronize"));
  staging_cache::get().give_back(std::move(set));
}

// The work stream of a copy: the thread's current stream of the device its device side is on.
bc::work_stream stream_of_copy(const void* dst, const void* src, gpu_copy_kind kind) {
  if (!any_current_gpu_stream()) return {};
  const void* device_side = kind == gpu_copy_kind::device_to_host ? src : dst;
  if (kind == gpu_copy_kind::any) {
    api::memory_kind m{};
    int id = 0;
    TACK_IMPL_GPU_CHECK(api::pointer_info(dst, &m, &id),
                        TACK_IMPL_GPU_NAME("PointerGetAttributes"));
    if (m != api::memory_kind::device && m != api::memory_kind::managed) device_side = src;
  }
  const std::intptr_t s = current_gpu_stream(device_of_pointer(device_side));
  return s == 0 ? bc::work_stream{} : bc::work_stream{reinterpret_cast<api::stream_t>(s), true};
}

}  // namespace

namespace gpu_impl {
api::stream_t nonblocking_current_stream(int id) noexcept {
  const std::intptr_t native = current_gpu_stream(id);
  if (native == 0) return nullptr;
  const auto s = reinterpret_cast<api::stream_t>(native);
  bool non_blocking = false;
  if (api::stream_is_non_blocking(s, &non_blocking) != api::success) {
    (void)api::get_last_error();
    return s;  // unknown: ordering explicitly is always safe
  }
  return non_blocking ? s : nullptr;
}

void order_after(api::stream_t later, api::stream_t earlier, const char* what) {
  api::event_t e = nullptr;
  TACK_IMPL_GPU_CHECK(
      api::event_create(&e),
      (std::string(what) + ": " TACK_IMPL_GPU_NAME("EventCreateWithFlags")).c_str());
  const api::error_t recorded = api::event_record(e, earlier);
  const api::error_t waited =
      recorded == api::success ? api::stream_wait_event(later, e) : recorded;
  (void)api::event_destroy(e);  // released once the wait is resolved
  TACK_IMPL_GPU_CHECK(
      waited,
      (std::string(what) + ": " TACK_IMPL_GPU_NAME("EventRecord / StreamWaitEvent")).c_str());
}

int device_of_pointer(const void* p) {
  api::memory_kind kind{};
  int id = 0;
  TACK_IMPL_GPU_CHECK(api::pointer_info(p, &kind, &id), TACK_IMPL_GPU_NAME("PointerGetAttributes"));
  return id;
}

void* scratch_alloc(std::size_t bytes, int device_id) {
  return gpu_malloc_device(bytes, device_id);
}
void scratch_free(void* p, int device_id) noexcept { gpu_free_device(p, device_id); }
}  // namespace gpu_impl

int gpu_device_count() noexcept {
  int n = 0;
  if (api::get_device_count(&n) != api::success) {
    (void)api::get_last_error();
    return 0;
  }
  return n;
}

void* gpu_malloc_device(std::size_t bytes, int id) {
  if (bytes == 0) return nullptr;
  device_guard g(id);
  void* p = nullptr;
  if (api::mem_pool_t pool = pools::get().pool(id)) {
    // Stream-ordered on the default stream: tack's kernels and copies run there (or on blocking
    // streams, which order with it), so the block is ready for them. A non-blocking current
    // stream is made to wait for the allocation.
    const api::error_t e = api::malloc_from_pool_async(&p, bytes, pool, api::default_stream);
    if (e != api::success)
      gpu_impl::throw_alloc_error(e, TACK_IMPL_GPU_NAME("MallocFromPoolAsync"), bytes,
                                  device_name(id), __FILE__, __LINE__);
    if (const api::stream_t s = gpu_impl::nonblocking_current_stream(id)) {
      try {
        gpu_impl::order_after(s, api::default_stream, "tack: device allocation");
      } catch (...) {
        (void)api::free_async(p, api::default_stream);
        throw;
      }
    }
    return p;
  }
  const api::error_t e = api::malloc(&p, bytes);  // before reading p: argument order is unspecified
  if (e != api::success)
    gpu_impl::throw_alloc_error(e, TACK_IMPL_GPU_NAME("Malloc"), bytes, device_name(id), __FILE__,
                                __LINE__);
  return p;
}
void* gpu_malloc_unified(std::size_t bytes, int id) {
  if (bytes == 0) return nullptr;
  device_guard g(id);
  void* p = nullptr;
  const api::error_t e = api::malloc_managed(&p, bytes);
  if (e != api::success)
    gpu_impl::throw_alloc_error(e, TACK_IMPL_GPU_NAME("MallocManaged"), bytes, device_name(id),
                                __FILE__, __LINE__);
  return p;
}
void* gpu_malloc_pinned(std::size_t bytes) {
  if (bytes == 0) return nullptr;
  void* p = nullptr;
  const api::error_t e = api::host_alloc(&p, bytes);
  if (e != api::success)
    gpu_impl::throw_alloc_error(e, api::host_alloc_name, bytes, "the host (pinned)", __FILE__,
                                __LINE__);
  return p;
}
void gpu_free_device(void* p, int id) noexcept {
  if (!p) return;
  int previous = 0;
  (void)api::get_device(&previous);
  if (previous != id) (void)api::set_device(id);
  if (pools::get().known_pool(id)) {
    // The block is reused in the default stream's order: a non-blocking current stream's work,
    // which may still read it, is made to come first.
    if (const api::stream_t s = gpu_impl::nonblocking_current_stream(id)) {
      try {
        gpu_impl::order_after(api::default_stream, s, "tack: device free");
      } catch (...) {
        (void)api::stream_synchronize(s);  // no event: wait for the stream instead
      }
    }
    (void)api::free_async(p, api::default_stream);
  } else {
    (void)api::free(p);
  }
  if (previous != id) (void)api::set_device(previous);
  (void)api::get_last_error();  // at exit the runtime may be unloading: nothing to report to
}
void gpu_free_unified(void* p, int) noexcept {
  if (p) (void)api::free_managed(p);
}
void gpu_free_pinned(void* p) noexcept {
  if (p) (void)api::host_free(p);
}

void gpu_set_pool_release_threshold(int id, std::uint64_t bytes) {
  device_guard g(id);
  if (api::mem_pool_t pool = pools::get().pool(id)) {
    TACK_IMPL_GPU_CHECK(api::mem_pool_set_release_threshold(pool, bytes),
                        TACK_IMPL_GPU_NAME("MemPoolSetAttribute (release threshold)"));
  }
}
namespace {
// One attribute of a device's pool (`get`: api::mem_pool_reserved or mem_pool_used); 0 without
// memory pools.
std::size_t pool_attribute(int id, api::error_t (*get)(api::mem_pool_t, std::uint64_t*),
                           const char* what) {
  device_guard g(id);
  std::uint64_t v = 0;
  if (api::mem_pool_t pool = pools::get().pool(id)) TACK_IMPL_GPU_CHECK(get(pool, &v), what);
  return static_cast<std::size_t>(v);
}
}  // namespace
std::size_t gpu_pool_reserved_bytes(int id) {
  return pool_attribute(id, api::mem_pool_reserved,
                        TACK_IMPL_GPU_NAME("MemPoolGetAttribute (reserved memory)"));
}
std::size_t gpu_pool_used_bytes(int id) {
  return pool_attribute(id, api::mem_pool_used,
                        TACK_IMPL_GPU_NAME("MemPoolGetAttribute (used memory)"));
}
void gpu_trim_pool(int id, std::size_t keep_bytes) {
  device_guard g(id);
  if (api::mem_pool_t pool = pools::get().pool(id)) {
    TACK_IMPL_GPU_CHECK(api::device_synchronize(), TACK_IMPL_GPU_NAME("DeviceSynchronize"));
    TACK_IMPL_GPU_CHECK(api::mem_pool_trim_to(pool, keep_bytes),
                        TACK_IMPL_GPU_NAME("MemPoolTrimTo"));
  }
}

bool gpu_host_pageable(const void* p) {
  api::memory_kind kind{};
  int id = 0;
  if (api::pointer_info(p, &kind, &id) != api::success) {
    (void)api::get_last_error();
    return true;
  }
  return kind == api::memory_kind::pageable;
}

void gpu_memcpy(void* dst, const void* src, std::size_t bytes, gpu_copy_kind kind) {
  if (bytes == 0) return;
  const bc::work_stream ws = stream_of_copy(dst, src, kind);
  if (kind == gpu_copy_kind::host_to_device &&
      staging_plan::staged(bytes, gpu_host_pageable(src))) {
    staged_to_device(dst, src, bytes, ws);
    return;
  }
  if (kind == gpu_copy_kind::device_to_host &&
      staging_plan::staged(bytes, gpu_host_pageable(dst))) {
    staged_to_host(dst, src, bytes, ws);
    return;
  }
  if (!ws.queued) {
    TACK_IMPL_GPU_CHECK(api::memcpy(dst, src, bytes, to_api(kind)), TACK_IMPL_GPU_NAME("Memcpy"));
    return;
  }
  // On a tack::stream: in the stream's order; a copy that touches host memory is complete when it
  // returns (the host may read or reuse its side), a device-to-device one is only queued.
  TACK_IMPL_GPU_CHECK(api::memcpy_async(dst, src, bytes, to_api(kind), ws.handle),
                      TACK_IMPL_GPU_NAME("MemcpyAsync"));
  if (kind != gpu_copy_kind::device_to_device) {
    TACK_IMPL_GPU_CHECK(api::stream_synchronize(ws.handle),
                        TACK_IMPL_GPU_NAME("StreamSynchronize"));
  }
}
void gpu_memcpy_async(void* dst, const void* src, std::size_t bytes, gpu_copy_kind kind) {
  if (bytes == 0) return;
  const bc::work_stream ws = stream_of_copy(dst, src, kind);
  TACK_IMPL_GPU_CHECK(api::memcpy_async(dst, src, bytes, to_api(kind), ws.handle),
                      TACK_IMPL_GPU_NAME("MemcpyAsync"));
}
void gpu_memset(void* p, int value, std::size_t bytes) {
  if (bytes == 0) return;
  const bc::work_stream ws = stream_of_copy(p, p, gpu_copy_kind::device_to_device);
  if (!ws.queued) {
    TACK_IMPL_GPU_CHECK(api::memset(p, value, bytes), TACK_IMPL_GPU_NAME("Memset"));
    return;
  }
  TACK_IMPL_GPU_CHECK(api::memset_async(p, value, bytes, ws.handle),
                      TACK_IMPL_GPU_NAME("MemsetAsync"));
}
void gpu_synchronize() {
  TACK_IMPL_GPU_CHECK(api::device_synchronize(), TACK_IMPL_GPU_NAME("DeviceSynchronize"));
}

void gpu_synchronize_device(int id, const char* what) {
  device_guard g(id);
  const api::error_t e = api::device_synchronize();
  if (e != api::success)
    gpu_impl::throw_error(
        e, (std::string(what) + ": " TACK_IMPL_GPU_NAME("DeviceSynchronize")).c_str(), __FILE__,
        __LINE__);
}

std::intptr_t gpu_stream_create(int id) {
  device_guard g(id);
  api::stream_t s = nullptr;
  TACK_IMPL_GPU_CHECK(api::stream_create(&s), "tack::stream: " TACK_IMPL_GPU_NAME("StreamCreate"));
  return reinterpret_cast<std::intptr_t>(s);
}

void gpu_stream_destroy(int id, std::intptr_t stream) noexcept {
  int previous = 0;
  if (api::get_device(&previous) != api::success) return;
  if (previous != id) (void)api::set_device(id);
  (void)api::stream_destroy(reinterpret_cast<api::stream_t>(stream));
  if (previous != id) (void)api::set_device(previous);
}

void gpu_stream_synchronize(int id, std::intptr_t stream, const char* what) {
  device_guard g(id);
  const api::error_t e = api::stream_synchronize(reinterpret_cast<api::stream_t>(stream));
  if (e != api::success)
    gpu_impl::throw_error(
        e, (std::string(what) + ": " TACK_IMPL_GPU_NAME("StreamSynchronize")).c_str(), __FILE__,
        __LINE__);
}

bool gpu_stream_idle(int id, std::intptr_t stream, const char* what) {
  device_guard g(id);
  const api::error_t e = api::stream_query(reinterpret_cast<api::stream_t>(stream));
  if (e == api::success) return true;
  if (e == api::error_not_ready) {
    (void)api::get_last_error();
    return false;
  }
  gpu_impl::throw_error(e, (std::string(what) + ": " TACK_IMPL_GPU_NAME("StreamQuery")).c_str(),
                        __FILE__, __LINE__);
}

void gpu_stream_wait_for_device(int id, std::intptr_t stream) {
  device_guard g(id);
  const api::stream_t consumer = api::dlpack_stream(stream);
  if (consumer == api::default_stream) return;  // tack's work is queued there already
  api::event_t ready = nullptr;
  TACK_IMPL_GPU_CHECK(api::event_create(&ready), TACK_IMPL_GPU_NAME("EventCreateWithFlags"));
  api::error_t e = api::event_record(ready, api::default_stream);
  if (e == api::success) e = api::stream_wait_event(consumer, ready);
  (void)api::event_destroy(ready);  // destroying a recorded event is safe: the wait keeps it
  TACK_IMPL_GPU_CHECK(e, TACK_IMPL_GPU_NAME("StreamWaitEvent (DLPack consumer stream)"));
}

}  // namespace tack::detail
