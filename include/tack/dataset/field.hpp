// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
#pragma once
/// @file `tack::dataset::field<T>` (values on a function space, interpolation as a kernel) and
/// `tack::dataset::any_field`, its type-erased handle (what a mesh's `fields` holds).

#include <tack/array/any_array.hpp>
#include <tack/array/array.hpp>
#include <tack/array/factories.hpp>
#include <tack/dataset/detail/geometry.hpp>
#include <tack/dataset/detail/interpolate_kernel.hpp>
#include <tack/dataset/detail/locator.hpp>
#include <tack/dataset/detail/stencil.hpp>
#include <tack/dataset/detail/structured_forms.hpp>
#include <tack/dataset/space.hpp>
#include <tack/exec/parallel_for.hpp>
#include <tack/exec/threads.hpp>
#include <tack/types/item.hpp>
#include <tack/types/vec.hpp>
#include <tack/view/view.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

namespace tack::dataset {
namespace detail {

/// Calls `f(form)` with the kernel form of `g` whose arrays are on `dev` (the rectilinear axes,
/// the unstructured points, cells and locator bins; copied there when they live elsewhere).
template <class F>
void with_mesh_form(const mesh_geometry& g, const tack::device& dev, F&& f) {
  switch (g.kind()) {
    case mesh_kind::uniform: {
      f(static_cast<const uniform_geometry&>(g).form());
      return;
    }
    case mesh_kind::rectilinear: {
      const auto& r = static_cast<const rectilinear_geometry&>(g);
      const array<const double> ax[3] = {r.axes[0].to_device(dev).as_const(),
                                         r.axes[1].to_device(dev).as_const(),
                                         r.axes[2].to_device(dev).as_const()};
      rectilinear_form<tack::view<const double, 1>> form{
          {ax[0].view(), ax[1].view(), ax[2].view()}, {ax[0].size(), ax[1].size(), ax[2].size()}};
      f(form);
      return;
    }
    case mesh_kind::unstructured: {
      const auto& u = static_cast<const unstructured_geometry&>(g);
      const auto loc = u.locator();
      const array<const index_t> conn = u.connectivity.to_device(dev).as_const();
      const array<const index_t> off = u.offsets.to_device(dev).as_const();
      const array<const std::uint8_t> types = u.types.to_device(dev).as_const();
      const array<const index_t> bs = loc->bin_start.to_device(dev).as_const();
      const array<const locator_entry> entries = loc->entries.to_device(dev).as_const();
      std::visit(
          [&](const auto& points) {
            const auto p = points.to_device(dev).as_const();
            p.visit_kernel_form([&](auto pv) {
              unstructured_form<decltype(read_points(pv)), tack::view<const index_t, 1>,
                                tack::view<const std::uint8_t, 1>,
                                tack::view<const locator_entry, 1>>
                  form{read_points(pv),
                       conn.view(),
                       off.view(),
                       types.view(),
                       bs.view(),
                       entries.view(),
                       {loc->bins[0], loc->bins[1], loc->bins[2]},
                       {loc->lo[0], loc->lo[1], loc->lo[2]},
                       {loc->inv_bin[0], loc->inv_bin[1], loc->inv_bin[2]},
                       {loc->eps[0], loc->eps[1], loc->eps[2]}};
              f(form);
            });
          },
          u.points);
      return;
    }
  }
}

/// One query point, read as a one-element array by the interpolation kernel.
template <class P>
struct single_point {
  P p;
  TACK_HOST_DEVICE P operator[](index_t) const { return p; }
};
/// One result, written as a one-element array by the interpolation kernel.
template <class T>
struct single_result {
  T* r;
  TACK_HOST_DEVICE T& operator[](index_t) const { return *r; }
};

/// A kernel argument seen in the queries' order: element `k` is `base[order[k]]` (host memory).
template <class Base>
struct reordered {
  Base base;
  const index_t* order;
  TACK_HOST_DEVICE decltype(auto) operator[](index_t k) const { return base[order[k]]; }
};

/// Writes each query's `order_key` (a kernel, so that it runs on the CPU's threads).
template <class Mesh, class Points>
struct order_key_kernel {
  Mesh mesh;
  Points points;
  std::uint32_t* keys;
  index_t buckets;
  TACK_HOST_DEVICE void operator()(index_t i) const {
    keys[i] = static_cast<std::uint32_t>(mesh.order_key(points[i], buckets));
  }
};

/// One piece of the counting sort of `query_order`: piece `c` of `pieces` equal stretches of the
/// queries counts its keys (`scatter` false) into `at[c * buckets + key]`, or (`scatter` true)
/// writes each query's position and point to where `at` says, stretch by stretch in query order.
template <class Points, class Point>
struct order_piece_kernel {
  Points points;
  const std::uint32_t* keys;
  index_t* at;
  index_t* order;
  Point* sorted;
  index_t n;
  index_t pieces;
  index_t buckets;
  bool scatter;
  TACK_HOST_DEVICE void operator()(index_t c) const {
    index_t* mine = at + c * buckets;
    const index_t first = n / pieces * c + (c < n % pieces ? c : n % pieces);
    const index_t end = first + n / pieces + (c < n % pieces ? 1 : 0);
    for (index_t i = first; i < end; ++i) {
      if (!scatter) {
        ++mine[keys[i]];
      } else {
        const index_t pos = mine[keys[i]]++;
        order[pos] = i;
        sorted[pos] = static_cast<Point>(points[i]);
      }
    }
  }
};

/// Queries below this many are interpolated in their own order: grouping them would cost more
/// than the cache misses it saves.
inline constexpr index_t order_min_queries = index_t{1} << 15;
/// Meshes whose values (and, for unstructured meshes, cells) take fewer bytes than this stay in
/// the CPU's caches in any query order: their queries are not grouped.
inline constexpr std::size_t order_min_bytes = std::size_t{2} << 20;

/// The queries grouped by the mesh form's `order_key` (a group of locator bins):
/// `order[k]` is the query at position `k` and `sorted[k]` its point. Consecutive queries then read
/// the same values and cells from the cache instead of each waiting on memory (random queries in a
/// large mesh otherwise miss the cache for every corner). A counting sort on `dev`'s threads, ties
/// in query order (the result does not depend on the thread count). Host memory.
template <class S>
struct query_order {
  using Point = vec<S, 3>;
  array<index_t> order;
  array<Point> sorted;

