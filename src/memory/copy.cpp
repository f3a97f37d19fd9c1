// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
// The one device-aware copy, and the host copy/fill loops behind copy(), fill() and copyto().
#include <tack/config.hpp>  // TACK_HAS_OPENMP: without it the copies and fills never use threads
#include <tack/core/error.hpp>
#include <tack/detail/gpu_runtime.hpp>
#include <tack/memory/copy.hpp>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <numeric>
#include <vector>

#if defined(__x86_64__) || defined(_M_X64)
#include <immintrin.h>
#define TACK_IMPL_HAVE_SSE2 1
#else
#define TACK_IMPL_HAVE_SSE2 0
#endif
#if TACK_HAS_OPENMP
#include <omp.h>
#endif

namespace tack::detail {
namespace {

// Above this size a copy or fill no longer fits the last-level cache, and streaming (non-temporal)
// stores save the write-allocate traffic (figures in docs/performance.md).
constexpr std::size_t streaming_threshold = std::size_t{8} << 20;
// Below this, threads cost more than they bring.
constexpr std::size_t parallel_threshold = std::size_t{1} << 20;

int threads_for(std::size_t bytes) {
#if TACK_HAS_OPENMP
  if (bytes >= parallel_threshold && !omp_in_parallel()) return omp_get_max_threads();
#endif
  (void)bytes;
  return 1;
}

// Runs body(begin, end) over [0, bytes) in `threads` pieces whose boundaries are 64-byte aligned
// relative to `base` so that each piece streams whole cache lines.
template <class Body>
void split(std::uintptr_t base, std::size_t bytes, int threads, Body body) {
  if (threads <= 1) {
    body(std::size_t{0}, bytes);
    return;
  }
#if TACK_HAS_OPENMP
#pragma omp parallel num_threads(threads)
  {
    const auto t = static_cast<std::size_t>(omp_get_thread_num());
    const auto n = static_cast<std::size_t>(omp_get_num_threads());
    auto boundary = [&](std::size_t k) {
      if (k == 0) return std::size_t{0};  // rounding the first start up would skip bytes
      if (k >= n) return bytes;
      std::size_t b = bytes / n * k;
      b = ((base + b + 63) & ~std::uintptr_t{63}) - base;  // align the piece start in memory
      return std::min(b, bytes);
    };
    body(boundary(t), boundary(t + 1));
  }
#else
  (void)base;
  body(std::size_t{0}, bytes);
#endif
}

void stream_copy(char* dst, const char* src, std::size_t bytes) noexcept {
#if TACK_IMPL_HAVE_SSE2
  std::size_t head = (16 - (reinterpret_cast<std::uintptr_t>(dst) & 15)) & 15;
  head = std::min(head, bytes);
  std::memcpy(dst, src, head);
  std::size_t i = head;
  for (; i + 64 <= bytes; i += 64) {
    __m128i a = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + i));
    __m128i b = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + i + 16));
    __m128i c = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + i + 32));
    __m128i d = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + i + 48));
    _mm_stream_si128(reinterpret_cast<__m128i*>(dst + i), a);
    _mm_stream_si128(reinterpret_cast<__m128i*>(dst + i + 16), b);
    _mm_stream_si128(reinterpret_cast<__m128i*>(dst + i + 32), c);
    _mm_stream_si128(reinterpret_cast<__m128i*>(dst + i + 48), d);
  }
  std::memcpy(dst + i, src + i, bytes - i);
  _mm_sfence();  // streaming stores are weakly ordered: publish them before returning
#else
  std::memcpy(dst, src, bytes);
#endif
}

}  // namespace

