// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
#pragma once
/// @file `tack::arrays::implicit_array<F>`: an array whose element `i` is `F(i)`.
///
/// Every array of `tack::arrays` is an `implicit_array` over a small functor. The functor decides
/// what an element is; `implicit_array` adds the length, iteration, bounds checks in debug mode and
/// the kernel-form protocol of core/kernel_form.hpp. The rules every functor follows:
///
/// - **Reads.** `F::operator()(index_t) const` is `TACK_HOST_DEVICE` and returns the element. A
///   computed value is returned as `computed_t<T>` (`const T` for class types), so a store into it
///   does not compile and `tack::writable_array` is false for it. An element that can be stored
///   into is returned as a reference (`float&`) or as a proxy with a `value_type` member that reads
///   as the value and assigns (like `tack::soa_ref`). Constness is shallow, as for `tack::view`
///   and `std::span`: a const array still writes into what it wraps, so kernels that capture it by
///   value can store through it.
/// - **Stores into computed arrays** fail to compile with the compiler's own error ("lvalue
///   required as left operand of assignment" for scalars, "passing 'const tack::vec<float, 3>' as
///   'this' argument discards qualifiers" for vectors). A `static_assert` with a tack message
///   would need an assignable proxy from `operator[]`: `tack::writable_array` would then be true
///   for every computed array, and reads would give the proxy instead of the value. Keeping the
///   concept exact and reads plain was preferred (tests/compile_fail/arrays_store.cpp).
/// - **Operands.** A functor that holds arrays ("operands": kernel views, other implicit arrays,
///   user types with `operator[]` and `size()`, and host handles such as `tack::array`, all held by
///   value so handles stay alive) declares them with a host-only `operands()` returning
///   `std::tie(...)`, and rebuilds itself over other operands with `rebind(k...)`. From these two,
///   `implicit_array` derives `visit_kernel_form`, `for_each_array` and `device()`.
/// - **Kernel form.** An array whose operands are all kernel forms (no operand has a
///   `visit_kernel_form` member, or each is itself such an implicit array) is trivially copyable
///   when its functor is, and is its own kernel form. Otherwise `visit_kernel_form(f)` visits each
///   operand's kernel form in turn (nested, so each layout combination of the held handles is its
///   own instantiation) and calls `f` with the same composition rebuilt over those forms.
/// - **Specialized forms.** A functor without operands may offer faster equivalents chosen from
///   its run-time values: a host-only `visit_form(g)` calls `g` with the functor to run (itself or
///   another type computing the same elements; `counting` with step 1 needs no multiply). The
///   array stays its own kernel form (a kernel may capture it as it is), but `visit_kernel_form`,
///   which `launch` and the algorithms use, passes the specialized form, at any depth of a
///   composition. Each form is one more instantiation of the kernel; lengths never are.

#include <tack/core/concepts.hpp>
#include <tack/core/error.hpp>
#include <tack/core/index.hpp>
#include <tack/core/kernel_form.hpp>
#include <tack/core/macros.hpp>
#include <tack/core/precondition.hpp>
#include <tack/memory/device.hpp>
#include <tack/types/vec.hpp>

#include <array>
#include <cstddef>
#include <iterator>
#include <optional>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>

