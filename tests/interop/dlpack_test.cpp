// SPDX-License-Identifier: BSD-3-Clause
// DLPack interop (docs/interop.md): export, import, round trips, lifetimes and every refusal.
#include <tack/array/factories.hpp>
#include <tack/array/soa.hpp>
#include <tack/interop/dlpack.hpp>
#include <tack/types/mat.hpp>
#include <tack/types/vec.hpp>

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <memory>
#include <optional>
#include <vector>

#include "common/tack_test.hpp"

namespace dl = tack::dlpack;
using mat23f = tack::mat<float, 2, 3>;

namespace {

// ---- a hand-written producer, with a counting deleter ------------------------------------------

struct producer_ctx {
  std::vector<unsigned char> bytes;
  std::vector<std::int64_t> shape, strides;
  int* deletes = nullptr;
};

template <class M>
void producer_delete(M* m) {
  auto* c = static_cast<producer_ctx*>(m->manager_ctx);
  ++*c->deletes;
  delete c;
  delete m;
}

struct tensor_spec {
  std::vector<std::int64_t> shape;
  std::optional<std::vector<std::int64_t>> strides{};  // none: null strides
  dl::DLDataType dtype{dl::kDLFloat, 32, 1};
  std::uint64_t flags = 0;
  std::uint64_t byte_offset = 0;  // that many padding bytes precede the values
  dl::DLDevice device{dl::kDLCPU, 0};
  std::uint32_t major = 1;
};

// A producer's tensor over a copy of `values` (raw bytes of any scalar type).
template <class M = dl::DLManagedTensorVersioned, class S>
M* make_tensor(const std::vector<S>& values, const tensor_spec& spec, int* deletes) {
  auto* c = new producer_ctx;
  c->deletes = deletes;
  c->bytes.resize(spec.byte_offset + values.size() * sizeof(S) + 1);
  if (!values.empty()) {
    std::memcpy(c->bytes.data() + spec.byte_offset, values.data(), values.size() * sizeof(S));
  }
  c->shape = spec.shape;
  auto* m = new M{};
  m->manager_ctx = c;
  m->deleter = &producer_delete<M>;
  if constexpr (std::is_same_v<M, dl::DLManagedTensorVersioned>) {
    m->version = {spec.major, 0};
    m->flags = spec.flags;
  }
  dl::DLTensor& t = m->dl_tensor;
  t.data = c->bytes.data();
  t.byte_offset = spec.byte_offset;
  t.device = spec.device;
  t.ndim = static_cast<std::int32_t>(spec.shape.size());
  t.dtype = spec.dtype;
  t.shape = c->shape.data();
  if (spec.strides) {
    c->strides = *spec.strides;
    t.strides = c->strides.data();
  }
  return m;
}

template <class M>
std::vector<std::int64_t> shape_of(const M* t) {
  return {t->dl_tensor.shape, t->dl_tensor.shape + t->dl_tensor.ndim};
}
template <class M>
std::vector<std::int64_t> strides_of(const M* t) {
  return {t->dl_tensor.strides, t->dl_tensor.strides + t->dl_tensor.ndim};
}
template <class S, class M>
const S* first_of(const M* t) {
  return reinterpret_cast<const S*>(static_cast<const unsigned char*>(t->dl_tensor.data) +
                                    t->dl_tensor.byte_offset);
}
using shp = std::vector<std::int64_t>;

// A keep-alive owner whose release is counted: lets a test see when borrowed memory is let go.
std::shared_ptr<void> counting_owner(int* releases) {
  return std::shared_ptr<void>(new int(0), [releases](void* p) {
    ++*releases;
    delete static_cast<int*>(p);
  });
}

}  // namespace

// ---- export ------------------------------------------------------------------------------------

TEST(DLPackExport, ScalarRank1) {
  auto a = tack::array_from<float>({1, 2, 3, 4});
  auto* t = tack::to_dlpack(a);
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(t->version.major, 1u);
  EXPECT_EQ(t->flags, 0u);
  EXPECT_EQ(t->dl_tensor.ndim, 1);
  EXPECT_EQ(shape_of(t), (shp{4}));
  EXPECT_EQ(strides_of(t), (shp{1}));
  EXPECT_EQ(t->dl_tensor.dtype.code, dl::kDLFloat);
  EXPECT_EQ(t->dl_tensor.dtype.bits, 32);
  EXPECT_EQ(t->dl_tensor.dtype.lanes, 1);
  EXPECT_EQ(t->dl_tensor.device.device_type, dl::kDLCPU);
  EXPECT_EQ(t->dl_tensor.device.device_id, 0);
  EXPECT_EQ(t->dl_tensor.data, a.data());
  EXPECT_EQ(t->dl_tensor.byte_offset, 0u);
  EXPECT_EQ(first_of<float>(t)[3], 4.0f);
  a(1) = 20;  // zero-copy: the tensor sees writes
  EXPECT_EQ(first_of<float>(t)[1], 20.0f);
  t->deleter(t);
}

