// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
#include <tack/core/error.hpp>
#include <tack/memory/buffer.hpp>
#include <tack/memory/copy.hpp>

#include <string>

namespace tack {

buffer buffer::allocate(tack::device d, std::size_t bytes) {
  return allocate_with(default_allocator(d), bytes);
}

buffer buffer::allocate_with(allocator_id id, std::size_t bytes) {
  tack::allocator& a = allocator_from_id(id);
  auto state = std::make_shared<detail::buffer_state>();
  bool zeroed = false;
  state->data = a.allocate_reporting_zero(bytes, zeroed);  // throws before anything else exists
  state->capacity = bytes;
  state->device = a.device();
  state->alloc_id = id;
  state->alloc = &a;
  state->host_accessible = tack::host_accessible(a.space());
  state->zeroed = zeroed;
  buffer b;
  b.state_ = std::move(state);
  return b;
}

buffer buffer::borrow(void* data, std::size_t bytes, tack::device d, bool read_only,
                      std::shared_ptr<void> owner, bool host_ok) {
  auto state = std::make_shared<detail::buffer_state>();
  state->data = data;
  state->capacity = bytes;
  state->device = d;
  state->read_only = read_only;
  state->host_accessible = host_ok;
  state->owner = std::move(owner);
  buffer b;
  b.state_ = std::move(state);
  return b;
}

void buffer::reallocate(std::size_t new_bytes, std::size_t keep_bytes) {
  if (!state_) throw value_error("tack::buffer::reallocate: the buffer is null");
  auto& s = *state_;
  if (!s.alloc) {
    throw value_error("tack::buffer::reallocate: the memory on " + s.device.str() +
                      " is borrowed and cannot be reallocated");
  }
  if (keep_bytes > s.capacity || keep_bytes > new_bytes) {
    throw value_error("tack::buffer::reallocate: cannot keep " + std::to_string(keep_bytes) +
                      " bytes of a " + std::to_string(s.capacity) + "-byte buffer in " +
                      std::to_string(new_bytes) + " bytes");
  }
  if (new_bytes > s.capacity) {
    if (void* moved = s.alloc->grow_in_place(s.data, s.capacity, new_bytes)) {
      s.data = moved;
      s.capacity = new_bytes;
      s.zeroed = false;
      return;
    }
  }
  void* fresh = s.alloc->allocate(new_bytes);  // may throw: nothing has changed yet
  try {
    detail::copy_bytes(fresh, s.host_accessible, s.data, s.host_accessible, keep_bytes);
  } catch (...) {
    s.alloc->deallocate(fresh, new_bytes);
    throw;
  }
  s.alloc->deallocate(s.data, s.capacity);
  s.data = fresh;
  s.capacity = new_bytes;
  s.zeroed = false;
}

}  // namespace tack