namespace tack::arrays {

template <class F>
class implicit_array;

namespace detail {

// ---- pack: a trivially copyable tuple that works in device code ---------------------------------
// std::tuple is not trivially copyable in libstdc++ (it declares its assignment operators), so
// kernel forms that hold several operands use this aggregate instead.

template <std::size_t I, class T>
struct pack_leaf {
  T value;
};
template <class Seq, class... T>
struct pack_base;
template <std::size_t... I, class... T>
struct pack_base<std::index_sequence<I...>, T...> : pack_leaf<I, T>... {};

/// An aggregate holding one `T` per position; `get<I>(p)` reads position `I`.
template <class... T>
struct pack : pack_base<std::index_sequence_for<T...>, T...> {};

template <std::size_t I, class T>
TACK_INLINE constexpr const T& get(const pack_leaf<I, T>& leaf) noexcept {
  return leaf.value;
}

template <class... T, std::size_t... I>
TACK_INLINE constexpr pack<T...> make_pack_impl(std::index_sequence<I...>, T... v) {
  return pack<T...>{{pack_leaf<I, T>{static_cast<T>(v)}...}};
}
/// `auto p = make_pack(a, b); get<1>(p)` is `b`. Holds copies (or references, for `T&`).
template <class... T>
TACK_INLINE constexpr pack<T...> make_pack(T... v) {
  return make_pack_impl<T...>(std::index_sequence_for<T...>{}, static_cast<T>(v)...);
}

// ---- element values, references and proxies ---------------------------------------------------

/// A proxy reference: a class with a `value_type` it converts to (`tack::soa_ref<vec3f>`). A
/// value class whose `value_type` names its components (`vec3f::value_type` is `float`) is not
/// one, since it does not convert to that type.
template <class P>
concept proxy_reference = std::is_class_v<P> && requires {
  typename P::value_type;
} && !std::is_same_v<P, typename P::value_type> &&
    std::is_convertible_v<const P&, typename P::value_type>;

template <class R>
struct element_value {
  using type = std::remove_cvref_t<R>;
};
template <class R>
requires proxy_reference<std::remove_cvref_t<R>>
struct element_value<R> {
  using type = typename std::remove_cvref_t<R>::value_type;
};
/// The value an element access `R` reads as: `float&` → `float`, `soa_ref<vec3f>` → `vec3f`.
template <class R>
using element_value_t = typename element_value<R>::type;

/// The value type of array `A` (what `a[i]` reads as).
template <class A>
using value_t = element_value_t<decltype(std::declval<const A&>()[index_t{}])>;

/// The reference type of array `A` (what `a[i]` returns on a const array).
template <class A>
using reference_t = decltype(std::declval<const A&>()[index_t{}]);

/// How a computed value is returned: `const T` for class types, so `a[i] = v` into a temporary
/// does not compile (and `writable_array` is false); plain `T` for scalars, where the language
/// already refuses it.
template <class T>
using computed_t =
    std::conditional_t<std::is_class_v<T>, const std::remove_cv_t<T>, std::remove_cv_t<T>>;

/// Whether an element access `R` can be stored into: a non-const lvalue reference, or a proxy
/// that assigns. A class returned by value (`vec3f`, even non-const) is a temporary, never a
/// place to store.
template <class R>
inline constexpr bool is_writable_reference_v =
    (std::is_lvalue_reference_v<R> ||
     proxy_reference<std::remove_cvref_t<R>>)&&std::is_assignable_v<R, const element_value_t<R>&>;

/// Stores `v` through a held element access of type `R` from a const member function: a
/// reference (`float&`) is assigned directly; a proxy is copied first (copies of a proxy refer to
/// the same element) so its assignment operator need not be const.
TACK_EXEC_CHECK_DISABLE
template <class R, class Held, class V>
TACK_FORCEINLINE constexpr void assign_through(Held&& held, const V& v) {
  R target = static_cast<Held&&>(held);
  target = v;
}

/// Base of the proxies composed arrays return for writable elements (`components`, `transform`
/// with an inverse, mixed `concatenate`). `Derived` defines `T get() const` and
/// `void set(const T&) const`; the base adds the conversion to `T`, `value_type` and compound
/// assignment. Derived classes declare their assignments with TACK_IMPL_ARRAYS_PROXY_ASSIGN.
template <class Derived, class T>
struct proxy_base {
  using value_type = T;
  TACK_FORCEINLINE constexpr operator T() const { return self().get(); }
  /// The value (same as the conversion; spelled out for template code).
  TACK_FORCEINLINE constexpr T value() const { return self().get(); }
  template <class U>
  TACK_INLINE constexpr const Derived& operator+=(const U& u) const {
    self().set(static_cast<T>(self().get() + u));
    return self();
  }
  template <class U>
  TACK_INLINE constexpr const Derived& operator-=(const U& u) const {
    self().set(static_cast<T>(self().get() - u));
    return self();
  }
  template <class U>
  TACK_INLINE constexpr const Derived& operator*=(const U& u) const {
    self().set(static_cast<T>(self().get() * u));
    return self();
  }
  template <class U>
  TACK_INLINE constexpr const Derived& operator/=(const U& u) const {
    self().set(static_cast<T>(self().get() / u));
    return self();
  }

