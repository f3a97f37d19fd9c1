// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
#pragma once
/// @file Combining operations for `parallel_reduce`, `parallel_scan` and the reduction algorithms.
///
/// An op is a trivially copyable function object with a `TACK_HOST_DEVICE` call `op(a, b)` that
/// is associative (the backends regroup operands: pairwise on the CPU, trees on the GPU) and a
/// `template <class T> static T identity()` whose value `e` satisfies `op(e, x) == x`. A user op
/// needs `identity` for the GPU backend; the CPU backends never call it.
///
/// Operand order. Reductions and scans keep the operands of an op in index order (`x0 op x1`,
/// never `x1 op x0`), as `std::inclusive_scan` requires of nothing but associativity, unless the op
/// is commutative (`ops::commutative_v`): then the backends may also reorder operands (vector
/// lanes on the CPU, strided threads on the GPU), which is faster. A user op opts in with
/// `static constexpr bool commutative = true;`.

#include <tack/core/macros.hpp>

#include <limits>
#include <type_traits>

namespace tack::detail {
/// Refuses `ops::min` / `ops::max` identities for types without `std::numeric_limits`.
template <class T>
TACK_INLINE constexpr void ops_require_ordered_scalar() {
  if constexpr (!std::numeric_limits<T>::is_specialized) {
    static_assert(sizeof(T) == 0,
                  "tack::ops::min / max: the identity needs std::numeric_limits<T>; reduce the "
                  "components one at a time (tack::ops::min over scalars)");
  }
}
}  // namespace tack::detail

namespace tack::ops {

/// `a + b`; identity `T{}` (zero). `tack::parallel_reduce(n, 0.0, f, tack::ops::plus{});`
struct plus {
  static constexpr bool commutative = true;
  template <class T>
  TACK_INLINE static constexpr T identity() {
    return T{};
  }
  template <class T>
  TACK_FORCEINLINE constexpr T operator()(const T& a, const T& b) const {
    return a + b;
  }
};

/// `a * b`; identity `T(1)`. `tack::parallel_reduce(n, 1.0, f, tack::ops::multiplies{});`
struct multiplies {
  template <class T>
  TACK_INLINE static constexpr T identity() {
    return T(1);
  }
  template <class T>
  TACK_FORCEINLINE constexpr T operator()(const T& a, const T& b) const {
    return a * b;
  }
};

/// The smaller of `a` and `b` (`a` when neither is smaller, as `std::min`; with NaN operands the
/// result depends on the grouping, as with `std::min`). Identity: +infinity, or the largest `T`.
/// `float lo = tack::parallel_reduce(n, tack::ops::min::identity<float>(), f, tack::ops::min{});`
struct min {
  static constexpr bool commutative = true;
  template <class T>
  TACK_INLINE static constexpr T identity() {
    tack::detail::ops_require_ordered_scalar<T>();
    if constexpr (std::numeric_limits<T>::has_infinity) {
      return std::numeric_limits<T>::infinity();
    } else {
      return std::numeric_limits<T>::max();
    }
  }
  template <class T>
  TACK_FORCEINLINE constexpr T operator()(const T& a, const T& b) const {
    return b < a ? b : a;
  }
};

/// The larger of `a` and `b` (`a` when neither is larger, as `std::max`). Identity: -infinity, or
/// the lowest value of `T`. `auto hi = tack::parallel_reduce(n, -1e30, f, tack::ops::max{});`
struct max {
  static constexpr bool commutative = true;
  template <class T>
  TACK_INLINE static constexpr T identity() {
    tack::detail::ops_require_ordered_scalar<T>();
    if constexpr (std::numeric_limits<T>::has_infinity) {
      return -std::numeric_limits<T>::infinity();
    } else {
      return std::numeric_limits<T>::lowest();
    }
  }
  template <class T>
  TACK_FORCEINLINE constexpr T operator()(const T& a, const T& b) const {
    return a < b ? b : a;
  }
};

/// `a && b` (as `bool`); identity `true`. "All": `tack::parallel_reduce(n, true, f,
/// tack::ops::logical_and{});`
struct logical_and {
  static constexpr bool commutative = true;
  template <class T>
  TACK_INLINE static constexpr T identity() {
    return T(true);
  }
  template <class T>
  TACK_FORCEINLINE constexpr T operator()(const T& a, const T& b) const {
    return T(a && b);
  }
};

/// `a || b` (as `bool`); identity `false`. "Any": `tack::parallel_reduce(n, false, f,
/// tack::ops::logical_or{});`
struct logical_or {
  static constexpr bool commutative = true;
  template <class T>
  TACK_INLINE static constexpr T identity() {
    return T(false);
  }
  template <class T>
  TACK_FORCEINLINE constexpr T operator()(const T& a, const T& b) const {
    return T(a || b);
  }
};

}  // namespace tack::ops

namespace tack::detail {
/// The definition of `ops::commutative_v`.
template <class Op, class T>
constexpr bool op_commutes() {
  using O = std::remove_cvref_t<Op>;
  if constexpr (requires { O::commutative; }) {
    return static_cast<bool>(O::commutative);
  } else if constexpr (std::is_same_v<O, ops::multiplies>) {
    return std::is_arithmetic_v<T>;
  } else {
    return false;
  }
}
}  // namespace tack::detail

namespace tack::ops {

/// Whether reductions and scans may reorder the operands of `Op` on values of type `T`: ops that
/// declare `static constexpr bool commutative = true` (`plus`, `min`, `max`, `logical_and`,
/// `logical_or`), and `multiplies` of arithmetic types. Any other op (a product of `tack::mat`s,
/// a user op that says nothing) keeps its operands in index order.
/// `static_assert(!tack::ops::commutative_v<tack::ops::multiplies, tack::mat3f>);`
template <class Op, class T>
inline constexpr bool commutative_v = detail::op_commutes<Op, T>();

}  // namespace tack::ops

namespace tack::detail {

/// `ops::plus` that lets the CPU backends group the operands of each leaf as the vectorizer likes
/// (`omp simd reduction`), where `ops::plus` keeps a fixed lane order. Deterministic either way
/// (exec/backend/cpu/blocks.hpp). The reduction algorithms use it for arrays computed from the
/// index (`arrays::detail::computes_from_index_v`); other backends treat it as `ops::plus`.
struct regrouped_plus : ops::plus {};

}  // namespace tack::detail
