// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
// `tack::stream` and `tack::stream_scope` (tack/exec/stream.hpp), and the per-thread table of
// current GPU streams that the GPU backend and src/gpu/*.cpp read (tack/detail/gpu_runtime.hpp).
#include <tack/core/error.hpp>
#include <tack/detail/gpu_runtime.hpp>
#include <tack/exec/stream.hpp>

#include <cstdio>
#include <string>
#include <vector>

namespace tack {
namespace detail {
namespace {
// Entry `id`: the current stream of GPU device `id` on this thread (0: the default stream).
thread_local std::vector<std::intptr_t> current_streams;
}  // namespace

std::intptr_t current_gpu_stream(int device_id) noexcept {
  const auto k = static_cast<std::size_t>(device_id);
  return device_id >= 0 && k < current_streams.size() ? current_streams[k] : 0;
}

bool any_current_gpu_stream() noexcept {
  for (const std::intptr_t s : current_streams) {
    if (s != 0) return true;
  }
  return false;
}

std::intptr_t exchange_current_gpu_stream(int device_id, std::intptr_t s) {
  const auto k = static_cast<std::size_t>(device_id);
  if (k >= current_streams.size()) {
    if (s == 0) return 0;
    current_streams.resize(k + 1, 0);
  }
  const std::intptr_t previous = current_streams[k];
  current_streams[k] = s;
  return previous;
}
}  // namespace detail

struct stream::state {
  tack::device device;
  std::intptr_t native = 0;
  bool owned = false;

  state(tack::device d, std::intptr_t n, bool o) : device(d), native(n), owned(o) {}
  ~state() {
    if (owned && native != 0) detail::gpu_stream_destroy(device.id(), native);
  }
  state(const state&) = delete;
  state& operator=(const state&) = delete;
};

namespace {
void require_available(const device& d, const char* op) {
  if (is_available(d)) return;
  throw device_error(std::string(op) + ": device " + d.str() + " is not available" +
                     detail::gpu_unavailable_reason(d));
}
}  // namespace

stream::stream(const tack::device& d) {
  require_available(d, "tack::stream");
  if (d.is_cpu()) {
    state_ = std::make_shared<const state>(d, 0, false);
    return;
  }
  const std::intptr_t native = detail::gpu_stream_create(d.id());
  try {
    state_ = std::make_shared<const state>(d, native, true);
  } catch (...) {
    detail::gpu_stream_destroy(d.id(), native);
    throw;
  }
}

stream stream::borrow(const tack::device& d, std::intptr_t native) {
  if (d.is_cpu() && native != 0) {
    throw value_error("tack::stream::borrow: native handle " + std::to_string(native) +
                      " on the CPU; CPU streams have no native handle (pass 0)");
  }
  require_available(d, "tack::stream::borrow");
  return stream(std::make_shared<const state>(d, native, false));
}

const tack::device& stream::device() const noexcept { return state_->device; }

std::intptr_t stream::native() const noexcept { return state_->native; }

std::string stream::str() const {
  if (native() == 0) {
    return device().str() + (device().is_cpu()   ? " stream"
                             : device().is_hip() ? " default stream"
                                                 : " legacy default stream");
  }
  char hex[2 + 2 * sizeof(std::intptr_t) + 1];
  std::snprintf(hex, sizeof hex, "%#llx", static_cast<unsigned long long>(native()));
  return device().str() + " stream " + hex;
}

void stream::synchronize() const {
  if (device().is_cpu()) return;
  const std::string what = "tack::stream::synchronize on " + str();
  if (native() == 0) {
    detail::gpu_synchronize_device(device().id(), what.c_str());
    return;
  }
  detail::gpu_stream_synchronize(device().id(), native(), what.c_str());
}

bool stream::idle() const {
  if (device().is_cpu()) return true;
  return detail::gpu_stream_idle(device().id(), native(),
                                 ("tack::stream::idle on " + str()).c_str());
}

stream_scope::stream_scope(const stream& s) : stream_(s) {
  if (s.device().is_gpu()) {
    previous_ = detail::exchange_current_gpu_stream(s.device().id(), s.native());
  }
}

stream_scope::~stream_scope() {
  if (stream_.device().is_gpu()) {
    (void)detail::exchange_current_gpu_stream(stream_.device().id(), previous_);
  }
}

stream current_stream(const tack::device& d) {
  if (d.is_cpu()) return stream::borrow(d, 0);
  return stream::borrow(d, detail::current_gpu_stream(d.id()));
}

}  // namespace tack
