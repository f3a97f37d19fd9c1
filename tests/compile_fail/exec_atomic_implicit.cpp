// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
// Atomics need an address: on a computed element (an implicit array's a[i]) they are refused at
// compile time with a message that says what to do instead; so are const targets, scalar types
// without atomics on every backend, and compare-exchange of a whole vector.
// CASE 1: no address, no atomics. Store the values into a tack::array
// CASE 2: no address, no atomics
// CASE 3: the target is const
// CASE 4: has no atomics on every backend; use float, double or a 32- or 64-bit integer
// CASE 5: a vector or matrix is not one atomic word
#include <tack/arrays/counting.hpp>
#include <tack/exec/atomic.hpp>
#include <tack/types/vec.hpp>

#include <cstdint>

namespace {
// An implicit array of vectors as the protocol returns them: computed, by value.
struct computed_vectors {
  const tack::vec3f operator[](tack::index_t i) const {
    return tack::vec3f{static_cast<float>(i), 0.0f, 0.0f};
  }
  tack::index_t size() const { return 10; }
};
}  // namespace

int main() {
  float stored[4] = {};
  tack::vec3f v{};
  tack::atomic_add(stored[1], 1.0f);  // case 0: these have addresses
  tack::atomic_add(v, tack::vec3f{1, 2, 3});
#if TACK_COMPILE_FAIL_CASE == 1
  const auto a = tack::arrays::counting<float>(10);
  tack::atomic_add(a[3], 1.0f);
#elif TACK_COMPILE_FAIL_CASE == 2
  const computed_vectors c;
  tack::atomic_max(c[3], tack::vec3f{1, 1, 1});
#elif TACK_COMPILE_FAIL_CASE == 3
  const float& read_only = stored[0];
  tack::atomic_add(read_only, 1.0f);
#elif TACK_COMPILE_FAIL_CASE == 4
  std::int16_t small = 0;
  tack::atomic_add(small, 1);
#elif TACK_COMPILE_FAIL_CASE == 5
  tack::atomic_compare_exchange(v, tack::vec3f{}, tack::vec3f{1, 1, 1});
#endif
  return static_cast<int>(stored[1]);
}
