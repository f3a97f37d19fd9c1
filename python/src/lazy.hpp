// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
#pragma once
/// @file The node interface of the run-time compositions of `tack.arrays` (`CountingArray`,
/// `Permutation`, `a + 2.0 * b`, ...): what lazy.cpp (the evaluator: the node types, block
/// evaluation, arithmetic, reductions) and arrays.cpp (the binding of `tack.arrays`) share.
///
/// In C++ a composition is a type and inlines into the kernel. From Python the composition is
/// known only at run time, so each node evaluates a *block* of elements (a few hundred, about
/// 4 KiB) into a scratch buffer, as numexpr does: one virtual call per node and block, never
/// one per element, and never a full-size temporary per operator.
///
/// `node_ptr p = make_permutation(as_node(order, op), as_node(values, op));`

#include "common.hpp"

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tackpy {

/// One node of a composition: its element type, shape, and how to read (and store) blocks.
struct node {
  tack::dtype elem;
  std::vector<index_t> shape;
  index_t n = 0;  ///< elements

  virtual ~node() = default;
  int components() const { return elem.components(); }
  tack::scalar_kind kind() const { return elem.kind(); }
  /// "CountingArray(n=10, ...)".
  virtual std::string name() const = 0;
  /// Elements [first, first + count) as count * components() scalars of kind() into `out`.
  virtual void eval(index_t first, index_t count, void* out) const = 0;
  /// Elements idx[0..count) (any indices < n).
  virtual void gather(const index_t* idx, index_t count, void* out) const {
    const std::size_t w = elem.itemsize();
    for (index_t k = 0; k < count; ++k) eval(idx[k], 1, static_cast<unsigned char*>(out) + k * w);
  }
  /// The components of element `first` where they are stored contiguously (a stored array), else null.
  virtual const void* direct(index_t) const { return nullptr; }
  /// A value that every element has (a Python scalar operand): its components, else null.
  virtual const void* uniform() const { return nullptr; }
  /// Whether stores reach stored arrays.
  virtual bool writable() const { return false; }
  /// Stores count elements at [first, first + count).
  virtual void store(index_t, index_t, const void*) const { refuse_store(); }
  /// Stores elements at idx[0..count).
  virtual void scatter(const index_t* idx, index_t count, const void* in) const {
    const std::size_t w = elem.itemsize();
    for (index_t k = 0; k < count; ++k)
      store(idx[k], 1, static_cast<const unsigned char*>(in) + k * w);
  }
  /// The device of the stored arrays read, if any.
  virtual std::optional<tack::device> device() const { return std::nullopt; }
  /// Calls f with every stored array written by stores (their versions are bumped once per copy).
  virtual void for_each_written(const std::function<void(const py_array&)>&) const {}
  /// Calls f with every stored array read.
  virtual void for_each_read(const std::function<void(const py_array&)>&) const {}
  [[noreturn]] virtual void refuse_store() const {
    throw nb::type_error(("tack.copyto: " + name() +
                          " computes its values and cannot be stored "
                          "into; store into a tack.Array, or into View, Strided, Permutation, "
                          "Concatenate or ExtractComponent of stored arrays")
                             .c_str());
  }
};

using node_ptr = std::shared_ptr<const node>;

/// `tack.arrays.ImplicitArray`: a node, shared by every Python object that holds it.
struct py_lazy {
  node_ptr n;
};

/// Values computed from the index by a C++ implicit array of scalar type S.
template <class S, class A>
struct computed final : node {
  A array;
  std::string label;
  explicit computed(A a, std::string l) : array(std::move(a)), label(std::move(l)) {}
  std::string name() const override { return label; }
  void eval(index_t first, index_t count, void* out) const override {
    S* o = static_cast<S*>(out);
    for (index_t i = 0; i < count; ++i) o[i] = static_cast<S>(array[first + i]);
  }
  void gather(const index_t* idx, index_t count, void* out) const override {
    S* o = static_cast<S*>(out);
    for (index_t i = 0; i < count; ++i) o[i] = static_cast<S>(array[idx[i]]);
  }
};

/// The node of a C++ implicit array `a` of `n` values of scalar type `S` (named `label`).
/// `make_computed<float>(tack::arrays::counting<float>(n), n, "CountingArray(n=4)")`
template <class S, class A>
node_ptr make_computed(A a, index_t n, std::string label) {
  auto p = std::make_shared<computed<S, A>>(std::move(a), std::move(label));
  p->elem = tack::dtype_of<S>();
  p->n = n;
  p->shape = {n};
  return p;
}

// ---- what the evaluator provides ------------------------------------------------------------------

/// `h` as a node: an implicit array's own, a leaf over a stored array (NumPy arrays and other
/// DLPack tensors are imported through `tack.asarray`'s conversion); a `TypeError` naming `op`.
node_ptr as_node(nb::handle h, const char* op);
/// The values of `n` in a new stored array (one parallel pass).
py_array materialize(const node_ptr& n);
/// Stores the values of `src` into the writable composition `dst` (`tack.copyto`).
void store_into(const node_ptr& dst, node_ptr src, const char* op);
/// `a` with its components converted to kind `k` (as `astype`).
node_ptr cast_to(const node_ptr& a, tack::scalar_kind k);
/// A `ValueError` naming `op` and both nodes when their shapes differ.
void require_same_shape(const node& a, const node& b, const char* op);

/// Elements of `elem` in `shape`, each equal to `value` (a number, or a sequence of components), as a fill
/// converts it.
node_ptr make_constant(const tack::dtype& elem, const std::vector<index_t>& shape,
                       nb::handle value);
/// Element `i` is `values[indices[i]]` (integer indices); stores scatter.
node_ptr make_permutation(const node_ptr& indices, const node_ptr& values);
/// Element `i` is `a[offset + i * step]`, `n` of them (`is_view`: `View`, step 1).
node_ptr make_strided(const node_ptr& a, index_t offset, index_t step, index_t n, bool is_view);
/// The parts one after another (same element type).
node_ptr make_concatenate(const std::vector<node_ptr>& parts);
/// Component `c` of each element of `a`.
node_ptr make_component(const node_ptr& a, int c);
/// Vectors whose components are the scalar arrays `parts` (2 to 4, same kind and shape).
node_ptr make_components(const std::vector<node_ptr>& parts);
/// The points of the Cartesian product of 2 or 3 coordinate arrays (the last axis fastest).
node_ptr make_cartesian_product(const std::vector<node_ptr>& axes);
/// The points of a uniform grid of `dims` points (1 to 3 axes) in kind `k`.
node_ptr make_uniform_coordinates(const std::vector<index_t>& dims,
                                  const std::vector<double>& origin,
                                  const std::vector<double>& spacing, tack::scalar_kind k);

}  // namespace tackpy
