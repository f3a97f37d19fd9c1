// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
// Test support shared by the test files (one copy instead of one per file): exception-message
// checks, a fixture restoring the thread count, the backend list and memory for typed backend
// tests, and a fake device allocator for builds without a GPU. Tests include it as
// "common/tack_test.hpp" (tack_add_test adds tests/ to the include path). *_backend_test files are
// compiled by nvcc in CUDA builds and by hipcc in HIP builds, so everything here must compile under
// both too.
#pragma once

#include <tack/core/error.hpp>
#include <tack/core/index.hpp>
#include <tack/core/macros.hpp>
#include <tack/detail/gpu_runtime.hpp>
#include <tack/exec/backend.hpp>
#include <tack/exec/threads.hpp>
#include <tack/memory/allocator.hpp>
#include <tack/memory/device.hpp>

#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <new>
#include <string>
#include <type_traits>
#include <vector>

/// Expects `expr` to throw `type` whose what() contains every fragment (string literals or
/// std::strings, evaluated after the throw); an exception of another type propagates and fails the
/// test. `EXPECT_THROW_MSG(a.at(9), tack::index_error, "at", "9", a.describe());`
#define EXPECT_THROW_MSG(expr, type, ...)                                                        \
  do {                                                                                           \
    try {                                                                                        \
      (void)(expr);                                                                              \
      ADD_FAILURE() << #expr " did not throw " #type;                                            \
    } catch (const type& tack_test_error_) {                                                     \
      const std::string tack_test_what_ = tack_test_error_.what();                               \
      for (const std::string& tack_test_frag_ : std::initializer_list<std::string>{__VA_ARGS__}) \
        EXPECT_NE(tack_test_what_.find(tack_test_frag_), std::string::npos)                      \
            << "message \"" << tack_test_what_ << "\" lacks \"" << tack_test_frag_ << "\"";      \
    }                                                                                            \
  } while (0)

namespace tack::test {

/// The message of the `Error` that `f()` throws, or "(nothing thrown)"; an exception of another
/// type propagates, so the test fails on it rather than matching a fragment of the wrong message.
/// `EXPECT_NE(tack::test::error_message([&] { a.at(9); }).find("9"), std::string::npos);`
template <class Error = tack::value_error, class F>
std::string error_message(F&& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  return "(nothing thrown)";
}

/// A fixture for tests that change the library's thread count: restores the count after each test,
/// so the next test does not run with another test's setting.
/// `class scan_test : public tack::test::restores_num_threads {};`
class restores_num_threads : public ::testing::Test {
protected:
  void SetUp() override { threads_ = tack::num_threads(); }
  void TearDown() override { tack::set_num_threads(threads_); }

private:
  int threads_ = 1;
};

/// The backends this translation unit can run kernels on: serial always, OpenMP when the build has
/// it, CUDA when nvcc compiles the file in a CUDA build, HIP when hipcc compiles it in a HIP build.
/// `TYPED_TEST_SUITE(my_backend_test, tack::test::backends, tack::test::backend_names);`
using backends = ::testing::Types<tack::serial_backend
#if TACK_HAS_OPENMP
                                  ,
                                  tack::openmp_backend
#endif
#if TACK_HAS_CUDA && defined(__CUDACC__)
                                  ,
                                  tack::cuda_backend
#elif TACK_HAS_HIP && defined(__HIP__)
                                  ,
                                  tack::hip_backend
#endif
                                  >;

/// Names typed tests by backend (`reduce_backend/cuda.min_and_max` rather than `.../2.`), so that
/// a run can select one backend: `--gtest_filter='*/cuda.*'` or `'*/hip.*'` (scripts/gpu-check's
/// sanitizer runs).
/// `TYPED_TEST_SUITE(my_backend_test, tack::test::backends, tack::test::backend_names);`
struct backend_names {
  template <class Backend>
  static std::string GetName(int) {
    if constexpr (std::is_same_v<Backend, tack::serial_backend>) {
      return "serial";
    } else if constexpr (std::is_same_v<Backend, tack::openmp_backend>) {
      return "openmp";
    } else if constexpr (std::is_same_v<Backend, tack::hip_backend>) {
      return "hip";
    } else {
      return "cuda";
    }
  }
};

/// The device a backend's kernels run on. `auto d = tack::test::device_of<tack::cuda_backend>();`
template <class Backend>
tack::device device_of() {
  return tack::backend_device<Backend>();
}

/// Whether `Backend` runs on a GPU (CUDA or HIP). `if constexpr (tack::test::on_gpu<B>) ...`
template <class Backend>
inline constexpr bool on_gpu = tack::is_gpu_backend_v<Backend>;
/// Whether `Backend` is HIP's (DLPack names its memory kDLROCM, its messages say "hip...").
/// `if constexpr (tack::test::on_hip<B>) ...`
template <class Backend>
inline constexpr bool on_hip = std::is_same_v<Backend, tack::hip_backend>;

/// Whether this process can run `Backend`'s kernels (a GPU backend is compiled but may have no
/// device).
/// `if (!tack::test::backend_runs<B>()) GTEST_SKIP();`
template <class Backend>
bool backend_runs() {
  return tack::is_available(device_of<Backend>());
}

/// A typed-test fixture that skips the backends this process cannot run, so that a GPU build on a
/// machine without a GPU compiles every test and runs the CPU ones.
/// `template <class B> class my_test : public tack::test::backend_test<B> {};`
template <class Backend>
class backend_test : public ::testing::Test {
protected:
  void SetUp() override {
    if (!backend_runs<Backend>()) {
      GTEST_SKIP() << "no " << (std::is_same_v<Backend, tack::hip_backend> ? "HIP" : "CUDA")
                   << " device in this process (" << device_of<Backend>().str()
                   << " is not available)";
    }
  }
};

/// `n` value-initialized elements the host and `Backend`'s kernels can both touch: unified memory
/// for a GPU backend (cuda:0 or hip:0), host memory otherwise. Elements are zero for arithmetic,
/// vector and matrix types.
/// `tack::test::shared_buffer<B, int> hits(n); kernel(hits.data()); EXPECT_EQ(hits[0], 1);`
template <class Backend, class T>
class shared_buffer {
  static_assert(std::is_trivially_copyable_v<T> && std::is_trivially_destructible_v<T>,
                "shared_buffer holds plain data that kernels copy bytewise: use a trivially "
                "copyable element type");
  static constexpr bool unified_ = tack::is_gpu_backend_v<Backend>;

public:
  explicit shared_buffer(index_t n) : n_(n > 0 ? n : 0) {
    // One element at least, so that data() is a valid pointer kernels may receive for n == 0.
    const std::size_t bytes = static_cast<std::size_t>(n_ > 0 ? n_ : 1) * sizeof(T);
    if constexpr (unified_) {
      data_ = static_cast<T*>(tack::detail::gpu_malloc_unified(bytes, 0));
    } else {
      data_ = static_cast<T*>(::operator new(bytes));
    }
    for (index_t i = 0; i < n_; ++i) ::new (static_cast<void*>(data_ + i)) T{};
  }
  ~shared_buffer() {
    if constexpr (unified_) {
      tack::detail::gpu_free_unified(data_, 0);
    } else {
      ::operator delete(data_);
    }
  }
  shared_buffer(const shared_buffer&) = delete;
  shared_buffer& operator=(const shared_buffer&) = delete;

