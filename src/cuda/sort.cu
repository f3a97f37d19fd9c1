// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
// tack::sort and tack::sort_by_key on the device (declared in tack/detail/cuda_runtime.hpp), over
// CUB's radix sort from the CUDA toolkit's CCCL.
//  - sort of integer and bool keys: cub::DeviceRadixSort::SortKeys on the keys and one scratch
//    buffer of the same size (a DoubleBuffer: the result lands in either; copied back if needed).
//  - sort of floating-point keys: NaNs first moved to the end (cub::DevicePartition::If, which
//    keeps every key's bits), then the radix sort of the numbers.
//  - stable sorts with a permutation (sort_by_key): SortPairs of the keys and their positions.
//    Floating-point keys are sorted through an unsigned image of their order (NaNs last, -0.0
//    equal to +0.0, as the host's comparison says), then the keys are gathered through the
//    permutation, so their bits are kept.
#include "check.hpp"

#include <tack/detail/cuda_runtime.hpp>
#include <tack/exec/backend/cuda/launch.hpp>

#include <cub/device/device_partition.cuh>
#include <cub/device/device_radix_sort.cuh>

#include <cuda_runtime.h>

#include <cstdint>
#include <type_traits>

namespace tack::detail {
namespace {

namespace bc = tack::backend::cuda;
using cuda_impl::scratch_block;

struct is_number {
  template <class K>
  __device__ bool operator()(K x) const {
    return x == x;
  }
};

template <class K>
using image_t = std::conditional_t<sizeof(K) == 4, std::uint32_t, std::uint64_t>;

// The unsigned image of a floating-point key whose order is the host's sort order: ascending,
// -0.0 equal to +0.0, every NaN after +infinity.
template <class K>
__device__ inline image_t<K> order_image(K x) {
  using U = image_t<K>;
  constexpr U sign = U(1) << (8 * sizeof(U) - 1);
  if (x != x) return ~U(0);
  if (x == K(0)) return sign;
  U u;
  memcpy(&u, &x, sizeof(U));
  return (u & sign) ? ~u : (u | sign);
}

template <class K>
__global__ void image_kernel(const K* keys, image_t<K>* out, std::int64_t* positions,
                             std::size_t n) {
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += stride) {
    out[i] = order_image(keys[i]);
    positions[i] = static_cast<std::int64_t>(i);
  }
}

__global__ void iota_kernel(std::int64_t* positions, std::size_t n) {
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += stride) {
    positions[i] = static_cast<std::int64_t>(i);
  }
}

void check_launch(const char* what) { TACK_IMPL_CUDA_CHECK(cudaGetLastError(), what); }

void copy_device(void* dst, const void* src, std::size_t bytes) {
  TACK_IMPL_CUDA_CHECK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice, cudaStreamLegacy),
                       "cudaMemcpyAsync");
}

// Radix sort of `keys[0, n)` in place, with `alt` as the second buffer.
template <class K>
void radix_sort_keys(K* keys, K* alt, std::int64_t n, int id) {
  cub::DoubleBuffer<K> buffers(keys, alt);
  std::size_t temp_bytes = 0;
  TACK_IMPL_CUDA_CHECK(cub::DeviceRadixSort::SortKeys(nullptr, temp_bytes, buffers, n, 0,
                                                      int(8 * sizeof(K)), cudaStreamLegacy),
                       "cub::DeviceRadixSort::SortKeys");
  const scratch_block temp(temp_bytes, id);
  TACK_IMPL_CUDA_CHECK(cub::DeviceRadixSort::SortKeys(temp.get(), temp_bytes, buffers, n, 0,
                                                      int(8 * sizeof(K)), cudaStreamLegacy),
                       "cub::DeviceRadixSort::SortKeys");
  if (buffers.Current() != keys)
    copy_device(keys, buffers.Current(), static_cast<std::size_t>(n) * sizeof(K));
}