TEST(DLPackExport, DtypesAndRanks) {
  auto check = [](auto a, std::uint8_t code, std::uint8_t bits, shp shape, shp strides) {
    auto* t = tack::to_dlpack(a);
    EXPECT_EQ(t->dl_tensor.dtype.code, code) << a.describe();
    EXPECT_EQ(t->dl_tensor.dtype.bits, bits) << a.describe();
    EXPECT_EQ(shape_of(t), shape) << a.describe();
    EXPECT_EQ(strides_of(t), strides) << a.describe();
    t->deleter(t);
  };
  check(tack::zeros<double>({2, 3}), dl::kDLFloat, 64, {2, 3}, {3, 1});
  check(tack::zeros<std::int32_t>({2, 3, 4}), dl::kDLInt, 32, {2, 3, 4}, {12, 4, 1});
  check(tack::zeros<std::uint8_t>({5}), dl::kDLUInt, 8, {5}, {1});
  check(tack::zeros<std::int64_t>({5, 1}), dl::kDLInt, 64, {5, 1}, {1, 1});
  check(tack::zeros<std::uint16_t>({2}), dl::kDLUInt, 16, {2}, {1});
  check(tack::zeros<bool>({3}), dl::kDLBool, 8, {3}, {1});
  check(tack::zeros<tack::vec3f>({5}), dl::kDLFloat, 32, {5, 3}, {3, 1});
  check(tack::zeros<tack::vec3f>({4, 2}), dl::kDLFloat, 32, {4, 2, 3}, {6, 3, 1});
  check(tack::zeros<mat23f>({5}), dl::kDLFloat, 32, {5, 2, 3}, {6, 3, 1});
  check(tack::zeros<tack::mat3d>({2, 2}), dl::kDLFloat, 64, {2, 2, 3, 3}, {18, 9, 3, 1});
}

TEST(DLPackExport, VectorComponentsAreTrailingDimension) {
  auto a = tack::array_from<tack::vec3f>({{1, 2, 3}, {4, 5, 6}});
  auto* t = tack::to_dlpack(a);
  const float* p = first_of<float>(t);
  EXPECT_EQ(p[0 * 3 + 2], 3.0f);
  EXPECT_EQ(p[1 * 3 + 0], 4.0f);
  t->deleter(t);
}

TEST(DLPackExport, ViewExportsRootBaseAndByteOffset) {
  auto a = tack::empty<float>({6, 3});
  for (int i = 0; i < 6; ++i)
    for (int j = 0; j < 3; ++j) a(i, j) = static_cast<float>(10 * i + j);
  auto v = a.rows(2, 4);
  auto* t = tack::to_dlpack(v);
  EXPECT_EQ(t->dl_tensor.data, a.data());  // the root's allocation
  EXPECT_EQ(t->dl_tensor.byte_offset, 2u * 3u * sizeof(float));
  EXPECT_EQ(shape_of(t), (shp{2, 3}));
  EXPECT_EQ(strides_of(t), (shp{3, 1}));
  const float* p = first_of<float>(t);
  EXPECT_EQ(p[0], 20.0f);
  EXPECT_EQ(p[5], 32.0f);  // row 3, column 2
  t->deleter(t);

  auto pts = tack::array_from<tack::vec3f>({{0, 0, 0}, {1, 1, 1}, {2, 2, 2}, {3, 3, 3}});
  auto* tv = tack::to_dlpack(pts.rows(1, 3).rows(1, 2));  // a view of a view: one row, row 2
  EXPECT_EQ(tv->dl_tensor.byte_offset, 2u * sizeof(tack::vec3f));
  EXPECT_EQ(shape_of(tv), (shp{1, 3}));
  EXPECT_EQ(first_of<float>(tv)[0], 2.0f);
  tv->deleter(tv);
}

