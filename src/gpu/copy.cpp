// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
// Device-side copies of the host library (declared in tack/detail/gpu_runtime.hpp), one source for
// CUDA and HIP (compiled by nvcc or hipcc): fills, overlapping moves, component-wise copies across
// layouts and scalar types, and permutations.
#include "check.hpp"

#include <tack/array/array.hpp>  // detail::convert_scalar: astype's conversions, one definition
#include <tack/detail/gpu_runtime.hpp>
#include <tack/exec/backend/gpu/launch.hpp>
#include <tack/memory/copy.hpp>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <type_traits>

namespace tack::detail {
namespace {

namespace bc = tack::backend::gpu;
namespace api = tack::backend::gpu::api;
using gpu_impl::device_guard;
using gpu_impl::device_of_pointer;

// Checks the launches just made; on the default stream also waits for them.
void complete(const bc::work_stream& ws, const char* what) {
  TACK_IMPL_GPU_CHECK(api::get_last_error(), what);
  if (!ws.queued) TACK_IMPL_GPU_CHECK(api::stream_synchronize(api::default_stream), what);
}

// ---- fill ----------------------------------------------------------------------------------------

// The pattern of a fill in words of type W: word j of the destination is words[j % period].
inline constexpr std::size_t max_pattern_bytes = 256;
template <class W>
struct fill_pattern {
  W words[max_pattern_bytes / sizeof(W)];
  unsigned period;
};

template <class W>
__global__ void fill_kernel(W* dst, std::size_t nwords, fill_pattern<W> p) {
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  const std::size_t first = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (p.period == 1) {
    const W w = p.words[0];
    for (std::size_t j = first; j < nwords; j += stride) dst[j] = w;
    return;
  }
  // The pattern in shared memory: indexed at run time, which parameter space is not made for.
  __shared__ W words[max_pattern_bytes / sizeof(W)];
  for (unsigned k = threadIdx.x; k < p.period; k += blockDim.x) words[k] = p.words[k];
  __syncthreads();
  const unsigned period = p.period;
  for (std::size_t j = first; j < nwords; j += stride) dst[j] = words[j % period];
}

std::size_t gcd(std::size_t a, std::size_t b) {
  while (b) {
    const std::size_t t = a % b;
    a = b;
    b = t;
  }
  return a;
}

template <class W>
void fill_words(void* dst, const unsigned char* value, std::size_t size, std::size_t count,
                const bc::work_stream& ws) {
  const std::size_t period_bytes = size / gcd(size, sizeof(W)) * sizeof(W);  // lcm(size, W)
  fill_pattern<W> p{};
  auto* bytes = reinterpret_cast<unsigned char*>(p.words);
  for (std::size_t k = 0; k < period_bytes; ++k) bytes[k] = value[k % size];
  p.period = static_cast<unsigned>(period_bytes / sizeof(W));
  const std::size_t nwords = size * count / sizeof(W);
  fill_kernel<W><<<bc::grid_for(static_cast<index_t>(nwords)), bc::block_threads, 0, ws.handle>>>(
      static_cast<W*>(dst), nwords, p);
  complete(ws, "tack: fill kernel");
}

// ---- component-wise copies -----------------------------------------------------------------------

// Up to 16 components per launch (a mat4 element); more are copied in several launches.
inline constexpr int batch = 16;
struct side {
  std::uintptr_t base[batch];
  std::ptrdiff_t stride;
};

template <class To, class From>
__device__ inline To convert(From x) {
  if constexpr (std::is_same_v<To, From>) {
    return x;
  } else {
    return convert_scalar<To>(x);
  }
}

template <class To, class From>
__global__ void components_kernel(side dst, side src, int components, std::size_t n) {
  // The component addresses in shared memory: read at run-time indices by every thread.
  __shared__ std::uintptr_t dst_base[batch], src_base[batch];
  if (threadIdx.x < static_cast<unsigned>(components)) {
    dst_base[threadIdx.x] = dst.base[threadIdx.x];
    src_base[threadIdx.x] = src.base[threadIdx.x];
  }
  __syncthreads();
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += stride) {
    const auto di = static_cast<std::ptrdiff_t>(i) * dst.stride;
    const auto si = static_cast<std::ptrdiff_t>(i) * src.stride;
    for (int c = 0; c < components; ++c) {
      *reinterpret_cast<To*>(dst_base[c] + di) =
          convert<To>(*reinterpret_cast<const From*>(src_base[c] + si));
    }
  }
}

// The unsigned word of a scalar's size: copies between equal kinds move bits (NaN payloads kept).
template <std::size_t Size>
using bits_t = std::conditional_t<
    Size == 1, std::uint8_t,
    std::conditional_t<Size == 2, std::uint16_t,
                       std::conditional_t<Size == 4, std::uint32_t, std::uint64_t>>>;

void launch_components(const side& d, const side& s, int components, std::size_t n, scalar_kind dk,
                       scalar_kind sk, api::stream_t stream) {
  const unsigned grid = bc::grid_for(static_cast<index_t>(n));
  const unsigned block = bc::block_threads;
  if (dk == sk) {
    switch (scalar_kind_size(dk)) {
      case 1:
        components_kernel<bits_t<1>, bits_t<1>><<<grid, block, 0, stream>>>(d, s, components, n);
        break;
      case 2:
        components_kernel<bits_t<2>, bits_t<2>><<<grid, block, 0, stream>>>(d, s, components, n);
        break;
      case 4:
        components_kernel<bits_t<4>, bits_t<4>><<<grid, block, 0, stream>>>(d, s, components, n);
        break;
      default:
        components_kernel<bits_t<8>, bits_t<8>><<<grid, block, 0, stream>>>(d, s, components, n);
        break;
    }
    return;
  }
  visit_scalar_kind(dk, [&]<class To>() {
    visit_scalar_kind(sk, [&]<class From>() {
      components_kernel<To, From><<<grid, block, 0, stream>>>(d, s, components, n);
    });
  });
}

// ---- permutations --------------------------------------------------------------------------------

template <class W>
__global__ void permute_kernel(W* dst, const W* src, std::size_t words_per_element,
                               const std::int64_t* permutation, std::size_t nwords) {
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t t = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; t < nwords;
       t += stride) {
    const std::size_t i = t / words_per_element;
    const std::size_t w = t - i * words_per_element;
    dst[t] = src[static_cast<std::size_t>(permutation[i]) * words_per_element + w];
  }
}