  // T's operators are often templates (tack::vec's are), which do not look through the
  // conversion to T; these forward arithmetic and comparison on a proxy to its value.
#define TACK_IMPL_ARRAYS_PROXY_BINARY(OP)                                                    \
  template <class U>                                                                         \
  requires(!std::is_base_of_v<proxy_base, U>) TACK_INLINE friend constexpr auto operator OP( \
      const Derived& a, const U& b)                                                          \
      ->decltype(std::declval<const T&>() OP b) {                                            \
    return a.get() OP b;                                                                     \
  }                                                                                          \
  template <class U>                                                                         \
  requires(!std::is_base_of_v<proxy_base, U>) TACK_INLINE friend constexpr auto operator OP( \
      const U& a, const Derived& b)                                                          \
      ->decltype(a OP std::declval<const T&>()) {                                            \
    return a OP b.get();                                                                     \
  }                                                                                          \
  TACK_INLINE friend constexpr auto operator OP(const Derived& a, const Derived& b)          \
      ->decltype(std::declval<const T&>() OP std::declval<const T&>()) {                     \
    return a.get() OP b.get();                                                               \
  }
  TACK_IMPL_ARRAYS_PROXY_BINARY(+)
  TACK_IMPL_ARRAYS_PROXY_BINARY(-)
  TACK_IMPL_ARRAYS_PROXY_BINARY(*)
  TACK_IMPL_ARRAYS_PROXY_BINARY(/)
#undef TACK_IMPL_ARRAYS_PROXY_BINARY
  // `==` only one way round: C++20 adds the reversed form itself.
  template <class U>
  requires(!std::is_base_of_v<proxy_base, U>) TACK_INLINE friend constexpr auto operator==(
      const Derived& a, const U& b) -> decltype(bool(std::declval<const T&>() == b)) {
    return a.get() == b;
  }
  TACK_INLINE friend constexpr bool operator==(const Derived& a, const Derived& b) {
    return a.get() == b.get();
  }
  TACK_INLINE friend constexpr auto operator-(const Derived& a)
      -> decltype(-std::declval<const T&>()) {
    return -a.get();
  }

private:
  TACK_FORCEINLINE constexpr const Derived& self() const {
    return static_cast<const Derived&>(*this);
  }
};

// Assignment of a value stores it; assignment from another proxy of the same type stores its
// value (never rebinds), as std::vector<bool>::reference does.
#define TACK_IMPL_ARRAYS_PROXY_ASSIGN(Name, T)                           \
  TACK_INLINE constexpr const Name& operator=(const T& v) const {        \
    this->set(v);                                                        \
    return *this;                                                        \
  }                                                                      \
  TACK_INLINE constexpr const Name& operator=(const Name& other) const { \
    this->set(other.get());                                              \
    return *this;                                                        \
  }                                                                      \
  Name(const Name&) = default;

/// Reads `a[i]` as its value type (converts proxies), for arithmetic on elements.
TACK_EXEC_CHECK_DISABLE
template <class A>
TACK_FORCEINLINE constexpr value_t<A> read(const A& a, index_t i) {
  return static_cast<value_t<A>>(a[i]);
}

// ---- operands -----------------------------------------------------------------------------------

struct kernel_form_probe {
  template <class K>
  void operator()(const K&) const {}
};

/// Types that convert themselves to a kernel form: `tack::array` handles and implicit arrays.
template <class T>
concept has_kernel_form_member = requires(const T& x, kernel_form_probe p) {
  x.visit_kernel_form(p);
};

template <class T>
struct is_implicit_array : std::false_type {};
template <class F>
struct is_implicit_array<implicit_array<F>> : std::true_type {};

/// True for what a kernel can receive as it is: kernel views, trivially copyable user structs,
/// and implicit arrays whose operands are all kernel forms. (A composition over anything else,
/// a `std::vector` say, visits it, and core's `tack::visit_kernel_form` refuses it with a message.)
template <class T>
inline constexpr bool is_kernel_form_v =
    !has_kernel_form_member<T> && std::is_trivially_copyable_v<T>;
template <class F>
inline constexpr bool is_kernel_form_v<implicit_array<F>> = implicit_array<F>::is_kernel_form;

/// What a composed array accepts as an operand: anything indexable with a length, or a handle.
template <class A>
concept array_operand = std::is_object_v<A> &&(readable_array<A> || has_kernel_form_member<A>);

template <class F>
concept has_operands = requires(const F& f) {
  f.operands();
};

/// Folds a predicate `P::template test<A>` over the operand types of functor `F` (its
/// `operands()` tuple): `Any` gives `||`, else `&&`. The three composition rules below share it.
template <class P, bool Any, class... A>
constexpr bool fold_operands(const std::tuple<const A&...>*) {
  if constexpr (Any) {
    return (P::template test<A> || ...);
  } else {
    return (P::template test<A> && ...);
  }
}
template <class F, class P, bool Any>
inline constexpr bool fold_operands_v =
    fold_operands<P, Any>(static_cast<decltype(std::declval<const F&>().operands())*>(nullptr));

struct kernel_form_test {
  template <class A>
  static constexpr bool test = is_kernel_form_v<A>;
};
template <class F>
struct functor_is_kernel_form : std::true_type {};
template <class F>
requires has_operands<F>
struct functor_is_kernel_form<F> : std::bool_constant<fold_operands_v<F, kernel_form_test, false>> {
};

/// Functors that choose a specialized form at run time (see the file comment).
template <class F>
concept has_form_choice = requires(const F& f, kernel_form_probe p) {
  f.visit_form(p);
};

template <class A>
inline constexpr bool offers_specialized_forms_v = false;
struct specialized_forms_test {
  template <class A>
  static constexpr bool test = offers_specialized_forms_v<A>;
};
template <class F>
struct functor_offers_forms : std::bool_constant<has_form_choice<F>> {};
template <class F>
requires has_operands<F>
struct functor_offers_forms<F>
    : std::bool_constant<fold_operands_v<F, specialized_forms_test, true>> {
};
template <class F>
inline constexpr bool offers_specialized_forms_v<implicit_array<F>> =
    functor_offers_forms<F>::value;

/// Whether every element of `A` is computed from its index alone, reading no memory (true for a
/// functor that says so with `static constexpr bool computes_from_index = true`, and for a
/// composition whose operands all are). The CPU reductions pick their loop by it: a sum of
/// computed values is bound by the computation, which a vectorizer-grouped loop with a vector
/// induction does best; a sum that reads memory does better with more independent accumulators
/// (exec/backend/cpu/blocks.hpp). A user functor that does not say is assumed to read memory.
template <class A>
inline constexpr bool computes_from_index_v = false;
struct computes_from_index_test {
  template <class A>
  static constexpr bool test = computes_from_index_v<A>;
};
template <class F>
    struct functor_computes_from_index : std::bool_constant < requires {
  requires F::computes_from_index;
} > {};
template <class F>
requires has_operands<F>
struct functor_computes_from_index<F>
    : std::bool_constant<fold_operands_v<F, computes_from_index_test, false>> {
};
template <class F>
inline constexpr bool computes_from_index_v<implicit_array<F>> =
    functor_computes_from_index<F>::value;

/// The device an operand lives on, if it says (`tack::array::device()`, composed arrays).
template <class A>
std::optional<tack::device> operand_device(const A& a) {
  if constexpr (requires { std::optional<tack::device>(a.device()); }) {
    return std::optional<tack::device>(a.device());
  } else {
    return std::nullopt;
  }
}

/// The one device of `ops` (nullopt if none says); two different devices are a `value_error`
/// naming the operation and both devices.
template <class... A>
std::optional<tack::device> common_device(const char* operation, const A&... ops) {
  std::optional<tack::device> found;
  auto one = [&](const auto& op) {
    std::optional<tack::device> d = operand_device(op);
    if (!d) return;
    if (found && *found != *d) {
      throw value_error(std::string(operation) + ": operands live on different devices (" +
                        found->str() + " and " + d->str() +
                        "); move them to one device with to_device() first");
    }
    if (!found) found = d;
  };
  (one(ops), ...);
  return found;
}

/// Throws `value_error` when a length is negative.
inline void check_length(const char* operation, index_t n) {
  if (n < 0) {
    throw value_error(std::string(operation) + ": length must be non-negative, got " +
                      std::to_string(n));
  }
}

/// The number of elements of `extents` (each non-negative), or a `value_error` naming `operation`
/// and the extents when it does not fit an index.
template <std::size_t N>
index_t checked_element_count(const char* operation, const std::array<index_t, N>& extents) {
  index_t total = 1;
  for (const index_t x : extents) {
    check_length(operation, x);
    if (__builtin_mul_overflow(total, x, &total)) {
      std::string shape;
      for (std::size_t d = 0; d < N; ++d) shape += (d ? ", " : "") + std::to_string(extents[d]);
      throw value_error(std::string(operation) + ": the extents (" + shape +
                        ") hold more elements than an index can count");
    }
  }
  return total;
}

/// Calls `g(k...)` with the kernel forms of the operands in `t`, visiting one operand at a time.
template <std::size_t I, class Tuple, class G, class... K>
decltype(auto) visit_operands_from(const Tuple& t, G& g, const K&... done) {
  if constexpr (I == std::tuple_size_v<Tuple>) {
    return g(done...);
  } else {
    return tack::visit_kernel_form(std::get<I>(t), [&](const auto& k) -> decltype(auto) {
      return visit_operands_from<I + 1>(t, g, done..., k);
    });
  }
}

}  // namespace detail

/// `tack::arrays::computed_t<T>`: how a computed element is returned (`const T` for class types).
using detail::computed_t;

namespace detail {
/// A functor of rank N > 1 declares `static constexpr int rank = N`, has `shape()` (the N
/// extents, row-major) and `operator()(vec<index_t, N>)` besides the flat `operator()(index_t)`.
template <class F>
concept multi_index_functor = requires(const F& f) {
  F::rank;
  f.shape();
};
template <class F>
consteval int functor_rank() {
  if constexpr (multi_index_functor<F>) {
    return F::rank;
  } else {
    return 1;
  }
}
}  // namespace detail

/// An array of `size()` elements whose element `i` is `fn(i)`: the base of every implicit array.
/// Trivially copyable when `F` is. Element access is `TACK_HOST_DEVICE` and inlines to `fn(i)`.
/// `auto squares = tack::arrays::function(10, [](tack::index_t i) { return i * i; });`
template <class F>
class implicit_array {
public:
  /// The functor that computes elements.
  using functor_type = F;
  /// What `a[i]` returns: a value (`computed_t<T>`), a reference or a proxy.
  using reference = decltype(std::declval<const F&>()(index_t{}));
  /// The element type.
  using value_type = detail::element_value_t<reference>;
  /// True when every operand is a kernel form: the array is then its own kernel form.
  static constexpr bool is_kernel_form = detail::functor_is_kernel_form<F>::value;

