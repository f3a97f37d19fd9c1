// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
#pragma once
/// @file A shared pointer without weak references or a type-erased deleter (not public): what the
/// handles of an array and its views hold to share the root's state.
///
/// Why not `std::shared_ptr`: a row view is a handle copy, and its cost is the reference count's.
/// libstdc++'s copy and release are an atomic increment, then on release a load of both counts
/// (use and weak, for its last-reference shortcut), a test of `__libc_single_threaded` and an
/// atomic exchange-add. One count in the object's own block, `lock inc` / `lock dec` and nothing
/// else, is cheaper (figures in docs/performance.md).
/// Handles never need weak references, aliasing or custom deleters (an exported allocation's
/// keep-alive token is the buffer's own `std::shared_ptr`, not the handle's state).

#include <atomic>
#include <cstdint>
#include <cstddef>
#include <type_traits>
#include <utility>

namespace tack::detail {

/// The object and its reference count in one allocation.
template <class T>
struct counted_node {
  template <class... Args>
  explicit counted_node(Args&&... args) : value(std::forward<Args>(args)...) {}
  std::atomic<std::uint32_t> count{1};
  T value;
};

/// Shares ownership of one `T` like `std::shared_ptr<T>` (copy, move, `->`, `*`, `get`, `bool`,
/// `==`), without weak references. `T` may be const: `counted_ptr<const X>` is made from a
/// `counted_ptr<X>` and shares its count.
/// `auto p = tack::detail::make_counted<int>(3); auto q = p; // *q == 3, use_count() == 2`
template <class T>
class counted_ptr {
  using node = counted_node<std::remove_const_t<T>>;
  template <class U>
  friend class counted_ptr;
  template <class U, class... Args>
  friend counted_ptr<U> make_counted(Args&&... args);

public:
  using element_type = T;

  constexpr counted_ptr() noexcept = default;
  constexpr counted_ptr(std::nullptr_t) noexcept {}
  counted_ptr(const counted_ptr& o) noexcept : n_(o.n_) { retain(); }
  counted_ptr(counted_ptr&& o) noexcept : n_(std::exchange(o.n_, nullptr)) {}
  /// From the non-const pointer to the same object (adds const).
  template <class U>
  requires(std::is_const_v<T>&& std::is_same_v<U, std::remove_const_t<T>>)
      counted_ptr(const counted_ptr<U>& o)
  noexcept : n_(o.n_) { retain(); }
  template <class U>
  requires(std::is_const_v<T>&& std::is_same_v<U, std::remove_const_t<T>>)
      counted_ptr(counted_ptr<U>&& o)
  noexcept : n_(std::exchange(o.n_, nullptr)) {}

  counted_ptr& operator=(const counted_ptr& o) noexcept {
    // The old pointer is read before the atomic increment (a load after a locked instruction
    // waits for it; a row view assigns into a fresh handle, whose old pointer is null). Retain
    // before release: self-assignment keeps the object.
    node* const old = n_;
    n_ = o.n_;
    retain();
    release(old);
    return *this;
  }
  counted_ptr& operator=(counted_ptr&& o) noexcept {
    counted_ptr(std::move(o)).swap(*this);
    return *this;
  }
  ~counted_ptr() { release(); }

  void reset() noexcept { counted_ptr().swap(*this); }
  void swap(counted_ptr& o) noexcept { std::swap(n_, o.n_); }

  T* get() const noexcept { return n_ ? &n_->value : nullptr; }
  T& operator*() const noexcept { return n_->value; }
  T* operator->() const noexcept { return &n_->value; }
  explicit operator bool() const noexcept { return n_ != nullptr; }
  /// Handles sharing the object now (a snapshot, as `std::shared_ptr::use_count`).
  long use_count() const noexcept {
    return n_ ? static_cast<long>(n_->count.load(std::memory_order_relaxed)) : 0;
  }

  friend bool operator==(const counted_ptr& a, const counted_ptr& b) noexcept {
    return a.n_ == b.n_;
  }
  friend bool operator==(const counted_ptr& a, std::nullptr_t) noexcept { return a.n_ == nullptr; }

private:
  void retain() const noexcept {
    // Relaxed: a new reference is made from an existing one, which already orders the object.
    if (n_) n_->count.fetch_add(1, std::memory_order_relaxed);
  }
  void release() noexcept { release(n_); }
  static void release(node* n) noexcept {
    // acq_rel: the last owner's destruction must see every other owner's writes to the object.
    if (n && n->count.fetch_sub(1, std::memory_order_acq_rel) == 1) delete n;
  }

  node* n_ = nullptr;
};

/// Makes a `T` shared by a `counted_ptr`, in one allocation. `auto p = make_counted<storage>();`
template <class T, class... Args>
counted_ptr<T> make_counted(Args&&... args) {
  counted_ptr<T> p;
  p.n_ = new counted_node<T>(std::forward<Args>(args)...);
  return p;
}

}  // namespace tack::detail
