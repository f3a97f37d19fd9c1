// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
/// @file The evaluator of the run-time compositions of `tack.arrays` (lazy.hpp has the node
/// interface; arrays.cpp binds the constructors): the node types, block evaluation into stored
/// arrays, stores into writable compositions, reductions, and arithmetic on arrays and implicit
/// arrays (`a + 2.0 * b` builds a composition).
///
/// Stored operands are read in place; a scalar operand is a register value. Blocks run in
/// parallel on the CPU backend (tack::parallel_for) and reductions combine per-block results in
/// block order, so results do not depend on the thread count.

#include "lazy.hpp"

#include <tack/arrays/all.hpp>
#include <tack/exec/parallel_for.hpp>

#include <nanobind/stl/shared_ptr.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstring>
#include <memory>
#include <numeric>

namespace tackpy {

using namespace nb::literals;

namespace {

// ---- scratch buffers ----------------------------------------------------------------------------

/// Per-thread scratch blocks, taken and given back in stack order (a node's children evaluate
/// while the node holds its own).
struct scratch {
  static thread_local std::vector<std::vector<unsigned char>> stack;
  static thread_local std::size_t top;
  unsigned char* p;
  explicit scratch(std::size_t bytes) {
    if (top == stack.size()) stack.emplace_back();
    auto& v = stack[top++];
    if (v.size() < bytes) v.resize(bytes);
    p = v.data();
  }
  ~scratch() { --top; }
  scratch(const scratch&) = delete;
  scratch& operator=(const scratch&) = delete;
  template <class S>
  S* as() const {
    return reinterpret_cast<S*>(p);
  }
};
thread_local std::vector<std::vector<unsigned char>> scratch::stack;
thread_local std::size_t scratch::top = 0;

/// Elements per block of an evaluation into memory: about 4 KiB of the widest component type.
/// Each operator is one pass over the block, so `a + s * b` reads `b` in one loop and `a` in the
/// next; with blocks this small the hardware prefetchers keep every input's stream going from one
/// pass to the next, where with 16 KiB blocks each pass ran as one stream at a time (docs/
/// decisions.md, "Run-time compositions").
index_t block_elements(int components) { return std::max<index_t>(64, 512 / components); }

/// Elements per block of a reduction: its partial results are combined in block order, so the
/// block size is part of the result's rounding; it stays at about 16 KiB.
index_t reduce_block_elements(int components) { return std::max<index_t>(64, 2048 / components); }

/// The kind arithmetic of kind `k` is computed in: 8- and 16-bit integers (and booleans) in 32
/// bits, then converted back, which gives the same wrapped result with a third of the code.
tack::scalar_kind arith_kind(tack::scalar_kind k) {
  using K = tack::scalar_kind;
  switch (k) {
    case K::i8:
    case K::i16:
    case K::boolean:
      return K::i32;
    case K::u8:
    case K::u16:
      return K::u32;
    default:
      return k;
  }
}

/// The types arithmetic is computed in (see arith_kind).
using arith_types =
    tack::type_list<float, double, std::int32_t, std::int64_t, std::uint32_t, std::uint64_t>;

/// Calls `f.template operator()<S>()` with the type arithmetic of kind `k` is computed in.
template <class F>
decltype(auto) with_arith(tack::scalar_kind k, F&& f) {
  return tack::visit_scalar_kind(arith_kind(k), std::forward<F>(f), arith_types{});
}

// ---- nodes --------------------------------------------------------------------------------------

std::string kind_name(tack::scalar_kind k) { return std::string(tack::dtype(k).name()); }

tack::dtype with_kind(const tack::dtype& d, tack::scalar_kind k) {
  if (d.is_scalar()) return tack::dtype(k);
  if (d.is_vector()) return tack::dtype::vector(k, d.rows());
  return tack::dtype::matrix(k, d.rows(), d.cols());
}

/// A stored array: reads and writes its memory in place.
struct leaf final : node {
  py_array a;
  explicit leaf(py_array x) : a(std::move(x)) {
    elem = a.elem;
    shape.assign(a.shape.begin(), a.shape.begin() + a.ndim);
    n = a.size();
    if (!a.device().is_cpu()) {
      throw nb::value_error(("tack.arrays: " + a.describe() +
                             " is not in host memory; implicit arrays composed from Python run "
                             "on the CPU: move it with to_device(\"cpu\")")
                                .c_str());
    }
  }
  std::string name() const override { return a.describe(); }
  template <class S>
  const S* read_ptr(const flat& f) const {
    return part_as<S>(f).as_const().data();
  }
  template <class S>
  S* write_ptr(const flat& f) const {
    return part_as<S>(f).data();
  }
  const void* direct(index_t first) const override {
    if (a.is_soa()) return nullptr;
    return tack::visit_scalar_kind(kind(), [&]<class S>() -> const void* {
      return n ? read_ptr<S>(a.data) + first * components() : nullptr;
    });
  }
  void eval(index_t first, index_t count, void* out) const override {
    tack::visit_scalar_kind(kind(), [&]<class S>() {
      const int c = components();
      S* o = static_cast<S*>(out);
      if (!a.is_soa()) {
        std::memcpy(o, read_ptr<S>(a.data) + first * c,
                    static_cast<std::size_t>(count * c) * sizeof(S));
        return;
      }
      for (int k = 0; k < c; ++k) {
        const S* p = read_ptr<S>(a.comps[static_cast<std::size_t>(k)]) + first;
        for (index_t i = 0; i < count; ++i) o[i * c + k] = p[i];
      }
    });
  }
  void gather(const index_t* idx, index_t count, void* out) const override {
    tack::visit_scalar_kind(kind(), [&]<class S>() {
      const int c = components();
      S* o = static_cast<S*>(out);
      if (!a.is_soa()) {
        const S* p = read_ptr<S>(a.data);
        for (index_t i = 0; i < count; ++i) {
          for (int k = 0; k < c; ++k) o[i * c + k] = p[idx[i] * c + k];
        }
        return;
      }
      for (int k = 0; k < c; ++k) {
        const S* p = read_ptr<S>(a.comps[static_cast<std::size_t>(k)]);
        for (index_t i = 0; i < count; ++i) o[i * c + k] = p[idx[i]];
      }
    });
  }
  bool writable() const override { return !a.read_only(); }
  void store(index_t first, index_t count, const void* in) const override {
    tack::visit_scalar_kind(kind(), [&]<class S>() {
      const int c = components();
      const S* v = static_cast<const S*>(in);
      if (!a.is_soa()) {
        std::memmove(write_ptr<S>(a.data) + first * c, v,
                     static_cast<std::size_t>(count * c) * sizeof(S));
        return;
      }
      for (int k = 0; k < c; ++k) {
        S* p = write_ptr<S>(a.comps[static_cast<std::size_t>(k)]) + first;
        for (index_t i = 0; i < count; ++i) p[i] = v[i * c + k];
      }
    });
  }
  void scatter(const index_t* idx, index_t count, const void* in) const override {
    tack::visit_scalar_kind(kind(), [&]<class S>() {
      const int c = components();
      const S* v = static_cast<const S*>(in);
      if (!a.is_soa()) {
        S* p = write_ptr<S>(a.data);
        for (index_t i = 0; i < count; ++i) {
          for (int k = 0; k < c; ++k) p[idx[i] * c + k] = v[i * c + k];
        }
        return;
      }
      for (int k = 0; k < c; ++k) {
        S* p = write_ptr<S>(a.comps[static_cast<std::size_t>(k)]);
        for (index_t i = 0; i < count; ++i) p[idx[i]] = v[i * c + k];
      }
    });
  }
  std::optional<tack::device> device() const override { return a.device(); }
  [[noreturn]] void refuse_store() const override {
    raise(read_only_error_type,
          "tack.copyto: " + a.describe() + " is read-only; copy it first (a.copy())");
  }
  void for_each_written(const std::function<void(const py_array&)>& f) const override { f(a); }
  void for_each_read(const std::function<void(const py_array&)>& f) const override { f(a); }
};

/// One value everywhere: `ConstantArray`, and a Python scalar operand of arithmetic.
struct constant final : node {
  std::vector<unsigned char> value;  ///< one element
  std::string name() const override {
    return "ConstantArray(" + std::string(elem.name()) + ", n=" + std::to_string(n) + ")";
  }
  const void* uniform() const override { return value.data(); }
  void eval(index_t, index_t count, void* out) const override {
    const std::size_t w = elem.itemsize();
    auto* o = static_cast<unsigned char*>(out);
    for (index_t i = 0; i < count; ++i) std::memcpy(o + i * w, value.data(), w);
  }
  void gather(const index_t*, index_t count, void* out) const override { eval(0, count, out); }
};

/// `out[k] = To(in[k])`. Each pair is its own function: inlined into one dispatcher, the 121 loops
/// made one function too large for the optimizer to compile in reasonable time.
template <class From, class To>
[[gnu::noinline]] void convert_loop(const void* in, void* out, index_t m) {
  const From* __restrict i = static_cast<const From*>(in);
  To* __restrict o = static_cast<To*>(out);
  for (index_t k = 0; k < m; ++k) o[k] = tack::detail::convert_scalar<To>(i[k]);
}

/// Component conversion (`Cast`, and the promotion of arithmetic operands).
struct cast_node final : node {
  node_ptr a;
  std::string name() const override { return "Cast(" + a->name() + ", " + kind_name(kind()) + ")"; }
  template <class F>
  void convert(index_t count, const void* in, void* out, F&&) const {
    const index_t m = count * components();
    tack::visit_scalar_kind(a->kind(), [&]<class From>() {
      tack::visit_scalar_kind(kind(), [&]<class To>() { convert_loop<From, To>(in, out, m); });
    });
  }
  void eval(index_t first, index_t count, void* out) const override {
    scratch tmp(static_cast<std::size_t>(count) * a->elem.itemsize());
    const void* src = a->direct(first);
    if (!src) {
      a->eval(first, count, tmp.p);
      src = tmp.p;
    }
    convert(count, src, out, 0);
  }
  void gather(const index_t* idx, index_t count, void* out) const override {
    scratch tmp(static_cast<std::size_t>(count) * a->elem.itemsize());
    a->gather(idx, count, tmp.p);
    convert(count, tmp.p, out, 0);
  }
  std::optional<tack::device> device() const override { return a->device(); }
  void for_each_read(const std::function<void(const py_array&)>& f) const override {
    a->for_each_read(f);
  }
};

}  // namespace

node_ptr cast_to(const node_ptr& a, tack::scalar_kind k) {
  if (a->kind() == k) return a;
  auto c = std::make_shared<cast_node>();
  c->a = a;
  c->elem = with_kind(a->elem, k);
  c->shape = a->shape;
  c->n = a->n;
  return c;
}

namespace {

enum class binop { add, sub, mul, div, minimum, maximum, power };
enum class unop { neg, abs, sqrt, exp, log, sin, cos };

const char* binop_name(binop op) {
  switch (op) {
    case binop::add:
      return "+";
    case binop::sub:
      return "-";
    case binop::mul:
      return "*";
    case binop::div:
      return "/";
    case binop::minimum:
      return "minimum";
    case binop::maximum:
      return "maximum";
    case binop::power:
      return "**";
  }
  return "?";
}

template <binop Op, class S>
inline S apply(S x, S y) {
  if constexpr (Op == binop::add)
    return static_cast<S>(x + y);
  else if constexpr (Op == binop::sub)
    return static_cast<S>(x - y);
  else if constexpr (Op == binop::mul)
    return static_cast<S>(x * y);
  else if constexpr (Op == binop::div) {
    if constexpr (std::is_integral_v<S>)
      return y == 0 ? S(0) : static_cast<S>(x / y);
    else
      return x / y;
  } else if constexpr (Op == binop::minimum)  // the C++ element functors: NaN wins, ties the first
    return static_cast<S>(tack::arrays::detail::minimum_scalar{}(x, y));
  else if constexpr (Op == binop::maximum)
    return static_cast<S>(tack::arrays::detail::maximum_scalar{}(x, y));
  else
    return static_cast<S>(std::pow(x, y));
}

/// `a op b`, elementwise, same component kind; an operand of one component per element
/// broadcasts over the other's components (`vec3 * scalar array`).
struct binary_node final : node {
  node_ptr a, b;
  binop op = binop::add;
  std::string name() const override {
    return "(" + a->name() + " " + binop_name(op) + " " + b->name() + ")";
  }