  /// `implicit_array(fn, n)`: `n` elements, element `i` is `fn(i)`.
  TACK_INLINE constexpr implicit_array(F fn, index_t n) : fn_(static_cast<F&&>(fn)), size_(n) {}

  /// From an array over a functor that converts to `F`: a specialized form to its general one
  /// (`counting` with step 1 to `counting`), so a kernel whose parameter names the general type
  /// accepts the form `visit_kernel_form` passes.
  template <class G>
  requires(!std::is_same_v<G, F> && std::is_convertible_v<const G&, F>)
      TACK_INLINE constexpr implicit_array(const implicit_array<G>& other)
      : fn_(other.functor()), size_(other.size()) {}

  /// Element `i` (checked against `size()` in debug mode).
  TACK_EXEC_CHECK_DISABLE
  TACK_FORCEINLINE constexpr reference operator[](index_t i) const {
    TACK_EXPECTS(i >= 0 && i < size_,
                 "tack::arrays: index %lld is out of range for an implicit array of size %lld",
                 static_cast<long long>(i), static_cast<long long>(size_));
    return fn_(i);
  }
  /// Number of indices an element takes: the functor's `rank`, else 1.
  /// `static_assert(decltype(tack::arrays::uniform_coordinates({2, 2, 2}))::rank == 3);`
  static constexpr int rank = detail::functor_rank<F>();

