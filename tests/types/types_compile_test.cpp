// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
// Static checks of the element types (vec, mat, dtype; docs/reference/types.md): layout, traits,
// and constant evaluation. If this file compiles, the checks passed; the one TEST keeps
// GoogleTest's runner happy.

#include <tack/core/concepts.hpp>
#include <tack/types/dtype.hpp>
#include <tack/types/item.hpp>
#include <tack/types/mat.hpp>
#include <tack/types/scalar.hpp>
#include <tack/types/vec.hpp>

#include <gtest/gtest.h>

#include <cstdint>
#include <type_traits>

namespace {

using namespace tack;

// ---- layout: what arrays, views, DLPack and CUDA copies rely on ----
template <class T>
constexpr bool value_type_like = std::is_trivially_copyable_v<T>&& std::is_standard_layout_v<T>&&
    std::is_trivially_default_constructible_v<T>&& std::is_trivially_destructible_v<T>;

static_assert(value_type_like<vec3f> && value_type_like<vec4d> && value_type_like<vec3i>);
static_assert(value_type_like<vec<std::int8_t, 5>> && value_type_like<vec<bool, 2>>);
static_assert(value_type_like<mat3f> && value_type_like<mat4d> &&
              value_type_like<mat<float, 2, 3>>);
static_assert(sizeof(vec3f) == 12 && alignof(vec3f) == alignof(float));
static_assert(sizeof(vec4f) == 16 && sizeof(vec3d) == 24 && sizeof(vec3i) == 12);
static_assert(sizeof(vec<std::uint8_t, 3>) == 3);
static_assert(sizeof(mat3d) == 72 && sizeof(mat3f) == 36 && sizeof(mat<float, 2, 3>) == 24);
static_assert(sizeof(mat4f) == 64 && alignof(mat4d) == alignof(double));

// ---- aliases ----
static_assert(std::is_same_v<f32, float> && std::is_same_v<f64, double>);
static_assert(std::is_same_v<i8, std::int8_t> && std::is_same_v<u64, std::uint64_t>);
static_assert(std::is_same_v<vec3i, vec<std::int32_t, 3>> &&
              std::is_same_v<mat2d, mat<double, 2, 2>>);
static_assert(std::is_same_v<item<float>, float>);
static_assert(std::is_same_v<item<float, 3>, vec3f>);
static_assert(std::is_same_v<item<double, 3, 3>, mat3d>);
static_assert(std::is_same_v<item<float, 2, 4>, mat<float, 2, 4>>);

// ---- traits ----
static_assert(is_scalar_v<float> && is_scalar_v<bool> && is_scalar_v<std::uint16_t>);
static_assert(is_scalar_v<const double>);
static_assert(!is_scalar_v<long double> && !is_scalar_v<char> && !is_scalar_v<vec3f>);
static_assert(is_vec_v<vec3f> && is_vec_v<const vec2d> && !is_vec_v<mat3f> && !is_vec_v<float>);
static_assert(is_mat_v<mat3f> && is_mat_v<const mat<float, 1, 4>> && !is_mat_v<vec3f>);
static_assert(std::is_same_v<scalar_t<float>, float> && std::is_same_v<scalar_t<vec3f>, float>);
static_assert(std::is_same_v<scalar_t<const mat3d>, double>);
static_assert(components_v<float> == 1 && components_v<vec3f> == 3 && components_v<mat3d> == 9);
static_assert(components_v<mat<float, 2, 3>> == 6 && components_v<const vec4f> == 4);
static_assert(component_rank_v<float> == 0 && component_rank_v<vec3f> == 1);
static_assert(component_rank_v<mat3f> == 2);
static_assert(component_rows_v<mat<float, 2, 3>> == 2 && component_cols_v<mat<float, 2, 3>> == 3);
static_assert(element<float> && element<bool> && element<vec3i> && element<mat4d>);
static_assert(element<const vec3f>);
static_assert(!element<long double> && !element<vec<long long, 3>> && !element<int*>);
static_assert(scalar_kind_of_v<float> == scalar_kind::f32 &&
              scalar_kind_of_v<bool> == scalar_kind::boolean);

// A vec is one element, not an array: it must not satisfy the array protocol, or the expression
// layer would treat `vec3f * 2.0f` as an array expression.
static_assert(!readable_array<vec3f> && !readable_array<mat3f>);

// Brace rules at the type level: exact counts construct; conversions are explicit.
static_assert(std::is_constructible_v<vec3f, float, float, float>);
static_assert(std::is_convertible_v<vec3f, vec3f> && !std::is_convertible_v<float, vec3f>);
static_assert(!std::is_convertible_v<vec3d, vec3f> && std::is_constructible_v<vec3f, vec3d>);
static_assert(!std::is_convertible_v<float, mat2f> &&
              !std::is_convertible_v<vec2f, mat<float, 1, 2>>);
static_assert(!std::is_constructible_v<vec3f, vec2f>);

// ---- constant evaluation ----
constexpr vec3f ex{1, 0, 0};
constexpr vec3f ey{0, 1, 0};
static_assert(cross(ex, ey) == vec3f{0, 0, 1});
static_assert(cross(vec2f{1, 0}, vec2f{0, 1}) == 1.0f);
static_assert(dot(vec3f{1, 2, 3}, vec3f{4, 5, 6}) == 32.0f);
static_assert(dot(vec3i{1, 2, 3}, vec3i{-1, 0, 1}) == 2);
static_assert(vec3f{} == vec3f{0, 0, 0});
static_assert(vec3f::filled(2) == vec3f{2, 2, 2});
static_assert(2.0f * ex + ey - vec3f{1, 1, 1} == vec3f{1, 0, -1});
static_assert(-ex == vec3f{-1, 0, 0} && ex != ey);
static_assert(ex.x() == 1 && ey.y() == 1);
static_assert(norm(vec3f{3, 4, 0}) == 5.0f && norm(vec2d{6, 8}) == 10.0);
static_assert(norm(vec3i{0, 3, 4}) == 5.0);
static_assert(normalize(vec2d{0, 5}) == vec2d{0, 1});

constexpr mat3d m3{{2, 0, 1}, {1, 3, 2}, {1, 1, 2}};
static_assert(determinant(m3) == 6.0);  // 2 * (6 - 2) - 0 + 1 * (1 - 3)
static_assert(determinant(mat2f{{1, 2}, {3, 4}}) == -2.0f);
static_assert(determinant(identity<double, 4>()) == 1.0);
static_assert(determinant(mat<std::int32_t, 4, 4>{
                  {1, 0, 0, 0}, {0, 2, 0, 0}, {0, 0, 3, 0}, {1, 1, 1, 4}}) == 24);
static_assert(transpose(mat<float, 2, 3>{{1, 2, 3}, {4, 5, 6}}) ==
              mat<float, 3, 2>{{1, 4}, {2, 5}, {3, 6}});
static_assert(identity<float, 2>() * vec2f{3, 4} == vec2f{3, 4});
static_assert(inverse(mat2d{{1, 2}, {3, 4}}) == mat2d{{-2, 1}, {1.5, -0.5}});
static_assert(m3[1] == vec3d{1, 3, 2} && m3(2, 0) == 1.0 && m3.col(2) == vec3d{1, 2, 2});

// ---- dtype: constexpr, allocation-free ----
static_assert(dtype_of<float>().name() == "f32");
static_assert(dtype_of<vec3f>().name() == "vec3(f32)");
static_assert(dtype_of<mat3d>().name() == "mat3(f64)");
static_assert(dtype_of<mat<float, 2, 3>>().name() == "mat2x3(f32)");
static_assert(dtype_of<vec<bool, 40>>().name() == "vec40(bool)");
static_assert(dtype_of<vec3f>().itemsize() == sizeof(vec3f));
static_assert(dtype_of<mat3d>().itemsize() == 72 && dtype_of<mat3d>().components() == 9);
static_assert(dtype_of<const vec3f>() == dtype::vector(scalar_kind::f32, 3));
static_assert(dtype_of<vec<float, 1>>() != dtype_of<float>());
static_assert(dtype_of<vec3f>().scalar() == dtype_of<float>());
static_assert(dtype{}.name() == "f64");
static_assert(std::is_trivially_copyable_v<dtype> && std::is_trivially_destructible_v<dtype>);

TEST(TypesCompile, StaticChecksCompiled) {
  // Everything above is checked at compile time; this records that the file was built.
  constexpr vec3f v = cross(ex, ey);
  EXPECT_EQ(v[2], 1.0f);
}

}  // namespace