  template <binop Op, class S>
  [[gnu::noinline]] void run(index_t first, index_t count, S* __restrict o) const {
    const int c = components();
    const index_t m = count * c;
    const int ca = a->components(), cb = b->components();
    const S* ua = static_cast<const S*>(a->uniform());
    const S* ub = static_cast<const S*>(b->uniform());
    std::optional<scratch> ta, tb;
    const S* __restrict pa = nullptr;
    const S* __restrict pb = nullptr;
    if (!ua) {
      pa = static_cast<const S*>(a->direct(first));
      if (!pa) {
        ta.emplace(static_cast<std::size_t>(count) * a->elem.itemsize());
        a->eval(first, count, ta->p);
        pa = ta->template as<S>();
      }
    }
    if (!ub) {
      pb = static_cast<const S*>(b->direct(first));
      if (!pb) {
        tb.emplace(static_cast<std::size_t>(count) * b->elem.itemsize());
        b->eval(first, count, tb->p);
        pb = tb->template as<S>();
      }
    }
    if (ub && cb == 1 && pa && ca == c) {
      const S y = *ub;
      for (index_t j = 0; j < m; ++j) o[j] = apply<Op>(pa[j], y);
    } else if (ua && ca == 1 && pb && cb == c) {
      const S x = *ua;
      for (index_t j = 0; j < m; ++j) o[j] = apply<Op>(x, pb[j]);
    } else if (pa && pb && ca == c && cb == c) {
      for (index_t j = 0; j < m; ++j) o[j] = apply<Op>(pa[j], pb[j]);
    } else {
      // Broadcasts and uniform values of several components: the general index arithmetic.
      for (index_t j = 0; j < m; ++j) {
        const index_t i = j / c;
        const int k = static_cast<int>(j % c);
        const S x = ua ? ua[ca == 1 ? 0 : k] : pa[ca == 1 ? i : j];
        const S y = ub ? ub[cb == 1 ? 0 : k] : pb[cb == 1 ? i : j];
        o[j] = apply<Op>(x, y);
      }
    }
  }
  void eval(index_t first, index_t count, void* out) const override {
    with_arith(kind(), [&]<class S>() {
      S* o = static_cast<S*>(out);
      switch (op) {
        case binop::add:
          run<binop::add>(first, count, o);
          break;
        case binop::sub:
          run<binop::sub>(first, count, o);
          break;
        case binop::mul:
          run<binop::mul>(first, count, o);
          break;
        case binop::div:
          run<binop::div>(first, count, o);
          break;
        case binop::minimum:
          run<binop::minimum>(first, count, o);
          break;
        case binop::maximum:
          run<binop::maximum>(first, count, o);
          break;
        case binop::power:
          run<binop::power>(first, count, o);
          break;
      }
    });
  }
  std::optional<tack::device> device() const override {
    auto d = a->device();
    return d ? d : b->device();
  }
  void for_each_read(const std::function<void(const py_array&)>& f) const override {
    a->for_each_read(f);
    b->for_each_read(f);
  }
};

template <unop Op, class S>
[[gnu::noinline]] void unary_loop(const S* __restrict p, S* __restrict o, index_t m) {
  for (index_t j = 0; j < m; ++j) {
    if constexpr (Op == unop::neg)
      o[j] = static_cast<S>(-p[j]);
    else if constexpr (Op == unop::abs) {
      if constexpr (std::is_unsigned_v<S>)
        o[j] = p[j];
      else
        o[j] = p[j] < S(0) ? static_cast<S>(-p[j]) : p[j];
    } else if constexpr (Op == unop::sqrt)
      o[j] = static_cast<S>(std::sqrt(p[j]));
    else if constexpr (Op == unop::exp)
      o[j] = static_cast<S>(std::exp(p[j]));
    else if constexpr (Op == unop::log)
      o[j] = static_cast<S>(std::log(p[j]));
    else if constexpr (Op == unop::sin)
      o[j] = static_cast<S>(std::sin(p[j]));
    else
      o[j] = static_cast<S>(std::cos(p[j]));
  }
}

struct unary_node final : node {
  node_ptr a;
  unop op = unop::neg;
  std::string name() const override {
    static const char* names[] = {"-", "abs", "sqrt", "exp", "log", "sin", "cos"};
    return std::string(names[static_cast<int>(op)]) + "(" + a->name() + ")";
  }
  void eval(index_t first, index_t count, void* out) const override {
    with_arith(kind(), [&]<class S>() {
      const index_t m = count * components();
      std::optional<scratch> t;
      const S* __restrict p = static_cast<const S*>(a->direct(first));
      if (!p) {
        t.emplace(static_cast<std::size_t>(count) * a->elem.itemsize());
        a->eval(first, count, t->p);
        p = t->template as<S>();
      }
      S* o = static_cast<S*>(out);
      switch (op) {
        case unop::neg:
          unary_loop<unop::neg>(p, o, m);
          break;
        case unop::abs:
          unary_loop<unop::abs>(p, o, m);
          break;
        case unop::sqrt:
          unary_loop<unop::sqrt>(p, o, m);
          break;
        case unop::exp:
          unary_loop<unop::exp>(p, o, m);
          break;
        case unop::log:
          unary_loop<unop::log>(p, o, m);
          break;
        case unop::sin:
          unary_loop<unop::sin>(p, o, m);
          break;
        case unop::cos:
          unary_loop<unop::cos>(p, o, m);
          break;
      }
    });
  }
  std::optional<tack::device> device() const override { return a->device(); }
  void for_each_read(const std::function<void(const py_array&)>& f) const override {
    a->for_each_read(f);
  }
};

/// Element `i` is `values[indices[i]]`; stores scatter.
struct permutation_node final : node {
  node_ptr indices, values;
  std::string name() const override {
    return "Permutation(" + indices->name() + ", " + values->name() + ")";
  }
  void read_indices(index_t first, index_t count, index_t* idx) const {
    tack::visit_scalar_kind(indices->kind(), [&]<class I>() {
      scratch t(static_cast<std::size_t>(count) * sizeof(I));
      indices->eval(first, count, t.p);
      const I* p = t.as<I>();
      for (index_t i = 0; i < count; ++i) {
        const auto v = static_cast<index_t>(p[i]);
        if (v < 0 || v >= values->n) {
          throw nb::index_error(("tack.arrays.Permutation: index " + std::to_string(v) + " at " +
                                 std::to_string(first + i) + " is outside the values (" +
                                 std::to_string(values->n) + " elements)")
                                    .c_str());
        }
        idx[i] = v;
      }
    });
  }
  void eval(index_t first, index_t count, void* out) const override {
    scratch idx(static_cast<std::size_t>(count) * sizeof(index_t));
    read_indices(first, count, idx.as<index_t>());
    values->gather(idx.as<index_t>(), count, out);
  }
  bool writable() const override { return values->writable(); }
  [[noreturn]] void refuse_store() const override {
    values->refuse_store();
    __builtin_unreachable();  // the call throws (a virtual call is not known to be noreturn)
  }
  void store(index_t first, index_t count, const void* in) const override {
    scratch idx(static_cast<std::size_t>(count) * sizeof(index_t));
    read_indices(first, count, idx.as<index_t>());
    values->scatter(idx.as<index_t>(), count, in);
  }
  std::optional<tack::device> device() const override { return values->device(); }
  void for_each_written(const std::function<void(const py_array&)>& f) const override {
    values->for_each_written(f);
  }
  void for_each_read(const std::function<void(const py_array&)>& f) const override {
    indices->for_each_read(f);
    values->for_each_read(f);
  }
};

/// Element `i` is `a[offset + i * step]` (`View` is step 1).
struct strided_node final : node {
  node_ptr a;
  index_t offset = 0, step = 1;
  bool is_view = false;
  std::string name() const override {
    return is_view ? "View(" + a->name() + ", " + std::to_string(offset) + ", " +
                         std::to_string(n) + ")"
                   : "Strided(" + a->name() + ", " + std::to_string(step) + ", " +
                         std::to_string(offset) + ")";
  }
  void indices(index_t first, index_t count, index_t* idx) const {
    for (index_t i = 0; i < count; ++i) idx[i] = offset + (first + i) * step;
  }
  const void* direct(index_t first) const override {
    if (step != 1) return nullptr;
    const void* p = a->direct(offset + first);
    return p;
  }
  void eval(index_t first, index_t count, void* out) const override {
    if (step == 1) {
      a->eval(offset + first, count, out);
      return;
    }
    scratch idx(static_cast<std::size_t>(count) * sizeof(index_t));
    indices(first, count, idx.as<index_t>());
    a->gather(idx.as<index_t>(), count, out);
  }
  void gather(const index_t* in, index_t count, void* out) const override {
    scratch idx(static_cast<std::size_t>(count) * sizeof(index_t));
    for (index_t i = 0; i < count; ++i) idx.as<index_t>()[i] = offset + in[i] * step;
    a->gather(idx.as<index_t>(), count, out);
  }
  bool writable() const override { return a->writable(); }
  [[noreturn]] void refuse_store() const override {
    a->refuse_store();
    __builtin_unreachable();  // the call throws (a virtual call is not known to be noreturn)
  }
  void store(index_t first, index_t count, const void* in) const override {
    if (step == 1) {
      a->store(offset + first, count, in);
      return;
    }
    scratch idx(static_cast<std::size_t>(count) * sizeof(index_t));
    indices(first, count, idx.as<index_t>());
    a->scatter(idx.as<index_t>(), count, in);
  }
  std::optional<tack::device> device() const override { return a->device(); }
  void for_each_written(const std::function<void(const py_array&)>& f) const override {
    a->for_each_written(f);
  }
  void for_each_read(const std::function<void(const py_array&)>& f) const override {
    a->for_each_read(f);
  }
};

/// A node over several arrays (Concatenate, Components): writable when each is, on the device of
/// the first that has one.
struct parts_node : node {
  std::vector<node_ptr> parts;
  bool writable() const override {
    return std::all_of(parts.begin(), parts.end(), [](const node_ptr& p) { return p->writable(); });
  }
  [[noreturn]] void refuse_store() const override {
    for (auto& p : parts) {
      if (!p->writable()) p->refuse_store();
    }
    node::refuse_store();
  }
  std::optional<tack::device> device() const override {
    for (auto& p : parts) {
      if (auto d = p->device()) return d;
    }
    return std::nullopt;
  }
  void for_each_written(const std::function<void(const py_array&)>& f) const override {
    for (auto& p : parts) p->for_each_written(f);
  }
  void for_each_read(const std::function<void(const py_array&)>& f) const override {
    for (auto& p : parts) p->for_each_read(f);
  }
};

/// The arrays one after another.
struct concatenate_node final : parts_node {
  std::vector<index_t> starts;  ///< first element of each part
  std::string name() const override {
    std::string s = "Concatenate(";
    for (std::size_t i = 0; i < parts.size(); ++i) s += (i ? ", " : "") + parts[i]->name();
    return s + ")";
  }
  template <class F>
  void pieces(index_t first, index_t count, F&& f) const {
    std::size_t p = static_cast<std::size_t>(std::upper_bound(starts.begin(), starts.end(), first) -
                                             starts.begin()) -
                    1;
    index_t done = 0;
    while (done < count) {
      const index_t local = first + done - starts[p];
      const index_t take = std::min(count - done, parts[p]->n - local);
      if (take > 0) f(*parts[p], local, take, done);
      done += take;
      ++p;
    }
  }
  void eval(index_t first, index_t count, void* out) const override {
    const std::size_t w = elem.itemsize();
    pieces(first, count, [&](const node& part, index_t local, index_t take, index_t done) {
      part.eval(local, take, static_cast<unsigned char*>(out) + done * w);
    });
  }
  void store(index_t first, index_t count, const void* in) const override {
    const std::size_t w = elem.itemsize();
    pieces(first, count, [&](const node& part, index_t local, index_t take, index_t done) {
      part.store(local, take, static_cast<const unsigned char*>(in) + done * w);
    });
  }
};

/// Component `c` of each element (`ExtractComponent`).
struct component_node final : node {
  node_ptr a;
  int c = 0;
  std::string name() const override {
    return "ExtractComponent(" + a->name() + ", " + std::to_string(c) + ")";
  }
  void eval(index_t first, index_t count, void* out) const override {
    tack::visit_scalar_kind(kind(), [&]<class S>() {
      const int ca = a->components();
      scratch t(static_cast<std::size_t>(count) * a->elem.itemsize());
      const S* p = static_cast<const S*>(a->direct(first));
      if (!p) {
        a->eval(first, count, t.p);
        p = t.as<S>();
      }
      S* o = static_cast<S*>(out);
      for (index_t i = 0; i < count; ++i) o[i] = p[i * ca + c];
    });
  }
  bool writable() const override { return a->writable(); }
  [[noreturn]] void refuse_store() const override {
    a->refuse_store();
    __builtin_unreachable();  // the call throws (a virtual call is not known to be noreturn)
  }
  void store(index_t first, index_t count, const void* in) const override {
    tack::visit_scalar_kind(kind(), [&]<class S>() {
      const int ca = a->components();
      scratch t(static_cast<std::size_t>(count) * a->elem.itemsize());
      a->eval(first, count, t.p);
      S* p = t.as<S>();
      const S* v = static_cast<const S*>(in);
      for (index_t i = 0; i < count; ++i) p[i * ca + c] = v[i];
      a->store(first, count, t.p);
    });
  }
  std::optional<tack::device> device() const override { return a->device(); }
  void for_each_written(const std::function<void(const py_array&)>& f) const override {
    a->for_each_written(f);
  }
  void for_each_read(const std::function<void(const py_array&)>& f) const override {
    a->for_each_read(f);
  }
};

/// A vector of scalar arrays (`Components`): reads and writes each component's array.
struct components_node final : parts_node {
  // Components is an implicit array, not storage: it reads back with numpy() and reduces, but
  // takes no copyto, fill or atomics, and is not a tack.Array (tack.soa makes SoA storage).
  bool writable() const override { return false; }
  [[noreturn]] void refuse_store() const override {
    throw nb::type_error(("tack.copyto: " + name() +
                          " is an implicit array, not storage: it takes "
                          "no copyto or fill; store into its component arrays, or make stored "
                          "structure-of-arrays with tack.soa(x, y, ...)")
                             .c_str());
  }
  std::string name() const override {
    std::string s = "Components(";
    for (std::size_t i = 0; i < parts.size(); ++i) s += (i ? ", " : "") + parts[i]->name();
    return s + ")";
  }
  void eval(index_t first, index_t count, void* out) const override {
    tack::visit_scalar_kind(kind(), [&]<class S>() {
      const int c = components();
      scratch t(static_cast<std::size_t>(count) * sizeof(S));
      S* o = static_cast<S*>(out);
      for (int k = 0; k < c; ++k) {
        parts[static_cast<std::size_t>(k)]->eval(first, count, t.p);
        const S* p = t.as<S>();
        for (index_t i = 0; i < count; ++i) o[i * c + k] = p[i];
      }
    });
  }
};

/// Every combination of 2 or 3 coordinate arrays, x fastest (tack::arrays::cartesian_product's
/// order); the axes are read once, they are short.
struct cartesian_node final : node {
  std::vector<node_ptr> axes;
  std::vector<std::vector<unsigned char>> values;
  std::string name() const override {
    std::string s = "CartesianProduct(";
    for (std::size_t i = 0; i < axes.size(); ++i) s += (i ? ", " : "") + axes[i]->name();
    return s + ")";
  }
  void eval(index_t first, index_t count, void* out) const override {
    tack::visit_scalar_kind(kind(), [&]<class S>() {
      const int c = components();
      const index_t nx = axes[0]->n, ny = axes[1]->n;
      S* o = static_cast<S*>(out);
      for (index_t i = 0; i < count; ++i) {
        const index_t g = first + i;
        const index_t ix = g % nx, r = g / nx;
        o[i * c + 0] = reinterpret_cast<const S*>(values[0].data())[ix];
        o[i * c + 1] = reinterpret_cast<const S*>(values[1].data())[c == 2 ? r : r % ny];
        if (c == 3) o[i * c + 2] = reinterpret_cast<const S*>(values[2].data())[r / ny];
      }
    });
  }
};

/// The points of a uniform grid: origin + spacing * (i, j, k), x fastest.
struct uniform_coordinates_node final : node {
  std::array<index_t, 3> dims{1, 1, 1};
  std::array<double, 3> origin{}, spacing{1, 1, 1};
  std::string name() const override { return "UniformCoordinates(n=" + std::to_string(n) + ")"; }
  void eval(index_t first, index_t count, void* out) const override {
    tack::visit_scalar_kind(kind(), [&]<class S>() {
      const int c = components();
      S* o = static_cast<S*>(out);
      for (index_t i = 0; i < count; ++i) {
        const index_t g = first + i;
        const index_t idx[3] = {g % dims[0], (g / dims[0]) % dims[1], g / (dims[0] * dims[1])};
        // computed in S, as tack::arrays::uniform_coordinates<S> computes (bit for bit)
        for (int k = 0; k < c; ++k)
          o[i * c + k] = static_cast<S>(static_cast<S>(origin[static_cast<std::size_t>(k)]) +
                                        static_cast<S>(spacing[static_cast<std::size_t>(k)]) *
                                            static_cast<S>(idx[k]));
      }
    });
  }
};

// ---- the Python object --------------------------------------------------------------------------

node_ptr scalar_operand(nb::handle value, tack::scalar_kind k, const node& like) {
  auto c = std::make_shared<constant>();
  c->elem = tack::dtype(k);
  c->shape = like.shape;
  c->n = like.n;
  c->value.resize(c->elem.itemsize());
  tack::visit_scalar_kind(k, [&]<class S>() {
    const S v = to_scalar<S>(value, "tack.arrays");
    std::memcpy(c->value.data(), &v, sizeof(S));
  });
  return c;
}

bool is_python_number(nb::handle h) {
  return (PyFloat_Check(h.ptr()) || PyLong_Check(h.ptr()) || PyBool_Check(h.ptr())) ||
         (PyNumber_Check(h.ptr()) && !PySequence_Check(h.ptr()) && !nb::isinstance<py_array>(h) &&
          !nb::isinstance<py_lazy>(h) && !nb::hasattr(h, "__len__"));
}

}  // namespace

void require_same_shape(const node& a, const node& b, const char* op) {
  if (a.shape != b.shape) {
    throw nb::value_error((std::string(op) + ": the shapes differ: " + shape_string(a.shape) +
                           " (" + a.name() + ") and " + shape_string(b.shape) + " (" + b.name() +
                           ")")
                              .c_str());
  }
}

namespace {

nb::object binary(nb::handle x, nb::handle y, binop op, bool reflected) {
  const char* opname = "tack arithmetic";
  if (reflected) std::swap(x, y);
  const bool xs = is_python_number(x), ys = is_python_number(y);
  if (xs && ys) return nb::steal(Py_NewRef(Py_NotImplemented));
  if (!xs && !nb::isinstance<py_array>(x) && !nb::isinstance<py_lazy>(x))
    return nb::steal(Py_NewRef(Py_NotImplemented));
  if (!ys && !nb::isinstance<py_array>(y) && !nb::isinstance<py_lazy>(y))
    return nb::steal(Py_NewRef(Py_NotImplemented));
  node_ptr a = xs ? nullptr : as_node(x, opname);
  node_ptr b = ys ? nullptr : as_node(y, opname);
  tack::scalar_kind k;
  if (a && b) {
    k = tack::promote_kinds(a->kind(), b->kind());
    if (a->elem.components() != b->elem.components() && a->components() != 1 &&
        b->components() != 1) {
      throw nb::value_error((std::string(opname) + ": " + std::string(a->elem.name()) + " and " +
                             std::string(b->elem.name()) +
                             " elements do not combine elementwise (one must be scalar, or both "
                             "the same shape)")
                                .c_str());
    }
    require_same_shape(*a, *b, opname);
  } else {
    const node& arr = a ? *a : *b;
    // Python scalars are weak (NumPy 2): an integer array times a float scalar becomes f64.
    nb::handle s = a ? y : x;
    k = arr.kind();
    if (PyFloat_Check(s.ptr()) && !tack::is_floating_kind(k)) k = tack::scalar_kind::f64;
    if (a)
      b = scalar_operand(s, k, *a);
    else
      a = scalar_operand(s, k, *b);
  }
  if (op == binop::div && !tack::is_floating_kind(k)) k = tack::scalar_kind::f64;  // true division
  const tack::scalar_kind ak = arith_kind(k);
  a = cast_to(a, ak);
  b = cast_to(b, ak);
  auto out = std::make_shared<binary_node>();
  out->a = a;
  out->b = b;
  out->op = op;
  const node& wide = a->components() >= b->components() ? *a : *b;
  out->elem = with_kind(wide.elem, ak);
  out->shape = wide.shape;
  out->n = wide.n;
  return nb::cast(py_lazy{cast_to(out, k)});
}

nb::object unary(nb::handle x, unop op) {
  node_ptr a = as_node(x, "tack arithmetic");
  tack::scalar_kind k = a->kind();
  if (op != unop::neg && op != unop::abs && !tack::is_floating_kind(k)) k = tack::scalar_kind::f64;
  a = cast_to(a, arith_kind(k));
  auto out = std::make_shared<unary_node>();
  out->a = a;
  out->op = op;
  out->elem = a->elem;
  out->shape = a->shape;
  out->n = a->n;
  return nb::cast(py_lazy{cast_to(out, k)});
}

}  // namespace

node_ptr as_node(nb::handle h, const char* op) {
  if (nb::isinstance<py_lazy>(h)) return nb::cast<const py_lazy&>(h).n;
  if (nb::isinstance<py_array>(h)) return std::make_shared<leaf>(nb::cast<const py_array&>(h));
  if (nb::hasattr(h, "__dlpack__")) {  // NumPy arrays and other libraries' tensors
    return std::make_shared<leaf>(array_argument(h, op));
  }
  throw nb::type_error((std::string(op) +
                        ": expected a tack array, an implicit array or a NumPy "
                        "array, got " +
                        nb::cast<std::string>(nb::repr(h.type())))
                           .c_str());
}

namespace {

// ---- evaluation ---------------------------------------------------------------------------------

/// What the CPU backend runs for each block: one kernel type for every block body, so the backend
/// is instantiated once (a lambda per body made one instantiation per scalar kind and use, which
/// GCC optimized for minutes).
struct block_kernel {
  const std::function<void(index_t)>* body;
  void operator()(index_t b) const { (*body)(b); }
};

void run_blocks(index_t nblocks, const std::function<void(index_t)>& body) {
  tack::parallel_for(tack::cpu(), nblocks, block_kernel{&body});
}

/// Runs `body(first, count)` over the blocks of `n` elements, in parallel on the CPU. An exception
/// in any block is rethrown once every block is done.
template <class Body>
void for_blocks(index_t n, index_t block, Body&& body) {
  const index_t nblocks = (n + block - 1) / block;
  if (nblocks <= 1) {
    if (n > 0) body(0, n, 0);
    return;
  }
  std::exception_ptr failure;
  std::atomic<bool> failed{false};
  auto run = [&](index_t b) {
    if (failed.load(std::memory_order_relaxed)) return;
    try {
      const index_t first = b * block;
      body(first, std::min(block, n - first), b);
    } catch (...) {
      if (!failed.exchange(true)) failure = std::current_exception();
    }
  };
  run_blocks(nblocks, std::function<void(index_t)>(run));
  if (failure) std::rethrow_exception(failure);
}

void bump(const node& dst) {
  dst.for_each_written([](const py_array& a) {
    a.for_each_part([](const flat& f) { std::visit([](const auto& p) { p.bump_version(); }, f); });
  });
}

/// Whether an array `src` reads shares memory with `dst`.
bool reads_memory_of(const node& src, const py_array& dst) {
  bool overlaps = false;
  src.for_each_read([&](const py_array& r) { overlaps = overlaps || shares_memory(r, dst); });
  return overlaps;
}

/// Evaluates `src` into `dst` (a stored array), block by block.
void evaluate_into(const py_array& dst, node_ptr src, const char* op) {
  if (dst.read_only()) {
    raise(read_only_error_type,
          std::string(op) + ": " + dst.describe() + " is read-only; copy it first (a.copy())");
  }
  const std::vector<index_t> shape(dst.shape.begin(), dst.shape.begin() + dst.ndim);
  if (src->shape != shape && !(src->n == dst.size() && src->shape.size() == 1 && dst.ndim == 1)) {
    throw nb::value_error((std::string(op) + ": the shapes differ: " + dst.describe() + " and " +
                           src->name() + " of shape " + shape_string(src->shape))
                              .c_str());
  }
  if (src->elem.rows() != dst.elem.rows() || src->elem.cols() != dst.elem.cols() ||
      src->elem.is_matrix() != dst.elem.is_matrix()) {
    throw nb::value_error((std::string(op) + ": " + src->name() + " has " +
                           std::string(src->elem.name()) + " elements, " + dst.describe() +
                           " has other component dimensions")
                              .c_str());
  }
  // A destination that shares memory with what the expression reads gets the values as if they
  // were read first (NumPy's rule): evaluate into a new array, then copy.
  const bool overlaps = reads_memory_of(*src, dst);
  if (overlaps) {
    py_array tmp = make_root(src->elem, src->shape, tack::layout::aos, tack::cpu());
    evaluate_into(tmp, src, op);
    copy_values(dst, tmp, op);
    return;
  }
  src = cast_to(src, dst.elem.kind());
  leaf target(dst);
  const index_t block = block_elements(dst.components());
  nb::gil_scoped_release release;
  tack::visit_scalar_kind(dst.elem.kind(), [&]<class S>() {
    for_blocks(dst.size(), block, [&](index_t first, index_t count, index_t) {
      if (!dst.is_soa()) {
        S* out = part_as<S>(dst.data).data() + first * dst.components();
        src->eval(first, count, out);
      } else {
        scratch t(static_cast<std::size_t>(count) * dst.elem.itemsize());
        src->eval(first, count, t.p);
        target.store(first, count, t.p);
      }
    });
  });
  bump(target);
}

}  // namespace

/// Stores `src` into the writable implicit array `dst`.
void store_into(const node_ptr& dst, node_ptr src, const char* op) {
  if (!dst->writable()) dst->refuse_store();
  require_same_shape(*dst, *src, op);
  if (src->elem.components() != dst->elem.components()) {
    throw nb::value_error((std::string(op) + ": " + src->name() + " and " + dst->name() +
                           " differ in their components")
                              .c_str());
  }
  // Block by block, a store would overwrite what later blocks of `src` still read: when the
  // memory is shared, `src` is evaluated first (NumPy's rule, as for stored destinations).
  bool overlaps = false;
  dst->for_each_written(
      [&](const py_array& w) { overlaps = overlaps || reads_memory_of(*src, w); });
  if (overlaps) src = std::make_shared<leaf>(materialize(src));
  src = cast_to(src, dst->kind());
  const index_t block = block_elements(dst->components());
  {
    nb::gil_scoped_release release;
    // Stores through permutations may meet the same element in two blocks: run in order.
    const index_t n = dst->n;
    for (index_t first = 0; first < n; first += block) {
      const index_t count = std::min(block, n - first);
      scratch t(static_cast<std::size_t>(count) * dst->elem.itemsize());
      src->eval(first, count, t.p);
      dst->store(first, count, t.p);
    }
  }
  bump(*dst);
}

py_array materialize(const node_ptr& n) {
  py_array out = make_root(n->elem, n->shape, tack::layout::aos, tack::cpu());
  evaluate_into(out, n, "tack.arrays evaluation");
  return out;
}

namespace {

/// Block results combined in block order: the same result for every thread count.
template <class Acc, class S, class Leaf, class Combine>
Acc reduce_blocks(const node& a, Acc init, Leaf&& leaf_fn, Combine&& combine) {
  const index_t block = reduce_block_elements(a.components());
  const index_t nb_ = (a.n + block - 1) / block;
  std::vector<Acc> partial(static_cast<std::size_t>(nb_), init);
  {
    nb::gil_scoped_release release;
    for_blocks(a.n, block, [&](index_t first, index_t count, index_t b) {
      const index_t m = count * a.components();
      scratch t(static_cast<std::size_t>(count) * a.elem.itemsize());
      const S* p = static_cast<const S*>(a.direct(first));
      if (!p) {
        a.eval(first, count, t.p);
        p = t.as<S>();
      }
      partial[static_cast<std::size_t>(b)] = leaf_fn(p, m);
    });
  }
  // Pairwise over the blocks.
  while (partial.size() > 1) {
    std::vector<Acc> next;
    for (std::size_t i = 0; i + 1 < partial.size(); i += 2)
      next.push_back(combine(partial[i], partial[i + 1]));
    if (partial.size() % 2) next.push_back(partial.back());
    partial.swap(next);
  }
  return partial.empty() ? init : partial[0];
}

}  // namespace

bool copy_lazy_into(const py_array& dst, nb::handle src) {
  if (!nb::isinstance<py_lazy>(src)) return false;
  evaluate_into(dst, nb::cast<const py_lazy&>(src).n, "tack.copyto");
  return true;
}

// ---- node constructors (lazy.hpp) -------------------------------------------------------------

node_ptr make_constant(const tack::dtype& elem, const std::vector<index_t>& shape,
                       nb::handle value) {
  auto c = std::make_shared<constant>();
  c->elem = elem;
  c->shape = shape;
  c->n = std::accumulate(shape.begin(), shape.end(), index_t{1}, std::multiplies<>());
  // The value converts as a fill of a stored element does.
  nb::object tmp = nb::cast(make_root(elem, {1}, tack::layout::aos, tack::cpu()));
  tmp.attr("fill")(value);
  const py_array& t = nb::cast<const py_array&>(tmp);
  c->value.resize(elem.itemsize());
  tack::visit_scalar_kind(elem.kind(), [&]<class S>() {
    std::memcpy(c->value.data(), part_as<S>(t.data).data(), elem.itemsize());
  });
  return c;
}

node_ptr make_permutation(const node_ptr& indices, const node_ptr& values) {
  auto p = std::make_shared<permutation_node>();
  p->indices = indices;
  p->values = values;
  p->elem = values->elem;
  p->n = indices->n;
  p->shape = {indices->n};
  return p;
}

node_ptr make_strided(const node_ptr& a, index_t offset, index_t step, index_t n, bool is_view) {
  auto v = std::make_shared<strided_node>();
  v->a = a;
  v->offset = offset;
  v->step = step;
  v->is_view = is_view;
  v->elem = a->elem;
  v->n = n;
  v->shape = {n};
  return v;
}

node_ptr make_concatenate(const std::vector<node_ptr>& parts) {
  auto c = std::make_shared<concatenate_node>();
  index_t total = 0;
  for (const node_ptr& p : parts) {
    c->starts.push_back(total);
    total += p->n;
    c->parts.push_back(p);
  }
  c->elem = parts.at(0)->elem;
  c->n = total;
  c->shape = {total};
  return c;
}

node_ptr make_component(const node_ptr& a, int c) {
  auto v = std::make_shared<component_node>();
  v->a = a;
  v->c = c;
  v->elem = a->elem.scalar();
  v->n = a->n;
  v->shape = a->shape;
  return v;
}

node_ptr make_components(const std::vector<node_ptr>& parts) {
  auto v = std::make_shared<components_node>();
  v->parts = parts;
  v->elem = tack::dtype::vector(parts.at(0)->kind(), static_cast<int>(parts.size()));
  v->n = parts[0]->n;
  v->shape = parts[0]->shape;
  return v;
}

node_ptr make_cartesian_product(const std::vector<node_ptr>& axes) {
  auto v = std::make_shared<cartesian_node>();
  index_t n = 1;
  for (const node_ptr& p : axes) {
    std::vector<unsigned char> vals(static_cast<std::size_t>(p->n) * p->elem.itemsize());
    if (p->n) p->eval(0, p->n, vals.data());
    v->values.push_back(std::move(vals));
    v->axes.push_back(p);
    n *= p->n;
  }
  v->elem = tack::dtype::vector(axes.at(0)->kind(), static_cast<int>(axes.size()));
  v->n = n;
  v->shape = {n};
  return v;
}

node_ptr make_uniform_coordinates(const std::vector<index_t>& dims,
                                  const std::vector<double>& origin,
                                  const std::vector<double>& spacing, tack::scalar_kind k) {
  auto v = std::make_shared<uniform_coordinates_node>();
  index_t n = 1;
  const std::size_t r = dims.size();
  for (std::size_t d = 0; d < r; ++d) {
    v->dims[d] = dims[d];
    v->origin[d] = origin[d];
    v->spacing[d] = spacing[d];
    n *= dims[d];
  }
  v->elem = r == 1 ? tack::dtype(k) : tack::dtype::vector(k, static_cast<int>(r));
  v->n = n;
  v->shape = {n};
  return v;
}

bool is_lazy(nb::handle h) { return nb::isinstance<py_lazy>(h); }

py_array materialize_lazy(nb::handle lazy) { return materialize(nb::cast<const py_lazy&>(lazy).n); }

void store_lazy(nb::handle dst, nb::handle src) {
  node_ptr d = nb::cast<const py_lazy&>(dst).n;
  node_ptr s;
  if (is_python_number(src)) {
    s = scalar_operand(src, d->kind(), *d);
  } else if (nb::isinstance<py_array>(src) || nb::isinstance<py_lazy>(src) || d->elem.is_scalar()) {
    s = as_node(src, "tack.copyto");
  } else {
    // NumPy values for vector or matrix elements: the trailing axes are the components.
    py_array p = array_argument(src, "tack.copyto");
    const int k = d->elem.component_rank();
    const bool ok =
        p.ndim > k &&
        (d->elem.is_vector() ? p.shape[static_cast<std::size_t>(p.ndim - 1)] == d->elem.rows()
                             : p.shape[static_cast<std::size_t>(p.ndim - 2)] == d->elem.rows() &&
                                   p.shape[static_cast<std::size_t>(p.ndim - 1)] == d->elem.cols());
    if (!ok) {
      throw nb::value_error(("tack.copyto: the values (" + p.describe() +
                             ") do not end in the component axes of " +
                             std::string(d->elem.name()) + " (" + d->name() + ")")
                                .c_str());
    }
    p.elem = with_kind(d->elem, p.elem.kind());
    p.ndim -= k;
    s = std::make_shared<leaf>(p);
  }
  store_into(d, s, "tack.copyto");
}

nb::object lazy_binary(nb::handle x, nb::handle y, int op, bool reflected) {
  return binary(x, y, static_cast<binop>(op), reflected);
}
nb::object lazy_unary(nb::handle x, int op) { return unary(x, static_cast<unop>(op)); }

/// Sum, min, max of an implicit array (components in storage order).
nb::object reduce_lazy(nb::handle h, const std::string& what) {
  const node_ptr a = nb::cast<const py_lazy&>(h).n;
  if (a->n == 0 && what != "sum") {
    throw nb::value_error(
        ("tack." + what + ": " + a->name() + " is empty and has no " + what).c_str());
  }
  return tack::visit_scalar_kind(a->kind(), [&]<class S>() -> nb::object {
    if (what == "sum") {
      using Acc =
          std::conditional_t<std::is_floating_point_v<S>, S,
                             std::conditional_t<std::is_unsigned_v<S> && !std::is_same_v<S, bool>,
                                                std::uint64_t, std::int64_t>>;
      Acc r = reduce_blocks<Acc, S>(
          *a, Acc(0),
          [](const S* p, index_t m) {
            Acc acc[8] = {};
            index_t j = 0;
            for (; j + 8 <= m; j += 8) {
              for (int k = 0; k < 8; ++k) acc[k] += static_cast<Acc>(p[j + k]);
            }
            for (; j < m; ++j) acc[0] += static_cast<Acc>(p[j]);
            return ((acc[0] + acc[1]) + (acc[2] + acc[3])) +
                   ((acc[4] + acc[5]) + (acc[6] + acc[7]));
          },
          [](Acc x, Acc y) { return static_cast<Acc>(x + y); });
      return nb::cast(r);
    }
    const bool is_min = what == "min";
    S r = reduce_blocks<S, S>(
        *a, S{},
        [&](const S* p, index_t m) {
          S best = p[0];
          for (index_t j = 1; j < m; ++j) {
            best = is_min ? apply<binop::minimum>(best, p[j]) : apply<binop::maximum>(best, p[j]);
          }
          return best;
        },
        [&](S x, S y) {
          return is_min ? apply<binop::minimum>(x, y) : apply<binop::maximum>(x, y);
        });
    return nb::cast(r);
  });
}

/// The number of scalar components of an implicit array.
index_t lazy_components(nb::handle h) {
  const node_ptr& a = nb::cast<const py_lazy&>(h).n;
  return a->n * a->components();
}

void bind_lazy(nb::module_& m) {
  // Arithmetic on arrays and implicit arrays (`+ - * /`, unary `-`, the math functions) builds
  // implicit arrays, evaluated lazily: `copyto(out, a + 2 * b)` is one pass, with no temporary.
  m.def("_binary", &lazy_binary);
  m.def("_unary", &lazy_unary);
  m.def("_reduce_lazy", &reduce_lazy);
}

}  // namespace tackpy