void host_copy(void* dst, const void* src, std::size_t bytes) noexcept {
  if (bytes == 0 || dst == src) return;
  auto* d = static_cast<char*>(dst);
  const auto* s = static_cast<const char*>(src);
  if (bytes < streaming_threshold) {
#if TACK_IMPL_HAVE_SSE2
    // glibc's memcpy (rep movsb) runs many times slower on some CPUs when the destination is
    // 1..63 bytes after the source modulo 4 KiB; a plain vector loop has no such cliff.
    const auto dist =
        (reinterpret_cast<std::uintptr_t>(d) - reinterpret_cast<std::uintptr_t>(s)) & 4095;
    if (bytes >= 2048 && dist != 0 && dist < 64) {
      std::size_t i = 0;
      for (; i + 16 <= bytes; i += 16) {
        _mm_storeu_si128(reinterpret_cast<__m128i*>(d + i),
                         _mm_loadu_si128(reinterpret_cast<const __m128i*>(s + i)));
      }
      std::memcpy(d + i, s + i, bytes - i);
      return;
    }
#endif
    std::memcpy(d, s, bytes);
    return;
  }
  split(reinterpret_cast<std::uintptr_t>(d), bytes, threads_for(bytes),
        [&](std::size_t b, std::size_t e) { stream_copy(d + b, s + b, e - b); });
}

void host_fill(void* dst, const void* value, std::size_t size, std::size_t count) noexcept {
  if (count == 0 || size == 0) return;
  auto* d = static_cast<char*>(dst);
  const auto* v = static_cast<const char*>(value);
  const std::size_t bytes = size * count;
  // lcm(size, 16) without std::lcm's division loop (a large part of a small fill): gcd(size, 16)
  // is the largest power of two dividing size, at most 16.
  const std::size_t period = size / std::min<std::size_t>(size & (~size + 1), 16) * 16;
  if (period > 4096) {  // exotic element size: fill by doubling copies
    std::memcpy(d, v, size);
    std::size_t done = size;
    while (done < bytes) {
      std::size_t n = std::min(done, bytes - done);
      std::memcpy(d + done, d, n);
      done += n;
    }
    return;
  }
  // pattern[k] is the byte at offset k from `dst`, for k < period + 16 (on the stack: no allocation).
  alignas(16) char pattern_buf[4096 + 16];
#if TACK_IMPL_HAVE_SSE2
  if (period == 16 && size <= 8) {
    // Element sizes 1, 2, 4, 8: a broadcast in a register, stored twice (cheaper than the three
    // memcpy calls of the doubling below).
    __m128i x;
    switch (size) {
      case 1:
        x = _mm_set1_epi8(static_cast<char>(*v));
        break;
      case 2: {
        std::int16_t e;
        std::memcpy(&e, v, 2);
        x = _mm_set1_epi16(e);
        break;
      }
      case 4: {
        std::int32_t e;
        std::memcpy(&e, v, 4);
        x = _mm_set1_epi32(e);
        break;
      }
      default: {
        long long e;
        std::memcpy(&e, v, 8);
        x = _mm_set1_epi64x(e);
        break;
      }
    }
    _mm_store_si128(reinterpret_cast<__m128i*>(pattern_buf), x);
    _mm_store_si128(reinterpret_cast<__m128i*>(pattern_buf + 16), x);
  } else
#endif
  {
    // Built by doubling copies: a byte loop with `k % size` would divide once per byte.
    std::memcpy(pattern_buf, v, size);
    for (std::size_t have = size; have < period + 16;) {
      const std::size_t n = std::min(have, period + 16 - have);
      std::memcpy(pattern_buf + have, pattern_buf, n);
      have += n;
    }
  }
  const bool streaming = bytes >= streaming_threshold;
  auto body = [&](std::size_t b, std::size_t e) {
    // Locals, not captures: the captures live in a closure whose address escapes to the OpenMP
    // runtime, so every byte store would force them to be reloaded.
    char* const dd = d;
    const char* const p = pattern_buf;
    const std::size_t per = period;
    const bool stream = streaming;
    std::size_t i = b;
#if TACK_IMPL_HAVE_SSE2
    while (i < e && (reinterpret_cast<std::uintptr_t>(dd + i) & 15)) {
      dd[i] = p[i % per];
      ++i;
    }
    if (i + 16 <= e) {
      std::size_t phase = i % per;
      if (per == 16) {  // element sizes 1, 2, 4, 8, 16: one register holds the pattern
        const __m128i x = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + phase));
        if (stream) {
          for (; i + 16 <= e; i += 16) _mm_stream_si128(reinterpret_cast<__m128i*>(dd + i), x);
          _mm_sfence();
        } else {
          for (; i + 64 <= e; i += 64) {  // four stores per iteration: less loop overhead per store
            _mm_store_si128(reinterpret_cast<__m128i*>(dd + i), x);
            _mm_store_si128(reinterpret_cast<__m128i*>(dd + i + 16), x);
            _mm_store_si128(reinterpret_cast<__m128i*>(dd + i + 32), x);
            _mm_store_si128(reinterpret_cast<__m128i*>(dd + i + 48), x);
          }
          for (; i + 16 <= e; i += 16) _mm_store_si128(reinterpret_cast<__m128i*>(dd + i), x);
        }
      } else if (stream) {
        for (; i + 16 <= e; i += 16) {
          _mm_stream_si128(reinterpret_cast<__m128i*>(dd + i),
                           _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + phase)));
          phase += 16;
          if (phase >= per) phase -= per;
        }
        _mm_sfence();
      } else {
        for (; i + 16 <= e; i += 16) {
          std::memcpy(dd + i, p + phase, 16);
          phase += 16;
          if (phase >= per) phase -= per;
        }
      }
    }
