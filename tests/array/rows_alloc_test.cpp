// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
// Row views allocate nothing (issue 4: "no heap allocation"), for AoS and SoA handles alike, and
// SoA row views (one shared component block plus a row window) keep the semantics of AoS views:
// they follow their root across reallocation and refuse to be used once a shrink removed their rows.
#include <tack/array/factories.hpp>
#include <tack/array/format.hpp>
#include <tack/array/soa.hpp>
#include <tack/types/vec.hpp>

#include <gtest/gtest.h>

#include "../../benchmarks/common/alloc_counter.hpp"  // replaces the global operator new (this executable only)
#include "common/tack_test.hpp"

using tack::index_t;

namespace {

// Global operator new calls made by `f` (tack's buffers come from its allocator registry, but
// shared state, std::vector and std::string all come through operator new).
template <class F>
long allocations_of(F&& f) {
  const long before = tack::bench::new_calls();
  f();
  return tack::bench::new_calls() - before;
}

}  // namespace

TEST(RowsAlloc, RowViewsAllocateNothing) {
  if (!tack::bench::counts_allocations) {
    GTEST_SKIP() << "ThreadSanitizer's runtime owns operator new: allocations are counted in the "
                    "other builds";
  }
  auto a = tack::zeros<double>(100);
  auto m = tack::zeros<double>({10, 4});
  auto aos = tack::zeros<tack::vec3d>(100);
  auto soa = tack::zeros<tack::vec3d>(100, {.layout = tack::layout::soa});
  auto soa_const = soa.as_const();
  long sink = 0;
  EXPECT_EQ(allocations_of([&] { sink += a.rows(2, 50).size(); }), 0);
  EXPECT_EQ(allocations_of([&] { sink += m.rows(1, 3).size(); }), 0);
  EXPECT_EQ(allocations_of([&] { sink += aos.rows(-10, 100).size(); }), 0);
  EXPECT_EQ(allocations_of([&] { sink += soa.rows(5, 7).size(); }), 0);
  EXPECT_EQ(allocations_of([&] { sink += soa.rows(5, 70).rows(1, 3).size(); }), 0);
  EXPECT_EQ(allocations_of([&] { sink += soa_const.rows(5, 7).size(); }), 0);
  EXPECT_EQ(allocations_of([&] { sink += soa[tack::slice(5, 7)].size(); }), 0);
  EXPECT_EQ(allocations_of([&] { sink += soa.as_const().rows(0, 1).size(); }), 0);
  EXPECT_EQ(sink, 48 + 8 + 10 + 2 + 2 + 2 + 2 + 1);
}

TEST(RowsAlloc, SoaViewsOfViewsAddTheirOffsets) {
  auto x = tack::array_from<double>({0, 1, 2, 3, 4, 5, 6, 7});
  auto y = tack::array_from<double>({10, 11, 12, 13, 14, 15, 16, 17});
  auto p = tack::soa(x, y);
  auto v = p.rows(2, 7).rows(1, -1);  // rows [3, 6) of the root
  EXPECT_TRUE(v.is_view());
  EXPECT_EQ(v.shape(), (std::array<index_t, 1>{3}));
  EXPECT_EQ(v.to_vector(), (std::vector<tack::vec2d>{{3, 13}, {4, 14}, {5, 15}}));
  EXPECT_EQ(v.describe(), "array<vec2(f64), 1> shape (3) on cpu, soa, view of rows [3, 6) of 8");
  EXPECT_EQ(v.components()[1].describe(),
            "array<f64, 1> shape (3) on cpu, view of rows [3, 6) of 8");
  auto sv = v.soa_view();
  EXPECT_EQ(sv[0], (tack::vec2d{3, 13}));
  EXPECT_EQ(sv[2], (tack::vec2d{5, 15}));
  // Empty ranges give a new empty SoA array, as for AoS.
  auto e = p.rows(4, 4);
  EXPECT_EQ(e.size(), 0);
  EXPECT_EQ(e.layout(), tack::layout::soa);
  EXPECT_FALSE(e.is_view());
}

TEST(RowsAlloc, SoaViewsFollowTheirRootAcrossReallocation) {
  auto p = tack::zeros<tack::vec3f>(4, {.layout = tack::layout::soa});
  p.fill({1, 2, 3});
  auto v = p.rows(1, 3);
  const auto cap = p.capacity();
  for (int k = 0; k < 1000; ++k) p.push_back({4, 5, 6});  // reallocates every component
  EXPECT_GT(p.capacity(), cap);
  v.fill({7, 8, 9});
  EXPECT_EQ(p.to_vector()[2], (tack::vec3f{7, 8, 9}));
  EXPECT_EQ(p.to_vector()[3], (tack::vec3f{1, 2, 3}));
  EXPECT_EQ(v.to_vector(), (std::vector<tack::vec3f>{{7, 8, 9}, {7, 8, 9}}));
  EXPECT_EQ(v.capacity(), 2);
}

TEST(RowsAlloc, SoaViewsWhoseRowsAShrinkRemovedAreRefused) {
  auto p = tack::zeros<tack::vec3f>(6, {.layout = tack::layout::soa});
  auto v = p.rows(3, 6);
  p.erase(0, 4);  // two rows remain: rows 3..5 of the old root are gone
  EXPECT_THROW_MSG(v.to_vector(), tack::index_error, "to_vector", "no longer exists", "2 rows");
  EXPECT_THROW_MSG(v.rows(0, 1), tack::index_error, "rows", "no longer exists");
  EXPECT_THROW_MSG(v.fill({1, 2, 3}), tack::index_error, "fill", "no longer exists");
  EXPECT_THROW_MSG(v.soa_view(), tack::index_error, "soa_view", "no longer exists");
  EXPECT_THROW_MSG(v.components(), tack::index_error, "components", "no longer exists");
  // A view whose rows all remain is still usable.
  auto w = tack::zeros<tack::vec3f>(6, {.layout = tack::layout::soa});
  auto first = w.rows(0, 2);
  w.erase(4, 6);
  EXPECT_NO_THROW(first.fill({1, 1, 1}));
  EXPECT_EQ(w.to_vector()[1], (tack::vec3f{1, 1, 1}));
}

TEST(RowsAlloc, SoaViewsCannotGrowAndShareReadOnlyAndVersion) {
  auto p = tack::zeros<tack::vec2f>(4, {.layout = tack::layout::soa});
  auto v = p.rows(1, 3);
  EXPECT_THROW_MSG(v.push_back({1, 2}), tack::value_error, "push_back", "cannot grow", "view");
  const auto before = p.version();
  v.fill({5, 6});
  EXPECT_GT(p.version(), before);
  EXPECT_EQ(v.version(), p.version());
  std::vector<float> host(4, 1.0f);
  auto ro_x = tack::from_ptr(host.data(), {4});  // borrowed without `writable`: read-only
  auto ro = tack::soa(ro_x, p.components()[1]);
  EXPECT_TRUE(ro.rows(0, 2).read_only());
  EXPECT_THROW_MSG(ro.rows(0, 2).fill({0, 0}), tack::read_only_error, "fill", "read-only",
                   "view of rows [0, 2) of 4");
  EXPECT_EQ(host[0], 1.0f);
}
