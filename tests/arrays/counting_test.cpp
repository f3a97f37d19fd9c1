// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
// The computed arrays counting, constant and function, and what implicit_array gives each of
// them: size, element access, iteration, run-time parameters (one type per functor, whatever the
// length), trivially copyable kernel forms, read-only elements, and refused lengths.

#include <tack/arrays/constant.hpp>
#include <tack/arrays/counting.hpp>
#include <tack/arrays/function.hpp>
#include <tack/core/concepts.hpp>
#include <tack/core/error.hpp>
#include <tack/types/vec.hpp>

#include <gtest/gtest.h>

#include "common/tack_test.hpp"

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <limits>
#include <numeric>
#include <string>
#include <type_traits>
#include <vector>

namespace {

using tack::index_t;
namespace ta = tack::arrays;

TEST(Counting, DefaultsStartAtZeroWithStepOne) {
  auto c = ta::counting<int>(5);
  ASSERT_EQ(c.size(), 5);
  for (index_t i = 0; i < 5; ++i) EXPECT_EQ(c[i], i);
}

TEST(Counting, StartAndStep) {
  auto c = ta::counting<double>(4, 1.5, -0.5);
  EXPECT_DOUBLE_EQ(c[0], 1.5);
  EXPECT_DOUBLE_EQ(c[1], 1.0);
  EXPECT_DOUBLE_EQ(c[3], 0.0);
  static_assert(std::is_same_v<decltype(c)::value_type, double>);
}

TEST(Counting, ComputesFromTheIndexWithoutAccumulatingRoundingError) {
  // 0.1 added a million times drifts; start + step * i does not.
  auto c = ta::counting<double>(1'000'001, 0.0, 0.1);
  EXPECT_EQ(c[1'000'000], 0.1 * 1'000'000.0);
}

TEST(Counting, LengthIsARunTimeValueNotPartOfTheType) {
  static_assert(std::is_same_v<decltype(ta::counting<int>(5)), decltype(ta::counting<int>(7))>);
  static_assert(std::is_same_v<decltype(ta::counting<int>(5, 2, 3)), decltype(ta::counting<int>(9))>);
  static_assert(std::is_same_v<decltype(ta::constant(1.0f, 3)), decltype(ta::constant(2.0f, 8))>);
  auto a = ta::counting<int>(5);
  a = ta::counting<int>(7, 10);  // same type: assignable
  EXPECT_EQ(a.size(), 7);
  EXPECT_EQ(a[6], 16);
}

TEST(Counting, IsATriviallyCopyableReadOnlyArray) {
  using C = decltype(ta::counting<float>(3));
  static_assert(std::is_trivially_copyable_v<C>);
  static_assert(tack::readable_array<C>);
  static_assert(!tack::writable_array<C>);
  static_assert(!tack::addressable_array<C>);
  static_assert(ta::is_implicit_array_v<C>);
  static_assert(C::is_kernel_form);
  static_assert(std::is_same_v<tack::array_value_t<C>, float>);
  // The functor holds the parameters: nothing else (no pointer, no allocation).
  static_assert(sizeof(C) == sizeof(ta::counting_fn<float>) + sizeof(index_t));
}

TEST(Counting, EmptyArray) {
  auto c = ta::counting<int>(0);
  EXPECT_EQ(c.size(), 0);
  EXPECT_TRUE(c.empty());
  EXPECT_EQ(c.begin(), c.end());
}

TEST(Counting, AStepOfOneRunsTheFormWithoutAMultiply) {
  for (int step : {1, 3}) {
    auto c = ta::counting<int>(50, -7, step);
    int calls = 0;
    c.visit_kernel_form([&](const auto& k) {
      using K = std::remove_cvref_t<decltype(k)>;
      EXPECT_EQ((std::is_same_v<K, ta::implicit_array<ta::counting_unit_step_fn<int>>>), step == 1);
      ASSERT_EQ(k.size(), 50);
      for (index_t i = 0; i < 50; ++i) EXPECT_EQ(k[i], -7 + step * static_cast<int>(i));
      ++calls;
    });
    EXPECT_EQ(calls, 1);
  }
}

TEST(Counting, FloatingElementsEqualTheCastOfTheIndexForEveryIndex) {
  // The conversion is written to vectorize (no int64 -> double instruction before AVX-512); it
  // must give exactly static_cast's double, also where doubles are no longer exact (>= 2^53) and
  // at the edges of the two 32-bit halves it works on.
  const index_t big = std::numeric_limits<index_t>::max();
  auto c = ta::counting<double>(big);
  auto f = ta::counting<float>(big);
  std::vector<index_t> probes{0,           1,           2,
                              (index_t{1} << 31) - 1,   index_t{1} << 31,
                              (index_t{1} << 32) - 1,   index_t{1} << 32,
                              (index_t{1} << 32) + 1,   (index_t{1} << 52) + 1,
                              (index_t{1} << 53) + 1,   (index_t{1} << 53) + 3,
                              (index_t{1} << 62) + 513, big - 1};
  std::uint64_t x = 88172645463325252ull;  // xorshift: spread indices over every magnitude
  for (int k = 0; k < 2000; ++k) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    probes.push_back(static_cast<index_t>((x >> 1) >> (k % 63)));
  }
  for (index_t i : probes) {
    ASSERT_EQ(c[i], static_cast<double>(i)) << "index " << i;
    if (i < (index_t{1} << 53)) {
      ASSERT_EQ(f[i], static_cast<float>(i)) << "index " << i;
    }
  }
}

