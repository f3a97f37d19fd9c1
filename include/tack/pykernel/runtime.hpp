// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
#pragma once
/// @file What C++ generated from a Python kernel (`@tack.kernel`) calls: Python's arithmetic on
/// fixed-width values, conversions, argument slots turned into kernel views, and the checks of
/// debug mode. Host and device.
///
/// Python's operators differ from C++'s, and a kernel written in Python must compute what NumPy
/// computes on the same values: `//` and `%` round toward minus infinity (an integer divided by
/// zero gives 0), integers wrap at their width instead of overflowing, shifts past the width give
/// 0 (or -1), `min`/`max` propagate NaN. The generated code converts both operands to the result
/// type first (NumPy's promotion is decided in Python), then calls these functions.
///
/// `tack::pykernel::floordiv<int>(-7, 2) == -4; tack::pykernel::mod(-7.0, 2.0) == 1.0`

// Debug mode routes tack's own precondition checks here, so that a failing check inside a library
// implicit array ends the kernel with a Python exception instead of aborting the process.
#ifndef TACK_PRECONDITION_HANDLER
#define TACK_PRECONDITION_HANDLER(file, line, ...) \
  ::tack::pykernel::precondition_failed(file, line, __VA_ARGS__)
#endif

// The failure path is declared before any header that expands TACK_EXPECTS.
#include <tack/core/index.hpp>
#include <tack/core/macros.hpp>
#include <tack/pykernel/abi.hpp>

#include <cstdio>

namespace tack::pykernel {

/// What a kernel throws on the host when a check fails; `run_guarded` turns it into the error slot.
struct kernel_failure {
  int kind;  ///< 1: index out of range; 2: other
  char message[512];
};

#if defined(__CUDACC__)
/// The first failure of a kernel on the device (debug mode): its kind (0: none) and message.
/// One per compiled variant; the launcher clears it before a debug launch and reads it after.
struct device_failure {
  int kind;
  char message[512];
};
static __device__ device_failure device_failure_record;

/// Appends `s` to `out` at `*at`, keeping room for the terminating zero.
__device__ inline void append_text(char* out, int& at, const char* s) {
  for (; *s != 0 && at < 511; ++s) out[at++] = *s;
}
__device__ inline void append_arg(char* out, int& at, const char* s) { append_text(out, at, s); }
template <class Int>
__device__ inline void append_arg(char* out, int& at, Int v) {
  char digits[24];
  int n = 0;
  unsigned long long u =
      v < 0 ? 0ull - static_cast<unsigned long long>(v) : static_cast<unsigned long long>(v);
  do {
    digits[n++] = static_cast<char>('0' + u % 10);
    u /= 10;
  } while (u != 0);
  if (v < 0 && at < 511) out[at++] = '-';
  while (n > 0 && at < 511) out[at++] = digits[--n];
}
/// `fmt` with its conversions (`%d`, `%lld`, `%s`: the ones tack's checks use) replaced by
/// `args` in order, into `out`.
template <class... Args>
__device__ inline void format_message(char* out, const char* fmt, Args... args) {
  int at = 0;
  auto next = [&](auto arg) {
    while (*fmt != 0 && at < 511) {
      if (*fmt == '%' && fmt[1] == '%') {
        out[at++] = '%';
        fmt += 2;
      } else if (*fmt == '%') {
        ++fmt;
        while (*fmt == 'l' || *fmt == 'z') ++fmt;
        ++fmt;  // the conversion letter
        append_arg(out, at, arg);
        return;
      } else {
        out[at++] = *fmt++;
      }
    }
  };
  (next(args), ...);
  append_text(out, at, fmt);
  out[at] = 0;
}
#endif

/// Ends the kernel with message `fmt` (printf style). Host: throws `kernel_failure`, which
/// `run_guarded` reports to Python. Device: the first failing thread writes the message into
/// `device_failure_record`, and every failing thread exits (the GPU stays usable; the launcher
/// reports the record).
template <class... Args>
[[noreturn]] TACK_HOST_DEVICE inline void fail(int kind, const char* fmt, Args... args) {
#if TACK_IMPL_DEVICE_PASS && !defined(__CUDACC__)
  // HIP's device pass: kernels written in Python run on the CPU and CUDA only (tack.kernel), so
  // this header only has to compile here; a failing thread ends its kernel.
  (void)kind;
  (void)fmt;
  ((void)args, ...);
  __builtin_trap();
#elif TACK_IMPL_DEVICE_PASS
  if (atomicCAS(&device_failure_record.kind, 0, -1) == 0) {
    format_message(device_failure_record.message, fmt, args...);
    __threadfence();
    atomicExch(&device_failure_record.kind, kind);
  }
  asm volatile("exit;");
  __builtin_unreachable();
#else
  kernel_failure f{kind, {}};
  std::snprintf(f.message, sizeof f.message, fmt, args...);
  throw f;
#endif
}

/// The handler of tack's preconditions (TACK_EXPECTS) inside generated kernels.
template <class... Args>
[[noreturn]] TACK_HOST_DEVICE inline void precondition_failed(const char*, int, const char* fmt,
                                                              Args... args) {
  fail(1, fmt, args...);
}

}  // namespace tack::pykernel

