// SPDX-License-Identifier: BSD-3-Clause
// tack::array: metadata, factories, host access, copies, and their refusals
// (docs/reference/arrays.md).
#include <tack/array/factories.hpp>
#include <tack/array/format.hpp>
#include <tack/types/vec.hpp>
#include <tack/types/mat.hpp>

#include <gtest/gtest.h>

#include "common/tack_test.hpp"

#include <numeric>

using tack::index_t;

// Checks that `expr` throws `type` and that its message contains each of the fragments.
TEST(Array, SeedShapesAndDtypes) {
  // Temperature, velocity and stress of 100 elements: a scalar, a vector and a matrix array.
  auto temperature = tack::empty<float>(100);
  auto velocity = tack::empty<tack::vec3f>(100);
  auto stress = tack::empty<tack::mat3f>(100);
  velocity.fill({1.0f, 0.0f, 0.0f});
  EXPECT_EQ(velocity.shape(), (std::array<index_t, 1>{100}));
  EXPECT_EQ(velocity.size(), 100);
  EXPECT_EQ(velocity.dtype(), tack::dtype_of<tack::vec3f>());
  EXPECT_EQ(velocity.dtype().name(), std::string_view("vec3(f32)"));
  EXPECT_EQ(velocity.storage_shape(), (std::array<index_t, 2>{100, 3}));
  EXPECT_EQ(stress.storage_shape(), (std::array<index_t, 3>{100, 3, 3}));
  EXPECT_EQ(temperature.storage_shape(), (std::array<index_t, 1>{100}));
  EXPECT_EQ(velocity.scalar_dtype().name(), std::string_view("f32"));
  EXPECT_EQ(velocity.scalar_size(), 4u);
  EXPECT_EQ(velocity.nbytes(), 1200u);
  EXPECT_EQ(temperature.nbytes(), 400u);  // same bytes as a (100, 3) scalar array / 3
  EXPECT_EQ(velocity.to_vector()[99], (tack::vec3f{1, 0, 0}));
  EXPECT_NE(velocity.dtype(), stress.dtype());
}

TEST(Array, RankIsTheNumberOfExtents) {
  auto a = tack::zeros<double>({6, 3});
  static_assert(decltype(a)::rank == 2);
  EXPECT_EQ(a.extent(0), 6);
  EXPECT_EQ(a.extent(1), 3);
  EXPECT_EQ(a.size(), 18);
  auto b = tack::ones<int>(tack::shape{2, 3, 4});
  static_assert(decltype(b)::rank == 3);
  EXPECT_EQ(b.size(), 24);
  for (int v : b.to_vector()) EXPECT_EQ(v, 1);
  EXPECT_THROW_MSG(a.extent(2), tack::index_error, "dimension 2", "array<f64, 2>");
}

TEST(Array, MetadataDefaults) {
  auto a = tack::zeros<float>(5);
  EXPECT_EQ(a.device(), tack::cpu());
  EXPECT_EQ(a.layout(), tack::layout::aos);
  EXPECT_FALSE(a.is_view());
  EXPECT_FALSE(a.read_only());
  EXPECT_EQ(a.allocator(), tack::get_allocator(tack::memory_space::host));
  EXPECT_TRUE(a.components().empty());
  EXPECT_EQ(a.describe(), "array<f32, 1> shape (5) on cpu");
}

TEST(Array, Factories) {
  auto z = tack::zeros<tack::vec2d>(4);
  for (auto v : z.to_vector()) EXPECT_EQ(v, (tack::vec2d{0, 0}));
  auto o = tack::ones<tack::mat2f>(2);
  for (auto m : o.to_vector()) EXPECT_EQ(m, (tack::mat2f{{1, 1}, {1, 1}}));
  auto f = tack::full({2, 2}, 7);
  EXPECT_EQ(f.to_vector(), (std::vector<int>{7, 7, 7, 7}));
  auto e = tack::empty_like(f);
  EXPECT_EQ(e.shape(), f.shape());
  auto zl = tack::zeros_like(f);
  EXPECT_EQ(zl.to_vector(), (std::vector<int>{0, 0, 0, 0}));
  auto ol = tack::ones_like(f);
  EXPECT_EQ(ol.to_vector(), (std::vector<int>{1, 1, 1, 1}));
  auto fl = tack::full_like(f, 3);
  EXPECT_EQ(fl.to_vector(), (std::vector<int>{3, 3, 3, 3}));
  // a large zeros comes from fresh pages and must still read as zero
  auto big = tack::zeros<double>(1 << 20);
  auto bv = big.to_vector();
  EXPECT_EQ(std::accumulate(bv.begin(), bv.end(), 0.0), 0.0);
  // empty of zero elements
  auto none = tack::empty<float>(0);
  EXPECT_EQ(none.size(), 0);
  EXPECT_TRUE(none.to_vector().empty());
}

