// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
#pragma once
/// @file DLPack interop: `tack::to_dlpack`, `tack::to_dlpack_legacy` and
/// `tack::from_dlpack` exchange arrays with NumPy, PyTorch, CuPy, JAX … without copying.
///
/// Export: vector and matrix components become trailing tensor dimensions (a `vec3f` array of shape
/// `(n)` is a float32 tensor `(n, 3)`); strides are always filled, in elements; a view exports
/// `data` = its root's allocation and `byte_offset` = where the view starts (docs/interop.md says
/// why); a copy of the handle in `manager_ctx` keeps the memory alive until the consumer calls the
/// deleter. Import: a typed import names the element type (`from_dlpack<vec3f>` consumes a trailing
/// dimension of 3; nothing is guessed); the tensor must be row-major compact; the producer's deleter
/// runs exactly once, when the last tack handle of the memory dies. An import consumes the tensor
/// even when it is refused (the deleter then runs before the exception leaves), as the
/// specification requires for a version mismatch and so that `from_dlpack<T>(producer())` never
/// leaks.

#include <tack/array/any_array.hpp>
#include <tack/array/array.hpp>
#include <tack/array/factories.hpp>
#include <tack/core/error.hpp>
#include <tack/core/index.hpp>
#include <tack/detail/gpu_runtime.hpp>
#include <tack/interop/dlpack_abi.hpp>
#include <tack/memory/allocator.hpp>
#include <tack/memory/device.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <type_traits>
#include <utility>

namespace tack {

/// How memory a legacy `DLManagedTensor` (DLPack before 1.0) hands over is imported. The legacy
/// struct has no read-only flag, so tack imports it read-only unless the caller knows the
/// producer allows writes. `tack::from_dlpack(t, tack::legacy_access::writable)`
enum class legacy_access { read_only, writable };

namespace detail {

template <class>
inline constexpr bool dlpack_dependent_false = false;

template <class M>
inline constexpr bool is_dlpack_managed_v = std::is_same_v<M, dlpack::DLManagedTensorVersioned> ||
                                            std::is_same_v<M, dlpack::DLManagedTensor>;

/// The DLPack dtype of a tack scalar type.
template <class S>
constexpr dlpack::DLDataType dlpack_dtype_of() noexcept {
  constexpr auto bits = static_cast<std::uint8_t>(8 * sizeof(S));
  if constexpr (std::is_same_v<S, bool>) {
    return {dlpack::kDLBool, 8, 1};
  } else if constexpr (std::is_floating_point_v<S>) {
    return {dlpack::kDLFloat, bits, 1};
  } else if constexpr (std::is_signed_v<S>) {
    return {dlpack::kDLInt, bits, 1};
  } else {
    return {dlpack::kDLUInt, bits, 1};
  }
}

/// `"float32"`, `"int64"`, `"bool"`, `"float32x4"` (lanes), `"code 9, 8 bits"` (unknown code).
std::string dlpack_dtype_string(dlpack::DLDataType dt);

/// `"kDLCPU"`, `"kDLCUDA"`, `"kDLROCM"`, … or `"device type 4"`.
std::string dlpack_device_type_string(std::int32_t type);

/// `"(4, 3)"`, or `"null"` for a null list.
std::string dlpack_list_string(const std::int64_t* v, std::int32_t n);

/// How errors name a tensor: `tensor float32 shape (4, 3) strides (3, 1) on kDLCPU device 0`.
std::string dlpack_describe(const dlpack::DLTensor& t);

// ---- export ------------------------------------------------------------------------------------

/// What `manager_ctx` points to: the managed struct handed out, the shape and strides it points
/// into, and a copy of the array handle, which keeps the root (and any owner of borrowed memory)
/// alive until the consumer calls the deleter. One allocation, freed by the deleter.
template <class Managed, class Handle>
struct dlpack_export_context {
  Managed managed{};
  Handle handle;
  std::shared_ptr<void> allocation;  ///< the root's block: its growth is refused while this lives
  std::array<std::int64_t, static_cast<std::size_t>(max_rank + 2)> shape{};
  std::array<std::int64_t, static_cast<std::size_t>(max_rank + 2)> strides{};

