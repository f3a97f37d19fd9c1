// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
#include <tack/core/error.hpp>
#include <tack/core/precondition.hpp>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace tack {
namespace {

void default_handler(const precondition_failure& f) {
  std::fprintf(stderr, "tack precondition failed at %s:%d: %s\n", f.file, f.line, f.message);
  std::fflush(stderr);
}

std::atomic<precondition_handler> current_handler{&default_handler};

}  // namespace

precondition_handler set_precondition_handler(precondition_handler h) noexcept {
  return current_handler.exchange(h ? h : &default_handler);
}

precondition_handler get_precondition_handler() noexcept { return current_handler.load(); }

void throwing_precondition_handler(const precondition_failure& f) {
  throw index_error(std::string(f.message) + " (" + f.file + ":" + std::to_string(f.line) + ")");
}

namespace detail {
void host_precondition_failed(const char* file, int line, const char* message) {
  current_handler.load()(precondition_failure{file, line, message});
  std::abort();  // the handler returned: there is no way to continue past a broken precondition
}
}  // namespace detail
}  // namespace tack
