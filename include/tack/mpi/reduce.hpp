// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
#pragma once
/// @file Global reductions of a `distributed_array` and of a `grid_array`: `sum`, `min`, `max`,
/// `dot`, `mean`, over the owned rows (cells) of every rank (ghosts are not counted), on every rank.
///
/// Like `tack::sum`, they combine scalar components (a `vec3f` array of `n` elements sums `3n`
/// floats). Floating-point sums (`sum`, `dot`, `mean`) add the global scalar index space in one
/// fixed binary tree (detail::ordered_sum), so the result is bit-identical for every number of
/// ranks and every partition; integer sums are exact (wrapping on overflow as the integer type
/// does); `min` and `max` are exact. Each call first agrees collectively on the arrays
/// (`value_error` on every rank when a rank passes another shape). Device pieces are read through
/// a host copy.
///
/// A `grid_array`'s blocks are not contiguous stretches of the global index space, so its
/// floating-point sums are computed exactly instead (detail::exact_sum: a fixed-point accumulator
/// per rank, added across ranks as integers) and rounded once: the correctly rounded sum, the same
/// bits for every number of ranks and every decomposition (it may differ in the last bit from the
/// tree sum of a `distributed_array` holding the same values).

#include <tack/algorithms/reduce.hpp>
#include <tack/mpi/detail/exact_sum.hpp>
#include <tack/mpi/distributed_array.hpp>
#include <tack/mpi/grid.hpp>
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
    return detail::ordered_sum<S, S>(a.comm(), detail::scalars(l), nullptr, a.first_row() * per_row,
                                     a.local_rows() * per_row, a.global_shape()[0] * per_row, what);
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
                          tack::ops::min::identity<S>(),
                          [](const auto& l) { return tack::min(l); });
}

/// The largest owned scalar component over all ranks; no elements anywhere is a `value_error`.
/// `double hi = tack::mpi::max(u);`
template <class T, int Rank>
scalar_t<T> max(const distributed_array<T, Rank>& a) {
  using S = scalar_t<T>;
  return detail::extremum("tack::mpi::max", a, detail::reduce_op::max,
                          tack::ops::max::identity<S>(),
                          [](const auto& l) { return tack::max(l); });
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
  const R s =
      detail::ordered_sum<R, S>(a.comm(), detail::scalars(l), nullptr, a.first_row() * per_row,
                                a.local_rows() * per_row, total, what);
  return static_cast<R>(s / static_cast<R>(total));
}

// ---- grid_array -------------------------------------------------------------------------------

namespace detail {

/// The block of `a` in host memory: the block itself, or a host copy of it.
template <class T>
array<T, 3> host_block(const grid_array<T>& a) {
  auto b = a.with_ghosts();
  if (b.host_accessible()) return b;
  tack::options o;
  o.device = tack::cpu();
  return b.copy(o);
}

/// The owned cells of a block of shape `b` with `gh` ghost layers, as runs of scalars.
template <class T>
scalar_runs owned_runs(const array<T, 3>& b, index_t gh) {
  const index_t c = components_v<T>;
  scalar_runs r;
  r.n0 = b.extent(0) - 2 * gh;
  r.n1 = b.extent(1) - 2 * gh;
  r.run = (b.extent(2) - 2 * gh) * c;
  r.s1 = b.extent(2) * c;
  r.s0 = b.extent(1) * r.s1;
  return r;
}

/// The first owned scalar of host block `b` (AoS: an element's components are consecutive).
template <class T>
const scalar_t<T>* first_owned(const array<T, 3>& b, index_t gh) {
  if (b.size() == 0) return nullptr;
  const auto* p = reinterpret_cast<const scalar_t<T>*>(b.data());
  return p + ((gh * b.extent(1) + gh) * b.extent(2) + gh) * components_v<T>;
}

/// What the ranks must agree on for a reduction of `a`.
template <class T>
std::string grid_signature(const grid_array<T>& a) {
  const auto& g = a.layout();
  const auto d = g.dims();
  return "grid_array<" + std::string(dtype_of<T>().name()) + "> on grid of " +
         shape_string(g.global_extents()) + " cells, ghosts " + std::to_string(g.ghosts()) +
         ", dims " + shape_string(std::array<index_t, 3>{d[0], d[1], d[2]});
}

/// Calls `f(k)` for every owned scalar index `k` (from the first owned scalar) of runs `r`.
template <class F>
void for_each_owned(const scalar_runs& r, F&& f) {
  for (index_t i = 0; i < r.n0; ++i) {
    for (index_t j = 0; j < r.n1; ++j) {
      for (index_t k = 0; k < r.run; ++k) f(i * r.s0 + j * r.s1 + k);
    }
  }
}

/// The total number of scalars of `a` over all ranks.
template <class T>
index_t grid_scalars(const grid_array<T>& a) {
  const auto e = a.layout().global_extents();
  return e[0] * e[1] * e[2] * components_v<T>;
}

/// Integer sums wrap as the integer type does (computed in its unsigned counterpart).
template <class R>
R wrapping_add(R x, R y) {
  if constexpr (std::is_integral_v<R> && !std::is_same_v<R, bool>) {
    using U = std::make_unsigned_t<R>;
    return static_cast<R>(static_cast<U>(static_cast<U>(x) + static_cast<U>(y)));
  } else {
    return x + y;
  }
}

template <class T>
scalar_t<T> grid_extremum(const char* what, const grid_array<T>& a, reduce_op op) {
  using S = scalar_t<T>;
  agree(a.layout().parent(), what, grid_signature(a));
  const index_t gh = a.layout().ghosts();
  const auto b = host_block(a);
  const auto r = owned_runs<T>(b, gh);
  const S* p = first_owned(b, gh);
  const bool is_min = op == reduce_op::min;
  S mine = is_min ? tack::ops::min::identity<S>() : tack::ops::max::identity<S>();
  if (r.n0 > 0 && r.n1 > 0 && r.run > 0) {
    for_each_owned(r, [&](index_t k) {
      mine = is_min ? tack::ops::min{}(mine, p[k]) : tack::ops::max{}(mine, p[k]);
    });
  }
  S out{};
  allreduce(a.layout().parent(), &mine, &out, 1, kind_of<S>(), op, what);
  return out;
}

}  // namespace detail

