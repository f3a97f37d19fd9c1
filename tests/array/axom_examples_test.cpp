// SPDX-License-Identifier: BSD-3-Clause
// The examples of Axom's core containers documentation as tests: each example of
// examples/axom/core_containers.hpp prints exactly the output Axom documents for it.
#include "../../examples/axom/core_containers.hpp"

#include <tack/array/factories.hpp>
#include <tack/array/format.hpp>

#include <gtest/gtest.h>

#include <sstream>
#include <string>

namespace {

template <class F>
std::string printed(F&& example) {
  std::ostringstream os;
  example(os);
  return os.str();
}

// The document shows the outputs as text blocks; its plain text joins their lines with spaces.
std::string one_line(const std::string& text) {
  std::string out;
  bool space = false;
  for (char c : text) {
    if (c == ' ' || c == '\n') {
      space = !out.empty();
    } else {
      if (space) out += ' ';
      out += c;
      space = false;
    }
  }
  return out;
}

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

// The example program's output, example by example, against the document's text.
TEST(AxomExamples, ArrayBasicPrintsTheDocumentedText) {
  const std::string out = printed(axom_examples::array_basic);
  EXPECT_EQ(out,
            "Length of a = 3\n"
            "After appending a value, a's length = 4\n"
            "Array a = [2, 5, 11, 4]\n"
            "After inserting two values, Array a = [2, 5, 6, 11, 1, 4]\n");
  EXPECT_EQ(one_line(out),
            "Length of a = 3 After appending a value, a's length = 4 Array a = "
            "[2, 5, 11, 4] After inserting two values, Array a = [2, 5, 6, 11, 1, 4]");
}

TEST(AxomExamples, TuplesPrintTheDocumentedText) {
  const std::string out = printed(axom_examples::array_tuples);
  EXPECT_EQ(
      out,
      "MCArray b with 2 3-tuples = [\n  [1, 4, 2]\n  [8, 0, -1]\n]\n"
      "MCArray b with 4 3-tuples = [\n  [1, 4, 2]\n  [0, -1, 1]\n  [1, -1, 0]\n  [8, 0, -1]\n]\n");
  EXPECT_EQ(one_line(out),
            "MCArray b with 2 3-tuples = [ [1, 4, 2] [8, 0, -1] ] MCArray b with 4 "
            "3-tuples = [ [1, 4, 2] [0, -1, 1] [1, -1, 0] [8, 0, -1] ]");
}

TEST(AxomExamples, ExternalBufferPrintsTheDocumentedText) {
  EXPECT_EQ(
      one_line(printed(axom_examples::external_buffer)),
      "Array a = [2, 5, 6, 11, 1, 4] MCArrayView c with 3 2-tuples = [ [2, 5] [6, 11] [1, 4] "
      "] Array a and MCArrayView c use the same memory, a's internal buffer. Array a = [1, 5, "
      "6, 9, 1, 4] MCArrayView c with 3 2-tuples = [ [1, 5] [6, 9] [1, 4] ]");
}

// "The following example creates a 2D array of 4-tuples and uses an ArrayView to access the 3rd
// item in each 4-tuple": a rank-3 array of std::string, viewed with spacing 4.
TEST(AxomExamples, SpacingPrintsTheDocumentedText) {
  const std::string out = printed(axom_examples::spacing);
  EXPECT_EQ(out,
            "Third components of 2D array of 4-tuples:\n"
            "a(0,0) = (0,0).2\n"
            "a(0,1) = (0,1).2\n"
            "a(0,2) = (0,2).2\n"
            "a(1,0) = (1,0).2\n"
            "a(1,1) = (1,1).2\n"
            "a(1,2) = (1,2).2\n");
  EXPECT_EQ(one_line(out),
            "Third components of 2D array of 4-tuples: a(0,0) = (0,0).2 a(0,1) = (0,1).2 a(0,2) = "
            "(0,2).2 a(1,0) = (1,0).2 a(1,1) = (1,1).2 a(1,2) = (1,2).2");
}

TEST(AxomExamples, IterationPrintsTheDocumentedText) {
  EXPECT_EQ(one_line(printed(axom_examples::iteration)),
            "In ArrayView c, index (0, 0) yields 1 In ArrayView c, index (0, 1) yields 5 In "
            "ArrayView c, index (1, 0) yields 6 In ArrayView c, index (1, 1) yields 9 In ArrayView "
            "c, index (2, 0) yields 1 In ArrayView c, index (2, 1) yields 4 Range-based for loop "
            "over ArrayView c yields: 1 5 6 9 1 4 Standard for loop over ArrayView c yields: 1 5 6 "
            "9 1 4");
}

}  // namespace