  /// Element `(i, j[, k])`, exactly `rank` indices; the same as `a[tack::vec<index_t, rank>{...}]`.
  /// `pts(k, j, i)` of `uniform_coordinates({nx, ny, nz})` is the point `(i, j, k)`.
  TACK_EXEC_CHECK_DISABLE
  template <class... I>
  requires(sizeof...(I) >= 1 && (std::is_integral_v<I> && ...)) TACK_FORCEINLINE constexpr reference
  operator()(I... i) const {
    static_assert(sizeof...(I) == std::size_t(rank),
                  "tack::arrays: an implicit array takes as many indices as its rank (a(i) for "
                  "rank 1, a(i, j) for rank 2, a(i, j, k) for rank 3); a[k] reads the flat "
                  "row-major element");
    if constexpr (rank == 1) {
      return (*this)[(index_t(i), ...)];
    } else {
      return (*this)[vec<index_t, rank>{index_t(i)...}];
    }
  }
  /// Element `ix` of a rank-2 or rank-3 array (checked against `shape()` in debug mode).
  /// `pts[tack::vec<tack::index_t, 3>{k, j, i}]`
  TACK_EXEC_CHECK_DISABLE
  TACK_FORCEINLINE constexpr reference operator[](const vec<index_t, rank>& ix) const
      requires(rank > 1) {
#if TACK_BOUNDS_CHECK
    const auto s = fn_.shape();
    for (int d = 0; d < rank; ++d) {
      TACK_EXPECTS(ix[d] >= 0 && ix[d] < s[std::size_t(d)],
                   "tack::arrays: index %lld of dimension %d is out of range for extent %lld",
                   static_cast<long long>(ix[d]), d, static_cast<long long>(s[std::size_t(d)]));
    }
#endif
    return fn_(ix);
  }
  /// The extents, row-major: `{size()}` for rank 1.
  TACK_HOST_DEVICE constexpr std::array<index_t, std::size_t(rank)> shape() const noexcept {
    if constexpr (rank == 1) {
      return {size_};
    } else {
      return fn_.shape();
    }
  }
  /// Extent of dimension `d`. `pts.extent(0)` is `nz` for `uniform_coordinates({nx, ny, nz})`.
  TACK_HOST_DEVICE constexpr index_t extent(int d) const noexcept {
    return shape()[std::size_t(d)];
  }
  /// The number of elements.
  TACK_FORCEINLINE constexpr index_t size() const noexcept { return size_; }
  /// True when `size() == 0`.
  TACK_INLINE constexpr bool empty() const noexcept { return size_ == 0; }
  /// The functor (its members are the array's parameters).
  TACK_INLINE constexpr const F& functor() const noexcept { return fn_; }