/// The sum of every owned scalar component of a grid array over all ranks, returned on every
/// rank. Floating point: the exact sum rounded once (correctly rounded), the same bits for any
/// number of ranks and any decomposition; integers: exact, wrapping as the type does.
/// `double total = tack::mpi::sum(u);`
template <class T>
auto sum(const grid_array<T>& a) {
  using S = scalar_t<T>;
  using R = tack::detail::sum_result_t<S>;
  const char* what = "tack::mpi::sum";
  detail::agree(a.layout().parent(), what, detail::grid_signature(a));
  const index_t gh = a.layout().ghosts();
  const auto b = detail::host_block(a);
  const auto r = detail::owned_runs<T>(b, gh);
  if constexpr (std::is_floating_point_v<S>) {
    return detail::exact_sum<S, S>(a.layout().parent(), detail::first_owned(b, gh), nullptr, r,
                                   what);
  } else {
    const S* p = detail::first_owned(b, gh);
    R mine{};
    if (p)
      detail::for_each_owned(
          r, [&](index_t k) { mine = detail::wrapping_add(mine, static_cast<R>(p[k])); });
    R out{};
    detail::allreduce(a.layout().parent(), &mine, &out, 1, detail::kind_of<R>(),
                      detail::reduce_op::sum, what);
    return out;
  }
}

/// The smallest owned scalar component of a grid array over all ranks (NaN operands as `tack::min`
/// treats them). `double lo = tack::mpi::min(u);`
template <class T>
scalar_t<T> min(const grid_array<T>& a) {
  return detail::grid_extremum("tack::mpi::min", a, detail::reduce_op::min);
}

/// The largest owned scalar component of a grid array over all ranks. `double hi = tack::mpi::max(u);`
template <class T>
scalar_t<T> max(const grid_array<T>& a) {
  return detail::grid_extremum("tack::mpi::max", a, detail::reduce_op::max);
}

/// The sum of the products of paired scalar components of two grid arrays on the same grid
/// (extents, ghosts and dims; `value_error` on every rank otherwise). Floating point: the exact
/// sum of the exact products, rounded once, the same bits for any number of ranks.
/// `double d = tack::mpi::dot(u, v);`
template <class T, class U>
auto dot(const grid_array<T>& a, const grid_array<U>& b) {
  using S = scalar_t<T>;
  static_assert(std::is_same_v<S, scalar_t<U>>,
                "tack::mpi::dot: both arrays must have the same scalar type; convert one with "
                "astype<U>() first");
  static_assert(components_v<T> == components_v<U>,
                "tack::mpi::dot: both arrays must have the same components per element");
  const char* what = "tack::mpi::dot";
  const auto& comm = a.layout().parent();
  detail::agree(comm, what, detail::grid_signature(a) + " with " + detail::grid_signature(b));
  const auto& ga = a.layout();
  const auto& gb = b.layout();
  if (ga.global_extents() != gb.global_extents() || ga.ghosts() != gb.ghosts() ||
      ga.dims() != gb.dims() || ga.local_offset() != gb.local_offset()) {
    throw value_error(std::string(what) + ": the grid arrays lie on different grids: " +
                      a.describe() + " and " + b.describe());
  }
  const index_t gh = ga.ghosts();
  const auto ba = detail::host_block(a);
  const auto bb = detail::host_block(b);
  const auto r = detail::owned_runs<T>(ba, gh);
  const S* pa = detail::first_owned(ba, gh);
  const S* pb = detail::first_owned(bb, gh);
  if constexpr (std::is_floating_point_v<S>) {
    return detail::exact_sum<S, S>(comm, pa, pb, r, what);
  } else {
    using R = tack::detail::sum_result_t<std::remove_cvref_t<decltype(S{} * S{})>>;
    R mine{};
    if (pa) {
      detail::for_each_owned(r, [&](index_t k) {
        mine = detail::wrapping_add(mine,
                                    static_cast<R>(static_cast<R>(pa[k]) * static_cast<R>(pb[k])));
      });
    }
    R out{};
    detail::allreduce(comm, &mine, &out, 1, detail::kind_of<R>(), detail::reduce_op::sum, what);
    return out;
  }
}

/// The mean of every owned scalar component of a grid array over all ranks: the correctly rounded
/// sum divided by the count, in the array's floating-point type (`double` for integers and
/// `bool`); the same bits for any number of ranks. `double m = tack::mpi::mean(u);`
template <class T>
auto mean(const grid_array<T>& a) {
  using S = scalar_t<T>;
  using R = std::conditional_t<std::is_floating_point_v<S>, S, double>;
  const char* what = "tack::mpi::mean";
  detail::agree(a.layout().parent(), what, detail::grid_signature(a));
  const index_t gh = a.layout().ghosts();
  const auto b = detail::host_block(a);
  const R s = detail::exact_sum<R, S>(a.layout().parent(), detail::first_owned(b, gh), nullptr,
                                      detail::owned_runs<T>(b, gh), what);
  return static_cast<R>(s / static_cast<R>(detail::grid_scalars(a)));
}

}  // namespace tack::mpi