TEST(Array, FactoriesDefaultToFloat) {
  auto e = tack::empty({100});
  static_assert(std::is_same_v<decltype(e), tack::array<float, 1>>);
  EXPECT_EQ(e.size(), 100);
  auto z = tack::zeros({6, 3});
  static_assert(std::is_same_v<decltype(z), tack::array<float, 2>>);
  EXPECT_EQ(z.to_vector(), std::vector<float>(18, 0.f));
  auto o = tack::ones({2});
  static_assert(std::is_same_v<decltype(o), tack::array<float, 1>>);
  EXPECT_EQ(o.to_vector(), (std::vector<float>{1, 1}));
  static_assert(std::is_same_v<decltype(tack::zeros(tack::shape{2, 3, 4})), tack::array<float, 3>>);
  static_assert(std::is_same_v<decltype(tack::empty(5)), tack::array<float, 1>>);
  static_assert(std::is_same_v<decltype(tack::zeros(5, {.layout = tack::layout::aos})),
                               tack::array<float, 1>>);
  static_assert(std::is_same_v<decltype(tack::ones(tack::shape{2})), tack::array<float, 1>>);
  // an explicit element type still wins
  static_assert(std::is_same_v<decltype(tack::zeros<int>({6, 3})), tack::array<int, 2>>);
}

TEST(Array, NegativeExtentsAreRefused) {
  EXPECT_THROW_MSG(tack::empty<float>({3, -2}), tack::value_error, "-2", "dimension 1", "(3, -2)");
  EXPECT_THROW_MSG(tack::zeros<float>(-1), tack::value_error, "-1");
  EXPECT_THROW_MSG(tack::empty<float>(3, {.capacity = -5}), tack::value_error, "-5");
}

TEST(Array, ArrayFrom) {
  auto a = tack::array_from({2, 5, 11});
  EXPECT_EQ(tack::to_string(a), "[2, 5, 11]");
  std::vector<double> v{1.5, 2.5};
  auto b = tack::array_from(v);
  v[0] = 99;  // a copy: the array does not see it
  EXPECT_EQ(b(0), 1.5);
  auto c = tack::array_from<tack::vec3f>({1.f, 0.f, 0.f, 0.f, 1.f, 0.f});
  EXPECT_EQ(c.size(), 2);
  EXPECT_EQ(c(1), (tack::vec3f{0, 1, 0}));
  EXPECT_THROW_MSG(tack::array_from<tack::vec3f>({1.f, 2.f, 3.f, 4.f}), tack::value_error, "(4)",
                   "vec3(f32)", "(n, 3)");
  EXPECT_THROW_MSG(tack::array_from<int>({{1, 2}, {3}}), tack::value_error, "row 1", "(2, 2)");
}

TEST(Array, HostElementAccess) {
  auto a = tack::zeros<float>({2, 3});
  a(1, 2) = 5.0f;
  EXPECT_EQ(a(1, 2), 5.0f);
  EXPECT_EQ(a[5], 5.0f);  // flat, row-major
  EXPECT_THROW_MSG(a(2, 0), tack::index_error, "index 2", "dimension 0", "extent 2");
  EXPECT_THROW_MSG(a(0, -1), tack::index_error, "index -1", "dimension 1");
  EXPECT_THROW_MSG(a[6], tack::index_error, "index 6", "6 elements");
  auto r = tack::array_from({1, 2, 3});
  int sum = 0;
  for (int x : r) sum += x;
  EXPECT_EQ(sum, 6);
  EXPECT_EQ(r.end() - r.begin(), 3);
}

