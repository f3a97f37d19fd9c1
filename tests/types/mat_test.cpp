// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
// tack::mat<T, R, C>: construction, row-major storage, arithmetic, and the accuracy of determinant
// and inverse against long-double references.

// Bounds checks on for this file whatever the build type, so out-of-range access is testable.
#undef TACK_BOUNDS_CHECK
#define TACK_BOUNDS_CHECK 1

#include <tack/core/error.hpp>
#include <tack/core/precondition.hpp>
#include <tack/types/format.hpp>
#include <tack/types/mat.hpp>

#include <gtest/gtest.h>

#include "common/tack_test.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <sstream>
#include <string>
#include <type_traits>
#include <utility>

namespace {

using tack::mat;
using tack::mat2d;
using tack::mat2f;
using tack::mat3d;
using tack::mat3f;
using tack::mat4d;
using tack::vec;
using tack::vec2f;
using tack::vec3d;
using tack::vec3f;

class MatChecked : public ::testing::Test {
protected:
  void SetUp() override {
    previous_ = tack::set_precondition_handler(tack::throwing_precondition_handler);
  }
  void TearDown() override { tack::set_precondition_handler(previous_); }
  tack::precondition_handler previous_ = nullptr;
};

TEST(Mat, BracesAreRowsAndStorageIsRowMajor) {
  const mat<float, 2, 3> m{{1, 2, 3}, {4, 5, 6}};
  EXPECT_EQ(m(0, 2), 3.0f);
  EXPECT_EQ(m(1, 0), 4.0f);
  EXPECT_EQ(m[1], (vec3f{4, 5, 6}));
  for (int i = 0; i < 2; ++i) {
    for (int j = 0; j < 3; ++j) {
      EXPECT_EQ(m.data()[i * 3 + j], m(i, j)) << i << ", " << j;
    }
  }
  // The bytes are those of float[2][3].
  EXPECT_EQ(reinterpret_cast<const char*>(&m(1, 0)) - reinterpret_cast<const char*>(&m), 12);
}

TEST(Mat, FromRowVectorsZeroFilledAndConversion) {
  const vec3f e0{1, 0, 0};
  const vec3f e1{0, 1, 0};
  const vec3f e2{0, 0, 1};
  EXPECT_EQ((mat3f{e0, e1, e2}), (tack::identity<float, 3>()));
  const mat3f z{};
  EXPECT_EQ(z, mat3f::filled(0));
  const auto h = mat<double, 2, 4>::filled(0.5);
  for (int i = 0; i < 2; ++i) {
    for (int j = 0; j < 4; ++j) {
      EXPECT_EQ(h(i, j), 0.5);
    }
  }
  const mat2d d{{1.5, 1e300}, {-2, 0}};
  const mat2f f(d);
  EXPECT_EQ(f(0, 0), 1.5f);
  EXPECT_TRUE(std::isinf(f(0, 1)));
  EXPECT_EQ(f(1, 0), -2.0f);
}

TEST(Mat, RowAccessIsByReferenceAndColumnsAreCopies) {
  mat3f m{};
  m[1] = vec3f{7, 8, 9};
  m[2][0] = 5;
  m(0, 1) = 3;
  EXPECT_EQ(m, (mat3f{{0, 3, 0}, {7, 8, 9}, {5, 0, 0}}));
  static_assert(std::is_same_v<decltype(m[0]), vec3f&>);
  EXPECT_EQ(&m[1][2], &m(1, 2));
  vec3f c = m.col(0);
  EXPECT_EQ(c, (vec3f{0, 7, 5}));
  c[0] = 100;
  EXPECT_EQ(m(0, 0), 0.0f);
  EXPECT_EQ(mat3f::rows, 3);
  EXPECT_EQ((mat<float, 2, 4>::cols), 4);
}

TEST_F(MatChecked, OutOfRangeAccessIsReported) {
  mat<float, 2, 3> m{};
  EXPECT_THROW_MSG(m(2, 0), tack::index_error, "tack::mat<T, 2, 3>::operator()", "(2, 0)");
  EXPECT_THROW((void)m(0, 3), tack::index_error);
  EXPECT_THROW((void)m(-1, 0), tack::index_error);
  EXPECT_THROW_MSG(m[5], tack::index_error, "row 5 is outside [0, 2)");
  EXPECT_THROW((void)m.col(3), tack::index_error);
  EXPECT_NO_THROW((void)m(1, 2));
}

TEST(Mat, EntryWiseArithmetic) {
  const mat2f a{{1, 2}, {3, 4}};
  const mat2f b{{0.5f, -1}, {2, 8}};
  EXPECT_EQ(a + b, (mat2f{{1.5f, 1}, {5, 12}}));
  EXPECT_EQ(a - b, (mat2f{{0.5f, 3}, {1, -4}}));
  EXPECT_EQ(-a, (mat2f{{-1, -2}, {-3, -4}}));
  EXPECT_EQ(+a, a);
  EXPECT_EQ(a * 2, (mat2f{{2, 4}, {6, 8}}));
  EXPECT_EQ(0.5 * a, (mat2f{{0.5f, 1}, {1.5f, 2}}));
  static_assert(std::is_same_v<decltype(a * 2.0), mat2f>);
  EXPECT_EQ(a / 4.0f, (mat2f{{0.25f, 0.5f}, {0.75f, 1}}));
  mat2f c = a;
  c += b;
  c -= a;
  EXPECT_EQ(c, b);
  c *= 2;
  c /= 4;
  EXPECT_EQ(c, b * 0.5f);
  EXPECT_TRUE(a != b);
}

TEST(Mat, MatrixVectorAndMatrixProducts) {
  const mat<double, 2, 3> a{{1, 2, 3}, {4, 5, 6}};
  EXPECT_EQ(a * (vec3d{1, 0, -1}), (vec<double, 2>{-2, -2}));
  const mat<double, 3, 2> b{{7, 8}, {9, 10}, {11, 12}};
  EXPECT_EQ(a * b, (mat2d{{58, 64}, {139, 154}}));
  EXPECT_EQ(b * a, (mat3d{{39, 54, 69}, {49, 68, 87}, {59, 82, 105}}));
  // (AB)v == A(Bv), and products with the identity leave matrices alone.
  const vec<double, 2> v{3, -1};
  EXPECT_EQ((a * b) * v, a * (b * v));
  EXPECT_EQ((tack::identity<double, 2>() * a), a);
  EXPECT_EQ((a * tack::identity<double, 3>()), a);
  mat2d s{{1, 1}, {0, 1}};
  s *= mat2d{{1, 0}, {2, 1}};
  EXPECT_EQ(s, (mat2d{{3, 1}, {2, 1}}));
}

TEST(Mat, TransposeAndIdentity) {
  const mat<float, 2, 3> m{{1, 2, 3}, {4, 5, 6}};
  const mat<float, 3, 2> t = tack::transpose(m);
  EXPECT_EQ(t, (mat<float, 3, 2>{{1, 4}, {2, 5}, {3, 6}}));
  EXPECT_EQ(tack::transpose(t), m);
  const auto i4 = tack::identity<std::int32_t, 4>();
  for (int i = 0; i < 4; ++i) {
    for (int j = 0; j < 4; ++j) {
      EXPECT_EQ(i4(i, j), i == j ? 1 : 0);
    }
  }
}

// ---- determinant and inverse against references -------------------------------------------

template <int N>
using matl = std::array<std::array<long double, N>, N>;

template <class T, int N>
matl<N> to_long(const mat<T, N, N>& m) {
  matl<N> r{};
  for (int i = 0; i < N; ++i) {
    for (int j = 0; j < N; ++j) {
      r[i][j] = m(i, j);
    }
  }
  return r;
}

// Gaussian elimination with partial pivoting in long double: determinant and inverse.
template <int N>
std::pair<long double, matl<N>> reference_inverse(matl<N> a) {
  matl<N> inv{};
  for (int i = 0; i < N; ++i) {
    inv[i][i] = 1;
  }
  long double det = 1;
  for (int c = 0; c < N; ++c) {
    int p = c;
    for (int r = c + 1; r < N; ++r) {
      if (std::fabs(a[r][c]) > std::fabs(a[p][c])) {
        p = r;
      }
    }
    if (p != c) {
      std::swap(a[p], a[c]);
      std::swap(inv[p], inv[c]);
      det = -det;
    }
    det *= a[c][c];
    const long double d = a[c][c];
    for (int j = 0; j < N; ++j) {
      a[c][j] /= d;
      inv[c][j] /= d;
    }
    for (int r = 0; r < N; ++r) {
      if (r != c) {
        const long double f = a[r][c];
        for (int j = 0; j < N; ++j) {
          a[r][j] -= f * a[c][j];
          inv[r][j] -= f * inv[c][j];
        }
      }
    }
  }
  return {det, inv};
}

template <int N>
long double max_norm(const matl<N>& a) {  // infinity norm (max row sum)
  long double best = 0;
  for (int i = 0; i < N; ++i) {
    long double s = 0;
    for (int j = 0; j < N; ++j) {
      s += std::fabs(a[i][j]);
    }
    best = std::max(best, s);
  }
  return best;
}

template <class T, int N>
mat<T, N, N> random_matrix(std::mt19937& gen, bool dominant) {
  std::uniform_real_distribution<T> u(T(-1), T(1));
  mat<T, N, N> m{};
  for (int i = 0; i < N; ++i) {
    for (int j = 0; j < N; ++j) {
      m(i, j) = u(gen);
    }
    if (dominant) {
      m(i, i) += (m(i, i) < 0 ? T(-1) : T(1)) * T(N);
    }
  }
  return m;
}

template <class P>
class MatAccuracy : public ::testing::Test {};
template <class T, int N>
struct case_ {
  using type = T;
  static constexpr int n = N;
};
using accuracy_cases = ::testing::Types<case_<float, 2>, case_<float, 3>, case_<float, 4>,
                                        case_<double, 2>, case_<double, 3>, case_<double, 4>>;
TYPED_TEST_SUITE(MatAccuracy, accuracy_cases);

TYPED_TEST(MatAccuracy, DeterminantMatchesReference) {
  using T = typename TypeParam::type;
  constexpr int N = TypeParam::n;
  std::mt19937 gen(1234 + N);
  const long double eps = std::numeric_limits<T>::epsilon();
  for (int k = 0; k < 500; ++k) {
    const auto m = random_matrix<T, N>(gen, k % 2 == 0);
    const auto ref = reference_inverse<N>(to_long(m));
    // Error bound of a cofactor expansion: a few eps times the sum of |products| (the
    // permanent of |m|), which the product of the row sums bounds.
    long double scale = 1;
    for (int i = 0; i < N; ++i) {
      long double s = 0;
      for (int j = 0; j < N; ++j) {
        s += std::fabs(static_cast<long double>(m(i, j)));
      }
      scale *= s;
    }
    const long double got = tack::determinant(m);
    EXPECT_LE(std::fabs(got - ref.first), 4 * N * eps * scale)
        << "det " << got << " reference " << ref.first << " case " << k;
  }
}

TYPED_TEST(MatAccuracy, InverseTimesMatrixIsIdentity) {
  using T = typename TypeParam::type;
  constexpr int N = TypeParam::n;
  std::mt19937 gen(99 + N);
  const long double eps = std::numeric_limits<T>::epsilon();
  long double worst = 0;  // error / (eps * condition number), over all cases
  for (int k = 0; k < 500; ++k) {
    const auto m = random_matrix<T, N>(gen, k % 2 == 0);
    const auto ref = reference_inverse<N>(to_long(m));
    const long double cond = max_norm<N>(to_long(m)) * max_norm<N>(ref.second);
    if (cond > 1e3L) {
      continue;  // ill-conditioned draws test the conditioning, not the method
    }
    const auto inv = tack::inverse(m);
    const auto left = to_long(inv * m);
    const auto right = to_long(m * inv);
    for (int i = 0; i < N; ++i) {
      for (int j = 0; j < N; ++j) {
        const long double id = i == j ? 1 : 0;
        const long double err = std::max(std::fabs(left[i][j] - id), std::fabs(right[i][j] - id));
        worst = std::max(worst, err / (eps * cond));
        ASSERT_LE(err, 4 * N * eps * cond) << "entry (" << i << ", " << j << ") case " << k;
        // Entry-wise against the reference inverse too.
        const long double ref_err = std::fabs(inv(i, j) - ref.second[i][j]);
        ASSERT_LE(ref_err, 4 * N * eps * cond * max_norm<N>(ref.second))
            << "inverse entry (" << i << ", " << j << ") case " << k;
      }
    }
  }
  this->RecordProperty("worst_error_in_eps_times_cond", std::to_string(static_cast<double>(worst)));
}

TYPED_TEST(MatAccuracy, SingularMatrixGivesAllNaN) {
  using T = typename TypeParam::type;
  constexpr int N = TypeParam::n;
  // Integer entries with row N-1 = 2 * row 0: the determinant is exactly zero in floating point.
  mat<T, N, N> m{};
  for (int i = 0; i < N; ++i) {
    for (int j = 0; j < N; ++j) {
      m(i, j) = static_cast<T>((i * 7 + j * 3) % 5 + (i == j ? 2 : 0));
    }
  }
  m[N - 1] = m[0] * 2;
  ASSERT_EQ(tack::determinant(m), T(0));
  const auto inv = tack::inverse(m);
  for (int i = 0; i < N; ++i) {
    for (int j = 0; j < N; ++j) {
      EXPECT_TRUE(std::isnan(inv(i, j))) << i << ", " << j;
    }
  }
  EXPECT_TRUE(std::isnan(tack::inverse(mat<T, N, N>{})(0, 0)));  // the zero matrix
}

TEST(Mat, SmallCasesExactly) {
  EXPECT_EQ(tack::determinant(mat<double, 1, 1>{{-3}}), -3.0);
  EXPECT_EQ(tack::inverse(mat<double, 1, 1>{{4}}), (mat<double, 1, 1>{{0.25}}));
  EXPECT_TRUE(std::isnan(tack::inverse(mat<float, 1, 1>{{0}})(0, 0)));
  EXPECT_EQ(tack::inverse(mat2d{{1, 2}, {3, 4}}), (mat2d{{-2, 1}, {1.5, -0.5}}));
  // A permutation-and-scale 4×4 whose inverse is exact.
  const mat4d p{{0, 2, 0, 0}, {0, 0, 0, 4}, {0.5, 0, 0, 0}, {0, 0, -1, 0}};
  const mat4d pinv{{0, 0, 2, 0}, {0.5, 0, 0, 0}, {0, 0, 0, -1}, {0, 0.25, 0, 0}};
  EXPECT_EQ(tack::inverse(p), pinv);
  EXPECT_EQ(tack::determinant(p), 4.0);  // sign of the cycle (0 1 3 2) is odd, times -4
  EXPECT_EQ(tack::determinant(mat<std::int64_t, 3, 3>{{2, 0, 1}, {1, 3, 2}, {1, 1, 2}}), 6);
  // Nearly singular but not singular: inverted as it is, finite.
  const mat2d near{{1, 1}, {1, 1 + 1e-12}};
  const auto ni = tack::inverse(near);
  EXPECT_TRUE(std::isfinite(ni(0, 0)));
  EXPECT_NEAR(ni(1, 1) * 1e-12, 1.0, 1e-3);
}

TEST(Mat, ToStringAndStream) {
  EXPECT_EQ(tack::to_string(mat2f{{1, 2}, {3, 4}}), "[[1, 2], [3, 4]]");
  EXPECT_EQ(tack::to_string(mat<double, 2, 3>{{0.5, 0, -1}, {1e-7, 2, 3}}),
            "[[0.5, 0, -1], [1e-07, 2, 3]]");
  std::ostringstream os;
  os << tack::identity<std::int32_t, 2>();
  EXPECT_EQ(os.str(), "[[1, 0], [0, 1]]");
}

}  // namespace
