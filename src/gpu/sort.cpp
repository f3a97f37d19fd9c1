// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
// tack::sort and tack::sort_by_key on the device (declared in tack/detail/gpu_runtime.hpp), one
// source for CUDA and HIP over the vendor's radix sort: CUB's (src/cuda/primitives.hpp) or rocPRIM's
// (src/hip/primitives.hpp), under the names of `gpu_impl::primitives`.
//  - sort of integer and bool keys: a radix sort of the keys with one scratch buffer of the same
//    size (a double buffer: the result lands in either; copied back if needed).
//  - sort of floating-point keys: NaNs first moved to the end (a partition, which keeps every
//    key's bits), then the radix sort of the numbers.
//  - stable sorts with a permutation (sort_by_key): a pair sort of the keys and their positions.
//    Floating-point keys are sorted through an unsigned image of their order (NaNs last, -0.0
//    equal to +0.0, as the host's comparison says), then the keys are gathered through the
//    permutation, so their bits are kept.
#include "check.hpp"

#include <tack/detail/gpu_runtime.hpp>
#include <tack/exec/backend/gpu/launch.hpp>

#if TACK_HAS_CUDA
#include "../cuda/primitives.hpp"
#else
#include "../hip/primitives.hpp"
#endif

#include <cstdint>
#include <string>
#include <type_traits>

namespace tack::detail {
namespace {

namespace bc = tack::backend::gpu;
namespace api = tack::backend::gpu::api;
namespace sa = gpu_impl::primitives;
using gpu_impl::scratch_block;

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

void check_launch(const char* what) { TACK_IMPL_GPU_CHECK(api::get_last_error(), what); }

void copy_device(void* dst, const void* src, std::size_t bytes) {
  TACK_IMPL_GPU_CHECK(
      api::memcpy_async(dst, src, bytes, api::device_to_device, api::default_stream),
      TACK_IMPL_GPU_NAME("MemcpyAsync"));
}

// Radix sort of `keys[0, n)` in place, with `alt` as the second buffer.
template <class K>
void radix_sort_keys(K* keys, K* alt, std::int64_t n, int id) {
  sa::double_buffer<K> buffers(keys, alt);
  std::size_t temp_bytes = 0;
  const std::string what = std::string(sa::library) + " radix sort of keys";
  TACK_IMPL_GPU_CHECK(sa::radix_sort_keys<K>(nullptr, temp_bytes, buffers, n, int(8 * sizeof(K)),
                                             api::default_stream),
                      what.c_str());
  const scratch_block temp(temp_bytes, id);
  TACK_IMPL_GPU_CHECK(sa::radix_sort_keys<K>(temp.get(), temp_bytes, buffers, n, int(8 * sizeof(K)),
                                             api::default_stream),
                      what.c_str());
  if (sa::current(buffers) != keys)
    copy_device(keys, sa::current(buffers), static_cast<std::size_t>(n) * sizeof(K));
}

template <class K>
void sort_keys(K* keys, std::size_t n, int id) {
  const scratch_block alt(n * sizeof(K), id);
  const auto count = static_cast<std::int64_t>(n);
  if constexpr (std::is_floating_point_v<K>) {
    // Numbers first (in order), NaNs after them: then only the numbers are sorted.
    const scratch_block selected(sizeof(std::int64_t), id);
    std::size_t temp_bytes = 0;
    const std::string what = std::string(sa::library) + " partition";
    TACK_IMPL_GPU_CHECK(
        sa::partition(nullptr, temp_bytes, keys, alt.as<K>(), selected.as<std::int64_t>(), count,
                      is_number{}, api::default_stream),
        what.c_str());
    {
      const scratch_block temp(temp_bytes, id);
      TACK_IMPL_GPU_CHECK(
          sa::partition(temp.get(), temp_bytes, keys, alt.as<K>(), selected.as<std::int64_t>(),
                        count, is_number{}, api::default_stream),
          what.c_str());
    }
    std::int64_t numbers = 0;
    TACK_IMPL_GPU_CHECK(api::memcpy(&numbers, selected.get(), sizeof numbers, api::device_to_host),
                        TACK_IMPL_GPU_NAME("Memcpy"));
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
  sa::double_buffer<K> k(keys, alt.as<K>());
  sa::double_buffer<std::int64_t> v(permutation, positions.as<std::int64_t>());
  std::size_t temp_bytes = 0;
  const std::string what = std::string(sa::library) + " radix sort of pairs";
  TACK_IMPL_GPU_CHECK(sa::radix_sort_pairs(nullptr, temp_bytes, k, v, count, int(8 * sizeof(K)),
                                           api::default_stream),
                      what.c_str());
  {
    const scratch_block temp(temp_bytes, id);
    TACK_IMPL_GPU_CHECK(sa::radix_sort_pairs(temp.get(), temp_bytes, k, v, count,
                                             int(8 * sizeof(K)), api::default_stream),
                        what.c_str());
  }
  if (!keys_are_scratch && sa::current(k) != keys) copy_device(keys, sa::current(k), n * sizeof(K));
  if (sa::current(v) != permutation)
    copy_device(permutation, sa::current(v), n * sizeof(std::int64_t));
}

template <class K>
void sort_with_permutation(K* keys, std::size_t n, int id, std::int64_t* permutation) {
  const unsigned grid = bc::grid_for(static_cast<index_t>(n));
  if constexpr (std::is_floating_point_v<K>) {
    const scratch_block images(n * sizeof(image_t<K>), id);
    image_kernel<K><<<grid, bc::block_threads, 0, api::default_stream>>>(
        keys, images.as<image_t<K>>(), permutation, n);
    check_launch("tack: sort key image kernel");
    sort_pairs(images.as<image_t<K>>(), permutation, n, id, true);
    gpu_permute(keys, sizeof(K), permutation, n, id);  // the keys themselves, bits kept
  } else {
    iota_kernel<<<grid, bc::block_threads, 0, api::default_stream>>>(permutation, n);
    check_launch("tack: sort position kernel");
    sort_pairs(keys, permutation, n, id, false);
  }
}

// The type of the keys the radix sort sorts for scalar kind k: the scalar itself, and a bool as its
// byte (one byte holding 0 or 1).
template <class F>
void with_key_type(scalar_kind k, F&& f) {
  visit_scalar_kind(k, [&]<class S>() {
    using key = std::conditional_t<std::is_same_v<S, bool>, std::uint8_t, S>;
    f.template operator()<key>();
  });
}

}  // namespace

void gpu_sort(void* keys, std::size_t n, scalar_kind kind, int device_id,
              std::int64_t* permutation) {
  if (n == 0) return;
  const gpu_impl::device_guard g(device_id);
  // Sorting runs on the default stream; a non-blocking current stream's writes to the keys come
  // first (blocking streams order with it by themselves).
  if (const api::stream_t s = gpu_impl::nonblocking_current_stream(device_id)) {
    gpu_impl::order_after(api::default_stream, s, "tack::sort on " TACK_IMPL_GPU_VENDOR);
  }
  with_key_type(kind, [&]<class K>() {
    if (permutation) {
      sort_with_permutation(static_cast<K*>(keys), n, device_id, permutation);
    } else if (n > 1) {
      sort_keys(static_cast<K*>(keys), n, device_id);
    }
  });
  TACK_IMPL_GPU_CHECK(api::stream_synchronize(api::default_stream),
                      "tack::sort on " TACK_IMPL_GPU_VENDOR);
}

}  // namespace tack::detail
