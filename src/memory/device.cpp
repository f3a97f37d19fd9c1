// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
#include <tack/core/error.hpp>
#include <tack/detail/cuda_runtime.hpp>
#include <tack/memory/device.hpp>

#include <charconv>
#include <cstdlib>
#include <mutex>
#include <optional>

namespace tack {

std::string device::str() const {
  if (is_cpu()) return "cpu";
  return "cuda:" + std::to_string(id_);
}

device device::parse(std::string_view text) {
  if (text == "cpu") return cpu();
  if (text == "cuda") return cuda(0);
  if (text.starts_with("cuda:")) {
    auto digits = text.substr(5);
    int id = -1;
    auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), id);
    if (ec == std::errc{} && end == digits.data() + digits.size() && !digits.empty() && id >= 0) {
      return cuda(id);
    }
  }
  throw value_error("tack::device::parse: \"" + std::string(text) +
                    "\" is not a device; expected \"cpu\", \"cuda\" or \"cuda:N\"");
}

bool is_available(device d) noexcept {
  if (d.is_cpu()) return d.id() == 0;
  return d.id() >= 0 && d.id() < detail::cuda_device_count();
}

namespace {
std::mutex default_mutex;
std::optional<device> default_dev;

device initial_default_device() {
  const char* env = std::getenv("TACK_DEVICE");
  if (!env || !*env) return cpu();
  device d = device::parse(env);  // a malformed TACK_DEVICE is a value_error, not a silent CPU
  if (!is_available(d)) {
    throw device_error("tack: TACK_DEVICE=" + std::string(env) + " names device " + d.str() +
                       ", which is not available in this process");
  }
  return d;
}
}  // namespace

device default_device() {
  std::lock_guard lock(default_mutex);
  if (!default_dev) default_dev = initial_default_device();
  return *default_dev;
}

void set_default_device(device d) {
  if (!is_available(d)) {
    throw device_error("tack::set_default_device: device " + d.str() + " is not available" +
                       (d.is_cuda() && !TACK_HAS_CUDA ? " (tack was built without CUDA)" : ""));
  }
  std::lock_guard lock(default_mutex);
  default_dev = d;
}

}  // namespace tack
