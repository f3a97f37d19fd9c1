// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
// tack::dtype: descriptors of every element type, names, factories, parsing and its errors.

#include <tack/core/error.hpp>
#include <tack/types/dtype.hpp>
#include <tack/types/format.hpp>

#include <gtest/gtest.h>

#include <cstdint>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

namespace {

using tack::dtype;
using tack::dtype_of;
using tack::scalar_kind;

// Expects `f()` to throw tack::value_error whose message contains every piece of `parts`.
template <class F>
void expect_value_error(F f, std::vector<std::string> parts) {
  try {
    f();
    ADD_FAILURE() << "expected tack::value_error";
  } catch (const tack::value_error& e) {
    const std::string what = e.what();
    for (const auto& p : parts) {
      EXPECT_NE(what.find(p), std::string::npos) << "message: " << what << "\nmissing: " << p;
    }
  }
}

template <class T>
void check_scalar(scalar_kind kind, std::string_view name) {
  constexpr dtype d = dtype_of<T>();
  EXPECT_EQ(d.kind(), kind) << name;
  EXPECT_EQ(d.name(), name);
  EXPECT_TRUE(d.is_scalar()) << name;
  EXPECT_FALSE(d.is_vector() || d.is_matrix()) << name;
  EXPECT_EQ(d.components(), 1) << name;
  EXPECT_EQ(d.component_rank(), 0) << name;
  EXPECT_EQ(d.scalar_size(), sizeof(T)) << name;
  EXPECT_EQ(d.itemsize(), sizeof(T)) << name;
  EXPECT_EQ(d.scalar(), d) << name;
  EXPECT_EQ(dtype(kind), d) << name;
  EXPECT_EQ(dtype_of<const T>(), d) << name;
  EXPECT_EQ(d.is_floating_point(), std::is_floating_point_v<T>) << name;
}

TEST(Dtype, EveryScalar) {
  check_scalar<float>(scalar_kind::f32, "f32");
  check_scalar<double>(scalar_kind::f64, "f64");
  check_scalar<std::int8_t>(scalar_kind::i8, "i8");
  check_scalar<std::int16_t>(scalar_kind::i16, "i16");
  check_scalar<std::int32_t>(scalar_kind::i32, "i32");
  check_scalar<std::int64_t>(scalar_kind::i64, "i64");
  check_scalar<std::uint8_t>(scalar_kind::u8, "u8");
  check_scalar<std::uint16_t>(scalar_kind::u16, "u16");
  check_scalar<std::uint32_t>(scalar_kind::u32, "u32");
  check_scalar<std::uint64_t>(scalar_kind::u64, "u64");
  check_scalar<bool>(scalar_kind::boolean, "bool");
}

TEST(Dtype, VectorsAndMatrices) {
  constexpr dtype v = dtype_of<tack::vec3f>();
  EXPECT_EQ(v.name(), "vec3(f32)");
  EXPECT_TRUE(v.is_vector());
  EXPECT_FALSE(v.is_scalar() || v.is_matrix());
  EXPECT_EQ(v.rows(), 3);
  EXPECT_EQ(v.cols(), 1);
  EXPECT_EQ(v.components(), 3);
  EXPECT_EQ(v.component_rank(), 1);
  EXPECT_EQ(v.scalar_size(), 4u);
  EXPECT_EQ(v.itemsize(), sizeof(tack::vec3f));
  EXPECT_EQ(v.scalar(), dtype_of<float>());

  constexpr dtype m = dtype_of<tack::mat3d>();
  EXPECT_EQ(m.name(), "mat3(f64)");
  EXPECT_TRUE(m.is_matrix());
  EXPECT_EQ(m.rows(), 3);
  EXPECT_EQ(m.cols(), 3);
  EXPECT_EQ(m.components(), 9);
  EXPECT_EQ(m.component_rank(), 2);
  EXPECT_EQ(m.itemsize(), 72u);

  constexpr dtype r = dtype_of<tack::mat<float, 2, 3>>();
  EXPECT_EQ(r.name(), "mat2x3(f32)");
  EXPECT_EQ(r.rows(), 2);
  EXPECT_EQ(r.cols(), 3);
  EXPECT_EQ(r.itemsize(), 24u);
  EXPECT_EQ((dtype_of<tack::mat<std::uint8_t, 4, 1>>().name()), "mat4x1(u8)");
  EXPECT_EQ((dtype_of<tack::vec<bool, 2>>().name()), "vec2(bool)");
  EXPECT_EQ(dtype_of<tack::vec3i>().name(), "vec3(i32)");
}

TEST(Dtype, EqualityComparesKindAndShapeOnly) {
  EXPECT_EQ(dtype_of<tack::vec3f>(), dtype::vector(scalar_kind::f32, 3));
  EXPECT_NE(dtype_of<tack::vec3f>(), dtype_of<tack::vec3d>());
  EXPECT_NE(dtype_of<tack::vec3f>(), dtype_of<tack::vec4f>());
  // The same shape as a vector and as a one-column matrix are different element types.
  EXPECT_NE(dtype_of<tack::vec3f>(), (dtype_of<tack::mat<float, 3, 1>>()));
  // A one-component vector is not a scalar.
  EXPECT_NE((dtype_of<tack::vec<float, 1>>()), dtype_of<float>());
  EXPECT_NE((dtype_of<tack::mat<float, 1, 1>>()), (dtype_of<tack::vec<float, 1>>()));
  EXPECT_NE((dtype_of<tack::mat<float, 2, 3>>()), (dtype_of<tack::mat<float, 3, 2>>()));
  EXPECT_EQ(dtype{}, dtype_of<double>());
}

TEST(Dtype, RuntimeFactoriesMatchCompileTimeOnes) {
  EXPECT_EQ(dtype::matrix(scalar_kind::f64, 3, 3), dtype_of<tack::mat3d>());
  EXPECT_EQ(dtype::matrix(scalar_kind::i16, 1, 4), (dtype_of<tack::mat<std::int16_t, 1, 4>>()));
  EXPECT_EQ(dtype::vector(scalar_kind::u64, 16), (dtype_of<tack::vec<std::uint64_t, 16>>()));
  EXPECT_EQ(dtype::vector(scalar_kind::u64, 16).name(), "vec16(u64)");
  EXPECT_EQ(dtype::vector(scalar_kind::boolean, 1).name(), "vec1(bool)");
  EXPECT_EQ(dtype::matrix(scalar_kind::f32, 4, 2).name(), "mat4x2(f32)");
}

TEST(Dtype, LongVectorsHaveACompileTimeDtypeOnly) {
  constexpr dtype d = dtype_of<tack::vec<float, 100>>();
  EXPECT_EQ(d.name(), "vec100(f32)");
  EXPECT_EQ(d.components(), 100);
  EXPECT_EQ(d.itemsize(), 400u);
  expect_value_error([] { (void)dtype::vector(scalar_kind::f32, 100); },
                     {"tack::dtype::vector", "length 100", "dtype_of<tack::vec<T, 100>>"});
}

TEST(Dtype, FactoryErrorsNameTheBadValue) {
  expect_value_error([] { (void)dtype::vector(scalar_kind::f32, 0); },
                     {"tack::dtype::vector", "length 0", "at least 1"});
  expect_value_error([] { (void)dtype::vector(scalar_kind::f32, -2); }, {"length -2"});
  expect_value_error([] { (void)dtype::matrix(scalar_kind::f32, 5, 3); },
                     {"tack::dtype::matrix", "5x3", "1..4"});
  expect_value_error([] { (void)dtype::matrix(scalar_kind::f32, 2, 0); }, {"2x0"});
  expect_value_error([] { (void)dtype(static_cast<scalar_kind>(42)); },
                     {"tack::dtype(scalar_kind)", "42"});
  expect_value_error([] { (void)dtype::vector(static_cast<scalar_kind>(11), 3); },
                     {"tack::dtype::vector", "scalar kind 11"});
}

TEST(Dtype, NamesLiveInStaticStorage) {
  // A name taken from a temporary dtype stays valid (no buffer inside the dtype to dangle).
  const std::string_view a = dtype::vector(scalar_kind::i8, 7).name();
  const std::string_view b = dtype_of<tack::vec<double, 33>>().name();
  const char* c = dtype::matrix(scalar_kind::u32, 2, 4).c_str();
  EXPECT_EQ(a, "vec7(i8)");
  EXPECT_EQ(b, "vec33(f64)");
  EXPECT_STREQ(c, "mat2x4(u32)");
  EXPECT_LE(sizeof(dtype), 24u);
}

TEST(Dtype, ParseRoundTripsEveryRuntimeName) {
  int count = 0;
  for (int k = 0; k < tack::scalar_kind_count; ++k) {
    const auto kind = static_cast<scalar_kind>(k);
    std::vector<dtype> all{dtype(kind)};
    for (int n = 1; n <= 16; ++n) {
      all.push_back(dtype::vector(kind, n));
    }
    for (int r = 1; r <= 4; ++r) {
      for (int c = 1; c <= 4; ++c) {
        all.push_back(dtype::matrix(kind, r, c));
      }
    }
    for (const dtype& d : all) {
      EXPECT_EQ(dtype::parse(d.name()), d) << d.name();
      ++count;
    }
  }
  EXPECT_EQ(count, 11 * 33);
  EXPECT_EQ(dtype::parse("mat3x3(f64)"), dtype_of<tack::mat3d>());  // the long square form
  EXPECT_EQ(dtype::parse("mat2x3(f32)"), (dtype_of<tack::mat<float, 2, 3>>()));
}

TEST(Dtype, ParseRejectsBadTextQuotingIt) {
  for (const char* bad : {"",
                          "f33",
                          "float",
                          "F32",
                          " f32",
                          "f32 ",
                          "vec3f",
                          "vec(f32)",
                          "vec0(f32)",
                          "vec03(f32)",
                          "vec3(f33)",
                          "vec3(f32",
                          "vec3f32)",
                          "vec3(f32))",
                          "vec3()",
                          "mat5(f32)",
                          "mat2x(f32)",
                          "mat2x5(f32)",
                          "mat0x2(f32)",
                          "vec3x3(f32)",
                          "vec17(f32)",
                          "vec99999999999(f32)",
                          "mat3(vec3(f32))"}) {
    // Built with += rather than "\"" + s + "\"": g++ 12 -O3 warns falsely on the latter
    // (-Wrestrict, GCC bug 105329).
    std::string quoted = "\"";
    quoted += bad;
    quoted += '"';
    expect_value_error([&] { (void)dtype::parse(bad); },
                       {"tack::dtype::parse", quoted, "expected"});
  }
}

TEST(Dtype, ToStringAndStream) {
  EXPECT_EQ(tack::to_string(dtype_of<tack::mat<double, 3, 2>>()), "mat3x2(f64)");
  std::ostringstream os;
  os << dtype_of<tack::vec4f>() << ' ' << dtype_of<bool>();
  EXPECT_EQ(os.str(), "vec4(f32) bool");
}

TEST(ScalarKind, SizesNamesAndCategories) {
  EXPECT_EQ(tack::scalar_kind_size(scalar_kind::u16), 2);
  EXPECT_EQ(tack::scalar_kind_size(scalar_kind::boolean), 1);
  EXPECT_STREQ(tack::scalar_kind_name(scalar_kind::i64), "i64");
  EXPECT_TRUE(tack::is_floating_kind(scalar_kind::f64));
  EXPECT_FALSE(tack::is_floating_kind(scalar_kind::i32));
  EXPECT_TRUE(tack::is_signed_integer_kind(scalar_kind::i8));
  EXPECT_FALSE(tack::is_signed_integer_kind(scalar_kind::u8));
  EXPECT_TRUE(tack::is_unsigned_integer_kind(scalar_kind::u64));
  EXPECT_FALSE(tack::is_unsigned_integer_kind(scalar_kind::boolean));
}

}  // namespace
