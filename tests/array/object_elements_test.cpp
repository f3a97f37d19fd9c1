// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
// tack::array of elements that are objects (std::string, classes with constructors and
// destructors), as Axom's Array holds them: constructed, copied, moved, assigned and
// destroyed as std::vector does them (compared operation by operation against std::vector with
// the same capacity), exception-safe where std::vector is (a type whose copy and move
// constructors throw on the k-th call), every object destroyed exactly once (a census of live
// objects), row views that keep the block alive, and device memory refused.

#include <tack/array/factories.hpp>
#include <tack/array/format.hpp>
#include <tack/view/array_view.hpp>

#include <gtest/gtest.h>

#include "common/tack_test.hpp"

#include <array>
#include <cstdint>
#include <memory>
#include <random>
#include <span>
#include <string>
#include <type_traits>
#include <unordered_set>
#include <utility>
#include <vector>

namespace {

using tack::index_t;

// ---- a census of live objects ------------------------------------------------------------------

struct counts {
  long made_default = 0, made_value = 0, copied = 0, moved = 0, copy_assigned = 0,
       move_assigned = 0, destroyed = 0;
  friend bool operator==(const counts&, const counts&) = default;
  counts operator-(const counts& o) const {
    return {made_default - o.made_default,
            made_value - o.made_value,
            copied - o.copied,
            moved - o.moved,
            copy_assigned - o.copy_assigned,
            move_assigned - o.move_assigned,
            destroyed - o.destroyed};
  }
  long constructed() const { return made_default + made_value + copied + moved; }
};
std::ostream& operator<<(std::ostream& os, const counts& c) {
  return os << "{default " << c.made_default << ", value " << c.made_value << ", copy " << c.copied
            << ", move " << c.moved << ", copy= " << c.copy_assigned
            << ", move= " << c.move_assigned << ", destroy " << c.destroyed << "}";
}

struct census {
  static inline std::unordered_set<const void*> alive;
  static inline counts n;
  static inline long errors =
      0;  // a construction over a live object, a use or destruction of a dead one
  static inline long throw_in =
      0;  // > 0: the copy or move constructor call that many calls on throws

