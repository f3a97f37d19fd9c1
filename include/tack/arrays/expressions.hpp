// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
#pragma once
/// @file Lazy array expressions: `+ - * /`, unary `-`, and `tack::sqrt`, `abs`,
/// `minimum`, `maximum`, `exp`, `log`, `sin`, `cos`, `pow` (NumPy's names) between arrays and
/// scalars build implicit arrays; nothing is computed until an element is read, so
/// `copyto(out, a + 2.0f * b)` is one fused pass and `sum(a * b)` never stores `a * b`.
///
/// **Which types get the operators.** An operand is an array when
/// `tack::arrays::is_array_expression_operand<T>` is true. It is true for implicit arrays
/// (`tack::arrays::*`), the kernel views `tack::view` and `tack::soa_view`, and every type with a
/// `visit_kernel_form` member (host handles such as `tack::array`). Any other type opts in by
/// specializing the trait:
/// `template <> struct tack::arrays::is_array_expression_operand<my_array> : std::true_type {};`
/// Being indexable is not enough: `std::vector`, `std::span` and other containers never get these
/// operators, so no unrelated `a + b` changes meaning. The operators are found by
/// argument-dependent lookup for tack's own types; for an opted-in type from another namespace,
/// add `using tack::operator+;` (and the others it needs) to that namespace, so that
/// argument-dependent lookup finds them wherever the type is used. An expression needs at least one array
/// operand; the other may be a scalar or any element value (`vec3f`, `mat3f`), broadcast to
/// every index.
///
/// **Element types** combine as the element values do: `vec3f * float` is `vec3f`, `mat3f * vec3f`
/// is `vec3f`, `float * double` is `double`. An operation the elements do not support removes the
/// operator from overload resolution. Math functions act component by component on vectors and
/// matrices; on integer scalars `sqrt`, `exp`, `log`, `sin`, `cos` and `pow` give `double`, as
/// `std::sqrt` does. `minimum` and `maximum` propagate NaN, as NumPy's do.
///
/// **Shapes and devices.** Two array operands must have the same size (else a `value_error` naming
/// both sizes) and, when both name a device, the same device (else a `value_error` naming both).
/// Operands are held by value: handles stay alive, and the expression's kernel form is the same
/// expression over the operands' kernel forms.

#include <tack/arrays/implicit.hpp>
#include <tack/types/item.hpp>
#include <tack/view/soa_view.hpp>
#include <tack/view/view.hpp>

#include <cmath>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace tack::arrays {

/// Whether `T` is an array for the expression operators (see the file comment). Specialize to
/// `std::true_type` to opt a type in.
template <class T>
struct is_array_expression_operand
    : std::bool_constant<is_implicit_array_v<T> || detail::has_kernel_form_member<T>> {};
template <class T, int Rank>
struct is_array_expression_operand<tack::view<T, Rank>> : std::true_type {};
template <class T, int Rank>
struct is_array_expression_operand<tack::soa_view<T, Rank>> : std::true_type {};

/// `is_array_expression_operand<T>::value`, cv and references ignored.
template <class T>
inline constexpr bool is_array_expression_operand_v =
    is_array_expression_operand<std::remove_cvref_t<T>>::value;

