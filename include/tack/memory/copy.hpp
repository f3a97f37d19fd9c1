// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
#pragma once
/// @file The one device-aware byte copy every other copy goes through.

#include <cstddef>

namespace tack::detail {

/// Copies `bytes` bytes from `src` to `dst`; `*_host` says whether each side is host-accessible.
/// Host to host uses `host_copy` (streaming stores and threads for large blocks); anything that
/// touches device memory goes through the CUDA runtime (a `device_error` in a build without it).
/// Overlapping ranges give `memmove`'s result (host: `memmove`; device: staged through the host).
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

/// Fills device memory: copies the pattern from the host, doubling the filled prefix each step.
void device_fill(void* dst, const void* value, std::size_t size, std::size_t count);

}  // namespace tack::detail