#endif
    for (; i < e; ++i) dd[i] = p[i % per];
  };
  split(reinterpret_cast<std::uintptr_t>(d), bytes, threads_for(bytes), body);
}

void copy_bytes(void* dst, bool dst_host, const void* src, bool src_host, std::size_t bytes) {
  if (bytes == 0 || dst == src) return;
  const auto d = reinterpret_cast<std::uintptr_t>(dst);
  const auto s = reinterpret_cast<std::uintptr_t>(src);
  if (d < s + bytes && s < d + bytes) {
    // Overlapping ranges (copyto(a.rows(1, 6), a.rows(0, 5))): memmove's result, as NumPy gives.
    if (dst_host && src_host) {
      std::memmove(dst, src, bytes);
      return;
    }
    if (!dst_host && !src_host) {
      gpu_memmove(dst, src, bytes);  // through device scratch, on the device
      return;
    }
    std::vector<char> staging(bytes);
    copy_bytes(staging.data(), true, src, src_host, bytes);
    copy_bytes(dst, dst_host, staging.data(), true, bytes);
    return;
  }
  if (dst_host && src_host) {
    host_copy(dst, src, bytes);
    return;
  }
  const auto kind = dst_host   ? gpu_copy_kind::device_to_host
                    : src_host ? gpu_copy_kind::host_to_device
                               : gpu_copy_kind::device_to_device;
  gpu_memcpy(dst, src, bytes, kind);
}

void move_bytes(void* dst, const void* src, std::size_t bytes, bool host) {
  if (bytes == 0 || dst == src) return;
  if (host) {
    std::memmove(dst, src, bytes);
    return;
  }
  // Device memory: overlapping device-to-device copies are undefined, so through device scratch.
  gpu_memmove(dst, src, bytes);
}

void device_fill(void* dst, const void* value, std::size_t size, std::size_t count) {
  if (count == 0) return;
  gpu_fill(dst, value, size, count);
}

