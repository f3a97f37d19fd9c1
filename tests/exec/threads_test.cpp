// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
// The CPU thread count: TACK_NUM_THREADS parsing and its errors, set_num_threads, the CPU
// backend chosen from the count, negative iteration counts, and fence.
#include <tack/core/error.hpp>
#include <tack/exec/fence.hpp>
#include <tack/exec/parallel_for.hpp>
#include <tack/exec/parallel_reduce.hpp>
#include <tack/exec/parallel_scan.hpp>
#include <tack/exec/threads.hpp>

#include <gtest/gtest.h>

#include "common/tack_test.hpp"

#include <cstdlib>
#include <mutex>
#include <set>
#include <string>
#include <thread>

#if TACK_HAS_OPENMP && defined(_OPENMP)
#include <omp.h>
#endif

namespace {

using tack::index_t;

std::string message_of(const char* text) {
  try {
    (void)tack::detail::parse_num_threads(text);
  } catch (const tack::value_error& e) {
    return e.what();
  }
  return "(accepted)";
}

TEST(threads, parse_accepts_positive_integers) {
  EXPECT_EQ(tack::detail::parse_num_threads("1"), 1);
  EXPECT_EQ(tack::detail::parse_num_threads("4"), 4);
  EXPECT_EQ(tack::detail::parse_num_threads(" 12 "), 12);
  EXPECT_EQ(tack::detail::parse_num_threads("64\n"), 64);
}

TEST(threads, parse_refuses_everything_else_naming_the_variable_and_text) {
  for (const char* bad : {"0", "-2", "abc", "4x", "", "  ", "2.5", "1e3", "99999999999", "+"}) {
    const std::string what = message_of(bad);
    EXPECT_NE(what.find("TACK_NUM_THREADS"), std::string::npos) << bad << ": " << what;
    // Built with += : GCC 12's -Wrestrict misfires on `"\"" + std::string(bad)` (GCC PR 105329).
    std::string quoted = "\"";
    quoted += bad;
    quoted += '"';
    EXPECT_NE(what.find(quoted), std::string::npos) << bad << ": " << what;
  }
}

TEST(threads, initial_count_reads_the_environment) {
  const char* saved = std::getenv("TACK_NUM_THREADS");
  const std::string saved_value = saved ? saved : "";
  ::setenv("TACK_NUM_THREADS", "3", 1);
  EXPECT_EQ(tack::detail::initial_num_threads(), 3);
  ::setenv("TACK_NUM_THREADS", "three", 1);
  EXPECT_THROW((void)tack::detail::initial_num_threads(), tack::value_error);
  ::unsetenv("TACK_NUM_THREADS");
#if TACK_HAS_OPENMP && defined(_OPENMP)
  EXPECT_EQ(tack::detail::initial_num_threads(), omp_get_max_threads());
#else
  EXPECT_EQ(tack::detail::initial_num_threads(), 1);
#endif
  if (saved) ::setenv("TACK_NUM_THREADS", saved_value.c_str(), 1);
}

// The process-wide count is read once; these run in a fresh process (death-test child) so that
// the first read sees the variable.
TEST(threads_death, tack_num_threads_sets_the_initial_count) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  ::setenv("TACK_NUM_THREADS", "3", 1);
#if TACK_HAS_OPENMP
  EXPECT_EXIT(std::exit(tack::num_threads() == 3 ? 0 : 1), ::testing::ExitedWithCode(0), "");
#else
  EXPECT_EXIT(std::exit(tack::num_threads() == 1 ? 0 : 1), ::testing::ExitedWithCode(0), "");
#endif
  ::unsetenv("TACK_NUM_THREADS");
}

void report_and_exit() {
  try {
    (void)tack::num_threads();
  } catch (const tack::value_error& e) {
    std::fputs(e.what(), stderr);
    std::exit(3);
  }
  std::exit(0);
}

