// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
#pragma once
/// @file `tack::arrays::function`: element `i` is `f(i)` for any callable (DESIGN §6).

#include <tack/arrays/implicit.hpp>

#include <type_traits>
#include <utility>

namespace tack::arrays {

/// Calls the user's function on the index. A function returning a value gives a computed array;
/// one returning an lvalue reference (a lookup into the user's own storage) gives a writable one.
template <class Fn>
struct function_fn {
  Fn fn;
  using result = std::invoke_result_t<const Fn&, index_t>;
  using returned =
      std::conditional_t<std::is_lvalue_reference_v<result>, result, computed_t<result>>;

  TACK_EXEC_CHECK_DISABLE
  TACK_FORCEINLINE constexpr returned operator()(index_t i) const { return fn(i); }
};

/// `n` elements, element `i` is `f(i)`. `f` must be callable on the device for kernels that run
/// there (a functor with a `TACK_HOST_DEVICE operator()`, or a `TACK_LAMBDA`).
/// `auto squares = tack::arrays::function(10, [](tack::index_t i) { return double(i * i); });`
/// @param n length (negative is a `value_error`)
template <class Fn>
  requires std::is_invocable_v<const Fn&, index_t>
auto function(index_t n, Fn f) {
  detail::check_length("tack::arrays::function", n);
  return implicit_array<function_fn<Fn>>(function_fn<Fn>{std::move(f)}, n);
}

}  // namespace tack::arrays