template <class W>
void permute_words(void* dst, const void* src, std::size_t element_bytes,
                   const std::int64_t* permutation, std::size_t n) {
  const std::size_t per = element_bytes / sizeof(W);
  const std::size_t nwords = per * n;
  permute_kernel<W>
      <<<bc::grid_for(static_cast<index_t>(nwords)), bc::block_threads, 0, api::default_stream>>>(
          static_cast<W*>(dst), static_cast<const W*>(src), per, permutation, nwords);
  complete(bc::work_stream{}, "tack: permutation kernel");
}

}  // namespace

void gpu_fill(void* dst, const void* value, std::size_t size, std::size_t count) {
  if (count == 0 || size == 0) return;
  const auto* v = static_cast<const unsigned char*>(value);
  device_guard g(device_of_pointer(dst));
  const bc::work_stream ws = bc::current_work_stream("tack: device fill");
  const std::size_t bytes = size * count;
  if (std::all_of(v, v + size, [&](unsigned char b) { return b == v[0]; })) {
    TACK_IMPL_GPU_CHECK(api::memset_async(dst, v[0], bytes, ws.handle),
                        TACK_IMPL_GPU_NAME("MemsetAsync"));
    complete(ws, "tack: device fill");
    return;
  }
  // The widest word that divides the element size and the destination's alignment, whose period
  // lcm(size, word) fits the pattern.
  const auto addr = reinterpret_cast<std::uintptr_t>(dst);
  for (std::size_t w : {16u, 8u, 4u, 2u}) {
    if (addr % w != 0 || bytes % w != 0 || size / gcd(size, w) * w > max_pattern_bytes) continue;
    switch (w) {
      case 16:
        fill_words<uint4>(dst, v, size, count, ws);
        return;
      case 8:
        fill_words<std::uint64_t>(dst, v, size, count, ws);
        return;
      case 4:
        fill_words<std::uint32_t>(dst, v, size, count, ws);
        return;
      default:
        fill_words<std::uint16_t>(dst, v, size, count, ws);
        return;
    }
  }
  if (size <= max_pattern_bytes) {
    fill_words<std::uint8_t>(dst, v, size, count, ws);
    return;
  }
  // An element larger than the pattern: one element from the host, then doubling device copies.
  // (A copy from pageable host memory has read `value` when the async copy call returns.)
  TACK_IMPL_GPU_CHECK(api::memcpy_async(dst, value, size, api::host_to_device, ws.handle),
                      TACK_IMPL_GPU_NAME("MemcpyAsync"));
  auto* d = static_cast<char*>(dst);
  for (std::size_t done = size; done < bytes;) {
    const std::size_t n = std::min(done, bytes - done);
    TACK_IMPL_GPU_CHECK(api::memcpy_async(d + done, d, n, api::device_to_device, ws.handle),
                        TACK_IMPL_GPU_NAME("MemcpyAsync"));
    done += n;
  }
  complete(ws, "tack: device fill");
}

