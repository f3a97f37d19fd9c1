// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
#pragma once
/// @file Global reductions of a `distributed_array`: `sum`, `min`, `max`, `dot`, `mean`, over the
/// owned rows of every rank (ghost rows are not counted), on every rank.
///
/// Like `tack::sum`, they combine scalar components (a `vec3f` array of `n` elements sums `3n`
/// floats). Floating-point sums (`sum`, `dot`, `mean`) add the global scalar index space in one
/// fixed binary tree (detail::ordered_sum), so the result is bit-identical for every number of
/// ranks and every partition; integer sums are exact (wrapping on overflow as the integer type
/// does); `min` and `max` are exact. Each call first agrees collectively on the arrays
/// (`value_error` on every rank when a rank passes another shape). Device pieces are read through
/// a host copy.

#include <tack/algorithms/reduce.hpp>
#include <tack/mpi/distributed_array.hpp>
#include <tack/types/scalar.hpp>

#include <limits>
#include <string>
#include <type_traits>

namespace tack::mpi {
namespace detail {

/// The owned rows of `a` in host memory: the row view itself, or a host copy of it.
template <class T, int Rank>
array<T, Rank> host_local(const distributed_array<T, Rank>& a) {
  auto l = a.local();
  if (l.host_accessible()) return l;
  tack::options o;
  o.device = tack::cpu();
  return l.copy(o);
}

/// Scalar components per global row of `a`.
template <class T, int Rank>
index_t scalars_per_row(const distributed_array<T, Rank>& a) {
  index_t n = components_v<T>;
  const auto g = a.global_shape();
  for (int d = 1; d < Rank; ++d) n *= g[static_cast<std::size_t>(d)];
  return n;
}

/// The first scalar of `l` (a host AoS array; its elements' components are consecutive).
template <class T, int Rank>
const scalar_t<T>* scalars(const array<T, Rank>& l) {
  if (l.size() == 0) return nullptr;
  return reinterpret_cast<const scalar_t<T>*>(l.data());
}

template <class T, int Rank>
[[noreturn]] void throw_empty_global(const char* what, const distributed_array<T, Rank>& a) {
  throw value_error(std::string(what) + ": " + a.describe() +
                    " has no elements on any rank; the result is undefined");
}

/// `op` of the local values of `a` (or `identity` when it owns none), then across the ranks.
template <class T, int Rank, class Local>
scalar_t<T> extremum(const char* what, const distributed_array<T, Rank>& a, reduce_op op,
                     scalar_t<T> identity, Local local) {
  using S = scalar_t<T>;
  agree(a.comm(), what, a.signature());
  if (a.global_shape()[0] * scalars_per_row(a) == 0) throw_empty_global(what, a);
  const auto l = host_local(a);
  const S mine = l.size() > 0 ? static_cast<S>(local(l)) : identity;
  S out{};
  allreduce(a.comm(), &mine, &out, 1, kind_of<S>(), op, what);
  return out;
}

}  // namespace detail

/// The sum of every owned scalar component on every rank, returned on every rank; for floating
/// point bit-identical for any number of ranks. `double total = tack::mpi::sum(u);`
template <class T, int Rank>
auto sum(const distributed_array<T, Rank>& a) {
  using S = scalar_t<T>;
  using R = tack::detail::sum_result_t<S>;
  const char* what = "tack::mpi::sum";
  detail::agree(a.comm(), what, a.signature());
  const auto l = detail::host_local(a);
  const index_t per_row = detail::scalars_per_row(a);
  if constexpr (std::is_floating_point_v<S>) {
    return detail::ordered_sum<S, S>(a.comm(), detail::scalars(l), nullptr,
                                     a.first_row() * per_row, a.local_rows() * per_row,
                                     a.global_shape()[0] * per_row, what);
  } else {
    const R mine = l.size() > 0 ? tack::sum(l) : R{};
    R out{};
    detail::allreduce(a.comm(), &mine, &out, 1, detail::kind_of<R>(), detail::reduce_op::sum, what);
    return out;
  }
}

/// The smallest owned scalar component over all ranks; no elements anywhere is a `value_error`.
/// `double lo = tack::mpi::min(u);`
template <class T, int Rank>
scalar_t<T> min(const distributed_array<T, Rank>& a) {
  using S = scalar_t<T>;
  return detail::extremum("tack::mpi::min", a, detail::reduce_op::min,
                          tack::ops::min::identity<S>(), [](const auto& l) { return tack::min(l); });
}

/// The largest owned scalar component over all ranks; no elements anywhere is a `value_error`.
/// `double hi = tack::mpi::max(u);`
template <class T, int Rank>
scalar_t<T> max(const distributed_array<T, Rank>& a) {
  using S = scalar_t<T>;
  return detail::extremum("tack::mpi::max", a, detail::reduce_op::max,
                          tack::ops::max::identity<S>(), [](const auto& l) { return tack::max(l); });
}

/// The sum of the products of paired scalar components of `a` and `b`, which must have the same
/// global shape and partition (`value_error` on every rank otherwise); for floating point
/// bit-identical for any number of ranks. `double d = tack::mpi::dot(u, v);`
template <class T, int Rank, class U>
auto dot(const distributed_array<T, Rank>& a, const distributed_array<U, Rank>& b) {
  using S = scalar_t<T>;
  static_assert(std::is_same_v<S, scalar_t<U>>,
                "tack::mpi::dot: both arrays must have the same scalar type; convert one with "
                "astype<U>() first");
  static_assert(components_v<T> == components_v<U>,
                "tack::mpi::dot: both arrays must have the same components per element");
  const char* what = "tack::mpi::dot";
  detail::agree(a.comm(), what, a.signature() + " with " + b.signature());
  if (a.global_shape() != b.global_shape() || !(a.rows() == b.rows())) {
    throw value_error(std::string(what) + ": the arrays differ in global shape or partition: " +
                      a.signature() + " and " + b.signature());
  }
  const auto la = detail::host_local(a);
  const auto lb = detail::host_local(b);
  const index_t per_row = detail::scalars_per_row(a);
  if constexpr (std::is_floating_point_v<S>) {
    return detail::ordered_sum<S, S>(a.comm(), detail::scalars(la), detail::scalars(lb),
                                     a.first_row() * per_row, a.local_rows() * per_row,
                                     a.global_shape()[0] * per_row, what);
  } else {
    using R = tack::detail::sum_result_t<std::remove_cvref_t<decltype(S{} * S{})>>;
    const R mine = la.size() > 0 ? static_cast<R>(tack::dot(la, lb)) : R{};
    R out{};
    detail::allreduce(a.comm(), &mine, &out, 1, detail::kind_of<R>(), detail::reduce_op::sum, what);
    return out;
  }
}

/// The mean of every owned scalar component over all ranks: floating-point arrays give their own
/// type, integer and `bool` arrays `double` (as `tack::mean`); bit-identical for any number of
/// ranks. No elements anywhere is a `value_error`. `double m = tack::mpi::mean(u);`
template <class T, int Rank>
auto mean(const distributed_array<T, Rank>& a) {
  using S = scalar_t<T>;
  using R = std::conditional_t<std::is_floating_point_v<S>, S, double>;
  const char* what = "tack::mpi::mean";
  detail::agree(a.comm(), what, a.signature());
  const index_t per_row = detail::scalars_per_row(a);
  const index_t total = a.global_shape()[0] * per_row;
  if (total == 0) detail::throw_empty_global(what, a);
  const auto l = detail::host_local(a);
  const R s = detail::ordered_sum<R, S>(a.comm(), detail::scalars(l), nullptr,
                                        a.first_row() * per_row, a.local_rows() * per_row, total,
                                        what);
  return static_cast<R>(s / static_cast<R>(total));
}

}  // namespace tack::mpi
