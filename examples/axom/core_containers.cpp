// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
// Axom's core containers examples with tack: prints the outputs the Axom page documents.

#include "core_containers.hpp"

#include <iostream>

int main() {
  axom_examples::array_basic(std::cout);
  axom_examples::array_tuples(std::cout);
  axom_examples::external_buffer(std::cout);
  axom_examples::spacing(std::cout);
  axom_examples::iteration(std::cout);
  return 0;
}