template <class K>
void sort_keys(K* keys, std::size_t n, int id) {
  const scratch_block alt(n * sizeof(K), id);
  const auto count = static_cast<std::int64_t>(n);
  if constexpr (std::is_floating_point_v<K>) {
    // Numbers first (in order), NaNs after them: then only the numbers are sorted.
    const scratch_block selected(sizeof(std::int64_t), id);
    std::size_t temp_bytes = 0;
    TACK_IMPL_CUDA_CHECK(
        cub::DevicePartition::If(nullptr, temp_bytes, keys, alt.as<K>(),
                                 selected.as<std::int64_t>(), count, is_number{}, cudaStreamLegacy),
        "cub::DevicePartition::If");
    {
      const scratch_block temp(temp_bytes, id);
      TACK_IMPL_CUDA_CHECK(cub::DevicePartition::If(temp.get(), temp_bytes, keys, alt.as<K>(),
                                                    selected.as<std::int64_t>(), count, is_number{},
                                                    cudaStreamLegacy),
                           "cub::DevicePartition::If");
    }
    std::int64_t numbers = 0;
    TACK_IMPL_CUDA_CHECK(
        cudaMemcpy(&numbers, selected.get(), sizeof numbers, cudaMemcpyDeviceToHost), "cudaMemcpy");
    copy_device(keys, alt.get(), n * sizeof(K));
    if (numbers > 1) radix_sort_keys(keys, alt.as<K>(), numbers, id);
  } else {
    radix_sort_keys(keys, alt.as<K>(), count, id);
  }
}

// Stable sort of `keys` (of type K, or their images) with positions into `permutation`.
template <class K>
void sort_pairs(K* keys, std::int64_t* permutation, std::size_t n, int id, bool keys_are_scratch) {
  const scratch_block alt(n * sizeof(K), id);
  const scratch_block positions(n * sizeof(std::int64_t), id);
  const auto count = static_cast<std::int64_t>(n);
  cub::DoubleBuffer<K> k(keys, alt.as<K>());
  cub::DoubleBuffer<std::int64_t> v(permutation, positions.as<std::int64_t>());
  std::size_t temp_bytes = 0;
  TACK_IMPL_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(nullptr, temp_bytes, k, v, count, 0,
                                                       int(8 * sizeof(K)), cudaStreamLegacy),
                       "cub::DeviceRadixSort::SortPairs");
  {
    const scratch_block temp(temp_bytes, id);
    TACK_IMPL_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(temp.get(), temp_bytes, k, v, count, 0,
                                                         int(8 * sizeof(K)), cudaStreamLegacy),
                         "cub::DeviceRadixSort::SortPairs");
  }
  if (!keys_are_scratch && k.Current() != keys) copy_device(keys, k.Current(), n * sizeof(K));
  if (v.Current() != permutation) copy_device(permutation, v.Current(), n * sizeof(std::int64_t));
}

template <class K>
void sort_with_permutation(K* keys, std::size_t n, int id, std::int64_t* permutation) {
  const unsigned grid = bc::grid_for(static_cast<index_t>(n));
  if constexpr (std::is_floating_point_v<K>) {
    const scratch_block images(n * sizeof(image_t<K>), id);
    image_kernel<K><<<grid, bc::block_threads, 0, cudaStreamLegacy>>>(keys, images.as<image_t<K>>(),
                                                                      permutation, n);
    check_launch("tack: sort key image kernel");
    sort_pairs(images.as<image_t<K>>(), permutation, n, id, true);
    cuda_permute(keys, sizeof(K), permutation, n, id);  // the keys themselves, bits kept
  } else {
    iota_kernel<<<grid, bc::block_threads, 0, cudaStreamLegacy>>>(permutation, n);
    check_launch("tack: sort position kernel");
    sort_pairs(keys, permutation, n, id, false);
  }
}

// The type of the keys CUB sorts for scalar kind k: the scalar itself, and a bool as its byte (one
// byte holding 0 or 1).
template <class F>
void with_key_type(scalar_kind k, F&& f) {
  visit_scalar_kind(k, [&]<class S>() {
    using key = std::conditional_t<std::is_same_v<S, bool>, std::uint8_t, S>;
    f.template operator()<key>();
  });
}

}  // namespace

void cuda_sort(void* keys, std::size_t n, scalar_kind kind, int device_id,
               std::int64_t* permutation) {
  if (n == 0) return;
  const cuda_impl::device_guard g(device_id);
  // Sorting runs on the legacy default stream; a non-blocking current stream's writes to the keys
  // come first (blocking streams order with it by themselves).
  if (const cudaStream_t s = cuda_impl::nonblocking_current_stream(device_id)) {
    cuda_impl::order_after(cudaStreamLegacy, s, "tack::sort on CUDA");
  }
  with_key_type(kind, [&]<class K>() {
    if (permutation) {
      sort_with_permutation(static_cast<K*>(keys), n, device_id, permutation);
    } else if (n > 1) {
      sort_keys(static_cast<K*>(keys), n, device_id);
    }
  });
  TACK_IMPL_CUDA_CHECK(cudaStreamSynchronize(cudaStreamLegacy), "tack::sort on CUDA");
}

}  // namespace tack::detail