  static void born(const void* p) {
    if (!alive.insert(p).second) ++errors;
  }
  static void check(const void* p) {
    if (!alive.count(p)) ++errors;
  }
  static void died(const void* p) {
    if (!alive.erase(p)) ++errors;
  }
  static void maybe_throw() {
    if (throw_in > 0 && --throw_in == 0)
      throw std::runtime_error("tracked: k-th construction fails");
  }
  static void reset() {
    alive.clear();
    n = {};
    errors = 0;
    throw_in = 0;
  }
};

struct test_failure : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// An element with every special member counted. NothrowMove: a noexcept move constructor (growth
// then moves); otherwise growth copies, as std::vector does. Throwing: the copy and move
// constructors throw when census::throw_in counts down to zero.
template <bool NothrowMove, bool Throwing = false>
struct tracked {
  int value;
  tracked() noexcept : value(0) {
    census::born(this);
    ++census::n.made_default;
  }
  tracked(int v) : value(v) {  // NOLINT: implicit, like a scalar
    census::born(this);
    ++census::n.made_value;
  }
  tracked(const tracked& o) : value(o.value) {
    census::check(&o);
    if constexpr (Throwing) census::maybe_throw();
    census::born(this);
    ++census::n.copied;
  }
  tracked(tracked&& o) noexcept(NothrowMove) : value(o.value) {
    census::check(&o);
    if constexpr (Throwing && !NothrowMove) census::maybe_throw();
    o.value = -1;
    census::born(this);
    ++census::n.moved;
  }
  tracked& operator=(const tracked& o) {
    census::check(this);
    census::check(&o);
    value = o.value;
    ++census::n.copy_assigned;
    return *this;
  }
  tracked& operator=(tracked&& o) noexcept(NothrowMove) {
    census::check(this);
    census::check(&o);
    value = o.value;
    if (this != &o) o.value = -1;
    ++census::n.move_assigned;
    return *this;
  }
  ~tracked() {
    census::died(this);
    ++census::n.destroyed;
  }
};
using nothrow_tracked = tracked<true>;
using copying_tracked = tracked<false>;
using fragile = tracked<false, true>;
static_assert(!std::is_trivially_copyable_v<nothrow_tracked>);
static_assert(tack::array<nothrow_tracked>::holds_objects);
static_assert(!tack::array<float>::holds_objects && !tack::array<tack::vec3f>::holds_objects);

// Every test starts and ends with an empty census: everything constructed was destroyed once.
class ObjectElements : public ::testing::Test {
protected:
  void SetUp() override { census::reset(); }
  void TearDown() override {
    EXPECT_EQ(census::errors, 0) << "an object was constructed twice, or used or destroyed dead";
    EXPECT_TRUE(census::alive.empty()) << census::alive.size() << " objects were never destroyed";
    EXPECT_EQ(census::n.constructed(), census::n.destroyed) << census::n;
    census::reset();
  }
};

// ---- the same operations on tack::array and std::vector -----------------------------------------

template <class E>
struct vector_ops {
  std::vector<E>& v;
  void push_back(const E& x) { v.push_back(x); }
  void push_back_moved(E&& x) { v.push_back(std::move(x)); }
  void emplace_back(int x) { v.emplace_back(x); }
  void insert(index_t pos, const E& x) { v.insert(v.begin() + pos, x); }
  void insert_moved(index_t pos, E&& x) { v.insert(v.begin() + pos, std::move(x)); }
  void insert(index_t pos, index_t n, const E& x) {
    v.insert(v.begin() + pos, static_cast<std::size_t>(n), x);
  }
  void insert(index_t pos, std::span<const E> s) { v.insert(v.begin() + pos, s.begin(), s.end()); }
  void erase(index_t pos) { v.erase(v.begin() + pos); }
  void erase(index_t f, index_t l) { v.erase(v.begin() + f, v.begin() + l); }
  void resize(index_t n) { v.resize(static_cast<std::size_t>(n)); }
  void resize(index_t n, const E& x) { v.resize(static_cast<std::size_t>(n), x); }
  void reserve(index_t n) { v.reserve(static_cast<std::size_t>(n)); }
  void shrink() { v.shrink_to_fit(); }
  void clear() { v.clear(); }
  E& at(index_t k) { return v[static_cast<std::size_t>(k)]; }
  index_t size() const { return static_cast<index_t>(v.size()); }
  index_t capacity() const { return static_cast<index_t>(v.capacity()); }
  std::vector<int> values() const {
    std::vector<int> out;
    for (const E& e : v) out.push_back(e.value);
    return out;
  }
};

template <class E>
struct array_ops {
  tack::array<E>& a;
  void push_back(const E& x) { a.push_back(x); }
  void push_back_moved(E&& x) { a.push_back(std::move(x)); }
  void emplace_back(int x) { a.emplace_back(x); }
  void insert(index_t pos, const E& x) { a.insert(pos, x); }
  void insert_moved(index_t pos, E&& x) { a.insert(pos, std::move(x)); }
  void insert(index_t pos, index_t n, const E& x) { a.insert(pos, n, x); }
  void insert(index_t pos, std::span<const E> s) { a.insert(pos, s); }
  void erase(index_t pos) { a.erase(pos); }
  void erase(index_t f, index_t l) { a.erase(f, l); }
  void resize(index_t n) { a.resize(n); }
  void resize(index_t n, const E& x) { a.resize(n, x); }
  void reserve(index_t n) { a.reserve(n); }
  void shrink() { a.shrink(); }
  void clear() { a.clear(); }
  E& at(index_t k) { return a[k]; }
  index_t size() const { return a.size(); }
  index_t capacity() const { return a.capacity(); }
  std::vector<int> values() const {
    std::vector<int> out;
    for (const E& e : a) out.push_back(e.value);
    return out;
  }
};

// One random operation, the same on both containers: `pick` draws from one random stream.
template <class E, class Ops, class Rng>
std::string apply(Ops c, int op, Rng& rng, const E& x, std::span<const E> src,
                  std::vector<E>& rvalues) {
  const index_t n = c.size();
  auto draw = [&](index_t hi) {
    return hi <= 0 ? index_t{0} : static_cast<index_t>(rng() % static_cast<std::uint64_t>(hi + 1));
  };
  switch (op) {
    case 0:
      c.push_back(x);
      return "push_back(x)";
    case 1:
      c.push_back_moved(std::move(rvalues.back()));
      return "push_back(move(x))";
    case 2:
      c.emplace_back(static_cast<int>(rng() % 1000));
      return "emplace_back(v)";
    case 3:
      c.insert(draw(n), x);
      return "insert(pos, x)";
    case 4:
      c.insert_moved(draw(n), std::move(rvalues.back()));
      return "insert(pos, move(x))";
    case 5: {
      const index_t pos = draw(n);
      c.insert(pos, draw(5), x);
      return "insert(pos, count, x)";
    }
    case 6: {
      const index_t pos = draw(n);
      c.insert(pos, src.first(static_cast<std::size_t>(draw(static_cast<index_t>(src.size())))));
      return "insert(pos, span)";
    }
    case 7:
      if (n) c.erase(draw(n - 1));
      return "erase(pos)";
    case 8: {
      const index_t f = draw(n);
      c.erase(f, f + draw(n - f));
      return "erase(first, last)";
    }
    case 9:
      c.resize(draw(n + 6));
      return "resize(n)";
    case 10:
      c.resize(draw(n + 6), x);
      return "resize(n, x)";
    case 11:
      c.reserve(draw(2 * n + 4));
      return "reserve(n)";
    case 12:
      c.shrink();
      return "shrink";
    case 13:
      if (rng() % 4 == 0) c.clear();
      return "clear";
    case 14:
      if (n) c.push_back(c.at(draw(n - 1)));
      return "push_back(a[k])";
    case 15:
      if (n) {
        const index_t pos = draw(n);
        c.insert(pos, c.at(draw(n - 1)));
      }
      return "insert(pos, a[k])";
    case 16:
      if (n) {
        const index_t k = draw(n - 1);
        c.resize(draw(n + 6), c.at(k));
      }
      return "resize(n, a[k])";
    default:
      if (n) {
        const index_t pos = draw(n);
        const index_t k = draw(n - 1);
        c.insert(pos, draw(4), c.at(k));
      }
      return "insert(pos, count, a[k])";
  }
}
constexpr int op_count = 18;

// Runs `steps` random operations on tack::array<E> and std::vector<E>, with the vector's capacity
// made equal to the array's before each one (their growth factors differ), and compares the
// special-member counts of every operation and the values after it.
template <class E>
void run_against_vector(std::uint64_t seed, int steps) {
  tack::array<E> a;
  std::vector<E> v;
  std::mt19937_64 pick(seed);
  for (int step = 0; step < steps; ++step) {
    if (static_cast<index_t>(v.capacity()) != a.capacity()) {
      std::vector<E> same;
      same.reserve(static_cast<std::size_t>(a.capacity()));
      same.insert(same.end(), v.begin(), v.end());
      v.swap(same);
    }
    ASSERT_EQ(static_cast<index_t>(v.capacity()), a.capacity());
    const int op = static_cast<int>(pick() % op_count);
    const std::uint64_t draws = pick();
    const E x(static_cast<int>(draws % 1000));
    std::vector<E> src;
    for (int i = 0; i < 7; ++i) src.emplace_back(static_cast<int>(draws % 97) + i);
    std::vector<E> rvalues_a, rvalues_v;
    rvalues_a.emplace_back(static_cast<int>(draws % 89));
    rvalues_v.emplace_back(static_cast<int>(draws % 89));
    std::mt19937_64 rng_a(draws), rng_v(draws);
    const counts before_a = census::n;
    const std::string name = apply<E>(array_ops<E>{a}, op, rng_a, x, src, rvalues_a);
    const counts by_array = census::n - before_a;
    const counts before_v = census::n;
    apply<E>(vector_ops<E>{v}, op, rng_v, x, src, rvalues_v);
    const counts by_vector = census::n - before_v;
    ASSERT_EQ(by_array, by_vector) << name << " at step " << step << " (seed " << seed << ")";
    ASSERT_EQ(array_ops<E>{a}.values(), vector_ops<E>{v}.values())
        << name << " at step " << step << " (seed " << seed << ")";
    ASSERT_EQ(census::errors, 0) << name << " at step " << step << " (seed " << seed << ")";
  }
}

TEST_F(ObjectElements, EveryOperationCountsAsStdVector) {
  for (std::uint64_t seed : {1u, 2u, 3u}) run_against_vector<nothrow_tracked>(seed, 2000);
  const std::uint64_t fresh = std::random_device{}();
  SCOPED_TRACE("fresh seed " + std::to_string(fresh));
  run_against_vector<nothrow_tracked>(fresh, 2000);
}

TEST_F(ObjectElements, GrowthCopiesWhenTheMoveConstructorMayThrow) {
  // std::vector relocates with move_if_noexcept: a move constructor that may throw is not used.
  for (std::uint64_t seed : {4u, 5u}) run_against_vector<copying_tracked>(seed, 2000);
  tack::array<copying_tracked> a;
  for (int i = 0; i < 5; ++i) a.emplace_back(i);
  const counts before = census::n;
  a.reserve(64);
  const counts by_reserve = census::n - before;
  EXPECT_EQ(by_reserve.copied, 5);
  EXPECT_EQ(by_reserve.moved, 0);
  EXPECT_EQ(by_reserve.destroyed, 5);
}

TEST_F(ObjectElements, PushBackCopiesOnceAndMovesOnReallocation) {
  tack::array<nothrow_tracked> a;
  a.reserve(2);
  const nothrow_tracked x(7);
  counts before = census::n;
  a.push_back(x);
  a.push_back(x);
  EXPECT_EQ((census::n - before), (counts{0, 0, 2, 0, 0, 0, 0}));
  before = census::n;
  a.push_back(x);  // full: a new block, x copied into it, the two elements moved, the old destroyed
  EXPECT_EQ((census::n - before), (counts{0, 0, 1, 2, 0, 0, 2}));
  EXPECT_EQ(a.capacity(), 4);  // Axom's rule: max(2 * 2 + 0.5, 3)
  before = census::n;
  a.emplace_back(9);  // constructed in place
  EXPECT_EQ((census::n - before), (counts{0, 1, 0, 0, 0, 0, 0}));
  EXPECT_EQ(a.to_vector().back().value, 9);
}

// ---- exception safety ----------------------------------------------------------------------------

// Runs `op` on an array and a vector built alike, making the k-th copy or move construction throw,
// for k = 1, 2, ... until the operation succeeds: both throw at the same k, and leave the same
// values. Strong: a throw leaves the values, size and capacity as they were. Returns how many
// of the constructions threw.
template <class Op>
long throw_at_every_construction(index_t size, index_t capacity, bool strong, Op op) {
  const std::size_t alive_before = census::alive.size();
  long throws = 0;
  for (long k = 1;; ++k) {
    SCOPED_TRACE("throw at construction " + std::to_string(k));
    bool array_threw = false, vector_threw = false;
    std::vector<int> array_values, vector_values, before;
    index_t array_capacity = 0, capacity_before = 0, array_size = 0, vector_size = 0;
    {
      tack::array<fragile> a;
      a.reserve(capacity);
      std::vector<fragile> v;
      v.reserve(static_cast<std::size_t>(capacity));
      for (index_t i = 0; i < size; ++i) {
        a.emplace_back(static_cast<int>(10 * i));
        v.emplace_back(static_cast<int>(10 * i));
      }
      before = array_ops<fragile>{a}.values();
      capacity_before = a.capacity();
      census::throw_in = k;
      try {
        op(array_ops<fragile>{a});
      } catch (const std::runtime_error&) {
        array_threw = true;
      }
      census::throw_in = k;
      try {
        op(vector_ops<fragile>{v});
      } catch (const std::runtime_error&) {
        vector_threw = true;
      }
      census::throw_in = 0;
      array_values = array_ops<fragile>{a}.values();
      vector_values = vector_ops<fragile>{v}.values();
      array_capacity = a.capacity();
      array_size = a.size();
      vector_size = static_cast<index_t>(v.size());
    }
    EXPECT_EQ(array_threw, vector_threw);
    EXPECT_EQ(array_values, vector_values);
    EXPECT_EQ(array_size, vector_size);
    EXPECT_EQ(census::errors, 0);
    EXPECT_EQ(census::alive.size(), alive_before);  // nothing leaked, nothing destroyed twice
    if (array_threw) ++throws;
    if (array_threw && strong) {
      EXPECT_EQ(array_values, before);
      EXPECT_EQ(array_capacity, capacity_before);
    }
    if (!array_threw || k > 64) break;
  }
  return throws;
}

TEST_F(ObjectElements, GrowthIsStronglyExceptionSafe) {
  const fragile x(5);
  std::vector<fragile> src;
  for (int i = 0; i < 3; ++i) src.emplace_back(100 + i);
  const std::span<const fragile> s(src);
  // Full arrays: every operation needs a new block (copies, as the move constructor may throw).
  EXPECT_GT(throw_at_every_construction(6, 6, true, [&](auto c) { c.push_back(x); }), 0);
  EXPECT_GT(throw_at_every_construction(6, 6, true, [&](auto c) { c.insert(2, x); }), 0);
  EXPECT_GT(throw_at_every_construction(6, 6, true, [&](auto c) { c.insert(2, 3, x); }), 0);
  EXPECT_GT(throw_at_every_construction(6, 6, true, [&](auto c) { c.insert(2, s); }), 0);
  EXPECT_GT(throw_at_every_construction(6, 6, true, [&](auto c) { c.resize(9, x); }), 0);
  EXPECT_GT(throw_at_every_construction(6, 6, true, [&](auto c) { c.resize(9); }), 0);
  EXPECT_GT(throw_at_every_construction(6, 6, true, [&](auto c) { c.reserve(20); }), 0);
  EXPECT_GT(throw_at_every_construction(6, 6, true, [&](auto c) { c.push_back(c.at(1)); }), 0);
  EXPECT_GT(throw_at_every_construction(6, 6, true, [&](auto c) { c.insert(0, c.at(4)); }), 0);
  // Room left: appending is strong, inserting before the end is basic (both as std::vector).
  EXPECT_GT(throw_at_every_construction(6, 12, true, [&](auto c) { c.push_back(x); }), 0);
  EXPECT_GT(throw_at_every_construction(6, 12, true, [&](auto c) { c.resize(9, x); }), 0);
  EXPECT_GT(throw_at_every_construction(6, 12, false, [&](auto c) { c.insert(2, x); }), 0);
  EXPECT_GT(throw_at_every_construction(6, 12, false, [&](auto c) { c.insert(2, 3, x); }), 0);
  EXPECT_GT(throw_at_every_construction(6, 12, false, [&](auto c) { c.insert(4, s); }), 0);
  EXPECT_GT(throw_at_every_construction(6, 12, false, [&](auto c) { c.insert(1, s); }), 0);
}

TEST_F(ObjectElements, ShrinkIsStronglyExceptionSafe) {
  // std::vector::shrink_to_fit swallows the exception; shrink() lets it through, unchanged.
  for (long k = 1; k < 10; ++k) {
    tack::array<fragile> a;
    a.reserve(8);
    for (int i = 0; i < 4; ++i) a.emplace_back(i);
    census::throw_in = k;
    try {
      a.shrink();
      census::throw_in = 0;
      EXPECT_EQ(a.capacity(), 4);
      EXPECT_EQ(array_ops<fragile>{a}.values(), (std::vector<int>{0, 1, 2, 3}));
      break;
    } catch (const std::runtime_error&) {
      census::throw_in = 0;
      EXPECT_EQ(a.capacity(), 8);
      EXPECT_EQ(array_ops<fragile>{a}.values(), (std::vector<int>{0, 1, 2, 3}));
    }
  }
}

TEST_F(ObjectElements, CopiesAndFactoriesConstructAsStdVector) {
  counts before = census::n;
  auto a = tack::empty<nothrow_tracked>({3, 2});  // value-initialized, as std::vector(n)
  EXPECT_EQ((census::n - before), (counts{6, 0, 0, 0, 0, 0, 0}));
  EXPECT_EQ(a(2, 1).value, 0);
  const nothrow_tracked x(4);
  before = census::n;
  auto f = tack::full<nothrow_tracked>({5}, x);  // std::vector(n, x)
  EXPECT_EQ((census::n - before), (counts{0, 0, 5, 0, 0, 0, 0}));
  before = census::n;
  auto b = f.copy();  // copy-constructed
  EXPECT_EQ((census::n - before), (counts{0, 0, 5, 0, 0, 0, 0}));
  EXPECT_NE(b.data(), f.data());
  before = census::n;
  auto shared = f;  // a handle copy shares: nothing is constructed
  EXPECT_EQ((census::n - before), counts{});
  before = census::n;
  auto from = tack::array_from<nothrow_tracked>(std::span<const nothrow_tracked>(b.data(), 5));
  EXPECT_EQ((census::n - before), (counts{0, 0, 5, 0, 0, 0, 0}));
  before = census::n;
  tack::copyto(b, from);  // assignment into existing elements
  b.fill(x);
  EXPECT_EQ((census::n - before), (counts{0, 0, 0, 0, 10, 0, 0}));
  before = census::n;
  auto values = b.to_vector();
  EXPECT_EQ((census::n - before), (counts{0, 0, 5, 0, 0, 0, 0}));
  EXPECT_EQ(values[4].value, 4);
  auto z = tack::zeros<nothrow_tracked>({2});
  EXPECT_EQ(z[1].value, 0);
}

TEST_F(ObjectElements, RowsInsertedIntoARank2ArrayCountAsStdVectorElements) {
  // Rows of an (n, 3) array are runs of 3 elements of the flat sequence.
  auto a = tack::empty<nothrow_tracked>({2, 3}, {.capacity = 4});
  std::vector<nothrow_tracked> v(6);
  v.reserve(12);
  std::vector<nothrow_tracked> rows;
  for (int i = 0; i < 3; ++i) rows.emplace_back(i + 1);
  counts before = census::n;
  a.insert(1, std::span<const nothrow_tracked>(rows));
  const counts by_array = census::n - before;
  before = census::n;
  v.insert(v.begin() + 3, rows.begin(), rows.end());
  EXPECT_EQ(by_array, census::n - before);
  EXPECT_EQ(a.shape(), (std::array<index_t, 2>{3, 3}));
  EXPECT_EQ(a(1, 2).value, 3);
  before = census::n;
  a.append(std::span<const nothrow_tracked>(rows));
  a.append(std::span<const nothrow_tracked>(rows));  // past the capacity: a new block
  const counts appended = census::n - before;
  before = census::n;
  v.insert(v.end(), rows.begin(), rows.end());
  v.insert(v.end(), rows.begin(), rows.end());
  EXPECT_EQ(appended, census::n - before);
  before = census::n;
  a.erase(0, 2);
  v.erase(v.begin(), v.begin() + 6);
  const counts erased = census::n - before;
  EXPECT_EQ(erased.move_assigned, 2 * 9);
  EXPECT_EQ(erased.destroyed, 2 * 6);
  EXPECT_EQ(a.shape(), (std::array<index_t, 2>{3, 3}));
}

// ---- views and lifetime --------------------------------------------------------------------------

TEST_F(ObjectElements, RowViewsShareTheBlockAndKeepItAlive) {
  tack::array<nothrow_tracked> view;
  {
    tack::array<nothrow_tracked> a;
    for (int i = 0; i < 6; ++i) a.emplace_back(i);
    view = a.rows(2, 4);
    EXPECT_EQ(view.data(), a.data() + 2);
    view[0].value = 20;
    EXPECT_EQ(a[2].value, 20);
  }
  // The root's handle is gone; its six elements live on, held by the view.
  EXPECT_EQ(census::alive.size(), 6u);
  EXPECT_EQ(view[0].value, 20);
  EXPECT_EQ(view[1].value, 3);
  const long destroyed = census::n.destroyed;
  view = tack::array<nothrow_tracked>();
  EXPECT_EQ(census::n.destroyed - destroyed, 6);  // all six, once, by the block
  EXPECT_TRUE(census::alive.empty());
}

TEST_F(ObjectElements, ViewsFollowGrowthAndShrinkRefusesRemovedRows) {
  tack::array<nothrow_tracked> a;
  for (int i = 0; i < 4; ++i) a.emplace_back(i);
  auto tail = a.rows(2, 4);
  for (int i = 4; i < 40; ++i) a.emplace_back(i);  // several new blocks
  EXPECT_EQ(tail[1].value, 3);
  a.resize(3);
  EXPECT_THROW_MSG((void)tail[1], tack::index_error, "no longer exists");
  auto reshaped = a.reshape({3, 1});
  EXPECT_EQ(reshaped(2, 0).value, 2);
}

TEST_F(ObjectElements, BorrowedObjectsAreNotDestroyedByTheArray) {
  std::vector<nothrow_tracked> owned(3);
  {
    auto a = tack::from_ptr(owned.data(), {3}, {.writable = true});
    a[1].value = 5;
    EXPECT_THROW_MSG(a.push_back(nothrow_tracked(1)), tack::value_error, "borrowed");
  }
  EXPECT_EQ(census::alive.size(), 3u);
  EXPECT_EQ(owned[1].value, 5);
}

// ---- std::string ---------------------------------------------------------------------------------

TEST(ObjectElementsStrings, StringsGrowAndPrint) {
  tack::array<std::string> a;
  std::string moved_from = "a string long enough to live on the heap, not in the small buffer";
  a.push_back(moved_from);
  a.push_back(std::move(moved_from));
  a.emplace_back(3, 'z');
  a.insert(0, a[2]);  // an element of the array, copied before it moves
  a.insert(1, 2, std::string("two"));
  a.insert(5, {std::string("p"), std::string("q")});
  EXPECT_EQ(a.size(), 8);
  EXPECT_EQ(a[0], "zzz");
  EXPECT_EQ(a[1], "two");
  EXPECT_EQ(a[5], "p");
  EXPECT_EQ(a[7], "zzz");
  EXPECT_EQ(a[3], a[4]);
  a.erase(1, 3);
  a.resize(10, "r");
  a.shrink();
  EXPECT_EQ(a.capacity(), 10);
  EXPECT_EQ(tack::to_string(a.rows(0, 2)),
            "[zzz, a string long enough to live on the heap, not in "
            "the small buffer]");
  auto copy = a.copy();
  copy[0] = "changed";
  EXPECT_EQ(a[0], "zzz");
  EXPECT_FALSE(tack::array_equal(a, copy));
  tack::copyto(copy, a);
  EXPECT_TRUE(tack::array_equal(a, copy));
  EXPECT_EQ(a.describe(), "array<std::string, 1> shape (10) on cpu");
  a.clear();
  EXPECT_EQ(a.size(), 0);
  EXPECT_EQ(a.capacity(), 10);
}

TEST(ObjectElementsStrings, OverlappingCopiesGiveMemmovesResult) {
  auto a = tack::array_from<std::string>({"a", "b", "c", "d", "e", "f"});
  tack::copyto(a.rows(1, 6), a.rows(0, 5));
  EXPECT_EQ(a.to_vector(), (std::vector<std::string>{"a", "a", "b", "c", "d", "e"}));
  tack::copyto(a.rows(0, 5), a.rows(1, 6));
  EXPECT_EQ(a.to_vector(), (std::vector<std::string>{"a", "b", "c", "d", "e", "e"}));
  a.insert(2, std::span<const std::string>(a.data(), 3));  // a span over a's own elements
  EXPECT_EQ(a.to_vector(), (std::vector<std::string>{"a", "b", "a", "b", "c", "c", "d", "e", "e"}));
}

TEST(ObjectElementsStrings, BeginEndVisitTheFullBufferAtEveryRank) {
  auto grid = tack::full<std::string>({2, 3}, "x");
  int k = 0;
  for (std::string& s : grid) s += std::to_string(k++);
  EXPECT_EQ(k, 6);
  EXPECT_EQ(grid(1, 2), "x5");
  EXPECT_EQ(grid.end() - grid.begin(), 6);
  auto cube = tack::zeros<int>({2, 2, 2});
  int i = 0;
  for (int& x : cube) x = i++;
  EXPECT_EQ(cube(1, 1, 1), 7);
  EXPECT_EQ(cube.as_const().end()[-1], 7);
}

TEST(ObjectElementsStrings, DeviceMemoryIsRefused) {
  EXPECT_THROW_MSG(
      tack::empty<std::string>({4}, {.allocator = tack::test::fake_device_allocator()}),
      tack::value_error, "tack::array<std::string, 1>::allocate", "device memory",
      "not trivially copyable", "host memory only");
  auto strings = tack::array_from<std::string>({"a"});
  EXPECT_THROW_MSG((void)strings.copy({.allocator = tack::test::fake_device_allocator()}),
                   tack::value_error, "host memory only");
  std::string local[2];
  EXPECT_THROW_MSG((void)tack::from_ptr(local, {2}, {.device = tack::cuda(0)}), tack::value_error,
                   "tack::from_ptr", "cuda:0", "std::string", "host memory only");
  // Trivially copyable elements are still allowed there.
  auto floats = tack::empty<float>({4}, {.allocator = tack::test::fake_device_allocator()});
  EXPECT_EQ(floats.device(), tack::cuda(0));
  // A fixed host space holds strings.
  tack::array<std::string, 1, tack::memory_space::host> host;
  host.push_back("kept");
  EXPECT_EQ(host[0], "kept");
}

}  // namespace