  explicit dlpack_export_context(const Handle& h) : handle(h) {}
  static void release(Managed* self) noexcept {
    delete static_cast<dlpack_export_context*>(self->manager_ctx);
  }
};

/// The DLPack device of an array's memory: the allocator's memory space says pinned or managed.
/// HIP memory is kDLROCM, managed memory included (DLPack has no managed type for ROCm), and
/// pinned memory of a HIP build kDLROCMHost.
template <class A>
dlpack::DLDevice dlpack_device_of(const A& a) {
  const tack::device d = a.device();
  const allocator_id id = a.allocator();
  if (d.is_cpu()) {
    if (id >= 0 && allocator_from_id(id).space() == memory_space::pinned)
      return {gpu_device_kind == device_kind::hip ? dlpack::kDLROCMHost : dlpack::kDLCUDAHost, 0};
    return {dlpack::kDLCPU, 0};
  }
  if (d.is_hip()) return {dlpack::kDLROCM, d.id()};
  // Borrowed device memory has no allocator: host-accessible CUDA memory is managed memory.
  const bool managed =
      id >= 0 ? allocator_from_id(id).space() == memory_space::unified : a.host_accessible();
  return {managed ? dlpack::kDLCUDAManaged : dlpack::kDLCUDA, d.id()};
}

/// The export of `to_dlpack` and `to_dlpack_legacy`. `storage_shape`, when given, replaces the
/// array's own storage shape (row-major over the same elements, the same number of scalars): the
/// Python bindings keep every array flat (rank 1) and export it with its shape this way.
template <class Managed, class T, int R, memory_space S>
Managed* export_dlpack(const array<T, R, S>& a, const char* op,
                       std::span<const index_t> storage_shape = {}) {
  using V = std::remove_const_t<T>;
  using Sc = scalar_t<V>;
  static_assert(sizeof(V) == sizeof(Sc) * static_cast<std::size_t>(components_v<V>),
                "tack::to_dlpack: the element type must be its components packed without padding");
  if (!a.valid()) {
    throw value_error(std::string(op) + ": " + a.describe() + " cannot be exported");
  }
  if (a.layout() == layout::soa) {
    throw value_error(std::string(op) + ": " + a.describe() +
                      " is structure-of-arrays, and no single tensor describes a "
                      "structure-of-arrays layout; export each component (a.components()) or a "
                      "copy with tack::layout::aos (a.copy({.layout = tack::layout::aos}))");
  }
  const bool read_only = std::is_const_v<T> || a.read_only();
  if constexpr (std::is_same_v<Managed, dlpack::DLManagedTensor>) {
    if (read_only) {
      throw read_only_error(std::string(op) + ": " + a.describe() +
                            " is read-only and the legacy DLManagedTensor has no flag to say so; "
                            "use tack::to_dlpack (DLManagedTensorVersioned carries READ_ONLY), "
                            "or export a copy()");
    }
  }
  using ctx_t = dlpack_export_context<Managed, array<T, R, S>>;
  auto ctx = std::make_unique<ctx_t>(a);

  // The view's first element (data() checks that a view still exists after a shrink of its root)
  // and the root's allocation: data = base, byte_offset = the distance.
  const auto* first = reinterpret_cast<const unsigned char*>(a.as_const().data());
  auto* base = static_cast<unsigned char*>(array_access::storage_of(a)->buf.data());
  ctx->allocation = array_access::storage_of(a)->buf.keep_alive();
  const auto own_shape = a.storage_shape();
  const std::span<const index_t> storage =
      storage_shape.empty() ? std::span<const index_t>(own_shape) : storage_shape;
  if (!storage_shape.empty()) {
    index_t scalars = 1;
    for (const index_t e : storage) scalars *= e;
    if (storage.size() > static_cast<std::size_t>(max_rank + 2) ||
        scalars != a.size() * components_v<V>) {
      throw value_error(
          std::string(op) + ": the shape " +
          dlpack_list_string(storage.data(), static_cast<std::int32_t>(storage.size())) +
          " does not describe the " + std::to_string(a.size() * components_v<V>) + " scalars of " +
          a.describe());
    }
  }
  const auto ndim = static_cast<std::int32_t>(storage.size());
  std::int64_t stride = 1;
  for (std::int32_t d = ndim - 1; d >= 0; --d) {
    const auto du = static_cast<std::size_t>(d);
    ctx->shape[du] = storage[du];
    ctx->strides[du] = stride;
    stride *= storage[du];
  }

  dlpack::DLTensor& t = ctx->managed.dl_tensor;
  t.data = base ? base : const_cast<unsigned char*>(first);
  t.byte_offset = base ? static_cast<std::uint64_t>(first - base) : 0;
  t.device = dlpack_device_of(a);
  t.ndim = ndim;
  t.dtype = dlpack_dtype_of<Sc>();
  t.shape = ctx->shape.data();
  t.strides = ctx->strides.data();
  ctx->managed.manager_ctx = ctx.get();
  ctx->managed.deleter = &ctx_t::release;
  if constexpr (std::is_same_v<Managed, dlpack::DLManagedTensorVersioned>) {
    ctx->managed.version = {dlpack::major_version, dlpack::minor_version};
    ctx->managed.flags = read_only ? dlpack::DLPACK_FLAG_BITMASK_READ_ONLY : 0;
  }
  return &ctx.release()->managed;
}

// ---- import ------------------------------------------------------------------------------------

/// The producer's tensor, held by every handle of the imported memory (the buffer's external
/// owner): the destructor calls the producer's deleter, once. Taken before anything is checked, so
/// that a refused import releases the tensor too.
struct dlpack_import_owner {
  dlpack::DLManagedTensorVersioned* versioned = nullptr;
  dlpack::DLManagedTensor* legacy = nullptr;

