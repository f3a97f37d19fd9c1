// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
#pragma once
/// @file Prefix scans of any readable array into a `tack::array`:
/// `inclusive_scan(in, out[, op])`, `exclusive_scan(in, out, init[, op])`.
///
/// Scans combine whole elements (`vec3f + vec3f` for a `vec3f` output, unlike the reductions,
/// which combine scalar components): `out[i]` is `in[0] op ... op in[i]` (inclusive) or
/// `init op in[0] op ... op in[i - 1]` (exclusive), in the output's element type. They run on the
/// output's device through `tack::parallel_scan` (its grouping and determinism rules apply: on the
/// CPU one strict pass with one thread, fixed blocks with several). `in` may be `out` itself (an
/// in-place scan). `inclusive_scan` needs `op`'s identity (`Op::identity<T>()`, which the ops of
/// exec/ops.hpp have) as the start value.

#include <tack/algorithms/reduce.hpp>
#include <tack/array/array.hpp>
#include <tack/exec/parallel_scan.hpp>

#include <string>
#include <type_traits>

namespace tack {
namespace detail {

/// Element `i` of the input, as the output's element type `V`.
template <class K, class V>
struct scan_value {
  K in;
  TACK_EXEC_CHECK_DISABLE
  TACK_FORCEINLINE constexpr V operator()(index_t i) const { return static_cast<V>(in[i]); }
};

/// Stores the inclusive or the exclusive prefix into element `i` of the output's kernel form.
template <class K, bool Inclusive>
struct scan_store {
  K out;
  TACK_EXEC_CHECK_DISABLE
  template <class V>
  TACK_FORCEINLINE constexpr void operator()(index_t i, const V& exclusive,
                                             const V& inclusive) const {
    if constexpr (Inclusive) {
      out[i] = inclusive;
    } else {
      out[i] = exclusive;
    }
  }
};

TACK_IMPL_KERNEL_ABI_BEGIN
/// The scans' common part: checks, then `parallel_scan` from `init`, storing one prefix.
template <bool Inclusive, class In, class T, int R, memory_space S, class V, class Op>
void scan_into(const char* op_name, const In& in, const array<T, R, S>& out, V init, Op op) {
  if constexpr (std::is_const_v<T>) {
    static_assert(!std::is_const_v<T>,
                  "tack::inclusive_scan / exclusive_scan: the output is a read-only handle "
                  "(array<const T>); pass a writable array");
  } else if constexpr (!std::is_convertible_v<algorithm_value_t<In>, V>) {
    static_assert(std::is_convertible_v<algorithm_value_t<In>, V>,
                  "tack::inclusive_scan / exclusive_scan: the input elements must convert to the "
                  "output's element type; cast the input first (tack::arrays::cast<T>(in))");
  } else {
    if (out.read_only()) {
      throw read_only_error(std::string(op_name) + ": the output " + out.describe() +
                            " is read-only");
    }
    const index_t n = algorithm_size(in);
    if (n != out.size()) {
      throw value_error(std::string(op_name) + ": sizes differ: the input has " +
                        std::to_string(n) + " elements (" + describe_argument(in) +
                        "), the output " + std::to_string(out.size()) + " (" + out.describe() +
                        ")");
    }
    const tack::device d = common_algorithm_device(op_name, out, in);
    tack::visit_kernel_form(out, [&](const auto& ko) {
      with_kernel_form_on(d, op_name, in, [&](auto backend, const auto& ki) {
        using KI = std::remove_cvref_t<decltype(ki)>;
        using KO = std::remove_cvref_t<decltype(ko)>;
        tack::parallel_scan(backend, n, init, scan_value<KI, V>{ki}, scan_store<KO, Inclusive>{ko},
                            op);
      });
    });
    out.bump_version();
  }
}
TACK_IMPL_KERNEL_ABI_END

}  // namespace detail

TACK_IMPL_KERNEL_ABI_BEGIN

/// `out[i] = in[0] op in[1] op ... op in[i]` for every `i`, in `out`'s element type. Sizes must
/// match (`value_error` naming both); `in` may be `out`. `op` needs `Op::identity<T>()`.
/// `tack::inclusive_scan(counts, offsets);  tack::inclusive_scan(a, a, tack::ops::max{});`
template <detail::algorithm_array In, class T, int R, memory_space S, class Op = ops::plus>
void inclusive_scan(const In& in, const array<T, R, S>& out, Op op = {}) {
  using V = std::remove_const_t<T>;
  if constexpr (!requires { Op::template identity<V>(); }) {
    static_assert(
        requires { Op::template identity<V>(); },
        "tack::inclusive_scan: the op needs an identity, `template <class T> static T "
        "identity()` (see tack::ops::plus); or use exclusive_scan with an explicit init");
  } else {
    detail::scan_into<true>("tack::inclusive_scan", in, out, Op::template identity<V>(), op);
  }
}

/// `out[i] = init op in[0] op ... op in[i - 1]` (`out[0] = init`), in `out`'s element type.
/// Sizes must match (`value_error` naming both); `in` may be `out`.
/// `tack::exclusive_scan(counts, offsets, 0);`
template <detail::algorithm_array In, class T, int R, memory_space S, class Op = ops::plus>
void exclusive_scan(const In& in, const array<T, R, S>& out,
                    std::type_identity_t<std::remove_const_t<T>> init, Op op = {}) {
  detail::scan_into<false>("tack::exclusive_scan", in, out, init, op);
}

TACK_IMPL_KERNEL_ABI_END

}  // namespace tack
