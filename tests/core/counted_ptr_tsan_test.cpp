// SPDX-License-Identifier: BSD-3-Clause
// The shared pointer the array handles hold (detail/counted_ptr.hpp): ownership, const sharing
// and concurrent copies (run under ThreadSanitizer by make test-sanitize).
#include <tack/detail/counted_ptr.hpp>

#include <gtest/gtest.h>

#include <array>
#include <atomic>
#include <thread>
#include <utility>
#include <vector>

namespace {

// Counts constructions and destructions, to prove the object dies exactly once and only at the end.
struct tracked {
  static inline std::atomic<int> alive{0};
  static inline std::atomic<int> destroyed{0};
  explicit tracked(int v = 0) : value(v) { ++alive; }
  ~tracked() {
    --alive;
    ++destroyed;
  }
  tracked(const tracked&) = delete;
  tracked& operator=(const tracked&) = delete;
  int value;
};

struct CountedPtr : ::testing::Test {
  void SetUp() override {
    tracked::alive = 0;
    tracked::destroyed = 0;
  }
};

using tack::detail::counted_ptr;
using tack::detail::make_counted;

TEST_F(CountedPtr, EmptyPointer) {
  counted_ptr<tracked> p;
  EXPECT_FALSE(p);
  EXPECT_EQ(p.get(), nullptr);
  EXPECT_EQ(p.use_count(), 0);
  EXPECT_TRUE(p == nullptr);
  counted_ptr<tracked> q = p;  // copying an empty pointer touches no count
  EXPECT_FALSE(q);
  q.reset();
  EXPECT_EQ(tracked::destroyed, 0);
}

TEST_F(CountedPtr, CopiesShareAndTheLastOneDestroys) {
  {
    auto p = make_counted<tracked>(7);
    EXPECT_EQ(p->value, 7);
    EXPECT_EQ((*p).value, 7);
    EXPECT_EQ(p.use_count(), 1);
    {
      auto q = p;
      EXPECT_EQ(q.get(), p.get());
      EXPECT_TRUE(q == p);
      EXPECT_EQ(p.use_count(), 2);
      counted_ptr<tracked> r;
      r = q;
      EXPECT_EQ(p.use_count(), 3);
    }
    EXPECT_EQ(p.use_count(), 1);
    EXPECT_EQ(tracked::alive, 1);
  }
  EXPECT_EQ(tracked::alive, 0);
  EXPECT_EQ(tracked::destroyed, 1);
}

TEST_F(CountedPtr, MoveTransfersWithoutCounting) {
  auto p = make_counted<tracked>(1);
  tracked* raw = p.get();
  counted_ptr<tracked> q = std::move(p);
  EXPECT_FALSE(p);  // NOLINT(bugprone-use-after-move): a moved-from pointer is empty
  EXPECT_EQ(q.get(), raw);
  EXPECT_EQ(q.use_count(), 1);
  counted_ptr<tracked> r = make_counted<tracked>(2);
  r = std::move(q);  // the object r held dies, q's moves in
  EXPECT_EQ(tracked::destroyed, 1);
  EXPECT_EQ(r->value, 1);
  EXPECT_EQ(r.use_count(), 1);
}

TEST_F(CountedPtr, CopyAssignmentReleasesWhatWasHeld) {
  auto p = make_counted<tracked>(5);
  counted_ptr<tracked> q = make_counted<tracked>(6);
  q = p;  // the object q held dies, p's is shared
  EXPECT_EQ(tracked::destroyed, 1);
  EXPECT_EQ(q->value, 5);
  EXPECT_EQ(p.use_count(), 2);
  const counted_ptr<tracked> empty;
  p = empty;  // an empty pointer releases one count and takes none
  EXPECT_FALSE(p);
  EXPECT_EQ(q.use_count(), 1);
  q = empty;
  EXPECT_EQ(tracked::alive, 0);
  EXPECT_EQ(tracked::destroyed, 2);
}

TEST_F(CountedPtr, SelfAssignmentKeepsTheObject) {
  auto p = make_counted<tracked>(3);
  auto& alias = p;
  p = alias;
  EXPECT_EQ(p.use_count(), 1);
  EXPECT_EQ(p->value, 3);
  p = std::move(alias);
  EXPECT_TRUE(p);
  EXPECT_EQ(tracked::destroyed, 0);
}

TEST_F(CountedPtr, ConstPointerSharesTheCount) {
  auto p = make_counted<tracked>(4);
  counted_ptr<const tracked> c = p;
  static_assert(std::is_same_v<decltype(c.get()), const tracked*>);
  EXPECT_EQ(c.get(), p.get());
  EXPECT_EQ(p.use_count(), 2);
  counted_ptr<const tracked> moved = make_counted<tracked>(5);  // from a temporary: no extra count
  EXPECT_EQ(moved.use_count(), 1);
  p.reset();
  EXPECT_EQ(tracked::alive, 2);  // c still holds the first object
  EXPECT_EQ(c->value, 4);
  // No const-removing conversion exists.
  static_assert(!std::is_constructible_v<counted_ptr<tracked>, counted_ptr<const tracked>>);
}

TEST_F(CountedPtr, AggregatesAreValueInitialized) {
  auto p = make_counted<std::array<int, 4>>();
  for (int v : *p) EXPECT_EQ(v, 0);
}

TEST_F(CountedPtr, ConcurrentCopiesAndReleases) {
  // Two threads copy and drop the same object many times while the main thread drops its own
  // reference: the object must die once, after the last copy, with no data race (TSan build).
  auto p = make_counted<tracked>(8);
  std::atomic<bool> go{false};
  auto work = [&go](counted_ptr<tracked> mine) {
    while (!go.load()) std::this_thread::yield();
    std::vector<counted_ptr<tracked>> held;
    for (int i = 0; i < 20000; ++i) {
      held.push_back(mine);
      if (held.size() > 16) held.clear();
      EXPECT_EQ(mine->value, 8);
    }
  };
  std::thread t1(work, p), t2(work, p);
  p.reset();
  go = true;
  t1.join();
  t2.join();
  EXPECT_EQ(tracked::alive, 0);
  EXPECT_EQ(tracked::destroyed, 1);
}

}  // namespace
