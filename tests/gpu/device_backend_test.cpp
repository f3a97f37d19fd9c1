// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
// The device paths of arrays on every backend the build has: fills and zeros, copies across
// layouts, astype, copyto from implicit arrays, growth, host <-> device copies large enough to go
// through the pinned staging buffers, sort and sort_by_key (scalars, and any type with a
// comparator), DLPack streams. On the CPU backends the same calls run the host paths (the
// expected values are computed independently on the host); the GPU cases (cuda, hip) need a GPU and
// skip with a reason without one. Compiled by nvcc in CUDA builds and hipcc in HIP builds.

#include <tack/algorithms/sort.hpp>
#include <tack/array/copyto.hpp>
#include <tack/array/factories.hpp>
#include <tack/arrays/counting.hpp>
#include <tack/arrays/permutation.hpp>
#include <tack/arrays/transform.hpp>
#include <tack/exec/stream.hpp>
#include <tack/interop/dlpack.hpp>
#include <tack/types/mat.hpp>
#include <tack/types/vec.hpp>

#include <gtest/gtest.h>

#include "common/tack_test.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <numeric>
#include <optional>
#include <random>
#include <span>
#include <vector>

namespace {

using tack::index_t;
using tack::vec3d;
using tack::vec3f;

template <class B>
class device_paths : public tack::test::backend_test<B> {
protected:
  tack::device dev() const { return tack::test::device_of<B>(); }
  tack::options on(tack::layout l = tack::layout::aos) const {
    return {.device = dev(), .layout = l};
  }
  static constexpr bool gpu = tack::test::on_gpu<B>;

  // An array on this backend's device holding `values` (copied from the host).
  template <class T>
  tack::array<T> make(const std::vector<T>& values, tack::layout l = tack::layout::aos) const {
    auto a = tack::empty<T>(static_cast<index_t>(values.size()), on(l));
    tack::copyto(a, values);
    return a;
  }
};
TYPED_TEST_SUITE(device_paths, tack::test::backends, tack::test::backend_names);

std::vector<vec3f> sample_vec3f(index_t n) {
  std::vector<vec3f> v(static_cast<std::size_t>(n));
  for (index_t i = 0; i < n; ++i) {
    v[static_cast<std::size_t>(i)] = vec3f{float(i), float(-2 * i) + 0.5f, float(i % 7) * 0.25f};
  }
  return v;
}

// Bitwise equality: NaNs with the same bits, -0.0 distinct from +0.0.
template <class T>
bool same_bits(const std::vector<T>& a, const std::vector<T>& b) {
  return a.size() == b.size() &&
         (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0);
}

// ---- fills -------------------------------------------------------------------------------------

TYPED_TEST(device_paths, zeros_and_fill_reach_every_element_of_every_element_size) {
  const index_t n = 1000;
  auto z = tack::zeros<vec3f>(n, this->on());
  for (const auto& v : z.to_vector()) EXPECT_EQ(v, (vec3f{0, 0, 0}));

  z.fill(vec3f{1.5f, -2.0f, 3.0f});  // 12-byte pattern: three words per period
  for (const auto& v : z.to_vector()) EXPECT_EQ(v, (vec3f{1.5f, -2.0f, 3.0f}));

  // A fill of rows starting at an odd element: the destination is only 4-byte aligned.
  z.rows(3, 10).fill(vec3f{7, 8, 9});
  const auto got = z.to_vector();
  for (index_t i = 0; i < n; ++i) {
    const vec3f want = i >= 3 && i < 10 ? vec3f{7, 8, 9} : vec3f{1.5f, -2.0f, 3.0f};
    ASSERT_EQ(got[static_cast<std::size_t>(i)], want) << "element " << i;
  }

  auto bytes = tack::full<std::int8_t>(37, std::int8_t{-3}, this->on());
  for (auto b : bytes.to_vector()) EXPECT_EQ(b, -3);
  auto d = tack::full<double>(129, 0.1, this->on());
  for (auto x : d.to_vector()) EXPECT_EQ(x, 0.1);
  tack::mat3f m{};
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c) m(r, c) = float(3 * r + c);
  auto ms = tack::full<tack::mat3f>(33, m, this->on());  // 36-byte elements
  for (const auto& x : ms.to_vector()) EXPECT_EQ(x, m);
  auto soa = tack::zeros<vec3f>(50, this->on(tack::layout::soa));
  soa.fill(vec3f{1, 2, 3});
  for (const auto& v : soa.to_vector()) EXPECT_EQ(v, (vec3f{1, 2, 3}));
}