  /// The elements, for kernels and the host. `kernel_args{buf.data()}`
  T* data() const { return data_; }
  /// Host access to element `i`. `EXPECT_EQ(buf[0], 1);`
  T& operator[](index_t i) const { return data_[i]; }
  /// How many elements. `for (index_t i = 0; i < buf.size(); ++i) ...`
  index_t size() const { return n_; }
  /// A host copy of the elements. `EXPECT_EQ(buf.to_vector(), expected);`
  std::vector<T> to_vector() const { return std::vector<T>(data_, data_ + n_); }

private:
  T* data_ = nullptr;
  index_t n_ = 0;
};

namespace detail {
// Host memory that reports itself as device memory of the build's first GPU (cuda:0, or hip:0 in a
// HIP build): lets tests reach the library's device-memory paths (refused host access, copies
// through the GPU runtime) on a machine without a GPU. 64-byte aligned like the library's host
// allocator.
struct fake_device_memory final : tack::allocator {
  void* allocate(std::size_t bytes) override {
    return ::operator new (bytes, std::align_val_t{64});
  }
  void deallocate(void* p, std::size_t) noexcept override {
    ::operator delete (p, std::align_val_t{64});
  }
  tack::memory_space space() const noexcept override { return tack::memory_space::device; }
  tack::device device() const noexcept override { return tack::detail::first_gpu(); }
  std::string name() const override {
    return "fake " + tack::detail::first_gpu().str() + " device memory";
  }
};
}  // namespace detail

/// The id of an allocator registered (once per process) as device memory of the build's first GPU
/// (`tack::detail::first_gpu()`) but backed by host memory.
/// `auto a = tack::empty<float>(3, {.allocator = tack::test::fake_device_allocator()});`
inline tack::allocator_id fake_device_allocator() {
  static const tack::allocator_id id =
      tack::register_allocator(std::make_shared<detail::fake_device_memory>());
  return id;
}

/// A 2x2 matrix of unsigned integers (arithmetic mod 2^32), the value of a non-commutative op.
struct m2 {
  std::uint32_t a, b, c, d;
  friend bool operator==(const m2&, const m2&) = default;
};
/// The matrix product of `m2`s: associative, not commutative (no `commutative` member), so
/// reductions and scans must keep its operands in index order. `m2_product{}(x, y)`
struct m2_product {
  template <class T>
  TACK_HOST_DEVICE static T identity() {
    return T{1, 0, 0, 1};
  }
  TACK_HOST_DEVICE m2 operator()(const m2& x, const m2& y) const {
    return m2{x.a * y.a + x.b * y.c, x.a * y.b + x.b * y.d, x.c * y.a + x.d * y.c,
              x.c * y.b + x.d * y.d};
  }
};
/// The `i`-th of a sequence of determinant-1 matrices, upper and lower triangular in turn: their
/// products stay far from degenerate mod 2^32, so any two groupings that swap operands differ.
/// `m2 x = tack::test::unimodular_at(7);`
TACK_INLINE m2 unimodular_at(index_t i) {
  const auto k = static_cast<std::uint32_t>(i);
  return i % 2 == 0 ? m2{1, k % 5 + 1, 0, 1} : m2{1, 0, (7 * k) % 4 + 1, 1};
}

/// `n` pseudo-random integers in `[-range / 2, range / 2)` from `seed` (a fixed linear
/// congruential sequence: the same values on every platform, many duplicates for a small range).
/// `auto keys = tack::test::random_ints(1000, 7, 50);`
inline std::vector<std::int32_t> random_ints(index_t n, std::uint64_t seed, std::int32_t range) {
  std::vector<std::int32_t> v(static_cast<std::size_t>(n));
  std::uint64_t s = seed;
  for (auto& x : v) {
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    x = static_cast<std::int32_t>((s >> 33) % static_cast<std::uint64_t>(range)) - range / 2;
  }
  return v;
}

}  // namespace tack::test
