// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
// inclusive_scan / exclusive_scan: against a sequential reference on both sides of the CPU block
// sizes, ops, in place, vector elements in both layouts (input and output), row views, implicit
// inputs and expressions, 1 and 2 threads (integers equal, floats bit-identical run after run),
// and the errors (sizes, read-only output).
#include <tack/algorithms/scan.hpp>
#include <tack/array/array.hpp>
#include <tack/array/factories.hpp>
#include <tack/arrays/counting.hpp>
#include <tack/arrays/expressions.hpp>
#include <tack/exec/threads.hpp>
#include <tack/memory/allocator.hpp>
#include <tack/types/vec.hpp>

#include <gtest/gtest.h>

#include "common/tack_test.hpp"

#include <cstdint>
#include <cstring>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace {

using tack::index_t;

class scan_test : public tack::test::restores_num_threads {};

std::vector<std::int64_t> values_for(index_t n) {
  std::vector<std::int64_t> v(static_cast<std::size_t>(n));
  for (index_t i = 0; i < n; ++i) v[static_cast<std::size_t>(i)] = (i * 37) % 101 - 50;
  return v;
}

TEST_F(scan_test, integers_match_a_sequential_scan_for_every_size_and_thread_count) {
  for (int threads : {1, 2}) {
    tack::set_num_threads(threads);
    for (index_t n : {index_t(0), index_t(1), index_t(7), index_t(1023), index_t(1024),
                      index_t(1025), index_t(4097), index_t(1'000'003)}) {
      const auto v = values_for(n);
      auto in = tack::array_from<std::int64_t>(v);
      auto inc = tack::zeros<std::int64_t>(n);
      auto exc = tack::zeros<std::int64_t>(n);
      tack::inclusive_scan(in, inc);
      tack::exclusive_scan(in, exc, 1000);
      const std::int64_t* pi = inc.data();
      const std::int64_t* pe = exc.data();
      std::int64_t run = 0;
      bool ok = true;
      for (index_t i = 0; i < n && ok; ++i) {
        ok = pe[i] == 1000 + run;
        run += v[static_cast<std::size_t>(i)];
        ok = ok && pi[i] == run;
        if (!ok) ADD_FAILURE() << "n " << n << " threads " << threads << " index " << i;
      }
    }
  }
}

TEST_F(scan_test, other_ops_and_in_place) {
  auto a = tack::array_from<int>({3, 1, 4, 1, 5, 9, 2, 6});
  auto out = tack::zeros<int>(8);
  tack::inclusive_scan(a, out, tack::ops::max{});
  EXPECT_EQ(out.to_vector(), (std::vector<int>{3, 3, 4, 4, 5, 9, 9, 9}));
  tack::exclusive_scan(a, out, 1, tack::ops::multiplies{});
  EXPECT_EQ(out.to_vector(), (std::vector<int>{1, 3, 3, 12, 12, 60, 540, 1080}));
  tack::inclusive_scan(a, a);  // in place
  EXPECT_EQ(a.to_vector(), (std::vector<int>{3, 4, 8, 9, 14, 23, 25, 31}));
  tack::exclusive_scan(a, a, 0, tack::ops::min{});
  EXPECT_EQ(a.to_vector()[0], 0);
  EXPECT_EQ(a.to_vector()[7], 0);

  const index_t n = 300'000;
  auto big = tack::full<int>(n, 1);
  tack::set_num_threads(2);
  tack::exclusive_scan(big, big, 0);
  const int* p = big.data();
  bool ok = true;
  for (index_t i = 0; i < n; ++i) ok = ok && p[i] == i;
  EXPECT_TRUE(ok);
}