namespace detail {

/// A scalar (or any element value) broadcast to every index of an expression.
template <class S>
struct scalar_operand {
  S value;
  TACK_FORCEINLINE constexpr computed_t<S> operator[](index_t) const { return value; }
};
template <class S>
inline constexpr bool computes_from_index_v<scalar_operand<S>> = true;

// ---- element-wise math ---------------------------------------------------------------------------

/// Applies `f` to each component of a vector or matrix, or to a scalar.
template <class F, class T>
TACK_FORCEINLINE constexpr auto map_components(const F& f, const T& x) {
  if constexpr (is_vec_v<T>) {
    using R = std::remove_cvref_t<decltype(f(x[0]))>;
    vec<R, T::length> r{};
    for (int c = 0; c < T::length; ++c) r[c] = f(x[c]);
    return r;
  } else if constexpr (is_mat_v<T>) {
    using S = scalar_t<T>;
    using R = std::remove_cvref_t<decltype(f(S{}))>;
    mat<R, component_rows_v<T>, component_cols_v<T>> r{};
    for (int i = 0; i < component_rows_v<T>; ++i)
      for (int j = 0; j < component_cols_v<T>; ++j) r(i, j) = f(x(i, j));
    return r;
  } else {
    return f(x);
  }
}

/// Component `c` of `x` (a scalar broadcasts).
template <class T>
TACK_FORCEINLINE constexpr auto component_value(const T& x, int c) {
  if constexpr (is_vec_v<T>) {
    return x[c];
  } else if constexpr (is_mat_v<T>) {
    return x(c / component_cols_v<T>, c % component_cols_v<T>);
  } else {
    return x;
  }
}

/// Applies the scalar function `f` to pairs of components; a scalar pairs with every component.
/// Two vectors (or matrices) must have the same shape.
template <class F, class A, class B>
TACK_FORCEINLINE constexpr auto map_components2(const F& f, const A& a, const B& b) requires(
    !((is_vec_v<A> || is_mat_v<A>)&&(is_vec_v<B> || is_mat_v<B>)) ||
    (component_rows_v<A> == component_rows_v<B> && component_cols_v<A> == component_cols_v<B> &&
     is_vec_v<A> == is_vec_v<B>)) {
  constexpr bool a_item = is_vec_v<A> || is_mat_v<A>;
  constexpr bool b_item = is_vec_v<B> || is_mat_v<B>;
  if constexpr (!a_item && !b_item) {
    return f(a, b);
  } else {
    using Shape = std::conditional_t<a_item, A, B>;
    using R = std::remove_cvref_t<decltype(f(component_value(a, 0), component_value(b, 0)))>;
    if constexpr (is_vec_v<Shape>) {
      vec<R, Shape::length> r{};
      for (int c = 0; c < Shape::length; ++c)
        r[c] = f(component_value(a, c), component_value(b, c));
      return r;
    } else {
      constexpr int rows = component_rows_v<Shape>, cols = component_cols_v<Shape>;
      mat<R, rows, cols> r{};
      for (int c = 0; c < rows * cols; ++c)
        r(c / cols, c % cols) = f(component_value(a, c), component_value(b, c));
      return r;
    }
  }
}

// Scalar kernels. The `std::` functions are host/device under nvcc (CUDA's math headers declare
// them for float and double).
#define TACK_IMPL_ARRAYS_UNARY_MATH(NAME, EXPR)                                              \
  struct NAME##_scalar {                                                                     \
    template <class T>                                                                       \
    requires std::is_arithmetic_v<T> TACK_FORCEINLINE constexpr auto operator()(T x) const { \
      EXPR;                                                                                  \
    }                                                                                        \
  };
TACK_IMPL_ARRAYS_UNARY_MATH(sqrt, return std::sqrt(x))
TACK_IMPL_ARRAYS_UNARY_MATH(exp, return std::exp(x))
TACK_IMPL_ARRAYS_UNARY_MATH(log, return std::log(x))
TACK_IMPL_ARRAYS_UNARY_MATH(sin, return std::sin(x))
TACK_IMPL_ARRAYS_UNARY_MATH(cos, return std::cos(x))
TACK_IMPL_ARRAYS_UNARY_MATH(
    abs,
    if constexpr (std::is_unsigned_v<T>) {
      return x;
    } else if constexpr (std::is_floating_point_v<T>) { return std::fabs(x); } else {
      return static_cast<T>(x < 0 ? -x : x);
    })
#undef TACK_IMPL_ARRAYS_UNARY_MATH

struct minimum_scalar {
  template <class A, class B>
  requires std::is_arithmetic_v<A> && std::is_arithmetic_v<B> TACK_FORCEINLINE constexpr auto
  operator()(A a, B b) const {
    using C = std::common_type_t<A, B>;
    const C x = static_cast<C>(a), y = static_cast<C>(b);
    if (x != x) return x;  // NaN propagates (NumPy's minimum)
    if (y != y) return y;
    return y < x ? y : x;
  }
};
struct maximum_scalar {
  template <class A, class B>
  requires std::is_arithmetic_v<A> && std::is_arithmetic_v<B> TACK_FORCEINLINE constexpr auto
  operator()(A a, B b) const {
    using C = std::common_type_t<A, B>;
    const C x = static_cast<C>(a), y = static_cast<C>(b);
    if (x != x) return x;
    if (y != y) return y;
    return x < y ? y : x;
  }
};
struct pow_scalar {
  template <class A, class B>
  requires std::is_arithmetic_v<A> && std::is_arithmetic_v<B> TACK_FORCEINLINE auto operator()(
      A a, B b) const {
    return std::pow(a, b);
  }
};

