// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
#pragma once
/// @file What `tack::array` and its two storage policies share (not public): the layout states a
/// handle carries, the element-type traits, and the asynchronous host snapshot.

#include <tack/core/index.hpp>
#include <tack/detail/counted_ptr.hpp>
#include <tack/detail/storage.hpp>
#include <tack/memory/memory_space.hpp>
#include <tack/types/item.hpp>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstddef>
#include <functional>
#include <future>
#include <memory>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace tack {

template <class T, int Rank = 1, memory_space Space = memory_space::dynamic>
class array;

namespace detail {
struct array_access;  // factories and friends construct arrays through this

/// The storage policies of the handle type `A`: `aos` (aos_storage.hpp), `soa` (soa_storage.hpp)
/// and `objects`, the growth of object elements in AoS storage (object_rows.hpp). Each is a thin
/// view of one handle, `const A& a`, made by `array::visit_storage`; they share these names.
template <class A>
struct storage_policy {
  using T = typename A::element_type;
  using V = typename A::value_type;
  using S = typename A::scalar_type;
  static constexpr int Rank = A::rank;
  static constexpr memory_space Space = A::space;
  static constexpr int N = A::components_per_element;
  using shape_type = std::array<index_t, static_cast<std::size_t>(A::rank)>;
  struct aos;
  struct soa;
  struct objects;
};
/// The AoS policy of `A`. `aos_storage<array<float>>{a}.shape()`
template <class A>
using aos_storage = typename storage_policy<A>::aos;
/// The SoA policy of `A`. `soa_storage<array<vec3f>>{a}.components()`
template <class A>
using soa_storage = typename storage_policy<A>::soa;
/// The object-element growth of `A`. `object_rows<array<std::string>>{a}.resize(3, nullptr, "resize")`
template <class A>
using object_rows = typename storage_policy<A>::objects;

/// The state of an interleaved (AoS) handle: the root's shared storage (buffer, root shape,
/// growth settings) and where this handle's first element is, in bytes from the root's first
/// byte (a reshaped or `as_elements` view need not start on a row). Null `root`: a SoA handle, or
/// one moved from.
struct aos_state {
  counted_ptr<storage> root;
  std::size_t byte_offset = 0;
};

/// The state of a structure-of-arrays handle (vector and matrix elements only): the component
/// arrays it was made of, in one block shared by every copy, row view and `as_const()` of the
/// array, and the first row of this handle's window into them (a row view is the same block plus
/// a row window, so making one allocates nothing and costs one reference-count increment, as for
/// an AoS row view). The block holds mutable handles whatever the array's constness; the const
/// handle type restores it on the way out. `V` is the element type without const, so that
/// `array<T>` and `array<const T>` share one state type.
template <class V, int Rank, memory_space Space, bool HasComponents>
struct soa_state {
  using part = array<scalar_t<V>, Rank, Space>;
  using block = std::array<part, static_cast<std::size_t>(components_v<V>)>;
  counted_ptr<const block> parts;
  index_t first_row = 0;

  /// Component `c` as given at construction (without the handle's row window).
  const part& operator[](int c) const { return (*parts)[static_cast<std::size_t>(c)]; }
};
template <class V, int Rank, memory_space Space>
struct soa_state<V, Rank, Space, false> {};

/// A host snapshot being copied (`to_vector_async`): the copy runs on its own thread, which holds
/// a handle of the array, so the array stays alive until the copy ends. Destroying the result
/// without `get()` waits for the copy. `auto p = a.to_vector_async(); work(); auto v = p.get();`
template <class V>
class pending_vector {
public:
  explicit pending_vector(std::future<std::vector<V>> f) : future_(std::move(f)) {}
  /// Waits for the copy and returns the values (once); an error of the copy is thrown here.
  std::vector<V> get() { return future_.get(); }
  /// Waits for the copy without taking the values.
  void wait() const { future_.wait(); }
  /// Whether the copy has ended (`get()` will not wait).
  bool ready() const {
    return future_.wait_for(std::chrono::seconds(0)) == std::future_status::ready;
  }

private:
  std::future<std::vector<V>> future_;
};

/// Below this many bytes `to_vector_async` copies before it returns: starting a thread costs
/// more than such a copy.
inline constexpr std::size_t async_copy_min_bytes = std::size_t{256} << 10;

/// The C++ name of `T` as the compiler spells it (`"std::string"` for `std::string`), for the
/// messages about arrays of types that have no `tack::dtype`. `detail::type_name<particle>()`
template <class T>
constexpr std::string_view type_name() noexcept {
  if constexpr (std::is_same_v<T, std::string>) {
    return "std::string";
  } else {
    // GCC and Clang: "... type_name() [with T = particle; ...]" or "... [T = particle]".
    const std::string_view f = __PRETTY_FUNCTION__;
    const auto start = f.find("T = ");
    if (start == std::string_view::npos) return "object";
    const auto first = start + 4;
    const auto last = f.find_first_of(";]", first);
    return f.substr(first, last == std::string_view::npos ? f.size() - first : last - first);
  }
}

/// Whether `T` is an element that lives as bytes (trivially copyable: scalars, `vec`, `mat`,
/// plain structs): copies are `memcpy`, growth moves bytes, nothing is constructed or destroyed.
/// Other element types (`std::string`, classes with constructors or destructors) are objects,
/// handled as `std::vector` handles them, in host memory only.
template <class T>
inline constexpr bool bytes_element_v = std::is_trivially_copyable_v<T>;

/// Copies `n` objects from `src` to `dst` by assignment with `memmove`'s result where the ranges
/// overlap (forward when `dst` is before `src`, backward otherwise).
template <class T>
void assign_objects(T* dst, const T* src, std::size_t n) {
  if (dst == src || n == 0) return;
  if (std::less<const T*>{}(dst, src)) {
    std::copy(src, src + n, dst);
  } else {
    std::copy_backward(src, src + n, dst + n);
  }
}

}  // namespace detail
}  // namespace tack
