// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
#pragma once
/// @file `tack::range{nx, ny[, nz]}`: a 1-, 2- or 3-dimensional iteration space for `parallel_for`.
///
/// `parallel_for(tack::range{nx, ny}, f)` calls `f(i, j)` for every `i < nx`, `j < ny`. The last
/// index varies fastest (row-major, like `a(i, j)` of a `layout_right` view), so consecutive
/// iterations touch consecutive memory on the CPU and coalesce on the GPU.

#include <tack/core/index.hpp>
#include <tack/core/macros.hpp>

#include <concepts>

namespace tack {

/// An iteration space of `Rank` extents (1 to 3); extents are checked by `parallel_for`
/// (negative: `value_error`; a zero extent runs nothing).
/// `tack::parallel_for(tack::range{rows, cols}, TACK_LAMBDA(tack::index_t i, tack::index_t j) {
/// m(i, j) = 0; });`
template <int Rank>
class range {
  static_assert(Rank >= 1 && Rank <= 3,
                "tack::range: rank must be 1, 2 or 3; flatten the "
                "outer dimensions of a larger iteration space");

public:
  /// The number of indices `f` receives.
  static constexpr int rank = Rank;

  /// One extent per dimension, outermost first: `tack::range{nx, ny, nz}`.
  template <std::integral... I>
  requires(sizeof...(I) == Rank) TACK_HOST_DEVICE constexpr range(I... extents) noexcept
      : extents_{static_cast<index_t>(extents)...} {}

  /// Extent of dimension `d` (0 is the outermost, slowest-varying).
  TACK_HOST_DEVICE constexpr index_t extent(int d) const noexcept { return extents_[d]; }

  /// The number of iterations: the product of the extents (computed without overflow checks;
  /// `parallel_for` checks it).
  TACK_HOST_DEVICE constexpr index_t size() const noexcept {
    index_t s = 1;
    for (int d = 0; d < Rank; ++d) s *= extents_[d];
    return s;
  }

private:
  index_t extents_[Rank];
};

/// `tack::range{nx, ny}` is a `range<2>`.
template <std::integral... I>
TACK_HOST_DEVICE range(I...)->range<static_cast<int>(sizeof...(I))>;

namespace detail {

/// Calls `f(i[, j[, k]])` for the flat positions `[begin, end)` of `r` in row-major order. The
/// flat start is decoded once; then the loops run as nested loops (no division per iteration).
template <class F>
TACK_INLINE void for_each_in_flat_range(const range<1>&, index_t begin, index_t end, const F& f) {
  for (index_t i = begin; i < end; ++i) f(i);
}

template <class F>
TACK_INLINE void for_each_in_flat_range(const range<2>& r, index_t begin, index_t end, const F& f) {
  const index_t ny = r.extent(1);
  index_t i = begin / ny;
  index_t j = begin % ny;
  for (index_t t = begin; t < end; ++i) {
    const index_t j_end = (end - t < ny - j) ? j + (end - t) : ny;
    for (index_t jj = j; jj < j_end; ++jj) f(i, jj);
    t += j_end - j;
    j = 0;
  }
}

template <class F>
TACK_INLINE void for_each_in_flat_range(const range<3>& r, index_t begin, index_t end, const F& f) {
  const index_t ny = r.extent(1);
  const index_t nz = r.extent(2);
  const index_t plane = ny * nz;
  index_t i = begin / plane;
  index_t j = (begin % plane) / nz;
  index_t k = begin % nz;
  for (index_t t = begin; t < end;) {
    const index_t k_end = (end - t < nz - k) ? k + (end - t) : nz;
    for (index_t kk = k; kk < k_end; ++kk) f(i, j, kk);
    t += k_end - k;
    k = 0;
    if (++j == ny) {
      j = 0;
      ++i;
    }
  }
}

/// Calls `f` with the indices of flat position `t` of `r` (used where each iteration is decoded
/// on its own, as in a CUDA thread).
template <class F>
TACK_FORCEINLINE void call_at_flat_index(const range<1>&, index_t t, const F& f) {
  f(t);
}
template <class F>
TACK_FORCEINLINE void call_at_flat_index(const range<2>& r, index_t t, const F& f) {
  f(t / r.extent(1), t % r.extent(1));
}
template <class F>
TACK_FORCEINLINE void call_at_flat_index(const range<3>& r, index_t t, const F& f) {
  const index_t nz = r.extent(2);
  const index_t rest = t / nz;
  f(rest / r.extent(1), rest % r.extent(1), t % nz);
}

}  // namespace detail
}  // namespace tack
