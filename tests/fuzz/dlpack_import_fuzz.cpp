// SPDX-License-Identifier: BSD-3-Clause
// libFuzzer target over DLPack import: each input describes one producer tensor (versioned or
// legacy struct, version, flags, dtype, ndim, shape, strides, byte_offset, device, null pointers)
// and the import it goes to (typed or any_array). Whatever happens, the producer's deleter must
// run exactly once, when the last handle of the import is gone, and an accepted import must
// describe memory inside the producer's buffer. Built where clang offers -fsanitize=fuzzer; `make
// test-sanitize` runs it for 60 s under ASan+UBSan, ctest for a few thousand inputs.
#include <tack/array/factories.hpp>
#include <tack/interop/dlpack.hpp>
#include <tack/types/mat.hpp>
#include <tack/types/vec.hpp>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace dl = tack::dlpack;

namespace {

// Reads the input front to back; past its end every read is 0.
struct input {
  const std::uint8_t* p;
  std::size_t n;
  template <class T>
  T take() {
    T v{};
    const std::size_t k = n < sizeof(T) ? n : sizeof(T);
    std::memcpy(&v, p, k);
    p += k;
    n -= k;
    return v;
  }
};

// The producer's memory: 4 KiB, 64-byte aligned. An accepted import must lie inside it.
alignas(64) unsigned char producer_bytes[4096];
int deletes = 0;

template <class M>
void count_delete(M* m) {
  ++deletes;
  delete m;
}

[[noreturn]] void fail(const char* what) {
  std::fprintf(stderr, "dlpack_import_fuzz: %s\n", what);
  std::abort();
}

// An extent: mostly small, sometimes 0, 1, negative or huge.
std::int64_t extent(input& in) {
  const auto kind = in.take<std::uint8_t>();
  switch (kind % 8) {
    case 0:
      return 0;
    case 1:
      return 1;
    case 2:
      return in.take<std::int64_t>();  // anything
    case 3:
      return std::int64_t{1} << (in.take<std::uint8_t>() % 63);
    case 4:
      return -static_cast<std::int64_t>(in.take<std::uint8_t>());
    default:
      return in.take<std::uint8_t>() % 9;
  }
}

// Reads the accepted array's values (it must lie in the producer's buffer) and makes a few
// handles of it, which all die before the caller checks the deleter count.
template <class A>
void use(const A& a) {
  const auto first = reinterpret_cast<std::uintptr_t>(a.size() ? a.view().data() : nullptr);
  const auto begin = reinterpret_cast<std::uintptr_t>(producer_bytes);
  if (a.size() > 0 && (first < begin || first + a.nbytes() > begin + sizeof producer_bytes)) {
    return;  // the producer claimed more memory than it has: the import cannot know
  }
  if (deletes != 0) fail("the deleter ran while the import is alive");
  auto copy = a;
  auto values = copy.to_vector();
  (void)values;
  if (a.extent(0) > 1) (void)a.rows(1, a.extent(0)).to_vector();
  (void)tack::array_equal(a, copy);
}

template <class T, int R, class M>
void typed(M* m) {
  try {
    auto a = tack::from_dlpack<T, R>(m);
    use(a.as_const());
  } catch (const tack::error&) {
  }
}

template <class M>
void any(M* m) {
  try {
    tack::any_array a = tack::from_dlpack(m);
    if (a.has_value()) (void)a.describe();
    a.visit([](auto typed_array) { (void)typed_array.size(); });
  } catch (const tack::error&) {
  }
}

template <class M>
void import_one(M* m, std::uint8_t target) {
  switch (target % 10) {
    case 0:
      typed<float, 1>(m);
      break;
    case 1:
      typed<float, 2>(m);
      break;
    case 2:
      typed<tack::vec3f, 1>(m);
      break;
    case 3:
      typed<tack::mat2f, 1>(m);
      break;
    case 4:
      typed<const double, 3>(m);
      break;
    case 5:
      typed<std::int32_t, 1>(m);
      break;
    case 6:
      typed<bool, 2>(m);
      break;
    case 7:
      typed<std::uint8_t, 8>(m);
      break;
    default:
      any(m);
      break;
  }
}

template <class M>
void run(input& in) {
  const auto target = in.take<std::uint8_t>();
  const auto nulls = in.take<std::uint8_t>();  // bits: null shape, null strides, null data
  auto* m = new M{};
  m->deleter = &count_delete<M>;
  if constexpr (std::is_same_v<M, dl::DLManagedTensorVersioned>) {
    const auto v = in.take<std::uint8_t>();
    m->version = {v % 8 == 0 ? in.take<std::uint32_t>() : dl::major_version,
                  in.take<std::uint8_t>()};
    m->flags = in.take<std::uint8_t>();
  }
  dl::DLTensor& t = m->dl_tensor;
  const auto ndim_byte = in.take<std::uint8_t>();
  t.ndim = ndim_byte % 16 == 15 ? in.take<std::int32_t>()
                                : static_cast<std::int32_t>(ndim_byte % 11) - 1;
  // Error messages list up to 64 extents, so the lists hold 64; a larger ndim is refused before
  // any extent is read.
  std::int64_t shape[64]{};
  std::int64_t strides[64]{};
  const int listed = t.ndim < 0 ? 0 : (t.ndim > 64 ? 64 : t.ndim);
  for (int d = 0; d < listed; ++d) shape[d] = extent(in);
  const auto stride_kind = in.take<std::uint8_t>();
  // compact strides (the usual case) or arbitrary ones
  std::uint64_t s = 1;  // wraps, as a producer's arithmetic might
  for (int d = listed - 1; d >= 0; --d) {
    strides[d] = stride_kind % 3 == 0 ? in.take<std::int16_t>() : static_cast<std::int64_t>(s);
    s *= static_cast<std::uint64_t>(shape[d]);
  }
  t.shape = (nulls & 1) ? nullptr : shape;
  t.strides = (nulls & 2) ? nullptr : strides;
  const auto codes = in.take<std::uint8_t>();
  static constexpr std::uint8_t code_of[] = {
      dl::kDLInt, dl::kDLUInt, dl::kDLFloat, dl::kDLBool, dl::kDLBfloat, dl::kDLComplex, 3, 200};
  static constexpr std::uint8_t bits_of[] = {8, 16, 32, 64, 1, 0, 128, 24};
  t.dtype = {code_of[codes % 8], bits_of[(codes / 8) % 8],
             static_cast<std::uint16_t>(codes >= 192 ? in.take<std::uint8_t>() : 1)};
  const auto offset_kind = in.take<std::uint8_t>();
  t.byte_offset = offset_kind % 4 == 0 ? in.take<std::uint64_t>() : offset_kind % 64;
  t.data = (nulls & 4) ? nullptr : producer_bytes;
  const auto dev = in.take<std::uint8_t>();
  static constexpr std::int32_t device_of[] = {
      dl::kDLCPU,      dl::kDLCPU,  dl::kDLCPU,         dl::kDLCPU,
      dl::kDLCUDAHost, dl::kDLCUDA, dl::kDLCUDAManaged, 7};
  t.device = {static_cast<dl::DLDeviceType>(device_of[dev % 8]),
              static_cast<std::int32_t>(dev / 8) % 3};
  deletes = 0;
  import_one(m, target);
  if (deletes != 1) fail("the deleter did not run exactly once");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  input in{data, size};
  const auto kind = in.take<std::uint8_t>();
  if (kind % 16 == 15) {
    // a null tensor is refused, and there is no deleter to run
    try {
      (void)tack::from_dlpack<float, 1>(static_cast<dl::DLManagedTensorVersioned*>(nullptr));
      fail("a null tensor was accepted");
    } catch (const tack::value_error&) {
    }
    return 0;
  }
  if (kind % 2) {
    run<dl::DLManagedTensor>(in);
  } else {
    run<dl::DLManagedTensorVersioned>(in);
  }
  return 0;
}