#include <tack/types/item.hpp>
#include <tack/types/mat.hpp>
#include <tack/types/scalar.hpp>
#include <tack/types/vec.hpp>

#include <array>
#include <cmath>
#include <cstdint>
#include <exception>
#include <type_traits>
#include <utility>

namespace tack::pykernel {

/// `i`, after checking `0 <= i < rows` (debug mode): an IndexError naming `what` (`parameter
/// 'a'`), the index, the axis and the rows. `a[check_index(i, n, "parameter 'a'", 0)]`
TACK_FORCEINLINE index_t check_index(index_t i, index_t rows, const char* what, int axis) {
  if (i < 0 || i >= rows) {
    fail(1, "index %lld is out of range for axis %d of %s with %lld rows",
         static_cast<long long>(i), axis, what, static_cast<long long>(rows));
  }
  return i;
}

inline void copy_message(tack_pk_error* error, int kind, const char* message) {
  error->kind = kind;
  int c = 0;
  for (; c < 511 && message[c] != 0; ++c) error->message[c] = message[c];
  error->message[c] = 0;
}

/// Thrown by a body that has already filled the error slot.
struct reported {};

/// Runs `body` on the host, reporting a `kernel_failure` in `error`: 0 on success.
template <class Body>
inline int run_guarded(tack_pk_error* error, Body&& body) {
#if TACK_IMPL_DEVICE_PASS
  body();
  return 0;
#else
  try {
    body();
    return 0;
  } catch (const kernel_failure& f) {
    copy_message(error, f.kind, f.message);
    return 1;
  } catch (const reported&) {
    return 1;
  } catch (const std::exception& e) {
    copy_message(error, 2, e.what());
    return 1;
  }
#endif
}

#if defined(__CUDACC__)
/// Threads per block of a kernel compiled from Python, and the most blocks of its grid-stride loop
/// (as tack's own CUDA kernels).
inline constexpr unsigned cuda_block_threads = 256;
inline constexpr long long cuda_max_blocks = 1ll << 20;

/// Fills `error` with a CUDA failure of `what` (kind 3: Python's tack.DeviceError); returns 1.
inline int cuda_failed(tack_pk_error* error, const char* what, cudaError_t e) {
  (void)cudaGetLastError();  // clear a non-sticky error so that later calls start clean
  char message[512];
  std::snprintf(message, sizeof message, "%s: CUDA error %s (%s)", what, cudaGetErrorName(e),
                cudaGetErrorString(e));
  copy_message(error, 3, message);
  return 1;
}

/// Runs `launch(blocks, threads, stream)` (a `<<<...>>>` launch over `total` threads) on device
/// `device` and `stream` (null: the legacy default stream), as tack's own CUDA launches do: on the
/// legacy default stream it waits for the device, so that errors surface here; on another stream
/// it returns at once. In debug mode (`debug` nonzero) it always waits and reports the kernel's
/// first failed check (`device_failure_record`) as the host does. Returns 0, or 1 with `error`
/// filled.
template <class Launch>
inline int run_cuda(tack_pk_error* error, int device, void* stream, int debug, long long total,
                    Launch&& launch) {
  int previous = 0;
  cudaError_t e = cudaGetDevice(&previous);
  if (e == cudaSuccess && previous != device) e = cudaSetDevice(device);
  if (e != cudaSuccess) return cuda_failed(error, "selecting the device", e);
  struct restore {
    int previous, device;
    ~restore() {
      if (previous != device) (void)cudaSetDevice(previous);
    }
  } guard{previous, device};
  if (total <= 0) return 0;
  const cudaStream_t s = stream != nullptr ? static_cast<cudaStream_t>(stream) : cudaStreamLegacy;
  void* record = nullptr;
  if (debug) {
    e = cudaGetSymbolAddress(&record, device_failure_record);
    if (e == cudaSuccess) e = cudaMemsetAsync(record, 0, sizeof(int), s);
    if (e != cudaSuccess) return cuda_failed(error, "clearing the failure record", e);
  }
  const long long wanted = (total + cuda_block_threads - 1) / cuda_block_threads;
  launch(static_cast<unsigned>(wanted < cuda_max_blocks ? wanted : cuda_max_blocks),
         cuda_block_threads, s);
  e = cudaGetLastError();
  if (e != cudaSuccess) return cuda_failed(error, "launching the kernel", e);
  if (stream != nullptr && !debug) return 0;
  e = stream != nullptr ? cudaStreamSynchronize(s) : cudaDeviceSynchronize();
  if (e != cudaSuccess) return cuda_failed(error, "running the kernel", e);
  if (debug) {
    device_failure found;
    e = cudaMemcpy(&found, record, sizeof found, cudaMemcpyDeviceToHost);
    if (e != cudaSuccess) return cuda_failed(error, "reading the failure record", e);
    if (found.kind > 0) {
      found.message[sizeof found.message - 1] = 0;
      copy_message(error, found.kind, found.message);
      return 1;
    }
  }
  return 0;
}
#endif

// ---- conversions -------------------------------------------------------------------------------

template <class T>
struct is_element : std::false_type {};
template <class T, int N>
struct is_element<vec<T, N>> : std::true_type {};
template <class T, int R, int C>
struct is_element<mat<T, R, C>> : std::true_type {};

/// `x` as `To`: as `astype` converts (`tack::detail::convert_element`: floats into integers
/// saturate, NaN gives 0); a number as a vector or matrix broadcasts to every component.
/// `cvt<float>(2)`, `cvt<vec3d>(v)`
template <class To, class From>
TACK_FORCEINLINE constexpr To cvt(const From& x) {
  if constexpr (std::is_same_v<To, From>) {
    return x;
  } else if constexpr (is_element<To>::value && !is_element<From>::value) {
    return To::filled(detail::convert_scalar<typename To::scalar_type>(x));
  } else {
    return detail::convert_element<To>(x);
  }
}

/// Python's truth value of a number: nonzero (NaN is true, as in Python).
template <class T>
TACK_FORCEINLINE constexpr bool truth(T x) {
  return x != T(0);
}

// ---- integer arithmetic that wraps as NumPy's fixed-width integers ----------------------------

template <class T>
using wrap_t =
    std::conditional_t<(sizeof(T) < sizeof(unsigned)), unsigned, std::make_unsigned_t<T>>;

template <class T>
inline constexpr bool wraps_v = std::is_integral_v<T> && !std::is_same_v<T, bool>;

/// `a + b`, wrapping for integers. `add<std::int8_t>(127, 1) == -128`
template <class T>
TACK_FORCEINLINE constexpr T add(T a, T b) {
  if constexpr (wraps_v<T>) {
    return static_cast<T>(static_cast<wrap_t<T>>(a) + static_cast<wrap_t<T>>(b));
  } else {
    return a + b;
  }
}
/// `a - b`, wrapping for integers.
template <class T>
TACK_FORCEINLINE constexpr T sub(T a, T b) {
  if constexpr (wraps_v<T>) {
    return static_cast<T>(static_cast<wrap_t<T>>(a) - static_cast<wrap_t<T>>(b));
  } else {
    return a - b;
  }
}
/// `a * b`, wrapping for integers.
template <class T>
TACK_FORCEINLINE constexpr T mul(T a, T b) {
  if constexpr (wraps_v<T>) {
    return static_cast<T>(static_cast<wrap_t<T>>(a) * static_cast<wrap_t<T>>(b));
  } else {
    return a * b;
  }
}
/// `-a`, wrapping for integers (`neg<std::int8_t>(-128) == -128`, as NumPy).
template <class T>
TACK_FORCEINLINE constexpr T neg(T a) {
  if constexpr (wraps_v<T>) {
    return static_cast<T>(wrap_t<T>(0) - static_cast<wrap_t<T>>(a));
  } else {
    return -a;
  }
}
/// `abs(a)`: NumPy's absolute (the most negative integer stays itself).
template <class T>
TACK_FORCEINLINE constexpr T abs(T a) {
  if constexpr (std::is_floating_point_v<T>) {
    return std::fabs(a);
  } else if constexpr (std::is_unsigned_v<T> || std::is_same_v<T, bool>) {
    return a;
  } else {
    return a < 0 ? neg(a) : a;
  }
}

/// `a // b`: rounded toward minus infinity. Integers: a zero divisor gives 0 (NumPy's result);
/// the most negative value divided by -1 wraps. Floats: NumPy's floor_divide (the quotient of
/// `a - fmod(a, b)` rounded, so `floordiv(a, b) * b + mod(a, b)` is `a` as closely as it can be).
template <class T>
TACK_FORCEINLINE constexpr T floordiv(T a, T b) {
  if constexpr (std::is_floating_point_v<T>) {
    if (b == T(0)) return a / b;
    T m = std::fmod(a, b);
    T d = (a - m) / b;
    if (m != T(0) && ((b < T(0)) != (m < T(0)))) d -= T(1);
    if (d == T(0)) return std::copysign(T(0), a / b);
    T f = std::floor(d);
    if (d - f > T(0.5)) f += T(1);
    return f;
  } else {
    if (b == T(0)) return T(0);
    if constexpr (std::is_signed_v<T>) {
      if (b == T(-1)) return neg(a);
      T q = static_cast<T>(a / b);
      if (static_cast<T>(a % b) != T(0) && ((a < T(0)) != (b < T(0)))) q = static_cast<T>(q - 1);
      return q;
    } else {
      return static_cast<T>(a / b);
    }
  }
}

/// `a % b`: the sign of the divisor, as Python's. Integers: a zero divisor gives 0. Floats: a
/// zero divisor gives NaN; a zero remainder has the divisor's sign.
template <class T>
TACK_FORCEINLINE constexpr T mod(T a, T b) {
  if constexpr (std::is_floating_point_v<T>) {
    if (b == T(0)) return std::fmod(a, b);
    T m = std::fmod(a, b);
    if (m != T(0)) {
      if ((b < T(0)) != (m < T(0))) m += b;
    } else {
      m = std::copysign(T(0), b);
    }
    return m;
  } else {
    if (b == T(0)) return T(0);
    if constexpr (std::is_signed_v<T>) {
      if (b == T(-1)) return T(0);
      T r = static_cast<T>(a % b);
      if (r != T(0) && ((r < T(0)) != (b < T(0)))) r = static_cast<T>(r + b);
      return r;
    } else {
      return static_cast<T>(a % b);
    }
  }
}

/// `a ** b`: floats as `std::pow`; integers by repeated squaring, wrapping. A negative integer
/// exponent (NumPy refuses it) gives `1 / a` truncated: 1 for a == 1, ±1 for a == -1, else 0.
template <class T>
TACK_FORCEINLINE constexpr T pow(T a, T b) {
  if constexpr (std::is_floating_point_v<T>) {
    return std::pow(a, b);
  } else {
    if constexpr (std::is_signed_v<T>) {
      if (b < T(0)) {
        if (a == T(1)) return T(1);
        if (a == T(-1)) return (b % 2 == 0) ? T(1) : T(-1);
        return T(0);
      }
    }
    T result = T(1);
    T base = a;
    auto e = static_cast<std::make_unsigned_t<T>>(b);
    while (e != 0) {
      if (e & 1u) result = mul(result, base);
      base = mul(base, base);
      e >>= 1;
    }
    return result;
  }
}

/// `a << b` as NumPy: a shift by the width or more (or by a negative count) gives 0.
template <class T>
TACK_FORCEINLINE constexpr T lshift(T a, T b) {
  if (static_cast<std::make_unsigned_t<T>>(b) >= sizeof(T) * 8u) return T(0);
  return static_cast<T>(static_cast<wrap_t<T>>(a) << b);
}
/// `a >> b` as NumPy: past the width, 0 (or -1 for a negative `a`).
template <class T>
TACK_FORCEINLINE constexpr T rshift(T a, T b) {
  if (static_cast<std::make_unsigned_t<T>>(b) >= sizeof(T) * 8u) {
    if constexpr (std::is_signed_v<T>) {
      return a < T(0) ? T(-1) : T(0);
    } else {
      return T(0);
    }
  }
  return static_cast<T>(a >> b);
}

/// The smaller (`Min`) or larger of `a` and `b`, component by component: NaN propagates (NumPy's
/// minimum/maximum), and on ties the first operand wins. The rule of tack's element functors
/// (`tack::arrays::detail::minimum_scalar`), restated here so that a kernel need not include
/// `arrays/expressions.hpp`, which doubles the headers a small kernel parses.
template <bool Min, class T>
TACK_FORCEINLINE constexpr T extreme(T a, T b) {
  if constexpr (is_vec_v<T>) {
    T out{};
    for (int c = 0; c < T::length; ++c) out[c] = extreme<Min>(a[c], b[c]);
    return out;
  } else {
    if (a != a) return a;
    if (b != b) return b;
    return (Min ? b < a : a < b) ? b : a;
  }
}
/// `min(a, b)` / `tack.minimum` in a kernel. `minimum(-0.0, 0.0)` is `-0.0`.
template <class T>
TACK_FORCEINLINE constexpr T minimum(T a, T b) {
  return extreme<true>(a, b);
}
/// `max(a, b)` / `tack.maximum` in a kernel.
template <class T>
TACK_FORCEINLINE constexpr T maximum(T a, T b) {
  return extreme<false>(a, b);
}

/// Applies the scalar function `f` to each component of a vector (or to a scalar).
template <class T, class F>
TACK_FORCEINLINE constexpr T map(const T& x, F f) {
  if constexpr (is_vec_v<T>) {
    T out{};
    for (int c = 0; c < T::length; ++c) out[c] = f(x[c]);
    return out;
  } else {
    return f(x);
  }
}

/// Component `c` of an element reference, stored into in place: `v[c]` of a `vec&`, entry
/// `c / cols, c % cols` of a `mat&`, `component(c)` of a SoA proxy.
template <class R>
TACK_FORCEINLINE decltype(auto) component(R&& ref, int c) {
  using E = std::remove_cvref_t<R>;
  if constexpr (is_vec_v<E>) {
    return (ref[c]);
  } else if constexpr (is_element<E>::value) {
    return (ref(c / E::cols, c % E::cols));
  } else {
    return ref.component(c);
  }
}

/// The sum of `a[begin..end)`'s scalar components in `Acc`, over 8 lanes (so a compiler can keep
/// them in vector registers), the lanes then added pairwise. One block of a host reduction of an
/// implicit array: the extension adds the blocks' sums pairwise in block order, so the result
/// does not depend on the thread count. `block_sum<double, double>(a, 0, 1024)`
template <class Acc, class E, class A>
TACK_FORCEINLINE Acc block_sum(const A& a, index_t begin, index_t end) {
  constexpr int lanes = 8;
  Acc lane[lanes] = {};
  // integers wrap as NumPy's sums do
  auto add = [](Acc& acc, const E& e) {
    if constexpr (is_vec_v<E>) {
      for (int c = 0; c < E::length; ++c) acc = pykernel::add(acc, static_cast<Acc>(e[c]));
    } else if constexpr (is_element<E>::value) {
      for (int r = 0; r < E::rows; ++r)
        for (int c = 0; c < E::cols; ++c) acc = pykernel::add(acc, static_cast<Acc>(e(r, c)));
    } else {
      acc = pykernel::add(acc, static_cast<Acc>(e));
    }
  };
  index_t i = begin;
  for (; i + lanes <= end; i += lanes) {
    for (int l = 0; l < lanes; ++l) add(lane[l], static_cast<E>(a[i + l]));
  }
  for (int l = 0; i < end; ++i, ++l) add(lane[l], static_cast<E>(a[i]));
  for (int w = lanes / 2; w >= 1; w /= 2) {
    for (int l = 0; l < w; ++l) lane[l] = pykernel::add(lane[l], lane[l + w]);
  }
  return lane[0];
}

// ---- argument slots -----------------------------------------------------------------------------

/// The extents of a slot as the `std::array` a kernel view takes.
template <int R>
TACK_FORCEINLINE std::array<index_t, std::size_t(R)> extents_of(const tack_pk_slot& s) {
  std::array<index_t, std::size_t(R)> e{};
  for (int d = 0; d < R; ++d) e[std::size_t(d)] = s.shape[d];
  return e;
}

/// The component pointers of a SoA slot, as the SoA view's constructor takes them.
template <class S, int N>
TACK_FORCEINLINE std::array<S*, std::size_t(N)> components_of(const tack_pk_slot& s) {
  std::array<S*, std::size_t(N)> c{};
  for (int k = 0; k < N; ++k) c[std::size_t(k)] = static_cast<S*>(s.data[k]);
  return c;
}

}  // namespace tack::pykernel
