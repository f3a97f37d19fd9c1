// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
// Reductions of tack::mpi::grid_array: sums, dot products and means of floating-point values are
// the correctly rounded exact results, checked bit for bit against an independent integer
// reference (values m * 2^e whose exact sum fits a 128-bit integer) for several grids and
// decompositions, so every rank count gives the one-rank bits; integer sums, min and max; NaN,
// infinities, overflow and cancellation; refusals on every rank.

#include "common/tack_test.hpp"
#include "mpi/mpi_test_main.hpp"

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <tack/mpi/all.hpp>
#include <tack/tack.hpp>

using tack::index_t;
using tack::mpi::communicator;

namespace {

__extension__ typedef __int128 i128;

std::uint64_t mix(std::uint64_t z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

/// Value `i` as an integer mantissa below 2^bits (signed) and an exponent in [-span, span].
struct term {
  std::int64_t m;
  int e;
};
term term_at(std::int64_t i, int bits, int span, std::uint64_t seed) {
  const std::uint64_t z = mix(static_cast<std::uint64_t>(i) * 0x9e3779b97f4a7c15ull + seed);
  const auto m = static_cast<std::int64_t>(z >> (64 - bits)) * ((z & 1) ? -1 : 1);
  const int e = static_cast<int>((z >> 8) % static_cast<std::uint64_t>(2 * span + 1)) - span;
  return {m, e};
}

template <class S>
S value_of(const term& t) {
  return static_cast<S>(std::ldexp(static_cast<double>(t.m), t.e));
}

template <class T>
bool same_bits(T a, T b) {
  return std::memcmp(&a, &b, sizeof(T)) == 0;
}

/// Fills every owned cell of `u` (ghost cells: NaN, which no reduction may read) with
/// `f(global scalar index)`.
template <class T, class F>
void fill(const tack::mpi::grid_array<T>& u, F f) {
  using S = tack::scalar_t<T>;
  const auto& g = u.layout();
  auto b = u.with_ghosts();
  const index_t gh = g.ghosts();
  const auto l = g.local_extents(), off = g.local_offset(), ext = g.global_extents();
  auto* p = reinterpret_cast<S*>(b.data());
  const index_t c = tack::components_v<T>;
  for (index_t i = 0; i < b.extent(0); ++i)
    for (index_t j = 0; j < b.extent(1); ++j)
      for (index_t k = 0; k < b.extent(2); ++k) {
        const bool owned =
            i >= gh && j >= gh && k >= gh && i < gh + l[0] && j < gh + l[1] && k < gh + l[2];
        const index_t cell =
            ((off[0] + i - gh) * ext[1] + (off[1] + j - gh)) * ext[2] + (off[2] + k - gh);
        for (index_t q = 0; q < c; ++q) {
          S v;
          if constexpr (std::is_floating_point_v<S>) {
            v = owned ? f(cell * c + q) : std::numeric_limits<S>::quiet_NaN();
          } else {
            v = owned ? f(cell * c + q) : S(99);
          }
          p[((i * b.extent(1) + j) * b.extent(2) + k) * c + q] = v;
        }
      }
}

struct grid_case {
  std::array<index_t, 3> extents;
  index_t ghosts;
  std::array<int, 3> dims;
};

/// Grids whose blocks cut the global index space differently on 1, 2 and 4 ranks.
std::vector<grid_case> grid_cases(int ranks) {
  std::vector<grid_case> out{{{9, 7, 5}, 1, {0, 0, 0}}, {{6, 11, 13}, 2, {0, 0, 0}}};
  out.push_back({{8, 8, 9}, 1, {1, 1, ranks}});
  out.push_back({{10, 5, 6}, 0, {1, ranks, 1}});
  return out;
}

}  // namespace

TEST(GridReduce, SumsAreCorrectlyRoundedOnEveryDecomposition) {
  auto w = communicator::world();
  for (const auto& gc : grid_cases(w.size())) {
    tack::mpi::grid g(w, gc.extents, {.ghosts = gc.ghosts, .dims = gc.dims});
    const index_t n = gc.extents[0] * gc.extents[1] * gc.extents[2];
    // double: mantissas below 2^30, exponents in [-20, 20]; the exact sum times 2^20 is an integer.
    {
      tack::mpi::grid_array<double> u(g);
      fill(u, [](index_t i) { return value_of<double>(term_at(i, 30, 20, 1)); });
      i128 exact = 0;
      double naive = 0;
      for (index_t i = 0; i < n; ++i) {
        const term t = term_at(i, 30, 20, 1);
        exact += static_cast<i128>(t.m) << (t.e + 20);
        naive += value_of<double>(t);
      }
      const double want =
          std::ldexp(static_cast<double>(exact), -20);  // int128 -> double rounds to nearest
      const double got = tack::mpi::sum(u);
      EXPECT_TRUE(same_bits(got, want))
          << g.describe() << ": " << got << " vs " << want << " (naive " << naive << ")";
      const double m = tack::mpi::mean(u);
      EXPECT_TRUE(same_bits(m, want / static_cast<double>(n))) << g.describe();
    }
    // float vec3: mantissas below 2^20, exponents in [-10, 10].
    {
      tack::mpi::grid_array<tack::vec3f> u(g);
      fill(u, [](index_t i) { return value_of<float>(term_at(i, 20, 10, 2)); });
      i128 exact = 0;
      for (index_t i = 0; i < 3 * n; ++i) {
        const term t = term_at(i, 20, 10, 2);
        exact += static_cast<i128>(t.m) << (t.e + 10);
      }
      const float want = std::ldexp(static_cast<float>(exact), -10);
      const float got = tack::mpi::sum(u);
      EXPECT_TRUE(same_bits(got, want)) << g.describe() << ": " << got << " vs " << want;
    }
  }
}

TEST(GridReduce, DotIsTheExactSumOfExactProducts) {
  auto w = communicator::world();
  for (const auto& gc : grid_cases(w.size())) {
    tack::mpi::grid g(w, gc.extents, {.ghosts = gc.ghosts, .dims = gc.dims});
    tack::mpi::grid_array<double> a(g), b(g);
    // 40-bit mantissas: the products (80 bits) are not exact in double arithmetic.
    fill(a, [](index_t i) { return value_of<double>(term_at(i, 40, 8, 3)); });
    fill(b, [](index_t i) { return value_of<double>(term_at(i, 40, 8, 4)); });
    const index_t n = gc.extents[0] * gc.extents[1] * gc.extents[2];
    i128 exact = 0;
    for (index_t i = 0; i < n; ++i) {
      const term x = term_at(i, 40, 8, 3), y = term_at(i, 40, 8, 4);
      exact += (static_cast<i128>(x.m) * y.m) << (x.e + y.e + 16);
    }
    const double want = std::ldexp(static_cast<double>(exact), -16);
    const double got = tack::mpi::dot(a, b);
    EXPECT_TRUE(same_bits(got, want)) << g.describe() << ": " << got << " vs " << want;
  }
}

TEST(GridReduce, IntegersMinMax) {
  auto w = communicator::world();
  tack::mpi::grid g(w, {7, 6, 5}, {.ghosts = 1});
  const index_t n = 7 * 6 * 5;
  tack::mpi::grid_array<std::int32_t> u(g);
  // Large values: the int32 sum wraps as int32 does.
  auto v = [](index_t i) {
    return static_cast<std::int32_t>(mix(static_cast<std::uint64_t>(i)) >> 33) - (1 << 29);
  };
  fill(u, v);
  std::uint32_t wrapped = 0;
  std::int64_t exact = 0;
  std::int32_t lo = std::numeric_limits<std::int32_t>::max(),
               hi = std::numeric_limits<std::int32_t>::min();
  for (index_t i = 0; i < n; ++i) {
    wrapped += static_cast<std::uint32_t>(v(i));
    exact += v(i);
    lo = std::min(lo, v(i));
    hi = std::max(hi, v(i));
  }
  EXPECT_EQ(tack::mpi::sum(u), static_cast<std::int32_t>(wrapped));
  EXPECT_TRUE(same_bits(tack::mpi::mean(u), static_cast<double>(exact) / static_cast<double>(n)));
  EXPECT_EQ(tack::mpi::min(u), lo);
  EXPECT_EQ(tack::mpi::max(u), hi);
  tack::mpi::grid_array<std::int64_t> a(g), b(g);
  fill(a, [](index_t i) { return static_cast<std::int64_t>(i) - 50; });
  fill(b, [](index_t i) { return static_cast<std::int64_t>(i % 7); });
  std::int64_t d = 0;
  for (index_t i = 0; i < n; ++i) d += (i - 50) * (i % 7);
  EXPECT_EQ(tack::mpi::dot(a, b), d);
  tack::mpi::grid_array<double> x(g);
  fill(x, [](index_t i) {
    return std::ldexp(static_cast<double>(i % 13) - 6.5, static_cast<int>(i % 5));
  });
  double xlo = 1e300, xhi = -1e300;
  for (index_t i = 0; i < n; ++i) {
    const double t = std::ldexp(static_cast<double>(i % 13) - 6.5, static_cast<int>(i % 5));
    xlo = std::min(xlo, t);
    xhi = std::max(xhi, t);
  }
  EXPECT_EQ(tack::mpi::min(x), xlo);
  EXPECT_EQ(tack::mpi::max(x), xhi);
}

TEST(GridReduce, CancellationOverflowInfinitiesNaN) {
  auto w = communicator::world();
  tack::mpi::grid g(w, {8, 4, 4}, {.ghosts = 1});
  const index_t n = 8 * 4 * 4;
  tack::mpi::grid_array<double> u(g);
  // 1e300, then ones, then -1e300 (on another rank when there are several): exactly n - 2.
  fill(u, [n](index_t i) { return i == 0 ? 1e300 : (i == n - 1 ? -1e300 : 1.0); });
  EXPECT_EQ(tack::mpi::sum(u), static_cast<double>(n - 2));
  // The smallest subnormal, n times: exact.
  fill(u, [](index_t) { return std::numeric_limits<double>::denorm_min(); });
  EXPECT_EQ(tack::mpi::sum(u), static_cast<double>(n) * std::numeric_limits<double>::denorm_min());
  // Overflow rounds to infinity; an exact zero is +0.
  fill(u, [](index_t) { return std::numeric_limits<double>::max(); });
  EXPECT_EQ(tack::mpi::sum(u), std::numeric_limits<double>::infinity());
  fill(u, [n](index_t i) { return i < n / 2 ? -1.5 : 1.5; });
  EXPECT_TRUE(same_bits(tack::mpi::sum(u), 0.0));
  fill(u, [n](index_t i) { return i == n - 1 ? std::numeric_limits<double>::infinity() : 1.0; });
  EXPECT_EQ(tack::mpi::sum(u), std::numeric_limits<double>::infinity());
  fill(u, [n](index_t i) {
    return i == 0 ? -std::numeric_limits<double>::infinity()
                  : (i == n - 1 ? std::numeric_limits<double>::infinity() : 1.0);
  });
  EXPECT_TRUE(std::isnan(tack::mpi::sum(u)));
  fill(u, [](index_t i) { return i == 77 ? std::numeric_limits<double>::quiet_NaN() : 1.0; });
  EXPECT_TRUE(std::isnan(tack::mpi::sum(u)));
  EXPECT_TRUE(std::isnan(tack::mpi::dot(u, u)));
  // float: 1 and 127 times 2^-25 is 1 + 31.75 * 2^-23, which rounds once to 1 + 32 * 2^-23 (adding
  // in float arithmetic, left to right, gives 1).
  tack::mpi::grid_array<float> f(g);
  fill(f, [](index_t i) { return i == 0 ? 1.0f : std::ldexp(1.0f, -25); });
  EXPECT_TRUE(same_bits(tack::mpi::sum(f), 1.0f + std::ldexp(1.0f, -18)));
}

TEST(GridReduce, RefusalsAreCollective) {
  auto w = communicator::world();
  tack::mpi::grid g1(w, {6, 6, 6}), g2(w, {6, 6, 7});
  tack::mpi::grid_array<double> a(g1), b(g2);
  tack::mpi::grid_array<float> c(g1);
  EXPECT_THROW_MSG(tack::mpi::dot(a, b), tack::value_error, "tack::mpi::dot", "different grids");
  if (w.size() > 1) {
    // Rank 0 reduces another element type on the same grid (one communicator): every rank throws.
    auto other = [&](auto op) {
      return w.rank() == 0 ? static_cast<double>(op(a)) : static_cast<double>(op(c));
    };
    EXPECT_THROW_MSG(other([](const auto& x) { return tack::mpi::sum(x); }), tack::value_error,
                     "tack::mpi::sum", "disagree", "grid_array<f32>");
    EXPECT_THROW_MSG(other([](const auto& x) { return tack::mpi::max(x); }), tack::value_error,
                     "tack::mpi::max", "disagree");
    EXPECT_THROW_MSG(other([](const auto& x) { return tack::mpi::mean(x); }), tack::value_error,
                     "tack::mpi::mean", "disagree");
    // Arrays of different grids (different Cartesian communicators): the checks meet on the
    // communicator the grids were made on, so every rank refuses instead of waiting.
    EXPECT_THROW_MSG(tack::mpi::sum(w.rank() == 0 ? a : b), tack::value_error, "tack::mpi::sum",
                     "disagree", "(6, 6, 7)");
    EXPECT_THROW_MSG(tack::mpi::exchange_ghosts(w.rank() == 0 ? a : b), tack::value_error,
                     "tack::mpi::exchange_ghosts", "disagree");
  }
  EXPECT_EQ(tack::mpi::sum(a), 0.0);
}

TACK_MPI_TEST_MAIN