// ---- copies across layouts and types -------------------------------------------------------------

TYPED_TEST(device_paths, copies_between_layouts_keep_every_component) {
  const index_t n = 4099;
  const auto values = sample_vec3f(n);
  auto aos = this->make(values);
  auto soa = aos.copy({.layout = tack::layout::soa});
  EXPECT_EQ(soa.layout(), tack::layout::soa);
  EXPECT_EQ(soa.device(), this->dev());
  EXPECT_EQ(soa.to_vector(), values);
  auto back = tack::empty<vec3f>(n, this->on());
  tack::copyto(back, soa);
  EXPECT_EQ(back.to_vector(), values);

  // Between the host and the device, across layouts in both directions.
  auto host_aos = tack::empty<vec3f>(n);
  tack::copyto(host_aos, values);
  auto dev_soa = tack::empty<vec3f>(n, this->on(tack::layout::soa));
  tack::copyto(dev_soa, host_aos);
  EXPECT_EQ(dev_soa.to_vector(), values);
  auto host_soa = tack::empty<vec3f>(n, {.layout = tack::layout::soa});
  tack::copyto(host_soa, back);
  EXPECT_EQ(host_soa.to_vector(), values);

  // Row views: a window of the SoA copy into the middle of an AoS array.
  auto target = tack::zeros<vec3f>(n, this->on());
  tack::copyto(target.rows(100, 200), soa.rows(1000, 1100));
  const auto got = target.to_vector();
  for (index_t i = 0; i < n; ++i) {
    const vec3f want =
        i >= 100 && i < 200 ? values[static_cast<std::size_t>(i + 900)] : vec3f{0, 0, 0};
    ASSERT_EQ(got[static_cast<std::size_t>(i)], want) << "element " << i;
  }
}

TYPED_TEST(device_paths, astype_converts_as_on_the_host_saturating_and_keeping_the_layout) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const std::vector<double> values{-1e10, -128.5, -3.7, -0.0, 0.4, 126.9, 127.5, 1e10, nan};
  auto a = this->make(values);
  const auto bytes = a.template astype<std::int8_t>();
  EXPECT_EQ(bytes.device(), this->dev());
  EXPECT_EQ(bytes.to_vector(), (std::vector<std::int8_t>{-128, -128, -3, 0, 0, 126, 127, 127, 0}));
  const auto u = a.template astype<std::uint16_t>().to_vector();
  EXPECT_EQ(u, (std::vector<std::uint16_t>{0, 0, 0, 0, 0, 126, 127, 65535, 0}));

  const auto vf = sample_vec3f(517);
  auto soa = this->make(vf, tack::layout::soa);
  const auto vd = soa.template astype<double>();
  EXPECT_EQ(vd.layout(), tack::layout::soa);
  const auto got = vd.to_vector();
  ASSERT_EQ(got.size(), vf.size());
  for (std::size_t i = 0; i < vf.size(); ++i) {
    ASSERT_EQ(got[i], (vec3d{double(vf[i][0]), double(vf[i][1]), double(vf[i][2])})) << i;
  }
}

// ---- copyto from implicit arrays -----------------------------------------------------------------

struct square_plus_one {
  TACK_HOST_DEVICE double operator()(double x) const { return x * x + 1.0; }
};

TYPED_TEST(device_paths, copyto_from_an_implicit_array_runs_on_the_destinations_device) {
  const index_t n = 10007;
  auto out = tack::empty<double>(n, this->on());
  tack::copyto(
      out, tack::arrays::transform(tack::arrays::counting<double>(n, 1.0, 0.5), square_plus_one{}));
  const auto got = out.to_vector();
  for (index_t i = 0; i < n; ++i) {
    const double x = 1.0 + 0.5 * double(i);
    ASSERT_EQ(got[static_cast<std::size_t>(i)], x * x + 1.0) << i;
  }
  // The source reads the destination (a reversal through a permutation): NumPy's result, every
  // value read before any is written.
  std::vector<std::int64_t> reverse(static_cast<std::size_t>(n));
  for (index_t i = 0; i < n; ++i) reverse[static_cast<std::size_t>(i)] = n - 1 - i;
  auto order = this->make(reverse);
  tack::copyto(out, tack::arrays::permutation(order, out));
  const auto flipped = out.to_vector();
  for (index_t i = 0; i < n; ++i) {
    ASSERT_EQ(flipped[static_cast<std::size_t>(i)], got[static_cast<std::size_t>(n - 1 - i)]) << i;
  }
}