  dlpack_import_owner() = default;
  dlpack_import_owner(const dlpack_import_owner&) = delete;
  dlpack_import_owner& operator=(const dlpack_import_owner&) = delete;
  ~dlpack_import_owner() {
    if (versioned && versioned->deleter) versioned->deleter(versioned);
    if (legacy && legacy->deleter) legacy->deleter(legacy);
  }
  void arm(dlpack::DLManagedTensorVersioned* t) noexcept { versioned = t; }
  void arm(dlpack::DLManagedTensor* t) noexcept { legacy = t; }
};

/// Refuses a null pointer and a versioned tensor of another major version: its layout past the
/// deleter is unknown, so nothing else is read (the deleter keeps its place in every version, and
/// the specification asks the consumer to call it).
template <class M>
const dlpack::DLTensor& dlpack_checked_tensor(const M* t, const std::string& op) {
  if (!t) throw value_error(op + ": the tensor pointer is null");
  if constexpr (std::is_same_v<M, dlpack::DLManagedTensorVersioned>) {
    if (t->version.major != dlpack::major_version) {
      throw value_error(op + ": the tensor has DLPack version " + std::to_string(t->version.major) +
                        "." + std::to_string(t->version.minor) + "; this tack reads DLPack " +
                        std::to_string(dlpack::major_version) + ".x");
    }
  }
  return t->dl_tensor;
}

/// Takes ownership of a non-null tensor: from here on its deleter runs exactly once, whatever
/// happens (even when this allocation fails).
template <class M>
std::shared_ptr<dlpack_import_owner> dlpack_take(M* t) {
  std::shared_ptr<dlpack_import_owner> owner;
  try {
    owner = std::make_shared<dlpack_import_owner>();
  } catch (...) {
    if (t->deleter) t->deleter(t);
    throw;
  }
  owner->arm(t);
  return owner;
}

template <class M>
bool dlpack_read_only(const M* t, legacy_access access) noexcept {
  if constexpr (std::is_same_v<M, dlpack::DLManagedTensorVersioned>) {
    (void)access;
    return (t->flags & dlpack::DLPACK_FLAG_BITMASK_READ_ONLY) != 0;
  } else {
    // The legacy struct cannot say whether its producer allows writes (an immutable JAX array
    // hands one over): read-only unless the caller says it knows better.
    (void)t;
    return access == legacy_access::read_only;
  }
}

/// `"array<vec3(f32), 1> (a float32 tensor of shape (n, 3))"`: what a typed import expects.
template <class V, int R>
std::string dlpack_expected_string() {
  std::string s = "array<" + std::string(dtype_of<V>().name()) + ", " + std::to_string(R) +
                  "> (a " + dlpack_dtype_string(dlpack_dtype_of<scalar_t<V>>()) +
                  " tensor of shape (";
  for (int d = 0; d < R; ++d) {
    if (d) s += ", ";
    s += 'n';
    if (R != 1) s += std::to_string(d);
  }
  if constexpr (is_vec_v<V>) {
    s += ", " + std::to_string(components_v<V>);
  } else if constexpr (is_mat_v<V>) {
    s += ", " + std::to_string(V::rows) + ", " + std::to_string(V::cols);
  }
  s += "))";
  return s;
}

/// What a checked tensor gives the array: its first element, device, and read-only-ness.
struct dlpack_import_plan {
  unsigned char* first = nullptr;
  tack::device device{};
  bool host_ok = true;
  bool read_only = false;
};

/// Checks a tensor against what the import expects (dtype, `ndim`, trailing component extents,
/// compact strides, device, alignment). Not a template, so that the element types and ranks an
/// import can produce share one copy of the checks.
dlpack_import_plan dlpack_check(const dlpack::DLTensor& dl, bool read_only, dlpack::DLDataType want,
                                std::int32_t ndim, const std::int64_t* trailing,
                                std::int32_t ntrailing, std::size_t align, const std::string& op,
                                const std::string& expected);

/// The array over a checked tensor's memory, its owner kept alive by the buffer.
template <class V, int R>
array<V, R> dlpack_make_array(const dlpack_import_plan& plan, const std::int64_t* shape_,
                              const std::shared_ptr<dlpack_import_owner>& owner) {
  std::array<index_t, R> extents{};
  for (int d = 0; d < R; ++d) extents[static_cast<std::size_t>(d)] = shape_[d];
  auto* p = reinterpret_cast<V*>(plan.first);
  if (plan.host_ok == plan.device.is_cpu()) {
    options o;
    o.device = plan.device;
    o.writable = !plan.read_only;
    o.owner = owner;
    return from_ptr(p, shape<R>(extents), o);
  }
  // Managed memory: a CUDA device whose memory the host may touch, which from_ptr (host memory iff
  // on the CPU) cannot say.
  return array_access::borrow<V, R, memory_space::dynamic>(p, extents, plan.device, plan.read_only,
                                                           owner, plan.host_ok);
}

/// The typed import of a tensor `owner` already holds.
template <class T, int R, class M>
array<T, R> import_dlpack(M* t, const std::shared_ptr<dlpack_import_owner>& owner,
                          const std::string& op, legacy_access access) {
  using V = std::remove_const_t<T>;
  static_assert(R >= 1 && R <= max_rank, "tack::from_dlpack: Rank must be between 1 and 8");
  static_assert(
      sizeof(V) == sizeof(scalar_t<V>) * static_cast<std::size_t>(components_v<V>),
      "tack::from_dlpack: the element type must be its components packed without padding");
  const dlpack::DLTensor& dl = dlpack_checked_tensor(t, op);
  std::array<std::int64_t, 2> trailing{};
  std::int32_t ntrailing = 0;
  if constexpr (is_vec_v<V>) {
    trailing = {components_v<V>, 0};
    ntrailing = 1;
  } else if constexpr (is_mat_v<V>) {
    trailing = {V::rows, V::cols};
    ntrailing = 2;
  }
  const auto plan =
      dlpack_check(dl, dlpack_read_only(t, access), dlpack_dtype_of<scalar_t<V>>(), R + ntrailing,
                   trailing.data(), ntrailing, alignof(V), op, dlpack_expected_string<V, R>());
  auto out = dlpack_make_array<V, R>(plan, dl.shape, owner);
  if constexpr (std::is_const_v<T>) {
    return out.as_const();
  } else {
    return out;
  }
}

template <class T, int R, class M>
array<T, R> from_dlpack_typed(M* t, legacy_access access) {
  const std::string op = "tack::from_dlpack<" +
                         std::string(dtype_of<std::remove_const_t<T>>().name()) + ", " +
                         std::to_string(R) + ">";
  if (!t) throw value_error(op + ": the tensor pointer is null");
  const auto owner = dlpack_take(t);  // a refusal below releases the tensor with `owner`
  return import_dlpack<T, R>(t, owner, op, access);
}

/// Calls `f.template operator()<S>()` with the tack scalar type of `dt`; false when none matches.
template <class F>
bool dlpack_with_scalar_type(dlpack::DLDataType dt, F&& f) {
  auto is = [&]<class S>() {
    constexpr auto w = dlpack_dtype_of<S>();
    if (dt.code != w.code || dt.bits != w.bits || dt.lanes != 1) return false;
    f.template operator()<S>();
    return true;
  };
  return is.template operator()<float>() || is.template operator()<double>() ||
         is.template operator()<std::int8_t>() || is.template operator()<std::int16_t>() ||
         is.template operator()<std::int32_t>() || is.template operator()<std::int64_t>() ||
         is.template operator()<std::uint8_t>() || is.template operator()<std::uint16_t>() ||
         is.template operator()<std::uint32_t>() || is.template operator()<std::uint64_t>() ||
         is.template operator()<bool>();
}

/// The producer's side of the DLPack stream protocol (the array API's `__dlpack__(stream=...)`):
/// for GPU memory the consumer's `stream` is made to wait for the work tack queued on the device.
/// CUDA memory (kDLCUDA, kDLCUDAManaged): none means the legacy default stream (1), 2 the
/// per-thread default stream, a value > 2 a `cudaStream_t`, -1 "no synchronization"; 0 and other
/// negative values are refused (`value_error`). ROCm memory (kDLROCM): none means the default
/// stream (0), a value > 2 a `hipStream_t`, -1 no synchronization; 1, 2 and other negative values
/// are refused. Host memory (kDLCPU) takes no stream; pinned memory (kDLCUDAHost, kDLROCMHost) is
/// written by tack before every operation returns, so a stream asks for nothing there.
void dlpack_hand_over(const dlpack::DLDevice& dev, std::optional<std::intptr_t> stream,
                      const char* op);

}  // namespace detail

/// The `stream` tack passes to a producer's `__dlpack__` when it imports memory of device `d`:
/// 1 (the legacy default stream, where tack's kernels and copies run) for a CUDA device, 0 (the
/// default stream) for a HIP device, none for the CPU.
/// `auto s = tack::dlpack_consumer_stream(tack::cuda(0));  // 1`
inline std::optional<std::intptr_t> dlpack_consumer_stream(const device& d) noexcept {
  if (d.is_cuda()) return std::intptr_t{1};
  if (d.is_hip()) return std::intptr_t{0};
  return std::nullopt;
}

/// Exports an array as a DLPack 1.x tensor, without copying. The caller owns the result and calls
/// `t->deleter(t)` exactly once; until then the array's memory stays alive, even when every tack
/// handle is gone. Vector and matrix components are trailing dimensions; strides are always filled
/// (in elements); a view gives `data` = the root's allocation and `byte_offset` = the view's start;
/// a read-only array (or an `array<const T>` handle) sets `DLPACK_FLAG_BITMASK_READ_ONLY`.
/// A structure-of-arrays array is a `value_error` (export its components, or an AoS copy).
/// Growing the root while the tensor lives reallocates the memory under it, as with kernel views.
/// An implicit array (tack::arrays::*) does not compile: copy it into a tack::array first.
/// `auto* t = tack::to_dlpack(a); consumer(t);  // the consumer calls t->deleter(t)`
template <class A>
dlpack::DLManagedTensorVersioned* to_dlpack(const A& a) {
  if constexpr (detail::is_tack_array<A>::value) {
    return detail::export_dlpack<dlpack::DLManagedTensorVersioned>(a, "tack::to_dlpack");
  } else {
    static_assert(detail::dlpack_dependent_false<A>,
                  "tack::to_dlpack: only a tack::array has memory to export; an implicit array "
                  "(tack::arrays::*) computes its values: copy it into a tack::array first "
                  "(auto out = tack::empty<T>(n); tack::copyto(out, x);)");
    return nullptr;
  }
}

/// The export with the consumer's stream, as `__dlpack__(stream=...)` passes it: for CUDA memory
/// the consumer's stream waits for tack's work on the device first (none: the legacy default
/// stream; 1, 2, a `cudaStream_t`, or -1 for no synchronization; 0 is a `value_error`); for ROCm
/// memory likewise (none or 0: the default stream; a `hipStream_t`; -1; 1 and 2 are a
/// `value_error`); host memory takes none. `auto* t = tack::to_dlpack(a, consumer_stream);`
template <class A>
dlpack::DLManagedTensorVersioned* to_dlpack(const A& a, std::optional<std::intptr_t> stream) {
  dlpack::DLManagedTensorVersioned* t = to_dlpack(a);
  try {
    detail::dlpack_hand_over(t->dl_tensor.device, stream, "tack::to_dlpack");
  } catch (...) {
    t->deleter(t);
    throw;
  }
  return t;
}

/// The same export as the legacy `DLManagedTensor` (DLPack < 0.8), for consumers that know no
/// other. It has no flags, so a read-only array (or `array<const T>` handle) is refused with a
/// `read_only_error` rather than handed out as writable memory.
/// `auto* t = tack::to_dlpack_legacy(a); old_consumer(t);`
template <class A>
dlpack::DLManagedTensor* to_dlpack_legacy(const A& a) {
  if constexpr (detail::is_tack_array<A>::value) {
    return detail::export_dlpack<dlpack::DLManagedTensor>(a, "tack::to_dlpack_legacy");
  } else {
    static_assert(detail::dlpack_dependent_false<A>,
                  "tack::to_dlpack_legacy: only a tack::array has memory to export; an implicit "
                  "array (tack::arrays::*) computes its values: copy it into a tack::array first "
                  "(auto out = tack::empty<T>(n); tack::copyto(out, x);)");
    return nullptr;
  }
}

/// Imports a DLPack 1.x tensor as `array<T, Rank>` without copying, and takes ownership of it: the
/// producer's deleter runs exactly once, when the last tack handle of the memory (root or view)
/// dies. The tensor must be `Rank` dimensions of `T`'s scalar type plus `T`'s component extents
/// (`vec3f`: a trailing 3; `mat<float, 2, 3>`: trailing 2, 3), row-major compact (null strides
/// count as compact); `byte_offset` is honoured. READ_ONLY gives read-only memory (writes throw
/// `read_only_error`); `T = const U` gives the read-only handle type. A mismatch is a `value_error`
/// naming the expected type and the tensor; other devices than CPU, CUDA and ROCm (and a GPU kind
/// the build has no backend for) a `device_error`. The tensor is consumed even when the import throws (its deleter has then run).
/// `auto pts = tack::from_dlpack<tack::vec3f>(t);  // t: float32 (n, 3)`
template <class T, int Rank = 1>
array<T, Rank> from_dlpack(dlpack::DLManagedTensorVersioned* t) {
  return detail::from_dlpack_typed<T, Rank>(t, legacy_access::read_only);
}
/// The legacy struct: the same rules. It has no READ_ONLY flag, so its memory is imported
/// read-only unless `access` is `legacy_access::writable` (the caller knows the producer allows
/// writes); a copy of a read-only import is writable.
/// `auto a = tack::from_dlpack<float, 2>(legacy_tensor, tack::legacy_access::writable);`
template <class T, int Rank = 1>
array<T, Rank> from_dlpack(dlpack::DLManagedTensor* t,
                           legacy_access access = legacy_access::read_only) {
  return detail::from_dlpack_typed<T, Rank>(t, access);
}

/// Imports a tensor whose element type and rank are known only at run time: an `any_array` of the
/// tensor's scalar type (f32, f64, the integer types, bool) and rank (1 to 8). It never guesses a
/// vector type: recover one with `as<float, 2>().as_elements<tack::vec3f>()` or a typed import.
/// Read-only tensors give read-only memory behind a mutable handle type, so `as<float, 1>()`
/// works for both and writes throw `read_only_error`. Ownership as for the typed import.
/// `tack::any_array a = tack::from_dlpack(t); if (a.dtype() == tack::dtype_of<float>()) ...`
any_array from_dlpack(dlpack::DLManagedTensorVersioned* t);
/// The legacy struct, read-only unless `access` says it may be written.
/// `tack::any_array a = tack::from_dlpack(legacy_tensor);  // a.read_only()`
any_array from_dlpack(dlpack::DLManagedTensor* t, legacy_access access = legacy_access::read_only);

}  // namespace tack
