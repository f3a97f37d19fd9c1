// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
#pragma once
/// @file `tack::launch([device,] n, kernel, args...)`: array arguments become kernel
/// views specialized per run-time layout, implicit arrays their kernel form, scalars pass by value.

#include <tack/core/error.hpp>
#include <tack/core/kernel_form.hpp>
#include <tack/core/layout.hpp>
#include <tack/exec/backend.hpp>
#include <tack/exec/parallel_for.hpp>
#include <tack/exec/stream.hpp>
#include <tack/types/item.hpp>
#include <tack/view/restrict_view.hpp>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace tack {
namespace detail {

/// One kernel argument, by value (a tiny tuple that nvcc accepts in device code).
template <std::size_t I, class T>
struct launch_arg {
  T value;
};
template <class Seq, class... T>
struct launch_args;
template <std::size_t... I, class... T>
struct launch_args<std::index_sequence<I...>, T...> : launch_arg<I, T>... {};

/// What a backend runs for `launch`: calls `kernel(i, forms...)`.
template <class K, class Seq, class... T>
struct launch_functor;
template <class K, std::size_t... I, class... T>
struct launch_functor<K, std::index_sequence<I...>, T...> {
  K kernel;
  launch_args<std::index_sequence<I...>, T...> args;

  TACK_EXEC_CHECK_DISABLE
  TACK_HOST_DEVICE void operator()(index_t i) const {
    kernel(i, static_cast<const launch_arg<I, T>&>(args).value...);
  }
};

/// The bytes one array (or one SoA component) covers, and whether the kernel may write them.
struct byte_range {
  std::uintptr_t begin;
  std::uintptr_t end;
  bool writable;
};

/// Whether no writable range among `r[0, n)` shares a byte with any other range (writable or
/// not); read-only ranges may overlap each other. Sorts `r` by start (insertion sort: a launch
/// has a handful), then sweeps once. Empty ranges never overlap anything.
inline bool ranges_disjoint(byte_range* r, std::size_t n) noexcept {
  for (std::size_t k = 1; k < n; ++k) {
    const byte_range x = r[k];
    std::size_t j = k;
    for (; j > 0 && r[j - 1].begin > x.begin; --j) r[j] = r[j - 1];
    r[j] = x;
  }
  std::uintptr_t end_any = 0, end_writable = 0;  // furthest end of the ranges before
  for (std::size_t k = 0; k < n; ++k) {
    if (r[k].end <= r[k].begin) continue;
    if (r[k].begin < end_writable || (r[k].writable && r[k].begin < end_any)) return false;
    end_any = std::max(end_any, r[k].end);
    if (r[k].writable) end_writable = std::max(end_writable, r[k].end);
  }
  return true;
}

/// Up to 8 ranges in place, more on the heap.
class byte_range_set {
public:
  void add(std::uintptr_t begin, std::uintptr_t end, bool writable) {
    if (n_ < local_.size()) {
      local_[n_++] = byte_range{begin, end, writable};
      return;
    }
    if (heap_.empty()) heap_.assign(local_.begin(), local_.end());
    heap_.push_back(byte_range{begin, end, writable});
    ++n_;
  }
  bool disjoint() {
    return heap_.empty() ? ranges_disjoint(local_.data(), n_) : ranges_disjoint(heap_.data(), n_);
  }

private:
  std::array<byte_range, 8> local_{};
  std::vector<byte_range> heap_;
  std::size_t n_ = 0;
};

/// `n` byte ranges in place, for the kernel views of one launch (their count is known at compile
/// time).
template <std::size_t N>
struct fixed_byte_ranges {
  std::array<byte_range, N> r{};
  std::size_t n = 0;
  void add(std::uintptr_t begin, std::uintptr_t end, bool writable) {
    r[n++] = byte_range{begin, end, writable};
  }
};

// The byte ranges of a kernel view (each SoA component separately) into `out` (a
// `byte_range_set` or `fixed_byte_ranges`); nothing for other forms.
template <class Out, class T, int R>
void add_form_ranges(Out& out, const view<T, R>& v) {
  const auto begin = reinterpret_cast<std::uintptr_t>(v.data());
  out.add(begin, begin + std::uintptr_t(v.size()) * sizeof(T), !std::is_const_v<T>);
}
template <class Out, class T, int R>
void add_form_ranges(Out& out, const soa_view<T, R>& v) {
  using S = typename soa_view<T, R>::scalar_type;
  for (int c = 0; c < soa_view<T, R>::components; ++c) {
    const auto begin = reinterpret_cast<std::uintptr_t>(v.component_data(c));
    out.add(begin, begin + std::uintptr_t(v.size()) * sizeof(S), !std::is_const_v<T>);
  }
}
template <class Out, class V>
void add_form_ranges(Out&, const V&) {}

// The byte ranges of array handle `a` (one per SoA component) into `set`: those of its kernel view.
template <class A>
void add_array_ranges(byte_range_set& set, const A& a) {
  a.visit_kernel_form([&](const auto& v) { add_form_ranges(set, v); });
}

/// How many pointers a kernel form holds: one per view, one per SoA component; none for other
/// forms.
template <class V>
inline constexpr std::size_t form_pointer_count_v = 0;
template <class T, int R>
inline constexpr std::size_t form_pointer_count_v<view<T, R>> = 1;
template <class T, int R>
inline constexpr std::size_t form_pointer_count_v<soa_view<T, R>> =
    std::size_t(soa_view<T, R>::components);
template <class T, int R>
inline constexpr std::size_t form_pointer_count_v<restrict_view<T, R>> = 1;
template <class T, int R>
inline constexpr std::size_t form_pointer_count_v<restrict_soa_view<T, R>> =
    std::size_t(restrict_soa_view<T, R>::pointer_count);

/// Whether no writable kernel view among `forms` shares a byte with another view. No allocation.
template <class... V>
bool forms_disjoint(const V&... forms) {
  constexpr std::size_t count = (form_pointer_count_v<V> + ... + 0);
  if constexpr (count < 2) {
    return true;
  } else {
    fixed_byte_ranges<count> ranges;
    (add_form_ranges(ranges, forms), ...);
    return ranges_disjoint(ranges.r.data(), count);
  }
}

/// Whether `A` is a `tack::array` handle (its kernel form is a `view` or `soa_view` of its memory).
template <class A>
concept array_handle = requires(const A& a) {
  A::is_const;
  A::can_be_soa;
  a.as_const();
  a.bump_version();
};

/// Whether `launch` may pass restrict views for these arguments: every argument is an array
/// handle or a plain value (scalar, vector, matrix), and the kernel holds nothing (so no pointer
/// the overlap check cannot see reaches the kernel).
template <class K, class... Args>
inline constexpr bool restrict_candidate_v = std::is_empty_v<K> && sizeof...(Args) > 0 &&
                                             ((array_handle<Args> || std::is_arithmetic_v<Args> ||
                                               is_vec_v<Args> || is_mat_v<Args>)&&...);

/// The pointers of a form, as a tuple (none for forms that are not restrict views).
template <class V>
TACK_FORCEINLINE constexpr auto form_pointers(const V& v) {
  if constexpr (is_restrict_form_v<V>) {
    return v.pointers();
  } else {
    return std::tuple<>{};
  }
}

template <class F, class... P>
TACK_IMPL_FLATTEN_LOOP void restrict_loop(const F& f, index_t begin, index_t end,
                                          P* TACK_IMPL_RESTRICT... p);

/// `launch_functor` over restrict forms. On the CPU the backends call `run_range(begin, end)`,
/// which hands every view pointer to `restrict_loop` as a `restrict` parameter and runs the
/// kernel over views rebuilt from those parameters.
template <class K, class Seq, class... T>
struct restrict_launch_functor;
template <class K, std::size_t... I, class... T>
struct restrict_launch_functor<K, std::index_sequence<I...>, T...>
    : launch_functor<K, std::index_sequence<I...>, T...> {
  using base = launch_functor<K, std::index_sequence<I...>, T...>;

  /// Runs indices `[begin, end)` on the calling thread.
  void run_range(index_t begin, index_t end) const {
    std::apply([&](auto*... p) { restrict_loop(*this, begin, end, p...); },
               std::tuple_cat(form_pointers(form<I>())...));
  }

  template <std::size_t J>
  TACK_FORCEINLINE constexpr const auto& form() const {
    using U = std::tuple_element_t<J, std::tuple<T...>>;
    return static_cast<const launch_arg<J, U>&>(this->args).value;
  }

  /// The same functor with the view pointers replaced by `p...` in order.
  template <class... P>
  TACK_FORCEINLINE base rebind(P*... p) const {
    const std::tuple<P*...> ptrs(p...);
    return base{this->kernel, {{rebind_form<I>(ptrs)}...}};
  }

private:
  // Pointers of the forms before form J.
  template <std::size_t J>
  static constexpr std::size_t offset() {
    return ((I < J ? form_pointer_count_v<T> : std::size_t(0)) + ... + std::size_t(0));
  }
  template <std::size_t J, class Ptrs>
  TACK_FORCEINLINE auto rebind_form(const Ptrs& ptrs) const {
    using U = std::tuple_element_t<J, std::tuple<T...>>;
    if constexpr (is_restrict_form_v<U>) {
      return [&]<std::size_t... C>(std::index_sequence<C...>) {
        return form<J>().with_pointers(std::get<offset<J>() + C>(ptrs)...);
      }
      (std::make_index_sequence<form_pointer_count_v<U>>{});
    } else {
      return form<J>();
    }
  }
};

/// The loop of a restrict launch: `p...` are the views' pointers, which no other pointer in the
/// loop reaches where either writes (`launch` checked the byte ranges).
template <class F, class... P>
TACK_IMPL_FLATTEN_LOOP void restrict_loop(const F& f, index_t begin, index_t end,
                                          P* TACK_IMPL_RESTRICT... p) {
  const auto k = f.rebind(p...);
  for (index_t i = begin; i < end; ++i) k(i);
}

/// The writable arrays of a launch, whose versions `bump()` advances after the kernel ran: up to
/// 8 in place, more on the heap. The handles are the launch's arguments (or held by them), which
/// outlive it.
class launch_writes {
public:
  template <class A>
  void add(const A& a) {
    const entry e{&a, [](const void* p) { static_cast<const A*>(p)->bump_version(); }};
    if (n_ < local_.size()) {
      local_[n_++] = e;
    } else {
      heap_.push_back(e);
    }
  }
  void bump() const {
    for (std::size_t k = 0; k < n_; ++k) local_[k].bump(local_[k].array);
    for (const entry& e : heap_) e.bump(e.array);
  }

private:
  struct entry {
    const void* array;
    void (*bump)(const void*);
  };
  std::array<entry, 8> local_;  // the first n_ are set
  std::vector<entry> heap_;
  std::size_t n_ = 0;
};

/// `tack::launch: argument 2 (...) is on cuda:0 but the launch runs on cpu; ...`
template <class A>
[[noreturn, gnu::cold, gnu::noinline]] void refuse_launch_device(std::size_t position, const A& a,
                                                                 const device& d) {
  throw value_error("tack::launch: argument " + std::to_string(position) + " (" + a.describe() +
                    ") is on " + a.device().str() + " but the launch runs on " + d.str() +
                    "; move it with to_device(" + d.str() + ")");
}

/// `tack::launch: component 1 of argument 2 (...) is read-only; pass it as a.as_const() ...`
template <class A>
[[noreturn, gnu::cold, gnu::noinline]] void refuse_launch_read_only(std::size_t position,
                                                                    const A& a) {
  const int c = a.read_only_component();
  throw read_only_error(
      "tack::launch: " + (c >= 0 ? "component " + std::to_string(c) + " of " : std::string()) +
      "argument " + std::to_string(position) + " (" + a.describe() +
      ") is read-only; pass it as a.as_const() to read it in a kernel");
}

/// The one walk over a launch's arguments before the kernel runs: every array inside them must be
/// on `d` (`value_error`), a read-only one must come as `array<const T>` (`read_only_error`,
/// naming the SoA component that refuses writes); the writable ones are remembered in `writes`.
/// No allocation for up to 8 writable arrays; messages are built only on failure (a launch must
/// stay cheap). The overlap of the arguments is checked on their kernel forms (`forms_disjoint`),
/// which the launch makes anyway.
template <class... Args>
void collect_launch_arguments(const device& d, launch_writes& writes, const Args&... args) {
  std::size_t position = 0;
  [[maybe_unused]] auto one = [&](const auto& arg) {
    ++position;
    tack::for_each_array(arg, [&](const auto& a) {
      using A = std::remove_cvref_t<decltype(a)>;
      if (a.device() != d) [[unlikely]] {
        refuse_launch_device(position, a, d);
      }
      if constexpr (!A::is_const) {
        if (a.read_only()) [[unlikely]] {
          refuse_launch_read_only(position, a);
        }
        writes.add(a);
      }
    });
  };
  (one(args), ...);
}

template <class... Args>
std::string describe_launch_arguments(const Args&... args) {
  std::string s;
  std::size_t position = 0;
  [[maybe_unused]] auto one = [&](const auto& arg) {
    ++position;
    tack::for_each_array(arg, [&](const auto& a) {
      s += "; argument " + std::to_string(position) + ": " + a.describe() +
           (a.layout() == tack::layout::soa ? " (passed as tack::soa_view)"
                                            : " (passed as tack::view)");
    });
  };
  (one(args), ...);
  return s;
}

/// A kernel view's restrict form; other forms as they are.
template <class V>
using restrict_form_t = std::conditional_t<std::is_void_v<typename restrict_form<V>::type>, V,
                                           typename restrict_form<V>::type>;

/// Whether some form is a view (so restrict changes anything) and the kernel takes the restrict
/// forms (a kernel constrained to exactly `tack::view<T>` may not).
template <class K, class... V>
inline constexpr bool restrict_forms_accepted =
    (!std::is_void_v<typename restrict_form<V>::type> || ...) &&
    std::is_invocable_v<const K&, index_t, const restrict_form_t<V>&...>;

/// Runs a launch functor on `backend` over `[0, n)`, `n >= 0` checked by the caller.
template <class Backend, class F>
void run_launch(Backend, index_t n, const F& f) {
  require_backend<Backend>();
  if constexpr (backend_available_v<Backend>) {
    if (n > 0) parallel_for_impl<Backend>::run(n, f);
  }
}

/// Converts the arguments one by one (each conversion may branch on a run-time layout), then runs
/// the kernel on the forms when it accepts them (with restrict views where they are disjoint).
template <bool Restrict, class Backend, class K, class Forms, class Refuse>
void launch_forms(Backend backend, index_t n, const K& kernel, const Forms& forms,
                  const Refuse& refuse) {
  std::apply(
      [&](const auto&... f) {
        if constexpr (std::is_invocable_v<const K&, index_t, decltype(f)...>) {
          using seq = std::index_sequence_for<decltype(f)...>;
          using functor = launch_functor<K, seq, std::remove_cvref_t<decltype(f)>...>;
          if constexpr (Restrict &&
                        restrict_forms_accepted<K, std::remove_cvref_t<decltype(f)>...>) {
            // One instantiation per aliasing case: restrict views where the ranges are disjoint.
            if (forms_disjoint(f...)) {
              using rfunctor =
                  restrict_launch_functor<K, seq,
                                          restrict_form_t<std::remove_cvref_t<decltype(f)>>...>;
              run_launch(
                  backend, n,
                  rfunctor{{kernel, {{restrict_form_t<std::remove_cvref_t<decltype(f)>>(f)}...}}});
              return;
            }
          }
          run_launch(backend, n, functor{kernel, {{f}...}});
        } else {
          refuse();
        }
      },
      forms);
}
template <bool Restrict, class Backend, class K, class Forms, class Refuse, class A, class... Rest>
void launch_forms(Backend backend, index_t n, const K& kernel, const Forms& forms,
                  const Refuse& refuse, const A& arg, const Rest&... rest) {
  tack::visit_kernel_form(arg, [&](const auto& form) {
    launch_forms<Restrict>(backend, n, kernel, std::tuple_cat(forms, std::tuple(form)), refuse,
                           rest...);
  });
}

template <class Backend, class K, class... Args>
void launch_on(Backend backend, const device& d, index_t n, const K& kernel, const Args&... args) {
  if (n < 0) throw_negative_count("tack::launch", n);
  // Restrict views on the CPU only: the GPU backend gets one instantiation per layout.
  constexpr bool restrict_views = !is_gpu_backend_v<Backend> && restrict_candidate_v<K, Args...>;
  launch_writes writes;
  collect_launch_arguments(d, writes, args...);
  auto refuse = [&] {
    throw value_error(
        "tack::launch: the kernel accepts no call (index_t, ...) with the kernel "
        "forms of these arguments" +
        describe_launch_arguments(args...) +
        "; write the kernel as a functor with a template call operator, or copy "
        "the argument to the layout it expects");
  };
  launch_forms<restrict_views>(backend, n, kernel, std::tuple<>{}, refuse, args...);
  // Writes through any argument count against its whole allocation.
  writes.bump();
}

}  // namespace detail

