// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
#pragma once
/// @file `tack::any_array`: an array handle whose element type and rank are known at run time
/// (fields, DLPack imports). `as<T, Rank>()` recovers the typed handle; `visit(f)` calls `f` with it.

#include <tack/array/array.hpp>

#include <memory>
#include <optional>
#include <string>
#include <typeinfo>
#include <vector>

namespace tack {

/// A type-erased array handle: shares the memory of the array it was made from.
/// `tack::any_array any = tack::zeros<float>({4}); auto a = any.as<float, 1>();`
class any_array {
public:
  any_array() = default;
  /// Wraps a typed handle (shares its memory).
  template <class T, int R>
  any_array(const array<T, R>& a)
      : holder_(std::make_shared<holder<std::remove_const_t<T>, R>>(a)),
        dtype_(a.dtype()),
        rank_(R),
        const_(std::is_const_v<T>) {}

  /// Whether an array is held.
  bool has_value() const noexcept { return static_cast<bool>(holder_); }
  tack::dtype dtype() const noexcept { return dtype_; }
  int rank() const noexcept { return rank_; }
  /// Whether the held handle is the read-only handle type.
  bool is_const() const noexcept { return const_; }
  std::vector<index_t> shape() const { return require("shape").shape(); }
  index_t size() const {
    index_t n = 1;
    for (auto e : shape()) n *= e;
    return n;
  }
  tack::device device() const { return require("device").device(); }
  tack::layout layout() const { return require("layout").layout(); }
  std::string describe() const { return holder_ ? holder_->describe() : "any_array (empty)"; }

  /// The typed handle; another element type or rank is a `type_error` naming both. A read-only
  /// handle asks for `as<const T, R>()`.
  template <class T, int R>
  array<T, R> as() const {
    using V = std::remove_const_t<T>;
    auto* h = dynamic_cast<holder<V, R>*>(holder_.get());
    if (!h) {
      throw type_error("tack::any_array::as<" + std::string(dtype_of<V>().name()) + ", " +
                       std::to_string(R) + ">: the array is " + describe());
    }
    if constexpr (std::is_const_v<T>) {
      return h->value.as_const();
    } else {
      if (const_) {
        throw read_only_error("tack::any_array::as: " + describe() +
                              " is held as a read-only handle; ask for as<const T, R>()");
      }
      return h->value;
    }
  }

  /// Calls `f(typed_array)` with the held array, for scalar element types (f32, f64, the integer
  /// types, bool) and vec2/3/4, mat2/3/4 of f32 and f64, at ranks 1 to 3 (the types fields and
  /// interop produce). Another type is a `type_error`. `any.visit([](auto a) { use(a); });`
  template <class F>
  decltype(auto) visit(F&& f) const;

private:
  struct holder_base {
    virtual ~holder_base() = default;
    virtual std::vector<index_t> shape() const = 0;
    virtual tack::device device() const = 0;
    virtual tack::layout layout() const = 0;
    virtual std::string describe() const = 0;
  };
  template <class V, int R>
  struct holder final : holder_base {
    array<V, R> value;
    template <class T>
    explicit holder(const array<T, R>& a) : value(as_mutable_handle(a)) {}
    std::vector<index_t> shape() const override {
      auto s = value.shape();
      return {s.begin(), s.end()};
    }
    tack::device device() const override { return value.device(); }
    tack::layout layout() const override { return value.layout(); }
    std::string describe() const override { return value.describe(); }
  };

  // Holds read-only handles as mutable ones internally and remembers constness in `const_`, so
  // that one holder type serves both; `as<T>()` restores the constness.
  template <class T, int R>
  static array<std::remove_const_t<T>, R> as_mutable_handle(const array<T, R>& a);

  const holder_base& require(const char* op) const {
    if (!holder_) throw value_error(std::string("tack::any_array::") + op + ": no array is held");
    return *holder_;
  }

  std::shared_ptr<holder_base> holder_;
  tack::dtype dtype_{};
  int rank_ = 0;
  bool const_ = false;
};


template <class T, int R>
array<std::remove_const_t<T>, R> any_array::as_mutable_handle(const array<T, R>& a) {
  if constexpr (std::is_const_v<T>) {
    return detail::array_access::mutable_alias(a);
  } else {
    return a;
  }
}

template <class F>
decltype(auto) any_array::visit(F&& f) const {
  require("visit");
  auto try_rank = [&]<class V, int R>() -> bool { return rank_ == R && dtype_ == dtype_of<V>(); };
  using result = decltype(f(std::declval<array<float, 1>>()));
  return [&]<class... Vs>(type_list<Vs...>) -> result {
    std::optional<std::conditional_t<std::is_void_v<result>, int, result>> out;
    bool found = false;
    auto attempt = [&]<class V, int R>() {
      if (found || !try_rank.template operator()<V, R>()) return;
      found = true;
      if constexpr (std::is_void_v<result>) {
        if (const_) {
          f(as<const V, R>());
        } else {
          f(as<V, R>());
        }
      } else {
        if (const_) {
          out.emplace(f(as<const V, R>()));
        } else {
          out.emplace(f(as<V, R>()));
        }
      }
    };
    ((attempt.template operator()<Vs, 1>(), attempt.template operator()<Vs, 2>(),
      attempt.template operator()<Vs, 3>()),
     ...);
    if (!found) {
      throw type_error("tack::any_array::visit: element type " + std::string(dtype_.name()) +
                       " at rank " + std::to_string(rank_) + " is not among the visited types");
    }
    if constexpr (!std::is_void_v<result>) return std::move(*out);
  }(element_types{});
}

}  // namespace tack
