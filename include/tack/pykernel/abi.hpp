// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
#pragma once
/// @file The plain C boundary between tack's Python extension and a kernel compiled from Python.
///
/// A kernel written in Python (`@tack.kernel`) is lowered to C++ and compiled into a shared library
/// per variant (argument types). The library exports one function, `tack_pk_run`, that runs the
/// kernel body over a block of the first launch dimension. The extension fills one `tack_pk_slot`
/// per flattened argument (an array, or a number a device class or an implicit array holds) and
/// calls `tack_pk_run` once per block from tack's own threads. Only these C structs cross the
/// boundary: no C++ standard-library type, no exception, no OpenMP runtime.
///
/// `tack_pk_slot s{}; s.data[0] = p; s.shape[0] = n; s.ndim = 1; run(&s, dims, 0, n, &err);`

#include <stdint.h>

extern "C" {

/// The most components of an element (a 4x4 matrix), so the most pointers of a SoA array.
#define TACK_PK_MAX_COMPONENTS 16
/// The most array dimensions a slot describes (tack::max_rank).
#define TACK_PK_MAX_RANK 8
/// The version of this boundary; a compiled kernel built against another version is rebuilt.
#define TACK_PK_ABI_VERSION 2

/// One flattened argument: an array (pointers and shape) or a number (`value`).
struct tack_pk_slot {
  /// Interleaved array: `data[0]` is the first scalar. SoA array: one pointer per component.
  void* data[TACK_PK_MAX_COMPONENTS];
  /// The array's shape (elements, not scalars), `ndim` entries.
  int64_t shape[TACK_PK_MAX_RANK];
  /// A number: the member its kind reads (integers and booleans `i` or `u`, floats `f`).
  union {
    int64_t i;
    uint64_t u;
    double f;
  } value;
  int32_t ndim;
  int32_t flags;
};

/// Where a failing kernel writes its message (an index out of range in debug mode).
struct tack_pk_error {
  /// 0: none; 1: an index out of range (Python IndexError); 2: any other failure (RuntimeError);
  /// 3: a CUDA error (tack.DeviceError).
  int32_t kind;
  char message[512];
};

/// `tack_pk_run(slots, dims, begin, end, error)`: runs indices `[begin, end)` of the first launch
/// dimension (and every index of the others); returns 0, or nonzero with `error` filled.
typedef int (*tack_pk_run_fn)(const tack_pk_slot* slots, const int64_t* dims, int64_t begin,
                              int64_t end, tack_pk_error* error);

/// `tack_pk_run_cuda(slots, dims, device, stream, debug, error)`: runs every index of `dims` on
/// CUDA device `device` and `stream` (a `cudaStream_t`; null: the legacy default stream, and the
/// call waits for the device). With `debug` nonzero it always waits and reports the first failed
/// check. Returns 0, or nonzero with `error` filled. Exported by variants compiled with nvcc.
typedef int (*tack_pk_run_cuda_fn)(const tack_pk_slot* slots, const int64_t* dims, int32_t device,
                                   void* stream, int32_t debug, tack_pk_error* error);

/// `tack_pk_sum(slots, begin, end, out, error)`: the sum of the scalar components of elements
/// `[begin, end)` of the one argument, stored into `*out` (float, double, int64 or uint64, as
/// the reduction's accumulator); returns 0, or nonzero with `error` filled.
typedef int (*tack_pk_sum_fn)(const tack_pk_slot* slots, int64_t begin, int64_t end, void* out,
                              tack_pk_error* error);

/// `tack_pk_abi()`: the TACK_PK_ABI_VERSION the library was compiled with.
typedef int (*tack_pk_abi_fn)(void);

}  // extern "C"
