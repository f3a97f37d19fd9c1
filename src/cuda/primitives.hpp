// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
// The CUDA name layer of the device-wide primitives tack uses: CUB's radix sorts and partition
// (src/gpu/sort.cpp), reduction and merge sort (the GPU benchmarks' references, benchmarks/gpu),
// from the CUDA toolkit's CCCL, under the vendor-neutral names src/hip/primitives.hpp gives
// rocPRIM's.
#pragma once

#include <tack/exec/backend/gpu/api.hpp>

#include <cub/device/device_merge_sort.cuh>
#include <cub/device/device_partition.cuh>
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_reduce.cuh>

#include <cstddef>
#include <cstdint>

namespace tack::detail::gpu_impl::primitives {

namespace api = tack::backend::gpu::api;

/// The library's name, for messages.
inline constexpr const char* library = "cub";

/// Two buffers of keys (or values); a sort leaves its result in either (`current`).
template <class T>
using double_buffer = cub::DoubleBuffer<T>;
template <class T>
T* current(double_buffer<T>& b) {
  return b.Current();
}

/// Radix sort of `n` keys over bits `[0, end_bit)`; with `temp == nullptr` sets `temp_bytes`.
template <class K>
api::error_t radix_sort_keys(void* temp, std::size_t& temp_bytes, double_buffer<K>& keys,
                             std::int64_t n, int end_bit, api::stream_t s) {
  return cub::DeviceRadixSort::SortKeys(temp, temp_bytes, keys, n, 0, end_bit, s);
}

/// Stable radix sort of `n` key-value pairs over bits `[0, end_bit)`.
template <class K, class V>
api::error_t radix_sort_pairs(void* temp, std::size_t& temp_bytes, double_buffer<K>& keys,
                              double_buffer<V>& values, std::int64_t n, int end_bit,
                              api::stream_t s) {
  return cub::DeviceRadixSort::SortPairs(temp, temp_bytes, keys, values, n, 0, end_bit, s);
}

/// Copies the `n` keys at `in` to `out`, those `select` accepts first (in order), the others after
/// them; `*selected` receives how many were accepted.
template <class K, class Select>
api::error_t partition(void* temp, std::size_t& temp_bytes, const K* in, K* out,
                       std::int64_t* selected, std::int64_t n, Select select, api::stream_t s) {
  return cub::DevicePartition::If(temp, temp_bytes, in, out, selected, n, select, s);
}

/// The sum of `n` floats at `in` into `*out` (device memory).
inline api::error_t reduce_sum(void* temp, std::size_t& temp_bytes, const float* in, float* out,
                               std::int64_t n, api::stream_t s) {
  return cub::DeviceReduce::Sum(temp, temp_bytes, in, out, n, s);
}

/// Stable merge sort of the `n` keys at `in` into `out` by `comp`.
template <class K, class Comp>
api::error_t merge_sort_keys(void* temp, std::size_t& temp_bytes, const K* in, K* out,
                             std::int64_t n, Comp comp, api::stream_t s) {
  return cub::DeviceMergeSort::StableSortKeysCopy(temp, temp_bytes, in, out, n, comp, s);
}

}  // namespace tack::detail::gpu_impl::primitives