/// Element operations: each forwards to the element types (operators) or maps a scalar kernel
/// over components (functions). A failing element operation makes the expression ill-formed.
namespace ops {
#define TACK_IMPL_ARRAYS_BINARY_OP(NAME, OP)                                                       \
  struct NAME {                                                                                    \
    template <class A, class B>                                                                    \
    TACK_FORCEINLINE constexpr auto operator()(const A& a, const B& b) const -> decltype(a OP b) { \
      return a OP b;                                                                               \
    }                                                                                              \
  };
TACK_IMPL_ARRAYS_BINARY_OP(plus, +)
TACK_IMPL_ARRAYS_BINARY_OP(minus, -)
TACK_IMPL_ARRAYS_BINARY_OP(multiplies, *)
TACK_IMPL_ARRAYS_BINARY_OP(divides, /)
#undef TACK_IMPL_ARRAYS_BINARY_OP
struct negate {
  template <class A>
  TACK_FORCEINLINE constexpr auto operator()(const A& a) const -> decltype(-a) {
    return -a;
  }
};
/// A scalar function applied component by component.
template <class Scalar>
struct componentwise {
  template <class A>
  TACK_FORCEINLINE constexpr auto operator()(const A& a) const
      -> decltype(map_components(Scalar{}, a)) {
    return map_components(Scalar{}, a);
  }
};
/// A scalar function of two arguments applied to pairs of components.
template <class Scalar>
struct componentwise2 {
  template <class A, class B>
  TACK_FORCEINLINE constexpr auto operator()(const A& a, const B& b) const
      -> decltype(map_components2(Scalar{}, a, b)) {
    return map_components2(Scalar{}, a, b);
  }
};
}  // namespace ops

// ---- expression nodes ----------------------------------------------------------------------------

/// Element `i` is `op(l[i], r[i])` (a scalar operand reads the same value at every index).
template <class Op, class L, class R>
struct binary_fn {
  L l;
  R r;
  using result =
      std::remove_cvref_t<decltype(Op{}(std::declval<value_t<L>>(), std::declval<value_t<R>>()))>;

  TACK_EXEC_CHECK_DISABLE
  TACK_FORCEINLINE constexpr computed_t<result> operator()(index_t i) const {
    return Op{}(detail::read(l, i), detail::read(r, i));
  }

  auto operands() const { return std::tie(l, r); }
  template <class KL, class KR>
  auto rebind(const KL& kl, const KR& kr) const {
    return binary_fn<Op, KL, KR>{kl, kr};
  }
};

/// Element `i` is `op(a[i])`.
template <class Op, class A>
struct unary_fn {
  A a;
  using result = std::remove_cvref_t<decltype(Op{}(std::declval<value_t<A>>()))>;

  TACK_EXEC_CHECK_DISABLE
  TACK_FORCEINLINE constexpr computed_t<result> operator()(index_t i) const {
    return Op{}(detail::read(a, i));
  }

  auto operands() const { return std::tie(a); }
  template <class K>
  auto rebind(const K& k) const {
    return unary_fn<Op, K>{k};
  }
};

/// An array operand as held by an expression (the value itself), or a scalar wrapped to read the
/// same value at every index.
template <class T>
using operand_t = std::conditional_t<is_array_expression_operand_v<T>, std::remove_cvref_t<T>,
                                     scalar_operand<std::remove_cvref_t<T>>>;

/// A value usable as the scalar side of an expression: not an array, not a container.
template <class T>
concept broadcast_value =
    !is_array_expression_operand_v<T> && !readable_array<std::remove_cvref_t<T>> &&
    std::is_trivially_copyable_v<std::remove_cvref_t<T>>;

template <class Op, class L, class R>
concept binary_operands = (is_array_expression_operand_v<L> || is_array_expression_operand_v<R>)&&(
    is_array_expression_operand_v<L> ||
    broadcast_value<L>)&&(is_array_expression_operand_v<R> ||
                          broadcast_value<R>)&&requires(value_t<operand_t<L>> a,
                                                        value_t<operand_t<R>> b) {
  Op{}(a, b);
};

template <class Op, class A>
concept unary_operand = is_array_expression_operand_v<A> &&
    requires(value_t<std::remove_cvref_t<A>> a) {
  Op{}(a);
};