// The stream codes of the DLPack protocol are checked before any GPU call: CUDA's (1, 2, handles;
// 0 refused) and ROCm's (0, handles; 1 and 2 refused), -1 for none, host memory takes none.
TEST(DLPackExport, StreamCodesAreCheckedPerDeviceType) {
  using tack::detail::dlpack_hand_over;
  const dl::DLDevice cuda{dl::kDLCUDA, 0}, rocm{dl::kDLROCM, 0}, host{dl::kDLCPU, 0};
  EXPECT_THROW_MSG(dlpack_hand_over(cuda, 0, "op"), tack::value_error, "op", "stream 0",
                   "not a CUDA stream", "legacy default stream");
  EXPECT_THROW_MSG(dlpack_hand_over(rocm, 1, "op"), tack::value_error, "op", "stream 1",
                   "not a ROCm stream", "0 (the default stream)", "hipStream_t");
  EXPECT_THROW_MSG(dlpack_hand_over(rocm, 2, "op"), tack::value_error, "stream 2", "ROCm");
  EXPECT_THROW_MSG(dlpack_hand_over(rocm, -5, "op"), tack::value_error, "stream -5");
  EXPECT_THROW_MSG(dlpack_hand_over(host, 0, "op"), tack::value_error, "kDLCPU", "pass none");
  dlpack_hand_over(rocm, -1, "op");  // no synchronization asked: nothing to do
  dlpack_hand_over(cuda, -1, "op");
  dlpack_hand_over({dl::kDLROCMHost, 0}, std::nullopt, "op");  // pinned memory: no stream
  EXPECT_EQ(tack::dlpack_consumer_stream(tack::hip(0)), std::optional<std::intptr_t>(0));
  EXPECT_EQ(tack::dlpack_consumer_stream(tack::cuda(0)), std::optional<std::intptr_t>(1));
  EXPECT_EQ(tack::detail::dlpack_device_type_string(dl::kDLROCM), "kDLROCM");
  EXPECT_EQ(tack::detail::dlpack_device_type_string(dl::kDLROCMHost), "kDLROCMHost");
}

TEST(DLPackExport, ReadOnly) {
  auto a = tack::zeros<float>({3});
  auto* w = tack::to_dlpack(a);
  EXPECT_EQ(w->flags & dl::DLPACK_FLAG_BITMASK_READ_ONLY, 0u);
  EXPECT_EQ(w->flags & dl::DLPACK_FLAG_BITMASK_IS_COPIED, 0u);  // zero-copy
  w->deleter(w);

  auto* c = tack::to_dlpack(a.as_const());  // a read-only handle
  EXPECT_EQ(c->flags, dl::DLPACK_FLAG_BITMASK_READ_ONLY);
  c->deleter(c);

  std::vector<float> mem{1, 2, 3};
  auto borrowed = tack::from_ptr(mem.data(), {3});  // read-only memory, mutable handle type
  ASSERT_TRUE(borrowed.read_only());
  auto* r = tack::to_dlpack(borrowed);
  EXPECT_EQ(r->flags, dl::DLPACK_FLAG_BITMASK_READ_ONLY);
  r->deleter(r);

  EXPECT_THROW_MSG(tack::to_dlpack_legacy(borrowed), tack::read_only_error,
                   "tack::to_dlpack_legacy", borrowed.describe(), "read-only", "tack::to_dlpack");
  EXPECT_THROW_MSG(tack::to_dlpack_legacy(a.as_const()), tack::read_only_error,
                   "tack::to_dlpack_legacy", "read-only");
}

TEST(DLPackExport, Legacy) {
  auto a = tack::array_from<std::int32_t>({{1, 2}, {3, 4}, {5, 6}});
  auto* t = tack::to_dlpack_legacy(a.rows(1, 3));
  EXPECT_EQ(t->dl_tensor.data, a.data());
  EXPECT_EQ(t->dl_tensor.byte_offset, 2u * sizeof(std::int32_t));
  EXPECT_EQ(shape_of(t), (shp{2, 2}));
  EXPECT_EQ(strides_of(t), (shp{2, 1}));
  EXPECT_EQ(t->dl_tensor.dtype.code, dl::kDLInt);
  EXPECT_EQ(first_of<std::int32_t>(t)[0], 3);
  t->deleter(t);
}

TEST(DLPackExport, TensorKeepsArrayAliveUntilDeleter) {
  int releases = 0;
  std::vector<double> mem{1.5, 2.5, 3.5};
  std::optional<tack::array<double>> a =
      tack::from_ptr(mem.data(), {3}, {.writable = true, .owner = counting_owner(&releases)});
  auto* t = tack::to_dlpack(a->rows(1, 3));
  a.reset();  // every tack handle gone
  EXPECT_EQ(releases, 0);
  EXPECT_EQ(first_of<double>(t)[1], 3.5);
  t->deleter(t);
  EXPECT_EQ(releases, 1);  // released exactly once, by the deleter

  // An owning root: its storage dies with the deleter, not before.
  std::weak_ptr<void> storage;
  auto* t2 = [&] {
    auto b = tack::full({4}, 7.0f);
    storage = b.export_memory().keep_alive;
    return tack::to_dlpack(b);
  }();
  EXPECT_FALSE(storage.expired());
  EXPECT_EQ(first_of<float>(t2)[3], 7.0f);
  t2->deleter(t2);
  EXPECT_TRUE(storage.expired());
}