TEST_F(scan_test, vector_elements_in_every_layout_combination) {
  const index_t n = 5000;
  std::vector<double> comps(static_cast<std::size_t>(3 * n));
  for (std::size_t k = 0; k < comps.size(); ++k) comps[k] = double(k % 3 + 1);  // (1, 2, 3)
  for (tack::layout lin : {tack::layout::aos, tack::layout::soa}) {
    for (tack::layout lout : {tack::layout::aos, tack::layout::soa}) {
      auto in =
          tack::array_from_components<tack::vec3d>(std::span<const double>(comps), {.layout = lin});
      auto out = tack::zeros<tack::vec3d>(n, {.layout = lout});
      tack::inclusive_scan(in, out);
      const auto got = out.to_vector();
      EXPECT_EQ(got[0], (tack::vec3d{1, 2, 3}));
      EXPECT_EQ(got[4999], (tack::vec3d{5000, 10000, 15000}));
      tack::exclusive_scan(in, out, tack::vec3d{1, 1, 1});
      const auto ex = out.to_vector();
      EXPECT_EQ(ex[0], (tack::vec3d{1, 1, 1}));
      EXPECT_EQ(ex[10], (tack::vec3d{11, 21, 31}));
    }
  }
}

TEST_F(scan_test, row_views_and_implicit_inputs) {
  auto out = tack::zeros<double>(10);
  tack::inclusive_scan(tack::arrays::counting<double>(4, 1.0), out.rows(3, 7));
  EXPECT_EQ(out.to_vector(), (std::vector<double>{0, 0, 0, 1, 3, 6, 10, 0, 0, 0}));
  auto a = tack::array_from<double>({1, 2, 3, 4});
  auto b = tack::array_from<double>({2, 2, 2, 2});
  auto prod = tack::zeros<double>(4);
  tack::inclusive_scan(a * b, prod);
  EXPECT_EQ(prod.to_vector(), (std::vector<double>{2, 6, 12, 20}));
  // the input converts to the output's type: ints scanned as doubles
  tack::exclusive_scan(tack::arrays::counting<int>(4), prod, 0.5);
  EXPECT_EQ(prod.to_vector(), (std::vector<double>{0.5, 0.5, 1.5, 3.5}));
  // a row view as input
  auto rows_out = tack::zeros<double>(2);
  tack::inclusive_scan(out.rows(4, 6), rows_out);
  EXPECT_EQ(rows_out.to_vector(), (std::vector<double>{3, 9}));
}

TEST_F(scan_test, float_scans_are_bit_identical_run_after_run) {
  const index_t n = 1'000'000;
  auto in = tack::empty<float>(n);
  float* p = in.data();
  for (index_t i = 0; i < n; ++i) p[i] = 1.0f / float(1 + i % 97);
  for (int threads : {1, 2}) {
    tack::set_num_threads(threads);
    auto first = tack::zeros<float>(n);
    auto again = tack::zeros<float>(n);
    tack::inclusive_scan(in, first);
    tack::inclusive_scan(in, again);
    EXPECT_EQ(std::memcmp(first.data(), again.data(), sizeof(float) * std::size_t(n)), 0)
        << threads << " threads";
  }
}

TEST_F(scan_test, sizes_must_match_and_output_must_be_writable) {
  auto in = tack::zeros<int>(5);
  auto out = tack::zeros<int>(4);
  EXPECT_THROW_MSG(tack::inclusive_scan(in, out), tack::value_error, "tack::inclusive_scan",
                   "5 elements", out.describe());
  EXPECT_THROW_MSG(tack::exclusive_scan(tack::arrays::counting<int>(3), out, 0), tack::value_error,
                   "tack::exclusive_scan", "3 elements", "(4)");
  std::vector<int> host(4, 0);
  auto borrowed = tack::from_ptr(host.data(), {4});  // read-only unless {.writable = true}
  EXPECT_THROW(tack::inclusive_scan(out, borrowed), tack::read_only_error);
}

TEST_F(scan_test, input_and_output_on_different_devices_is_a_value_error) {
  auto gpu_out = tack::empty<int>(4, {.allocator = tack::test::fake_device_allocator()});
  EXPECT_THROW_MSG(tack::inclusive_scan(tack::zeros<int>(4), gpu_out), tack::value_error,
                   "tack::inclusive_scan", "different devices");
  // a computed input names no device: the scan runs on the output's (here refused: no CUDA code)
  EXPECT_THROW(tack::exclusive_scan(tack::arrays::counting<int>(4), gpu_out, 0),
               tack::device_error);
}

}  // namespace
