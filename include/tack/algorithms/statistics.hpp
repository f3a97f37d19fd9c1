// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
#pragma once
/// @file Statistics over any readable array (DESIGN §8): `mean`, `variance`, `stddev`.
///
/// Like every reduction (algorithms/reduce.hpp) they combine scalar components: the mean of a
/// `vec3f` array of `n` elements is the sum of its `3n` floats divided by `3n`, and a statistic's
/// count `N` is the number of scalar components. Floating-point arrays give their own type;
/// integer and `bool` arrays give `double` (each value is converted before it is added, so the
/// sum cannot overflow). The variance takes two passes (the mean, then the squared deviations
/// from it), each summed pairwise: no catastrophic cancellation as in `E[x²] - E[x]²`.

#include <tack/algorithms/reduce.hpp>

#include <cmath>
#include <string>
#include <type_traits>

namespace tack {
namespace detail {

/// What `mean` / `variance` return for components of type `S`.
template <class S>
using statistic_t = std::conditional_t<std::is_floating_point_v<S>, S, double>;

/// `(x - mean)²` in the statistic's type.
template <class R>
struct squared_deviation {
  R mean;
  template <class S>
  TACK_FORCEINLINE constexpr R operator()(const S& x) const {
    const R d = static_cast<R>(x) - mean;
    return d * d;
  }
};

}  // namespace detail

TACK_IMPL_KERNEL_ABI_BEGIN

/// The arithmetic mean of the scalar components of `a`; an empty `a` is a `value_error` naming
/// it. `float m = tack::mean(a);  // of 3n floats for a vec3f array`
template <detail::algorithm_array A>
auto mean(const A& a) {
  using R = detail::statistic_t<detail::algorithm_scalar_t<A>>;
  constexpr index_t per = components_v<detail::algorithm_value_t<A>>;
  const index_t n = detail::algorithm_size(a) * per;
  if (n == 0) detail::throw_empty("tack::mean", a, "the mean of no values is undefined");
  return static_cast<R>(detail::reduce_components("tack::mean", a, R{}, ops::plus{}) /
                        static_cast<R>(n));
}

/// The variance `sum((x - mean)²) / (N - ddof)` of the `N` scalar components of `a` (`ddof = 1`
/// gives the unbiased estimate). `N - ddof <= 0` or `ddof < 0` is a `value_error` naming both.
/// `double v = tack::variance(a, 1);`
template <detail::algorithm_array A>
auto variance(const A& a, index_t ddof = 0) {
  using R = detail::statistic_t<detail::algorithm_scalar_t<A>>;
  constexpr index_t per = components_v<detail::algorithm_value_t<A>>;
  const index_t n = detail::algorithm_size(a) * per;
  if (n == 0) detail::throw_empty("tack::variance", a, "the variance of no values is undefined");
  if (ddof < 0 || n - ddof <= 0) {
    throw value_error("tack::variance: ddof = " + std::to_string(ddof) + " with " +
                      std::to_string(n) + " values of " + detail::describe_argument(a) +
                      "; ddof must be >= 0 and less than the number of values");
  }
  const R m = tack::mean(a);
  const R ss = detail::with_kernel_form_on(
      detail::algorithm_device(a), "tack::variance", a, [&](auto backend, const auto& k) {
        using K = std::remove_cvref_t<decltype(k)>;
        const detail::transformed_reader<K, detail::squared_deviation<R>> read{{k}, {m}};
        return tack::parallel_reduce(backend, read.read.count(), R{}, read,
                                     detail::leaf_op<K, R>(ops::plus{}));
      });
  return static_cast<R>(ss / static_cast<R>(n - ddof));
}

/// The standard deviation: `sqrt(variance(a, ddof))`, with the same errors.
/// `float s = tack::stddev(a);`
template <detail::algorithm_array A>
auto stddev(const A& a, index_t ddof = 0) {
  using std::sqrt;
  return sqrt(tack::variance(a, ddof));
}

TACK_IMPL_KERNEL_ABI_END

}  // namespace tack