  template <class Mesh>
  query_order(const tack::device& dev, const Mesh& mesh, const point_reader<S>& points, index_t n)
      : order(tack::empty<index_t>(n, {.device = dev})),
        sorted(tack::empty<Point>(n, {.device = dev})) {
    using Points = point_reader<S>;
    const index_t buckets = mesh.order_buckets(std::clamp<index_t>(n / 4, 1, index_t{1} << 30));
    const index_t pieces = std::clamp<index_t>(tack::num_threads(), 1, n);
    array<std::uint32_t> keys = tack::empty<std::uint32_t>(n, {.device = dev});
    tack::parallel_for(dev, n, order_key_kernel<Mesh, Points>{mesh, points, keys.data(), buckets});
    std::vector<index_t> at(static_cast<std::size_t>(pieces * buckets), 0);
    order_piece_kernel<Points, Point> piece{
        points, keys.data(), at.data(), order.data(), sorted.data(), n, pieces, buckets, false};
    tack::parallel_for(dev, pieces, piece);
    index_t total = 0;  // each piece's first position for each key: key-major, then piece order
    for (index_t b = 0; b < buckets; ++b) {
      for (index_t c = 0; c < pieces; ++c) {
        const index_t count = at[static_cast<std::size_t>(c * buckets + b)];
        at[static_cast<std::size_t>(c * buckets + b)] = total;
        total += count;
      }
    }
    piece.scatter = true;
    tack::parallel_for(dev, pieces, piece);
  }
};

/// Calls `sink(bytes, count)` with the elements of `a` as interleaved components (VTK's layout),
/// chunk by chunk: host AoS memory in one piece, SoA arrays gathered component by component into
/// a staging buffer, device memory through a host copy.
template <class T, int R>
void for_each_interleaved_chunk(const array<T, R>& a,
                                const std::function<void(const void*, std::size_t)>& sink) {
  using V = std::remove_const_t<T>;
  const auto c = a.as_const();
  const index_t n = c.size();
  if (n == 0) return;
  if (!c.host_accessible()) {
    const auto v = c.to_vector();
    if constexpr (std::is_same_v<V, bool>) {
      const std::vector<unsigned char> bytes(v.begin(), v.end());
      sink(bytes.data(), bytes.size());
    } else {
      sink(v.data(), v.size() * sizeof(V));
    }
    return;
  }
  if constexpr (components_v < V >> 1) {
    if (c.layout() == tack::layout::soa) {
      using S = scalar_t<V>;
      constexpr int C = components_v<V>;
      const auto parts = c.components();
      std::vector<const S*> comp(static_cast<std::size_t>(C));
      for (int k = 0; k < C; ++k)
        comp[static_cast<std::size_t>(k)] = parts[static_cast<std::size_t>(k)].data();
      constexpr index_t chunk = 1 << 15;
      std::vector<S> staging(static_cast<std::size_t>(std::min(n, chunk) * C));
      for (index_t first = 0; first < n; first += chunk) {
        const index_t m = std::min(chunk, n - first);
        for (int k = 0; k < C; ++k) {
          const S* src = comp[static_cast<std::size_t>(k)] + first;
          S* dst = staging.data() + k;
          for (index_t i = 0; i < m; ++i) dst[i * C] = src[i];
        }
        sink(staging.data(), static_cast<std::size_t>(m * C) * sizeof(S));
      }
      return;
    }
  }
  if constexpr (std::is_same_v<V, bool>) {
    const auto v = c.to_vector();
    std::vector<unsigned char> bytes(v.begin(), v.end());
    sink(bytes.data(), bytes.size());
  } else {
    sink(c.data(), static_cast<std::size_t>(n) * sizeof(V));
  }
}

}  // namespace detail

/// Values of element type `T` (scalar, `vec`, `mat`; either layout, any device) on a function
/// space: `values.size()` must equal `space.size()`. The element type says how many components a
/// value has; the space says where values live and how they interpolate.
/// `auto v = tack::dataset::field(tack::dataset::H1(grid), tack::zeros<tack::vec3f>(grid.n_points()));`
template <class T>
class field {
  static_assert(!std::is_const_v<T> && element<T>,
                "tack::dataset::field: the element type must be a scalar, tack::vec or tack::mat");

public:
  using value_type = T;

