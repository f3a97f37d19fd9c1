// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
#pragma once
/// @file Out-of-class members of `tack::array` (included at the end of array.hpp): the checks and
/// messages, the views of the same memory, copies and the row-growth checks. What differs by
/// layout is in the storage policies (array/detail/aos_storage.hpp, soa_storage.hpp).

#include <tack/array/array.hpp>
#include <tack/array/detail/array_copy.hpp>
#include <tack/detail/gpu_runtime.hpp>

#include <cmath>
#include <limits>
#include <optional>

namespace tack {

// ---- construction and conversions
// ----------------------------------------------------------------

template <class T, int Rank, memory_space Space>
array<T, Rank, Space>::array() {
  detail::aos_storage<array>::init_root(*this, default_device_for_space(), {}, 0, std::nullopt);
}

template <class T, int Rank, memory_space Space>
template <memory_space Other>
requires(Space != memory_space::dynamic && Other == memory_space::dynamic)
    array<T, Rank, Space>::array(const array<T, Rank, Other>& other) {
  other.require_valid("conversion");
  other.visit_storage([&](const auto& s) {
    s.share_into(*this, [&](const auto& a) {
      const allocator_id id = a.allocator();
      const bool ok = id >= 0 ? allocator_from_id(id).space() == Space
                              : (tack::host_accessible(Space) == a.host_accessible());
      if (!ok) {
        throw value_error("tack::array: cannot view " + other.describe() + " as memory space " +
                          std::string(to_string(Space)) + ": its memory is " +
                          (id >= 0 ? std::string(to_string(allocator_from_id(id).space()))
                                   : std::string("borrowed")));
      }
    });
  });
  shape_ = other.shape_;
  row_view_ = other.row_view_;
}

template <class T, int Rank, memory_space Space>
array<const typename array<T, Rank, Space>::value_type, Rank, Space>
array<T, Rank, Space>::as_const() const {
  require_valid("as_const");
  using C = array<const value_type, Rank, Space>;
  C c = detail::array_access::uninitialized<C>();
  c.aos_ = aos_;
  c.shape_ = shape_;
  c.row_view_ = row_view_;
  c.layout_ = layout_;
  c.soa_ = soa_;
  return c;
}

// ---- checks and messages
// -------------------------------------------------------------------------

template <class T, int Rank, memory_space Space>
inline decltype(auto) array<T, Rank, Space>::operator[](index_t k) const {
  const index_t n = size();
  if (k < 0 || k >= n) {
    throw index_error("tack::array::operator[]: index " + std::to_string(k) + " out of range for " +
                      std::to_string(n) + " elements of " + describe());
  }
  return element_at(k, "operator[]");
}

template <class T, int Rank, memory_space Space>
template <class U, memory_space S2>
requires(std::is_same_v<std::remove_const_t<U>, std::remove_const_t<T>> &&
         (std::is_const_v<U> ||
          !std::is_const_v<T>)) array<T, Rank, Space>::operator array_view<U, Rank, S2>() const {
  static_assert(S2 == Space || Space == memory_space::dynamic || S2 == memory_space::dynamic,
                "tack::array: an array whose memory space is fixed converts to an array_view of "
                "the same space (or dynamic); copy it to the other space with to_device() or "
                "copy({.allocator = tack::get_allocator(space)})");
  require_pointer("array_view");
  if constexpr (!std::is_const_v<U>) require_writable("array_view");
  if constexpr (S2 != memory_space::dynamic && Space == memory_space::dynamic) {
    require_space_of_view(S2);
  }
  return array_view<U, Rank, S2>(pointer("array_view"), shape(), 1);
}

template <class T, int Rank, memory_space Space>
index_t array<T, Rank, Space>::extent(int d) const {
  if (d < 0 || d >= Rank) {
    throw index_error("tack::array::extent: dimension " + std::to_string(d) + " of " + describe() +
                      " does not exist");
  }
  return shape()[static_cast<std::size_t>(d)];
}

template <class T, int Rank, memory_space Space>
inline typename array<T, Rank, Space>::aos_kernel_view array<T, Rank, Space>::view() const {
  require_pointer("view");
  if constexpr (!is_const) {
    require_writable("view");
    bump_version();  // a writable view may be written through
  }
  return visit_storage([](const auto& s) { return s.aos_kernel_form(); });
}

template <class T, int Rank, memory_space Space>
inline typename array<T, Rank, Space>::soa_kernel_view array<T, Rank, Space>::soa_view() const
    requires(is_vec_v<std::remove_const_t<T>> || is_mat_v<std::remove_const_t<T>>) {
  require_valid("soa_view");
  visit_storage([](const auto& s) { s.require_components("soa_view"); });
  if constexpr (!is_const) {
    require_writable("soa_view");
    bump_version();  // a writable view may be written through
  }
  return visit_storage([](const auto& s) { return s.soa_kernel_form(); });
}

template <class T, int Rank, memory_space Space>
void array<T, Rank, Space>::fill(const value_type& value) const requires(!std::is_const_v<T>) {
  require_valid("fill");
  require_writable("fill");
  visit_storage([&value](const auto& s) { s.fill(value); });
}

template <class T, int Rank, memory_space Space>
tack::device array<T, Rank, Space>::default_device_for_space() {
  if constexpr (Space == memory_space::device || Space == memory_space::unified) {
    return detail::first_gpu();
  } else if constexpr (Space == memory_space::host || Space == memory_space::pinned) {
    return cpu();
  } else {
    return default_device();
  }
}

template <class T, int Rank, memory_space Space>
void array<T, Rank, Space>::require_growable(const char* op) const {
  require_valid(op);
  visit_storage([op](const auto& s) { s.require_growable(op); });
}
template <class T, int Rank, memory_space Space>
void array<T, Rank, Space>::refuse_growth(const char* op, const std::string& why) const {
  throw value_error(std::string("tack::array::") + op + ": " + describe() + " cannot grow: " + why);
}
template <class T, int Rank, memory_space Space>
std::string array<T, Rank, Space>::row_view_description() const {
  return visit_storage([](const auto& s) { return s.row_view_description(); });
}

template <class T, int Rank, memory_space Space>
std::string array<T, Rank, Space>::describe() const {
  std::string s = "array<" + std::string(element_name()) + ", " + std::to_string(Rank) + ">";
  if (!valid()) return s + " (moved from: no storage)";
  s += " shape " + shape_string(shape()) + " on " + device().str();
  s += visit_storage([](const auto& p) { return p.layout_note; });
  if (is_view()) s += ", " + row_view_description();
  if (read_only()) s += ", read-only";
  return s;
}

template <class T, int Rank, memory_space Space>
void array<T, Rank, Space>::refuse_invalid(const char* op) const {
  throw value_error(std::string("tack::array::") + op + ": array<" + std::string(element_name()) +
                    ", " + std::to_string(Rank) +
                    "> has no storage (it was moved from); assign an array to it first");
}

template <class T, int Rank, memory_space Space>
void array<T, Rank, Space>::require_host(const char* op) const {
  if (!host_accessible()) {
    throw device_error(std::string("tack::array::") + op + ": " + describe() +
                       " is in device memory, which host code cannot touch; use to_vector() or "
                       "to_device(tack::cpu())");
  }
}

template <class T, int Rank, memory_space Space>
void array<T, Rank, Space>::require_writable(const char* op) const {
  if (read_only()) {
    const std::string which = visit_storage([](const auto& s) { return s.read_only_note(); });
    throw read_only_error(std::string("tack::array::") + op + ": " + describe() + which +
                          " is read-only; read it through as_const(), or copy() it to write");
  }
}

template <class T, int Rank, memory_space Space>
void array<T, Rank, Space>::require_space_of_view(memory_space s2) const {
  const allocator_id id = allocator();
  const bool ok = id >= 0 ? allocator_from_id(id).space() == s2
                          : tack::host_accessible(s2) == host_accessible();
  if (!ok) {
    throw value_error("tack::array: cannot view " + describe() +
                      " as an array_view of memory "
                      "space " +
                      std::string(to_string(s2)) + ": its memory is " +
                      (id >= 0 ? std::string(to_string(allocator_from_id(id).space()))
                               : std::string("borrowed")));
  }
}

// ---- metadata, host access, export -------------------------------------------------------------

template <class T, int Rank, memory_space Space>
auto array<T, Rank, Space>::storage_shape() const {
  constexpr int extra = is_vec_v<value_type> ? 1 : (is_mat_v<value_type> ? 2 : 0);
  std::array<index_t, static_cast<std::size_t>(Rank + extra)> s{};
  auto sh = shape();
  for (int d = 0; d < Rank; ++d) s[static_cast<std::size_t>(d)] = sh[static_cast<std::size_t>(d)];
  if constexpr (is_vec_v<value_type>) {
    s[Rank] = components_v<value_type>;
  } else if constexpr (is_mat_v<value_type>) {
    s[Rank] = value_type::rows;
    s[Rank + 1] = value_type::cols;
  }
  return s;
}

template <class T, int Rank, memory_space Space>
template <std::integral... I>
requires(sizeof...(I) == Rank) decltype(auto) array<T, Rank, Space>::operator()(I... idx) const {
  const std::array<index_t, Rank> ix{static_cast<index_t>(idx)...};
  auto sh = shape();
  index_t flat = 0;
  for (int d = 0; d < Rank; ++d) {
    const auto du = static_cast<std::size_t>(d);
    if (ix[du] < 0 || ix[du] >= sh[du]) {
      throw index_error("tack::array::operator(): index " + std::to_string(ix[du]) +
                        " out of range for dimension " + std::to_string(d) + " (extent " +
                        std::to_string(sh[du]) + ") of " + describe());
    }
    flat = flat * sh[du] + ix[du];
  }
  return element_at(flat, "operator()");
}

template <class T, int Rank, memory_space Space>
typename array<T, Rank, Space>::exported_memory array<T, Rank, Space>::export_memory() const {
  static_assert(!holds_objects,
                "tack::array::export_memory: the elements are not trivially copyable "
                "(std::string, a class with constructors or destructors): their bytes mean "
                "nothing outside the array; share the array handle itself, or copy the values "
                "out with to_vector()");
  require_valid("export_memory");
  return visit_storage([](const auto& s) { return s.export_memory(); });
}

// ---- views
// ---------------------------------------------------------------------------------------

// The row views the storage policy's window does not make: refusals, and empty ranges (a new empty
// array with the same trailing shape, layout, device and allocator).
template <class T, int Rank, memory_space Space>
array<T, Rank, Space> array<T, Rank, Space>::rows_other(const slice& s, const char* op) const {
  require_valid(op);
  if (s.step != 1) {
    throw value_error(std::string("tack::array::") + op + ": step " + std::to_string(s.step) +
                      " on " + describe() +
                      ": a row view is one contiguous stretch; use tack::arrays::strided(a, " +
                      std::to_string(s.step) + ") to read every " + std::to_string(s.step) +
                      "th element without copying");
  }
  const auto sh = shape();
  const auto b = s.resolve(sh[0]);
  visit_storage([op](const auto& st) { st.require_window(op); });  // rows that are gone
  if (b.first == b.last) {
    auto empty_shape = sh;
    empty_shape[0] = 0;
    options o;
    o.device = device();
    o.layout = layout_;
    if (allocator() >= 0) o.allocator = allocator();
    return detail::array_access::allocate<T, Rank, Space>(empty_shape, o, device());
  }
  // A non-empty window of rows that exist (what the window declined: none).
  throw index_error(std::string("tack::array::") + op + ": rows [" + std::to_string(b.first) +
                    ", " + std::to_string(b.last) + ") of " + describe() + " cannot be viewed");
}

template <class T, int Rank, memory_space Space>
template <int NewRank>
array<T, NewRank, Space> array<T, Rank, Space>::reshape(
    const tack::shape<NewRank>& new_shape) const {
  require_valid("reshape");
  for (int d = 0; d < NewRank; ++d) {
    if (new_shape[d] < 0) {
      throw value_error("tack::array::reshape: extent " + std::to_string(new_shape[d]) +
                        " in shape " + shape_string(new_shape.extents) + " is negative");
    }
  }
  (void)detail::checked_nbytes("tack::array::reshape", new_shape.extents, sizeof(value_type),
                               element_name(), new_shape[0]);
  if (new_shape.size() != size()) {
    throw value_error("tack::array::reshape: cannot view " + describe() + " (" +
                      std::to_string(size()) + " elements) as shape " +
                      shape_string(new_shape.extents) + " (" + std::to_string(new_shape.size()) +
                      " elements)");
  }
  return visit_storage([&new_shape](const auto& s) { return s.reshape(new_shape); });
}

template <class T, int Rank, memory_space Space>
template <class U>
auto array<T, Rank, Space>::as_elements() const {
  static_assert(is_scalar_v<value_type>,
                "tack::array::as_elements: the array must have scalar elements; use as_scalars() "
                "first to view vector or matrix elements as scalars");
  static_assert(!is_scalar_v<U> && std::is_same_v<scalar_t<U>, value_type>,
                "tack::array::as_elements<U>: U must be a tack::vec or tack::mat of the array's "
                "scalar type (as_elements<tack::vec3f>() on a float array)");
  constexpr int consumed = is_vec_v<U> ? 1 : 2;
  static_assert(Rank > consumed,
                "tack::array::as_elements: the array needs the component extents after at least "
                "one element dimension: (n, 3) for vec3, (n, 3, 3) for mat3");
  constexpr int NewRank = Rank - consumed;
  using E = std::conditional_t<is_const, const U, U>;
  using R = array<E, NewRank, Space>;
  require_pointer("as_elements");
  const auto sh = shape();
  bool ok;
  if constexpr (is_vec_v<U>) {
    ok = sh[Rank - 1] == components_v<U>;
  } else {
    ok = sh[Rank - 2] == U::rows && sh[Rank - 1] == U::cols;
  }
  if (!ok) {
    throw value_error("tack::array::as_elements: the trailing extents of " + describe() +
                      " do not match " + std::string(dtype_of<U>().name()) + " (" +
                      [] {
                        if constexpr (is_vec_v<U>) {
                          return std::to_string(components_v<U>);
                        } else {
                          return std::to_string(U::rows) + ", " + std::to_string(U::cols);
                        }
                      }() +
                      ")");
  }
  R out = detail::array_access::uninitialized<R>();
  visit_storage([&](const auto& s) { s.view_bytes(out, sh, "as_elements"); });
  return out;
}

template <class T, int Rank, memory_space Space>
auto array<T, Rank, Space>::as_scalars() const {
  static_assert(!is_scalar_v<value_type>,
                "tack::array::as_scalars: the elements are already scalars");
  constexpr int extra = is_vec_v<value_type> ? 1 : 2;
  constexpr int NewRank = Rank + extra;
  static_assert(NewRank <= max_rank, "tack::array::as_scalars: the result would exceed rank 8");
  using R = array<const_scalar, NewRank, Space>;
  require_pointer("as_scalars");
  R out = detail::array_access::uninitialized<R>();
  visit_storage([&](const auto& s) { s.view_bytes(out, storage_shape(), "as_scalars"); });
  return out;
}

// ---- host values and copies
// ----------------------------------------------------------------------

template <class T, int Rank, memory_space Space>
std::vector<typename array<T, Rank, Space>::value_type> array<T, Rank, Space>::to_vector() const {
  require_valid("to_vector");
  return visit_storage([](const auto& s) { return s.to_vector(); });
}

template <class T, int Rank, memory_space Space>
detail::pending_vector<typename array<T, Rank, Space>::value_type>
array<T, Rank, Space>::to_vector_async() const {
  require_valid("to_vector_async");
  if (nbytes() < detail::async_copy_min_bytes) {
    std::promise<std::vector<value_type>> done;
    done.set_value(to_vector());
    return detail::pending_vector<value_type>(done.get_future());
  }
  return detail::pending_vector<value_type>(
      std::async(std::launch::async, [self = *this] { return self.to_vector(); }));
}

template <class T, int Rank, memory_space Space>
detail::pending_vector<typename array<T, Rank, Space>::value_type>
array<T, Rank, Space>::to_vector_async(const stream& s) const {
  require_valid("to_vector_async");
  if (s.device() != device()) {
    throw value_error("tack::array::to_vector_async: the stream is " + s.str() + " but the array " +
                      describe() + " is on " + device().str());
  }
  if (device().is_cpu()) return to_vector_async();
  // The copy runs on its own thread. It first waits for the work already on `s` (unified memory
  // is read by the host directly, so queuing the copy behind that work would not be enough),
  // then copies with `s` current.
  return detail::pending_vector<value_type>(std::async(std::launch::async, [self = *this, s] {
    s.synchronize();
    const stream_scope on(s);
    return self.to_vector();
  }));
}

template <class T, int Rank, memory_space Space>
array<typename array<T, Rank, Space>::value_type, Rank, Space> array<T, Rank, Space>::copy(
    const options& opts) const {
  require_valid("copy");
  if constexpr (holds_objects) {
    // Copy-constructed, as std::vector's copy is (same device and allocator unless `opts` says).
    const tack::device d = opts.device.value_or(device());
    const allocator_id id =
        opts.allocator ? *opts.allocator : (d == device() && allocator() >= 0 ? allocator() : -1);
    const value_type* src = pointer("copy");
    return detail::array_access::allocate_objects<value_type, Rank, Space>(
        shape(), d, id, opts,
        [src](value_type* p, std::size_t n) { std::uninitialized_copy_n(src, n, p); });
  }
  options o = opts;
  const tack::device d = opts.device.value_or(device());
  if (!o.layout) o.layout = layout_;
  if (!o.allocator && d == device() && allocator() >= 0) o.allocator = allocator();
  o.device = d;
  using R = array<value_type, Rank, Space>;
  R out = detail::array_access::allocate<value_type, Rank, Space>(shape(), o, d);
  detail::copy_array(out, as_const());
  return out;
}

template <class T, int Rank, memory_space Space>
array<T, Rank, Space> array<T, Rank, Space>::to_device(tack::device d) const {
  require_valid("to_device");
  if (d == device()) return *this;
  const allocator_id id = allocator();
  if (id >= 0 && allocator_from_id(id).space() == memory_space::unified) return *this;
  if (d.is_cpu() && host_accessible() && device().is_cpu()) return *this;
  return array(copy({.device = d}));
}

template <class T, int Rank, memory_space Space>
template <class U>
auto array<T, Rank, Space>::astype() const {
  using R = typename detail::astype_result<U, value_type>::type;
  static_assert(element<R>, "tack::array::astype<U>: U must be a scalar, tack::vec or tack::mat");
  static_assert(detail::astype_dimensions<value_type, R>::same);
  using Out = array<R, Rank, Space>;
  options o;
  o.device = device();
  o.layout = layout_;
  Out out = detail::array_access::allocate<R, Rank, Space>(shape(), o, device());
  if (!host_accessible()) {
    // Device memory: converted on the device, one component-wise kernel (memory/copy.hpp).
    if (size() > 0) {
      std::vector<std::uintptr_t> dst_bases, src_bases;
      detail::copy_components(detail::component_span_of(out, dst_bases),
                              detail::component_span_of(as_const(), src_bases),
                              static_cast<std::size_t>(size()));
    }
    out.bump_version();
    return out;
  }
  // Host memory: one pass through both kernel forms (either layout; no std::vector<bool>).
  using RS = scalar_t<R>;
  const index_t n = size();
  as_const().visit_kernel_form([&](auto src) {
    out.visit_kernel_form([&](auto dst) {
      for (index_t i = 0; i < n; ++i) {
        const value_type v = src[i];
        R r;
        for (int c = 0; c < components_per_element; ++c) {
          detail::set_component(
              r, c, detail::convert_scalar<RS>(detail::get_component<scalar_type>(v, c)));
        }
        dst[i] = r;
      }
    });
  });
  out.bump_version();
  return out;
}

}  // namespace tack

#include <tack/array/detail/array_growth.hpp>