TEST(threads_death, malformed_tack_num_threads_is_a_value_error) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  ::setenv("TACK_NUM_THREADS", "two", 1);
  EXPECT_EXIT(report_and_exit(), ::testing::ExitedWithCode(3), "TACK_NUM_THREADS=\"two\"");
  ::unsetenv("TACK_NUM_THREADS");
}

TEST(threads, set_num_threads_checks_and_sets) {
  const int saved = tack::num_threads();
  for (int bad : {0, -1, -100}) {
    try {
      tack::set_num_threads(bad);
      ADD_FAILURE() << bad << " was accepted";
    } catch (const tack::value_error& e) {
      const std::string what = e.what();
      EXPECT_NE(what.find("tack::set_num_threads"), std::string::npos) << what;
      EXPECT_NE(what.find("n = " + std::to_string(bad)), std::string::npos) << what;
    }
  }
  EXPECT_EQ(tack::num_threads(), saved) << "a refused count changed the setting";
  tack::set_num_threads(3);
  EXPECT_EQ(tack::num_threads(), TACK_HAS_OPENMP ? 3 : 1);
  tack::set_num_threads(saved);
  EXPECT_EQ(tack::num_threads(), saved);
}

std::set<std::thread::id> threads_used(index_t n) {
  std::mutex m;
  std::set<std::thread::id> ids;
  tack::parallel_for(tack::cpu(), n, [&](index_t) {
    std::lock_guard lock(m);
    ids.insert(std::this_thread::get_id());
  });
  return ids;
}

TEST(threads, the_cpu_backend_follows_the_count) {
  const int saved = tack::num_threads();
  tack::set_num_threads(1);
  const auto one = threads_used(20'000);
  EXPECT_EQ(one.size(), 1u);
  EXPECT_EQ(*one.begin(), std::this_thread::get_id()) << "one thread: the caller runs the kernel";
#if TACK_HAS_OPENMP && defined(_OPENMP)
  tack::set_num_threads(3);
  EXPECT_EQ(threads_used(20'000).size(), 3u) << "OpenMP runs the configured number of threads";
  EXPECT_LE(threads_used(2).size(), 2u) << "never more threads than iterations";
#endif
  tack::set_num_threads(saved);
}

TEST(threads, negative_counts_name_the_operation_and_value) {
  const auto f = [](index_t i) { return static_cast<int>(i); };
  const auto store = [](index_t, int, int) {};
  EXPECT_THROW_MSG(tack::parallel_for(index_t{-7}, [](index_t) {}), tack::value_error,
                   "tack::parallel_for: n = -7 is negative");
  EXPECT_THROW_MSG(tack::parallel_reduce(tack::cpu(), index_t{-8}, 0, f), tack::value_error,
                   "tack::parallel_reduce: n = -8 is negative");
  EXPECT_THROW_MSG(tack::parallel_scan(index_t{-9}, 0, f, store), tack::value_error,
                   "tack::parallel_scan: n = -9 is negative");
}

TEST(fence, cpu_has_nothing_pending) {
  tack::fence();
  tack::fence(tack::cpu());
}

TEST(fence, unavailable_cuda_device_is_a_device_error) {
  if (tack::is_available(tack::cuda())) GTEST_SKIP() << "a CUDA device is present";
  EXPECT_THROW_MSG(tack::fence(tack::cuda()), tack::device_error, "tack::fence", "cuda:0");
}

TEST(dispatch, cuda_device_refusals_name_operation_and_device) {
  if (tack::is_available(tack::cuda())) GTEST_SKIP() << "a CUDA device is present";
  const auto f = [](index_t) { return 1; };
  EXPECT_THROW_MSG(tack::parallel_reduce(tack::cuda(), 10, 0, f), tack::device_error,
                   "tack::parallel_reduce on cuda:0");
  EXPECT_THROW_MSG(tack::parallel_scan(tack::cuda(1), 10, 0, f, [](index_t, int, int) {}),
                   tack::device_error, "tack::parallel_scan on cuda:1");
}

}  // namespace