TEST(Array, CopiesShareHandlesCopyDuplicates) {
  auto a = tack::array_from({1, 2, 3});
  auto shared = a;  // shares
  shared(0) = 10;
  EXPECT_EQ(a(0), 10);
  auto dup = a.copy();
  dup(1) = 20;
  EXPECT_EQ(a(1), 2);
  EXPECT_EQ(dup.to_vector(), (std::vector<int>{10, 20, 3}));
  EXPECT_EQ(dup.allocator(), a.allocator());
  EXPECT_FALSE(dup.is_view());
  EXPECT_TRUE(tack::array_equal(a, shared));
  EXPECT_FALSE(tack::array_equal(a, dup));
  EXPECT_FALSE(tack::array_equal(a, tack::array_from({10, 2})));
}

TEST(Array, Astype) {
  auto v = tack::array_from<tack::vec3f>({1.5f, 2.f, 3.f, 4.f, 5.f, 6.f});
  auto d = v.astype<double>();  // scalar U keeps the vector dimensions
  static_assert(std::is_same_v<decltype(d)::value_type, tack::vec3d>);
  EXPECT_EQ(d(0), (tack::vec3d{1.5, 2, 3}));
  auto i = tack::array_from({1.7, -2.2}).astype<int>();
  EXPECT_EQ(i.to_vector(), (std::vector<int>{1, -2}));
  // element U: the same component dimensions (mat2f -> mat2f of doubles); vec4f -> mat2f does not
  // compile (tests/compile_fail/array_misuse.cpp)
  auto as_mat =
      tack::full<tack::mat2f>(3, tack::mat2f{{1, 2}, {3, 4}}).astype<tack::mat<double, 2, 2>>();
  static_assert(std::is_same_v<decltype(as_mat)::value_type, tack::mat2d>);
  EXPECT_EQ(as_mat.size(), 3);
  EXPECT_EQ(as_mat.to_vector()[2], (tack::mat2d{{1, 2}, {3, 4}}));
  auto as_vec = tack::zeros<tack::vec4f>(2).astype<tack::vec<std::int32_t, 4>>();
  static_assert(std::is_same_v<decltype(as_vec)::value_type, tack::vec<std::int32_t, 4>>);
}

TEST(Array, AstypeToAndFromBool) {
  // bool on either side: nonzero is true, true is 1 (std::vector<bool> has no data() to copy from)
  auto b = tack::array_from({0.0, -2.5, 0.25, 0.0}).astype<bool>();
  static_assert(std::is_same_v<decltype(b)::value_type, bool>);
  EXPECT_EQ(b.to_vector(), (std::vector<bool>{false, true, true, false}));
  EXPECT_EQ(b.astype<int>().to_vector(), (std::vector<int>{0, 1, 1, 0}));
  EXPECT_EQ(b.astype<float>().to_vector(), (std::vector<float>{0, 1, 1, 0}));
  auto vb = tack::array_from<tack::vec2f>({0.f, 1.f, 2.f, 0.f}).astype<bool>();
  static_assert(std::is_same_v<decltype(vb)::value_type, tack::vec<bool, 2>>);
  EXPECT_EQ(vb(1), (tack::vec<bool, 2>{true, false}));
  // a SoA array converts component by component and stays SoA
  auto soa = tack::array_from<tack::vec3f>({1.5f, 2.f, 3.f, 4.f, 5.f, 6.f})
                 .copy({.layout = tack::layout::soa});
  auto soa_d = soa.astype<double>();
  EXPECT_EQ(soa_d.layout(), tack::layout::soa);
  EXPECT_EQ(soa_d.to_vector(), (std::vector<tack::vec3d>{{1.5, 2, 3}, {4, 5, 6}}));
  EXPECT_EQ(tack::empty<float>(0).astype<bool>().size(), 0);
}

TEST(Array, FillAndCopyto) {
  auto a = tack::empty<tack::vec3f>(1000);
  a.fill({1, 2, 3});
  for (auto v : a.to_vector()) ASSERT_EQ(v, (tack::vec3f{1, 2, 3}));
  auto b = tack::zeros<tack::vec3f>(1000);
  tack::copyto(b, a);
  EXPECT_TRUE(tack::array_equal(a, b));
  auto c = tack::zeros<int>(3);
  tack::copyto(c, {4, 5, 6});
  EXPECT_EQ(c.to_vector(), (std::vector<int>{4, 5, 6}));
  tack::copyto(c, std::vector<int>{7, 8, 9});
  EXPECT_EQ(c.to_vector(), (std::vector<int>{7, 8, 9}));
  auto v = tack::zeros<tack::vec2f>(2);
  tack::copyto(v, std::vector<float>{1, 2, 3, 4});  // scalar components
  EXPECT_EQ(v(1), (tack::vec2f{3, 4}));
}

