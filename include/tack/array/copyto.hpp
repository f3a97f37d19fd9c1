// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
#pragma once
/// @file `tack::copyto(dst, src[, stream])`, `tack::fill` and `tack::array_equal(a, b)`: values into
/// an existing array.

#include <tack/array/array.hpp>
#include <tack/core/concepts.hpp>
#include <tack/core/kernel_form.hpp>
#include <tack/exec/parallel_for.hpp>
#include <tack/exec/stream.hpp>

#include <array>
#include <cstring>
#include <initializer_list>
#include <tuple>
#include <span>
#include <string>
#include <vector>

namespace tack {
namespace detail {
template <class D>
void require_copy_target(const D& dst, const char* op) {
  if (dst.read_only()) {
    throw read_only_error(std::string("tack::") + op + ": the destination " + dst.describe() +
                          " is read-only");
  }
}
}  // namespace detail

/// Copies the elements of `src` (any layout or device; same element type; same shape) into `dst`.
/// `tack::copyto(a.rows(2, 4), b);`
template <class T, int R, memory_space S, class U, int R2, memory_space S2>
void copyto(const array<T, R, S>& dst, const array<U, R2, S2>& src) {
  static_assert(!std::is_const_v<T>,
                "tack::copyto: the destination is a read-only handle "
                "(array<const T>); pass a writable array");
  static_assert(std::is_same_v<std::remove_const_t<U>, T>,
                "tack::copyto: source and destination element types differ; convert with "
                "src.astype<T>() first");
  static_assert(R == R2,
                "tack::copyto: source and destination ranks differ; reshape() one of them");
  detail::require_copy_target(dst, "copyto");
  if (dst.shape() != src.shape()) {
    throw value_error("tack::copyto: shapes differ: destination " + dst.describe() + ", source " +
                      src.describe());
  }
  detail::copy_array(dst, src.as_const());
}

/// Copies host values (row-major) into `dst`; for vector and matrix arrays the values may also be
/// the scalar components (`3 * n` floats into `n` `vec3f`). Counts must match exactly.
template <class T, int R, memory_space S, class V>
void copyto(const array<T, R, S>& dst, std::span<const V> values) {
  static_assert(!std::is_const_v<T>, "tack::copyto: the destination is a read-only handle");
  static_assert(std::is_same_v<V, T> || std::is_same_v<V, scalar_t<T>>,
                "tack::copyto: host values must be of the array's element type or its scalar type");
  detail::require_copy_target(dst, "copyto");
  constexpr std::size_t per = std::is_same_v<V, T> ? 1 : static_cast<std::size_t>(components_v<T>);
  const auto n = static_cast<std::size_t>(dst.size());
  if (values.size() != n * per) {
    std::string expected = shape_string(dst.shape());
    if (per > 1) expected = shape_string(dst.storage_shape());
    throw value_error("tack::copyto: " + std::to_string(values.size()) + " values (shape (" +
                      std::to_string(values.size()) + ")) do not match " + dst.describe() +
                      " (shape " + expected + ")");
  }
  if constexpr (array<T, R, S>::holds_objects) {
    // Assignment, with memmove's result when the values are elements of `dst`.
    detail::assign_objects(reinterpret_cast<T*>(detail::array_access::byte_range(dst).first),
                           values.data(), n);
    dst.bump_version();
    return;
  }
  if (dst.layout() == layout::aos) {
    detail::copy_bytes(reinterpret_cast<void*>(detail::array_access::byte_range(dst).first),
                       dst.host_accessible(), values.data(), true, n * sizeof(T));
    dst.bump_version();
    return;
  }
  if constexpr (array<T, R, S>::can_be_soa) {
    // SoA: split the values among the components.
    auto parts = dst.components();
    std::vector<scalar_t<T>> part(n);
    for (int c = 0; c < components_v<T>; ++c) {
      for (std::size_t i = 0; i < n; ++i) {
        if constexpr (per == 1) {
          part[i] = detail::get_component<scalar_t<T>>(values[i], c);
        } else {
          part[i] = values[i * per + static_cast<std::size_t>(c)];
        }
      }
      copyto(parts[static_cast<std::size_t>(c)], std::span<const scalar_t<T>>(part));
    }
  }
}
template <class T, int R, memory_space S, class V, class A>
void copyto(const array<T, R, S>& dst, const std::vector<V, A>& values) {
  copyto(dst, std::span<const V>(values.data(), values.size()));
}
template <class T, int R, memory_space S>
void copyto(const array<T, R, S>& dst, std::initializer_list<std::remove_const_t<T>> values) {
  copyto(dst, std::span<const std::remove_const_t<T>>(values.begin(), values.size()));
}

namespace detail {
/// The rank a source's `shape()` gives (a rank-2 or rank-3 implicit array, a kernel view), 1 for
/// sources without one.
template <class Src>
consteval int source_rank() {
  if constexpr (requires(const Src& s) {
                  std::tuple_size<std::remove_cvref_t<decltype(s.shape())>>::value;
                }) {
    return static_cast<int>(
        std::tuple_size_v<std::remove_cvref_t<decltype(std::declval<const Src&>().shape())>>);
  } else {
    return 1;
  }
}

/// A source of rank > 1 must have the destination's shape, not only its element count: a (3, 2)
/// grid copied into a (2, 3) array is a `value_error` naming both shapes.
template <class A, class Src>
void require_same_shape(const A& dst, const Src& src) {
  if constexpr (source_rank<Src>() > 1) {
    const auto ss = src.shape();
    const auto ds = dst.shape();
    bool same = ss.size() == ds.size();
    for (std::size_t d = 0; same && d < ss.size(); ++d) same = static_cast<index_t>(ss[d]) == ds[d];
    if (!same) {
      std::array<index_t, std::tuple_size_v<decltype(ss)>> source_shape{};
      for (std::size_t d = 0; d < ss.size(); ++d) source_shape[d] = static_cast<index_t>(ss[d]);
      throw value_error("tack::copyto: the source's shape " + shape_string(source_shape) +
                        " differs from the destination's shape " + shape_string(ds) + " (" +
                        dst.describe() + "); a source of rank " + std::to_string(ss.size()) +
                        " is copied index by index, so the shapes must "
                        "match: reshape() the destination to the source's shape");
    }
  }
}
}  // namespace detail

namespace detail {
/// The kernel of a copy from a computed array into device memory: `dst[i] = src[i]`.
template <class D, class K>
struct store_kernel {
  D dst;
  K src;
  TACK_HOST_DEVICE void operator()(index_t i) const {
    D out = dst;  // kernel forms are shallow-const: a copy stores through to the same memory
    out[i] = src[i];
  }
};

TACK_IMPL_KERNEL_ABI_BEGIN
/// `copyto(dst, src)` into device memory: one kernel on `dst`'s device (in code compiled by nvcc in
/// a CUDA build; elsewhere `with_backend_of` refuses with a `device_error` saying so). Every array
/// the source reads must be on that device; when one shares memory with `dst`, the values go
/// into a fresh device array first and are then copied (NumPy's result).
template <class T, int R, memory_space S, class Src, class K>
void copy_computed_on_device(const array<T, R, S>& dst, const Src& src, const K& k) {
  bool overlap = false;
  tack::for_each_array(src, [&](const auto& a) {
    if (a.device() != dst.device()) {
      throw value_error("tack::copyto: the source holds " + a.describe() +
                        ", but the destination " + dst.describe() + " is on " + dst.device().str() +
                        "; the copy runs there and reads only arrays on that device: move the "
                        "array with to_device(" +
                        dst.device().str() + ") first");
    }
    overlap = overlap || arrays_overlap(dst, a);
  });
  auto run = [&](const auto& target) {
    target.visit_kernel_form([&](auto dv) {
      const store_kernel<decltype(dv), K> kernel{dv, k};
      with_backend_of(dst.device(), "tack::copyto",
                      [&](auto backend) { tack::parallel_for(backend, target.size(), kernel); });
    });
  };
  if (!overlap) {
    run(dst);
    return;
  }
  options o;
  o.device = dst.device();
  o.layout = dst.layout();
  auto staged = array_access::allocate<T, R, S>(dst.shape(), o, dst.device());
  run(staged);
  copy_array(dst, staged.as_const());
}
TACK_IMPL_KERNEL_ABI_END
}  // namespace detail

TACK_IMPL_KERNEL_ABI_BEGIN
/// Copies any readable array (an implicit array, a kernel view, a user's array type) into `dst`,
/// element by element in one pass, without materializing `src`. A source of rank > 1 (a 2-D or
/// 3-D implicit array, a 2-D view) must have `dst`'s shape; a rank-1 source fills `dst` in
/// row-major order and needs only the same size. Into device memory the pass is one kernel on
/// `dst`'s device (code compiled by nvcc; arrays the source holds must be on that device).
template <class T, int R, memory_space S, class Src>
requires(!is_array_v<Src> && (readable_array<Src> || requires(const Src& s) {
  s.visit_kernel_form([](auto) {});
})) void copyto(const array<T, R, S>& dst, const Src& src) {
  static_assert(!std::is_const_v<T>, "tack::copyto: the destination is a read-only handle");
  detail::require_copy_target(dst, "copyto");
  detail::require_same_shape(dst, src);
  visit_kernel_form(src, [&](const auto& k) {
    if (static_cast<index_t>(k.size()) != dst.size()) {
      throw value_error("tack::copyto: the source has " + std::to_string(k.size()) +
                        " elements but the destination " + dst.describe() + " has " +
                        std::to_string(dst.size()));
    }
    if (!dst.host_accessible()) {
      detail::copy_computed_on_device(dst, src, k);
      return;
    }
    bool overlap = false;
    tack::for_each_array(
        src, [&](const auto& a) { overlap = overlap || detail::arrays_overlap(dst, a); });
    dst.visit_kernel_form([&](auto dv) {
      const index_t n = dst.size();
      if (overlap) {
        // The source reads memory the copy writes: read every value first (NumPy's result).
        std::vector<std::remove_const_t<T>> staged(static_cast<std::size_t>(n));
        for (index_t i = 0; i < n; ++i) staged[static_cast<std::size_t>(i)] = k[i];
        for (index_t i = 0; i < n; ++i) dv[i] = staged[static_cast<std::size_t>(i)];
        return;
      }
      for (index_t i = 0; i < n; ++i) dv[i] = k[i];
    });
  });
  dst.bump_version();
}
TACK_IMPL_KERNEL_ABI_END

namespace detail {
// What a destination that is not a tack::array needs before a host pass: every tack::array it
// holds is writable and in host memory.
template <class D>
void require_host_target(const D& dst, const char* op) {
  tack::for_each_array(dst, [&](const auto& a) {
    require_copy_target(a, op);
    if (!a.host_accessible()) {
      throw device_error(std::string("tack::") + op + ": the destination holds " + a.describe() +
                         ", in device memory; store into it with a kernel (tack::launch on that "
                         "device)");
    }
  });
}
template <class D>
void bump_versions(const D& dst) {
  tack::for_each_array(dst, [](const auto& a) { a.bump_version(); });
}
// Why a computed destination is refused, said once for copyto and fill.
#define TACK_IMPL_COMPUTED_DESTINATION_MESSAGE(op)                                             \
  op ": the destination is a computed array: its elements are values, not places to store. "   \
     "Store into a tack::array (or a view of one), or into an implicit array that writes "     \
     "through to stored memory (tack::arrays::view, permutation, strided, extract_component, " \
     "or transform with an inverse)"
}  // namespace detail

namespace detail {
// The host pass behind copyto and fill into a destination that is not a tack::array: checks the
// held arrays, then `with_values(n, store)` calls `store(value_of)` once, and `value_of(i)` is
// stored into element i; the held arrays' versions are bumped. A computed destination is refused
// at compile time with the operation's name.
template <bool IsFill, class Dst, class WithValues>
void store_on_host(const Dst& dst, const WithValues& with_values) {
  visit_kernel_form(dst, [&](const auto& d) {
    using D = std::remove_cvref_t<decltype(d)>;
    if constexpr (requires { D::functor_type::kernel_stores_only; }) {
      static_assert(
          !IsFill && !requires { D::functor_type::kernel_stores_only; },
          "tack::fill: tack::arrays::components is an implicit array, not storage; fill "
          "tack::soa(x, y, ...) over the same component arrays, or store in a kernel");
      static_assert(
          IsFill || !requires { D::functor_type::kernel_stores_only; },
          "tack::copyto: tack::arrays::components is an implicit array, not storage; "
          "copy into tack::soa(x, y, ...) over the same component arrays, or store in a "
          "kernel");
    } else if constexpr (!writable_array<D>) {
      if constexpr (IsFill) {
        static_assert(writable_array<D>, TACK_IMPL_COMPUTED_DESTINATION_MESSAGE("tack::fill"));
      } else {
        static_assert(writable_array<D>, TACK_IMPL_COMPUTED_DESTINATION_MESSAGE("tack::copyto"));
      }
    } else {
      require_host_target(dst, IsFill ? "fill" : "copyto");
      const auto n = static_cast<index_t>(d.size());
      with_values(n, [&](const auto& value_of) {
        D out = d;  // kernel forms are shallow-const: a copy stores through to the same memory
        for (index_t i = 0; i < n; ++i) out[i] = value_of(i);
      });
    }
  });
  bump_versions(dst);
}
}  // namespace detail

/// Copies `src` into a writable array that is not a `tack::array` (a writable implicit array, a
/// kernel view, a user's array type), element by element in one host pass; the held arrays'
/// versions are bumped. Scatter is a copy into a permutation:
/// `tack::copyto(tack::arrays::permutation(order, out), values);  // out[order[i]] = values[i]`
/// A computed destination (`counting`, a `transform` without inverse) fails to compile.
template <class Dst, class Src>
requires(!is_array_v<Dst> && (readable_array<Dst> || requires(const Dst& d) {
  d.visit_kernel_form([](auto) {});
})) void copyto(const Dst& dst, const Src& src) {
  detail::store_on_host<false>(dst, [&](index_t n, const auto& store) {
    tack::for_each_array(src, [](const auto& a) {
      if (!a.host_accessible()) {
        throw device_error("tack::copyto: the source holds " + a.describe() +
                           ", in device memory; copy it with a kernel (tack::launch) or "
                           "to_device(tack::cpu()) first");
      }
    });
    bool overlap = false;
    tack::for_each_array(dst, [&](const auto& d) {
      tack::for_each_array(
          src, [&](const auto& a) { overlap = overlap || detail::arrays_overlap(d, a); });
    });
    visit_kernel_form(src, [&](const auto& k) {
      if (static_cast<index_t>(k.size()) != n) {
        throw value_error("tack::copyto: the source has " + std::to_string(k.size()) +
                          " elements but the destination has " + std::to_string(n));
      }
      if (overlap) {
        // The source reads memory the copy writes: read every value first (NumPy's result).
        using K = std::remove_cvref_t<decltype(k)>;
        std::vector<array_value_t<K>> staged(static_cast<std::size_t>(n));
        for (index_t i = 0; i < n; ++i) staged[static_cast<std::size_t>(i)] = k[i];
        store([&](index_t i) { return staged[static_cast<std::size_t>(i)]; });
        return;
      }
      store([&](index_t i) { return k[i]; });
    });
  });
}

/// Sets every element of `dst` to `value`: a `tack::array` (any layout or device;
/// the same as `dst.fill(value)`) or any writable array. `tack::fill(tack::arrays::strided(a, 2), 0.0);`
template <class T, int R, memory_space S>
void fill(const array<T, R, S>& dst, const std::remove_const_t<T>& value) {
  static_assert(!std::is_const_v<T>,
                "tack::fill: the destination is a read-only handle "
                "(array<const T>); pass a writable array");
  dst.fill(value);
}
template <class Dst, class V>
requires(!is_array_v<Dst> && (readable_array<Dst> || requires(const Dst& d) {
  d.visit_kernel_form([](auto) {});
})) void fill(const Dst& dst, const V& value) {
  detail::store_on_host<true>(
      dst, [&](index_t, const auto& store) { store([&](index_t) -> const V& { return value; }); });
}

/// `copyto(dst, src)` queued on stream `s` (tack/exec/stream.hpp): one of the arrays involved must
/// be on `s.device()` (a `value_error` naming the stream otherwise). A copy that only touches
/// memory of `s`'s device returns once queued; one that reads or writes host memory is complete
/// when it returns, ordered after the work queued on `s` before it. On the CPU it runs now.
/// `tack::copyto(host_out, device_result, s);`
template <class Dst, class Src>
void copyto(const Dst& dst, const Src& src, const stream& s) {
  if (s.device().is_gpu()) {
    bool on_stream_device = false;
    auto check = [&](const auto& a) {
      on_stream_device = on_stream_device || a.device() == s.device();
    };
    tack::for_each_array(dst, check);
    tack::for_each_array(src, check);
    if (!on_stream_device) {
      std::string where;
      tack::for_each_array(dst, [&](const auto& a) { where += " " + a.describe(); });
      tack::for_each_array(src, [&](const auto& a) { where += " " + a.describe(); });
      throw value_error("tack::copyto: the stream is " + s.str() +
                        " but no array of the copy is on " + s.device().str() +
                        " (arrays:" + (where.empty() ? std::string(" none") : where) +
                        "); queue the copy on a stream of the arrays' device");
    }
  }
  const stream_scope on(s);
  tack::copyto(dst, src);
}

/// Whether `a` and `b` have the same shape and equal elements (any layouts and devices).
template <class T, int R, memory_space S, class U, int R2, memory_space S2>
bool array_equal(const array<T, R, S>& a, const array<U, R2, S2>& b) {
  if constexpr (R != R2 || !std::is_same_v<std::remove_const_t<T>, std::remove_const_t<U>>) {
    return false;
  } else {
    if (a.shape() != b.shape()) return false;
    return a.to_vector() == b.to_vector();
  }
}

}  // namespace tack
