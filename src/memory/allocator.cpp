// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
#include <tack/core/error.hpp>
#include <tack/detail/gpu_runtime.hpp>
#include <tack/memory/allocator.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <mutex>
#include <new>
#include <string>
#include <vector>

#include <sys/mman.h>
#include <unistd.h>

namespace tack {
namespace {

std::string bytes_text(std::size_t bytes) { return std::to_string(bytes) + " bytes"; }

// Freed large host blocks (whole 2 MiB-aligned mappings) kept for reuse, oldest evicted first once
// their total passes the limit. Why: a fresh mapping costs a page fault and the kernel's zeroing
// per page on first touch (several times the copy that then fills it: docs/performance.md), and
// a program that makes arrays in a loop (`b = a.copy()`, temporaries of a time step) pays it
// every iteration. glibc's malloc keeps no block above 32 MiB; this does what its dynamic mmap
// threshold does for smaller ones.
class host_block_cache {
public:
  host_block_cache() : limit_(initial_limit()) {}
  ~host_block_cache() { release(); }

  // A cached block of at least `size` bytes, trimmed to `size` (the smallest that fits), or null.
  void* take(std::size_t size) noexcept {
    std::lock_guard lock(mutex_);
    std::size_t best = blocks_.size();
    for (std::size_t k = 0; k < blocks_.size(); ++k) {
      if (blocks_[k].size >= size &&
          (best == blocks_.size() || blocks_[k].size < blocks_[best].size)) {
        best = k;
      }
    }
    if (best == blocks_.size()) return nullptr;
    const block b = blocks_[best];
    blocks_.erase(blocks_.begin() + static_cast<std::ptrdiff_t>(best));
    bytes_ -= b.size;
    if (b.size > size) munmap(static_cast<char*>(b.p) + size, b.size - size);
    return b.p;
  }

  // Keeps `p` (a mapping of `size` bytes) unless it alone passes the limit; then evicts the oldest
  // blocks until the total is within the limit. Returns false when the caller must unmap `p`.
  bool put(void* p, std::size_t size) noexcept {
    std::lock_guard lock(mutex_);
    if (size > limit_) return false;
    try {
      blocks_.push_back({p, size});
    } catch (...) {
      return false;
    }
    bytes_ += size;
    trim_locked();
    return true;
  }

  void release() noexcept {
    std::lock_guard lock(mutex_);
    for (const block& b : blocks_) munmap(b.p, b.size);
    blocks_.clear();
    bytes_ = 0;
  }
  void set_limit(std::size_t bytes) noexcept {
    std::lock_guard lock(mutex_);
    limit_ = bytes;
    trim_locked();
  }
  std::size_t limit() const noexcept {
    std::lock_guard lock(mutex_);
    return limit_;
  }
  std::size_t bytes() const noexcept {
    std::lock_guard lock(mutex_);
    return bytes_;
  }

private:
  struct block {
    void* p;
    std::size_t size;
  };

  void trim_locked() noexcept {
    std::size_t evicted = 0;
    while (bytes_ > limit_ && evicted < blocks_.size()) {
      munmap(blocks_[evicted].p, blocks_[evicted].size);
      bytes_ -= blocks_[evicted].size;
      ++evicted;
    }
    blocks_.erase(blocks_.begin(), blocks_.begin() + static_cast<std::ptrdiff_t>(evicted));
  }

  static std::size_t initial_limit() noexcept {
    if (const char* env = std::getenv("TACK_HOST_CACHE_BYTES")) {
      char* end = nullptr;
      const unsigned long long v = std::strtoull(env, &end, 10);
      if (end != env && *end == '\0') return static_cast<std::size_t>(v);
    }
    const long pages = sysconf(_SC_PHYS_PAGES);
    const long page = sysconf(_SC_PAGESIZE);
    const std::size_t eighth =
        pages > 0 && page > 0 ? static_cast<std::size_t>(pages) * static_cast<std::size_t>(page) / 8
                              : 0;
    return std::min<std::size_t>(eighth, std::size_t{4} << 30);
  }

  mutable std::mutex mutex_;
  std::vector<block> blocks_;  // oldest first
  std::size_t bytes_ = 0;
  std::size_t limit_;
};

// Host memory. Large blocks are whole mmap mappings, 2 MiB-aligned and advised onto transparent
// huge pages (first touch then costs less than with 4 KiB pages: docs/decisions.md), reused
// through `host_block_cache`; a fresh mapping reads as zero, which lets
// `zeros` skip its fill. Small blocks come from malloc, aligned by an offset (malloc keeps those
// itself).
class host_allocator final : public allocator {
public:
  static constexpr std::size_t huge_page = std::size_t{2} << 20;
  static constexpr std::size_t alignment = 64;

