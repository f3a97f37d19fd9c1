// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
#include <tack/core/error.hpp>
#include <tack/detail/gpu_runtime.hpp>
#include <tack/memory/device.hpp>

#include <charconv>
#include <cstdlib>
#include <mutex>
#include <optional>

namespace tack {

std::string device::str() const {
  if (is_cpu()) return "cpu";
  return (is_hip() ? "hip:" : "cuda:") + std::to_string(id_);
}

device device::parse(std::string_view text) {
  if (text == "cpu") return cpu();
  for (const device_kind kind : {device_kind::cuda, device_kind::hip}) {
    const std::string_view name = kind == device_kind::cuda ? "cuda" : "hip";
    if (text == name) return device(kind, 0);
    if (text.size() > name.size() && text.starts_with(name) && text[name.size()] == ':') {
      auto digits = text.substr(name.size() + 1);
      int id = -1;
      auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), id);
      if (ec == std::errc{} && end == digits.data() + digits.size() && id >= 0) {
        return device(kind, id);
      }
    }
  }
  throw value_error("tack::device::parse: \"" + std::string(text) +
                    "\" is not a device; expected \"cpu\", \"cuda\", \"cuda:N\", \"hip\" or "
                    "\"hip:N\"");
}

bool is_available(device d) noexcept {
  if (d.is_cpu()) return d.id() == 0;
  // One GPU backend per build: only devices of its kind exist in this process.
  return d.kind() == detail::gpu_device_kind && d.id() >= 0 && d.id() < detail::gpu_device_count();
}

namespace detail {
std::string gpu_unavailable_reason(const device& d) {
  if (d.is_cpu()) return "";
  if (d.kind() == gpu_device_kind) {
    const int n = gpu_device_count();
    return " (" + std::to_string(n) + " " + gpu_backend_name + " device" + (n == 1 ? "" : "s") +
           " found)";
  }
  const bool cuda = d.is_cuda();
  std::string why = std::string(" (tack was built without ") + (cuda ? "CUDA" : "HIP") +
                    "; configure it with " + (cuda ? "TACK_ENABLE_CUDA=ON" : "TACK_ENABLE_HIP=ON") +
                    " on a machine with " + (cuda ? "nvcc" : "hipcc");
  if (gpu_device_kind != device_kind::cpu) {
    why += std::string(", in place of ") + gpu_backend_name + ": a build has one GPU backend";
  }
  return why + ", or run on tack::cpu())";
}
}  // namespace detail

namespace {
std::mutex default_mutex;
std::optional<device> default_dev;

device initial_default_device() {
  const char* env = std::getenv("TACK_DEVICE");
  if (!env || !*env) return cpu();
  device d = device::parse(env);  // a malformed TACK_DEVICE is a value_error, not a silent CPU
  if (!is_available(d)) {
    throw device_error("tack: TACK_DEVICE=" + std::string(env) + " names device " + d.str() +
                       ", which is not available in this process" +
                       detail::gpu_unavailable_reason(d));
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
                       detail::gpu_unavailable_reason(d));
  }
  std::lock_guard lock(default_mutex);
  default_dev = d;
}

}  // namespace tack