TEST(DLPackExport, LiveTensorRefusesReallocationOfItsRoot) {
  // The tensor points into the root's block (a view's tensor too): growth that needs a new block
  // waits for the consumer's deleter; growth within capacity does not.
  auto a = tack::zeros<float>({4}, {.capacity = 5});
  auto* t = tack::to_dlpack(a.rows(1, 3));
  a.push_back(1.0f);
  EXPECT_THROW_MSG(a.push_back(2.0f), tack::value_error, "tack::array::push_back", "exported",
                   "DLPack");
  EXPECT_EQ(a.size(), 5);
  EXPECT_EQ(first_of<float>(t), a.data() + 1);
  t->deleter(t);
  a.push_back(2.0f);
  EXPECT_EQ(a.size(), 6);
}

TEST(DLPackExport, EmptyArrays) {
  auto* t = tack::to_dlpack(tack::zeros<float>({0}));
  EXPECT_EQ(shape_of(t), (shp{0}));
  EXPECT_EQ(strides_of(t), (shp{1}));
  t->deleter(t);
  auto* v = tack::to_dlpack(tack::zeros<tack::vec3f>({0}));
  EXPECT_EQ(shape_of(v), (shp{0, 3}));
  v->deleter(v);
  auto a = tack::zeros<float>({4, 2});
  auto* e = tack::to_dlpack(a.rows(2, 2));
  EXPECT_EQ(shape_of(e), (shp{0, 2}));
  e->deleter(e);
}

TEST(DLPackExport, SoaIsRefused) {
  auto a = tack::zeros<tack::vec3f>({4}, {.layout = tack::layout::soa});
  EXPECT_THROW_MSG(tack::to_dlpack(a), tack::value_error, "tack::to_dlpack", a.describe(),
                   "no single tensor describes a structure-of-arrays layout", "a.components()",
                   "tack::layout::aos");
  EXPECT_THROW_MSG(tack::to_dlpack_legacy(a), tack::value_error, "tack::to_dlpack_legacy",
                   "structure-of-arrays");
  // The suggested ways out work.
  auto* c = tack::to_dlpack(a.components()[1]);
  EXPECT_EQ(shape_of(c), (shp{4}));
  c->deleter(c);
  auto* aos = tack::to_dlpack(a.copy({.layout = tack::layout::aos}));
  EXPECT_EQ(shape_of(aos), (shp{4, 3}));
  aos->deleter(aos);
}

TEST(DLPackExport, MovedFromAndVanishedViewsAreRefused) {
  auto a = tack::zeros<float>({4});
  auto b = std::move(a);
  EXPECT_THROW_MSG(tack::to_dlpack(a), tack::value_error, "tack::to_dlpack", "moved from");
  auto tail = b.rows(2, 4);
  b.resize(1);  // the view's rows no longer exist
  EXPECT_THROW_MSG(tack::to_dlpack(tail), tack::index_error, "no longer exists");
}

TEST(DLPackExport, DeviceMemoryIsCuda) {
  auto a = tack::empty<float>(3, {.allocator = tack::test::fake_device_allocator()});
  auto* t = tack::to_dlpack(a);
  EXPECT_EQ(t->dl_tensor.device.device_type, dl::kDLCUDA);
  EXPECT_EQ(t->dl_tensor.device.device_id, 0);
  t->deleter(t);
}

// ---- round trips ---------------------------------------------------------------------------------

template <class T, int R>
void round_trip(const tack::array<T, R>& a) {
  auto* t = tack::to_dlpack(a);
  auto b = tack::from_dlpack<T, R>(t);
  EXPECT_EQ(b.shape(), a.shape()) << a.describe();
  EXPECT_EQ(b.to_vector(), a.to_vector()) << a.describe();
  EXPECT_EQ(static_cast<const void*>(b.as_const().data()),
            static_cast<const void*>(a.as_const().data()))
      << "zero-copy: " << a.describe();
  EXPECT_FALSE(b.read_only());
  auto* legacy = tack::to_dlpack_legacy(a);
  auto c = tack::from_dlpack<T, R>(legacy);
  EXPECT_EQ(c.to_vector(), a.to_vector()) << a.describe();
  EXPECT_TRUE(c.read_only()) << "the legacy struct cannot say writable: " << a.describe();
}

TEST(DLPackRoundTrip, Types) {
  round_trip(tack::array_from<float>({1.5f, -2, 3}));
  round_trip(tack::array_from<double>({{1, 2, 3}, {4, 5, 6}}));
  round_trip(tack::array_from<std::int32_t>({7, -8, 9}).reshape<3>({1, 3, 1}));
  round_trip(tack::array_from<std::uint8_t>({0, 255, 7}));
  round_trip(tack::array_from<std::int64_t>({{1LL << 40, -3}}));
  round_trip(tack::array_from<bool>({true, false, true}));
  round_trip(tack::array_from<tack::vec3f>({{1, 2, 3}, {4, 5, 6}}));
  round_trip(tack::array_from<tack::vec3f>({{1, 2, 3}, {4, 5, 6}}).reshape<2>({1, 2}));
  auto m = tack::empty<mat23f>({2});
  m(0) = mat23f{{1, 2, 3}, {4, 5, 6}};
  m(1) = mat23f{{7, 8, 9}, {10, 11, 12}};
  round_trip(m);
}

