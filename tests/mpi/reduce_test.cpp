// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
// Global reductions: floating-point sums, dots and means bit-identical to the one-rank result and
// to an independent serial reference of the fixed tree, for block and random partitions and after
// redistribution; exact integer sums, min and max; empty arrays.

#include "common/tack_test.hpp"
#include "mpi/common.hpp"
#include "mpi/mpi_test_main.hpp"

#include <tack/mpi/all.hpp>
#include <tack/tack.hpp>

#include <bit>
#include <cmath>

using tack::index_t;
using tack::mpi::communicator;
using tack::mpi::distributed_array;
using tack_mpi_test::value_at;

namespace {

template <class T, int R>
void fill(const distributed_array<T, R>& a, std::uint64_t seed) {
  using S = tack::scalar_t<T>;
  auto l = a.local();
  const index_t per_row =
      l.extent(0) ? static_cast<index_t>(l.size() / l.extent(0)) * tack::components_v<T> : 0;
  S* p = l.size() ? reinterpret_cast<S*>(l.data()) : nullptr;
  for (index_t i = 0; i < l.extent(0) * per_row; ++i) {
    p[i] = static_cast<S>(value_at(a.first_row() * per_row + i, seed));
  }
}

template <class V>
std::uint64_t bits(V v) {
  if constexpr (sizeof(V) == 4)
    return std::bit_cast<std::uint32_t>(v);
  else
    return std::bit_cast<std::uint64_t>(v);
}

}  // namespace

template <class T>
class OrderedSum : public ::testing::Test {};
using Floats = ::testing::Types<double, float, tack::vec3f>;
TYPED_TEST_SUITE(OrderedSum, Floats);

TYPED_TEST(OrderedSum, BitIdenticalForEveryPartition) {
  using T = TypeParam;
  using S = tack::scalar_t<T>;
  auto w = communicator::world();
  const int n = w.size();
  auto self = w.split(w.rank(), 0);  // one rank: the one-rank run, in this process
  for (index_t rows : {1, 2, 5, 8, 1000, 4099, 20000}) {
    constexpr index_t cols = 3;
    const index_t per_row = cols * tack::components_v<T>;
    auto ref_get = [&](std::int64_t i) { return static_cast<S>(static_cast<S>(value_at(i, 3))); };
    auto ref_dot = [&](std::int64_t i) {
      return static_cast<S>(static_cast<S>(value_at(i, 3)) * static_cast<S>(value_at(i, 4)));
    };
    const S ref = tack_mpi_test::reference_sum<S>(ref_get, rows * per_row);
    const S ref_d = tack_mpi_test::reference_sum<S>(ref_dot, rows * per_row);

    distributed_array<T, 2> one(self, {rows, cols});
    fill(one, 3);
    const S s1 = tack::mpi::sum(one);
    EXPECT_EQ(bits(s1), bits(ref)) << "rows " << rows << ": " << s1 << " vs reference " << ref;
    // The tree is a sum: close to the exact one.
    long double exact = 0;
    for (index_t i = 0; i < rows * per_row; ++i) exact += static_cast<S>(value_at(i, 3));
    EXPECT_NEAR(static_cast<double>(s1), static_cast<double>(exact),
                std::abs(static_cast<double>(exact)) * 1e-4 + 1e-3);

    for (unsigned seed : {0u, 5u, 6u, 7u}) {
      auto part = seed ? tack_mpi_test::random_partition(rows, n, seed)
                       : tack::mpi::partition::block(rows, n);
      distributed_array<T, 2> a(w, {rows, cols}, {.ghosts = 1, .rows = part});
      distributed_array<T, 2> b(w, {rows, cols}, {.rows = part});
      fill(a, 3);
      fill(b, 4);
      const S s = tack::mpi::sum(a);
      EXPECT_EQ(bits(s), bits(s1)) << part.describe() << ": " << s << " vs one rank " << s1;
      EXPECT_EQ(bits(tack::mpi::dot(a, b)), bits(ref_d)) << part.describe();
      EXPECT_EQ(bits(tack::mpi::mean(a)),
                bits(static_cast<S>(s1 / static_cast<S>(rows * per_row))));
      // Moving the rows elsewhere changes nothing.
      auto c = tack::mpi::redistribute(a, tack_mpi_test::random_partition(rows, n, seed + 100));
      EXPECT_EQ(bits(tack::mpi::sum(c)), bits(s1));
    }
  }
}

