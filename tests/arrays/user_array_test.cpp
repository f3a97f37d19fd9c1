// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
// A user's own array type — a struct with operator[] and size(), nothing else — works wherever the
// library's arrays do: as an operand of every composed array, writable when its operator[] returns
// a reference, as its own kernel form, and (after opting in) in expressions.

#include <tack/arrays/all.hpp>
#include <tack/core/concepts.hpp>
#include <tack/core/kernel_form.hpp>
#include <tack/types/vec.hpp>

#include <gtest/gtest.h>

#include <type_traits>
#include <vector>

namespace user {

// Reads a * i * i; stores nothing.
struct parabola {
  double a;
  tack::index_t n;
  TACK_HOST_DEVICE double operator[](tack::index_t i) const { return a * double(i) * double(i); }
  TACK_HOST_DEVICE tack::index_t size() const { return n; }
};

// A ring buffer view: element i is data[(head + i) % capacity]; writable.
struct ring {
  float* data;
  tack::index_t capacity;
  tack::index_t head;
  TACK_HOST_DEVICE float& operator[](tack::index_t i) const { return data[(head + i) % capacity]; }
  TACK_HOST_DEVICE tack::index_t size() const { return capacity; }
};

// After opting in (below), the type's namespace redeclares the operators it wants, so that
// argument-dependent lookup finds them wherever the type is used.
using tack::operator*;
using tack::operator+;

}  // namespace user

template <>
struct tack::arrays::is_array_expression_operand<user::ring> : std::true_type {};

namespace {

using tack::index_t;
namespace ta = tack::arrays;

TEST(UserArray, SatisfiesTheProtocol) {
  static_assert(tack::readable_array<user::parabola>);
  static_assert(!tack::writable_array<user::parabola>);
  static_assert(tack::writable_array<user::ring>);
  static_assert(tack::addressable_array<user::ring>);
  static_assert(ta::detail::is_kernel_form_v<user::ring>);
  // Not an expression operand until it opts in.
  static_assert(!ta::is_array_expression_operand_v<user::parabola>);
  static_assert(ta::is_array_expression_operand_v<user::ring>);
}

TEST(UserArray, ComposesWithEveryArray) {
  const user::parabola p{0.5, 6};  // 0 0.5 2 4.5 8 12.5
  EXPECT_EQ(ta::view(p, 2, 3)[0], 2.0);
  EXPECT_EQ(ta::strided(p, 2, 1)[2], 12.5);
  EXPECT_EQ(ta::permutation(ta::counting<int>(2, 5, -1), p)[0], 12.5);
  EXPECT_EQ(ta::concatenate(p, ta::constant(1.0, 2))[7], 1.0);
  EXPECT_EQ(ta::transform(p, [](double x) { return -x; })[3], -4.5);
  EXPECT_EQ(ta::cast<int>(p)[3], 4);
  EXPECT_EQ(ta::components(p, p)[1], (tack::vec2d{0.5, 0.5}));
  EXPECT_EQ(ta::cartesian_product(p, ta::view(p, 0, 2))[7], (tack::vec2d{0.5, 0.5}));
  EXPECT_EQ(ta::extract_component(ta::components(p, p, p), 2)[4], 8.0);
  auto whole = ta::view(ta::concatenate(p, p), 5, 2);
  static_assert(decltype(whole)::is_kernel_form);
  static_assert(std::is_trivially_copyable_v<decltype(whole)>);
  EXPECT_EQ(whole[0], 12.5);
  EXPECT_EQ(whole[1], 0.0);
  // Its kernel form is itself.
  tack::visit_kernel_form(p, [](const auto& k) {
    static_assert(std::is_same_v<std::remove_cvref_t<decltype(k)>, user::parabola>);
  });
}

TEST(UserArray, StoresGoThroughItsReference) {
  std::vector<float> storage{0, 1, 2, 3};
  user::ring r{storage.data(), 4, 3};  // 3 0 1 2
  auto firsts = ta::view(r, 0, 2);
  static_assert(tack::writable_array<decltype(firsts)>);
  firsts[0] = 30;
  firsts[1] = 40;
  EXPECT_EQ(storage, (std::vector<float>{40, 1, 2, 30}));
  auto e = r * 2.0f + ta::counting<float>(4);
  EXPECT_EQ(e[3], 7.0f);  // r[3] = storage[2] = 2
}

}  // namespace
