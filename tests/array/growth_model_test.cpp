// SPDX-License-Identifier: BSD-3-Clause
// A model-based test of growth: long random sequences of operations on a tack::array, each checked
// against std::vector doing the same (push_back, insert and resize with values that alias the
// array, erase, reserve, shrink, clear, row views kept alive across growth, copyto between
// overlapping views). Fixed seeds, plus one fresh seed printed on failure. It also runs in the
// ASan+UBSan build, where a read of freed memory or an overlapping memcpy stops it.
#include <tack/array/factories.hpp>
#include <tack/types/vec.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <random>
#include <span>
#include <string>
#include <vector>

#include "common/tack_test.hpp"

using tack::index_t;

namespace {

// A row view kept alive while the root grows and shrinks: rows [first, first + count) of the
// root at the time it is read.
template <class T>
struct live_view {
  tack::array<T> view;
  index_t first;
  index_t count;
};

template <class T>
T value_of(std::mt19937_64& rng) {
  const auto x = static_cast<int>(rng() % 2001) - 1000;
  if constexpr (std::is_same_v<T, int>) {
    return x;
  } else {
    return T{static_cast<float>(x), static_cast<float>(-x)};
  }
}

template <class T>
class model_run {
public:
  model_run(std::uint64_t seed, tack::layout layout) : rng_(seed), layout_(layout) {
    a_ = tack::array_from(std::vector<T>{}, {.layout = layout});
  }

  void run(int steps) {
    for (step_ = 0; step_ < steps; ++step_) {
      one_step();
      check();
      if (::testing::Test::HasFatalFailure() || ::testing::Test::HasNonfatalFailure()) return;
    }
  }

private:
  std::mt19937_64 rng_;
  tack::layout layout_;
  tack::array<T> a_;
  std::vector<T> model_;
  std::vector<live_view<T>> views_;
  int step_ = 0;
  std::string last_op_;

  index_t size() const { return static_cast<index_t>(model_.size()); }
  index_t pick(index_t lo, index_t hi) {  // in [lo, hi]
    return lo + static_cast<index_t>(rng_() % static_cast<std::uint64_t>(hi - lo + 1));
  }
  bool aos() const { return layout_ == tack::layout::aos; }
  // A value for growth: half the time an element of the array itself (AoS: a[k] aliases it).
  T value_for_growth(const T*& alias) {
    alias = nullptr;
    if (aos() && !model_.empty() && rng_() % 2 == 0) {
      const auto k = pick(0, size() - 1);
      alias = &a_[k];
      return model_[static_cast<std::size_t>(k)];
    }
    return value_of<T>(rng_);
  }