/// Whether no writable array inside the arguments shares a byte with any other array inside them
/// (read-only arrays may overlap each other): separate rows of one array are disjoint; a view and
/// its root, two overlapping views, a read-only view of a written array, and `tack::soa(x, x)`
/// (its components count separately) are not. Where this holds for a launch on the CPU whose
/// arguments are arrays and values, the kernel receives `restrict_view`/`restrict_soa_view`.
/// `bool ok = tack::writable_arguments_disjoint(a.rows(0, 2), a.rows(2, 4));`
template <class... Args>
bool writable_arguments_disjoint(const Args&... args) {
  detail::byte_range_set set;
  [[maybe_unused]] auto one = [&](const auto& arg) {
    tack::for_each_array(arg, [&](const auto& a) { detail::add_array_ranges(set, a); });
  };
  (one(args), ...);
  return set.disjoint();
}

TACK_IMPL_KERNEL_ABI_BEGIN

/// Runs `kernel(i, forms...)` for `i` in `[0, n)` on device `d`: each `tack::array` argument is
/// passed as a `tack::view` (AoS) or `tack::soa_view` (SoA), each implicit array as its kernel
/// form, everything else by value. One kernel source serves every layout: a generic kernel is
/// instantiated once per layout combination; a kernel with concrete parameter types accepts only
/// those, and another layout is a `value_error` naming the arguments. Arrays must be on `d`
/// (`value_error`), read-only arrays must be passed as `a.as_const()` (`read_only_error`), and
/// writable arguments have their version bumped.
/// `tack::launch(a.device(), a.size(), triad{}, a, b.as_const(), c.as_const(), 2.0);`
template <class K, class... Args>
void launch(const device& d, index_t n, const K& kernel, const Args&... args) {
  detail::with_backend_of(d, "tack::launch",
                          [&](auto backend) { detail::launch_on(backend, d, n, kernel, args...); });
}

