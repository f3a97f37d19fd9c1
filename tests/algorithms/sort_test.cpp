// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
// sort / sort_by_key: equal to std::sort on sizes around the parallel thresholds, with many
// duplicates, presorted and reversed input, NaNs last, row views, 1 and 2 threads; sort_by_key
// reorders values of every layout, stably (the same result for every thread count); errors.
// sort(a, comp) / sort_by_key(keys, values, comp) on host memory: equal to std::stable_sort
// (stability seen through tagged elements) for sizes around the block and parallel thresholds and
// 1 to 3 threads, sorted, reversed and constant input, vec3f in both layouts, std::string, floats
// with user comparators, keys of any type; the refusals. (The device merge sort itself is tested
// on every backend in merge_sort_backend_test.cpp.)
#include <tack/algorithms/detail/radix_sort.hpp>
#include <tack/algorithms/reduce.hpp>
#include <tack/algorithms/sort.hpp>
#include <tack/array/array.hpp>
#include <tack/array/factories.hpp>
#include <tack/exec/threads.hpp>
#include <tack/config.hpp>
#include <tack/memory/allocator.hpp>
#include <tack/types/scalar.hpp>
#include <tack/types/vec.hpp>

#include <gtest/gtest.h>

#include "common/tack_test.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <typeinfo>
#include <functional>
#include <limits>
#include <memory>
#include <span>
#include <atomic>
#include <string>
#include <vector>