namespace {

// Device scratch for one staged copy, released on every path.
class device_scratch {
public:
  device_scratch(std::size_t bytes, int id) : p_(gpu_malloc_device(bytes, id)), id_(id) {}
  ~device_scratch() { gpu_free_device(p_, id_); }
  device_scratch(const device_scratch&) = delete;
  device_scratch& operator=(const device_scratch&) = delete;
  char* get() const noexcept { return static_cast<char*>(p_); }

private:
  void* p_;
  int id_;
};

// The contiguous byte ranges a span's `n` elements occupy: one for interleaved components (AoS),
// one per component for separate ones (SoA, where the stride is one scalar).
struct span_ranges {
  std::vector<std::uintptr_t> first;  // where each range starts
  std::vector<std::size_t> size;      // its bytes
  std::vector<std::size_t> offset;    // where it goes in a packed copy of the ranges
  std::vector<int> range_of;          // the range of each component
  std::size_t total = 0;
};

span_ranges ranges_of(const component_span& s, std::size_t n) {
  const auto scalar = static_cast<std::size_t>(scalar_kind_size(s.kind));
  const auto stride = static_cast<std::size_t>(s.stride);
  const auto comps = static_cast<std::size_t>(s.components);
  span_ranges r;
  r.range_of.resize(comps);
  if (stride == scalar) {
    for (std::size_t c = 0; c < comps; ++c) {
      r.first.push_back(s.base[c]);
      r.size.push_back(n * scalar);
      r.offset.push_back(r.total);
      r.range_of[c] = static_cast<int>(c);
      r.total += (n * scalar + 255) / 256 * 256;  // each range 256-byte aligned in the copy
    }
    return r;
  }
  std::uintptr_t lo = s.base[0], hi = s.base[0];
  for (std::size_t c = 0; c < comps; ++c) {
    lo = std::min(lo, s.base[c]);
    hi = std::max(hi, s.base[c]);
  }
  r.first.push_back(lo);
  r.size.push_back(hi - lo + (n - 1) * stride + scalar);
  r.offset.push_back(0);
  r.total = r.size[0];
  return r;
}

// The same span over a packed copy of its ranges at `packed`.
std::vector<std::uintptr_t> relocated(const component_span& s, const span_ranges& r, char* packed) {
  std::vector<std::uintptr_t> bases(static_cast<std::size_t>(s.components));
  for (std::size_t c = 0; c < bases.size(); ++c) {
    const auto k = static_cast<std::size_t>(r.range_of[c]);
    bases[c] = reinterpret_cast<std::uintptr_t>(packed) + r.offset[k] + (s.base[c] - r.first[k]);
  }
  return bases;
}

}  // namespace

void copy_components(const component_span& dst, const component_span& src, std::size_t n) {
  if (n == 0) return;
  if (dst.host && src.host) {
    throw value_error(
        "tack::detail::copy_components: both sides are in host memory; host copies "
        "run in the array templates' element loops");
  }
  if (!dst.host && !src.host && dst.device_id == src.device_id) {
    gpu_copy_components(dst, src, n);
    return;
  }
  if (!dst.host) {
    // The source is in host memory, or on another GPU, whose memory a kernel on the destination's
    // device may not read (memory pools are not shared with peers): its bytes go to the
    // destination's device as they are (an upload, or a peer copy), then convert there.
    const span_ranges r = ranges_of(src, n);
    const device_scratch packed(r.total, dst.device_id);
    for (std::size_t k = 0; k < r.first.size(); ++k) {
      copy_bytes(packed.get() + r.offset[k], false, reinterpret_cast<const void*>(r.first[k]),
                 src.host, r.size[k]);
    }
    const auto bases = relocated(src, r, packed.get());
    component_span staged = src;
    staged.base = bases.data();
    staged.host = false;
    staged.device_id = dst.device_id;
    gpu_copy_components(dst, staged, n);
    return;
  }
  // Convert on the device into the destination's layout, then download its bytes. The ranges are
  // exactly the destination's components: tack's vector and matrix elements are packed scalars.
  const span_ranges r = ranges_of(dst, n);
  const device_scratch packed(r.total, src.device_id);
  const auto bases = relocated(dst, r, packed.get());
  component_span staged = dst;
  staged.base = bases.data();
  staged.host = false;
  staged.device_id = src.device_id;
  gpu_copy_components(staged, src, n);
  for (std::size_t k = 0; k < r.first.size(); ++k) {
    copy_bytes(reinterpret_cast<void*>(r.first[k]), true, packed.get() + r.offset[k], false,
               r.size[k]);
  }
}

}  // namespace tack::detail