  /// Checks that there is one value per degree of freedom (`value_error` naming both sizes).
  field(function_space space, array<T> values)
      : space_(std::move(space)), values_(std::move(values)) {
    if (values_.size() != space_.size()) {
      throw value_error("tack::dataset::field: the values have " + std::to_string(values_.size()) +
                        " elements but the " + space_.describe() + " has size " +
                        std::to_string(space_.size()) + " (values: " + values_.describe() + ")");
    }
  }

  const function_space& space() const noexcept { return space_; }
  const array<T>& values() const noexcept { return values_; }
  index_t size() const { return values_.size(); }
  /// `"field<vec3(f32)> on H1 space on uniform_grid (2, 2, 2)"`.
  std::string describe() const {
    return "field<" + std::string(values_.dtype().name()) + "> on " + space_.describe();
  }

  /// The field at one point (`vec3f` or `vec3d`); NaN in every component outside the mesh.
  /// Floating-point element types only. `tack::vec3f u = f.interpolate(tack::vec3d{0.5, 0.5, 0.5});`
  template <class S>
  T interpolate(const vec<S, 3>& point) const {
    static_assert(
        std::is_floating_point_v<scalar_t<T>>,
        "tack::dataset::field::interpolate: interpolation needs a floating-point element type");
    static_assert(std::is_same_v<S, float> || std::is_same_v<S, double>,
                  "tack::dataset::field::interpolate: a point is a vec3f or a vec3d");
    // Exact: every mesh form computes in double.
    return interpolate_at(vec<double, 3>{static_cast<double>(point[0]),
                                         static_cast<double>(point[1]),
                                         static_cast<double>(point[2])});
  }

