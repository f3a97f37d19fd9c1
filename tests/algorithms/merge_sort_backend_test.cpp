// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
// The backend-generic merge sort behind tack::sort(a, comp) on device memory
// (algorithms/detail/merge_sort.hpp), run directly on every backend the build has: equal to
// std::stable_sort (stability seen through tagged elements) for sizes around the tile and chunk
// boundaries (an odd and an even number of merge rounds), many duplicates, sorted, reversed and
// constant input, vec3f in lexicographic order in both layouts, a row view, floats by a user
// comparator; merge_sort_by_key with vector keys and values of both layouts; the public tack::sort
// with a TACK_LAMBDA comparator on the backend's device. The OpenMP cases run on 3 threads; the
// GPU cases (cuda, hip) need a GPU and skip without one. Compiled by nvcc (hipcc) in CUDA (HIP)
// builds, so the comparators are functors with TACK_HOST_DEVICE call operators, or a TACK_LAMBDA
// in a free function.

#include <tack/algorithms/detail/merge_sort.hpp>
#include <tack/algorithms/sort.hpp>
#include <tack/array/copyto.hpp>
#include <tack/array/factories.hpp>
#include <tack/exec/threads.hpp>
#include <tack/types/vec.hpp>

#include <gtest/gtest.h>

#include "common/tack_test.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <span>
#include <vector>

namespace {

using tack::index_t;
using tack::vec2d;
using tack::vec3f;

// An element ordered by its key alone: the tag tells equal keys apart, so stability shows.
struct tagged {
  std::int32_t key;
  std::int32_t tag;
  friend bool operator==(const tagged&, const tagged&) = default;
};

struct by_key {
  TACK_HOST_DEVICE bool operator()(const tagged& a, const tagged& b) const { return a.key < b.key; }
};

struct lex_less {
  TACK_HOST_DEVICE bool operator()(const vec3f& a, const vec3f& b) const {
    for (int c = 0; c < 3; ++c) {
      if (a[c] < b[c]) return true;
      if (b[c] < a[c]) return false;
    }
    return false;
  }
};

// Descending magnitude: x and -x are equal, and so are 0.0 and -0.0.
struct by_magnitude_descending {
  TACK_HOST_DEVICE bool operator()(const float& x, const float& y) const {
    return (x < 0 ? -x : x) > (y < 0 ? -y : y);
  }
};

using tack::test::random_ints;

std::vector<tagged> tagged_input(index_t n, std::uint64_t seed, std::int32_t range) {
  const auto keys = random_ints(n, seed, range);
  std::vector<tagged> v(keys.size());
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = tagged{keys[i], std::int32_t(i)};
  return v;
}

std::vector<vec3f> small_vec3f(index_t n, std::uint64_t seed) {
  const auto r = random_ints(3 * n, seed, 5);  // components in -2..2: many equal elements
  std::vector<vec3f> v(static_cast<std::size_t>(n));
  for (std::size_t i = 0; i < v.size(); ++i) {
    v[i] = vec3f{float(r[3 * i]), float(r[3 * i + 1]), float(r[3 * i + 2])};
  }
  return v;
}

template <class T, class Comp>
std::vector<T> stable_sorted(std::vector<T> v, Comp comp) {
  std::stable_sort(v.begin(), v.end(), comp);
  return v;
}

// The public tack::sort with a TACK_LAMBDA comparator (host memory: the host sort; device memory:
// the merge sort). A free function: nvcc refuses extended lambdas in gtest's private TestBody.
void sort_by_z_with_a_lambda(const tack::array<vec3f>& a) {
  tack::sort(
      a, TACK_LAMBDA(const vec3f& p, const vec3f& q) { return p[2] < q[2]; });
}

template <class B>
class merge_sort_backend : public tack::test::backend_test<B> {
protected:
  void SetUp() override {
    tack::test::backend_test<B>::SetUp();
    threads_ = tack::num_threads();
    tack::set_num_threads(3);  // the OpenMP backend's threads (an odd count)
  }
  void TearDown() override { tack::set_num_threads(threads_); }