TEST(DLPackRoundTrip, ViewsWithOffsets) {
  auto a = tack::array_from<float>({{0, 1}, {2, 3}, {4, 5}, {6, 7}});
  auto v = a.rows(1, 3);
  round_trip(v);
  auto b = tack::from_dlpack<float, 2>(tack::to_dlpack(v));
  b(0, 0) = 42;  // the same memory
  EXPECT_EQ(a(1, 0), 42.0f);
}

TEST(DLPackRoundTrip, ReadOnlyStaysReadOnly) {
  std::vector<float> mem{1, 2, 3};
  auto ro = tack::from_ptr(mem.data(), {3});
  auto b = tack::from_dlpack<float>(tack::to_dlpack(ro));
  EXPECT_TRUE(b.read_only());
  EXPECT_THROW_MSG(b(0) = 5, tack::read_only_error, "read-only");
  EXPECT_EQ(b.as_const()(2), 3.0f);
  auto* again = tack::to_dlpack(b);  // and exported again, still read-only
  EXPECT_EQ(again->flags, dl::DLPACK_FLAG_BITMASK_READ_ONLY);
  again->deleter(again);

  auto c = tack::from_dlpack<float>(tack::to_dlpack(tack::zeros<float>({2}).as_const()));
  EXPECT_TRUE(c.read_only());
}

TEST(DLPackRoundTrip, ImportedArrayKeepsExportedRootAlive) {
  std::weak_ptr<void> storage;
  std::optional<tack::array<float>> imported;
  {
    auto a = tack::full({5}, 2.0f);
    storage = a.export_memory().keep_alive;
    imported = tack::from_dlpack<float>(tack::to_dlpack(a.rows(1, 4)));
  }
  EXPECT_FALSE(storage.expired());
  EXPECT_EQ(imported->to_vector(), (std::vector<float>{2, 2, 2}));
  imported.reset();
  EXPECT_TRUE(storage.expired());
}

// ---- import --------------------------------------------------------------------------------------

TEST(DLPackImport, TypedVectorConsumesTrailingDimension) {
  int deletes = 0;
  auto* t = make_tensor(std::vector<float>{1, 2, 3, 4, 5, 6}, {.shape = {2, 3}}, &deletes);
  {
    auto a = tack::from_dlpack<tack::vec3f, 1>(t);
    EXPECT_EQ(a.shape(), (std::array<tack::index_t, 1>{2}));
    EXPECT_EQ(a(1), (tack::vec3f{4, 5, 6}));
    EXPECT_FALSE(a.read_only());
    a(0) = {9, 9, 9};  // writable
    EXPECT_EQ(first_of<float>(t)[2], 9.0f);
    EXPECT_EQ(deletes, 0);
  }
  EXPECT_EQ(deletes, 1);

  auto* m = make_tensor(std::vector<float>{1, 2, 3, 4, 5, 6}, {.shape = {1, 2, 3}}, &deletes);
  auto b = tack::from_dlpack<mat23f>(m);
  EXPECT_EQ(b(0)(1, 2), 6.0f);

  auto* r3 = make_tensor(std::vector<std::int16_t>{1, 2, 3, 4, 5, 6},
                         {.shape = {1, 2, 3}, .dtype = {dl::kDLInt, 16, 1}}, &deletes);
  auto c = tack::from_dlpack<std::int16_t, 3>(r3);
  EXPECT_EQ(c(0, 1, 0), 4);
}

TEST(DLPackImport, StridesAndByteOffset) {
  int deletes = 0;
  // Explicit compact strides, an extent of 1 with an arbitrary stride, and a byte offset.
  auto* t = make_tensor(std::vector<double>{1, 2, 3, 4, 5, 6},
                        {.shape = {2, 1, 3},
                         .strides = shp{3, 99, 1},
                         .dtype = {dl::kDLFloat, 64, 1},
                         .byte_offset = 16},
                        &deletes);
  auto a = tack::from_dlpack<double, 3>(t);
  EXPECT_EQ(a(1, 0, 2), 6.0);
  EXPECT_EQ(a(0, 0, 0), 1.0);
}

