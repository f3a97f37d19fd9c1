// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
#pragma once
/// @file `tack::device`: where memory lives and kernels run.

#include <tack/core/macros.hpp>

#include <compare>
#include <cstdint>
#include <string>
#include <string_view>

namespace tack {

/// The kinds of device tack knows: the CPU, an NVIDIA GPU (CUDA), an AMD GPU (HIP).
/// `if (d.kind() == tack::device_kind::hip) ...`
enum class device_kind : std::uint8_t { cpu = 0, cuda = 1, hip = 2 };

/// A device: a kind and an ordinal. Cheap to copy, comparable, printable.
/// `tack::device d = tack::cuda(0); d.str() == "cuda:0";`
class device {
public:
  /// The CPU.
  constexpr device() noexcept = default;
  constexpr device(device_kind kind, int id = 0) noexcept : kind_(kind), id_(id) {}

  constexpr device_kind kind() const noexcept { return kind_; }
  /// The ordinal (0 for the CPU).
  constexpr int id() const noexcept { return id_; }
  constexpr bool is_cpu() const noexcept { return kind_ == device_kind::cpu; }
  constexpr bool is_cuda() const noexcept { return kind_ == device_kind::cuda; }
  /// Whether this is a HIP device (an AMD GPU). `if (d.is_hip()) ...`
  constexpr bool is_hip() const noexcept { return kind_ == device_kind::hip; }
  /// Whether this is a GPU of any kind (CUDA or HIP): memory the host may not touch, kernels that
  /// run on the GPU backend of the build. `if (d.is_gpu()) ...`
  constexpr bool is_gpu() const noexcept { return is_cuda() || is_hip(); }

  /// `"cpu"`, `"cuda:N"` or `"hip:N"`.
  std::string str() const;

  /// Parses `"cpu"`, `"cuda"` / `"hip"` (ordinal 0), `"cuda:N"` or `"hip:N"`; anything else is a
  /// `value_error`. `auto d = tack::device::parse("hip:1");`
  static device parse(std::string_view text);

  friend constexpr bool operator==(const device&, const device&) noexcept = default;
  friend constexpr auto operator<=>(const device&, const device&) noexcept = default;

private:
  device_kind kind_ = device_kind::cpu;
  int id_ = 0;
};

/// The CPU device. `auto a = tack::zeros<float>({10}, {.device = tack::cpu()});`
constexpr device cpu() noexcept { return device{}; }
/// CUDA device `id`. `auto a = tack::zeros<float>({10}, {.device = tack::cuda()});`
constexpr device cuda(int id = 0) noexcept { return device{device_kind::cuda, id}; }
/// HIP device `id` (an AMD GPU). `auto a = tack::zeros<float>({10}, {.device = tack::hip()});`
constexpr device hip(int id = 0) noexcept { return device{device_kind::hip, id}; }

/// The device used when an operation is not told one. Starts as the CPU, or as the device named by
/// the environment variable `TACK_DEVICE` (`TACK_DEVICE=cuda:0`, `TACK_DEVICE=hip:0`).
device default_device();
/// Sets the default device for the whole process. `tack::set_default_device(tack::cuda());`
/// A device that is not available is a `device_error`.
void set_default_device(device d);
/// Whether `d` exists in this process: the CPU always; a CUDA (HIP) device when tack was built with
/// CUDA (HIP) and the driver reports it. A build has one GPU backend, so `tack::hip(0)` is never
/// available in a CUDA build. `if (tack::is_available(tack::hip())) ...`
bool is_available(device d) noexcept;

}  // namespace tack
