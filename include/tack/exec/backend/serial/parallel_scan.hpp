// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
#pragma once
/// @file The serial backend's `parallel_scan`: one pass in index order (a two-pass blocked scan
/// would read the input twice for nothing on one thread).

#include <tack/core/index.hpp>
#include <tack/exec/backend.hpp>
#include <tack/exec/backend/cpu/blocks.hpp>

namespace tack::detail {

template <>
struct parallel_scan_impl<serial_backend> {
  template <class T, class V, class S, class Op>
  static T run(index_t n, T init, const V& value, const S& store, const Op& op) {
    return scan_sequential<T>(0, n, init, value, store, op);
  }
};

}  // namespace tack::detail