template <class T>
TACK_INLINE operand_t<T> make_operand(T&& x) {
  if constexpr (is_array_expression_operand_v<T>) {
    return std::forward<T>(x);
  } else {
    return operand_t<T>{std::forward<T>(x)};
  }
}

/// The extents of an expression operand (`{size()}` for one without a shape), for messages and
/// the shape check.
template <class X>
std::vector<index_t> operand_extents(const X& x) {
  if constexpr (requires { x.shape(); }) {
    const auto s = x.shape();
    return std::vector<index_t>(s.begin(), s.end());
  } else {
    return {static_cast<index_t>(x.size())};
  }
}
/// `(2, 3)`.
inline std::string extents_string(const std::vector<index_t>& e) {
  std::string out = "(";
  for (std::size_t d = 0; d < e.size(); ++d) out += (d ? ", " : "") + std::to_string(e[d]);
  return out + ")";
}

/// Builds `op(l, r)` as an implicit array after checking shapes, sizes and devices. Two
/// multi-dimensional operands must have one shape; a rank-1 operand (a flat array, or another
/// expression, whose result is flat) matches any operand of its size.
template <class Op, class L, class R>
auto make_binary(const char* name, L&& l, R&& r) {
  using OL = operand_t<L>;
  using OR = operand_t<R>;
  index_t n = 0;
  if constexpr (is_array_expression_operand_v<L> && is_array_expression_operand_v<R>) {
    const auto el = operand_extents(l), er = operand_extents(r);
    if (el.size() > 1 && er.size() > 1 && el != er) {
      throw value_error(std::string(name) + ": the arrays have different shapes: " +
                        extents_string(el) + " and " + extents_string(er) +
                        " (element-wise operations need arrays of the same shape)");
    }
    const index_t nl = static_cast<index_t>(l.size()), nr = static_cast<index_t>(r.size());
    if (nl != nr) {
      throw value_error(
          std::string(name) + ": the arrays have different sizes: " + std::to_string(nl) + " and " +
          std::to_string(nr) + " (element-wise operations need arrays of the same size)");
    }
    common_device(name, l, r);
    n = nl;
  } else if constexpr (is_array_expression_operand_v<L>) {
    n = static_cast<index_t>(l.size());
  } else {
    n = static_cast<index_t>(r.size());
  }
  using F = binary_fn<Op, OL, OR>;
  return implicit_array<F>(F{make_operand(std::forward<L>(l)), make_operand(std::forward<R>(r))},
                           n);
}

template <class Op, class A>
auto make_unary(A&& a) {
  using OA = std::remove_cvref_t<A>;
  const index_t n = static_cast<index_t>(a.size());
  return implicit_array<unary_fn<Op, OA>>(unary_fn<Op, OA>{std::forward<A>(a)}, n);
}

}  // namespace detail

// ---- operators ---------------------------------------------------------------------------------

/// Element-wise sum, lazily. `auto c = a + b;  auto d = 2.0f * a + 1.0f;`
template <class L, class R>
requires detail::binary_operands<detail::ops::plus, L, R>
auto operator+(L&& l, R&& r) {
  return detail::make_binary<detail::ops::plus>("tack::operator+", std::forward<L>(l),
                                                std::forward<R>(r));
}
/// Element-wise difference, lazily. `auto d = a - b;`
template <class L, class R>
requires detail::binary_operands<detail::ops::minus, L, R>
auto operator-(L&& l, R&& r) {
  return detail::make_binary<detail::ops::minus>("tack::operator-", std::forward<L>(l),
                                                 std::forward<R>(r));
}
/// Element-wise product (as the elements multiply: `mat3f * vec3f` is a matrix-vector product).
/// `auto rotated = rotations * points;`
template <class L, class R>
requires detail::binary_operands<detail::ops::multiplies, L, R>
auto operator*(L&& l, R&& r) {
  return detail::make_binary<detail::ops::multiplies>("tack::operator*", std::forward<L>(l),
                                                      std::forward<R>(r));
}
/// Element-wise quotient, lazily. `auto q = a / 2.0f;`
template <class L, class R>
requires detail::binary_operands<detail::ops::divides, L, R>
auto operator/(L&& l, R&& r) {
  return detail::make_binary<detail::ops::divides>("tack::operator/", std::forward<L>(l),
                                                   std::forward<R>(r));
}
/// Element-wise negation, lazily. `auto back = -velocities;`
template <class A>
requires detail::unary_operand<detail::ops::negate, A>
auto operator-(A&& a) { return detail::make_unary<detail::ops::negate>(std::forward<A>(a)); }

}  // namespace tack::arrays

