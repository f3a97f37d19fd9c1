// SPDX-License-Identifier: BSD-3-Clause
// The example outputs of the Axom containers document (seeds/003) as tests.
#include <tack/array/factories.hpp>
#include <tack/array/format.hpp>

#include <gtest/gtest.h>

TEST(AxomExamples, ArrayBasic) {
  // "Length of a = 3 ... After appending a value, a's length = 4 ... Array a = [2, 5, 11, 4]"
  tack::array<int> a;
  a.push_back(2);
  a.push_back(5);
  a.push_back(11);
  EXPECT_EQ(a.size(), 3);
  a.push_back(4);
  EXPECT_EQ(a.size(), 4);
  EXPECT_EQ(tack::to_string(a), "[2, 5, 11, 4]");
  // "After inserting two values, Array a = [2, 5, 6, 11, 1, 4]"
  a.insert(2, 6);
  a.insert(4, 1);
  EXPECT_EQ(tack::to_string(a), "[2, 5, 6, 11, 1, 4]");
}

TEST(AxomExamples, MCArrayTuples) {
  // "MCArray b with 2 3-tuples = [ [1, 4, 2] [8, 0, -1] ]"
  tack::mc_array<int> b = tack::array_from<int>({{1, 4, 2}, {8, 0, -1}});
  EXPECT_EQ(b.shape(), (std::array<tack::index_t, 2>{2, 3}));
  EXPECT_EQ(tack::to_string(b), "[[1, 4, 2], [8, 0, -1]]");
  // "MCArray b with 4 3-tuples = [ [1, 4, 2] [0, -1, 1] [1, -1, 0] [8, 0, -1] ]"
  b.insert(1, {0, -1, 1, 1, -1, 0});
  EXPECT_EQ(b.shape(), (std::array<tack::index_t, 2>{4, 3}));
  EXPECT_EQ(tack::to_string(b), "[[1, 4, 2], [0, -1, 1], [1, -1, 0], [8, 0, -1]]");
}
