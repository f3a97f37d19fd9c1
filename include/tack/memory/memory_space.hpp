// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
#pragma once
/// @file Memory spaces (Axom's MemorySpace): where an allocation lives and who can touch it.

#include <string_view>

namespace tack {

/// `dynamic`: decided at run time by an allocator id (the default template argument of
/// `tack::array`); `host`: ordinary CPU memory; `device`: GPU memory, not host-accessible;
/// `unified`: managed memory, accessible from both; `pinned`: page-locked host memory.
/// `tack::array<float, 1, tack::memory_space::host> a;`
enum class memory_space { dynamic, host, device, unified, pinned };

/// `"dynamic"`, `"host"`, `"device"`, `"unified"` or `"pinned"`.
constexpr std::string_view to_string(memory_space s) noexcept {
  switch (s) {
    case memory_space::dynamic:
      return "dynamic";
    case memory_space::host:
      return "host";
    case memory_space::device:
      return "device";
    case memory_space::unified:
      return "unified";
    case memory_space::pinned:
      return "pinned";
  }
  return "?";
}

/// Whether host code may read and write memory of space `s` directly.
constexpr bool host_accessible(memory_space s) noexcept {
  return s == memory_space::host || s == memory_space::unified || s == memory_space::pinned;
}

}  // namespace tack