TEST(Array, CopytoShapeMismatchNamesBothShapes) {
  auto a = tack::zeros<float>({2, 3});
  auto b = tack::zeros<float>({3, 2});
  EXPECT_THROW_MSG(tack::copyto(a, b), tack::value_error, "(2, 3)", "(3, 2)");
  EXPECT_THROW_MSG(tack::copyto(a, std::vector<float>(5)), tack::value_error, "5 values", "(2, 3)");
  auto v = tack::zeros<tack::vec3f>(2);
  EXPECT_THROW_MSG(tack::copyto(v, std::vector<float>{1, 2, 3, 4}), tack::value_error, "(4)",
                   "(2, 3)");
}

TEST(Array, LargeCopyAndFillAreExact) {
  // Above the streaming threshold: the non-temporal paths must write every byte.
  const index_t n = (1 << 21) + 13;
  auto a = tack::empty<double>(n);
  a.fill(3.25);
  auto v = a.to_vector();
  for (index_t i = 0; i < n; i += 4099) ASSERT_EQ(v[static_cast<std::size_t>(i)], 3.25);
  EXPECT_EQ(v.back(), 3.25);
  auto b = tack::empty<tack::vec3f>(n);  // 12-byte pattern across 16-byte stores
  b.fill({1, 2, 3});
  auto bv = b.to_vector();
  for (index_t i = 0; i < n; i += 977)
    ASSERT_EQ(bv[static_cast<std::size_t>(i)], (tack::vec3f{1, 2, 3}));
  EXPECT_EQ(bv.back(), (tack::vec3f{1, 2, 3}));
  auto c = b.copy();
  EXPECT_TRUE(tack::array_equal(b, c));
  auto off = tack::empty<std::int8_t>(n);  // odd sizes and alignments
  off.fill(7);
  auto view = off.rows(3, n - 5);
  auto copy = view.copy();
  EXPECT_TRUE(tack::array_equal(copy, view));
}

TEST(Array, ToDeviceOnTheCpuIsTheArrayItself) {
  auto a = tack::zeros<float>(4);
  auto b = a.to_device(tack::cpu());
  b(0) = 1;
  EXPECT_EQ(a(0), 1);
  if (!tack::is_available(tack::cuda())) {
    EXPECT_THROW_MSG(a.to_device(tack::cuda()), tack::device_error, "cuda:0");
  }
}

TEST(Array, ToVectorAsync) {
  auto a = tack::array_from({1, 2});
  auto pending = a.to_vector_async();
  EXPECT_EQ(pending.get(), (std::vector<int>{1, 2}));
  // large enough for the copy thread, in both layouts; the caller's handle dies first
  const index_t n = index_t{1} << 20;
  for (auto l : {tack::layout::aos, tack::layout::soa}) {
    auto p = [&] {
      std::vector<float> components(static_cast<std::size_t>(3 * n));
      std::iota(components.begin(), components.end(), 0.f);
      auto v = tack::empty<tack::vec3f>(n, {.layout = l});
      tack::copyto(v, std::span<const float>(components));
      return v.to_vector_async();
    }();
    auto values = p.get();
    ASSERT_EQ(values.size(), static_cast<std::size_t>(n));
    EXPECT_EQ(values[0], (tack::vec3f{0, 1, 2}));
    EXPECT_EQ(values[static_cast<std::size_t>(n) - 1],
              (tack::vec3f{float(3 * n - 3), float(3 * n - 2), float(3 * n - 1)}));
  }
  // destroyed without get(): the destructor waits for the copy
  {
    auto big = tack::zeros<double>(n);
    auto p = big.to_vector_async();
    p.wait();
    EXPECT_TRUE(p.ready());
  }
  {
    auto p = tack::ones<float>(n).to_vector_async();
    (void)p;
  }
  // an error of the copy reaches get()
  auto gone = tack::zeros<float>({n, 2});
  auto view = gone.rows(0, n);
  gone.resize(1);
  gone.shrink();
  EXPECT_THROW(view.to_vector_async().get(), tack::index_error);
}