/// `launch` on a named backend (`tack::serial_backend{}`, `openmp_backend{}`, `cuda_backend{}`,
/// `hip_backend{}`); arrays must be on the backend's device (`backend_device<Backend>()`: the CPU
/// for serial and OpenMP, GPU 0 for CUDA and HIP).
template <backend_tag Backend, class K, class... Args>
void launch(Backend backend, index_t n, const K& kernel, const Args&... args) {
  const device d = backend_device<Backend>();
  detail::launch_on(backend, d, n, kernel, args...);
}

/// `launch` queued on stream `s` (tack/exec/stream.hpp): the arrays must be on `s.device()`. On a
/// CUDA device it returns once the kernel is queued, and `s.synchronize()` waits for it (and
/// reports its failure); on the CPU it runs before it returns.
/// `tack::launch(s, a.size(), triad{}, a, b.as_const(), c.as_const(), 2.0);`
template <class K, class... Args>
void launch(const stream& s, index_t n, const K& kernel, const Args&... args) {
  const stream_scope on(s);
  tack::launch(s.device(), n, kernel, args...);
}

/// `launch` on `tack::default_device()`. `tack::launch(n, scale{}, y, x.as_const(), 2.0f);`
template <class K, class... Args>
requires(!std::is_same_v<std::remove_cvref_t<K>, device>) void launch(index_t n, const K& kernel,
                                                                      const Args&... args) {
  tack::launch(default_device(), n, kernel, args...);
}

TACK_IMPL_KERNEL_ABI_END

}  // namespace tack
