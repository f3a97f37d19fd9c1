// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
#pragma once
/// @file `tack::stream`, an in-order queue of work on one device, and `tack::stream_scope`, which
/// makes a stream the one tack's work on its device goes to on this thread.
///
/// Without a stream every tack operation looks synchronous: GPU work runs on the default stream
/// (the legacy default stream with CUDA, the null stream with HIP, which has the same semantics)
/// and is waited for before the call returns. Work given to a stream (`launch(s, ...)`,
/// `parallel_for(s, ...)`, `copyto(dst, src, s)`, or anything inside a `stream_scope`) is queued
/// on it instead:
/// - kernels and device-to-device copies return at once; `s.synchronize()` (or `tack::fence`)
///   waits for them, and reports a kernel's failure. Host code that reads unified memory the
///   queued work writes must synchronize first (as with CUDA and HIP themselves); copies of
///   device memory to the host order themselves behind it;
/// - copies that read or write host memory, reductions and scans (they hand a value to the host)
///   wait for the stream before they return, and only for that stream;
/// - tack allocates and frees device memory on the default stream, which every stream tack
///   creates waits for and is waited for by: memory is never reused while a stream still uses
///   it, but an allocation or a free between two launches orders the streams behind it (allocate
///   before launching to let streams overlap).
///
/// On the CPU a stream is an empty queue: work runs when it is submitted, and `synchronize` has
/// nothing to wait for. The same code therefore runs on every device.
///
/// The current stream is per thread and per device, as in CuPy and PyTorch: another thread, or
/// work on another device, is not affected by a scope.

#include <tack/memory/device.hpp>

#include <cstdint>
#include <memory>
#include <string>
#include <utility>

namespace tack {

/// An in-order queue of work on one device; copies share the queue (a reference-counted handle).
/// A GPU stream that tack creates is a blocking one: it waits for the work of the default stream,
/// and that stream waits for it.
/// `tack::stream s(tack::cuda(0)); tack::launch(s, n, kernel, a); s.synchronize();`
class stream {
public:
  /// A new stream on `d` (`cudaStreamCreate` on a CUDA device, `hipStreamCreate` on a HIP one); a
  /// GPU device that is not available is a `device_error`. `tack::stream s(tack::cuda());`
  explicit stream(const tack::device& d = default_device());

  /// Wraps an application's CUDA or HIP stream (`reinterpret_cast<std::intptr_t>(cuda_stream)`) on
  /// GPU device `d` without owning it: tack never destroys it, and the application keeps it alive
  /// while tack work is queued on it. `native == 0` names the default stream, where tack works
  /// synchronously. A non-zero handle on the CPU is a `value_error`.
  /// `auto s = tack::stream::borrow(tack::cuda(0), reinterpret_cast<std::intptr_t>(cs));`
  static stream borrow(const tack::device& d, std::intptr_t native);

  /// The device the stream's work runs on. `if (s.device().is_cpu()) ...`
  const tack::device& device() const noexcept;

  /// The `cudaStream_t` / `hipStream_t` as an integer (0 on the CPU and for the default stream).
  /// `cudaStream_t cs = reinterpret_cast<cudaStream_t>(s.native());`
  std::intptr_t native() const noexcept;

  /// Waits for all work queued on the stream. A kernel that failed on the device is a
  /// `device_error` naming the stream, its device and the vendor's message. `s.synchronize();`
  void synchronize() const;

  /// Whether all work queued so far has completed (does not wait). `while (!s.idle()) work();`
  bool idle() const;

  /// Whether two handles name the same queue (`stream::borrow` of the same handle included).
  friend bool operator==(const stream& a, const stream& b) noexcept {
    return a.device() == b.device() && a.native() == b.native();
  }

  /// "cuda:0 stream 0x7f..." or "cpu stream", for messages.
  std::string str() const;

private:
  struct state;
  explicit stream(std::shared_ptr<const state> s) noexcept : state_(std::move(s)) {}
  std::shared_ptr<const state> state_;
};

/// Makes `s` the current stream of its device on this thread until the scope ends, when the
/// previous one is current again (scopes nest). Every tack operation on that device, on this
/// thread, goes to `s` meanwhile. A CPU stream changes nothing.
/// `{ tack::stream_scope on(s); tack::copyto(b, a); tack::launch(a.device(), n, k, b); }`
class stream_scope {
public:
  explicit stream_scope(const stream& s);
  ~stream_scope();
  stream_scope(const stream_scope&) = delete;
  stream_scope& operator=(const stream_scope&) = delete;

private:
  stream stream_;
  std::intptr_t previous_ = 0;
};

/// The stream tack's work on `d` goes to on this thread: the innermost `stream_scope`'s, or the
/// default stream (`native() == 0`). `auto s = tack::current_stream(tack::cuda(0));`
stream current_stream(const tack::device& d);

}  // namespace tack
