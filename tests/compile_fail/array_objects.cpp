// SPDX-License-Identifier: BSD-3-Clause
// Arrays of objects (std::string, classes with constructors or destructors) live in host memory:
// device memory spaces refuse them, and their bytes are not handed out.
// CASE 1: elements in device memory must be trivially copyable
// CASE 2: elements in device memory must be trivially copyable
// CASE 3: export_memory: the elements are not trivially copyable
// CASE 4: converts to an array_view of the same space
// CASE 5: the element type must be an object type
#include <tack/array/factories.hpp>
#include <tack/view/array_view.hpp>

#include <string>

int main() {
#if TACK_COMPILE_FAIL_CASE == 0
  tack::array<std::string, 1, tack::memory_space::host> host;
  host.push_back("kept in host memory");
  tack::array<std::string, 2> dynamic = tack::empty<std::string>({2, 3});
  tack::array_view<std::string, 2> view = dynamic;
  tack::array_view<std::string, 1, tack::memory_space::host> host_view = host;
  (void)view;
  (void)host_view;
#elif TACK_COMPILE_FAIL_CASE == 1
  tack::array<std::string, 1, tack::memory_space::device> on_device;
#elif TACK_COMPILE_FAIL_CASE == 2
  tack::array<std::string, 2, tack::memory_space::unified> unified;
#elif TACK_COMPILE_FAIL_CASE == 3
  tack::array<std::string> strings;
  auto bytes = strings.export_memory();
#elif TACK_COMPILE_FAIL_CASE == 4
  tack::array<int, 1, tack::memory_space::host> host_ints;
  tack::array_view<int, 1, tack::memory_space::device> device_view = host_ints;
#elif TACK_COMPILE_FAIL_CASE == 5
  tack::array<int&> references;
#endif
  return 0;
}
