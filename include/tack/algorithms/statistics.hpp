// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
#pragma once
/// @file Statistics over any readable array: `mean`, `variance`, `stddev`.
///
/// Like every reduction (algorithms/reduce.hpp) they combine scalar components: the mean of a
/// `vec3f` array of `n` elements is the sum of its `3n` floats divided by `3n`, and a statistic's
/// count `N` is the number of scalar components. An explicit count `n` (`mean(a, n)`) takes the
/// first `n` scalar components in storage order: component `c` of element `i` is number
/// `i * C + c` (`C` components per element), the order of interleaved memory, in either layout.
/// Floating-point arrays give their own type;
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

/// The count a statistic reads: all `total` components, or an explicit `n` in `[1, total]`
/// (`value_error` naming `n` and the array otherwise; an empty array is `throw_empty`'s error).
template <class A>
index_t statistic_count(const char* op, const A& a, index_t total, index_t n, const char* why) {
  if (total == 0) throw_empty(op, a, why);
  if (n < 1 || n > total) {
    throw value_error(std::string(op) + ": n = " + std::to_string(n) + " scalar components of " +
                      describe_argument(a) + ", which has " + std::to_string(total) +
                      "; n must be between 1 and the number of scalar components");
  }
  return n;
}

/// The sum of the first `n` scalar components of `a` in the statistic's type `R`.
template <class R, class A>
R sum_first_components(const char* op, const A& a, index_t n) {
  return with_kernel_form_on(algorithm_device(a), op, a, [&](auto backend, const auto& k) {
    using K = std::remove_cvref_t<decltype(k)>;
    const component_reader<K> read{k};
    return tack::parallel_reduce(backend, n, R{}, read, leaf_op<K, R>(ops::plus{}));
  });
}

/// The number of scalar components of `a`.
template <class A>
index_t component_count(const A& a) {
  return algorithm_size(a) * components_v<algorithm_value_t<A>>;
}

}  // namespace detail

/// The `ddof` of `variance` and `stddev` ("delta degrees of freedom", NumPy's keyword): the
/// divisor is `N - ddof`. `double v = tack::variance(a, tack::ddof{1});  // unbiased`
struct ddof {
  index_t value = 0;
};

TACK_IMPL_KERNEL_ABI_BEGIN

/// The arithmetic mean of the first `n` scalar components of `a` in storage order; `n` outside
/// `[1, N]` is a `value_error` naming `n` and `a`. `float m = tack::mean(points, 3);  // of points[0]`
template <detail::algorithm_array A>
auto mean(const A& a, index_t n) {
  using R = detail::statistic_t<detail::algorithm_scalar_t<A>>;
  n = detail::statistic_count("tack::mean", a, detail::component_count(a), n,
                              "the mean of no values is undefined");
  return static_cast<R>(detail::sum_first_components<R>("tack::mean", a, n) / static_cast<R>(n));
}

/// The arithmetic mean of the scalar components of `a`; an empty `a` is a `value_error` naming
/// it. `float m = tack::mean(a);  // of 3n floats for a vec3f array`
template <detail::algorithm_array A>
auto mean(const A& a) {
  const index_t total = detail::component_count(a);
  if (total == 0) detail::throw_empty("tack::mean", a, "the mean of no values is undefined");
  return tack::mean(a, total);
}

/// The variance `sum((x - mean)²) / (n - ddof)` of the first `n` scalar components of `a` in
/// storage order (`ddof{1}` gives the unbiased estimate). `n` outside `[1, N]`, `ddof < 0` or
/// `n - ddof <= 0` is a `value_error` naming them. `double v = tack::variance(a, 6, tack::ddof{1});`
template <detail::algorithm_array A>
auto variance(const A& a, index_t n, ddof d = {}) {
  using R = detail::statistic_t<detail::algorithm_scalar_t<A>>;
  n = detail::statistic_count("tack::variance", a, detail::component_count(a), n,
                              "the variance of no values is undefined");
  if (d.value < 0 || n - d.value <= 0) {
    throw value_error("tack::variance: ddof = " + std::to_string(d.value) + " with " +
                      std::to_string(n) + " values of " + detail::describe_argument(a) +
                      "; ddof must be >= 0 and less than the number of values");
  }
  const R m = tack::mean(a, n);
  const R ss = detail::with_kernel_form_on(
      detail::algorithm_device(a), "tack::variance", a, [&](auto backend, const auto& k) {
        using K = std::remove_cvref_t<decltype(k)>;
        const detail::transformed_reader<K, detail::squared_deviation<R>> read{{k}, {m}};
        return tack::parallel_reduce(backend, n, R{}, read, detail::leaf_op<K, R>(ops::plus{}));
      });
  return static_cast<R>(ss / static_cast<R>(n - d.value));
}

/// The variance of all `N` scalar components of `a`, `sum((x - mean)²) / (N - ddof)`; an empty
/// `a` is a `value_error` naming it. `double v = tack::variance(a, tack::ddof{1});`
template <detail::algorithm_array A>
auto variance(const A& a, ddof d = {}) {
  const index_t total = detail::component_count(a);
  if (total == 0)
    detail::throw_empty("tack::variance", a, "the variance of no values is undefined");
  return tack::variance(a, total, d);
}

/// The standard deviation of the first `n` scalar components: `sqrt(variance(a, n, ddof))`, with
/// the same errors. `float s = tack::stddev(a, 3);`
template <detail::algorithm_array A>
auto stddev(const A& a, index_t n, ddof d = {}) {
  using std::sqrt;
  return sqrt(tack::variance(a, n, d));
}

/// The standard deviation of all scalar components: `sqrt(variance(a, ddof))`, with the same
/// errors. `float s = tack::stddev(a);`
template <detail::algorithm_array A>
auto stddev(const A& a, ddof d = {}) {
  using std::sqrt;
  return sqrt(tack::variance(a, d));
}

TACK_IMPL_KERNEL_ABI_END

}  // namespace tack