TYPED_TEST(device_paths, copyto_into_device_memory_refuses_a_source_on_another_device) {
  if constexpr (!TestFixture::gpu) {
    GTEST_SKIP() << "a source on another device needs a GPU backend";
  } else {
    auto out = tack::empty<double>(4, this->on());
    auto host = tack::zeros<double>(4);
    EXPECT_THROW_MSG(tack::copyto(out, tack::arrays::transform(host, square_plus_one{})),
                     tack::value_error, "tack::copyto", host.describe(), this->dev().str(),
                     "to_device");
  }
}

// ---- growth and large copies ---------------------------------------------------------------------

TYPED_TEST(device_paths, growth_and_insertion_keep_the_values_on_the_device) {
  std::vector<float> values(3000);
  std::iota(values.begin(), values.end(), 0.0f);
  auto a = this->make(values);
  a.resize(100000);       // a reallocation: the kept bytes move device to device
  a.insert(10, 3, 0.5f);  // a shift within the allocation (overlapping move)
  a.erase(0, 2);
  const auto got = a.to_vector();
  ASSERT_EQ(got.size(), 100001u);
  std::vector<float> want(values.begin() + 2, values.begin() + 10);
  want.insert(want.end(), 3, 0.5f);
  want.insert(want.end(), values.begin() + 10, values.end());
  for (std::size_t i = 0; i < want.size(); ++i) ASSERT_EQ(got[i], want[i]) << i;
}

TYPED_TEST(device_paths, large_copies_through_staging_in_both_directions) {
  // 9 MiB + 12 bytes of pageable host memory: above staging_plan::min_bytes, two full chunks
  // of the default 8 MiB chunk size would not fit, and the last chunk is short.
  const index_t n = (index_t{9} << 20) / 4 + 3;
  std::vector<float> values(static_cast<std::size_t>(n));
  for (index_t i = 0; i < n; ++i) values[static_cast<std::size_t>(i)] = float(i % 65521) * 0.5f;
  auto host = tack::empty<float>(n);
  tack::copyto(host, values);
  auto d = host.to_device(this->dev());
  EXPECT_EQ(d.device(), this->dev());
  auto back = d.to_device(tack::cpu());
  EXPECT_TRUE(same_bits(back.to_vector(), values));
  EXPECT_TRUE(same_bits(d.to_vector(), values));
}

// ---- sort ----------------------------------------------------------------------------------------

template <class T>
std::vector<T> host_sorted(std::vector<T> v) {
  std::stable_sort(v.begin(), v.end(), [](T a, T b) {
    if constexpr (std::is_floating_point_v<T>) {
      return a < b || (b != b && a == a);
    } else {
      return a < b;
    }
  });
  return v;
}

TYPED_TEST(device_paths, sort_orders_every_scalar_kind_with_nans_last) {
  std::mt19937 rng(7);
  std::vector<std::uint32_t> u(100003);
  for (auto& x : u) x = static_cast<std::uint32_t>(rng());
  auto du = this->make(u);
  tack::sort(du);
  EXPECT_EQ(du.to_vector(), host_sorted(u));

  std::vector<std::int8_t> s(999);
  for (auto& x : s) x = static_cast<std::int8_t>(rng());
  auto ds = this->make(s);
  tack::sort(ds);
  EXPECT_EQ(ds.to_vector(), host_sorted(s));

  std::vector<std::int64_t> l(5000);
  for (auto& x : l) x = static_cast<std::int64_t>(rng()) - (std::int64_t{1} << 31);
  auto dl = this->make(l);
  tack::sort(dl);
  EXPECT_EQ(dl.to_vector(), host_sorted(l));

  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  std::vector<float> f{3.5f, nan, -inf, 0.0f, -1.0f, nan, inf, -0.0f, 2.0f, 1e-40f, -1e-40f};
  for (int i = 0; i < 3000; ++i) f.push_back(float(static_cast<int>(rng() % 2001) - 1000) * 0.125f);
  auto df = this->make(f);
  tack::sort(df);
  const auto got = df.to_vector();
  const auto want = host_sorted(f);
  ASSERT_EQ(got.size(), want.size());
  for (std::size_t i = 0; i < got.size(); ++i) {
    if (std::isnan(want[i])) {
      EXPECT_TRUE(std::isnan(got[i])) << i;
    } else {
      EXPECT_EQ(got[i], want[i]) << i;  // -0.0 == +0.0: either order of the zeros is ascending
    }
  }

  std::vector<double> dv(777);
  for (auto& x : dv) x = std::ldexp(double(rng()), -20) - 2000.0;
  auto dd = this->make(dv);
  tack::sort(dd);
  EXPECT_EQ(dd.to_vector(), host_sorted(dv));

  const bool flags[] = {true, false, true, true, false, false, true};
  auto db = tack::empty<bool>(7, this->on());
  tack::copyto(db, std::span<const bool>(flags));
  tack::sort(db);
  EXPECT_EQ(db.to_vector(), (std::vector<bool>{false, false, false, true, true, true, true}));
}

