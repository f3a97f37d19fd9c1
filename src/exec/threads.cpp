// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
// The CPU backend's thread count (tack/exec/threads.hpp).
#include <tack/config.hpp>
#include <tack/core/error.hpp>
#include <tack/exec/threads.hpp>

#include <atomic>
#include <cctype>
#include <charconv>
#include <cstdlib>
#include <string>
#include <string_view>

#if TACK_HAS_OPENMP && defined(_OPENMP)
#include <omp.h>
#endif

namespace tack {
namespace detail {

int parse_num_threads(const char* text) {
  std::string_view s = text ? text : "";
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  long long value = 0;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
  if (s.empty() || ec != std::errc{} || end != s.data() + s.size() || value < 1 ||
      value > 1'000'000) {
    throw value_error("tack: TACK_NUM_THREADS=\"" + std::string(text ? text : "") +
                      "\" is not a thread count; expected an integer from 1 to 1000000");
  }
  return static_cast<int>(value);
}

int initial_num_threads() {
  const char* env = std::getenv("TACK_NUM_THREADS");
  if (env && *env) return parse_num_threads(env);
#if TACK_HAS_OPENMP && defined(_OPENMP)
  return omp_get_max_threads();
#else
  return 1;
#endif
}

}  // namespace detail

namespace {
// 0 means "not read from the environment yet". An atomic rather than a mutex: the count is read
// at every CPU kernel launch, possibly from several host threads at once.
std::atomic<int> configured_threads{0};
}  // namespace

int num_threads() {
#if TACK_HAS_OPENMP
  int n = configured_threads.load(std::memory_order_relaxed);
  if (n > 0) return n;
  // Two threads racing here compute the same value; a malformed variable throws in each of them
  // and leaves the count unset, so the next call reports the error again.
  int initial = detail::initial_num_threads();
  int expected = 0;
  configured_threads.compare_exchange_strong(expected, initial, std::memory_order_relaxed);
  return configured_threads.load(std::memory_order_relaxed);
#else
  // Still validate the variable, so that a typo does not go unnoticed in a serial build.
  if (configured_threads.load(std::memory_order_relaxed) == 0) {
    (void)detail::initial_num_threads();
    configured_threads.store(1, std::memory_order_relaxed);
  }
  return 1;
#endif
}

void set_num_threads(int n) {
  if (n < 1) {
    throw value_error("tack::set_num_threads: n = " + std::to_string(n) +
                      " is not a thread count; it must be >= 1");
  }
#if TACK_HAS_OPENMP
  configured_threads.store(n, std::memory_order_relaxed);
#else
  configured_threads.store(1, std::memory_order_relaxed);
#endif
}

}  // namespace tack
