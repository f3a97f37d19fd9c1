// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
// The exactly rounded global sum (tack::mpi::sum, dot and mean of a grid_array).
//
// A finite double is m * 2^e with an integer m < 2^53 and e >= -1074; the product of two is an
// integer below 2^106 times 2^e, e >= -2148. Each rank first adds the signed integer mantissas of
// its terms per exponent into 128-bit bins (a product in two halves of at most 53 bits): exact,
// and one integer add per value. The bins are then folded into an accumulator that holds the
// exact sum as a fixed-point integer in 32-bit digits stored in 64-bit signed words: digit k
// weighs 2^(32 k - 2176), and 140 digits reach past 2^2111 (2^63 products of the largest
// doubles). A bin adds its 32-bit pieces to (or subtracts them from) at most six digits, so a
// digit moves by less than 2^33 per addition; carries are propagated every 2^29 additions, long
// before a word could overflow. Accumulators add digit by digit, exactly, in any order: the
// ranks' are added by MPI_Allreduce(MPI_SUM) of 64-bit integers. The total is rounded once to the
// nearest float or double (ties to even, gradual underflow, overflow to infinity).

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <tack/exec/parallel_for.hpp>
#include <tack/exec/threads.hpp>
#include <tack/memory/device.hpp>
#include <tack/mpi/detail/exact_sum.hpp>
#include <tack/mpi/detail/transport.hpp>
#include <type_traits>
#include <vector>

namespace tack::mpi::detail {
namespace {

__extension__ typedef unsigned __int128 u128;
__extension__ typedef __int128 i128;

constexpr int n_digits = 140;
constexpr int low_exponent = -2176;  // the weight of digit 0's lowest bit
constexpr std::int64_t digit_mask = 0xffffffffll;
constexpr std::int64_t normalize_every = std::int64_t{1} << 29;

struct accumulator {
  std::int64_t digit[n_digits] = {};
  std::int64_t nan = 0, pos_inf = 0, neg_inf = 0;  // (these three travel with the digits)
  std::int64_t terms = 0;

  /// Adds (or subtracts) `m * 2^e`.
  void add(u128 m, int e, bool negative) {
    if (m == 0) return;
    const int pos = e - low_exponent;
    const int k = pos >> 5, sh = pos & 31;
    const std::uint64_t parts[2] = {static_cast<std::uint64_t>(m),
                                    static_cast<std::uint64_t>(m >> 64)};
    for (int h = 0; h < 2; ++h) {
      if (parts[h] == 0) continue;
      const u128 v = static_cast<u128>(parts[h]) << sh;
      const int base = k + 2 * h;
      const auto d0 = static_cast<std::int64_t>(static_cast<std::uint64_t>(v) & 0xffffffffu);
      const auto d1 = static_cast<std::int64_t>(static_cast<std::uint64_t>(v >> 32) & 0xffffffffu);
      const auto d2 = static_cast<std::int64_t>(static_cast<std::uint64_t>(v >> 64));
      if (negative) {
        digit[base] -= d0;
        digit[base + 1] -= d1;
        digit[base + 2] -= d2;
      } else {
        digit[base] += d0;
        digit[base + 1] += d1;
        digit[base + 2] += d2;
      }
    }
    if (++terms == normalize_every) normalize();
  }

  /// Carries: every digit but the last in [0, 2^32); the last keeps the sign.
  void normalize() {
    for (int k = 0; k + 1 < n_digits; ++k) {
      const std::int64_t c = digit[k] >> 32;  // floor division by 2^32
      digit[k] -= c * (digit_mask + 1);
      digit[k + 1] += c;
    }
    terms = 0;
  }

  void merge(const accumulator& o) {
    for (int k = 0; k < n_digits; ++k) digit[k] += o.digit[k];
    nan += o.nan;
    pos_inf += o.pos_inf;
    neg_inf += o.neg_inf;
  }
};

/// Exact partial sums per binary exponent, the fast first stage: bin `e + bias` holds the sum of
/// the signed integer mantissas of the terms `m * 2^e` added so far. Mantissas are below 2^64
/// (doubles' below 2^53; a product's 106 bits go in as two halves), so a 128-bit bin cannot
/// overflow before 2^63 terms. `fold` adds the bins into an accumulator.
struct bins {
  static constexpr int bias = 2148;  // the lowest exponent: a product of two subnormals
  static constexpr int size = 4200;  // past 1942 + 53, the highest product half
  i128 v[size];
  std::int64_t nan = 0, pos_inf = 0, neg_inf = 0;

