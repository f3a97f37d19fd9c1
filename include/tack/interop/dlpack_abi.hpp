// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
#pragma once
/// @file The DLPack 1.x C ABI, written from the specification: the structs a producer
/// and a consumer exchange. They live in `tack::dlpack` so that a program that also includes the
/// reference `dlpack.h` sees no clash; the layouts are identical (pinned by the static_asserts
/// below), so a pointer to one converts to the other with `reinterpret_cast`.
/// Only what tack reads or writes is named; the other device types and dtype codes of the
/// specification are valid values of the same fields.

#include <cstddef>
#include <cstdint>

namespace tack::dlpack {

/// The DLPack version tack produces: 1.0 (tack writes nothing that 1.1 added). Consumers reading
/// tack's tensors check `major` only, as the specification asks.
inline constexpr std::uint32_t major_version = 1;
inline constexpr std::uint32_t minor_version = 0;

/// Device types (`DLDeviceType`, a C enum stored as a 32-bit int). Only those tack maps are named.
/// `tack::dlpack::DLDevice d{tack::dlpack::kDLCPU, 0};`
enum DLDeviceType : std::int32_t {
  kDLCPU = 1,          ///< host memory
  kDLCUDA = 2,         ///< CUDA device memory
  kDLCUDAHost = 3,     ///< pinned host memory (cudaMallocHost)
  kDLROCM = 10,        ///< ROCm (HIP) device memory
  kDLROCMHost = 11,    ///< pinned host memory (hipHostMalloc)
  kDLCUDAManaged = 13  ///< CUDA managed (unified) memory
};

/// Where a tensor's memory is. `tack::dlpack::DLDevice d{tack::dlpack::kDLCUDA, 1};`
struct DLDevice {
  DLDeviceType device_type;
  std::int32_t device_id;  ///< the ordinal (0 for the CPU)
};

/// Type codes of `DLDataType::code` (`DLDataTypeCode`). `dt.code == tack::dlpack::kDLFloat`
enum DLDataTypeCode : std::uint8_t {
  kDLInt = 0,
  kDLUInt = 1,
  kDLFloat = 2,
  kDLBfloat = 4,
  kDLComplex = 5,
  kDLBool = 6
};

/// A scalar type: `code` (a `DLDataTypeCode`), `bits` per lane, `lanes` (1 for scalars; tack
/// never produces or accepts more). `tack::dlpack::DLDataType f32{tack::dlpack::kDLFloat, 32, 1};`
struct DLDataType {
  std::uint8_t code;
  std::uint8_t bits;
  std::uint16_t lanes;
};

/// A tensor: memory, shape and strides (in elements, not bytes). `data + byte_offset` is the
/// first element; `strides` may be null in tensors from other producers, meaning row-major compact.
/// `auto* p = static_cast<char*>(t.data) + t.byte_offset;`
struct DLTensor {
  void* data;
  DLDevice device;
  std::int32_t ndim;
  DLDataType dtype;
  std::int64_t* shape;
  std::int64_t* strides;
  std::uint64_t byte_offset;
};

/// The legacy managed tensor (DLPack < 0.8, still read by many consumers): no version, no flags.
/// The consumer calls `deleter(self)` once when done; it frees `self` too.
/// `t->deleter(t);`
struct DLManagedTensor {
  DLTensor dl_tensor;
  void* manager_ctx;
  void (*deleter)(DLManagedTensor* self);
};

/// A DLPack ABI version. `if (t->version.major != 1) refuse();`
struct DLPackVersion {
  std::uint32_t major;
  std::uint32_t minor;
};

/// `flags` bit: the consumer must not write the memory.
inline constexpr std::uint64_t DLPACK_FLAG_BITMASK_READ_ONLY = std::uint64_t{1} << 0;
/// `flags` bit: the producer made a copy for this tensor (nobody else sees writes to it).
inline constexpr std::uint64_t DLPACK_FLAG_BITMASK_IS_COPIED = std::uint64_t{1} << 1;

/// The DLPack 1.x managed tensor: a version first (so that a consumer can refuse a layout it does
/// not know before touching anything else), then the owner, the deleter, flags, and the tensor.
/// `if (t->flags & tack::dlpack::DLPACK_FLAG_BITMASK_READ_ONLY) { ... }`
struct DLManagedTensorVersioned {
  DLPackVersion version;
  void* manager_ctx;
  void (*deleter)(DLManagedTensorVersioned* self);
  std::uint64_t flags;
  DLTensor dl_tensor;
};

// The ABI, pinned: these are the layouts of the C structs on every 64-bit platform tack targets
// (LP64 and LLP64 alike: pointers 8 bytes, int32/int64 fields naturally aligned).
static_assert(sizeof(void*) == 8, "tack::dlpack: the ABI layouts below assume 64-bit pointers");
static_assert(sizeof(DLDeviceType) == 4 && sizeof(DLDataTypeCode) == 1);
static_assert(sizeof(DLDevice) == 8 && offsetof(DLDevice, device_id) == 4);
static_assert(sizeof(DLDataType) == 4 && offsetof(DLDataType, bits) == 1 &&
              offsetof(DLDataType, lanes) == 2);
static_assert(sizeof(DLTensor) == 48);
static_assert(offsetof(DLTensor, data) == 0 && offsetof(DLTensor, device) == 8 &&
              offsetof(DLTensor, ndim) == 16 && offsetof(DLTensor, dtype) == 20 &&
              offsetof(DLTensor, shape) == 24 && offsetof(DLTensor, strides) == 32 &&
              offsetof(DLTensor, byte_offset) == 40);
static_assert(sizeof(DLManagedTensor) == 64 && offsetof(DLManagedTensor, dl_tensor) == 0 &&
              offsetof(DLManagedTensor, manager_ctx) == 48 &&
              offsetof(DLManagedTensor, deleter) == 56);
static_assert(sizeof(DLPackVersion) == 8 && offsetof(DLPackVersion, minor) == 4);
static_assert(sizeof(DLManagedTensorVersioned) == 80 &&
              offsetof(DLManagedTensorVersioned, version) == 0 &&
              offsetof(DLManagedTensorVersioned, manager_ctx) == 8 &&
              offsetof(DLManagedTensorVersioned, deleter) == 16 &&
              offsetof(DLManagedTensorVersioned, flags) == 24 &&
              offsetof(DLManagedTensorVersioned, dl_tensor) == 32);

}  // namespace tack::dlpack
