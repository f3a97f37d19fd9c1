// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
#pragma once
/// @file `tack::buffer`: one allocation (pointer, bytes, device, allocator id, read-only flag,
/// write version, optional external owner), shared by handles.

#include <tack/memory/allocator.hpp>
#include <tack/memory/device.hpp>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>

namespace tack {
namespace detail {

/// The state every handle of one allocation shares.
struct buffer_state {
  void* data = nullptr;
  std::size_t capacity = 0;  ///< bytes
  tack::device device{};
  allocator_id alloc_id = -1;  ///< -1: borrowed memory, released through `owner`
  tack::allocator* alloc =
      nullptr;  ///< cached `allocator_from_id(allocator)`; registry entries live forever
  bool read_only = false;
  bool host_accessible = true;
  bool zeroed = false;  ///< fresh memory known to read as zero bytes
  std::atomic<std::uint64_t> version{0};
  std::shared_ptr<void> owner;  ///< external owner: its deleter runs once, when the state dies

  buffer_state() = default;
  buffer_state(const buffer_state&) = delete;
  buffer_state& operator=(const buffer_state&) = delete;
  ~buffer_state() {
    if (alloc && data) alloc->deallocate(data, capacity);
  }
};

}  // namespace detail

/// One allocation: pointer, bytes, device, allocator id, read-only flag, write version, and an
/// optional external owner. Copies share the allocation; the memory is freed (or the owner released)
/// when the last copy dies. `auto b = tack::buffer::allocate(tack::cpu(), 1024);`
class buffer {
public:
  /// A null buffer (no memory).
  buffer() = default;

  /// Allocates `bytes` bytes on `d` with the device's default allocator (uninitialized).
  static buffer allocate(tack::device d, std::size_t bytes);
  /// Allocates `bytes` bytes with the allocator registered under `id` (uninitialized).
  static buffer allocate_with(allocator_id id, std::size_t bytes);
  /// Wraps memory owned elsewhere. `owner` (may be null) is kept alive by every copy and released
  /// exactly once, after the last copy dies; `host_accessible` says whether host code may touch it.
  static buffer borrow(void* data, std::size_t bytes, tack::device d, bool read_only,
                       std::shared_ptr<void> owner = {}, bool host_accessible = true);

  /// The first byte (null for an empty or null buffer).
  void* data() const noexcept { return state_ ? state_->data : nullptr; }
  /// Bytes allocated (the capacity).
  std::size_t nbytes() const noexcept { return state_ ? state_->capacity : 0; }
  tack::device device() const noexcept { return state_ ? state_->device : tack::device{}; }
  /// The allocator id, or -1 for borrowed memory.
  allocator_id allocator() const noexcept { return state_ ? state_->alloc_id : -1; }
  bool read_only() const noexcept { return state_ && state_->read_only; }
  bool is_borrowed() const noexcept { return state_ && state_->alloc_id < 0; }
  bool host_accessible() const noexcept { return !state_ || state_->host_accessible; }
  /// Whether the memory was fresh zero pages when allocated (no write since is tracked by callers).
  bool zeroed() const noexcept { return state_ && state_->zeroed; }
  /// The write version: bumped by every write through any handle of this allocation.
  std::uint64_t version() const noexcept {
    return state_ ? state_->version.load(std::memory_order_relaxed) : 0;
  }
  /// Marks the memory as written. A relaxed load and store, not a read-modify-write: writers that
  /// race can only lose increments, never leave the version unchanged, and a locked add per host
  /// element write (or per push_back) would cost more than the write itself.
  void bump_version() const noexcept {
    if (state_) {
      state_->version.store(state_->version.load(std::memory_order_relaxed) + 1,
                            std::memory_order_relaxed);
    }
  }
  explicit operator bool() const noexcept { return static_cast<bool>(state_); }
  /// How many handles share this allocation.
  long use_count() const noexcept { return state_.use_count(); }

  /// Replaces the allocation by one of `new_bytes` bytes from the same allocator, moving the first
  /// `keep_bytes` bytes once. Strong guarantee: on failure (`out_of_memory`) nothing changed.
  /// Borrowed memory cannot be reallocated (`value_error`).
  void reallocate(std::size_t new_bytes, std::size_t keep_bytes);

  /// Replaces the allocation by one of `new_bytes` bytes from the same allocator, where the
  /// contents are objects rather than bytes: `relocate(fresh, old)` builds the new block's
  /// contents from the old one and destroys the old objects, or throws having left the old block
  /// as it was and nothing alive in the new one. On a throw the new block is released and nothing
  /// has changed (strong guarantee). Host memory that the buffer allocated only.
  /// `b.reallocate_objects(bytes, [&](void* to, void* from) { ...move, then destroy... });`
  template <class Relocate>
  void reallocate_objects(std::size_t new_bytes, Relocate&& relocate) {
    auto& s = *state_;
    void* fresh = s.alloc->allocate(new_bytes);  // may throw: nothing has changed yet
    try {
      relocate(fresh, s.data);
    } catch (...) {
      s.alloc->deallocate(fresh, new_bytes);
      throw;
    }
    s.alloc->deallocate(s.data, s.capacity);
    s.data = fresh;
    s.capacity = new_bytes;
    s.zeroed = false;
  }

  /// A keep-alive token: holding it keeps the allocation alive.
  std::shared_ptr<void> keep_alive() const noexcept { return state_; }

private:
  std::shared_ptr<detail::buffer_state> state_;
};

}  // namespace tack