TEST(DLPackImport, DeleterRunsOnceWhenLastHandleDies) {
  int deletes = 0;
  auto* t = make_tensor(std::vector<float>{1, 2, 3, 4}, {.shape = {4}}, &deletes);
  std::optional<tack::array<float>> root = tack::from_dlpack<float>(t);
  std::optional<tack::array<float>> view = root->rows(1, 3);
  auto copy = *root;
  root.reset();
  copy = tack::zeros<float>({1});
  EXPECT_EQ(deletes, 0);  // the view still holds the memory
  EXPECT_EQ(view->to_vector(), (std::vector<float>{2, 3}));
  view.reset();
  EXPECT_EQ(deletes, 1);

  auto* legacy =
      make_tensor<dl::DLManagedTensor>(std::vector<float>{1, 2}, {.shape = {2}}, &deletes);
  {
    // The legacy struct has no flag: read-only unless the caller says the producer allows writes.
    auto a = tack::from_dlpack<float>(legacy);
    EXPECT_TRUE(a.read_only());
    EXPECT_THROW_MSG(a.fill(3.0f), tack::read_only_error, "read-only");
    EXPECT_EQ(a.to_vector(), (std::vector<float>{1, 2}));
    auto copy = a.copy();  // a copy is the caller's own
    EXPECT_FALSE(copy.read_only());
    tack::any_array any = a;
  }
  EXPECT_EQ(deletes, 2);
  auto* writable =
      make_tensor<dl::DLManagedTensor>(std::vector<float>{1, 2}, {.shape = {2}}, &deletes);
  {
    auto a = tack::from_dlpack<float>(writable, tack::legacy_access::writable);
    EXPECT_FALSE(a.read_only());
    a(0) = 3;
    EXPECT_EQ(a.to_vector(), (std::vector<float>{3, 2}));
  }
  EXPECT_EQ(deletes, 3);
  auto* untyped =
      make_tensor<dl::DLManagedTensor>(std::vector<float>{1, 2}, {.shape = {2}}, &deletes);
  EXPECT_TRUE((tack::from_dlpack(untyped).as<float, 1>().read_only()));
  auto* untyped_writable =
      make_tensor<dl::DLManagedTensor>(std::vector<float>{1, 2}, {.shape = {2}}, &deletes);
  EXPECT_FALSE((tack::from_dlpack(untyped_writable, tack::legacy_access::writable)
                    .as<float, 1>()
                    .read_only()));
}

TEST(DLPackImport, ReadOnlyFlag) {
  int deletes = 0;
  auto* t = make_tensor(std::vector<float>{1, 2},
                        {.shape = {2}, .flags = dl::DLPACK_FLAG_BITMASK_READ_ONLY}, &deletes);
  {
    auto a = tack::from_dlpack<float>(t);
    EXPECT_TRUE(a.read_only());
    EXPECT_THROW_MSG(a(0) = 1, tack::read_only_error, "read-only");
    EXPECT_THROW(a.fill(0), tack::read_only_error);
    EXPECT_EQ(a.as_const()(1), 2.0f);
  }
  EXPECT_EQ(deletes, 1);
  auto* w = make_tensor(std::vector<float>{1, 2}, {.shape = {2}}, &deletes);
  tack::array<const float> c = tack::from_dlpack<const float>(w);  // read-only handle type
  EXPECT_EQ(c(1), 2.0f);
}

TEST(DLPackImport, EmptyTensors) {
  int deletes = 0;
  auto* t = make_tensor(std::vector<float>{}, {.shape = {0, 3}, .strides = shp{0, 0}}, &deletes);
  t->dl_tensor.data = nullptr;
  {
    auto a = tack::from_dlpack<tack::vec3f>(t);
    EXPECT_EQ(a.size(), 0);
  }
  EXPECT_EQ(deletes, 1);
  auto* any = make_tensor(std::vector<std::int32_t>{},
                          {.shape = {2, 0}, .dtype = {dl::kDLInt, 32, 1}}, &deletes);
  auto b = tack::from_dlpack(any);
  EXPECT_EQ(b.shape(), (std::vector<tack::index_t>{2, 0}));
}

