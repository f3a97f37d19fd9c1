// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
// Debug-mode bounds checks of every view (TACK_BOUNDS_CHECK): each access is checked against the
// view's own extents, and the message names the index, the extent and, for a row view, the root's
// rows.

// Forced on for this file whatever the build type (config.hpp guards its default with #ifndef).
#define TACK_BOUNDS_CHECK 1

#include <tack/core/error.hpp>
#include <tack/core/precondition.hpp>
#include <tack/types/item.hpp>
#include <tack/view/array_view.hpp>
#include <tack/view/make_view.hpp>
#include <tack/view/mdview.hpp>
#include <tack/view/soa_view.hpp>
#include <tack/view/view.hpp>

#include <gtest/gtest.h>

#include "common/tack_test.hpp"

#include <string>
#include <vector>

namespace {

using tack::index_t;

static_assert(TACK_BOUNDS_CHECK == 1, "this test needs the checks on");

// Installs the throwing handler for the duration of a test.
class ViewBounds : public ::testing::Test {
protected:
  void SetUp() override {
    previous_ = tack::set_precondition_handler(tack::throwing_precondition_handler);
  }
  void TearDown() override { tack::set_precondition_handler(previous_); }

private:
  tack::precondition_handler previous_ = nullptr;
};

// The message of the tack::index_error `f` throws (another exception type fails the test).
template <class F>
std::string index_error_message(F&& f) {
  return tack::test::error_message<tack::index_error>(static_cast<F&&>(f));
}

#define EXPECT_CONTAINS(haystack, needle)                          \
  EXPECT_NE(std::string(haystack).find(needle), std::string::npos) \
      << "message: " << (haystack) << "\nexpected to contain: " << (needle)

TEST_F(ViewBounds, ViewIndexPastTheExtent) {
  std::vector<float> memory(6);
  tack::view<float> v(memory.data(), 6);
  const std::string msg = index_error_message([&] { (void)v[6]; });
  EXPECT_CONTAINS(msg, "tack::view: index 6 out of range for extent 6");
  EXPECT_EQ(msg.find("rows ["), std::string::npos) << msg;  // not a row view
  EXPECT_CONTAINS(index_error_message([&] { (void)v(-1); }),
                  "tack::view: index -1 out of range for extent 6");
  // In-range accesses pass.
  EXPECT_NO_THROW((void)v[5]);
  EXPECT_NO_THROW((void)v(0));
}

TEST_F(ViewBounds, RowViewReportsAnIndexInsideTheRootButPastTheView) {
  std::vector<float> memory(6);
  tack::view<float> root(memory.data(), 6);
  auto middle = root.rows(2, 4);
  // Element 2 of the view is row 4 of the root: valid memory, but outside the view.
  const std::string msg = index_error_message([&] { (void)middle[2]; });
  EXPECT_CONTAINS(
      msg, "tack::view: index 2 out of range for extent 2 (rows [2, 4) of a root with 6 rows)");
  EXPECT_NO_THROW((void)middle[1]);
  // A view built by the array layer with its root's bounds reports the same way.
  tack::view<float> made(memory.data() + 2, {2}, 2, 6);
  EXPECT_CONTAINS(index_error_message([&] { (void)made(3); }),
                  "index 3 out of range for extent 2 (rows [2, 4) of a root with 6 rows)");
}

TEST_F(ViewBounds, MultiIndexNamesTheDimension) {
  std::vector<double> memory(6 * 3);
  tack::view<double, 2> m(memory.data(), {6, 3});
  EXPECT_CONTAINS(index_error_message([&] { (void)m(1, 3); }),
                  "tack::view: index 3 out of range for extent 3 in dimension 1");
  auto rows = m.rows(1, 3);
  EXPECT_CONTAINS(index_error_message([&] { (void)rows(2, 0); }),
                  "tack::view: index 2 out of range for extent 2 in dimension 0 (rows [1, 3) of a "
                  "root with 6 rows)");
  // The flat index is checked against the size.
  EXPECT_CONTAINS(index_error_message([&] { (void)rows[6]; }),
                  "tack::view: flat index 6 out of range for size 6 (rows [1, 3) of a root with 6 "
                  "rows)");
  EXPECT_NO_THROW((void)rows(1, 2));
}

TEST_F(ViewBounds, RowRangesAreChecked) {
  std::vector<int> memory(6);
  tack::view<int> v(memory.data(), 6);
  EXPECT_CONTAINS(index_error_message([&] { (void)v.rows(4, 7); }),
                  "tack::view::rows: rows [4, 7) out of range for extent 6");
  EXPECT_CONTAINS(index_error_message([&] { (void)v.rows(3, 2); }), "rows [3, 2)");
  EXPECT_CONTAINS(index_error_message([&] { (void)v.rows(2, 4).rows(0, 3); }),
                  "rows [0, 3) out of range for extent 2 (rows [2, 4) of a root with 6 rows)");
  EXPECT_NO_THROW((void)v.rows(6, 6));
}

TEST_F(ViewBounds, SoaView) {
  std::vector<float> x(6), y(6), z(6);
  tack::soa_view<tack::vec3f> v({x.data(), y.data(), z.data()}, 6);
  EXPECT_CONTAINS(index_error_message([&] { (void)v[6]; }),
                  "tack::soa_view: index 6 out of range for extent 6");
  auto middle = v.rows(2, 4);
  EXPECT_CONTAINS(index_error_message([&] { middle[2] = tack::vec3f{}; }),
                  "tack::soa_view: index 2 out of range for extent 2 (rows [2, 4) of a root with 6 "
                  "rows)");
  EXPECT_CONTAINS(index_error_message([&] { (void)middle(-1); }),
                  "tack::soa_view: index -1 out of range for extent 2");
  EXPECT_CONTAINS(index_error_message([&] { (void)v.rows(5, 8); }),
                  "tack::soa_view::rows: rows [5, 8) out of range for extent 6");
  // A component view keeps the bounds info.
  EXPECT_CONTAINS(
      index_error_message([&] { (void)middle.component(0)[2]; }),
      "tack::view: index 2 out of range for extent 2 (rows [2, 4) of a root with 6 rows)");
  // Nothing was written by the refused store.
  EXPECT_EQ(x[4], 0.0f);
  EXPECT_NO_THROW(middle[1] = tack::vec3f{});
}

TEST_F(ViewBounds, SoaViewMultiIndex) {
  std::vector<double> c[4];
  for (auto& comp : c) comp.assign(8, 0.0);
  tack::soa_view<tack::mat2d, 2> m({c[0].data(), c[1].data(), c[2].data(), c[3].data()}, {4, 2});
  EXPECT_CONTAINS(index_error_message([&] { (void)m(0, 2); }),
                  "tack::soa_view: index 2 out of range for extent 2 in dimension 1");
  EXPECT_CONTAINS(index_error_message([&] { (void)m[8]; }),
                  "tack::soa_view: flat index 8 out of range for size 8");
}

TEST_F(ViewBounds, Mdview) {
  std::vector<double> memory(33);
  auto v = tack::make_view<double, 3, tack::dyn>(memory.data(), 11);
  EXPECT_CONTAINS(index_error_message([&] { (void)v(3, 0); }),
                  "tack::mdview: index 3 out of range for extent 3 in dimension 0");
  EXPECT_CONTAINS(index_error_message([&] { (void)v(0, 11); }),
                  "tack::mdview: index 11 out of range for extent 11 in dimension 1");
  tack::mdview<int, tack::dextents<1>> one(reinterpret_cast<int*>(memory.data()), 4);
  EXPECT_CONTAINS(index_error_message([&] { (void)one[4]; }),
                  "tack::mdview: index 4 out of range for extent 4");
  // A row view converted to an mdview is checked against its own extents.
  tack::view<double, 2> root(memory.data(), {11, 3});
  tack::mdview<double, tack::dextents<2>> rows = root.rows(2, 4);
  EXPECT_CONTAINS(index_error_message([&] { (void)rows(2, 0); }),
                  "index 2 out of range for extent 2 in dimension 0");
  EXPECT_NO_THROW((void)v(2, 10));
}

TEST_F(ViewBounds, ArrayView) {
  std::vector<int> a{2, 5, 6, 11, 1, 4};
  tack::mc_array_view<int> c(a.data(), 3, 2);
  EXPECT_CONTAINS(index_error_message([&] { (void)c(3, 0); }),
                  "tack::array_view: index 3 out of range for extent 3 in dimension 0");
  EXPECT_CONTAINS(index_error_message([&] { (void)c(0, 2); }),
                  "tack::array_view: index 2 out of range for extent 2 in dimension 1");
  EXPECT_CONTAINS(index_error_message([&] { (void)c[6]; }),
                  "tack::array_view: flat index 6 out of range for size 6");
  tack::array_view<int> spaced(a.data(), 3, 2);
  EXPECT_CONTAINS(index_error_message([&] { (void)spaced[3]; }),
                  "tack::array_view: index 3 out of range for extent 3");
  EXPECT_NO_THROW((void)spaced[2]);
}

TEST_F(ViewBounds, ConstructionPreconditions) {
  std::vector<int> a(4);
  EXPECT_CONTAINS(index_error_message([&] { tack::array_view<int>(a.data(), 2, 0); }),
                  "tack::array_view: spacing 0 is not positive");
  EXPECT_CONTAINS(index_error_message([&] {
                    tack::view<int, 2>(a.data(), {-1, 2});
                  }),
                  "tack::view: extent -1 of dimension 0 is negative");
  EXPECT_CONTAINS(index_error_message([&] { tack::extents<3, tack::dyn>(4, 2); }),
                  "extent 4 of dimension 0 does not match the static extent 3");
  EXPECT_CONTAINS(index_error_message([&] { tack::dextents<2>(2, -5); }),
                  "extent -5 of dimension 1 is negative");
}

TEST_F(ViewBounds, MessageNamesTheSourceLocation) {
  std::vector<float> memory(2);
  tack::view<float> v(memory.data(), 2);
  EXPECT_CONTAINS(index_error_message([&] { (void)v[2]; }), "view.hpp:");
}

}  // namespace
