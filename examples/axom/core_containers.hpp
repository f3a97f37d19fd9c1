// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
#pragma once
/// @file The examples of Axom's core containers page (Array, MCArray, ArrayView with spacing,
/// iteration), written with tack. Each function prints what the page documents; the example
/// program prints them all, and tests/array/axom_examples_test.cpp checks every line.

#include <tack/array/factories.hpp>
#include <tack/array/format.hpp>
#include <tack/view/array_view.hpp>

#include <ostream>
#include <string>

namespace axom_examples {

using tack::index_t;

/// Axom prints a 2-D array or view as one row per line: "[\n  [1, 4, 2]\n  [8, 0, -1]\n]".
template <class A>
void print_tuples(std::ostream& os, const A& a) {
  os << "[\n";
  for (index_t i = 0; i < a.extent(0); ++i) {
    os << "  [";
    for (index_t j = 0; j < a.extent(1); ++j) os << (j ? ", " : "") << a(i, j);
    os << "]\n";
  }
  os << "]\n";
}

/// Array instead of std::vector: push_back, size, insert.
inline void array_basic(std::ostream& os) {
  tack::array<int> a;  // an empty, growable array, like std::vector<int>
  a.push_back(2);
  a.push_back(5);
  a.push_back(11);
  os << "Length of a = " << a.size() << "\n";
  a.push_back(4);
  os << "After appending a value, a's length = " << a.size() << "\n";
  os << "Array a = " << a << "\n";
  a.insert(2, 6);
  a.insert(4, 1);
  os << "After inserting two values, Array a = " << a << "\n";
}

/// MCArray (Array<T, 2>): tuples as rows; inserting rows.
inline void array_tuples(std::ostream& os) {
  tack::mc_array<int> b = tack::array_from<int>({{1, 4, 2}, {8, 0, -1}});
  os << "MCArray b with " << b.extent(0) << " " << b.extent(1) << "-tuples = ";
  print_tuples(os, b);
  b.insert(1, {0, -1, 1, 1, -1, 0});  // two 3-tuples before row 1
  os << "MCArray b with " << b.extent(0) << " " << b.extent(1) << "-tuples = ";
  print_tuples(os, b);
}

/// MCArrayView over an array's own buffer: the same memory, read as 2-tuples.
inline void external_buffer(std::ostream& os) {
  auto a = tack::array_from<int>({2, 5, 6, 11, 1, 4});
  os << "Array a = " << a << "\n";
  tack::mc_array_view<int> c(a.data(), 3, 2);
  os << "MCArrayView c with " << c.extent(0) << " " << c.extent(1) << "-tuples = ";
  print_tuples(os, c);
  if (c.data() == a.data()) {
    os << "Array a and MCArrayView c use the same memory, a's internal buffer.\n";
  }
  c(0, 0) = 1;
  c(1, 1) = 9;
  os << "Array a = " << a << "\n";
  os << "MCArrayView c with " << c.extent(0) << " " << c.extent(1) << "-tuples = ";
  print_tuples(os, c);
}

/// Prints every element of a 2-D view as "a(i,j) = value".
template <class V>
void show_2d_view(std::ostream& os, const V& a) {
  for (index_t i = 0; i < a.extent(0); ++i) {
    for (index_t j = 0; j < a.extent(1); ++j) {
      os << "a(" << i << "," << j << ") = " << a(i, j) << "\n";
    }
  }
}

/// ArrayView with a spacing: the third string of every 4-tuple of a 2-D array of 4-tuples.
inline void spacing(std::ostream& os) {
  const tack::shape shape{2, 3};  // shape of the 2x3 array of tuples
  constexpr index_t tuple_size = 4;
  // A 2-D array of 4-tuples of strings, stored as a 3-D array.
  auto array_of_4tuples = tack::empty<std::string>({shape[0], shape[1], tuple_size});
  for (index_t i = 0; i < shape[0]; ++i) {
    for (index_t j = 0; j < shape[1]; ++j) {
      for (index_t t = 0; t < tuple_size; ++t) {
        std::string& s = array_of_4tuples(i, j, t);
        s.append("(").append(std::to_string(i)).append(",").append(std::to_string(j));
        s.append(").").append(std::to_string(t));
      }
    }
  }
  // The third item of each 4-tuple, as if they were an array of their own.
  tack::array_view<std::string, 2> view_of_third(array_of_4tuples.data() + 2, shape, tuple_size);
  os << "Third components of 2D array of 4-tuples:\n";
  show_2d_view(os, view_of_third);
}

/// Iteration: operator() over the shape, range-for and operator[] over the full buffer.
inline void iteration(std::ostream& os) {
  auto a = tack::array_from<int>({1, 5, 6, 9, 1, 4});
  tack::mc_array_view<int> c(a.data(), 3, 2);
  for (index_t i = 0; i < c.extent(0); ++i) {
    for (index_t j = 0; j < c.extent(1); ++j) {
      os << "In ArrayView c, index (" << i << ", " << j << ") yields " << c(i, j) << "\n";
    }
  }
  os << "Range-based for loop over ArrayView c yields:";
  for (const int value : c) os << " " << value;
  os << "\n";
  os << "Standard for loop over ArrayView c yields:";
  for (index_t k = 0; k < c.size(); ++k) os << " " << c[k];
  os << "\n";
}

}  // namespace axom_examples
