// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
// Kernel launches refused at compile time: the CUDA backend outside nvcc, the HIP backend outside
// hipcc, kernels with the wrong signature for parallel_for / parallel_reduce / parallel_scan.
// CASE 1: tack::cuda_backend (needs a CUDA build of tack|kernels must be compiled by nvcc)
// CASE 2: the kernel must be callable as f.tack::index_t i. const
// CASE 3: the kernel must be callable as f.tack::index_t i, tack::index_t j. const
// CASE 4: f.i. must return a value convertible to the type of init
// CASE 5: store must be callable as store.tack::index_t i, T exclusive, T inclusive.
// CASE 6: op must be callable as op.T, T. -> T
// CASE 7: tack::hip_backend (needs a HIP build of tack|kernels must be compiled by hipcc)
#include <tack/exec/parallel_for.hpp>
#include <tack/exec/parallel_reduce.hpp>
#include <tack/exec/parallel_scan.hpp>

#include <string>

int main() {
  int out[8] = {};
  int* p = out;
  tack::parallel_for(tack::serial_backend{}, 8, [=](tack::index_t i) { p[i] = 1; });  // case 0
#if TACK_COMPILE_FAIL_CASE == 1
  tack::parallel_for(tack::cuda_backend{}, 8, [=](tack::index_t i) { p[i] = 1; });
#elif TACK_COMPILE_FAIL_CASE == 2
  tack::parallel_for(tack::serial_backend{}, 8, [=](tack::index_t i, tack::index_t) { p[i] = 1; });
#elif TACK_COMPILE_FAIL_CASE == 3
  tack::parallel_for(tack::serial_backend{}, tack::range{2, 4}, [=](tack::index_t i) { p[i] = 1; });
#elif TACK_COMPILE_FAIL_CASE == 4
  (void)tack::parallel_reduce(tack::serial_backend{}, 8, 0.0,
                              [](tack::index_t) { return std::string("x"); });
#elif TACK_COMPILE_FAIL_CASE == 5
  (void)tack::parallel_scan(
      tack::serial_backend{}, 8, 0, [](tack::index_t) { return 1; },
      [=](tack::index_t i, int inclusive) { p[i] = inclusive; });
#elif TACK_COMPILE_FAIL_CASE == 6
  (void)tack::parallel_reduce(
      tack::serial_backend{}, 8, 0, [](tack::index_t) { return 1; },
      [](std::string a, std::string) { return a; });
#elif TACK_COMPILE_FAIL_CASE == 7
  tack::parallel_for(tack::hip_backend{}, 8, [=](tack::index_t i) { p[i] = 1; });
#endif
  return out[0];
}
