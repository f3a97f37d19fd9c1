// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
#pragma once
/// @file The host's sort of scalar keys: a least-significant-digit radix sort, one byte per pass,
/// split over the OpenMP threads (`detail::radix_sort_host`).

#include <tack/core/index.hpp>
#include <tack/exec/backend.hpp>
#include <tack/exec/backend/all.hpp>
#include <tack/exec/parallel_for.hpp>
#include <tack/exec/threads.hpp>

#include <algorithm>
#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <vector>

namespace tack::detail {

/// Whether `radix_sort_host` sorts `T`: integers and floating-point scalars up to 8 bytes, not
/// `bool` (two values: the comparison sort is as fast).
template <class T>
inline constexpr bool radix_sortable_v =
    std::is_arithmetic_v<T> && !std::is_same_v<T, bool> && sizeof(T) <= 8 &&
    (sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4 || sizeof(T) == 8);

/// Elements below which `std::sort` beats the radix sort's passes over all 256 buckets.
inline constexpr index_t radix_sort_threshold = 1 << 12;

/// The unsigned integer of `T`'s size.
template <class T>
using radix_bits_t = std::conditional_t<
    sizeof(T) == 1, std::uint8_t,
    std::conditional_t<sizeof(T) == 2, std::uint16_t,
                       std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>>>;

/// The key whose unsigned order is `T`'s ascending order: integers with the sign bit flipped when
/// signed; floating point with the sign bit set for non-negatives and every bit flipped for
/// negatives (so -0 comes just before +0). NaNs are not ordered: the caller moves them out first.
/// `radix_key(-1.0f) < radix_key(0.0f)`
template <class T>
inline radix_bits_t<T> radix_key(T x) noexcept {
  using U = radix_bits_t<T>;
  constexpr U sign = U(U(1) << (8 * sizeof(T) - 1));
  const U u = std::bit_cast<U>(x);
  if constexpr (std::is_floating_point_v<T>) {
    return (u & sign) ? U(~u) : U(u | sign);
  } else if constexpr (std::is_signed_v<T>) {
    return U(u ^ sign);
  } else {
    return u;
  }
}

/// Sorts `data[0, n)` ascending (no NaNs), stably, with `scratch` (room for `n` elements) as the
/// other buffer: per byte of the key, from the least significant, each thread counts the digits of
/// its fixed share of the elements, the counts of all threads give every (digit, thread) pair its
/// place, and each thread moves its share there in order. A byte that every element has alike is
/// skipped. The result is the same for every thread count.
/// `radix_sort_host(p, n, tmp);`
template <class T>
void radix_sort_host(T* data, index_t n, T* scratch) {
  static_assert(radix_sortable_v<T>, "radix_sort_host: integers and floating point only");
  constexpr int digits = 256;
  int threads = 1;
  if constexpr (backend_available_v<openmp_backend>) {
    threads = static_cast<int>(std::clamp<index_t>(n / (radix_sort_threshold * 4), 1,
                                                   static_cast<index_t>(num_threads())));
  }
  const auto share_begin = [&](index_t t) { return t * (n / threads) + std::min(t, n % threads); };
  std::vector<std::array<index_t, digits>> counts(static_cast<std::size_t>(threads));
  const auto for_each_share = [&](const auto& body) {
    if constexpr (backend_available_v<openmp_backend>) {
      if (threads > 1) {
        tack::parallel_for(openmp_backend{}, index_t(threads), body);
        return;
      }
    }
    body(index_t(0));
  };

  T* src = data;
  T* dst = scratch;
  for (int byte = 0; byte < static_cast<int>(sizeof(T)); ++byte) {
    const int shift = 8 * byte;
    for_each_share([&](index_t t) {
      auto& c = counts[static_cast<std::size_t>(t)];
      c.fill(0);
      const index_t end = share_begin(t + 1);
      for (index_t i = share_begin(t); i < end; ++i) ++c[(radix_key(src[i]) >> shift) & 0xff];
    });
    // Exclusive offsets, digit-major then thread: a thread's elements of one digit land after
    // those of the threads before it, so the pass is stable.
    index_t offset = 0;
    bool one_digit = false;
    for (int d = 0; d < digits; ++d) {
      index_t total = 0;
      for (auto& c : counts) {
        const index_t k = c[static_cast<std::size_t>(d)];
        c[static_cast<std::size_t>(d)] = offset + total;
        total += k;
      }
      if (total == n) one_digit = true;
      offset += total;
    }
    if (one_digit) continue;  // every element has this byte alike: the order stands
    for_each_share([&](index_t t) {
      auto& c = counts[static_cast<std::size_t>(t)];
      const index_t end = share_begin(t + 1);
      for (index_t i = share_begin(t); i < end; ++i) {
        const T x = src[i];
        dst[c[(radix_key(x) >> shift) & 0xff]++] = x;
      }
    });
    std::swap(src, dst);
  }
  if (src != data) {
    for_each_share([&](index_t t) {
      const index_t b = share_begin(t), e = share_begin(t + 1);
      std::memcpy(data + b, src + b, static_cast<std::size_t>(e - b) * sizeof(T));
    });
  }
}

}  // namespace tack::detail