namespace tack {

// The operators live in tack::arrays (found by argument-dependent lookup for implicit arrays) and
// are redeclared here so that the same lookup finds them for tack::view, tack::soa_view and
// tack::array, whose namespace is tack.
using arrays::operator+;
using arrays::operator-;
using arrays::operator*;
using arrays::operator/;

// ---- math functions (NumPy's names) --------------------------------------------------------------

#define TACK_IMPL_ARRAYS_UNARY_FUNCTION(NAME)                                                   \
  template <class A>                                                                            \
  requires arrays::detail::unary_operand<                                                       \
      arrays::detail::ops::componentwise<arrays::detail::NAME##_scalar>, A>                     \
  auto NAME(A&& a) {                                                                            \
    return arrays::detail::make_unary<                                                          \
        arrays::detail::ops::componentwise<arrays::detail::NAME##_scalar>>(std::forward<A>(a)); \
  }                                                                                             \
  template <class T>                                                                            \
  requires std::is_arithmetic_v<T> TACK_INLINE auto NAME(T x) {                                 \
    return arrays::detail::NAME##_scalar{}(x);                                                  \
  }

/// Element-wise square root of an array, lazily (component by component for vectors and
/// matrices); on a scalar, `std::sqrt`. `auto r = tack::sqrt(x * x + y * y);`
TACK_IMPL_ARRAYS_UNARY_FUNCTION(sqrt)
/// Element-wise absolute value, lazily; on a scalar, its absolute value. `auto m = tack::abs(a);`
TACK_IMPL_ARRAYS_UNARY_FUNCTION(abs)
/// Element-wise `e^x`, lazily. `auto g = tack::exp(-x * x);`
TACK_IMPL_ARRAYS_UNARY_FUNCTION(exp)
/// Element-wise natural logarithm, lazily. `auto l = tack::log(a);`
TACK_IMPL_ARRAYS_UNARY_FUNCTION(log)
/// Element-wise sine (radians), lazily. `auto s = tack::sin(angles);`
TACK_IMPL_ARRAYS_UNARY_FUNCTION(sin)
/// Element-wise cosine (radians), lazily. `auto c = tack::cos(angles);`
TACK_IMPL_ARRAYS_UNARY_FUNCTION(cos)
#undef TACK_IMPL_ARRAYS_UNARY_FUNCTION

#define TACK_IMPL_ARRAYS_BINARY_FUNCTION(NAME, NAME_STRING)                                     \
  template <class L, class R>                                                                   \
  requires arrays::detail::binary_operands<                                                     \
      arrays::detail::ops::componentwise2<arrays::detail::NAME##_scalar>, L, R>                 \
  auto NAME(L&& l, R&& r) {                                                                     \
    return arrays::detail::make_binary<                                                         \
        arrays::detail::ops::componentwise2<arrays::detail::NAME##_scalar>>(                    \
        NAME_STRING, std::forward<L>(l), std::forward<R>(r));                                   \
  }                                                                                             \
  template <class A, class B>                                                                   \
  requires std::is_arithmetic_v<A> && std::is_arithmetic_v<B> TACK_INLINE auto NAME(A a, B b) { \
    return arrays::detail::NAME##_scalar{}(a, b);                                               \
  }

/// Element-wise minimum of two arrays, or of an array and a scalar, lazily; NaN propagates (NumPy's
/// `minimum`). `auto clipped = tack::minimum(a, 1.0f);`
TACK_IMPL_ARRAYS_BINARY_FUNCTION(minimum, "tack::minimum")
/// Element-wise maximum, lazily; NaN propagates. `auto relu = tack::maximum(a, 0.0f);`
TACK_IMPL_ARRAYS_BINARY_FUNCTION(maximum, "tack::maximum")
/// Element-wise power `l[i]^r[i]`, lazily. `auto cubes = tack::pow(a, 3.0f);`
TACK_IMPL_ARRAYS_BINARY_FUNCTION(pow, "tack::pow")
#undef TACK_IMPL_ARRAYS_BINARY_FUNCTION

}  // namespace tack
