// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
#pragma once
/// @file `tack::stack_array<T, N>`: a fixed-size array held by value, usable inside device lambdas
/// (Axom's StackArray: older nvcc could not capture C arrays in device lambdas).

#include <tack/core/index.hpp>
#include <tack/core/macros.hpp>
#include <tack/core/precondition.hpp>

namespace tack {

/// `N` values of `T` by value; trivially copyable when `T` is.
/// `tack::stack_array<int, 3> dims{{4, 5, 6}}; parallel_for(n, TACK_LAMBDA(index_t i) { dims[0]; });`
template <class T, int N>
struct stack_array {
  static_assert(N >= 1, "tack::stack_array: N must be at least 1");
  T values[N];

  using value_type = T;
  TACK_INLINE static constexpr index_t size() noexcept { return N; }
  TACK_INLINE constexpr T& operator[](index_t i) noexcept {
    TACK_EXPECTS(i >= 0 && i < N, "tack::stack_array: index %lld out of range for size %d",
                 (long long)i, N);
    return values[i];
  }
  TACK_INLINE constexpr const T& operator[](index_t i) const noexcept {
    TACK_EXPECTS(i >= 0 && i < N, "tack::stack_array: index %lld out of range for size %d",
                 (long long)i, N);
    return values[i];
  }
  TACK_INLINE constexpr T* data() noexcept { return values; }
  TACK_INLINE constexpr const T* data() const noexcept { return values; }
  TACK_INLINE constexpr T* begin() noexcept { return values; }
  TACK_INLINE constexpr T* end() noexcept { return values + N; }
  TACK_INLINE constexpr const T* begin() const noexcept { return values; }
  TACK_INLINE constexpr const T* end() const noexcept { return values + N; }
  TACK_INLINE friend constexpr bool operator==(const stack_array& a,
                                               const stack_array& b) noexcept {
    for (int i = 0; i < N; ++i)
      if (!(a.values[i] == b.values[i])) return false;
    return true;
  }
};

}  // namespace tack