  // An array on this backend's device holding `values` (copied from the host).
  template <class T>
  tack::array<T> make(const std::vector<T>& values, tack::layout l = tack::layout::aos) const {
    const tack::options on{.device = tack::test::device_of<B>(), .layout = l};
    auto a = tack::empty<T>(static_cast<index_t>(values.size()), on);
    tack::copyto(a, values);
    return a;
  }

private:
  int threads_ = 1;
};
TYPED_TEST_SUITE(merge_sort_backend, tack::test::backends, tack::test::backend_names);

TYPED_TEST(merge_sort_backend, sorts_stably_for_sizes_around_tiles_and_chunks) {
  static_assert(tack::detail::merge_sort_tile == 32 && tack::detail::merge_sort_chunk == 32,
                "the sizes below straddle tiles of 32");
  for (index_t n : {0,  1,  2,  15,  16,  17,  31,   32,   33,   63,   64,   65,
                    95, 96, 97, 127, 128, 129, 1000, 1023, 1024, 1025, 4097, 100'003}) {
    for (std::int32_t range : {3, 1000}) {
      const auto v = tagged_input(n, std::uint64_t(n) * 31 + std::uint64_t(range), range);
      auto a = this->make(v);
      tack::detail::merge_sort(TypeParam{}, a, by_key{});
      ASSERT_EQ(a.to_vector(), stable_sorted(v, by_key{})) << "n " << n << " range " << range;
    }
  }
}

TYPED_TEST(merge_sort_backend, sorted_reversed_and_constant_input) {
  for (index_t n : {index_t(2049), index_t(10'007)}) {
    std::vector<tagged> up(static_cast<std::size_t>(n)), down(up.size()), same(up.size());
    for (index_t i = 0; i < n; ++i) {
      const auto k = static_cast<std::size_t>(i);
      up[k] = tagged{std::int32_t(i / 3), std::int32_t(i)};
      down[k] = tagged{std::int32_t((n - 1 - i) / 3), std::int32_t(i)};
      same[k] = tagged{-4, std::int32_t(i)};
    }
    for (const auto* v : {&up, &down, &same}) {
      auto a = this->make(*v);
      tack::detail::merge_sort(TypeParam{}, a, by_key{});
      EXPECT_EQ(a.to_vector(), stable_sorted(*v, by_key{})) << "n " << n;
    }
  }
}

TYPED_TEST(merge_sort_backend, orders_vec3f_lexicographically_in_both_layouts) {
  for (index_t n : {index_t(33), index_t(1025), index_t(20'001)}) {
    const auto v = small_vec3f(n, std::uint64_t(n));
    for (auto l : {tack::layout::aos, tack::layout::soa}) {
      auto a = this->make(v, l);
      tack::detail::merge_sort(TypeParam{}, a, lex_less{});
      EXPECT_EQ(a.to_vector(), stable_sorted(v, lex_less{}))
          << "n " << n << " soa " << (l == tack::layout::soa);
    }
  }
  // A row view: only its rows move.
  const auto v = small_vec3f(3000, 4);
  auto a = this->make(v, tack::layout::soa);
  tack::detail::merge_sort(TypeParam{}, a.rows(7, 2993), lex_less{});
  auto want = v;
  std::stable_sort(want.begin() + 7, want.begin() + 2993, lex_less{});
  EXPECT_EQ(a.to_vector(), want);
}

TYPED_TEST(merge_sort_backend, sorts_floats_by_a_user_comparator_stably) {
  const index_t n = 30'001;
  const auto r = random_ints(n, 8, 300);
  std::vector<float> v(static_cast<std::size_t>(n));
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = float(r[i]) * 0.25f;
  v[3] = -0.0f;
  v[4] = 0.0f;
  auto a = this->make(v);
  tack::detail::merge_sort(TypeParam{}, a, by_magnitude_descending{});
  const auto got = a.to_vector();
  const auto want = stable_sorted(v, by_magnitude_descending{});
  ASSERT_EQ(got.size(), want.size());
  EXPECT_EQ(std::memcmp(got.data(), want.data(), got.size() * sizeof(float)), 0)
      << "not the same bits as std::stable_sort (x and -x, 0.0 and -0.0 keep their order)";
}

TYPED_TEST(merge_sort_backend, public_sort_takes_a_tack_lambda) {
  const auto v = small_vec3f(5001, 2);
  auto want = v;
  std::stable_sort(want.begin(), want.end(),
                   [](const vec3f& p, const vec3f& q) { return p[2] < q[2]; });
  for (auto l : {tack::layout::aos, tack::layout::soa}) {
    auto a = this->make(v, l);
    sort_by_z_with_a_lambda(a);
    EXPECT_EQ(a.to_vector(), want) << "soa " << (l == tack::layout::soa);
  }
}

TYPED_TEST(merge_sort_backend, sorts_by_vector_keys_and_moves_values_of_both_layouts) {
  for (index_t n : {index_t(2), index_t(97), index_t(20'011)}) {
    const auto keys = small_vec3f(n, 23);
    std::vector<std::size_t> order(keys.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t x, std::size_t y) { return lex_less{}(keys[x], keys[y]); });
    std::vector<vec2d> values(keys.size());
    for (std::size_t i = 0; i < values.size(); ++i) values[i] = vec2d{double(i), -double(i)};
    for (auto kl : {tack::layout::aos, tack::layout::soa}) {
      for (auto vl : {tack::layout::aos, tack::layout::soa}) {
        auto k = this->make(keys, kl);
        auto vals = this->make(values, vl);
        tack::detail::merge_sort_by_key(TypeParam{}, k, vals, lex_less{});
        const auto kv = k.to_vector();
        const auto vv = vals.to_vector();
        bool ok = true;
        for (std::size_t i = 0; i < order.size(); ++i) {
          ok = ok && kv[i] == keys[order[i]] && vv[i] == values[order[i]];
        }
        EXPECT_TRUE(ok) << "n " << n << " soa keys " << (kl == tack::layout::soa) << " soa values "
                        << (vl == tack::layout::soa);
      }
    }
  }
}

}  // namespace
