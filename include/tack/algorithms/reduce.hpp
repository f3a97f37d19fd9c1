// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
#pragma once
/// @file Reductions over any readable array: `sum`, `reduce`, `transform_reduce`,
/// `min`, `max`, `minmax`, `dot`.
///
/// **What is combined.** Reductions combine scalar components: a `vec3f` array of `n` elements
/// combines `3n` floats and `sum` returns a `float`. Component `c` of element `i` is operand
/// `i * C + c` (`C = tack::components_v<T>`), the order of `to_vector()`, whatever the layout,
/// so an AoS and a SoA array with the same values give bit-identical results. `dot` pairs
/// component `c` of element `i` of both arrays, whatever their layouts.
///
/// **Where it runs.** On the array's device: `a.device()` for a `tack::array`; an implicit array's
/// `device()` when it holds arrays, else `tack::default_device()`; the CPU for plain kernel views
/// and other user types. Arrays are read through their kernel form (`tack::visit_kernel_form`), so
/// implicit arrays are never materialized: `tack::sum(a * b)` stores nothing.
///
/// **Accuracy and determinism.** `tack::parallel_reduce` does the work: on the CPU, fixed blocks
/// reduced pairwise, so a float sum's error grows like log(n), and the result is bit-identical for
/// every thread count and every run (exec/parallel_reduce.hpp).

#include <tack/arrays/implicit.hpp>
#include <tack/core/concepts.hpp>
#include <tack/core/error.hpp>
#include <tack/core/index.hpp>
#include <tack/core/kernel_form.hpp>
#include <tack/core/macros.hpp>
#include <tack/exec/backend.hpp>
#include <tack/exec/ops.hpp>
#include <tack/exec/parallel_reduce.hpp>
#include <tack/memory/device.hpp>
#include <tack/types/item.hpp>
#include <tack/types/mat.hpp>
#include <tack/types/vec.hpp>
#include <tack/view/soa_view.hpp>

#include <concepts>
#include <cstdint>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>

namespace tack {
namespace detail {

/// What the algorithms read: anything indexable with a length, or a handle with a kernel form.
template <class A>
concept algorithm_array = readable_array<A> || arrays::detail::has_kernel_form_member<A>;

/// The element value of a kernel form `K` (`vec3f` for `view<vec3f>` and `soa_view<vec3f>`).
template <class K>
using kernel_value_t = arrays::detail::value_t<K>;

struct kernel_value_probe {
  template <class K>
  kernel_value_t<K> operator()(const K&) const {
    return kernel_value_t<K>{};
  }
};

template <class A>
struct algorithm_value {
  using type = std::remove_cvref_t<decltype(tack::visit_kernel_form(std::declval<const A&>(),
                                                                    kernel_value_probe{}))>;
};
template <class A>
requires readable_array<A>
struct algorithm_value<A> {
  using type = arrays::detail::value_t<A>;
};
/// The element type of an algorithm argument (`vec3f` for `array<vec3f>`, any layout).
template <class A>
using algorithm_value_t = typename algorithm_value<A>::type;

/// The scalar component type of an algorithm argument (`float` for `array<vec3f>`).
template <class A>
using algorithm_scalar_t = scalar_t<algorithm_value_t<A>>;

/// What `sum` returns for components of type `S`: `S`, except that a sum of `bool`s counts.
template <class S>
using sum_result_t = std::conditional_t<std::is_same_v<S, bool>, index_t, S>;

/// Component `c` of a vector or matrix value (matrices row after row), as a reference.
template <class V>
TACK_FORCEINLINE constexpr const scalar_t<V>& component_at(const V& x, int c) {
  if constexpr (is_mat_v<V>) {
    return x(c / component_cols_v<V>, c % component_cols_v<V>);
  } else {
    return x[c];
  }
}

template <class K>
inline constexpr bool is_soa_view_v = false;
template <class T, int R>
inline constexpr bool is_soa_view_v<soa_view<T, R>> = true;
template <class K>
inline constexpr bool is_aos_view_v = false;
template <class T, int R>
inline constexpr bool is_aos_view_v<view<T, R>> = true;

/// Operand `j` of a kernel form: component `j % C` of element `j / C`, as a scalar. Reads a SoA
/// component directly and an AoS element's component through its reference, so neither gathers a
/// whole element.
template <class K>
struct component_reader {
  using value_type = kernel_value_t<K>;
  using scalar_type = scalar_t<value_type>;
  static constexpr int components = components_v<value_type>;

