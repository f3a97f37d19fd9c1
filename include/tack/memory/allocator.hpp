// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
#pragma once
/// @file Allocators registered under integer ids (Axom's allocator ids). Every allocation of the
/// library goes through one of these, so a device, a pool or a user's arena plugs in in one place.

#include <tack/memory/device.hpp>
#include <tack/memory/memory_space.hpp>

#include <cstddef>
#include <memory>
#include <string>

namespace tack {

/// The id of a registered allocator. Ids are small non-negative integers, stable for the process.
using allocator_id = int;

/// An allocator: allocates bytes in one memory space, usable by one device's kernels.
/// Implementations must be thread-safe. `struct arena : tack::allocator { ... };`
class allocator {
public:
  virtual ~allocator() = default;
  /// Returns at least `bytes` bytes aligned to 64 bytes; throws `tack::out_of_memory` on failure.
  /// `bytes == 0` may return nullptr.
  virtual void* allocate(std::size_t bytes) = 0;
  /// Returns memory from `allocate(bytes)` with the same `bytes`. Never throws.
  virtual void deallocate(void* p, std::size_t bytes) noexcept = 0;
  /// The memory space of what `allocate` returns.
  virtual memory_space space() const noexcept = 0;
  /// The device whose kernels use this memory (the CPU for host and pinned memory).
  virtual tack::device device() const noexcept = 0;
  /// Grows the block `p` of `old_bytes` to `new_bytes` keeping its contents without copying them
  /// (host memory: the kernel moves the page tables), or returns nullptr when this allocator cannot;
  /// the caller then allocates, copies and deallocates. On success `p` is no longer valid.
  virtual void* grow_in_place(void* /*p*/, std::size_t /*old_bytes*/,
                              std::size_t /*new_bytes*/) noexcept {
    return nullptr;
  }
  /// Whether every block of `bytes` from `allocate` is known to read as zero bytes (fresh pages).
  virtual bool zeroed_on_allocate(std::size_t /*bytes*/) const noexcept { return false; }
  /// `allocate`, also saying whether this block reads as zero bytes (`tack::zeros` then skips its
  /// fill). For allocators that reuse blocks, where the answer depends on the block. Default:
  /// `allocate(bytes)` and `zeroed_on_allocate(bytes)`.
  virtual void* allocate_reporting_zero(std::size_t bytes, bool& zeroed) {
    void* p = allocate(bytes);
    zeroed = zeroed_on_allocate(bytes);
    return p;
  }
  /// A short name for messages (`"host"`, `"cuda:0 device"`, `"hip:0 unified"`, `"pool(host)"`).
  virtual std::string name() const = 0;
};

/// Registers `a` and returns its id. `auto id = tack::register_allocator(std::make_shared<arena>());`
allocator_id register_allocator(std::shared_ptr<allocator> a);

/// The default allocator id of a memory space on a device: `get_allocator(memory_space::host)` for
/// CPU memory, `get_allocator(memory_space::device, tack::cuda(1))` for memory of GPU 1
/// (`tack::hip(1)` in a HIP build). `dynamic` means "the natural space of `d`" (host for the CPU,
/// device for a GPU); device or unified memory asked of the CPU is that of the build's first GPU.
/// An unavailable space (device memory in a build without a GPU backend, HIP memory in a CUDA
/// build) is a `device_error` naming the space and the device.
allocator_id get_allocator(memory_space space, device d = device{});

/// The default allocator id for arrays on `d` (host memory for the CPU, device memory for a GPU).
allocator_id default_allocator(device d);

/// The registered allocator with id `id`; an unknown id is a `value_error`.
allocator& allocator_from_id(allocator_id id);

/// Registers a pooling allocator over `upstream` (freed blocks are kept, by size class, and reused;
/// `release_pool` returns them) and returns its id. `auto pool = tack::make_pool_allocator(dev_id);`
allocator_id make_pool_allocator(allocator_id upstream);

/// Returns the cached blocks of the pool `pool` to its upstream allocator; a non-pool id is a
/// `value_error`.
void release_pool(allocator_id pool);

/// Bytes a pool allocator holds in its cache right now (for tests and diagnostics).
std::size_t pool_cached_bytes(allocator_id pool);

/// Device memory of a GPU (the default allocator of `tack::cuda(id)` or `tack::hip(id)`) comes from
/// the device's stream-ordered memory pool (`cudaMallocAsync`, `hipMallocAsync`): a freed block
/// stays reserved and the next allocation reuses it without a device synchronization, up to the
/// pool's release threshold (default: no limit; `trim_device_pool` returns memory to the driver). A
/// CPU device is a `value_error`, an unavailable GPU a `device_error`.
/// `tack::set_device_pool_release_threshold(tack::cuda(0), std::size_t{1} << 30);`
void set_device_pool_release_threshold(device d, std::size_t bytes);

/// Bytes the pool of GPU `d` holds from the driver: live blocks plus freed ones kept for reuse.
/// `auto held = tack::device_pool_reserved_bytes(tack::cuda(0));`
std::size_t device_pool_reserved_bytes(device d);

/// Bytes of the pool of GPU `d` that live allocations use.
/// `auto live = tack::device_pool_used_bytes(tack::cuda(0));`
std::size_t device_pool_used_bytes(device d);

/// Returns the pool's freed blocks to the driver (after a device synchronization), keeping at
/// least `keep_bytes` reserved. `tack::trim_device_pool(tack::cuda(0));`
void trim_device_pool(device d, std::size_t keep_bytes = 0);

/// The default host allocator keeps freed large blocks (2 MiB and more, whole mappings) for reuse,
/// up to a limit: a fresh block costs a page fault and the kernel's zeroing per page on first
/// touch, which is often more than the work done with it (`b = a.copy()` in a loop). The limit
/// starts as `TACK_HOST_CACHE_BYTES` when set (0 turns the cache off), else an eighth of physical
/// memory, at most 4 GiB. `tack::set_host_cache_limit(0);  // return freed blocks at once`
void set_host_cache_limit(std::size_t bytes);

/// The current limit of the host block cache, in bytes.
std::size_t host_cache_limit();

/// Bytes of freed host blocks the cache holds right now.
std::size_t host_cached_bytes();

/// Returns every cached host block to the operating system (the limit is unchanged).
void release_host_cache();

}  // namespace tack
