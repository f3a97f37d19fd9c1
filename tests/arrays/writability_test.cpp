// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
// Writability composes (docs/reference/implicit-arrays.md): each rearranging array is writable
// exactly when what it writes into is; computed arrays never are; stores land in the wrapped
// storage, also through a const copy (constness is shallow, as for tack::view, so kernels that
// capture by value store).

#include <tack/arrays/all.hpp>
#include <tack/core/concepts.hpp>
#include <tack/types/vec.hpp>
#include <tack/view/soa_view.hpp>
#include <tack/view/view.hpp>

#include <gtest/gtest.h>

#include <numeric>
#include <type_traits>
#include <vector>

namespace {

using tack::index_t;
using tack::vec3f;
namespace ta = tack::arrays;

using stored = tack::view<float>;
using stored_const = tack::view<const float>;
using stored_vec = tack::view<vec3f>;
using stored_soa = tack::soa_view<vec3f>;
using computed = decltype(ta::counting<float>(1));
using computed_vec = decltype(ta::uniform_coordinates({1, 1, 1}));
using indices = decltype(ta::counting<int>(1));

struct twice {
  TACK_HOST_DEVICE float operator()(float x) const { return 2 * x; }
};
struct half {
  TACK_HOST_DEVICE float operator()(float x) const { return x / 2; }
};

template <class A>
constexpr bool writable = tack::writable_array<A>;

TEST(Writability, ComputedArraysAreNeverWritable) {
  static_assert(!writable<computed>);
  static_assert(!writable<computed_vec>);
  static_assert(!writable<decltype(ta::constant(vec3f{}, 1))>);
  static_assert(!writable<decltype(ta::function(1, [](index_t i) { return float(i); }))>);
  static_assert(!writable<decltype(ta::random_uniform<float>(1, 1))>);
  static_assert(!writable<decltype(ta::random_normal<double>(1, 1))>);
  static_assert(!writable<decltype(ta::random_bits(1, 1))>);
  static_assert(!writable<decltype(ta::cartesian_product(std::declval<computed>(),
                                                         std::declval<computed>()))>);
  static_assert(
      !writable<decltype(ta::cartesian_product(std::declval<stored>(), std::declval<stored>()))>);
  static_assert(!writable<decltype(ta::cast<double>(std::declval<stored>()))>);
  static_assert(!writable<decltype(ta::transform(std::declval<stored>(), twice{}))>);
  static_assert(!writable<decltype(std::declval<stored>() + std::declval<stored>())>);
  static_assert(!writable<decltype(tack::sqrt(std::declval<stored>()))>);
}

TEST(Writability, RearrangingArraysAreWritableExactlyWhenWhatTheyWriteIntoIs) {
  // view and strided
  static_assert(writable<decltype(ta::view(std::declval<stored>(), 0, 0))>);
  static_assert(writable<decltype(ta::view(std::declval<stored_soa>(), 0, 0))>);
  static_assert(!writable<decltype(ta::view(std::declval<stored_const>(), 0, 0))>);
  static_assert(!writable<decltype(ta::view(std::declval<computed>(), 0, 0))>);
  static_assert(writable<decltype(ta::strided(std::declval<stored_vec>(), 1))>);
  static_assert(!writable<decltype(ta::strided(std::declval<computed_vec>(), 1))>);
  // permutation: writable when the values are (the indices are only read)
  static_assert(
      writable<decltype(ta::permutation(std::declval<indices>(), std::declval<stored>()))>);
  static_assert(
      !writable<decltype(ta::permutation(std::declval<indices>(), std::declval<computed>()))>);
  // concatenate: when every part is
  static_assert(
      writable<decltype(ta::concatenate(std::declval<stored>(), std::declval<stored>()))>);
  static_assert(
      writable<decltype(ta::concatenate(std::declval<stored_vec>(), std::declval<stored_soa>()))>);
  static_assert(
      !writable<decltype(ta::concatenate(std::declval<stored>(), std::declval<computed>()))>);
  static_assert(
      !writable<decltype(ta::concatenate(std::declval<stored>(), std::declval<stored_const>()))>);
  // components: when every component array is
  static_assert(writable<decltype(ta::components(std::declval<stored>(), std::declval<stored>()))>);
  static_assert(
      !writable<decltype(ta::components(std::declval<stored>(), std::declval<computed>()))>);
  // extract_component: when the vector array is
  static_assert(writable<decltype(ta::extract_component(std::declval<stored_vec>(), 0))>);
  static_assert(writable<decltype(ta::extract_component(std::declval<stored_soa>(), 0))>);
  static_assert(!writable<decltype(ta::extract_component(std::declval<computed_vec>(), 0))>);
  // transform: only with an inverse, and when the wrapped array is writable
  static_assert(writable<decltype(ta::transform(std::declval<stored>(), twice{}, half{}))>);
  static_assert(!writable<decltype(ta::transform(std::declval<computed>(), twice{}, half{}))>);
  // and it composes: a view of a permutation of storage writes into the storage
  static_assert(writable<decltype(ta::view(ta::permutation(std::declval<indices>(),
                                                           ta::strided(std::declval<stored>(), 2)),
                                           0, 0))>);
  static_assert(
      !writable<decltype(ta::view(
          ta::permutation(std::declval<indices>(), ta::strided(std::declval<computed>(), 2)), 0,
          0))>);
}

TEST(Writability, ElementsWithARealAddressAreAddressable) {
  static_assert(tack::addressable_array<decltype(ta::view(std::declval<stored>(), 0, 0))>);
  static_assert(tack::addressable_array<decltype(ta::permutation(std::declval<indices>(),
                                                                 std::declval<stored>()))>);
  static_assert(!tack::addressable_array<decltype(ta::components(std::declval<stored>(),
                                                                 std::declval<stored>()))>);
  static_assert(
      !tack::addressable_array<decltype(ta::transform(std::declval<stored>(), twice{}, half{}))>);
}

TEST(Writability, NestedStoresLandInTheStorage) {
  std::vector<float> data(10, 0.0f);
  stored s(data.data(), 10);
  // Element i of the composition is data[1 + 2 * (3 - i)] for i < 3.
  auto a = ta::view(ta::permutation(ta::counting<int>(4, 3, -1), ta::strided(s, 2, 1)), 0, 3);
  for (index_t i = 0; i < a.size(); ++i) a[i] = float(i + 1);
  EXPECT_EQ(data, (std::vector<float>{0, 0, 0, 3, 0, 2, 0, 1, 0, 0}));
  auto t = ta::transform(ta::view(s, 5, 5), twice{}, half{});
  t[0] = 30.0f;  // stores 15 into data[5]
  EXPECT_EQ(data[5], 15.0f);
  EXPECT_EQ(t[0], 30.0f);
}

TEST(Writability, AConstCopyStillStoresIntoTheWrappedArray) {
  std::vector<float> data(4, 0.0f);
  const auto v = ta::strided(stored(data.data(), 4), 2);
  // A kernel lambda captures by copy and its call operator is const.
  auto kernel = [v](index_t i) { v[i] = 7.0f; };
  kernel(1);
  EXPECT_EQ(data, (std::vector<float>{0, 0, 7, 0}));
  const auto c = ta::components(stored(data.data(), 4), stored(data.data(), 4));
  c[3] = tack::vec2f{5, 6};  // both components write data[3]: the last one wins
  EXPECT_EQ(data[3], 6.0f);
}

}  // namespace
