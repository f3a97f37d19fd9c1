// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
// The HIP name layer of the device-wide primitives tack uses: rocPRIM's radix sorts and partition
// (src/gpu/sort.cpp), reduction and merge sort (the GPU benchmarks' references, benchmarks/gpu),
// from Debian's librocprim-dev, under the vendor-neutral names src/cuda/primitives.hpp gives
// CUB's. hipCUB, which would offer CUB's names, is not packaged in Debian 12.
#pragma once

#include <tack/exec/backend/gpu/api.hpp>

// rocPRIM 5.3's device headers print with std::cout (debug_synchronous) without including
// <iostream>; libstdc++ 11's headers, which HIP sources may use here (cmake/tack_hip.cmake), do not
// bring it in.
#include <iostream>

#include <rocprim/device/device_merge_sort.hpp>
#include <rocprim/device/device_partition.hpp>
#include <rocprim/device/device_radix_sort.hpp>
#include <rocprim/device/device_reduce.hpp>

#include <cstddef>
#include <cstdint>

namespace tack::detail::gpu_impl::primitives {

namespace api = tack::backend::gpu::api;

/// The library's name, for messages.
inline constexpr const char* library = "rocprim";

/// Two buffers of keys (or values); a sort leaves its result in either (`current`).
template <class T>
using double_buffer = rocprim::double_buffer<T>;
template <class T>
T* current(double_buffer<T>& b) {
  return b.current();
}

/// Radix sort of `n` keys over bits `[0, end_bit)`; with `temp == nullptr` sets `temp_bytes`.
template <class K>
api::error_t radix_sort_keys(void* temp, std::size_t& temp_bytes, double_buffer<K>& keys,
                             std::int64_t n, int end_bit, api::stream_t s) {
  return rocprim::radix_sort_keys(temp, temp_bytes, keys, static_cast<std::size_t>(n), 0u,
                                  static_cast<unsigned>(end_bit), s);
}

/// Stable radix sort of `n` key-value pairs over bits `[0, end_bit)`.
template <class K, class V>
api::error_t radix_sort_pairs(void* temp, std::size_t& temp_bytes, double_buffer<K>& keys,
                              double_buffer<V>& values, std::int64_t n, int end_bit,
                              api::stream_t s) {
  return rocprim::radix_sort_pairs(temp, temp_bytes, keys, values, static_cast<std::size_t>(n), 0u,
                                   static_cast<unsigned>(end_bit), s);
}

/// Copies the `n` keys at `in` to `out`, those `select` accepts first (in order), the others after
/// them; `*selected` receives how many were accepted.
template <class K, class Select>
api::error_t partition(void* temp, std::size_t& temp_bytes, const K* in, K* out,
                       std::int64_t* selected, std::int64_t n, Select select, api::stream_t s) {
  return rocprim::partition(temp, temp_bytes, in, out, selected, static_cast<std::size_t>(n),
                            select, s);
}

/// The sum of `n` floats at `in` into `*out` (device memory).
inline api::error_t reduce_sum(void* temp, std::size_t& temp_bytes, const float* in, float* out,
                               std::int64_t n, api::stream_t s) {
  return rocprim::reduce(temp, temp_bytes, in, out, static_cast<std::size_t>(n),
                         rocprim::plus<float>(), s);
}

/// Stable merge sort of the `n` keys at `in` into `out` by `comp`.
template <class K, class Comp>
api::error_t merge_sort_keys(void* temp, std::size_t& temp_bytes, const K* in, K* out,
                             std::int64_t n, Comp comp, api::stream_t s) {
  return rocprim::merge_sort(temp, temp_bytes, in, out, static_cast<std::size_t>(n), comp, s);
}

}  // namespace tack::detail::gpu_impl::primitives
