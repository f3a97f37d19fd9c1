// SPDX-License-Identifier: BSD-3-Clause
// Sorting refuses at compile time what cannot work: a read-only array, a rank other than 1, a
// comparator that cannot compare two elements, a function pointer as the comparator of an array
// in device memory, non-scalar elements or keys without a comparator.
// CASE 1: tack::sort: sorts in place; pass a writable array
// CASE 2: tack::sort: sorts rank-1 arrays
// CASE 3: comp must be callable as comp\(const T& x, const T& y\), T the element type
// CASE 4: a is in device memory, where a function pointer cannot be called
// CASE 5: sort other elements with a comparator, tack::sort\(a, comp\)
// CASE 6: comp must be callable as comp\(const K& x, const K& y\), K the key type
// CASE 7: tack::sort_by_key: sorts rank-1 arrays
// CASE 8: order other keys with a comparator, tack::sort_by_key\(keys, values, comp\)
// CASE 9: the arrays are in device memory, where a function pointer cannot be called
#include <tack/algorithms/sort.hpp>
#include <tack/array/factories.hpp>
#include <tack/types/vec.hpp>

#include <functional>

bool less_int(const int& a, const int& b) { return a < b; }
struct x_less {
  bool operator()(const tack::vec3f& a, const tack::vec3f& b) const { return a[0] < b[0]; }
};

int main() {
  auto ints = tack::zeros<int>(4);
  auto points = tack::zeros<tack::vec3f>(4);
  auto grid = tack::zeros<int>({2, 3});
  tack::array<int, 1, tack::memory_space::device> on_device;
  (void)grid;
  (void)on_device;
#if TACK_COMPILE_FAIL_CASE == 0
  tack::sort(ints, std::greater<int>{});
  tack::sort(ints, less_int);  // a function pointer is fine for memory that may be on the host
  tack::sort(points, x_less{});
  tack::sort_by_key(points, ints, x_less{});
  tack::sort(on_device, std::greater<int>{});
#elif TACK_COMPILE_FAIL_CASE == 1
  tack::sort(ints.as_const(), std::less<int>{});
#elif TACK_COMPILE_FAIL_CASE == 2
  tack::sort(grid, std::less<int>{});
#elif TACK_COMPILE_FAIL_CASE == 3
  tack::sort(points, std::less<int>{});
#elif TACK_COMPILE_FAIL_CASE == 4
  tack::sort(on_device, less_int);
#elif TACK_COMPILE_FAIL_CASE == 5
  tack::sort(points);
#elif TACK_COMPILE_FAIL_CASE == 6
  tack::sort_by_key(points, ints, std::less<int>{});
#elif TACK_COMPILE_FAIL_CASE == 7
  tack::sort_by_key(grid, ints, std::less<int>{});
#elif TACK_COMPILE_FAIL_CASE == 8
  tack::sort_by_key(points, ints);
#elif TACK_COMPILE_FAIL_CASE == 9
  tack::sort_by_key(ints, on_device, less_int);
#endif
  return 0;
}