TEST(Array, Printing) {
  EXPECT_EQ(tack::to_string(tack::array_from<int>({{1, 4, 2}, {8, 0, -1}})),
            "[[1, 4, 2], [8, 0, -1]]");
  EXPECT_EQ(tack::to_string(tack::zeros<float>(0)), "[]");
  EXPECT_EQ(tack::to_string(tack::array_from<std::uint8_t>({1, 2})), "[1, 2]");
}

TEST(Array, MovedFromIsRefused) {
  auto a = tack::zeros<float>(3);
  auto b = std::move(a);
  EXPECT_EQ(b.size(), 3);
  EXPECT_FALSE(a.valid());  // NOLINT(bugprone-use-after-move): testing the moved-from state
  EXPECT_THROW_MSG(a.size(), tack::value_error, "moved from");
  EXPECT_THROW_MSG(a.rows(0, 1), tack::value_error, "moved from");
}

TEST(Array, ConstHandles) {
  auto a = tack::array_from({1, 2, 3});
  tack::array<const int> c = a;  // implicit conversion to the read-only handle type
  EXPECT_EQ(c(1), 2);
  static_assert(std::is_same_v<decltype(c(1)), const int&>);
  auto c2 = a.as_const();
  static_assert(std::is_same_v<decltype(c2), tack::array<const int>>);
  EXPECT_EQ(c2.data(), a.data());
  auto writable_copy = c.copy();  // a copy of a read-only handle is writable
  writable_copy(0) = 5;
  EXPECT_EQ(a(0), 1);
}

TEST(Array, FromPtrBorrowsReadOnlyUnlessAsked) {
  std::vector<float> host{1, 2, 3, 4, 5, 6};
  auto ro = tack::from_ptr(host.data(), {2, 3});
  EXPECT_TRUE(ro.read_only());
  EXPECT_FALSE(ro.is_view());
  EXPECT_EQ(ro.allocator(), -1);
  EXPECT_EQ(ro.as_const()(1, 0), 4.0f);
  EXPECT_THROW_MSG(ro(0, 0), tack::read_only_error, "read-only", "as_const()", "(2, 3)");
  EXPECT_THROW_MSG(ro.fill(0), tack::read_only_error, "read-only");
  EXPECT_THROW_MSG(tack::copyto(ro, std::vector<float>(6)), tack::read_only_error, "read-only");
  auto rw = tack::from_ptr(host.data(), {6}, {.writable = true});
  rw(0) = 10;
  EXPECT_EQ(host[0], 10);
  // growth of borrowed memory is refused
  EXPECT_THROW_MSG(rw.push_back(1), tack::value_error, "push_back", "borrowed");
  EXPECT_THROW_MSG(ro.reshape({6}).as_const().size() ? ro.resize(3) : void(), tack::value_error,
                   "resize");
}

TEST(Array, FromPtrKeepsItsOwnerAlive) {
  auto owner = std::make_shared<std::vector<double>>(4, 2.0);
  std::weak_ptr<std::vector<double>> watch = owner;
  auto a = tack::from_ptr(owner->data(), {4}, {.owner = owner});
  owner.reset();
  EXPECT_FALSE(watch.expired());
  auto view = a.rows(1, 3);
  a = tack::zeros<double>(1);
  EXPECT_FALSE(watch.expired());  // the view still holds it
  EXPECT_EQ(view.as_const()(0), 2.0);
  view = tack::zeros<double>(1);
  EXPECT_TRUE(watch.expired());  // released exactly once, after the last handle
}

TEST(Array, OutOfMemoryLeavesNothingBehind) {
  const index_t huge = index_t{1} << 58;
  EXPECT_THROW_MSG(tack::empty<double>(huge), tack::out_of_memory, "bytes");
  auto a = tack::array_from({1, 2, 3});
  EXPECT_THROW(a.reserve(huge), tack::out_of_memory);
  EXPECT_EQ(a.to_vector(), (std::vector<int>{1, 2, 3}));  // unchanged
  EXPECT_EQ(a.capacity(), 3);
}

