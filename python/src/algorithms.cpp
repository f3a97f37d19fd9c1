// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
/// @file Reductions and algorithms (`tack.sum/min/max/mean`, `tack.algorithms.*`) over the C++
/// algorithms (tack::sum, tack::sort, tack::inclusive_scan, tack::variance, ...).

#include "common.hpp"

#include <tack/algorithms/all.hpp>
#include <tack/array/copyto.hpp>
#include <tack/array/factories.hpp>
#include <tack/array/shape.hpp>
#include <tack/arrays/all.hpp>

#include <nanobind/stl/pair.h>

#include <cmath>

namespace tackpy {

using namespace nb::literals;

namespace {

/// The stored array an algorithm reads: a tack array as it is, an implicit array or anything NumPy
/// reads evaluated into one (`tack.asarray`'s conversion).
py_array stored(nb::handle h, const char* op) { return array_argument(h, op); }

/// `a` interleaved: SoA arrays are copied so that components come in storage order (i * C + c).
py_array interleaved(const py_array& a) {
  return a.is_soa() ? copy_array(a, a.elem, tack::layout::aos, a.device()) : a;
}

/// The first `n` scalar components of `a` in storage order, as a flat handle view.
py_array first_components(const py_array& a, nb::handle n, const char* op) {
  py_array x = interleaved(a);
  const index_t total = x.size() * x.components();
  if (n.is_none()) return x;
  const index_t k = nb::cast<index_t>(n);
  if (k < 0 || k > total) {
    throw nb::value_error((std::string(op) + ": n=" + std::to_string(k) + " is outside the " +
                           std::to_string(total) + " scalar components of " + a.describe())
                              .c_str());
  }
  py_array out = x;
  out.elem = x.elem.scalar();
  out.ndim = 1;
  out.shape = {};
  out.shape[0] = k;
  std::visit([&](auto& p) { p = p.rows(0, k); }, out.data);
  return out;
}

struct gil_off {
  std::optional<nb::gil_scoped_release> r;
  explicit gil_off(const py_array& a) {
    if (a.size() * a.components() > (1 << 15)) r.emplace();
  }
};

nb::object sum_of(nb::handle h) {
  if (is_lazy(h)) return reduce_lazy(h, "sum");
  const py_array a = stored(h, "tack.sum");
  return tack::visit_scalar_kind(a.elem.kind(), [&]<class S>() -> nb::object {
    // Integers and booleans sum in 64 bits, as NumPy's do; floats in their own precision.
    using Acc =
        std::conditional_t<std::is_floating_point_v<S>, S,
                           std::conditional_t<std::is_unsigned_v<S> && !std::is_same_v<S, bool>,
                                              std::uint64_t, std::int64_t>>;
    Acc total = 0;
    {
      gil_off g(a);
      a.for_each_part([&](const flat& f) {
        if constexpr (std::is_same_v<Acc, S>) {
          total += tack::sum(part_as<S>(f));
        } else {
          total += tack::sum(tack::arrays::cast<Acc>(part_as<S>(f)));
        }
      });
    }
    return nb::cast(total);
  });
}

/// NumPy's minimum and maximum of floats as reduction ops: the NaN-propagating element functors
/// of `tack::minimum` / `tack::maximum`, declared commutative, with +-infinity as identity
/// (`tack::min` and `tack::max` leave what a NaN does to the grouping, as `std::min` would).
template <bool IsMin>
struct nan_wins_extreme : std::conditional_t<IsMin, tack::arrays::detail::minimum_scalar,
                                             tack::arrays::detail::maximum_scalar> {
  static constexpr bool commutative = true;
  template <class T>
  static T identity() {
    return IsMin ? std::numeric_limits<T>::infinity() : -std::numeric_limits<T>::infinity();
  }
};

nb::object extreme(nb::handle h, bool is_min) {
  const char* op = is_min ? "tack.min" : "tack.max";
  if (is_lazy(h)) return reduce_lazy(h, is_min ? "min" : "max");
  const py_array a = stored(h, op);
  if (a.size() == 0) {
    throw nb::value_error((std::string(op) + ": " + a.describe() + " is empty and has no " +
                           (is_min ? "minimum" : "maximum"))
                              .c_str());
  }
  return tack::visit_scalar_kind(a.elem.kind(), [&]<class S>() -> nb::object {
    std::optional<S> best;
    {
      gil_off g(a);
      a.for_each_part([&](const flat& f) {
        S v;
        if constexpr (std::is_floating_point_v<S>) {
          v = is_min ? tack::reduce(part_as<S>(f), nan_wins_extreme<true>::identity<S>(),
                                    nan_wins_extreme<true>{})
                     : tack::reduce(part_as<S>(f), nan_wins_extreme<false>::identity<S>(),
                                    nan_wins_extreme<false>{});
        } else {
          v = is_min ? tack::min(part_as<S>(f)) : tack::max(part_as<S>(f));
        }
        if (!best)
          best = v;
        else if constexpr (std::is_floating_point_v<S>) {
          if (std::isnan(v) || std::isnan(*best))
            best = std::numeric_limits<S>::quiet_NaN();
          else
            best = is_min ? std::min(*best, v) : std::max(*best, v);
        } else {
          best = is_min ? std::min(*best, v) : std::max(*best, v);
        }
      });
    }
    return nb::cast(*best);
  });
}

double mean_of(nb::handle h, nb::handle n) {
  const char* op = "tack.mean";
  if (is_lazy(h) && n.is_none()) {
    const index_t count = lazy_components(h);
    if (count == 0) throw nb::value_error("tack.mean: the mean of no values is undefined");
    return nb::cast<double>(reduce_lazy(h, "sum")) / static_cast<double>(count);
  }
  const py_array a = first_components(stored(h, op), n, op);
  const index_t count = a.size() * a.components();
  if (count == 0) {
    throw nb::value_error((std::string(op) + ": " + a.describe() +
                           " has no values; the mean of no values is undefined")
                              .c_str());
  }
  return tack::visit_scalar_kind(a.elem.kind(), [&]<class S>() -> double {
    gil_off g(a);
    if constexpr (std::is_floating_point_v<S>) {
      return static_cast<double>(tack::mean(part_as<S>(a.data)));
    } else {
      return static_cast<double>(tack::sum(tack::arrays::cast<double>(part_as<S>(a.data)))) /
             static_cast<double>(count);
    }
  });
}

double variance_of(nb::handle h, nb::handle n, index_t ddof, bool root) {
  const char* op = root ? "tack.algorithms.stddev" : "tack.algorithms.variance";
  const py_array a = first_components(stored(h, op), n, op);
  return tack::visit_scalar_kind(a.elem.kind(), [&]<class S>() -> double {
    gil_off g(a);
    if constexpr (std::is_floating_point_v<S>) {
      const auto& x = part_as<S>(a.data);
      return static_cast<double>(root ? tack::stddev(x, tack::ddof{ddof})
                                      : tack::variance(x, tack::ddof{ddof}));
    } else {
      auto as_double = tack::arrays::cast<double>(part_as<S>(a.data));
      return root ? tack::stddev(as_double, tack::ddof{ddof})
                  : tack::variance(as_double, tack::ddof{ddof});
    }
  });
}

void sort_in_place(const py_array& a) {
  if (!a.elem.is_scalar()) {
    throw nb::type_error(("tack.algorithms.sort: " + a.describe() +
                          " has vector or matrix elements, which have no order; sort a scalar "
                          "array (or sort_by_key with scalar keys)")
                             .c_str());
  }
  if (a.ndim != 1) {
    throw nb::value_error(
        ("tack.algorithms.sort: " + a.describe() + " is not 1-D; reshape it first").c_str());
  }
  tack::visit_scalar_kind(a.elem.kind(), [&]<class S>() {
    gil_off g(a);
    tack::sort(part_as<S>(a.data));
  });
}

void sort_by_key(const py_array& keys, const py_array& values) {
  if (!keys.elem.is_scalar() || keys.ndim != 1 || values.is_soa()) {
    throw nb::type_error(
        ("tack.algorithms.sort_by_key: keys must be a 1-D scalar array and values an "
         "interleaved array, got " +
         keys.describe() + " and " + values.describe())
            .c_str());
  }
  if (values.shape[0] != keys.shape[0]) {
    throw nb::value_error(("tack.algorithms.sort_by_key: " + keys.describe() + " and " +
                           values.describe() + " differ in length")
                              .c_str());
  }
  if (values.components() != 1 || values.ndim != 1) {
    throw nb::type_error("tack.algorithms.sort_by_key: values must be a 1-D scalar array");
  }
  // Refused before anything moves: the keys are sorted first, then the values follow them.
  for (const py_array* x : {&keys, &values}) {
    if (x->read_only()) {
      raise(read_only_error_type, "tack.algorithms.sort_by_key: " + x->describe() +
                                      " is read-only; copy it first (a.copy())");
    }
  }
  if (shares_memory(keys, values)) {
    throw nb::value_error(("tack.algorithms.sort_by_key: " + keys.describe() + " and " +
                           values.describe() +
                           " share memory; the values would be moved while the keys are read "
                           "(pass a copy of one)")
                              .c_str());
  }
  // Sort (key, position) pairs, then gather the values through the positions: 10 + 11
  // instantiations instead of one per (key, value) type pair.
  const index_t n = keys.shape[0];
  auto order = tack::empty<std::int64_t>(tack::shape<1>{n});
  tack::copyto(order, tack::arrays::counting<std::int64_t>(n));
  tack::visit_scalar_kind(keys.elem.kind(), [&]<class K>() {
    gil_off g(keys);
    tack::sort_by_key(part_as<K>(keys.data), order);
  });
  tack::visit_scalar_kind(values.elem.kind(), [&]<class V>() {
    gil_off g(values);
    const auto& v = part_as<V>(values.data);
    auto before = v.copy();
    tack::copyto(v, tack::arrays::permutation(order, before));
  });
}

nb::object scan(nb::handle in, nb::handle out, bool inclusive) {
  const char* op = inclusive ? "tack.algorithms.inclusive_scan" : "tack.algorithms.exclusive_scan";
  const py_array a = interleaved(stored(in, op));
  nb::object result = out.is_none() ? nb::cast(copy_array(a, a.elem, tack::layout::aos, a.device()))
                                    : nb::borrow(out);
  const py_array& o = nb::cast<const py_array&>(result);
  if (!o.elem.is_scalar() || !a.elem.is_scalar() || o.size() != a.size()) {
    throw nb::value_error((std::string(op) +
                           ": scans read and write scalar arrays of one length, got " +
                           a.describe() + " into " + o.describe())
                              .c_str());
  }
  if (o.read_only())
    raise(read_only_error_type, std::string(op) + ": " + o.describe() + " is read-only");
  // The input in the output's type first (a copy only when the types differ), so that each
  // scan is instantiated once per type.
  const py_array in_out_type =
      a.elem.kind() == o.elem.kind() ? a : copy_array(a, o.elem, tack::layout::aos, a.device());
  tack::visit_scalar_kind(o.elem.kind(), [&]<class S>() {
    gil_off g(a);
    if (inclusive) {
      tack::inclusive_scan(part_as<S>(in_out_type.data), part_as<S>(o.data));
    } else {
      tack::exclusive_scan(part_as<S>(in_out_type.data), part_as<S>(o.data), S{});
    }
  });
  return result;
}

nb::object dot_of(nb::handle x, nb::handle y) {
  if (nb::isinstance<py_array>(x) && nb::isinstance<py_array>(y)) {
    const py_array a = interleaved(nb::cast<const py_array&>(x));
    const py_array b = interleaved(nb::cast<const py_array&>(y));
    if (a.elem.kind() == b.elem.kind() && a.elem.components() == b.elem.components() &&
        a.size() == b.size() &&
        std::equal(a.shape.begin(), a.shape.begin() + a.ndim, b.shape.begin())) {
      return tack::visit_scalar_kind(a.elem.kind(), [&]<class S>() -> nb::object {
        gil_off g(a);
        if constexpr (std::is_floating_point_v<S>) {
          return nb::cast(tack::dot(part_as<S>(a.data), part_as<S>(b.data)));
        } else {
          return nb::cast(tack::dot(tack::arrays::cast<std::int64_t>(part_as<S>(a.data)),
                                    tack::arrays::cast<std::int64_t>(part_as<S>(b.data))));
        }
      });
    }
  }
  return sum_of(x * y);
}

}  // namespace

void bind_algorithms(nb::module_& m) {
  m.def("sum", &sum_of, "a"_a, nb::sig("def sum(a: typing.Any) -> float | int"),
        "The sum of every scalar component (a vec3 array of n elements sums 3n values); "
        "integers sum in 64 bits.");
  m.def(
      "min", [](nb::handle a) { return extreme(a, true); }, "a"_a,
      nb::sig("def min(a: typing.Any) -> float | int | bool"), "The smallest scalar component.");
  m.def(
      "max", [](nb::handle a) { return extreme(a, false); }, "a"_a,
      nb::sig("def max(a: typing.Any) -> float | int | bool"), "The largest scalar component.");
  m.def("mean", &mean_of, "a"_a, "n"_a = nb::none(),
        nb::sig("def mean(a: typing.Any, n: int | None = None) -> float"),
        "The mean of the scalar components (of the first `n` in storage order when given).");
  nb::module_ alg = m.def_submodule("_algorithms", "tack.algorithms");
  alg.def(
      "variance",
      [](nb::handle a, nb::handle n, index_t ddof) { return variance_of(a, n, ddof, false); },
      "a"_a, "n"_a = nb::none(), nb::kw_only(), "ddof"_a = 0,
      "The variance of the scalar components (the first `n` in storage order when given).");
  alg.def(
      "stddev",
      [](nb::handle a, nb::handle n, index_t ddof) { return variance_of(a, n, ddof, true); }, "a"_a,
      "n"_a = nb::none(), nb::kw_only(), "ddof"_a = 0);
  alg.def("sort", &sort_in_place, "a"_a, "Sorts a 1-D scalar array in place (NaNs last).");
  alg.def("sort_by_key", &sort_by_key, "keys"_a, "values"_a,
          "Sorts `keys` in place and applies the same permutation to `values`.");
  alg.def(
      "inclusive_scan", [](nb::handle a, nb::handle out) { return scan(a, out, true); }, "a"_a,
      "out"_a = nb::none(),
      "Running sums (out[i] = a[0] + ... + a[i]); a new array unless `out` is given.");
  alg.def(
      "exclusive_scan", [](nb::handle a, nb::handle out) { return scan(a, out, false); }, "a"_a,
      "out"_a = nb::none(), "Running sums before each element (out[0] = 0).");
  alg.def("dot", &dot_of, "a"_a, "b"_a, "The sum of the products of paired components.");
  alg.def(
      "minmax", [](nb::handle a) { return nb::make_tuple(extreme(a, true), extreme(a, false)); },
      "a"_a);
}

}  // namespace tackpy
