// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
// Implicit arrays over real tack::array handles (AoS and SoA): compositions keep them alive,
// read them on the host, visit their kernel forms by run-time layout, and copyto evaluates a
// whole expression in one pass into an array.

#include <tack/array/array.hpp>
#include <tack/array/copyto.hpp>
#include <tack/array/factories.hpp>
#include <tack/array/soa.hpp>
#include <tack/arrays/all.hpp>
#include <tack/core/concepts.hpp>
#include <tack/types/vec.hpp>

#include <gtest/gtest.h>

#include <set>
#include <string>
#include <type_traits>
#include <typeinfo>
#include <vector>

namespace {

using tack::index_t;
using tack::vec3f;
namespace ta = tack::arrays;

TEST(Handles, ArraysAreExpressionOperands) {
  static_assert(ta::is_array_expression_operand_v<tack::array<float>>);
  static_assert(ta::is_array_expression_operand_v<tack::array<vec3f>>);
  auto a = tack::array_from<float>({1, 2, 3});
  auto b = tack::array_from<float>({10, 20, 30});
  auto e = a + 2.0f * b;
  static_assert(!decltype(e)::is_kernel_form);
  EXPECT_EQ(e[2], 63.0f);
  EXPECT_EQ(e.device(), a.device());
  auto out = tack::zeros<float>(3);
  tack::copyto(out, e);
  EXPECT_EQ(out.to_vector(), (std::vector<float>{21, 42, 63}));
}

TEST(Handles, CompositionKeepsTheArrayAlive) {
  auto make = [] {
    auto a = tack::array_from<float>({1, 2, 3, 4});
    return ta::strided(a, 2);
  };
  auto s = make();
  EXPECT_EQ(s[1], 3.0f);
  int handles = 0;
  s.for_each_array([&](const auto& h) {
    ++handles;
    EXPECT_EQ(h.size(), 4);
  });
  EXPECT_EQ(handles, 1);
}

TEST(Handles, VisitChoosesTheKernelFormByLayout) {
  auto x = tack::array_from<float>({1, 2});
  auto y = tack::array_from<float>({3, 4});
  auto z = tack::array_from<float>({5, 6});
  auto soa = tack::soa(x, y, z);
  auto aos = tack::array_from<vec3f>({vec3f{1, 3, 5}, vec3f{2, 4, 6}});
  std::set<std::string> forms;
  for (const auto& a : {soa, aos}) {
    auto doubled = a * 2.0f;
    doubled.visit_kernel_form([&](const auto& k) {
      forms.insert(typeid(k).name());
      static_assert(std::is_trivially_copyable_v<std::remove_cvref_t<decltype(k)>>);
      EXPECT_EQ(k[1], (vec3f{4, 8, 12}));
    });
  }
  EXPECT_EQ(forms.size(), 2u);
}

TEST(Handles, StoresThroughAKernelFormReachTheArray) {
  auto a = tack::zeros<float>(6);
  auto odd = ta::strided(a, 2, 1);
  odd.visit_kernel_form([&](const auto& k) {
    for (index_t i = 0; i < k.size(); ++i) k[i] = float(i + 1);
  });
  EXPECT_EQ(a.to_vector(), (std::vector<float>{0, 1, 0, 2, 0, 3}));
  auto x = tack::zeros<float>(2), y = tack::zeros<float>(2);
  auto p = ta::components(x, y);
  p.visit_kernel_form([&](const auto& k) { k[1] = tack::vec2f{7, 8}; });
  EXPECT_EQ(x.to_vector(), (std::vector<float>{0, 7}));
  EXPECT_EQ(y.to_vector(), (std::vector<float>{0, 8}));
}

TEST(Handles, CopyRandomValuesIntoAnArray) {
  auto out = tack::zeros<double>(1000);
  tack::copyto(out, ta::random_normal<double>(1000, 3) * 2.0 + 1.0);
  auto v = out.to_vector();
  auto z = ta::random_normal<double>(1000, 3);
  for (index_t i = 0; i < 1000; ++i) EXPECT_EQ(v[std::size_t(i)], z[i] * 2.0 + 1.0);
}

}  // namespace
