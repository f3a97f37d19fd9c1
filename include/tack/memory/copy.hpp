// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
#pragma once
/// @file The one device-aware byte copy every other copy goes through, the component-wise copy
/// (layouts and scalar types) for device memory, and the chunk arithmetic of staged host <->
/// device copies.

#include <tack/types/scalar.hpp>

#include <cstddef>
#include <cstdint>

namespace tack::detail {

/// Copies `bytes` bytes from `src` to `dst`; `*_host` says whether each side is host-accessible.
/// Host to host uses `host_copy` (streaming stores and threads for large blocks); anything that
/// touches device memory goes through the GPU runtime of the build (CUDA or HIP; a `device_error`
/// in a build without one):
/// device to device on the device, host <-> device through pinned staging buffers in chunks when
/// the host memory is pageable and the copy is large (`staging_plan`).
/// Overlapping ranges give `memmove`'s result (host: `memmove`; device: through a device copy).
/// `tack::detail::copy_bytes(dst, true, src, true, n);`
void copy_bytes(void* dst, bool dst_host, const void* src, bool src_host, std::size_t bytes);

/// Like `copy_bytes` within one allocation, where the ranges may overlap (insert/erase shifts).
void move_bytes(void* dst, const void* src, std::size_t bytes, bool host);

/// Host copy of non-overlapping ranges, as fast as the machine allows: below the last-level cache
/// size a plain `memcpy`; above it, non-temporal stores split over the OpenMP threads.
void host_copy(void* dst, const void* src, std::size_t bytes) noexcept;

/// Fills `count` elements of `size` bytes at `dst` (host memory) with the pattern at `value`,
/// with streaming stores for large fills (`size` in 1, 2, 4, 8, 16, 32, 64 or any other).
void host_fill(void* dst, const void* value, std::size_t size, std::size_t count) noexcept;

/// Fills device memory on the device: a memset when the pattern is one repeated byte (zeros),
/// else a kernel storing the pattern in the widest words the alignment allows. No host pass.
void device_fill(void* dst, const void* value, std::size_t size, std::size_t count);

/// One side of a component-wise copy: `components` scalars of kind `kind` per element; scalar `c`
/// of element `i` is at `base[c] + i * stride` bytes. An AoS array of `vec3f` has `base[c] =
/// first + 4 c` and `stride = 12`; a SoA one `base[c]` = component `c`'s first element and
/// `stride = 4`. `host` says whether host code may touch the memory; `device_id` is the GPU
/// ordinal of device memory (of the build's GPU backend; ignored for host memory).
/// `tack::detail::component_span s{bases, 3, 12, tack::scalar_kind::f32, false, 0};`
struct component_span {
  const std::uintptr_t* base = nullptr;
  int components = 1;
  std::ptrdiff_t stride = 0;
  scalar_kind kind = scalar_kind::f32;
  bool host = true;
  int device_id = 0;
};

/// Copies `n` elements component by component from `src` to `dst`, converting each scalar as
/// `astype` does (`convert_scalar`: floating point to integer saturates, NaN gives 0). For copies
/// that touch device memory (at least one side not host-accessible): one kernel on the device;
/// a host side is first uploaded (source) or downloaded afterwards (destination) as contiguous
/// byte ranges through `copy_bytes`. The two sides must not overlap. Both sides in host memory is
/// a `value_error`: host copies stay in the element loops of the array templates.
/// `tack::detail::copy_components(dst, src, n);  // AoS <-> SoA, f64 -> f32 ... on the GPU`
void copy_components(const component_span& dst, const component_span& src, std::size_t n);

/// How `copy_bytes` moves a host <-> device copy whose host side is pageable memory: through two
/// pinned buffers of `chunk_bytes`, the host copy of chunk k + 1 overlapping the DMA of chunk k.
/// Copies below `min_bytes` go directly (the driver stages small copies as fast).
/// `for (std::size_t k = 0; k < plan.chunks(); ++k) { auto c = plan.chunk(k); ... }`
struct staging_plan {
  static constexpr std::size_t default_chunk_bytes = std::size_t{8} << 20;
  static constexpr std::size_t min_bytes = std::size_t{4} << 20;

  std::size_t bytes = 0;
  std::size_t chunk_bytes = default_chunk_bytes;

  /// One chunk: `[offset, offset + size)` of the copy, staged in buffer `slot` (0 or 1).
  struct piece {
    std::size_t offset = 0;
    std::size_t size = 0;
    int slot = 0;
  };

  /// Whether a copy of `bytes` whose host side is pageable goes through the staging buffers.
  static constexpr bool staged(std::size_t bytes, bool host_pageable) noexcept {
    return host_pageable && bytes >= min_bytes;
  }
  /// How many chunks: `ceil(bytes / chunk_bytes)` (0 for an empty copy).
  constexpr std::size_t chunks() const noexcept {
    return chunk_bytes == 0 ? 0 : (bytes + chunk_bytes - 1) / chunk_bytes;
  }
  /// Chunk `k < chunks()`: every chunk is `chunk_bytes` long but the last, which holds the rest;
  /// slots alternate so that consecutive chunks use different buffers.
  constexpr piece chunk(std::size_t k) const noexcept {
    const std::size_t offset = k * chunk_bytes;
    const std::size_t rest = bytes - offset;
    return {offset, rest < chunk_bytes ? rest : chunk_bytes, static_cast<int>(k % 2)};
  }
};

}  // namespace tack::detail