  void* allocate(std::size_t bytes) override {
    bool zeroed = false;
    return allocate_reporting_zero(bytes, zeroed);
  }

  void* allocate_reporting_zero(std::size_t bytes, bool& zeroed) override {
    zeroed = false;
    if (bytes == 0) return nullptr;
    if (bytes < huge_page) {
      // malloc plus an aligning offset, the original pointer kept just below the block: glibc's
      // aligned_alloc goes through _int_memalign, several times the instructions of malloc.
      void* raw = std::malloc(round_up(bytes, alignment) + alignment);
      if (!raw) throw out_of_memory("tack: host allocation of " + bytes_text(bytes) + " failed");
      // malloc aligns to 16, so the aligned block starts 16 to 64 bytes in: room for the pointer.
      const auto aligned = (reinterpret_cast<std::uintptr_t>(raw) + alignment) & ~(alignment - 1);
      reinterpret_cast<void**>(aligned)[-1] = raw;
      return reinterpret_cast<void*>(aligned);
    }
    const std::size_t size = round_up(bytes, huge_page);
    if (void* p = cache_.take(size)) return p;
    void* p = map_fresh(size);
    if (!p) {
      cache_.release();  // the memory the cache holds may be what is missing
      p = map_fresh(size);
    }
    if (!p) throw out_of_memory("tack: host allocation of " + bytes_text(bytes) + " failed (mmap)");
    zeroed = true;
    return p;
  }

  void deallocate(void* p, std::size_t bytes) noexcept override {
    if (!p) return;
    if (bytes < huge_page) {
      std::free(static_cast<void**>(p)[-1]);
    } else if (!cache_.put(p, round_up(bytes, huge_page))) {
      munmap(p, round_up(bytes, huge_page));
    }
  }