TYPED_TEST(device_paths, sort_by_key_is_stable_and_moves_values_of_any_layout) {
  const index_t n = 20000;
  std::mt19937 rng(11);
  std::vector<float> keys(static_cast<std::size_t>(n));
  for (auto& k : keys) k = float(rng() % 50);  // many ties
  keys[5] = std::numeric_limits<float>::quiet_NaN();
  keys[17] = -0.0f;
  keys[18] = 0.0f;
  const auto values = sample_vec3f(n);
  std::vector<std::int64_t> order(static_cast<std::size_t>(n));
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](std::int64_t a, std::int64_t b) {
    const float x = keys[static_cast<std::size_t>(a)], y = keys[static_cast<std::size_t>(b)];
    return x < y || (y != y && x == x);
  });
  for (auto l : {tack::layout::aos, tack::layout::soa}) {
    auto dk = this->make(keys);
    auto dv = this->make(values, l);
    tack::sort_by_key(dk, dv);
    const auto got_keys = dk.to_vector();
    const auto got_values = dv.to_vector();
    for (index_t i = 0; i < n; ++i) {
      const auto from = static_cast<std::size_t>(order[static_cast<std::size_t>(i)]);
      const auto at = static_cast<std::size_t>(i);
      ASSERT_EQ(std::memcmp(&got_keys[at], &keys[from], sizeof(float)), 0) << "key " << i;
      ASSERT_EQ(got_values[at], values[from]) << "value " << i;
    }
  }
}

// sort(a, comp) / sort_by_key(keys, values, comp): the host paths on the CPU backends, the merge
// sort on the GPU; the comparators are functors callable on the device.
struct keyed_item {
  std::int32_t key;
  std::int32_t tag;  // tells equal keys apart: stability shows
  friend bool operator==(const keyed_item&, const keyed_item&) = default;
};
struct item_by_key {
  TACK_HOST_DEVICE bool operator()(const keyed_item& a, const keyed_item& b) const {
    return a.key < b.key;
  }
};
struct vec3f_lex_less {
  TACK_HOST_DEVICE bool operator()(const vec3f& a, const vec3f& b) const {
    for (int c = 0; c < 3; ++c) {
      if (a[c] < b[c]) return true;
      if (b[c] < a[c]) return false;
    }
    return false;
  }
};
[[maybe_unused]] bool int_greater(const int& a, const int& b) { return a > b; }

TYPED_TEST(device_paths, sort_with_a_comparator_is_stable_in_both_layouts) {
  std::mt19937 rng(5);
  std::vector<keyed_item> items(20011);
  for (std::size_t i = 0; i < items.size(); ++i) {
    items[i] = keyed_item{static_cast<std::int32_t>(rng() % 100), static_cast<std::int32_t>(i)};
  }
  auto di = this->make(items);
  tack::sort(di, item_by_key{});
  auto want = items;
  std::stable_sort(want.begin(), want.end(), item_by_key{});
  EXPECT_EQ(di.to_vector(), want);

  std::vector<vec3f> points(5003);
  for (auto& p : points) {
    p = vec3f{float(rng() % 4), float(rng() % 4), float(rng() % 4) * 0.5f};
  }
  auto sorted_points = points;
  std::stable_sort(sorted_points.begin(), sorted_points.end(), vec3f_lex_less{});
  for (auto l : {tack::layout::aos, tack::layout::soa}) {
    auto dp = this->make(points, l);
    tack::sort(dp, vec3f_lex_less{});
    EXPECT_EQ(dp.to_vector(), sorted_points) << "soa " << (l == tack::layout::soa);
    // sorting again changes nothing
    tack::sort(dp, vec3f_lex_less{});
    EXPECT_EQ(dp.to_vector(), sorted_points);
  }
}

