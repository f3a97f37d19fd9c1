// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
// An implicit array computes its values and has no memory: exporting one through DLPack does not
// compile, and the message says to copy it into a tack::array first. Case 0 exports a stored array.
// CASE 1: tack::to_dlpack: only a tack::array has memory to export.*copy it into a tack::array first
// CASE 2: tack::to_dlpack_legacy: only a tack::array has memory to export.*copy it into a tack::array first

#include <tack/array/factories.hpp>
#include <tack/arrays/counting.hpp>
#include <tack/interop/dlpack.hpp>

int main() {
  auto stored = tack::zeros<float>({4});
  auto* t = tack::to_dlpack(stored);
  t->deleter(t);
  auto c = tack::arrays::counting<float>(4);
  (void)c;
#if TACK_COMPILE_FAIL_CASE == 1
  auto* bad = tack::to_dlpack(c);
  (void)bad;
#elif TACK_COMPILE_FAIL_CASE == 2
  auto* bad = tack::to_dlpack_legacy(c);
  (void)bad;
#endif
  return 0;
}