  // Large blocks are whole mappings: mremap moves their page tables into a larger 2 MiB-aligned
  // reservation, so growth neither copies the old values nor touches fresh pages for them.
  void* grow_in_place(void* p, std::size_t old_bytes, std::size_t new_bytes) noexcept override {
#ifdef MREMAP_FIXED
    if (!p || old_bytes < huge_page || new_bytes <= old_bytes) return nullptr;
    const std::size_t old_size = round_up(old_bytes, huge_page);
    const std::size_t size = round_up(new_bytes, huge_page);
    void* raw = mmap(nullptr, size + huge_page, PROT_NONE,
                     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (raw == MAP_FAILED) return nullptr;
    const auto base = reinterpret_cast<std::uintptr_t>(raw);
    const auto aligned = round_up(base, huge_page);
    if (aligned > base) munmap(raw, aligned - base);
    if (base + huge_page > aligned)
      munmap(reinterpret_cast<void*>(aligned + size), base + huge_page - aligned);
    void* moved =
        mremap(p, old_size, size, MREMAP_MAYMOVE | MREMAP_FIXED, reinterpret_cast<void*>(aligned));
    if (moved == MAP_FAILED) {
      munmap(reinterpret_cast<void*>(aligned), size);
      return nullptr;
    }
#ifdef MADV_HUGEPAGE
    madvise(moved, size, MADV_HUGEPAGE);
#endif
    return moved;
#else
    (void)p;
    (void)old_bytes;
    (void)new_bytes;
    return nullptr;
#endif
  }

  memory_space space() const noexcept override { return memory_space::host; }
  tack::device device() const noexcept override { return cpu(); }
  std::string name() const override { return "host"; }

  host_block_cache& cache() noexcept { return cache_; }

private:
  static std::size_t round_up(std::size_t v, std::size_t a) { return (v + a - 1) / a * a; }

  // A fresh mapping of `size` bytes (a multiple of 2 MiB) on a 2 MiB boundary, or null.
  static void* map_fresh(std::size_t size) noexcept {
    // Over-map by one huge page so the block can start on a 2 MiB boundary, then trim.
    void* raw =
        mmap(nullptr, size + huge_page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (raw == MAP_FAILED) return nullptr;
    auto base = reinterpret_cast<std::uintptr_t>(raw);
    auto aligned = round_up(base, huge_page);
    if (aligned > base) munmap(raw, aligned - base);
    const std::uintptr_t tail = aligned + size;
    const std::uintptr_t end = base + size + huge_page;
    if (end > tail) munmap(reinterpret_cast<void*>(tail), end - tail);
#ifdef MADV_HUGEPAGE
    madvise(reinterpret_cast<void*>(aligned), size, MADV_HUGEPAGE);
#endif
    return reinterpret_cast<void*>(aligned);
  }

  host_block_cache cache_;
};

// Memory of the build's GPU backend (CUDA or HIP): device memory from the device's stream-ordered
// pool, managed memory, pinned host memory.
class gpu_allocator final : public allocator {
public:
  gpu_allocator(memory_space s, int id) : space_(s), id_(id) {}
  void* allocate(std::size_t bytes) override {
    if (bytes == 0) return nullptr;
    switch (space_) {
      case memory_space::device:
        return detail::gpu_malloc_device(bytes, id_);
      case memory_space::unified:
        return detail::gpu_malloc_unified(bytes, id_);
      default:
        return detail::gpu_malloc_pinned(bytes);
    }
  }
  void deallocate(void* p, std::size_t) noexcept override {
    if (!p) return;
    switch (space_) {
      case memory_space::device:
        detail::gpu_free_device(p, id_);
        break;
      case memory_space::unified:
        detail::gpu_free_unified(p, id_);
        break;
      default:
        detail::gpu_free_pinned(p);
        break;
    }
  }
  memory_space space() const noexcept override { return space_; }
  tack::device device() const noexcept override {
    return space_ == memory_space::pinned ? cpu() : device_of(id_);
  }
  std::string name() const override {
    return space_ == memory_space::pinned
               ? std::string("pinned")
               : device_of(id_).str() + " " + std::string(to_string(space_));
  }

private:
  static tack::device device_of(int id) { return tack::device(detail::gpu_device_kind, id); }
  memory_space space_;
  int id_;
};

// A pool over another allocator: blocks are rounded up to a size class (powers of two from 256 B)
// and freed blocks wait in a per-class list for reuse, as device pools do to avoid cudaMalloc's cost.
class pool_allocator final : public allocator {
public:
  explicit pool_allocator(allocator& upstream) : upstream_(upstream) {}
  ~pool_allocator() override { release(); }

  void* allocate(std::size_t bytes) override {
    if (bytes == 0) return nullptr;
    const std::size_t cls = size_class(bytes);
    {
      std::lock_guard lock(mutex_);
      auto& list = free_[cls];
      if (!list.empty()) {
        void* p = list.back();
        list.pop_back();
        cached_ -= cls;
        return p;
      }
    }
    return upstream_.allocate(cls);
  }
  void deallocate(void* p, std::size_t bytes) noexcept override {
    if (!p) return;
    const std::size_t cls = size_class(bytes);
    std::lock_guard lock(mutex_);
    try {
      free_[cls].push_back(p);
      cached_ += cls;
    } catch (...) {
      upstream_.deallocate(p, cls);  // no room to remember it: give it back
    }
  }
  void release() noexcept {
    std::lock_guard lock(mutex_);
    for (auto& [cls, list] : free_) {
      for (void* p : list) upstream_.deallocate(p, cls);
      list.clear();
    }
    cached_ = 0;
  }
  std::size_t cached() const {
    std::lock_guard lock(mutex_);
    return cached_;
  }
  memory_space space() const noexcept override { return upstream_.space(); }
  tack::device device() const noexcept override { return upstream_.device(); }
  std::string name() const override { return "pool(" + upstream_.name() + ")"; }

private:
  static std::size_t size_class(std::size_t bytes) {
    std::size_t c = 256;
    while (c < bytes) c <<= 1;
    return c;
  }
  allocator& upstream_;
  mutable std::mutex mutex_;
  std::map<std::size_t, std::vector<void*>> free_;
  std::size_t cached_ = 0;
};

struct registry {
  std::mutex mutex;
  std::vector<std::shared_ptr<allocator>> allocators;
  std::map<std::pair<int, int>, allocator_id> defaults;  // (space, GPU ordinal) -> id

  registry() {
    allocators.push_back(std::make_shared<host_allocator>());
    defaults[{static_cast<int>(memory_space::host), 0}] = 0;
  }
  static registry& get() {
    static registry r;  // a function-local static: safe to use during other statics' init
    return r;
  }
};

}  // namespace

allocator_id register_allocator(std::shared_ptr<allocator> a) {
  if (!a) throw value_error("tack::register_allocator: the allocator is null");
  auto& r = registry::get();
  std::lock_guard lock(r.mutex);
  r.allocators.push_back(std::move(a));
  return static_cast<allocator_id>(r.allocators.size() - 1);
}

allocator& allocator_from_id(allocator_id id) {
  auto& r = registry::get();
  std::lock_guard lock(r.mutex);
  if (id < 0 || static_cast<std::size_t>(id) >= r.allocators.size()) {
    throw value_error("tack::allocator_from_id: no allocator is registered under id " +
                      std::to_string(id) + " (" + std::to_string(r.allocators.size()) +
                      " are registered)");
  }
  return *r.allocators[static_cast<std::size_t>(id)];
}

allocator_id get_allocator(memory_space space, device d) {
  if (space == memory_space::dynamic)
    space = d.is_cpu() ? memory_space::host : memory_space::device;
  if (space == memory_space::host) return 0;
  // Device memory "on the CPU" means the first GPU of the build's GPU backend, as Axom's Device
  // space does; pinned memory belongs to no device but needs the GPU runtime all the same. (A
  // build without a GPU backend names cuda:0 in its message.)
  const device gpu = d.is_gpu() ? d : detail::first_gpu();
  if (!is_available(gpu)) {
    throw device_error("tack::get_allocator: " + std::string(to_string(space)) + " memory on " +
                       gpu.str() + " is not available" + detail::gpu_unavailable_reason(gpu));
  }
  const int ordinal = space == memory_space::pinned ? 0 : gpu.id();
  auto& r = registry::get();
  std::lock_guard lock(r.mutex);
  auto key = std::pair{static_cast<int>(space), ordinal};
  if (auto it = r.defaults.find(key); it != r.defaults.end()) return it->second;
  r.allocators.push_back(std::make_shared<gpu_allocator>(space, ordinal));
  auto id = static_cast<allocator_id>(r.allocators.size() - 1);
  r.defaults[key] = id;
  return id;
}

allocator_id default_allocator(device d) { return get_allocator(memory_space::dynamic, d); }

allocator_id make_pool_allocator(allocator_id upstream) {
  allocator& up = allocator_from_id(upstream);
  return register_allocator(std::make_shared<pool_allocator>(up));
}

namespace {
pool_allocator& as_pool(allocator_id id, const char* op) {
  auto* p = dynamic_cast<pool_allocator*>(&allocator_from_id(id));
  if (!p) {
    throw value_error(std::string("tack::") + op + ": allocator " + std::to_string(id) + " (" +
                      allocator_from_id(id).name() + ") is not a pool allocator");
  }
  return *p;
}
}  // namespace

void release_pool(allocator_id pool) { as_pool(pool, "release_pool").release(); }

namespace {
host_block_cache& host_cache() {
  // The registry's allocator 0 is always the host allocator.
  return static_cast<host_allocator&>(allocator_from_id(0)).cache();
}
}  // namespace

void set_host_cache_limit(std::size_t bytes) { host_cache().set_limit(bytes); }
std::size_t host_cache_limit() { return host_cache().limit(); }
std::size_t host_cached_bytes() { return host_cache().bytes(); }
void release_host_cache() { host_cache().release(); }
std::size_t pool_cached_bytes(allocator_id pool) {
  return as_pool(pool, "pool_cached_bytes").cached();
}

namespace {
// The GPU ordinal of a device whose pool an operation names.
int pool_device(device d, const char* op) {
  if (!d.is_gpu()) {
    throw value_error(std::string("tack::") + op + ": " + d.str() +
                      " has no device memory pool; name a GPU (tack::cuda(id) or tack::hip(id))");
  }
  if (!is_available(d)) {
    throw device_error(std::string("tack::") + op + ": " + d.str() + " is not available" +
                       detail::gpu_unavailable_reason(d));
  }
  return d.id();
}
}  // namespace

void set_device_pool_release_threshold(device d, std::size_t bytes) {
  detail::gpu_set_pool_release_threshold(pool_device(d, "set_device_pool_release_threshold"),
                                         bytes);
}
std::size_t device_pool_reserved_bytes(device d) {
  return detail::gpu_pool_reserved_bytes(pool_device(d, "device_pool_reserved_bytes"));
}
std::size_t device_pool_used_bytes(device d) {
  return detail::gpu_pool_used_bytes(pool_device(d, "device_pool_used_bytes"));
}
void trim_device_pool(device d, std::size_t keep_bytes) {
  detail::gpu_trim_pool(pool_device(d, "trim_device_pool"), keep_bytes);
}

}  // namespace tack
