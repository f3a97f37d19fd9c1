// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
#pragma once
/// @file `TACK_EXPECTS(cond, msg)`: preconditions checked in Debug builds or with TACK_BOUNDS_CHECK,
/// on the host and on the device. The host handler can be replaced (tests make it throw).

#include <tack/core/index.hpp>
#include <tack/core/macros.hpp>

#include <cstdio>

namespace tack {

/// What a failed precondition reports: where, what, and (for bounds checks) the numbers involved.
struct precondition_failure {
  const char* file;
  int line;
  const char* message;  ///< complete, formatted message
};

/// Signature of a host precondition handler. It may throw; if it returns, the program aborts.
using precondition_handler = void (*)(const precondition_failure&);

/// Installs `h` as the host precondition handler and returns the previous one; `nullptr` restores
/// the default (print to stderr, then abort). `tack::set_precondition_handler(&throw_index_error);`
precondition_handler set_precondition_handler(precondition_handler h) noexcept;

/// The handler installed now (never null).
precondition_handler get_precondition_handler() noexcept;

/// A handler that throws `tack::index_error` with the message; tests and debuggers install it.
/// `tack::set_precondition_handler(tack::throwing_precondition_handler);`
[[noreturn]] void throwing_precondition_handler(const precondition_failure& f);

namespace detail {

/// Calls the installed host handler; aborts if it returns.
[[noreturn]] void host_precondition_failed(const char* file, int line, const char* message);

/// Host: formats `fmt` (printf style, integer arguments) then calls the handler.
/// Device: prints with printf and traps, since device code cannot throw.
template <class... Args>
TACK_INLINE void precondition_failed(const char* file, int line, const char* fmt, Args... args) {
#if TACK_IMPL_DEVICE_PASS
  printf("tack precondition failed at %s:%d: ", file, line);
  printf(fmt, args...);
  printf("\n");
#if defined(__HIP_DEVICE_COMPILE__)
  __builtin_trap();  // HIP has no __trap(); the trap aborts the kernel as CUDA's does
#else
  __trap();
#endif
#else
  char buffer[512];
  if constexpr (sizeof...(Args) == 0) {
    std::snprintf(buffer, sizeof buffer, "%s", fmt);
  } else {
    std::snprintf(buffer, sizeof buffer, fmt, args...);
  }
  host_precondition_failed(file, line, buffer);
#endif
}

}  // namespace detail
}  // namespace tack

#ifndef TACK_PRECONDITION_HANDLER
/// Replaceable at compile time: define it before including tack to route failures elsewhere.
#define TACK_PRECONDITION_HANDLER(file, line, ...) \
  ::tack::detail::precondition_failed(file, line, __VA_ARGS__)
#endif

#if TACK_BOUNDS_CHECK
/// `TACK_EXPECTS(i < n, "index %lld past extent %lld", (long long)i, (long long)n);`
/// Checked only in Debug builds or with TACK_BOUNDS_CHECK; otherwise compiles to nothing.
#define TACK_EXPECTS(cond, ...)                                   \
  do {                                                            \
    if (!(cond)) {                                                \
      TACK_PRECONDITION_HANDLER(__FILE__, __LINE__, __VA_ARGS__); \
    }                                                             \
  } while (0)
#else
#define TACK_EXPECTS(cond, ...) \
  do {                          \
  } while (0)
#endif