TEST(Array, ExportMemory) {
  auto a = tack::zeros<float>(8);
  auto m = a.export_memory();
  EXPECT_EQ(m.data, a.data());
  EXPECT_EQ(m.nbytes, 32u);
  EXPECT_EQ(m.device, tack::cpu());
  std::weak_ptr<void> watch = m.keep_alive;
  a = tack::zeros<float>(1);
  EXPECT_FALSE(watch.expired());  // the export keeps the allocation alive
  m.keep_alive.reset();
  EXPECT_TRUE(watch.expired());
  auto b = tack::zeros<float>(8);
  EXPECT_THROW_MSG(b.rows(2, 4).export_memory(), tack::value_error, "export_memory", "view",
                   "rows [2, 4) of 8");
}

TEST(Array, ExportedMemoryRefusesReallocation) {
  // Growth that needs a new block would free the memory the token points to: refused, with the
  // operation, the array and the number of live exports named, and nothing changed.
  auto a = tack::array_from({1.0, 2.0, 3.0});
  a.reserve(4);
  auto m = a.export_memory();
  a.push_back(4.0);  // within capacity: the exported block stays the array's
  EXPECT_EQ(a.data(), m.data);
  EXPECT_THROW_MSG(a.push_back(5.0), tack::value_error, "tack::array::push_back",
                   "array<f64, 1> shape (4)", "exported (1 keep-alive",
                   "reserve() the capacity before exporting");
  EXPECT_THROW_MSG(a.reserve(100), tack::value_error, "tack::array::reserve", "exported");
  a.resize(2);
  EXPECT_THROW_MSG(a.shrink(), tack::value_error, "tack::array::shrink", "exported");
  auto second = a.export_memory();
  EXPECT_THROW_MSG(a.resize(50), tack::value_error, "tack::array::resize",
                   "exported (2 keep-alive");
  EXPECT_EQ(a.to_vector(), (std::vector<double>{1.0, 2.0}));  // nothing lost
  EXPECT_EQ(a.data(), m.data);
  EXPECT_EQ(static_cast<const double*>(m.data)[1], 2.0);
  m.keep_alive.reset();
  second.keep_alive.reset();
  a.resize(50, 7.0);  // released: growth works again
  EXPECT_EQ(a.size(), 50);
  EXPECT_EQ(a(1), 2.0);
  EXPECT_EQ(a(49), 7.0);
}

TEST(Array, FixedMemorySpace) {
  tack::array<float, 1, tack::memory_space::host> h;
  h.push_back(1.0f);
  EXPECT_EQ(h.size(), 1);
  auto dyn = tack::zeros<float>(3);
  tack::array<float, 1, tack::memory_space::host> fixed(dyn);  // checked: host memory
  fixed(0) = 2;
  EXPECT_EQ(dyn(0), 2);
  using device_array = tack::array<float, 1, tack::memory_space::device>;
  EXPECT_THROW_MSG(device_array{dyn}, tack::value_error, "device", "host");
}

TEST(Array, BoolArrays) {
  auto flags = tack::zeros<bool>(3);
  flags(1) = true;
  EXPECT_EQ(flags.to_vector(), (std::vector<bool>{false, true, false}));
  EXPECT_EQ(tack::to_string(flags), "[false, true, false]");
}

TEST(Array, LargeThreadedCopiesIntoUnalignedViews) {
  // Above the streaming and threading thresholds, into views that start off a 64-byte boundary:
  // every byte must be written, the first piece included.
  const index_t n = (index_t{3} << 20) + 7;
  auto a = tack::zeros<double>(n);
  auto v = a.rows(1, n);
  v.fill(2.5);
  EXPECT_EQ(a(0), 0.0);
  EXPECT_EQ(a(1), 2.5);
  EXPECT_EQ(a(2), 2.5);
  EXPECT_EQ(a(n - 1), 2.5);
  auto src = tack::full(n - 1, 4.0);
  tack::copyto(v, src);
  EXPECT_EQ(a(0), 0.0);
  EXPECT_EQ(a(1), 4.0);
  EXPECT_EQ(a(n - 1), 4.0);
  auto bytes = tack::zeros<std::int8_t>(n);
  bytes.rows(3, n).fill(9);
  EXPECT_EQ(bytes(2), 0);
  EXPECT_EQ(bytes(3), 9);
  EXPECT_EQ(bytes(4), 9);
}