TYPED_TEST(device_paths, sort_by_key_with_a_comparator_moves_values_of_any_layout) {
  const index_t n = 10007;
  std::mt19937 rng(13);
  std::vector<vec3f> keys(static_cast<std::size_t>(n));
  for (auto& k : keys) k = vec3f{float(rng() % 3), float(rng() % 3), float(rng() % 3)};
  std::vector<std::int64_t> order(keys.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](std::int64_t a, std::int64_t b) {
    return vec3f_lex_less{}(keys[static_cast<std::size_t>(a)], keys[static_cast<std::size_t>(b)]);
  });
  const auto values = sample_vec3f(n);
  for (auto kl : {tack::layout::aos, tack::layout::soa}) {
    for (auto vl : {tack::layout::aos, tack::layout::soa}) {
      auto dk = this->make(keys, kl);
      auto dv = this->make(values, vl);
      tack::sort_by_key(dk, dv, vec3f_lex_less{});
      const auto got_keys = dk.to_vector();
      const auto got_values = dv.to_vector();
      for (index_t i = 0; i < n; ++i) {
        const auto from = static_cast<std::size_t>(order[static_cast<std::size_t>(i)]);
        const auto at = static_cast<std::size_t>(i);
        ASSERT_EQ(got_keys[at], keys[from]) << "key " << i;
        ASSERT_EQ(got_values[at], values[from]) << "value " << i;
      }
    }
  }
  if constexpr (TestFixture::gpu) {
    // Keys in host memory and values on the GPU; a function pointer cannot run on the GPU.
    auto host_keys = tack::zeros<int>(4);
    auto device_values = tack::zeros<float>(4, this->on());
    EXPECT_THROW_MSG(tack::sort_by_key(host_keys, device_values, int_greater), tack::value_error,
                     "tack::sort_by_key", host_keys.describe(), device_values.describe(),
                     "one GPU");
    auto device_ints = tack::zeros<int>(4, this->on());
    EXPECT_THROW_MSG(tack::sort(device_ints, int_greater), tack::device_error, "tack::sort",
                     device_ints.describe(), "function pointer");
  }
}

// ---- DLPack streams ------------------------------------------------------------------------------

TYPED_TEST(device_paths, dlpack_export_honours_the_consumers_stream) {
  auto a = tack::zeros<float>(8, this->on());
  if constexpr (tack::test::on_hip<TypeParam>) {
    // ROCm's codes: 0 the default stream, > 2 a hipStream_t, -1 none; 1 and 2 are CUDA's.
    const tack::stream own(this->dev());
    for (std::intptr_t s : {std::intptr_t{0}, own.native(), std::intptr_t{-1}}) {
      auto* t = tack::to_dlpack(a, s);
      EXPECT_EQ(t->dl_tensor.device.device_type, tack::dlpack::kDLROCM);
      t->deleter(t);
    }
    auto* t = tack::to_dlpack(a, std::nullopt);
    t->deleter(t);
    EXPECT_THROW_MSG(tack::to_dlpack(a, 1), tack::value_error, "tack::to_dlpack", "stream 1",
                     "ROCm", "default stream");
    EXPECT_THROW_MSG(tack::to_dlpack(a, 2), tack::value_error, "stream 2");
    EXPECT_THROW_MSG(tack::to_dlpack(a, -7), tack::value_error, "stream -7");
    EXPECT_EQ(tack::dlpack_consumer_stream(this->dev()), std::optional<std::intptr_t>(0));
  } else if constexpr (TestFixture::gpu) {
    for (std::intptr_t s : {std::intptr_t{1}, std::intptr_t{2}, std::intptr_t{-1}}) {
      auto* t = tack::to_dlpack(a, s);
      EXPECT_EQ(t->dl_tensor.device.device_type, tack::dlpack::kDLCUDA);
      t->deleter(t);
    }
    auto* t = tack::to_dlpack(a, std::nullopt);
    t->deleter(t);
    EXPECT_THROW_MSG(tack::to_dlpack(a, 0), tack::value_error, "tack::to_dlpack", "stream 0",
                     "legacy default stream");
    EXPECT_THROW_MSG(tack::to_dlpack(a, -7), tack::value_error, "stream -7");
    EXPECT_EQ(tack::dlpack_consumer_stream(this->dev()), std::optional<std::intptr_t>(1));
  } else {
    auto* t = tack::to_dlpack(a, std::nullopt);
    EXPECT_EQ(t->dl_tensor.device.device_type, tack::dlpack::kDLCPU);
    t->deleter(t);
    EXPECT_THROW_MSG(tack::to_dlpack(a, 1), tack::value_error, "tack::to_dlpack", "stream 1",
                     "kDLCPU", "pass none");
    EXPECT_EQ(tack::dlpack_consumer_stream(this->dev()), std::nullopt);
  }
}

}  // namespace
