// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
#pragma once
/// @file The serial backend's `parallel_for`: a plain loop on the calling thread, in index order.
/// An exception thrown by the kernel propagates at once; later indices do not run.

#include <tack/core/index.hpp>
#include <tack/exec/backend.hpp>
#include <tack/exec/backend/cpu/blocks.hpp>
#include <tack/exec/range.hpp>

namespace tack::detail {

template <>
struct parallel_for_impl<serial_backend> {
  template <class F>
  TACK_IMPL_FLATTEN_LOOP static void run(index_t n, const F& f) {
    if constexpr (has_run_range<F>) {
      f.run_range(0, n);
    } else {
      with_local_kernel(f, [&](const F& k) {  // a local copy cannot alias the kernel's stores
        for (index_t i = 0; i < n; ++i) k(i);
      });
    }
  }
  template <int Rank, class F>
  static void run(const range<Rank>& r, const F& f) {
    for_each_in_flat_range(r, 0, r.size(), f);
  }
};

}  // namespace tack::detail