  K k;

  /// Scalar operands: `size() * components`.
  TACK_INLINE constexpr index_t count() const {
    return static_cast<index_t>(k.size()) * components;
  }

  /// Where operand `j` lives, as an integer (never dereferenced: the CPU reduction leaves prefetch
  /// ahead of their loop through it, and may ask past the end). Only where the operands are
  /// consecutive scalars in memory: AoS views whose elements are their components, packed.
  TACK_FORCEINLINE std::uintptr_t operand_address(index_t j) const
      requires(is_aos_view_v<K> && sizeof(value_type) == sizeof(scalar_type) * components) {
    return reinterpret_cast<std::uintptr_t>(k.data()) +
           static_cast<std::uintptr_t>(j) * sizeof(scalar_type);
  }

  TACK_EXEC_CHECK_DISABLE
  TACK_FORCEINLINE scalar_type operator()(index_t j) const {
    if constexpr (components == 1) {
      return static_cast<scalar_type>(k[j]);
    } else if constexpr (is_aos_view_v<K> &&
                         sizeof(value_type) == sizeof(scalar_type) * components) {
      // Interleaved storage is already the operand order: read it as scalars (this vectorizes;
      // the division below does not). vec and mat store their components contiguously.
      return reinterpret_cast<const scalar_type*>(k.data())[j];
    } else {
      const index_t i = j / components;
      const int c = static_cast<int>(j - i * components);
      if constexpr (is_soa_view_v<K>) {
        return k.component_data(c)[i];
      } else if constexpr (std::is_lvalue_reference_v<decltype(k[i])>) {
        return component_at(k[i], c);
      } else {
        const value_type v = static_cast<value_type>(k[i]);
        return component_at(v, c);
      }
    }
  }
};

/// `fn(operand j)`: `transform_reduce`'s values.
template <class K, class Fn>
struct transformed_reader {
  component_reader<K> read;
  Fn fn;
  TACK_EXEC_CHECK_DISABLE
  TACK_FORCEINLINE constexpr decltype(auto) operator()(index_t j) const { return fn(read(j)); }
  TACK_FORCEINLINE std::uintptr_t operand_address(index_t j) const requires requires {
    read.operand_address(j);
  }
  { return read.operand_address(j); }
};

/// `fn(operand j of a, operand j of b)`: `dot` and the two-array `transform_reduce`.
template <class KA, class KB, class Fn>
struct paired_reader {
  component_reader<KA> a;
  component_reader<KB> b;
  Fn fn;
  TACK_EXEC_CHECK_DISABLE
  TACK_FORCEINLINE constexpr decltype(auto) operator()(index_t j) const { return fn(a(j), b(j)); }
};

/// `x * y`: `dot`'s pair function.
struct multiply_pair {
  template <class X, class Y>
  TACK_FORCEINLINE constexpr auto operator()(const X& x, const Y& y) const {
    return x * y;
  }
};

/// The smallest and largest value seen (`minmax`'s reduction value).
template <class S>
struct minmax_value {
  S lo;
  S hi;
};

/// Combines two `minmax_value`s (associative and commutative; identity: the empty range
/// +max/-max).
struct minmax_op {
  static constexpr bool commutative = true;
  template <class T>
  TACK_INLINE static constexpr T identity() {
    using S = decltype(T{}.lo);
    return T{ops::min::identity<S>(), ops::max::identity<S>()};
  }
  template <class T>
  TACK_FORCEINLINE constexpr T operator()(const T& a, const T& b) const {
    return T{ops::min{}(a.lo, b.lo), ops::max{}(a.hi, b.hi)};
  }
};

/// Operand `j` as the range `[x, x]`.
template <class K>
struct minmax_reader {
  component_reader<K> read;
  TACK_EXEC_CHECK_DISABLE
  TACK_FORCEINLINE constexpr minmax_value<typename component_reader<K>::scalar_type> operator()(
      index_t j) const {
    const auto x = read(j);
    return {x, x};
  }
  TACK_FORCEINLINE std::uintptr_t operand_address(index_t j) const requires requires {
    read.operand_address(j);
  }
  { return read.operand_address(j); }
};

/// The device an argument names, if any: a `tack::array`'s device, an implicit array's
/// `std::optional` device.
template <class A>
std::optional<tack::device> named_device(const A& a) {
  if constexpr (requires {
                  { a.device() } -> std::convertible_to<tack::device>;
                }) {
    return std::optional<tack::device>(a.device());
  } else if constexpr (requires {
                         { a.device() } -> std::convertible_to<std::optional<tack::device>>;
                       }) {
    return a.device();
  } else {
    return std::nullopt;
  }
}

/// Where an algorithm on `a` runs: the device it names; else the default device for an array
/// that can live anywhere (a computed implicit array), the CPU for kernel views and user types.
template <class A>
tack::device algorithm_device(const A& a) {
  if (std::optional<tack::device> d = named_device(a)) return *d;
  if constexpr (arrays::is_implicit_array_v<A>) {
    return default_device();
  } else {
    return cpu();
  }
}

/// The one device of two arguments: a `value_error` naming both when they name different devices.
template <class A, class B>
tack::device common_algorithm_device(const char* op, const A& a, const B& b) {
  const std::optional<tack::device> da = named_device(a), db = named_device(b);
  if (da && db && *da != *db) {
    throw value_error(std::string(op) + ": the arrays live on different devices (" + da->str() +
                      " and " + db->str() + "); move one with to_device() first");
  }
  if (da) return *da;
  if (db) return *db;
  return algorithm_device(a);
}

/// The number of elements of an algorithm argument.
template <class A>
index_t algorithm_size(const A& a) {
  if constexpr (requires {
                  { a.size() } -> std::convertible_to<index_t>;
                }) {
    return static_cast<index_t>(a.size());
  } else {
    return tack::visit_kernel_form(a, [](const auto& k) { return static_cast<index_t>(k.size()); });
  }
}

/// How error messages name an argument: its `describe()` when it has one.
template <class A>
std::string describe_argument(const A& a) {
  if constexpr (requires {
                  { a.describe() } -> std::convertible_to<std::string>;
                }) {
    return a.describe();
  } else if constexpr (arrays::is_implicit_array_v<A>) {
    return "an implicit array of " + std::to_string(algorithm_size(a)) + " elements";
  } else {
    return "an array of " + std::to_string(algorithm_size(a)) + " elements";
  }
}

TACK_IMPL_KERNEL_ABI_BEGIN
/// Calls `body(backend, k)` with `a`'s kernel form `k` on the backend of `a`'s device `d`.
template <class A, class Body>
decltype(auto) with_kernel_form_on(const tack::device& d, const char* op, const A& a, Body&& body) {
  return tack::visit_kernel_form(a, [&](const auto& k) -> decltype(auto) {
    return with_backend_of(d, op, [&](auto backend) -> decltype(auto) { return body(backend, k); });
  });
}

/// The op a reduction of kernel form `K` runs: `regrouped_plus` for an arithmetic sum of values
/// computed from the index (the CPU backends then let the vectorizer group each leaf), else `op`.
template <class K, class T, class Op>
TACK_INLINE constexpr auto leaf_op(const Op& op) {
  if constexpr (std::is_same_v<Op, ops::plus> && std::is_arithmetic_v<T> &&
                arrays::detail::computes_from_index_v<K>) {
    return regrouped_plus{};
  } else {
    return op;
  }
}

/// `op(init, x_0, ..., x_{m-1})` over the scalar components of `a` (the core of every reduction).
template <class A, class T, class Op>
T reduce_components(const char* name, const A& a, T init, Op op) {
  return with_kernel_form_on(algorithm_device(a), name, a, [&](auto backend, const auto& k) {
    using K = std::remove_cvref_t<decltype(k)>;
    const component_reader<K> read{k};
    return tack::parallel_reduce(backend, read.count(), init, read, leaf_op<K, T>(op));
  });
}

/// A `value_error` for a reduction that needs at least one value.
template <class A>
[[noreturn]] void throw_empty(const char* op, const A& a, const char* why) {
  throw value_error(std::string(op) + ": " + describe_argument(a) + " is empty; " + why);
}

/// Checks what the two-array reductions need: the same number of elements and of components.
template <class A, class B>
void require_same_size(const char* op, const A& a, const B& b) {
  const index_t na = algorithm_size(a), nb = algorithm_size(b);
  if (na != nb) {
    throw value_error(std::string(op) + ": sizes differ: " + std::to_string(na) + " elements (" +
                      describe_argument(a) + ") and " + std::to_string(nb) + " elements (" +
                      describe_argument(b) + ")");
  }
}

/// The two-array `transform_reduce` (and `dot`), errors named after `op`.
template <class A, class B, class T, class ReduceOp, class Fn>
T transform_reduce_pairs(const char* op, const A& a, const B& b, T init, ReduceOp reduce_op,
                         Fn fn) {
  constexpr int ca = components_v<algorithm_value_t<A>>;
  constexpr int cb = components_v<algorithm_value_t<B>>;
  if constexpr (ca != cb) {
    static_assert(ca == cb,
                  "tack::transform_reduce / tack::dot: the elements of both arrays must have as "
                  "many components (a vec3f array pairs with a vec3d array, not with floats); "
                  "view the scalars with as_elements / as_scalars first");
    return init;
  } else {
    require_same_size(op, a, b);
    const tack::device d = common_algorithm_device(op, a, b);
    return tack::visit_kernel_form(a, [&](const auto& ka) {
      return with_kernel_form_on(d, op, b, [&](auto backend, const auto& kb) {
        using KA = std::remove_cvref_t<decltype(ka)>;
        using KB = std::remove_cvref_t<decltype(kb)>;
        const paired_reader<KA, KB, Fn> read{{ka}, {kb}, fn};
        return tack::parallel_reduce(backend, read.a.count(), init, read, reduce_op);
      });
    });
  }
}
TACK_IMPL_KERNEL_ABI_END

}  // namespace detail

TACK_IMPL_KERNEL_ABI_BEGIN

/// `op(init, x_0, ..., x_{m-1})` over the `m` scalar components of `a`, regrouped (`op` must be
/// associative; operands stay in order unless it is commutative: see exec/ops.hpp). The result has
/// the type of `init`, as `std::reduce`.
/// `double p = tack::reduce(a, 1.0, tack::ops::multiplies{});`
template <detail::algorithm_array A, class T, class Op>
T reduce(const A& a, T init, Op op) {
  return detail::reduce_components("tack::reduce", a, init, op);
}

/// `reduce_op(init, fn(x_0), ..., fn(x_{m-1}))` over the scalar components `x` of `a` (use
/// `tack::arrays::transform` to map whole elements first).
/// `double ss = tack::transform_reduce(a, 0.0, tack::ops::plus{}, square{});`
template <detail::algorithm_array A, class T, class ReduceOp, class Fn>
T transform_reduce(const A& a, T init, ReduceOp reduce_op, Fn fn) {
  return detail::with_kernel_form_on(
      detail::algorithm_device(a), "tack::transform_reduce", a, [&](auto backend, const auto& k) {
        using K = std::remove_cvref_t<decltype(k)>;
        const detail::transformed_reader<K, Fn> read{{k}, fn};
        return tack::parallel_reduce(backend, read.read.count(), init, read,
                                     detail::leaf_op<K, T>(reduce_op));
      });
}

/// `reduce_op(init, fn(a_0, b_0), ..., fn(a_{m-1}, b_{m-1}))` over paired scalar components
/// (component `c` of element `i` of each array). Sizes must match (`value_error` naming both).
/// `double d2 = tack::transform_reduce(a, b, 0.0, tack::ops::plus{}, squared_difference{});`
template <detail::algorithm_array A, detail::algorithm_array B, class T, class ReduceOp, class Fn>
T transform_reduce(const A& a, const B& b, T init, ReduceOp reduce_op, Fn fn) {
  return detail::transform_reduce_pairs("tack::transform_reduce", a, b, init, reduce_op, fn);
}

/// The sum of the scalar components of `a` (0 when empty), of `a`'s scalar type (a sum of
/// `bool`s counts the true ones, as `index_t`). Pairwise on the CPU: accurate and deterministic.
/// `float total = tack::sum(positions);  // 3n floats of a vec3f array`
template <detail::algorithm_array A>
auto sum(const A& a) {
  using R = detail::sum_result_t<detail::algorithm_scalar_t<A>>;
  return detail::reduce_components("tack::sum", a, R{}, ops::plus{});
}

/// The smallest scalar component of `a`; an empty `a` is a `value_error` naming it. NaN operands
/// give a grouping-dependent result, as `std::min` does. `float lo = tack::min(a);`
template <detail::algorithm_array A>
auto min(const A& a) {
  using S = detail::algorithm_scalar_t<A>;
  if (detail::algorithm_size(a) == 0) {
    detail::throw_empty("tack::min", a, "the minimum of no values is undefined");
  }
  return detail::reduce_components("tack::min", a, ops::min::identity<S>(), ops::min{});
}

/// The largest scalar component of `a`; an empty `a` is a `value_error` naming it.
/// `float hi = tack::max(a);`
template <detail::algorithm_array A>
auto max(const A& a) {
  using S = detail::algorithm_scalar_t<A>;
  if (detail::algorithm_size(a) == 0) {
    detail::throw_empty("tack::max", a, "the maximum of no values is undefined");
  }
  return detail::reduce_components("tack::max", a, ops::max::identity<S>(), ops::max{});
}

/// The smallest and largest scalar components of `a`, in one pass; an empty `a` is a
/// `value_error` naming it. `auto [lo, hi] = tack::minmax(a);`
template <detail::algorithm_array A>
std::pair<detail::algorithm_scalar_t<A>, detail::algorithm_scalar_t<A>> minmax(const A& a) {
  using S = detail::algorithm_scalar_t<A>;
  using M = detail::minmax_value<S>;
  if (detail::algorithm_size(a) == 0) {
    detail::throw_empty("tack::minmax", a, "the minimum and maximum of no values are undefined");
  }
  const M r = detail::with_kernel_form_on(
      detail::algorithm_device(a), "tack::minmax", a, [&](auto backend, const auto& k) {
        const detail::minmax_reader<std::remove_cvref_t<decltype(k)>> read{{k}};
        return tack::parallel_reduce(backend, read.read.count(), detail::minmax_op::identity<M>(),
                                     read, detail::minmax_op{});
      });
  return {r.lo, r.hi};
}

/// The sum of the products of paired scalar components (`a_i[c] * b_i[c]`), whatever the
/// layouts; sizes must match (`value_error` naming both). The result type is that of
/// `scalar * scalar`. `double d = tack::dot(x, y);`
template <detail::algorithm_array A, detail::algorithm_array B>
auto dot(const A& a, const B& b) {
  using SA = detail::algorithm_scalar_t<A>;
  using SB = detail::algorithm_scalar_t<B>;
  using R = detail::sum_result_t<std::remove_cvref_t<decltype(SA{} * SB{})>>;
  return detail::transform_reduce_pairs("tack::dot", a, b, R{}, ops::plus{},
                                        detail::multiply_pair{});
}

TACK_IMPL_KERNEL_ABI_END

}  // namespace tack
