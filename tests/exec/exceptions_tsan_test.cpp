// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
// Exceptions thrown inside CPU kernels (serial and OpenMP): the caller receives the first one,
// once, with its type and message; no kernel call happens after the launch has returned; threads
// stop taking work once one has failed. Repeated, and from several host threads at once, so that
// ThreadSanitizer (make test-sanitize) sees the capture and rethrow paths.
#include <tack/core/error.hpp>
#include <tack/exec/parallel_for.hpp>
#include <tack/exec/parallel_reduce.hpp>
#include <tack/exec/parallel_scan.hpp>
#include <tack/exec/threads.hpp>

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace {

using tack::index_t;

struct kernel_failure : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Runs `launch` (which must throw kernel_failure) and checks that exactly one exception reaches
// the caller, that it carries the message, and that no kernel call happens afterwards.
template <class Launch>
void expect_one_failure(const Launch& launch, const std::atomic<long>& calls,
                        const std::string& message) {
  int caught = 0;
  try {
    launch();
  } catch (const kernel_failure& e) {
    ++caught;
    EXPECT_EQ(std::string(e.what()), message);
  }
  ASSERT_EQ(caught, 1) << "the exception did not reach the caller";
  const long after_return = calls.load();
  std::this_thread::sleep_for(std::chrono::milliseconds(5));
  EXPECT_EQ(calls.load(), after_return) << "a kernel call ran after the launch returned";
}

template <class Backend>
void check_for_throws_once(index_t n, index_t bad) {
  std::atomic<long> calls{0};
  std::atomic<long>* c = &calls;
  expect_one_failure(
      [&] {
        tack::parallel_for(Backend{}, n, [=](index_t i) {
          c->fetch_add(1, std::memory_order_relaxed);
          if (i == bad) throw kernel_failure("bad index " + std::to_string(i));
        });
      },
      calls, "bad index " + std::to_string(bad));
}

template <class Backend>
void check_every_index_throws() {
  // Every call throws: each thread fails on its first index and takes no more work, so there
  // are at most as many calls as threads (one for the serial backend).
  std::atomic<long> calls{0};
  std::atomic<long>* c = &calls;
  expect_one_failure(
      [&] {
        tack::parallel_for(Backend{}, index_t{1'000'000}, [=](index_t) {
          c->fetch_add(1, std::memory_order_relaxed);
          throw kernel_failure("always");
        });
      },
      calls, "always");
  const long limit = std::is_same_v<Backend, tack::serial_backend> ? 1 : tack::num_threads();
  EXPECT_LE(calls.load(), limit);
}

template <class Backend>
void check_late_failure_stops_others() {
  // Index 0 fails at once; the other threads check the flag before each chunk, so far fewer
  // than n calls happen.
  std::atomic<long> calls{0};
  std::atomic<long>* c = &calls;
  const index_t n = 4'000'000;
  expect_one_failure(
      [&] {
        tack::parallel_for(Backend{}, n, [=](index_t i) {
          c->fetch_add(1, std::memory_order_relaxed);
          if (i == 0) throw kernel_failure("first");
        });
      },
      calls, "first");
  EXPECT_LT(calls.load(), n / 2);
}

template <class Backend>
void check_range_throws() {
  std::atomic<long> calls{0};
  std::atomic<long>* c = &calls;
  expect_one_failure(
      [&] {
        tack::parallel_for(Backend{}, tack::range{300, 400}, [=](index_t i, index_t j) {
          c->fetch_add(1, std::memory_order_relaxed);
          if (i == 250 && j == 7) throw kernel_failure("range");
        });
      },
      calls, "range");
}

template <class Backend>
void check_reduce_and_scan_throw() {
  std::atomic<long> calls{0};
  std::atomic<long>* c = &calls;
  expect_one_failure(
      [&] {
        (void)tack::parallel_reduce(Backend{}, index_t{500'000}, 0.0, [=](index_t i) {
          c->fetch_add(1, std::memory_order_relaxed);
          if (i == 123'456) throw kernel_failure("reduce");
          return 1.0;
        });
      },
      calls, "reduce");
  expect_one_failure(
      [&] {
        (void)tack::parallel_scan(
            Backend{}, index_t{500'000}, 0,
            [=](index_t i) {
              c->fetch_add(1, std::memory_order_relaxed);
              if (i == 400'000) throw kernel_failure("scan value");
              return 1;
            },
            [](index_t, int, int) {});
      },
      calls, "scan value");
  std::vector<int> out(500'000, -1);
  expect_one_failure(
      [&] {
        (void)tack::parallel_scan(
            Backend{}, index_t{500'000}, 0, [](index_t) { return 1; },
            [&out, c](index_t i, int excl, int) {
              c->fetch_add(1, std::memory_order_relaxed);
              if (i == 77) throw kernel_failure("scan store");
              out[static_cast<std::size_t>(i)] = excl;
            });
      },
      calls, "scan store");
}

template <class Backend>
void check_tack_errors_keep_their_type() {
  try {
    tack::parallel_for(Backend{}, index_t{10'000}, [](index_t i) {
      if (i == 9'999) throw tack::index_error("index 9999 is past the end");
    });
    ADD_FAILURE() << "nothing was thrown";
  } catch (const tack::index_error& e) {
    EXPECT_STREQ(e.what(), "index 9999 is past the end");
  }
}

template <class Backend>
class exceptions : public ::testing::Test {};

using cpu_backends = ::testing::Types<tack::serial_backend
#if TACK_HAS_OPENMP
                                      ,
                                      tack::openmp_backend
#endif
                                      >;
TYPED_TEST_SUITE(exceptions, cpu_backends);

TYPED_TEST(exceptions, parallel_for_rethrows_once) {
  for (int run = 0; run < 50; ++run) {
    check_for_throws_once<TypeParam>(100'000, (run * 7919) % 100'000);
  }
  check_for_throws_once<TypeParam>(1, 0);
  check_for_throws_once<TypeParam>(100'000, 99'999);
}

TYPED_TEST(exceptions, threads_stop_after_a_failure) {
  for (int run = 0; run < 20; ++run) {
    check_every_index_throws<TypeParam>();
    check_late_failure_stops_others<TypeParam>();
  }
}

TYPED_TEST(exceptions, ranges_reductions_and_scans) {
  for (int run = 0; run < 10; ++run) {
    check_range_throws<TypeParam>();
    check_reduce_and_scan_throw<TypeParam>();
  }
}

TYPED_TEST(exceptions, tack_errors_keep_their_type) {
  check_tack_errors_keep_their_type<TypeParam>();
}

TYPED_TEST(exceptions, launches_from_several_host_threads) {
  // Each launch has its own failure state: concurrent failing launches do not see each other's.
  std::vector<std::thread> threads;
  std::atomic<int> wrong{0};
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([t, &wrong] {
      for (int run = 0; run < 20; ++run) {
        const index_t bad = (t * 1000 + run * 37) % 50'000;
        try {
          tack::parallel_for(TypeParam{}, index_t{50'000}, [bad](index_t i) {
            if (i == bad) throw kernel_failure(std::to_string(bad));
          });
          wrong.fetch_add(1);
        } catch (const kernel_failure& e) {
          if (std::string(e.what()) != std::to_string(bad)) wrong.fetch_add(1);
        }
        // A launch that does not fail must still run everything.
        std::atomic<long> sum{0};
        tack::parallel_for(TypeParam{}, index_t{1000}, [&sum](index_t i) { sum.fetch_add(i); });
        if (sum.load() != 999 * 1000 / 2) wrong.fetch_add(1);
      }
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_EQ(wrong.load(), 0);
}

TEST(exceptions_cpu, default_device_launch_rethrows) {
  const int saved = tack::num_threads();
  for (int t : {1, 2, 4}) {
    tack::set_num_threads(t);
    EXPECT_THROW(tack::parallel_for(index_t{100'000},
                                    [](index_t i) {
                                      if (i % 1000 == 999) throw kernel_failure("x");
                                    }),
                 kernel_failure);
  }
  tack::set_num_threads(saved);
}

}  // namespace
