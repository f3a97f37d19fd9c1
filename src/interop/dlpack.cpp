// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
// The non-template part of DLPack interop (tack/interop/dlpack.hpp): how errors name tensors, the
// checks of an import, the run-time-typed import (one instantiation per scalar type and rank, here
// rather than in every includer), and the stream hand-over of an export.
#include <tack/interop/dlpack.hpp>

#include <tack/config.hpp>
#include <tack/core/error.hpp>
#include <tack/detail/gpu_runtime.hpp>
#include <tack/memory/device.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>

namespace tack {
namespace detail {
namespace {

/// The device of a tensor, and whether host code may touch its memory; device_error otherwise.
std::pair<tack::device, bool> dlpack_import_device(const dlpack::DLTensor& t,
                                                   const std::string& op) {
  const std::int32_t type = t.device.device_type;
  if (type == dlpack::kDLCPU || type == dlpack::kDLCUDAHost || type == dlpack::kDLROCMHost) {
    return {cpu(), true};
  }
  const bool cuda_memory = type == dlpack::kDLCUDA || type == dlpack::kDLCUDAManaged;
  if (cuda_memory || type == dlpack::kDLROCM) {
    const tack::device d = cuda_memory ? cuda(t.device.device_id) : hip(t.device.device_id);
    if (d.kind() != gpu_device_kind) {
      throw device_error(op + ": " + dlpack_describe(t) + " is " + (cuda_memory ? "CUDA" : "ROCm") +
                         " memory, and this tack was built without " +
                         (cuda_memory ? "CUDA (TACK_HAS_CUDA is 0)" : "HIP (TACK_HAS_HIP is 0)") +
                         "; copy it to the CPU first");
    }
    if (!is_available(d)) {
      throw device_error(op + ": " + dlpack_describe(t) + " is on " + d.str() +
                         ", which this process does not see");
    }
    return {d, type == dlpack::kDLCUDAManaged};
  }
  throw device_error(op + ": " + dlpack_describe(t) +
                     ": tack reads kDLCPU, kDLCUDAHost, kDLCUDA, kDLCUDAManaged, kDLROCM and "
                     "kDLROCMHost memory only");
}

template <class M>
any_array from_dlpack_any(M* t, legacy_access access) {
  const std::string op = "tack::from_dlpack";
  if (!t) throw value_error(op + ": the tensor pointer is null");
  const auto owner = dlpack_take(t);  // a refusal below releases the tensor with `owner`
  const dlpack::DLTensor& dl = dlpack_checked_tensor(t, op);
  if (dl.ndim < 1 || dl.ndim > max_rank) {
    throw value_error(op + ": " + dlpack_describe(dl) + " has " + std::to_string(dl.ndim) +
                      " dimensions; tack arrays have 1 to " + std::to_string(max_rank) +
                      (dl.ndim == 0 ? " (reshape a 0-d tensor to shape (1) first)" : ""));
  }
  std::optional<any_array> out;
  const bool known = dlpack_with_scalar_type(dl.dtype, [&]<class S>() {
    const auto plan = dlpack_check(dl, dlpack_read_only(t, access), dl.dtype, dl.ndim, nullptr, 0,
                                   alignof(S), op, "a tensor of one of tack's scalar types");
    [&]<int... Rm1>(std::integer_sequence<int, Rm1...>) {
      ((dl.ndim == Rm1 + 1 ? (out.emplace(dlpack_make_array<S, Rm1 + 1>(plan, dl.shape, owner)), 0)
                           : 0),
       ...);
    }
    (std::make_integer_sequence<int, max_rank>{});
  });
  if (!known) {
    throw value_error(op + ": " + dlpack_describe(dl) +
                      " has an element type tack does not have; tack reads float32/64, "
                      "int8/16/32/64, uint8/16/32/64 and bool, one lane");
  }
  return std::move(*out);
}

}  // namespace

std::string dlpack_dtype_string(dlpack::DLDataType dt) {
  std::string s;
  switch (dt.code) {
    case dlpack::kDLInt:
      s = "int";
      break;
    case dlpack::kDLUInt:
      s = "uint";
      break;
    case dlpack::kDLFloat:
      s = "float";
      break;
    case dlpack::kDLBfloat:
      s = "bfloat";
      break;
    case dlpack::kDLComplex:
      s = "complex";
      break;
    case dlpack::kDLBool:
      s = "bool";
      break;
    default:
      return "code " + std::to_string(dt.code) + ", " + std::to_string(dt.bits) + " bits" +
             (dt.lanes != 1 ? ", " + std::to_string(dt.lanes) + " lanes" : std::string());
  }
  if (!(dt.code == dlpack::kDLBool && dt.bits == 8)) s += std::to_string(dt.bits);
  if (dt.lanes != 1) s += "x" + std::to_string(dt.lanes);
  return s;
}

std::string dlpack_device_type_string(std::int32_t type) {
  switch (type) {
    case dlpack::kDLCPU:
      return "kDLCPU";
    case dlpack::kDLCUDA:
      return "kDLCUDA";
    case dlpack::kDLCUDAHost:
      return "kDLCUDAHost";
    case dlpack::kDLCUDAManaged:
      return "kDLCUDAManaged";
    case dlpack::kDLROCM:
      return "kDLROCM";
    case dlpack::kDLROCMHost:
      return "kDLROCMHost";
    default:
      return "device type " + std::to_string(type);
  }
}

std::string dlpack_list_string(const std::int64_t* v, std::int32_t n) {
  if (!v) return "null";
  std::string s = "(";
  for (std::int32_t d = 0; d < n; ++d) {
    if (d) s += ", ";
    s += std::to_string(v[d]);
  }
  return s + ")";
}

std::string dlpack_describe(const dlpack::DLTensor& t) {
  const bool lists_ok = t.ndim >= 0 && t.ndim <= 64;  // a garbage ndim must not read far
  std::string s = "tensor " + dlpack_dtype_string(t.dtype) + " shape " +
                  (lists_ok ? dlpack_list_string(t.shape, t.ndim) : "?") + " (ndim " +
                  std::to_string(t.ndim) + ") strides " +
                  (lists_ok ? dlpack_list_string(t.strides, t.ndim) : "?");
  if (t.byte_offset) s += " byte_offset " + std::to_string(t.byte_offset);
  return s + " on " + dlpack_device_type_string(t.device.device_type) + " device " +
         std::to_string(t.device.device_id);
}

dlpack_import_plan dlpack_check(const dlpack::DLTensor& dl, bool read_only, dlpack::DLDataType want,
                                std::int32_t ndim, const std::int64_t* trailing,
                                std::int32_t ntrailing, std::size_t align, const std::string& op,
                                const std::string& expected) {
  auto mismatch = [&](const std::string& why) {
    return value_error(op + ": expected " + expected + ", got " + dlpack_describe(dl) + ": " + why);
  };
  if (dl.dtype.lanes != 1) throw mismatch("tack reads tensors of one lane only");
  if (dl.dtype.code != want.code || dl.dtype.bits != want.bits) {
    throw mismatch("the element types differ");
  }
  if (dl.ndim != ndim) {
    throw mismatch("it has " + std::to_string(dl.ndim) + " dimensions, not " +
                   std::to_string(ndim));
  }
  if (!dl.shape) throw mismatch("its shape is null");
  bool empty = false;
  for (std::int32_t d = 0; d < dl.ndim; ++d) {
    if (dl.shape[d] < 0) throw mismatch("extent " + std::to_string(dl.shape[d]) + " is negative");
    empty = empty || dl.shape[d] == 0;
  }
  {
    // The element count and byte size must fit (index_t, ptrdiff_t): the stride check below and
    // the array's size would overflow otherwise.
    const std::size_t element_bytes = (static_cast<std::size_t>(dl.dtype.bits) + 7) / 8;
    std::size_t bytes = element_bytes;
    for (std::int32_t d = 0; d < dl.ndim; ++d) {
      const auto x = static_cast<std::size_t>(dl.shape[d]);
      if (x != 0 && bytes > max_array_bytes / x) {
        throw value_error(op + ": " + dlpack_describe(dl) +
                          " is too large: its element count or byte size overflows (an array "
                          "spans at most " +
                          std::to_string(max_array_bytes) + " bytes)");
      }
      bytes *= x;
    }
  }
  for (std::int32_t c = 0; c < ntrailing; ++c) {
    if (dl.shape[ndim - ntrailing + c] != trailing[c]) {
      throw mismatch(ntrailing == 1 ? "the trailing extent differs"
                                    : "the trailing extents differ");
    }
  }
  // Row-major compact, as every tack array is. Extents of 1 may carry any stride (NumPy and
  // PyTorch write arbitrary ones there), and an empty tensor has no element to misplace.
  if (dl.strides && !empty) {
    std::int64_t expect = 1;
    for (std::int32_t d = dl.ndim - 1; d >= 0; --d) {
      if (dl.shape[d] != 1 && dl.strides[d] != expect) {
        throw value_error(op + ": " + dlpack_describe(dl) +
                          " is not row-major compact (dimension " + std::to_string(d) +
                          " has stride " + std::to_string(dl.strides[d]) + ", expected " +
                          std::to_string(expect) +
                          "); tack arrays are contiguous: make the tensor contiguous first");
      }
      expect *= dl.shape[d];
    }
  }
  const auto [dev, host_ok] = dlpack_import_device(dl, op);
  if (!dl.data && !empty) throw mismatch("its data pointer is null");
  // In integers: a byte_offset the producer got wrong must not be pointer-arithmetic overflow.
  auto* first = dl.data
                    ? reinterpret_cast<unsigned char*>(reinterpret_cast<std::uintptr_t>(dl.data) +
                                                       static_cast<std::uintptr_t>(dl.byte_offset))
                    : nullptr;
  if (reinterpret_cast<std::uintptr_t>(first) % align != 0) {
    throw mismatch("data + byte_offset is not aligned to " + std::to_string(align) + " bytes");
  }
  return {first, dev, host_ok, read_only};
}

void dlpack_hand_over(const dlpack::DLDevice& dev, std::optional<std::intptr_t> stream,
                      const char* op) {
  const bool cuda = dev.device_type == dlpack::kDLCUDA || dev.device_type == dlpack::kDLCUDAManaged;
  const bool rocm = dev.device_type == dlpack::kDLROCM;
  if (!cuda && !rocm) {
    if (stream && dev.device_type == dlpack::kDLCPU) {
      throw value_error(std::string(op) + ": stream " + std::to_string(*stream) +
                        " was given for host memory (kDLCPU), which has no streams; pass none");
    }
    return;
  }
  const std::intptr_t s = stream.value_or(cuda ? 1 : 0);
  if (s == -1) return;
  if (cuda && (s == 0 || s < -1)) {
    throw value_error(std::string(op) + ": stream " + std::to_string(s) +
                      " is not a CUDA stream of the DLPack protocol; pass 1 (the legacy default "
                      "stream), 2 (the per-thread default stream), a cudaStream_t, or -1 (no "
                      "synchronization)");
  }
  if (rocm && (s == 1 || s == 2 || s < -1)) {
    throw value_error(std::string(op) + ": stream " + std::to_string(s) +
                      " is not a ROCm stream of the DLPack protocol; pass 0 (the default "
                      "stream), a hipStream_t, or -1 (no synchronization)");
  }
  gpu_stream_wait_for_device(dev.device_id, s);
}

}  // namespace detail

any_array from_dlpack(dlpack::DLManagedTensorVersioned* t) {
  return detail::from_dlpack_any(t, legacy_access::read_only);
}

any_array from_dlpack(dlpack::DLManagedTensor* t, legacy_access access) {
  return detail::from_dlpack_any(t, access);
}

}  // namespace tack
