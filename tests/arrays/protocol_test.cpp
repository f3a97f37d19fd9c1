// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
// The kernel-form protocol (core/kernel_form.hpp) through implicit arrays, with a fake host
// handle that behaves as the tack::array contract says: shared ownership, visit_kernel_form with
// a kernel form chosen at run time, for_each_array, device(). A composition keeps handles alive,
// visits them (nested: one instantiation per layout combination), forwards for_each_array and
// reports their device; a composition of kernel forms is its own kernel form.

#include <tack/arrays/all.hpp>
#include <tack/core/concepts.hpp>
#include <tack/core/error.hpp>
#include <tack/core/kernel_form.hpp>
#include <tack/memory/device.hpp>
#include <tack/view/view.hpp>

#include <gtest/gtest.h>

#include <memory>
#include <set>
#include <string>
#include <type_traits>
#include <typeinfo>
#include <vector>

namespace {

using tack::index_t;
namespace ta = tack::arrays;

// A second kernel form for float data, standing in for tack::soa_view: it reads the same values
// through another type, so a kernel instantiated for it is a different instantiation.
struct other_layout_view {
  float* p;
  index_t n;
  TACK_HOST_DEVICE float& operator[](index_t i) const { return p[i]; }
  TACK_HOST_DEVICE index_t size() const { return n; }
};

// The handle: shares its storage, picks its kernel form at run time.
struct fake_handle {
  std::shared_ptr<std::vector<float>> data;
  bool other_layout = false;
  tack::device where = tack::cpu();