TEST(Reduce, MinMaxExact) {
  auto w = communicator::world();
  for (index_t rows : {1, 3, 1001}) {
    distributed_array<double> a(
        w, {rows}, {.ghosts = 2, .rows = tack_mpi_test::random_partition(rows, w.size(), 3)});
    fill(a, 9);
    a.with_ghosts().rows(0, 2).fill(1e300);  // ghost rows are not counted
    double lo = 1e300, hi = -1e300;
    for (index_t i = 0; i < rows; ++i) {
      lo = std::min(lo, value_at(i, 9));
      hi = std::max(hi, value_at(i, 9));
    }
    EXPECT_EQ(tack::mpi::min(a), lo);
    EXPECT_EQ(tack::mpi::max(a), hi);
  }
  distributed_array<tack::vec3f> e(w, {0});
  EXPECT_THROW_MSG(tack::mpi::min(e), tack::value_error, "tack::mpi::min", "no elements");
  EXPECT_THROW_MSG(tack::mpi::max(e), tack::value_error, "tack::mpi::max", "no elements");
  EXPECT_THROW_MSG(tack::mpi::mean(e), tack::value_error, "tack::mpi::mean", "no elements");
  EXPECT_EQ(tack::mpi::sum(e), 0.0f);
}

TEST(Reduce, IntegersExact) {
  auto w = communicator::world();
  const index_t rows = 1237;
  distributed_array<std::int32_t, 2> a(
      w, {rows, 2}, {.rows = tack_mpi_test::random_partition(rows, w.size(), 4)});
  distributed_array<std::int32_t, 2> b(w, {rows, 2}, {.rows = a.rows()});
  auto la = a.local(), lb = b.local();
  std::int64_t s = 0, d = 0, mn = 1 << 30, mx = -(1 << 30);
  for (index_t i = 0; i < rows * 2; ++i) {
    const auto v = static_cast<std::int32_t>(i % 97) - 40;
    s += v;
    d += std::int64_t{v} * 3;
    mn = std::min<std::int64_t>(mn, v);
    mx = std::max<std::int64_t>(mx, v);
  }
  for (index_t i = 0; i < la.extent(0); ++i) {
    for (index_t j = 0; j < 2; ++j) {
      la(i, j) = static_cast<std::int32_t>(((a.first_row() + i) * 2 + j) % 97) - 40;
      lb(i, j) = 3;
    }
  }
  EXPECT_EQ(tack::mpi::sum(a), s);
  EXPECT_EQ(tack::mpi::dot(a, b), d);
  EXPECT_EQ(tack::mpi::min(a), mn);
  EXPECT_EQ(tack::mpi::max(a), mx);
  EXPECT_EQ(tack::mpi::mean(a),
            tack_mpi_test::reference_sum<double>(
                [](std::int64_t i) {
                  return static_cast<double>(static_cast<std::int32_t>(i % 97) - 40);
                },
                rows * 2) /
                static_cast<double>(rows * 2));
  distributed_array<bool> flags(w, {10});
  flags.local().fill(true);
  EXPECT_EQ(tack::mpi::sum(flags), 10);
}

TEST(Reduce, DotRefusesDifferentPartitions) {
  auto w = communicator::world();
  if (w.size() == 1) GTEST_SKIP() << "one rank has one partition";
  distributed_array<double> a(w, {10});
  distributed_array<double> b(w, {10}, {.rows = tack::mpi::partition::from_counts([&] {
                                          std::vector<index_t> c(static_cast<std::size_t>(w.size()),
                                                                 0);
                                          c[0] = 10;
                                          return c;
                                        }())});
  EXPECT_THROW_MSG(tack::mpi::dot(a, b), tack::value_error, "tack::mpi::dot", "partition");
}

TACK_MPI_TEST_MAIN