  void one_step() {
    const T* alias = nullptr;
    switch (rng_() % 14) {
      case 0:
      case 1: {
        const T v = value_for_growth(alias);
        last_op_ = "push_back";
        a_.push_back(alias ? *alias : v);
        model_.push_back(v);
        break;
      }
      case 2: {
        const auto pos = pick(0, size());
        const T v = value_for_growth(alias);
        last_op_ = "insert(" + std::to_string(pos) + ", value)";
        a_.insert(pos, alias ? *alias : v);
        model_.insert(model_.begin() + pos, v);
        break;
      }
      case 3: {
        const auto pos = pick(0, size());
        const auto count = pick(0, 9);
        const T v = value_for_growth(alias);
        last_op_ = "insert(" + std::to_string(pos) + ", " + std::to_string(count) + ", value)";
        a_.insert(pos, count, alias ? *alias : v);
        model_.insert(model_.begin() + pos, static_cast<std::size_t>(count), v);
        break;
      }
      case 4: {
        // insert a span: of the array's own elements (AoS) or of fresh values
        const auto pos = pick(0, size());
        std::vector<T> values;
        if (aos() && !model_.empty()) {
          const auto i = pick(0, size() - 1);
          const auto j = pick(i, size());
          values.assign(model_.begin() + i, model_.begin() + j);
          last_op_ = "insert(" + std::to_string(pos) + ", own span [" + std::to_string(i) + ", " +
                     std::to_string(j) + "))";
          a_.insert(pos, std::span<const T>(a_.data() + i, static_cast<std::size_t>(j - i)));
        } else {
          for (auto k = pick(0, 12); k > 0; --k) values.push_back(value_of<T>(rng_));
          last_op_ =
              "insert(" + std::to_string(pos) + ", span of " + std::to_string(values.size()) + ")";
          a_.insert(pos, std::span<const T>(values));
        }
        model_.insert(model_.begin() + pos, values.begin(), values.end());
        break;
      }
      case 5: {
        if (model_.empty()) break;
        const auto first = pick(0, size() - 1);
        const auto last = pick(first, std::min(size(), first + 8));
        last_op_ = "erase(" + std::to_string(first) + ", " + std::to_string(last) + ")";
        a_.erase(first, last);
        model_.erase(model_.begin() + first, model_.begin() + last);
        break;
      }
      case 6: {
        const auto n = pick(0, size() + 20);
        const T v = value_for_growth(alias);
        last_op_ = "resize(" + std::to_string(n) + ", value)";
        a_.resize(n, alias ? *alias : v);
        model_.resize(static_cast<std::size_t>(n), v);
        break;
      }
      case 7: {
        const auto n = pick(0, 2 * size() + 10);
        last_op_ = "reserve(" + std::to_string(n) + ")";
        const index_t cap = a_.capacity();
        a_.reserve(n);
        EXPECT_EQ(a_.capacity(), std::max(cap, n)) << context();
        break;
      }
      case 8: {
        last_op_ = rng_() % 8 == 0 ? "clear" : "shrink";
        if (last_op_ == "clear") {
          a_.clear();
          model_.clear();
        } else {
          a_.shrink();
          EXPECT_EQ(a_.capacity(), size()) << context();
        }
        break;
      }
      case 9:
      case 10: {
        // keep a row view alive (at most 6)
        if (model_.empty()) break;
        const auto i = pick(0, size() - 1);
        const auto j = pick(i + 1, size());
        last_op_ = "rows(" + std::to_string(i) + ", " + std::to_string(j) + ")";
        if (views_.size() >= 6)
          views_.erase(views_.begin() + static_cast<long>(rng_() % views_.size()));
        views_.push_back({a_.rows(i, j), i, j - i});
        break;
      }
      case 11:
      case 12: {
        // copyto between two row ranges of the array that often overlap
        if (model_.size() < 2) break;
        const auto len = pick(1, std::min<index_t>(size() - 1, 40));
        const auto src = pick(0, size() - len);
        const auto dst = std::clamp<index_t>(src + pick(-3, 3), 0, size() - len);
        last_op_ = "copyto(rows(" + std::to_string(dst) + ", +" + std::to_string(len) + "), rows(" +
                   std::to_string(src) + ", +" + std::to_string(len) + "))";
        tack::copyto(a_.rows(dst, dst + len), a_.rows(src, src + len));
        const std::vector<T> moved(model_.begin() + src, model_.begin() + src + len);
        std::copy(moved.begin(), moved.end(), model_.begin() + dst);
        break;
      }
      case 13: {
        // refusals change nothing; a new growth ratio
        const auto pos = size() + 1 + pick(0, 3);
        last_op_ = "insert at " + std::to_string(pos) + " (refused)";
        const T v = value_of<T>(rng_);
        EXPECT_THROW(a_.insert(pos, std::span<const T>(&v, 1)), tack::index_error) << context();
        if (rng_() % 2) a_.set_resize_ratio(1.0 + static_cast<double>(rng_() % 200) / 100.0);
        break;
      }
    }
  }

  std::string context() const {
    return "step " + std::to_string(step_) + " after " + last_op_ + " (size " +
           std::to_string(model_.size()) + ", layout " + std::string(tack::to_string(layout_)) +
           ")";
  }

  void check() {
    ASSERT_EQ(a_.size(), size()) << context();
    ASSERT_GE(a_.capacity(), size()) << context();
    ASSERT_EQ(a_.to_vector(), model_) << context();
    for (const auto& v : views_) {
      if (v.first + v.count <= size()) {
        const std::vector<T> expect(model_.begin() + v.first, model_.begin() + v.first + v.count);
        ASSERT_EQ(v.view.to_vector(), expect)
            << context() << ", view [" << v.first << ", +" << v.count << ")";
      } else {
        EXPECT_THROW(v.view.to_vector(), tack::index_error) << context();
      }
    }
  }
};

std::uint64_t fresh_seed() {
  std::random_device rd;
  return (static_cast<std::uint64_t>(rd()) << 32) ^ rd();
}

template <class T>
void run_seeds(tack::layout layout, int steps) {
  std::vector<std::uint64_t> seeds{1, 2, 3, 42, 2024, 0x9e3779b97f4a7c15ULL};
  seeds.push_back(fresh_seed());
  for (const auto seed : seeds) {
    SCOPED_TRACE("seed " + std::to_string(seed) + " (rerun with this seed to reproduce)");
    model_run<T>(seed, layout).run(steps);
    if (::testing::Test::HasFailure()) return;
  }
}

TEST(GrowthModel, IntArrayAgainstStdVector) { run_seeds<int>(tack::layout::aos, 3000); }

TEST(GrowthModel, VectorArrayAos) { run_seeds<tack::vec2f>(tack::layout::aos, 1500); }

TEST(GrowthModel, VectorArraySoa) { run_seeds<tack::vec2f>(tack::layout::soa, 1500); }

}  // namespace