  static fake_handle of(std::vector<float> v, bool other = false, tack::device d = tack::cpu()) {
    return fake_handle{std::make_shared<std::vector<float>>(std::move(v)), other, d};
  }
  index_t size() const { return index_t(data->size()); }
  float& operator[](index_t i) const { return (*data)[std::size_t(i)]; }
  tack::device device() const { return where; }
  template <class F>
  decltype(auto) visit_kernel_form(F&& f) const {
    if (other_layout) return f(other_layout_view{data->data(), size()});
    return f(tack::view<float>(data->data(), size()));
  }
  template <class G>
  void for_each_array(G&& g) const {
    g(*this);
  }
};

// fake_handle lives in this namespace, so argument-dependent lookup does not see tack's operators.
using tack::operator*;
using tack::operator+;
using tack::operator-;

struct twice {
  TACK_HOST_DEVICE float operator()(float x) const { return 2 * x; }
};

TEST(Protocol, AFakeHandleIsAnOperandButNotAKernelForm) {
  static_assert(ta::detail::has_kernel_form_member<fake_handle>);
  static_assert(!ta::detail::is_kernel_form_v<fake_handle>);
  static_assert(ta::detail::is_kernel_form_v<tack::view<float>>);
  static_assert(ta::is_array_expression_operand_v<fake_handle>);
  // Not trivially copyable, no kernel form of its own: a composition over it is no kernel form
  // either (visiting it would stop at core's static_assert).
  static_assert(!ta::detail::is_kernel_form_v<std::vector<float>>);
  static_assert(!decltype(ta::view(std::vector<float>(3), 0, 1))::is_kernel_form);
}

TEST(Protocol, CompositionKeepsTheHandleAlive) {
  std::weak_ptr<std::vector<float>> watch;
  auto make = [&] {
    auto h = fake_handle::of({1, 2, 3});
    watch = h.data;
    return ta::transform(h, twice{});
  };
  auto t = make();
  ASSERT_FALSE(watch.expired());
  EXPECT_EQ(t[2], 6.0f);  // host reads go through the handle
  static_assert(!std::is_trivially_copyable_v<decltype(t)>);
  static_assert(!decltype(t)::is_kernel_form);
  {
    auto copy = t;
    EXPECT_EQ(watch.use_count(), 2);
  }
  EXPECT_EQ(watch.use_count(), 1);
}

TEST(Protocol, VisitGivesTheSameCompositionOverTheKernelForm) {
  auto h = fake_handle::of({1, 2, 3});
  auto t = ta::view(ta::transform(h, twice{}), 1, 2);
  int calls = 0;
  t.visit_kernel_form([&](const auto& k) {
    using K = std::remove_cvref_t<decltype(k)>;
    static_assert(std::is_trivially_copyable_v<K>);
    static_assert(K::is_kernel_form);
    // The handle chooses its form at run time: both compositions are instantiated.
    static_assert(
        std::is_same_v<K, decltype(ta::view(ta::transform(tack::view<float>(), twice{}), 0, 0))> ||
        std::is_same_v<K, decltype(ta::view(ta::transform(other_layout_view{}, twice{}), 0, 0))>);
    ASSERT_EQ(k.size(), 2);
    EXPECT_EQ(k[0], 4.0f);
    EXPECT_EQ(k[1], 6.0f);
    ++calls;
  });
  EXPECT_EQ(calls, 1);
  // Through the core customization point too.
  tack::visit_kernel_form(t, [&](const auto& k) { EXPECT_EQ(k[1], 6.0f); });
}

TEST(Protocol, NestedHandlesGiveOneInstantiationPerLayoutCombination) {
  std::set<std::string> seen;
  for (bool left : {false, true}) {
    for (bool right : {false, true}) {
      auto a = fake_handle::of({1, 2}, left);
      auto b = fake_handle::of({10, 20}, right);
      auto e = ta::concatenate(a, ta::view(b, 0, 2)) * 2.0f;
      e.visit_kernel_form([&](const auto& k) {
        seen.insert(typeid(k).name());
        EXPECT_EQ(k[0], 2.0f);
        EXPECT_EQ(k[3], 40.0f);
      });
    }
  }
  EXPECT_EQ(seen.size(), 4u);
}

TEST(Protocol, ACompositionOfKernelFormsIsItsOwnKernelForm) {
  std::vector<float> data{1, 2, 3};
  auto c = ta::concatenate(tack::view<float>(data.data(), 3), ta::constant(5.0f, 2)) + 1.0f;
  using C = decltype(c);
  static_assert(C::is_kernel_form);
  static_assert(std::is_trivially_copyable_v<C>);
  bool same_object = false;
  c.visit_kernel_form([&](const auto& k) { same_object = (&k == &c); });
  EXPECT_TRUE(same_object);
  // A computed array holds no handle and names no device.
  EXPECT_FALSE(c.device().has_value());
  int visited = 0;
  c.for_each_array([&](const auto&) { ++visited; });
  EXPECT_EQ(visited, 0);
}

TEST(Protocol, ASpecializedFormIsChosenAtAnyDepth) {
  // counting offers a form without the multiply when its step is 1: the composition stays its
  // own kernel form (a kernel may capture it as it is), but visiting it passes the specialized
  // form, rebuilt into the same composition, with the same elements.
  std::vector<float> data{1, 2, 3};
  for (float step : {1.0f, 2.0f}) {
    auto c =
        ta::concatenate(tack::view<float>(data.data(), 3), ta::counting<float>(2, 4.0f, step)) +
        1.0f;
    static_assert(decltype(c)::is_kernel_form);
    int calls = 0;
    c.visit_kernel_form([&](const auto& k) {
      using K = std::remove_cvref_t<decltype(k)>;
      static_assert(std::is_trivially_copyable_v<K>);
      const bool unit =
          std::is_same_v<K, decltype(ta::concatenate(tack::view<float>(),
                                                     ta::implicit_array(
                                                         ta::counting_unit_step_fn<float>{}, 0)) +
                                     1.0f)>;
      EXPECT_EQ(unit, step == 1.0f);
      ASSERT_EQ(k.size(), 5);
      for (index_t i = 0; i < 5; ++i) EXPECT_EQ(k[i], c[i]) << i;
      ++calls;
    });
    EXPECT_EQ(calls, 1);
  }
}

TEST(Protocol, ForEachArrayReachesEveryHandleAtAnyDepth) {
  auto a = fake_handle::of({1, 2, 3});
  auto b = fake_handle::of({4, 5, 6});
  auto idx = ta::counting<int>(3);
  auto e = ta::permutation(idx, a) + tack::sqrt(ta::strided(b, 1)) * ta::constant(2.0f, 3);
  std::vector<const std::vector<float>*> handles;
  e.for_each_array([&](const fake_handle& h) { handles.push_back(h.data.get()); });
  ASSERT_EQ(handles.size(), 2u);
  EXPECT_EQ(handles[0], a.data.get());
  EXPECT_EQ(handles[1], b.data.get());
  tack::for_each_array(e, [&](const fake_handle&) { handles.push_back(nullptr); });
  EXPECT_EQ(handles.size(), 4u);
}

TEST(Protocol, DeviceIsTheHandlesDevice) {
  auto g = fake_handle::of({1, 2}, false, tack::cuda(0));
  auto t = ta::transform(g, twice{});
  ASSERT_TRUE(t.device().has_value());
  EXPECT_EQ(*t.device(), tack::cuda(0));
  auto mixed = ta::concatenate(ta::counting<float>(2), ta::view(t, 0, 2));
  EXPECT_EQ(mixed.device(), tack::cuda(0));
}

TEST(Protocol, OperandsOnDifferentDevicesAreAValueError) {
  auto c = fake_handle::of({1, 2});
  auto g = fake_handle::of({1, 2}, false, tack::cuda(0));
  auto check = [](auto f, const char* op) {
    try {
      f();
      ADD_FAILURE() << "expected tack::value_error from " << op;
    } catch (const tack::value_error& e) {
      const std::string m = e.what();
      EXPECT_NE(m.find(op), std::string::npos) << m;
      EXPECT_NE(m.find("cpu"), std::string::npos) << m;
      EXPECT_NE(m.find("cuda:0"), std::string::npos) << m;
    }
  };
  check([&] { (void)ta::concatenate(c, g); }, "concatenate");
  check([&] { (void)ta::components(c, g); }, "components");
  check([&] { (void)ta::permutation(ta::cast<int>(c), g); }, "permutation");
  check([&] { (void)ta::cartesian_product(c, g); }, "cartesian_product");
  check([&] { (void)(c - g); }, "operator-");
  check([&] { (void)tack::pow(c, g); }, "pow");
}

}  // namespace