  bins() { std::memset(v, 0, sizeof v); }
  void put(std::uint64_t m, int e, bool negative) {
    const auto t = static_cast<i128>(m);
    v[e + bias] += negative ? -t : t;
  }
  void fold(accumulator& acc) const {
    for (int i = 0; i < size; ++i) {
      if (v[i] == 0) continue;
      const bool negative = v[i] < 0;
      const u128 mag =
          negative ? static_cast<u128>(0) - static_cast<u128>(v[i]) : static_cast<u128>(v[i]);
      acc.add(mag, i - bias, negative);
    }
    acc.nan += nan;
    acc.pos_inf += pos_inf;
    acc.neg_inf += neg_inf;
  }
};

/// `x` as sign, integer mantissa and exponent; false for infinities and NaNs (counted in `b`).
bool split(double x, bins& b, std::uint64_t& m, int& e, bool& negative) {
  std::uint64_t bits;
  std::memcpy(&bits, &x, sizeof bits);
  negative = (bits >> 63) != 0;
  const int field = static_cast<int>((bits >> 52) & 0x7ff);
  m = bits & ((std::uint64_t{1} << 52) - 1);
  if (field == 0x7ff) {
    if (m != 0)
      ++b.nan;
    else if (negative)
      ++b.neg_inf;
    else
      ++b.pos_inf;
    return false;
  }
  if (field == 0) {
    e = -1074;
  } else {
    m |= std::uint64_t{1} << 52;
    e = field - 1075;
  }
  return true;
}

template <class S>
void add_value(bins& b, S x) {
  if constexpr (std::is_floating_point_v<S>) {
    std::uint64_t m;
    int e;
    bool neg;
    if (split(static_cast<double>(x), b, m, e, neg)) b.put(m, e, neg);
  } else if constexpr (std::is_same_v<S, bool>) {
    b.put(x ? 1 : 0, 0, false);
  } else if constexpr (std::is_signed_v<S>) {
    const auto v = static_cast<std::int64_t>(x);
    // |INT64_MIN| as an unsigned value without overflow.
    b.put(v < 0 ? ~static_cast<std::uint64_t>(v) + 1 : static_cast<std::uint64_t>(v), 0, v < 0);
  } else {
    b.put(static_cast<std::uint64_t>(x), 0, false);
  }
}

template <class S>
void add_product(bins& b, S x, S y) {
  if constexpr (std::is_same_v<S, float>) {
    // The product of two floats is exact in double (48 bits, within double's range).
    add_value(b, static_cast<double>(x) * static_cast<double>(y));
  } else {
    std::uint64_t mx = 0, my = 0;
    int ex = 0, ey = 0;
    bool nx = false, ny = false;
    const double dx = static_cast<double>(x), dy = static_cast<double>(y);
    std::uint64_t bits_x, bits_y;
    std::memcpy(&bits_x, &dx, sizeof bits_x);
    std::memcpy(&bits_y, &dy, sizeof bits_y);
    if (((bits_x >> 52) & 0x7ff) == 0x7ff || ((bits_y >> 52) & 0x7ff) == 0x7ff) {
      add_value(b, dx * dy);  // inf * finite, inf * 0 (NaN), NaN * anything: IEEE's product
      return;
    }
    split(dx, b, mx, ex, nx);
    split(dy, b, my, ey, ny);
    const u128 p = static_cast<u128>(mx) * my;
    b.put(static_cast<std::uint64_t>(p >> 53), ex + ey + 53, nx != ny);
    b.put(static_cast<std::uint64_t>(p & ((u128{1} << 53) - 1)), ex + ey, nx != ny);
  }
}

/// The highest set bit of the (normalized, non-negative) digits, or -1.
int top_bit(const accumulator& a) {
  for (int k = n_digits - 1; k >= 0; --k) {
    if (a.digit[k] != 0)
      return 32 * k + 63 - std::countl_zero(static_cast<std::uint64_t>(a.digit[k]));
  }
  return -1;
}

bool bit(const accumulator& a, int i) { return ((a.digit[i >> 5] >> (i & 31)) & 1) != 0; }

bool any_below(const accumulator& a, int i) {
  if (i <= 0) return false;
  for (int k = 0; k < (i >> 5); ++k) {
    if (a.digit[k] != 0) return true;
  }
  return (a.digit[i >> 5] & ((std::int64_t{1} << (i & 31)) - 1)) != 0;
}

/// The total rounded to nearest `R` (ties to even).
template <class R>
R round_total(accumulator a) {
  if (a.nan > 0 || (a.pos_inf > 0 && a.neg_inf > 0)) return std::numeric_limits<R>::quiet_NaN();
  if (a.pos_inf > 0) return std::numeric_limits<R>::infinity();
  if (a.neg_inf > 0) return -std::numeric_limits<R>::infinity();
  a.normalize();
  const bool negative = a.digit[n_digits - 1] < 0;
  if (negative) {
    for (auto& d : a.digit) d = -d;
    a.normalize();
  }
  const int top = top_bit(a);
  if (top < 0) return R(0);
  constexpr int precision = std::numeric_limits<R>::digits;                 // 24 or 53
  constexpr int lowest = std::numeric_limits<R>::min_exponent - precision;  // -149 or -1074
  int low = top - precision + 1;
  if (low + low_exponent < lowest) low = lowest - low_exponent;
  std::uint64_t m = 0;
  for (int i = top; i >= low; --i) m = (m << 1) | (bit(a, i) ? 1u : 0u);
  const bool half = low > 0 && bit(a, low - 1);
  if (half && ((m & 1) != 0 || any_below(a, low - 1))) ++m;
  const double v = std::ldexp(static_cast<double>(m), low + low_exponent);  // exact, or inf
  R r;
  if constexpr (std::is_same_v<R, float>) {
    r = v > static_cast<double>(std::numeric_limits<float>::max())
            ? std::numeric_limits<float>::infinity()
            : static_cast<float>(v);
  } else {
    r = v;
  }
  return negative ? -r : r;
}

}  // namespace

template <class R, class S>
R exact_sum(const communicator& c, const S* a, const S* b, const scalar_runs& runs,
            const char* what) {
  static_assert(std::is_same_v<R, float> || std::is_same_v<R, double>);
  if constexpr (!std::is_floating_point_v<S>) {
    if (b) throw std::logic_error("tack::mpi::exact_sum: products of integers are not summed here");
  }
  // Bins per chunk of planes (chunks run in parallel), folded into one accumulator afterwards.
  const index_t planes = (runs.run > 0 && runs.n1 > 0) ? runs.n0 : 0;
  const index_t chunks = std::min<index_t>(planes, 2 * static_cast<index_t>(tack::num_threads()));
  std::vector<bins> part(static_cast<std::size_t>(chunks));
  if (chunks > 0) {
    bins* out = part.data();
    tack::parallel_for(tack::cpu(), chunks, [=](index_t c) {
      bins& x = out[c];
      for (index_t i = c * planes / chunks; i < (c + 1) * planes / chunks; ++i) {
        for (index_t j = 0; j < runs.n1; ++j) {
          const index_t start = i * runs.s0 + j * runs.s1;
          if (b) {
            if constexpr (std::is_floating_point_v<S>) {
              for (index_t k = 0; k < runs.run; ++k) add_product(x, a[start + k], b[start + k]);
            }
          } else {
            for (index_t k = 0; k < runs.run; ++k) add_value(x, a[start + k]);
          }
        }
      }
    });
  }
  std::vector<accumulator> acc(1);
  for (const bins& x : part) x.fold(acc[0]);
  acc[0].normalize();
  constexpr int words = n_digits + 3;
  std::int64_t mine[words], all[words];
  std::memcpy(mine, acc[0].digit, sizeof acc[0].digit);
  mine[n_digits] = acc[0].nan;
  mine[n_digits + 1] = acc[0].pos_inf;
  mine[n_digits + 2] = acc[0].neg_inf;
  allreduce(c, mine, all, words, scalar_kind::i64, reduce_op::sum, what);
  accumulator total;
  std::memcpy(total.digit, all, sizeof total.digit);
  total.nan = all[n_digits];
  total.pos_inf = all[n_digits + 1];
  total.neg_inf = all[n_digits + 2];
  return round_total<R>(total);
}

#define TACK_IMPL_EXACT_SUM(R, S)                                                         \
  template R exact_sum<R, S>(const communicator&, const S*, const S*, const scalar_runs&, \
                             const char*);
TACK_IMPL_EXACT_SUM(float, float)
TACK_IMPL_EXACT_SUM(double, double)
TACK_IMPL_EXACT_SUM(double, std::int8_t)
TACK_IMPL_EXACT_SUM(double, std::int16_t)
TACK_IMPL_EXACT_SUM(double, std::int32_t)
TACK_IMPL_EXACT_SUM(double, std::int64_t)
TACK_IMPL_EXACT_SUM(double, std::uint8_t)
TACK_IMPL_EXACT_SUM(double, std::uint16_t)
TACK_IMPL_EXACT_SUM(double, std::uint32_t)
TACK_IMPL_EXACT_SUM(double, std::uint64_t)
TACK_IMPL_EXACT_SUM(double, bool)
#undef TACK_IMPL_EXACT_SUM

}  // namespace tack::mpi::detail
