// SPDX-License-Identifier: BSD-3-Clause
// Debug mode through arrays: a kernel view of a row view is checked against the view's own rows,
// and the report names the index, the view's rows and the root's rows.
#define TACK_BOUNDS_CHECK 1
#include <tack/array/factories.hpp>
#include <tack/types/vec.hpp>

#include <gtest/gtest.h>

#include <string>

namespace {
std::string failure_of(auto&& access) {
  auto previous = tack::set_precondition_handler(tack::throwing_precondition_handler);
  std::string message;
  try {
    access();
  } catch (const tack::index_error& e) {
    message = e.what();
  }
  tack::set_precondition_handler(previous);
  return message;
}
}  // namespace

TEST(ArrayBounds, IndexPastARowViewInsideTheRootIsReported) {
  auto a = tack::zeros<float>(6);
  auto v = a.rows(2, 4).view();
  v[1] = 1.0f;                                        // inside
  const auto msg = failure_of([&] { v[2] = 1.0f; });  // row 4 of the root: past the view
  EXPECT_NE(msg.find("index 2"), std::string::npos) << msg;
  EXPECT_NE(msg.find("extent 2"), std::string::npos) << msg;
  EXPECT_NE(msg.find("rows [2, 4)"), std::string::npos) << msg;
  EXPECT_NE(msg.find("6 rows"), std::string::npos) << msg;
  EXPECT_EQ(a(4), 0.0f);  // nothing written
}

TEST(ArrayBounds, SoaRowViews) {
  auto a = tack::zeros<tack::vec3f>(6, {.layout = tack::layout::soa});
  auto v = a.rows(1, 3).soa_view();
  const auto msg = failure_of([&] {
    tack::vec3f x = v[5];
    (void)x;
  });
  EXPECT_NE(msg.find("index 5"), std::string::npos) << msg;
  EXPECT_NE(msg.find("rows [1, 3)"), std::string::npos) << msg;
}
