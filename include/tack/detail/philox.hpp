// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
#pragma once
/// @file Philox-4x32-10, the counter-based generator of Salmon, Moraes, Dror and Shaw ("Parallel
/// random numbers: as easy as 1, 2, 3", SC 2011), written from the paper's description. A pure
/// function of a 128-bit counter and a 64-bit key: `tack::arrays::random_*` use the element index
/// as the counter and the seed as the key, so element `i` is the same on every device, thread
/// count and evaluation order. Integer arithmetic only: results are bit-identical everywhere.

#include <tack/core/macros.hpp>

#include <cstdint>

namespace tack::detail {

/// Four 32-bit words: a Philox counter or output block.
struct philox4x32_block {
  std::uint32_t v[4];
};

/// The 32×32 → 64-bit product split into its high and low words.
TACK_FORCEINLINE constexpr void philox_mulhilo(std::uint32_t a, std::uint32_t b, std::uint32_t& hi,
                                               std::uint32_t& lo) {
  const std::uint64_t p = static_cast<std::uint64_t>(a) * static_cast<std::uint64_t>(b);
  hi = static_cast<std::uint32_t>(p >> 32);
  lo = static_cast<std::uint32_t>(p);
}

/// Philox-4x32 with `Rounds` rounds (10 is the standard, "Crush-resistant" choice) of `counter`
/// under `key0, key1`. `auto out = tack::detail::philox4x32<10>({{i, 0, 0, 0}}, seed_lo, seed_hi);`
template <int Rounds = 10>
TACK_FORCEINLINE constexpr philox4x32_block philox4x32(philox4x32_block counter, std::uint32_t key0,
                                                       std::uint32_t key1) {
  // Multipliers and Weyl key increments from the paper (the golden ratio and sqrt(3) - 1).
  constexpr std::uint32_t m0 = 0xD2511F53u;
  constexpr std::uint32_t m1 = 0xCD9E8D57u;
  constexpr std::uint32_t w0 = 0x9E3779B9u;
  constexpr std::uint32_t w1 = 0xBB67AE85u;
  std::uint32_t c0 = counter.v[0], c1 = counter.v[1], c2 = counter.v[2], c3 = counter.v[3];
  for (int round = 0; round < Rounds; ++round) {
    if (round > 0) {
      key0 += w0;
      key1 += w1;
    }
    std::uint32_t hi0, lo0, hi1, lo1;
    philox_mulhilo(m0, c0, hi0, lo0);
    philox_mulhilo(m1, c2, hi1, lo1);
    const std::uint32_t n0 = hi1 ^ c1 ^ key0;
    const std::uint32_t n2 = hi0 ^ c3 ^ key1;
    c0 = n0;
    c1 = lo1;
    c2 = n2;
    c3 = lo0;
  }
  return philox4x32_block{{c0, c1, c2, c3}};
}

/// The block for element `index` of the stream `seed`: counter `{index_lo, index_hi, 0, 0}`, key
/// `{seed_lo, seed_hi}`.
TACK_FORCEINLINE constexpr philox4x32_block philox_for_index(std::uint64_t seed,
                                                             std::uint64_t index) {
  return philox4x32<10>(philox4x32_block{{static_cast<std::uint32_t>(index),
                                          static_cast<std::uint32_t>(index >> 32), 0u, 0u}},
                        static_cast<std::uint32_t>(seed), static_cast<std::uint32_t>(seed >> 32));
}

}  // namespace tack::detail