TEST(DLPackImport, AnyArray) {
  int deletes = 0;
  {
    auto* t = make_tensor(std::vector<float>{1, 2, 3, 4, 5, 6}, {.shape = {2, 3}}, &deletes);
    tack::any_array a = tack::from_dlpack(t);
    EXPECT_EQ(a.dtype(), tack::dtype_of<float>());  // never guessed as vec3f
    EXPECT_EQ(a.rank(), 2);
    EXPECT_EQ(a.shape(), (std::vector<tack::index_t>{2, 3}));
    auto typed = a.as<float, 2>();
    EXPECT_EQ(typed(1, 2), 6.0f);
    EXPECT_EQ(typed.as_elements<tack::vec3f>()(1), (tack::vec3f{4, 5, 6}));
  }
  EXPECT_EQ(deletes, 1);

  auto* i = make_tensor(std::vector<std::int64_t>{5, 6},
                        {.shape = {2}, .dtype = {dl::kDLInt, 64, 1}}, &deletes);
  EXPECT_EQ((tack::from_dlpack(i).as<std::int64_t, 1>()(1)), 6);
  auto* u = make_tensor(std::vector<std::uint32_t>{5},
                        {.shape = {1, 1, 1, 1}, .dtype = {dl::kDLUInt, 32, 1}}, &deletes);
  EXPECT_EQ(tack::from_dlpack(u).rank(), 4);
  auto* b = make_tensor(std::vector<std::uint8_t>{}, {.shape = {0}, .dtype = {dl::kDLBool, 8, 1}},
                        &deletes);
  EXPECT_EQ(tack::from_dlpack(b).dtype(), tack::dtype_of<bool>());
  auto* ro = make_tensor(
      std::vector<double>{1},
      {.shape = {1}, .dtype = {dl::kDLFloat, 64, 1}, .flags = dl::DLPACK_FLAG_BITMASK_READ_ONLY},
      &deletes);
  auto r = tack::from_dlpack(ro).as<double, 1>();
  EXPECT_TRUE(r.read_only());
  EXPECT_EQ(deletes, 4);  // every temporary any_array has let its tensor go; r holds the last
  r = tack::zeros<double>({1});
  EXPECT_EQ(deletes, 5);
  auto* l = make_tensor<dl::DLManagedTensor>(
      std::vector<std::uint8_t>{1, 2}, {.shape = {2}, .dtype = {dl::kDLUInt, 8, 1}}, &deletes);
  {
    const auto legacy = tack::from_dlpack(l).as<std::uint8_t, 1>();
    EXPECT_TRUE(legacy.read_only());  // the legacy struct cannot say writable
    EXPECT_EQ(legacy.as_const()(1), 2);
  }
  EXPECT_EQ(deletes, 6);
}

// ---- import refusals: the exception, its message, and the tensor released once -----------------

template <class Error, class M, class F>
void expect_refused(M* t, F&& import, std::initializer_list<std::string> fragments) {
  std::string what = tack::test::error_message<Error>([&] { import(t); });
  for (const auto& f : fragments) {
    EXPECT_NE(what.find(f), std::string::npos)
        << "message \"" << what << "\" lacks \"" << f << "\"";
  }
  EXPECT_NE(what, "(nothing thrown)");
}