void gpu_memmove(void* dst, const void* src, std::size_t bytes) {
  if (bytes == 0 || dst == src) return;
  const int id = device_of_pointer(dst);
  device_guard g(id);
  const bc::work_stream ws = bc::current_work_stream("tack: device move");
  const auto d = reinterpret_cast<std::uintptr_t>(dst);
  const auto s = reinterpret_cast<std::uintptr_t>(src);
  if (!(d < s + bytes && s < d + bytes)) {
    TACK_IMPL_GPU_CHECK(api::memcpy_async(dst, src, bytes, api::device_to_device, ws.handle),
                        TACK_IMPL_GPU_NAME("MemcpyAsync"));
    complete(ws, "tack: device move");
    return;
  }
  // Overlapping device-to-device copies are undefined: through scratch on the same device (freed
  // on the default stream, which waits for `ws`).
  const gpu_impl::scratch_block tmp(bytes, id);
  TACK_IMPL_GPU_CHECK(api::memcpy_async(tmp.get(), src, bytes, api::device_to_device, ws.handle),
                      TACK_IMPL_GPU_NAME("MemcpyAsync"));
  TACK_IMPL_GPU_CHECK(api::memcpy_async(dst, tmp.get(), bytes, api::device_to_device, ws.handle),
                      TACK_IMPL_GPU_NAME("MemcpyAsync"));
  complete(ws, "tack: device move");
}

void gpu_copy_components(const component_span& dst, const component_span& src, std::size_t n) {
  if (n == 0) return;
  if (dst.components != src.components) {
    throw value_error("tack: a component-wise copy needs as many components on both sides (" +
                      std::to_string(dst.components) + " and " + std::to_string(src.components) +
                      ")");
  }
  device_guard g(dst.host ? src.device_id : dst.device_id);
  const bc::work_stream ws = bc::current_work_stream("tack: component copy kernel");
  for (int first = 0; first < dst.components; first += batch) {
    const int count = std::min(batch, dst.components - first);
    side d{}, s{};
    for (int c = 0; c < count; ++c) {
      d.base[c] = dst.base[first + c];
      s.base[c] = src.base[first + c];
    }
    d.stride = dst.stride;
    s.stride = src.stride;
    launch_components(d, s, count, n, dst.kind, src.kind, ws.handle);
    TACK_IMPL_GPU_CHECK(api::get_last_error(), "tack: component copy kernel");
  }
  complete(ws, "tack: component copy kernel");
}

void gpu_permute(void* data, std::size_t element_bytes, const std::int64_t* permutation,
                 std::size_t n, int device_id) {
  if (n < 2 || element_bytes == 0) return;
  device_guard g(device_id);
  // On the default stream, after a non-blocking current stream's writes (as sort).
  if (const api::stream_t s = gpu_impl::nonblocking_current_stream(device_id)) {
    gpu_impl::order_after(api::default_stream, s, "tack: permutation");
  }
  const std::size_t bytes = element_bytes * n;
  const gpu_impl::scratch_block tmp(bytes, device_id);
  TACK_IMPL_GPU_CHECK(api::memcpy(tmp.get(), data, bytes, api::device_to_device),
                      TACK_IMPL_GPU_NAME("Memcpy"));
  const auto align = reinterpret_cast<std::uintptr_t>(data) | element_bytes;
  if (align % 16 == 0) {
    permute_words<uint4>(data, tmp.get(), element_bytes, permutation, n);
  } else if (align % 8 == 0) {
    permute_words<std::uint64_t>(data, tmp.get(), element_bytes, permutation, n);
  } else if (align % 4 == 0) {
    permute_words<std::uint32_t>(data, tmp.get(), element_bytes, permutation, n);
  } else if (align % 2 == 0) {
    permute_words<std::uint16_t>(data, tmp.get(), element_bytes, permutation, n);
  } else {
    permute_words<std::uint8_t>(data, tmp.get(), element_bytes, permutation, n);
  }
}

}  // namespace tack::detail
