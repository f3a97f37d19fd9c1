// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
#pragma once
/// @file `tack::launch([device,] n, kernel, args...)` (DESIGN §7): array arguments become kernel
/// views specialized per run-time layout, implicit arrays their kernel form, scalars pass by value.

#include <tack/array/shape.hpp>
#include <tack/core/error.hpp>
#include <tack/core/kernel_form.hpp>
#include <tack/exec/backend.hpp>
#include <tack/exec/parallel_for.hpp>

#include <algorithm>
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

/// Facts `launch` checks about each `tack::array` it finds inside its arguments.
struct launch_array_info {
  std::size_t argument;  ///< 1-based position among the kernel arguments
  tack::device device;
  bool writable;   ///< the handle type is not `array<const T>`
  bool read_only;  ///< the memory refuses writes
  bool soa;
  std::vector<std::pair<std::uintptr_t, std::uintptr_t>> ranges;  ///< byte ranges (per component)
};

// The byte range an AoS array handle covers.
template <class A>
std::pair<std::uintptr_t, std::uintptr_t> array_range(const A& a) {
  const auto* first = reinterpret_cast<const unsigned char*>(a.as_const().view().data());
  const auto begin = reinterpret_cast<std::uintptr_t>(first);
  return {begin, begin + a.nbytes()};
}

template <class A>
void collect_array(std::vector<launch_array_info>& out, std::size_t argument, const A& a) {
  launch_array_info info{argument, a.device(), !A::is_const, a.read_only(),
                         a.layout() == tack::layout::soa, {}};
  if constexpr (A::can_be_soa) {
    if (info.soa) {
      for (auto& c : a.components()) info.ranges.push_back(array_range(c));
      out.push_back(std::move(info));
      return;
    }
  }
  info.ranges.push_back(array_range(a));
  out.push_back(std::move(info));
}

/// Whether any two writable arrays among `infos` share a byte (a view and its root, two
/// overlapping views, `soa(x, x)`). Separate rows of one array are disjoint.
inline bool writable_ranges_overlap(const std::vector<launch_array_info>& infos) {
  std::vector<std::pair<std::uintptr_t, std::uintptr_t>> ranges;
  for (auto& info : infos)
    if (info.writable)
      for (auto& r : info.ranges)
        if (r.second > r.first) ranges.push_back(r);
  std::sort(ranges.begin(), ranges.end());
  for (std::size_t k = 1; k < ranges.size(); ++k)
    if (ranges[k].first < ranges[k - 1].second) return true;
  return false;
}

template <class... Args>
std::vector<launch_array_info> collect_arrays(const Args&... args) {
  std::vector<launch_array_info> infos;
  std::size_t position = 0;
  [[maybe_unused]] auto one = [&](const auto& arg) {
    ++position;
    tack::for_each_array(arg, [&](const auto& a) { collect_array(infos, position, a); });
  };
  (one(args), ...);
  return infos;
}

/// Every array inside the arguments must be on `d`, and a read-only one must come as
/// `array<const T>`. Walks the arguments without allocating; messages are built only on failure
/// (a launch must stay cheap: DESIGN §1, "creating a kernel view costs a few loads and stores").
template <class... Args>
void check_launch_arguments(const device& d, const Args&... args) {
  std::size_t position = 0;
  [[maybe_unused]] auto one = [&](const auto& arg) {
    ++position;
    tack::for_each_array(arg, [&](const auto& a) {
      using A = std::remove_cvref_t<decltype(a)>;
      if (a.device() != d) {
        throw value_error("tack::launch: argument " + std::to_string(position) + " (" +
                          a.describe() + ") is on " + a.device().str() +
                          " but the launch runs on " + d.str() + "; move it with to_device(" +
                          d.str() + ")");
      }
      if constexpr (!A::is_const) {
        if (a.read_only()) {
          throw read_only_error("tack::launch: argument " + std::to_string(position) + " (" +
                                a.describe() +
                                ") is read-only; pass it as a.as_const() to read it in a kernel");
        }
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

/// Converts the arguments one by one (each conversion may branch on a run-time layout), then runs
/// the kernel on the forms when it accepts them.
template <class Backend, class K, class Forms, class Refuse>
void launch_forms(Backend backend, index_t n, const K& kernel, const Forms& forms,
                  const Refuse& refuse) {
  std::apply(
      [&](const auto&... f) {
        if constexpr (std::is_invocable_v<const K&, index_t, decltype(f)...>) {
          using functor = launch_functor<K, std::index_sequence_for<decltype(f)...>,
                                         std::remove_cvref_t<decltype(f)>...>;
          tack::parallel_for(backend, n, functor{kernel, {{f}...}});
        } else {
          refuse();
        }
      },
      forms);
}
template <class Backend, class K, class Forms, class Refuse, class A, class... Rest>
void launch_forms(Backend backend, index_t n, const K& kernel, const Forms& forms,
                  const Refuse& refuse, const A& arg, const Rest&... rest) {
  tack::visit_kernel_form(arg, [&](const auto& form) {
    launch_forms(backend, n, kernel, std::tuple_cat(forms, std::tuple(form)), refuse, rest...);
  });
}

template <class Backend, class K, class... Args>
void launch_on(Backend backend, const device& d, index_t n, const K& kernel,
               const Args&... args) {
  if (n < 0) throw_negative_count("tack::launch", n);
  check_launch_arguments(d, args...);
  auto refuse = [&] {
    throw value_error("tack::launch: the kernel accepts no call (index_t, ...) with the kernel "
                      "forms of these arguments" +
                      describe_launch_arguments(args...) +
                      "; write the kernel as a functor with a template call operator, or copy "
                      "the argument to the layout it expects");
  };
  launch_forms(backend, n, kernel, std::tuple<>{}, refuse, args...);
  // Writes through any argument count against its whole allocation.
  [[maybe_unused]] auto bump = [](const auto& arg) {
    tack::for_each_array(arg, [](const auto& a) {
      if constexpr (!std::remove_cvref_t<decltype(a)>::is_const) a.bump_version();
    });
  };
  (bump(args), ...);
}

}  // namespace detail

/// Whether no two writable array arguments share a byte: separate rows of one array are disjoint,
/// a view and its root are not. Where this holds, the CPU backend may hand out restrict views.
/// `bool ok = tack::writable_arguments_disjoint(a.rows(0, 2), a.rows(2, 4));`
template <class... Args>
bool writable_arguments_disjoint(const Args&... args) {
  return !detail::writable_ranges_overlap(detail::collect_arrays(args...));
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
  if (n < 0) detail::throw_negative_count("tack::launch", n);
  detail::with_backend_of(d, "tack::launch", [&](auto backend) {
    detail::launch_on(backend, d, n, kernel, args...);
  });
}

/// `launch` on a named backend (`tack::serial_backend{}`, `openmp_backend{}`, `cuda_backend{}`);
/// arrays must be on the backend's device kind (the CPU for serial and OpenMP).
template <backend_tag Backend, class K, class... Args>
void launch(Backend backend, index_t n, const K& kernel, const Args&... args) {
  const device d = std::is_same_v<Backend, cuda_backend> ? cuda(0) : cpu();
  detail::launch_on(backend, d, n, kernel, args...);
}

/// `launch` on `tack::default_device()`. `tack::launch(n, scale{}, y, x.as_const(), 2.0f);`
template <class K, class... Args>
  requires(!std::is_same_v<std::remove_cvref_t<K>, device>)
void launch(index_t n, const K& kernel, const Args&... args) {
  tack::launch(default_device(), n, kernel, args...);
}

TACK_IMPL_KERNEL_ABI_END

}  // namespace tack