TEST(Counting, IntegerElementsWrapInsteadOfOverflowingInBetween) {
  // start + step * i is computed modulo 2^width: an element the type can hold is exact even when
  // step * i alone would overflow (signed overflow would be undefined behaviour).
  auto c = ta::counting<std::int32_t>(3, -2'000'000'000, 1'500'000'000);
  EXPECT_EQ(c[1], -500'000'000);
  EXPECT_EQ(c[2], 1'000'000'000);
  // Narrow types promote to int: a uint16_t product of 65535 * 65535 must not overflow int.
  auto u = ta::counting<std::uint16_t>(65536, 0, 65535);
  EXPECT_EQ(u[65535], static_cast<std::uint16_t>(65535u * 65535u));
  auto s8 = ta::counting<std::int8_t>(256, -128, 1);
  EXPECT_EQ(s8[255], 127);
}

TEST(Counting, NegativeLengthIsAValueErrorNamingTheLength) {
  const std::string m = tack::test::error_message([] { (void)ta::counting<int>(-3); });
  EXPECT_NE(m.find("counting"), std::string::npos) << m;
  EXPECT_NE(m.find("-3"), std::string::npos) << m;
  EXPECT_NE(tack::test::error_message([] { (void)ta::constant(1, -1); }).find("constant"),
            std::string::npos);
  EXPECT_NE(tack::test::error_message([] {
              (void)ta::function(-2, [](index_t i) { return i; });
            }).find("function"),
            std::string::npos);
}

TEST(ImplicitArray, IteratesInIndexOrder) {
  auto c = ta::counting<int>(6, 3);
  std::vector<int> v(c.begin(), c.end());
  EXPECT_EQ(v, (std::vector<int>{3, 4, 5, 6, 7, 8}));
  int sum = 0;
  for (int x : c) sum += x;
  EXPECT_EQ(sum, 33);
  EXPECT_EQ(std::accumulate(c.begin(), c.end(), 0), 33);
  static_assert(std::random_access_iterator<decltype(c.begin())>);
  auto it = c.begin() + 4;
  EXPECT_EQ(*it, 7);
  EXPECT_EQ(it[-1], 6);
  EXPECT_EQ(c.end() - c.begin(), 6);
  EXPECT_TRUE(c.begin() < it);
  EXPECT_EQ(*std::max_element(c.begin(), c.end()), 8);
}

TEST(ImplicitArray, ReadingANonConstArrayGivesThePlainValue) {
  auto c = ta::counting<int>(3);
  static_assert(std::is_same_v<decltype(c[0]), int>);
  const auto& cc = c;
  static_assert(std::is_same_v<decltype(cc[0]), int>);
}

TEST(Constant, RepeatsTheValue) {
  auto k = ta::constant(2.5f, 4);
  ASSERT_EQ(k.size(), 4);
  for (float x : k) EXPECT_EQ(x, 2.5f);
  static_assert(!tack::writable_array<decltype(k)>);
}

TEST(Constant, HoldsVectorElements) {
  auto k = ta::constant(tack::vec3f{1, 2, 3}, 2);
  static_assert(std::is_same_v<decltype(k)::value_type, tack::vec3f>);
  EXPECT_EQ(k[1], (tack::vec3f{1, 2, 3}));
  // A computed vector is returned const: storing into the temporary does not compile.
  static_assert(!tack::writable_array<decltype(k)>);
  static_assert(std::is_same_v<decltype(k[0]), const tack::vec3f>);
}

// A user functor with a TACK_HOST_DEVICE call operator: usable in kernels on every backend.
struct squares {
  TACK_HOST_DEVICE double operator()(index_t i) const { return double(i) * double(i); }
};

TEST(Function, CallsTheFunctionWithTheIndex) {
  auto f = ta::function(5, squares{});
  EXPECT_EQ(f.size(), 5);
  EXPECT_DOUBLE_EQ(f[4], 16.0);
  static_assert(std::is_trivially_copyable_v<decltype(f)>);
  static_assert(!tack::writable_array<decltype(f)>);
  auto g = ta::function(3, [](index_t i) { return std::int64_t{10} * i; });
  EXPECT_EQ(g[2], 20);
}

TEST(Function, ALambdaCapturingByValue) {
  int offset = 100;  // not const: a const int would not need capturing (clang warns)
  auto f = ta::function(3, [offset](index_t i) { return offset + int(i); });
  EXPECT_EQ(f[2], 102);
}

TEST(Function, ReturningAReferenceMakesAWritableArray) {
  std::vector<int> storage{1, 2, 3, 4};
  int* p = storage.data();
  auto reversed = ta::function(4, [p](index_t i) -> int& { return p[3 - i]; });
  static_assert(tack::writable_array<decltype(reversed)>);
  EXPECT_EQ(reversed[0], 4);
  reversed[0] = 40;
  EXPECT_EQ(storage[3], 40);
}

}  // namespace