  /// Random-access iterator for host loops and algorithms; dereferencing computes the element.
  class iterator {
  public:
    using iterator_concept = std::random_access_iterator_tag;
    // Elements are computed, not stored: like std::ranges::iota_view, the iterator is a
    // random-access iterator for C++20 algorithms and an input iterator for C++17 ones.
    using iterator_category = std::input_iterator_tag;
    using value_type = implicit_array::value_type;
    using difference_type = index_t;
    using reference = implicit_array::reference;

    iterator() = default;
    TACK_INLINE constexpr iterator(const implicit_array* a, index_t i) : a_(a), i_(i) {}
    TACK_INLINE constexpr reference operator*() const { return (*a_)[i_]; }
    TACK_INLINE constexpr reference operator[](difference_type k) const { return (*a_)[i_ + k]; }
    TACK_INLINE constexpr iterator& operator++() {
      ++i_;
      return *this;
    }
    TACK_INLINE constexpr iterator operator++(int) {
      iterator old = *this;
      ++i_;
      return old;
    }
    TACK_INLINE constexpr iterator& operator--() {
      --i_;
      return *this;
    }
    TACK_INLINE constexpr iterator operator--(int) {
      iterator old = *this;
      --i_;
      return old;
    }
    TACK_INLINE constexpr iterator& operator+=(difference_type k) {
      i_ += k;
      return *this;
    }
    TACK_INLINE constexpr iterator& operator-=(difference_type k) {
      i_ -= k;
      return *this;
    }
    TACK_INLINE friend constexpr iterator operator+(iterator it, difference_type k) {
      return it += k;
    }
    TACK_INLINE friend constexpr iterator operator+(difference_type k, iterator it) {
      return it += k;
    }
    TACK_INLINE friend constexpr iterator operator-(iterator it, difference_type k) {
      return it -= k;
    }
    TACK_INLINE friend constexpr difference_type operator-(const iterator& a, const iterator& b) {
      return a.i_ - b.i_;
    }
    TACK_INLINE friend constexpr bool operator==(const iterator& a, const iterator& b) {
      return a.i_ == b.i_;
    }
    TACK_INLINE friend constexpr auto operator<=>(const iterator& a, const iterator& b) {
      return a.i_ <=> b.i_;
    }