  /// The field at each point of `points` (`vec3f` or `vec3d`, either layout), computed by a kernel
  /// on the values' device; NaN outside the mesh. The points must be on that device.
  /// `tack::array<tack::vec3f> u = f.interpolate(points);`
  template <class P>
  requires(is_vec_v<std::remove_const_t<P>>&& components_v<std::remove_const_t<P>> ==
           3) array<T> interpolate(const array<P>& points)
  const {
    static_assert(
        std::is_floating_point_v<scalar_t<T>>,
        "tack::dataset::field::interpolate: interpolation needs a floating-point element type");
    using S = scalar_t<std::remove_const_t<P>>;
    static_assert(std::is_same_v<S, float> || std::is_same_v<S, double>,
                  "tack::dataset::field::interpolate: the points are vec3f or vec3d");
    const tack::device dev = values_.device();
    if (points.device() != dev) {
      throw value_error("tack::dataset::field::interpolate: the points (" + points.describe() +
                        ") are not on the field's device " + dev.str() + "; use points.to_device(" +
                        dev.str() + ")");
    }
    detail::point_reader<S> reader;
    if (points.size() > 0) {
      points.as_const().visit_kernel_form([&](auto pv) { reader = detail::read_points(pv); });
    }
    return interpolate_all(reader, dev);
  }

private:
  /// `interpolate` at one point, on the host (one kernel call) or, for device values, through a
  /// one-point array.
  T interpolate_at(const vec<double, 3>& point) const {
    if (!values_.host_accessible()) {
      auto one = array_from(std::vector<vec<double, 3>>{point}).to_device(values_.device());
      return interpolate(one).to_vector()[0];
    }
    T result{};
    const bool cells = space_.kind() == space_kind::L2;
    detail::with_mesh_form(space_.geometry(), values_.device(), [&](const auto& mesh) {
      values_.as_const().visit_kernel_form([&](auto vv) {
        detail::interpolate_kernel<T, std::decay_t<decltype(mesh)>, decltype(vv),
                                   detail::single_point<vec<double, 3>>, detail::single_result<T>>
            k{mesh, vv, {point}, {&result}, cells, 0};
        k(0);
      });
    });
    return result;
  }

  /// `interpolate` over the `points.size()` points of `points` (on `dev`): one kernel per mesh
  /// form, values layout and coordinate type, whatever the points' layout.
  template <class S>
  array<T> interpolate_all(const detail::point_reader<S>& points, const tack::device& dev) const {
    const index_t n = points.size();
    array<T> out = tack::empty<T>(n, {.device = dev});
    if (n == 0) return out;
    const auto ov = out.view();
    const bool cells = space_.kind() == space_kind::L2;
    const bool grouped =
        dev.is_cpu() && n >= detail::order_min_queries && mesh_bytes() >= detail::order_min_bytes;
    detail::with_mesh_form(space_.geometry(), dev, [&](const auto& mesh) {
      using Mesh = std::decay_t<decltype(mesh)>;
      using Points = detail::point_reader<S>;
      values_.as_const().visit_kernel_form([&](auto vv) {
        using V = decltype(vv);
        if constexpr (requires { mesh.order_key(points[0], index_t{1}); }) {
          if (grouped) {
            const detail::query_order<S> q(dev, mesh, points, n);
            const Points sorted = detail::read_points(q.sorted.as_const().view());
            using RO = detail::reordered<decltype(ov)>;
            tack::parallel_for(dev, n,
                               detail::interpolate_kernel<T, Mesh, V, Points, RO>{
                                   mesh, vv, sorted, RO{ov, q.order.data()}, cells, n});
            return;
          }
        }
        tack::parallel_for(dev, n,
                           detail::interpolate_kernel<T, Mesh, V, Points, decltype(ov)>{
                               mesh, vv, points, ov, cells, n});
      });
    });
    out.bump_version();
    return out;
  }