TEST(DLPackImport, Refusals) {
  int deletes = 0;
  auto vec3 = [](auto* t) { (void)tack::from_dlpack<tack::vec3f, 1>(t); };
  auto f2 = [](auto* t) { (void)tack::from_dlpack<float, 2>(t); };
  auto any = [](auto* t) { (void)tack::from_dlpack(t); };
  std::vector<dl::DLManagedTensorVersioned*> refused;  // counted, never touched again
  auto keep = [&](dl::DLManagedTensorVersioned* t) {
    refused.push_back(t);
    return t;
  };
  const std::vector<float> six{1, 2, 3, 4, 5, 6};

  expect_refused<tack::value_error>(keep(make_tensor(six, {.shape = {3, 2}}, &deletes)), vec3,
                                    {"tack::from_dlpack<vec3(f32), 1>", "array<vec3(f32), 1>",
                                     "(n, 3)", "float32", "shape (3, 2)", "trailing extent"});
  expect_refused<tack::value_error>(
      keep(make_tensor(std::vector<double>{1, 2, 3},
                       {.shape = {1, 3}, .dtype = {dl::kDLFloat, 64, 1}}, &deletes)),
      vec3, {"tack::from_dlpack", "vec3(f32)", "float64", "element types differ"});
  expect_refused<tack::value_error>(
      keep(make_tensor(six, {.shape = {2, 3}, .dtype = {dl::kDLInt, 32, 1}}, &deletes)), vec3,
      {"tack::from_dlpack", "int32", "element types differ"});
  expect_refused<tack::value_error>(
      keep(make_tensor(six, {.shape = {2, 3}, .dtype = {dl::kDLFloat, 32, 2}}, &deletes)), vec3,
      {"tack::from_dlpack", "float32x2", "one lane"});
  expect_refused<tack::value_error>(keep(make_tensor(six, {.shape = {6}}, &deletes)), vec3,
                                    {"tack::from_dlpack", "shape (6)", "1 dimensions, not 2"});
  expect_refused<tack::value_error>(
      keep(make_tensor(six, {.shape = {2, 3}, .strides = shp{1, 2}}, &deletes)), f2,
      {"tack::from_dlpack<f32, 2>", "strides (1, 2)", "not row-major compact", "contiguous"});
  expect_refused<tack::value_error>(
      keep(make_tensor(six, {.shape = {3}, .strides = shp{2}}, &deletes)),
      [](auto* t) { (void)tack::from_dlpack<float>(t); }, {"stride 2", "not row-major compact"});
  expect_refused<tack::value_error>(keep(make_tensor(six, {.shape = {2, 3}, .major = 2}, &deletes)),
                                    f2, {"tack::from_dlpack", "DLPack version 2.0", "1.x"});
  expect_refused<tack::value_error>(keep(make_tensor(six, {.shape = {2, 3}, .major = 2}, &deletes)),
                                    any, {"tack::from_dlpack", "version 2.0"});
  expect_refused<tack::value_error>(keep(make_tensor(six, {.shape = {-2, 3}}, &deletes)), f2,
                                    {"tack::from_dlpack", "-2", "negative"});
  expect_refused<tack::value_error>(
      keep(make_tensor(six, {.shape = {5}, .byte_offset = 2}, &deletes)),
      [](auto* t) { (void)tack::from_dlpack<float>(t); },
      {"tack::from_dlpack", "byte_offset 2", "aligned"});
  expect_refused<tack::device_error>(
      keep(make_tensor(six, {.shape = {2, 3}, .device = {static_cast<dl::DLDeviceType>(4), 0}},
                       &deletes)),
      f2, {"tack::from_dlpack", "device type 4", "kDLCPU", "kDLROCM"});
#if !TACK_HAS_CUDA
  expect_refused<tack::device_error>(
      keep(make_tensor(six, {.shape = {2, 3}, .device = {dl::kDLCUDA, 1}}, &deletes)), f2,
      {"tack::from_dlpack", "kDLCUDA device 1", "without CUDA"});
#endif
#if !TACK_HAS_HIP
  expect_refused<tack::device_error>(
      keep(make_tensor(six, {.shape = {2, 3}, .device = {dl::kDLROCM, 1}}, &deletes)), f2,
      {"tack::from_dlpack", "kDLROCM device 1", "ROCm memory", "without HIP"});
#endif
  expect_refused<tack::value_error>(
      keep(make_tensor(six, {.shape = {6}, .dtype = {dl::kDLFloat, 16, 1}}, &deletes)), any,
      {"tack::from_dlpack", "float16", "element type tack does not have"});
  expect_refused<tack::value_error>(
      keep(make_tensor(six, {.shape = {6}, .dtype = {dl::kDLBfloat, 16, 1}}, &deletes)), any,
      {"bfloat16"});
  expect_refused<tack::value_error>(keep(make_tensor(six, {.shape = {}}, &deletes)), any,
                                    {"tack::from_dlpack", "0 dimensions", "0-d"});
  expect_refused<tack::value_error>(
      keep(make_tensor(six, {.shape = {1, 1, 1, 1, 1, 1, 1, 1, 6}}, &deletes)), any,
      {"9 dimensions", "1 to 8"});

  // Null pointers of both kinds.
  EXPECT_THROW_MSG(tack::from_dlpack<float>(static_cast<dl::DLManagedTensorVersioned*>(nullptr)),
                   tack::value_error, "tack::from_dlpack<f32, 1>", "null");
  EXPECT_THROW_MSG(tack::from_dlpack<float>(static_cast<dl::DLManagedTensor*>(nullptr)),
                   tack::value_error, "tack::from_dlpack", "null");
  EXPECT_THROW_MSG(tack::from_dlpack(static_cast<dl::DLManagedTensor*>(nullptr)), tack::value_error,
                   "tack::from_dlpack", "null");

  // A refused import consumes the tensor all the same: each deleter ran exactly once.
  EXPECT_EQ(deletes, static_cast<int>(refused.size()));
}

TEST(DLPackImport, NullDataForNonEmptyTensor) {
  int deletes = 0;
  auto* t = make_tensor(std::vector<float>{1, 2}, {.shape = {2}}, &deletes);
  t->dl_tensor.data = nullptr;  // the producer's bytes are still freed by its deleter
  EXPECT_THROW_MSG(tack::from_dlpack<float>(t), tack::value_error, "tack::from_dlpack",
                   "data pointer is null");
  EXPECT_EQ(deletes, 1);  // consumed by the refused import

  // The legacy struct and the any-array import release refused tensors the same way.
  auto* legacy =
      make_tensor<dl::DLManagedTensor>(std::vector<float>{1, 2}, {.shape = {2}}, &deletes);
  EXPECT_THROW_MSG((tack::from_dlpack<tack::vec3f>(legacy)), tack::value_error,
                   "tack::from_dlpack");
  EXPECT_EQ(deletes, 2);
  auto* half = make_tensor(std::vector<std::uint16_t>{1},
                           {.shape = {1}, .dtype = {dl::kDLFloat, 16, 1}}, &deletes);
  EXPECT_THROW_MSG(tack::from_dlpack(half), tack::value_error, "float16");
  EXPECT_EQ(deletes, 3);
}