  private:
    const implicit_array* a_ = nullptr;
    index_t i_ = 0;
  };
  /// `for (auto v : tack::arrays::counting<int>(3)) ...` visits 0, 1, 2.
  TACK_INLINE constexpr iterator begin() const { return iterator(this, 0); }
  TACK_INLINE constexpr iterator end() const { return iterator(this, size_); }

  /// Calls `f` with the kernel form: this array itself when all its operands are kernel forms;
  /// otherwise the same composition over its operands' kernel forms (one call per layout
  /// combination of the handles it holds, chosen at run time).
  template <class V>
  decltype(auto) visit_kernel_form(V&& f) const {
    if constexpr (detail::has_form_choice<F>) {
      return fn_.visit_form([&](const auto& g) -> decltype(auto) {
        return f(implicit_array<std::remove_cvref_t<decltype(g)>>(g, size_));
      });
    } else if constexpr (is_kernel_form && !detail::functor_offers_forms<F>::value) {
      return std::forward<V>(f)(*this);
    } else {
      auto rebuild = [&](const auto&... k) -> decltype(auto) {
        using G = decltype(fn_.rebind(k...));
        return f(implicit_array<G>(fn_.rebind(k...), size_));
      };
      return detail::visit_operands_from<0>(fn_.operands(), rebuild);
    }
  }

  /// Calls `g(handle)` for every `tack::array` handle held, at any depth of the composition.
  template <class G>
  void for_each_array(G&& g) const {
    if constexpr (detail::has_operands<F>) {
      std::apply([&](const auto&... op) { (tack::for_each_array(op, g), ...); }, fn_.operands());
    }
  }

  /// The device of the arrays held (the first that names one); `std::nullopt` for a purely
  /// computed array, which can be evaluated anywhere.
  std::optional<tack::device> device() const {
    if constexpr (detail::has_operands<F>) {
      return std::apply(
          [](const auto&... op) {
            std::optional<tack::device> d;
            ((d = d ? d : detail::operand_device(op)), ...);
            return d;
          },
          fn_.operands());
    } else {
      return std::nullopt;
    }
  }

private:
  F fn_;
  index_t size_;
};

/// True for `implicit_array<F>`. `static_assert(tack::arrays::is_implicit_array_v<decltype(c)>);`
template <class T>
inline constexpr bool is_implicit_array_v = detail::is_implicit_array<std::remove_cv_t<T>>::value;

}  // namespace tack::arrays