  /// What one interpolation may read besides the points: the values and, for an unstructured
  /// mesh, its cells (an estimate for `query_order`'s threshold).
  std::size_t mesh_bytes() const {
    std::size_t bytes = values_.nbytes();
    if (space_.geometry().kind() == mesh_kind::unstructured) {
      const auto& u = static_cast<const detail::unstructured_geometry&>(space_.geometry());
      bytes += u.connectivity.nbytes() + u.offsets.nbytes();
    }
    return bytes;
  }

  function_space space_;
  array<T> values_;
};

/// A field of any element type (what `mesh.fields` holds): shares the field's values.
/// `tack::dataset::any_field f = tack::dataset::field(space, values); auto typed = f.as<float>();`
class any_field {
public:
  any_field() = default;
  template <class T>
  any_field(const field<T>& f) : holder_(std::make_shared<holder<T>>(f)) {}

  bool has_value() const noexcept { return static_cast<bool>(holder_); }
  const function_space& space() const { return require("space").space(); }
  /// The element type (`vec3(f32)`).
  tack::dtype dtype() const { return require("dtype").values().dtype(); }
  /// The component type (`f32`).
  tack::dtype scalar_dtype() const { return require("scalar_dtype").scalar_dtype(); }
  /// Components per value: 1, 2, 3, 4, 9 or 16.
  int components() const { return require("components").components(); }
  index_t size() const { return require("size").values().size(); }
  /// The values, type-erased (the same memory).
  any_array values() const { return require("values").values(); }
  std::string describe() const { return holder_ ? holder_->describe() : "any_field (empty)"; }
  /// Whether the values have element type `T`.
  template <class T>
  bool holds() const noexcept {
    return dynamic_cast<const holder<T>*>(holder_.get()) != nullptr;
  }
  /// The typed field; another element type is a `type_error` naming both.
  template <class T>
  const field<T>& as() const {
    auto* h = dynamic_cast<const holder<T>*>(holder_.get());
    if (!h) {
      throw type_error("tack::dataset::any_field::as<" + std::string(dtype_of<T>().name()) +
                       ">: the field is " + describe());
    }
    return h->f;
  }
  /// Calls `sink(bytes, count)` with the values as interleaved little-endian components, chunk
  /// by chunk (a SoA field is gathered component by component).
  void for_each_chunk(const std::function<void(const void*, std::size_t)>& sink) const {
    require("for_each_chunk").for_each_chunk(sink);
  }

private:
  struct holder_base {
    virtual ~holder_base() = default;
    virtual const function_space& space() const = 0;
    virtual any_array values() const = 0;
    virtual tack::dtype scalar_dtype() const = 0;
    virtual int components() const = 0;
    virtual std::string describe() const = 0;
    virtual void for_each_chunk(
        const std::function<void(const void*, std::size_t)>& sink) const = 0;
  };
  template <class T>
  struct holder final : holder_base {
    field<T> f;
    explicit holder(const field<T>& x) : f(x) {}
    const function_space& space() const override { return f.space(); }
    any_array values() const override { return any_array(f.values()); }
    tack::dtype scalar_dtype() const override { return dtype_of<scalar_t<T>>(); }
    int components() const override { return components_v<T>; }
    std::string describe() const override { return f.describe(); }
    void for_each_chunk(const std::function<void(const void*, std::size_t)>& sink) const override {
      detail::for_each_interleaved_chunk(f.values(), sink);
    }
  };
  const holder_base& require(const char* op) const {
    if (!holder_)
      throw value_error(std::string("tack::dataset::any_field::") + op + ": no field is held");
    return *holder_;
  }
  std::shared_ptr<const holder_base> holder_;
};

}  // namespace tack::dataset