namespace {

using tack::index_t;

class sort_test : public tack::test::restores_num_threads {};

using tack::test::random_ints;

TEST_F(sort_test, matches_std_sort_for_every_size_and_thread_count) {
  for (int threads : {1, 2, 3}) {
    tack::set_num_threads(threads);
    for (index_t n : {index_t(0), index_t(1), index_t(2), index_t(100), index_t(32767),
                      index_t(32768), index_t(40'000), index_t(100'001), index_t(1'000'000)}) {
      for (std::int32_t range : {3, 1000, 2'000'000'000}) {
        auto v = random_ints(n, std::uint64_t(n) + std::uint64_t(range), range);
        auto a = tack::array_from<std::int32_t>(v);
        tack::sort(a);
        std::sort(v.begin(), v.end());
        EXPECT_EQ(a.to_vector(), v) << "n " << n << " range " << range << " threads " << threads;
      }
    }
  }
}

TEST_F(sort_test, presorted_reversed_and_constant_input) {
  tack::set_num_threads(2);
  const index_t n = 200'000;
  std::vector<double> up(static_cast<std::size_t>(n));
  for (index_t i = 0; i < n; ++i) up[static_cast<std::size_t>(i)] = double(i) * 0.5;
  std::vector<double> down(up.rbegin(), up.rend());
  auto a = tack::array_from<double>(up);
  auto b = tack::array_from<double>(down);
  auto c = tack::full<double>(n, 7.0);
  tack::sort(a);
  tack::sort(b);
  tack::sort(c);
  EXPECT_EQ(a.to_vector(), up);
  EXPECT_EQ(b.to_vector(), up);
  EXPECT_EQ(c.to_vector(), std::vector<double>(static_cast<std::size_t>(n), 7.0));
}

TEST_F(sort_test, floats_with_nans_infinities_and_signed_zeros) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  for (int threads : {1, 2}) {
    tack::set_num_threads(threads);
    const index_t n = 100'000;
    std::vector<float> v(static_cast<std::size_t>(n));
    for (index_t i = 0; i < n; ++i) {
      const index_t k = (i * 7919) % n;
      v[static_cast<std::size_t>(i)] =
          k % 10 == 0 ? nan : (k % 10 == 1 ? -inf : float(k % 1000) - 500.0f);
    }
    auto a = tack::array_from<float>(v);
    tack::sort(a);
    const auto got = a.to_vector();
    const auto nans =
        std::size_t(std::count_if(v.begin(), v.end(), [](float x) { return x != x; }));
    ASSERT_EQ(nans, std::size_t(n / 10));
    for (std::size_t i = got.size() - nans; i < got.size(); ++i) EXPECT_TRUE(std::isnan(got[i]));
    EXPECT_EQ(got[0], -inf);
    EXPECT_TRUE(std::is_sorted(got.begin(), got.end() - std::ptrdiff_t(nans)));
  }
  auto z = tack::array_from<float>({0.0f, -1.0f, -0.0f, nan, 1.0f});
  tack::sort(z);
  const auto got = z.to_vector();
  EXPECT_EQ(got[0], -1.0f);
  EXPECT_EQ(got[1], 0.0f);
  EXPECT_EQ(got[2], 0.0f);
  EXPECT_EQ(got[3], 1.0f);
  EXPECT_TRUE(std::isnan(got[4]));
}

TEST_F(sort_test, booleans_and_small_integers) {
  tack::set_num_threads(2);
  const index_t n = 70'000;
  std::vector<std::uint8_t> bytes(static_cast<std::size_t>(n));
  auto flags = tack::zeros<bool>(n);
  bool* f = flags.data();
  for (index_t i = 0; i < n; ++i) {
    bytes[static_cast<std::size_t>(i)] = std::uint8_t((i * 131) % 256);
    f[i] = (i * 7) % 3 == 0;
  }
  auto b = tack::array_from<std::uint8_t>(bytes);
  tack::sort(b);
  std::sort(bytes.begin(), bytes.end());
  EXPECT_EQ(b.to_vector(), bytes);
  const index_t trues = tack::sum(flags);
  tack::sort(flags);
  // (read through data(): array<bool>::to_vector does not compile, std::vector<bool> has no data())
  EXPECT_TRUE(std::is_sorted(f, f + n));
  EXPECT_EQ(std::count(f, f + n, true), trues);
  // bool values follow their keys
  auto keys = tack::array_from<int>({2, 0, 1});
  auto vals = tack::array_from<bool>({true, false, true});
  tack::sort_by_key(keys, vals);
  EXPECT_EQ(vals.data()[0], false);
  EXPECT_EQ(vals.data()[1], true);
  EXPECT_EQ(vals.data()[2], true);
  EXPECT_EQ(keys.to_vector(), (std::vector<int>{0, 1, 2}));
}

TEST_F(sort_test, sorts_a_row_view_only) {
  tack::set_num_threads(2);
  auto a = tack::array_from<int>({9, 8, 7, 6, 5, 4, 3, 2, 1, 0});
  tack::sort(a.rows(2, 6));
  EXPECT_EQ(a.to_vector(), (std::vector<int>{9, 8, 4, 5, 6, 7, 3, 2, 1, 0}));
  const index_t n = 100'000;
  auto big = tack::zeros<std::int64_t>(n + 2);
  std::int64_t* p = big.data();
  for (index_t i = 0; i < n + 2; ++i) p[i] = n - i;
  tack::sort(big.rows(1, n + 1));
  EXPECT_EQ(p[0], n);
  EXPECT_EQ(p[n + 1], -1);
  bool ok = true;
  for (index_t i = 1; i <= n; ++i) ok = ok && p[i] == i - 1;
  EXPECT_TRUE(ok);
}

TEST_F(sort_test, sort_by_key_reorders_values_of_every_layout) {
  auto keys = tack::array_from<int>({3, 1, 2, 1});
  auto vals = tack::array_from<tack::vec3f>(
      {30.f, 31.f, 32.f, 10.f, 11.f, 12.f, 20.f, 21.f, 22.f, 15.f, 16.f, 17.f},
      {.layout = tack::layout::soa});
  tack::sort_by_key(keys, vals);
  EXPECT_EQ(keys.to_vector(), (std::vector<int>{1, 1, 2, 3}));
  // stable: the two 1-keys keep their order
  EXPECT_EQ(vals.to_vector(),
            (std::vector<tack::vec3f>{{10, 11, 12}, {15, 16, 17}, {20, 21, 22}, {30, 31, 32}}));
  auto k2 = tack::array_from<double>({0.5, -2.0, 0.25});
  auto v2 = tack::array_from<std::int64_t>({1, 2, 3});
  tack::sort_by_key(k2, v2);
  EXPECT_EQ(k2.to_vector(), (std::vector<double>{-2.0, 0.25, 0.5}));
  EXPECT_EQ(v2.to_vector(), (std::vector<std::int64_t>{2, 3, 1}));
}

TEST_F(sort_test, sort_by_key_is_stable_and_the_same_for_every_thread_count) {
  const index_t n = 300'000;
  const auto k = random_ints(n, 11, 50);  // many ties
  std::vector<std::vector<std::int64_t>> results;
  for (int threads : {1, 2, 3}) {
    tack::set_num_threads(threads);
    auto keys = tack::array_from<std::int32_t>(k);
    auto vals = tack::zeros<tack::vec2d>(n, {.layout = tack::layout::aos});
    std::vector<double> c(static_cast<std::size_t>(2 * n));
    for (index_t i = 0; i < n; ++i) {
      c[static_cast<std::size_t>(2 * i)] = double(i);
      c[static_cast<std::size_t>(2 * i + 1)] = double(k[static_cast<std::size_t>(i)]);
    }
    vals = tack::array_from_components<tack::vec2d>(
        std::span<const double>(c),
        {.layout = threads == 2 ? tack::layout::soa : tack::layout::aos});
    tack::sort_by_key(keys, vals);
    const auto kv = keys.to_vector();
    const auto vv = vals.to_vector();
    ASSERT_TRUE(std::is_sorted(kv.begin(), kv.end()));
    std::vector<std::int64_t> order(static_cast<std::size_t>(n));
    bool consistent = true;
    for (std::size_t i = 0; i < order.size(); ++i) {
      order[i] = std::int64_t(vv[i][0]);
      consistent = consistent && vv[i][1] == double(kv[i]);
      if (i > 0 && kv[i] == kv[i - 1]) consistent = consistent && order[i] > order[i - 1];
    }
    EXPECT_TRUE(consistent) << threads << " threads";
    results.push_back(order);
  }
  EXPECT_EQ(results[0], results[1]);
  EXPECT_EQ(results[0], results[2]);
}

TEST_F(sort_test, errors_sizes_and_read_only) {
  auto keys = tack::zeros<int>(3);
  auto vals = tack::zeros<float>(4);
  EXPECT_THROW_MSG(tack::sort_by_key(keys, vals), tack::value_error, "tack::sort_by_key", "3 keys",
                   "4 values");
  std::vector<int> host = {3, 2, 1};
  auto borrowed = tack::from_ptr(host.data(), {3});
  EXPECT_THROW_MSG(tack::sort(borrowed), tack::read_only_error, "tack::sort", "read-only");
  EXPECT_EQ(host, (std::vector<int>{3, 2, 1}));
  EXPECT_THROW(tack::sort_by_key(keys, tack::from_ptr(host.data(), {3})), tack::read_only_error);
}

TEST_F(sort_test, keys_and_values_sharing_memory_are_refused_before_anything_moves) {
  auto a = tack::array_from(std::vector<int>{5, 1, 4, 2, 3, 0});
  EXPECT_THROW_MSG(tack::sort_by_key(a, a), tack::value_error, "tack::sort_by_key", "share memory",
                   a.describe());
  EXPECT_THROW_MSG(tack::sort_by_key(a.rows(0, 4), a.rows(2, 6)), tack::value_error,
                   "share memory");
  EXPECT_THROW_MSG(tack::sort_by_key(a, a, std::greater<int>{}), tack::value_error, "share memory");
  EXPECT_EQ(a.to_vector(), (std::vector<int>{5, 1, 4, 2, 3, 0}));
  // Separate rows of one array are separate memory.
  tack::sort_by_key(a.rows(0, 3), a.rows(3, 6));
  EXPECT_EQ(a.to_vector(), (std::vector<int>{1, 4, 5, 3, 0, 2}));
}

TEST_F(sort_test, device_memory_is_a_device_error_saying_cuda_is_needed) {
  if (TACK_HAS_CUDA || TACK_HAS_HIP) {
    GTEST_SKIP() << "this build has a GPU backend: the sort would run on the GPU";
  }
  auto d = tack::empty<float>(10, {.allocator = tack::test::fake_device_allocator()});
  ASSERT_FALSE(d.host_accessible());
  EXPECT_THROW_MSG(tack::sort(d), tack::device_error, "tack::sort", d.describe(), "CUDA backend");
  auto keys = tack::zeros<int>(10);
  EXPECT_THROW_MSG(tack::sort_by_key(keys, d), tack::device_error, "tack::sort_by_key: the values",
                   "CUDA backend");
}

// ---- sort(a, comp), sort_by_key(keys, values, comp) ---------------------------------------------

// An element whose order is its key alone: the tag tells equal keys apart, so stability shows.
struct tagged {
  std::int32_t key;
  std::int32_t tag;
  friend bool operator==(const tagged&, const tagged&) = default;
};
struct by_key {
  bool operator()(const tagged& a, const tagged& b) const { return a.key < b.key; }
};

std::vector<tagged> tagged_input(index_t n, std::uint64_t seed, std::int32_t range) {
  const auto keys = random_ints(n, seed, range);
  std::vector<tagged> v(keys.size());
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = tagged{keys[i], std::int32_t(i)};
  return v;
}

template <class T, class Comp>
std::vector<T> stable_sorted(std::vector<T> v, Comp comp) {
  std::stable_sort(v.begin(), v.end(), comp);
  return v;
}

struct lex_less {
  bool operator()(const tack::vec3f& a, const tack::vec3f& b) const {
    for (int c = 0; c < 3; ++c) {
      if (a[c] < b[c]) return true;
      if (b[c] < a[c]) return false;
    }
    return false;
  }
};

std::vector<tack::vec3f> small_vec3f(index_t n, std::uint64_t seed) {
  const auto r = random_ints(3 * n, seed, 5);  // components in -2..2: many equal elements
  std::vector<tack::vec3f> v(static_cast<std::size_t>(n));
  for (std::size_t i = 0; i < v.size(); ++i) {
    v[i] = tack::vec3f{float(r[3 * i]), float(r[3 * i + 1]), float(r[3 * i + 2])};
  }
  return v;
}

TEST_F(sort_test, comparator_sort_is_stable_for_every_size_and_thread_count) {
  for (int threads : {1, 2, 3}) {
    tack::set_num_threads(threads);
    for (index_t n : {0, 1, 2, 31, 32, 33, 63, 64, 65, 1000, 8191, 8193, 32767, 32768, 32769,
                      40'000, 100'003}) {
      for (std::int32_t range : {3, 1000}) {
        const auto v = tagged_input(n, std::uint64_t(n) * 7 + std::uint64_t(range), range);
        auto a = tack::array_from<tagged>(v);
        tack::sort(a, by_key{});
        ASSERT_EQ(a.to_vector(), stable_sorted(v, by_key{}))
            << "n " << n << " range " << range << " threads " << threads;
      }
    }
  }
}

TEST_F(sort_test, comparator_sort_of_sorted_reversed_and_constant_input) {
  const index_t n = 200'003;
  std::vector<tagged> up(static_cast<std::size_t>(n)), down(up.size()), same(up.size());
  for (index_t i = 0; i < n; ++i) {
    const auto k = static_cast<std::size_t>(i);
    up[k] = tagged{std::int32_t(i / 3), std::int32_t(i)};
    down[k] = tagged{std::int32_t((n - 1 - i) / 3), std::int32_t(i)};
    same[k] = tagged{7, std::int32_t(i)};
  }
  for (int threads : {1, 2}) {
    tack::set_num_threads(threads);
    for (const auto* v : {&up, &down, &same}) {
      auto a = tack::array_from<tagged>(*v);
      tack::sort(a, by_key{});
      EXPECT_EQ(a.to_vector(), stable_sorted(*v, by_key{})) << threads << " threads";
    }
  }
}

TEST_F(sort_test, comparator_sort_orders_vec3f_lexicographically_in_both_layouts) {
  for (int threads : {1, 2}) {
    tack::set_num_threads(threads);
    for (index_t n : {index_t(33), index_t(50'001)}) {
      const auto v = small_vec3f(n, std::uint64_t(n));
      for (auto l : {tack::layout::aos, tack::layout::soa}) {
        auto a = tack::array_from<tack::vec3f>(v, {.layout = l});
        tack::sort(a, lex_less{});
        EXPECT_EQ(a.to_vector(), stable_sorted(v, lex_less{}))
            << "n " << n << " soa " << (l == tack::layout::soa) << " threads " << threads;
      }
    }
  }
  // A row view of a SoA array: only its rows move.
  const auto v = small_vec3f(1000, 5);
  auto a = tack::array_from<tack::vec3f>(v, {.layout = tack::layout::soa});
  tack::sort(a.rows(3, 997), lex_less{});
  auto want = v;
  std::stable_sort(want.begin() + 3, want.begin() + 997, lex_less{});
  EXPECT_EQ(a.to_vector(), want);
}

TEST_F(sort_test, comparator_sort_of_strings_on_the_host) {
  tack::set_num_threads(2);
  const index_t n = 50'000;
  const auto lengths = random_ints(n, 3, 40);
  std::vector<std::string> v(static_cast<std::size_t>(n));
  for (std::size_t i = 0; i < v.size(); ++i) {
    // Long enough to live on the heap, so a lost or duplicated string would show.
    v[i] = std::string(std::size_t(lengths[i] + 40), char('a' + i % 26)) + std::to_string(i);
  }
  const auto by_length = [](const std::string& a, const std::string& b) {
    return a.size() < b.size();
  };
  auto a = tack::empty<std::string>(n);
  std::copy(v.begin(), v.end(), a.begin());
  tack::sort(a, by_length);  // ties (equal lengths) keep their order
  EXPECT_EQ(a.to_vector(), stable_sorted(v, by_length));
  tack::sort(a, std::less<std::string>{});
  EXPECT_EQ(a.to_vector(), stable_sorted(v, std::less<std::string>{}));
  // A comparator that takes its arguments by value gets copies, never moved-from elements.
  std::copy(v.begin(), v.end(), a.begin());
  tack::sort(a, [](std::string x, std::string y) { return x.size() > y.size(); });
  EXPECT_EQ(a.to_vector(), stable_sorted(v, [](const std::string& x, const std::string& y) {
              return x.size() > y.size();
            }));
}

TEST_F(sort_test, comparator_sort_of_floats_with_user_comparators) {
  // Descending magnitude: x and -x are equal, and so are 0.0 and -0.0; stability decides.
  const auto by_magnitude = [](float x, float y) { return std::fabs(x) > std::fabs(y); };
  const auto bits = [](const std::vector<float>& v) {
    std::vector<std::uint32_t> b(v.size());
    for (std::size_t i = 0; i < v.size(); ++i) b[i] = std::bit_cast<std::uint32_t>(v[i]);
    return b;
  };
  for (int threads : {1, 2}) {
    tack::set_num_threads(threads);
    const index_t n = 100'001;
    const auto r = random_ints(n, 9, 200);
    std::vector<float> v(static_cast<std::size_t>(n));
    for (std::size_t i = 0; i < v.size(); ++i) v[i] = float(r[i]) * 0.5f;
    v[10] = -0.0f;
    v[20] = 0.0f;
    auto a = tack::array_from<float>(v);
    tack::sort(a, by_magnitude);
    EXPECT_EQ(bits(a.to_vector()), bits(stable_sorted(v, by_magnitude))) << threads;
    tack::sort(a, std::greater<float>{});
    EXPECT_EQ(a.to_vector(), stable_sorted(v, std::greater<float>{})) << threads;
  }
}

// A comparator that throws part-way leaves the array as it was: no element lost or duplicated,
// whatever the layout and element type (a noexcept comparator sorts in place).
TEST_F(sort_test, a_comparator_that_throws_leaves_the_array_as_it_was) {
  struct stop {};
  for (int threads : {1, 2}) {
    tack::set_num_threads(threads);
    for (long limit : {10L, 200L, 600L, 5000L}) {
      std::atomic<long> calls{0};  // the comparator runs on every sorting thread
      const auto throwing_less = [&](int x, int y) {
        if (++calls == limit) throw stop{};
        return x < y;
      };
      const auto v = random_ints(2000, 5, 100'000);
      auto a = tack::array_from<std::int32_t>(v);
      EXPECT_THROW(tack::sort(a, throwing_less), stop) << limit;
      EXPECT_EQ(a.to_vector(), v) << "limit " << limit << ", " << threads << " threads";
    }
    std::vector<std::string> words = {"pear", "fig", "apple", "kiwi", "plum", "date", "lime"};
    auto s = tack::array_from<std::string>(words);
    std::atomic<long> calls{0};
    EXPECT_THROW(tack::sort(s,
                            [&](const std::string& x, const std::string& y) {
                              if (++calls == 5) throw stop{};
                              return x < y;
                            }),
                 stop);
    EXPECT_EQ(s.to_vector(), words);
  }
}

TEST_F(sort_test, sort_by_key_with_a_comparator_takes_keys_and_values_of_any_type) {
  for (int threads : {1, 2}) {
    tack::set_num_threads(threads);
    const index_t n = 40'001;
    const auto keys = small_vec3f(n, 17);
    std::vector<std::size_t> order(keys.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t x, std::size_t y) { return lex_less{}(keys[x], keys[y]); });
    std::vector<double> c(static_cast<std::size_t>(2 * n));
    for (index_t i = 0; i < n; ++i) {
      c[static_cast<std::size_t>(2 * i)] = double(i);
      c[static_cast<std::size_t>(2 * i + 1)] = -double(i);
    }
    for (auto kl : {tack::layout::aos, tack::layout::soa}) {
      auto k = tack::array_from<tack::vec3f>(keys, {.layout = kl});
      auto vals = tack::array_from_components<tack::vec2d>(std::span<const double>(c),
                                                           {.layout = tack::layout::soa});
      tack::sort_by_key(k, vals, lex_less{});
      const auto kv = k.to_vector();
      const auto vv = vals.to_vector();
      bool ok = true;
      for (std::size_t i = 0; i < order.size(); ++i) {
        ok = ok && kv[i] == keys[order[i]] &&
             vv[i] == tack::vec2d{double(order[i]), -double(order[i])};
      }
      EXPECT_TRUE(ok) << "soa keys " << (kl == tack::layout::soa) << ", " << threads << " threads";
    }
  }
  // Object keys and object values.
  auto names = tack::empty<std::string>(5);
  auto ids = tack::array_from<std::int64_t>({0, 1, 2, 3, 4});
  const std::vector<std::string> words = {"pear", "fig", "apple", "kiwi", "plum"};
  std::copy(words.begin(), words.end(), names.begin());
  tack::sort_by_key(names, ids,
                    [](const std::string& a, const std::string& b) { return a.size() < b.size(); });
  EXPECT_EQ(names.to_vector(), (std::vector<std::string>{"fig", "pear", "kiwi", "plum", "apple"}));
  EXPECT_EQ(ids.to_vector(), (std::vector<std::int64_t>{1, 0, 3, 4, 2}));
  auto labels = tack::empty<std::string>(5);
  std::copy(words.begin(), words.end(), labels.begin());
  auto ranks = tack::array_from<int>({3, 1, 3, 2, 1});
  tack::sort_by_key(ranks, labels, std::greater<int>{});
  EXPECT_EQ(ranks.to_vector(), (std::vector<int>{3, 3, 2, 1, 1}));
  EXPECT_EQ(labels.to_vector(), (std::vector<std::string>{"pear", "apple", "kiwi", "fig", "plum"}));
}

bool descending(const int& a, const int& b) { return a > b; }

TEST_F(sort_test, comparator_sort_refusals) {
  std::vector<int> host = {3, 2, 1};
  auto borrowed = tack::from_ptr(host.data(), {3});
  EXPECT_THROW_MSG(tack::sort(borrowed, std::less<int>{}), tack::read_only_error, "tack::sort",
                   borrowed.describe(), "read-only");
  EXPECT_EQ(host, (std::vector<int>{3, 2, 1}));
  auto keys = tack::zeros<tack::vec3f>(3);
  auto vals = tack::zeros<float>(4, {.layout = tack::layout::aos});
  EXPECT_THROW_MSG(tack::sort_by_key(keys, vals, lex_less{}), tack::value_error,
                   "tack::sort_by_key", "3 keys", "4 values", keys.describe(), vals.describe());
  auto three = tack::zeros<int>(3);
  EXPECT_THROW_MSG(tack::sort_by_key(three, tack::from_ptr(host.data(), {3}), descending),
                   tack::read_only_error, "tack::sort_by_key: the values", "read-only");

  // Device memory (host memory that reports itself as cuda:0, hip:0 in a HIP build). Without a GPU
  // backend it is refused as such; with one, this file is not compiled by nvcc or hipcc, so it
  // cannot run the merge sort's kernels, and
  // a function pointer or a host array beside a device array is refused before that.
  auto d = tack::empty<int>(10, {.allocator = tack::test::fake_device_allocator()});
  auto h = tack::zeros<int>(10);
  if (TACK_HAS_CUDA || TACK_HAS_HIP) {
    EXPECT_THROW_MSG(tack::sort(d, std::less<int>{}), tack::device_error, "tack::sort",
                     TACK_HAS_CUDA ? "nvcc" : "hipcc");
    EXPECT_THROW_MSG(tack::sort(d, descending), tack::device_error, "tack::sort", d.describe(),
                     "function pointer", "TACK_LAMBDA");
    EXPECT_THROW_MSG(tack::sort_by_key(h, d, std::less<int>{}), tack::value_error,
                     "tack::sort_by_key", h.describe(), d.describe(), "one GPU");
  } else {
    EXPECT_THROW_MSG(tack::sort(d, std::less<int>{}), tack::device_error, "tack::sort",
                     d.describe(), "CUDA backend");
    EXPECT_THROW_MSG(tack::sort(d, descending), tack::device_error, "CUDA backend");
    EXPECT_THROW_MSG(tack::sort_by_key(h, d, std::less<int>{}), tack::device_error,
                     "tack::sort_by_key: the values", "CUDA backend");
  }
}

}  // namespace

namespace {

/// Random bits of `T` from `s`, with the type's extremes, ±0 and (floating point) ±inf, NaNs and
/// subnormals mixed in, and many duplicates: what the radix sort's key map must order.
template <class T>
std::vector<T> radix_input(index_t n, std::uint64_t s) {
  using U = tack::detail::radix_bits_t<T>;
  std::vector<T> v(static_cast<std::size_t>(n));
  for (index_t i = 0; i < n; ++i) {
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    const auto r = s >> 11;
    T x = std::bit_cast<T>(static_cast<U>(r));
    switch (r % 16) {
      case 0:
        x = std::numeric_limits<T>::lowest();
        break;
      case 1:
        x = std::numeric_limits<T>::max();
        break;
      case 2:
        x = T(0);
        break;
      case 3:
        x = static_cast<T>(r % 7);
        break;  // duplicates
      default:
        break;
    }
    if constexpr (std::is_floating_point_v<T>) {
      if (r % 16 == 4) x = -T(0);
      if (r % 16 == 5) x = std::numeric_limits<T>::infinity();
      if (r % 16 == 6) x = -std::numeric_limits<T>::infinity();
      if (r % 16 == 7) x = std::numeric_limits<T>::denorm_min();
      if (r % 16 == 8) x = -std::numeric_limits<T>::quiet_NaN();
    }
    v[static_cast<std::size_t>(i)] = x;
  }
  return v;
}

template <class T>
void expect_radix_sorted(index_t n, int threads) {
  tack::set_num_threads(threads);
  const auto v = radix_input<T>(n, std::uint64_t(n) * 31 + sizeof(T));
  auto a = tack::array_from<T>(v);
  tack::sort(a);
  const auto got = a.to_vector();
  auto want = v;
  std::sort(want.begin(), want.end(), tack::detail::sort_less{});
  ASSERT_EQ(got.size(), want.size());
  for (std::size_t i = 0; i < got.size(); ++i) {
    if constexpr (std::is_floating_point_v<T>) {
      // NaNs last (any of their bits); otherwise equal values (-0 and +0 compare equal).
      if (want[i] != want[i]) {
        ASSERT_TRUE(got[i] != got[i]) << "index " << i << " n " << n << " threads " << threads;
        continue;
      }
    }
    ASSERT_EQ(got[i], want[i]) << "index " << i << " n " << n << " threads " << threads << " "
                               << typeid(T).name();
  }
  if constexpr (std::is_floating_point_v<T>) {
    // The multiset of bit patterns is kept: nothing was converted on the way.
    auto bits = [](std::vector<T> x) {
      std::vector<tack::detail::radix_bits_t<T>> b(x.size());
      std::memcpy(b.data(), x.data(), x.size() * sizeof(T));
      std::sort(b.begin(), b.end());
      return b;
    };
    EXPECT_EQ(bits(got), bits(v));
  }
}

}  // namespace

template <class... Ts, class F>
void for_each_scalar(tack::type_list<Ts...>, const F& f) {
  (f.template operator()<Ts>(), ...);
}

TEST_F(sort_test, radix_sort_of_every_scalar_type_around_its_thresholds) {
  for_each_scalar(tack::scalar_types{}, [&]<class T>() {
    if constexpr (!std::is_same_v<T, bool>) {
      static_assert(tack::detail::radix_sortable_v<T>);
      for (int threads : {1, 2, 3}) {
        for (index_t n :
             {tack::detail::radix_sort_threshold - 1, tack::detail::radix_sort_threshold,
              4 * tack::detail::radix_sort_threshold * 3 + 1, index_t(300'001)}) {
          expect_radix_sorted<T>(n, threads);
        }
      }
    }
  });
}

TEST_F(sort_test, radix_keys_order_as_the_values_do) {
  using tack::detail::radix_key;
  EXPECT_LT(radix_key(-1.0f), radix_key(-0.0f));
  EXPECT_LT(radix_key(-0.0f), radix_key(0.0f));
  EXPECT_LT(radix_key(0.0f), radix_key(std::numeric_limits<float>::denorm_min()));
  EXPECT_LT(radix_key(-std::numeric_limits<double>::infinity()), radix_key(-1e308));
  EXPECT_LT(radix_key(std::int8_t(-128)), radix_key(std::int8_t(127)));
  EXPECT_LT(radix_key(std::int64_t(-1)), radix_key(std::int64_t(0)));
  EXPECT_LT(radix_key(std::uint16_t(1)), radix_key(std::uint16_t(65535)));
}
