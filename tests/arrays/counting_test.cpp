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
#include <cstring>
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
  static_assert(
      std::is_same_v<decltype(ta::counting<int>(5, 2, 3)), decltype(ta::counting<int>(9))>);
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

TEST(Counting, AStepOfOneRunsAFormWithoutAMultiply) {
  // visit_kernel_form (what launch and the algorithms use) passes the cheapest equal functor.
  struct expected {
    int start, step;
    int form;  // 0: counting_index_fn, 1: counting_unit_step_fn, 2: counting_fn
  };
  for (const expected e :
       {expected{0, 1, 0}, expected{-7, 1, 1}, expected{-7, 3, 2}, expected{0, 3, 2}}) {
    auto c = ta::counting<int>(50, e.start, e.step);
    int calls = 0;
    c.visit_kernel_form([&](const auto& k) {
      using K = std::remove_cvref_t<decltype(k)>;
      const int form = std::is_same_v<K, ta::implicit_array<ta::counting_index_fn<int>>>       ? 0
                       : std::is_same_v<K, ta::implicit_array<ta::counting_unit_step_fn<int>>> ? 1
                       : std::is_same_v<K, ta::implicit_array<ta::counting_fn<int>>>           ? 2
                                                                                               : -1;
      EXPECT_EQ(form, e.form) << e.start << ", " << e.step;
      ASSERT_EQ(k.size(), 50);
      for (index_t i = 0; i < 50; ++i) EXPECT_EQ(k[i], e.start + e.step * static_cast<int>(i));
      // Every form converts back to the general one with the same elements.
      const ta::implicit_array<ta::counting_fn<int>> general = k;
      EXPECT_EQ(general[49], k[49]);
      ++calls;
    });
    EXPECT_EQ(calls, 1);
  }
  // Floating point: the specialized forms give the same bits, signed zeros included.
  for (double start : {0.0, -0.0, 2.5}) {
    auto c = ta::counting<double>(10, start, 1.0);
    c.visit_kernel_form([&](const auto& k) {
      for (index_t i = 0; i < 10; ++i) {
        const double want = start + 1.0 * static_cast<double>(i);
        EXPECT_EQ(std::memcmp(&want, &static_cast<const double&>(k[i]), sizeof want), 0)
            << start << " " << i;
      }
    });
  }
}

TEST(Counting, FloatingElementsEqualTheCastOfTheIndexForEveryIndex) {
  // The conversion is written to vectorize (no int64 -> double instruction before AVX-512); it
  // must give exactly static_cast's value for every index a floating-point counting can have.
  const index_t longest = index_t{1} << 52;
  auto c = ta::counting<double>(longest);
  auto f = ta::counting<float>(longest);
  std::vector<index_t> probes{0,
                              1,
                              2,
                              (index_t{1} << 24) + 1,  // float rounds here
                              (index_t{1} << 31) - 1,
                              index_t{1} << 31,
                              (index_t{1} << 32) + 1,
                              (index_t{1} << 51) + 12345,
                              longest - 1};
  std::uint64_t x = 88172645463325252ull;  // xorshift: spread indices over every magnitude
  for (int k = 0; k < 2000; ++k) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    probes.push_back(static_cast<index_t>((x >> 12) >> (k % 52)));
  }
  for (index_t i : probes) {
    ASSERT_EQ(c[i], static_cast<double>(i)) << "index " << i;
    ASSERT_EQ(f[i], static_cast<float>(i)) << "index " << i;
  }
}

TEST(Counting, FloatingLengthsPast2To52AreAValueError) {
  const index_t too_long = (index_t{1} << 52) + 1;
  EXPECT_THROW_MSG((void)ta::counting<double>(too_long), tack::value_error,
                   "tack::arrays::counting", std::to_string(too_long), "2^52");
  EXPECT_THROW_MSG((void)ta::counting<float>(too_long), tack::value_error,
                   "tack::arrays::counting");
  // Integer counters have no such limit.
  EXPECT_EQ(ta::counting<std::int64_t>(too_long)[too_long - 1], too_long - 1);
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
