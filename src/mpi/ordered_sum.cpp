// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
// The deterministic global sum (tack::mpi::sum, dot, mean of floating-point values).
//
// The global scalar index space [0, total) is summed in one fixed binary tree: the node at level
// l covering [k 2^l, (k+1) 2^l) is the sum of its two children, and a leaf is one value. A rank
// owning [first, first + count) computes the maximal aligned nodes inside its range (the same
// values any other partition would compute for those nodes), and MPI_Allreduce, with an operation
// that joins adjacent ranges and adds sibling nodes, leaves every rank the maximal nodes of
// [0, total), which it adds from left to right. No step depends on how the range was split, so the
// result is bit-identical for every number of ranks and every partition. This file is compiled
// with -ffp-contract=off: a fused multiply-add in one path and not in another would break that.

#include "state.hpp"

#include <tack/exec/parallel_for.hpp>
#include <tack/memory/device.hpp>
#include <tack/mpi/detail/transport.hpp>

#include <mpi.h>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <string>
#include <vector>

namespace tack::mpi::detail {
namespace {

// Nodes at this level and below are summed by one task of the local kernel (4096 values).
constexpr int leaf_level = 12;
constexpr int max_nodes = 128;  // a range's maximal nodes: at most two per level below 64

template <class R, class S>
struct reader {
  const S* a;
  const S* b;  // null: a sum; else a dot product
  TACK_INLINE R operator()(index_t i) const {
    if (b) return static_cast<R>(a[i]) * static_cast<R>(b[i]);
    return static_cast<R>(a[i]);
  }
};

// The node of `2^level` values starting at local index `start`, by the fixed tree: groups of
// eight as ((x0 + x1) + (x2 + x3)) + ((x4 + x5) + (x6 + x7)), then a binary counter that adds
// each pair of equal-level partial sums as soon as both exist (the same tree, level by level).
template <class R, class Get>
TACK_INLINE R pairwise(const Get& get, index_t start, int level) {
  if (level == 0) return get(start);
  if (level == 1) return get(start) + get(start + 1);
  if (level == 2) return (get(start) + get(start + 1)) + (get(start + 2) + get(start + 3));
  R stack[64];
  int levels[64];
  int top = 0;
  const index_t groups = index_t{1} << (level - 3);
  for (index_t g = 0; g < groups; ++g) {
    const index_t s = start + 8 * g;
    R v = ((get(s) + get(s + 1)) + (get(s + 2) + get(s + 3))) +
          ((get(s + 4) + get(s + 5)) + (get(s + 6) + get(s + 7)));
    int lv = 3;
    while (top > 0 && levels[top - 1] == lv) {
      v = stack[--top] + v;
      ++lv;
    }
    stack[top] = v;
    levels[top++] = lv;
  }
  return stack[0];
}

struct task {
  index_t start;  // local index
  int level;
};

template <class R, class S>
struct task_kernel {
  reader<R, S> get;
  const task* tasks;
  R* out;
  TACK_INLINE void operator()(index_t t) const {
    out[t] = pairwise<R>(get, tasks[t].start, tasks[t].level);
  }
};

// The wire format of a rank range's maximal nodes (one MPI element of contiguous bytes).
struct wire {
  std::int64_t first;  // the range [first, end); first == end: empty
  std::int64_t end;
  std::int32_t count;
  std::int32_t is_float;  // node sums in float (else double) arithmetic
  std::int32_t broken;    // ranges were not contiguous in rank order
  std::int32_t pad;
  std::int8_t levels[max_nodes];
  double values[max_nodes];
};

// The largest aligned level at `pos` whose node ends at or before `end`.
int node_level(std::int64_t pos, std::int64_t end) {
  int l = pos == 0 ? 62 : std::countr_zero(static_cast<std::uint64_t>(pos));
  while (l > 0 && (pos + (std::int64_t{1} << l) > end)) --l;
  return l;
}

template <class R>
double add(double a, double b) {
  return static_cast<double>(static_cast<R>(static_cast<R>(a) + static_cast<R>(b)));
}

// Adds adjacent siblings until none are left: the maximal nodes of the covered range.
template <class R>
void normalize(wire& w) {
  std::int64_t starts[max_nodes];
  std::int64_t pos = w.first;
  for (int i = 0; i < w.count; ++i) {
    starts[i] = pos;
    pos += std::int64_t{1} << w.levels[i];
  }
  bool changed = true;
  while (changed) {
    changed = false;
    for (int i = 0; i + 1 < w.count; ++i) {
      const int l = w.levels[i];
      if (w.levels[i + 1] == l && starts[i] % (std::int64_t{1} << (l + 1)) == 0) {
        w.values[i] = add<R>(w.values[i], w.values[i + 1]);
        w.levels[i] = static_cast<std::int8_t>(l + 1);
        for (int j = i + 1; j + 1 < w.count; ++j) {
          w.levels[j] = w.levels[j + 1];
          w.values[j] = w.values[j + 1];
          starts[j] = starts[j + 1];
        }
        --w.count;
        changed = true;
      }
    }
  }
}

// The MPI operation: inout = in (the lower ranks' range) joined with inout (the higher ranks').
void join(void* invec, void* inoutvec, int* len, MPI_Datatype*) {
  auto* in = static_cast<const wire*>(invec);
  auto* io = static_cast<wire*>(inoutvec);
  for (int e = 0; e < *len; ++e) {
    const wire& a = in[e];
    wire& b = io[e];
    b.broken |= a.broken;
    if (a.first == a.end) continue;
    if (b.first == b.end) {
      const std::int32_t broken = b.broken;
      b = a;
      b.broken = broken;
      continue;
    }
    if (a.end != b.first || a.count + b.count > max_nodes) {
      b.broken = 1;
      continue;
    }
    wire j = a;
    j.broken = b.broken;
    j.end = b.end;
    for (int i = 0; i < b.count; ++i) {
      j.levels[j.count + i] = b.levels[i];
      j.values[j.count + i] = b.values[i];
    }
    j.count += b.count;
    if (j.is_float)
      normalize<float>(j);
    else
      normalize<double>(j);
    b = j;
  }
}

struct mpi_objects {
  MPI_Datatype type = MPI_DATATYPE_NULL;
  MPI_Op op = MPI_OP_NULL;
  mpi_objects() {
    check(MPI_Type_contiguous(static_cast<int>(sizeof(wire)), MPI_BYTE, &type), "tack::mpi::sum",
          "MPI_Type_contiguous");
    check(MPI_Type_commit(&type), "tack::mpi::sum", "MPI_Type_commit");
    check(MPI_Op_create(&join, 0, &op), "tack::mpi::sum", "MPI_Op_create");
  }
};

const mpi_objects& objects() {
  static const mpi_objects o;
  return o;
}

}  // namespace

template <class R, class S>
R ordered_sum(const communicator& c, const S* a, const S* b, index_t first, index_t count,
              index_t total, const char* what) {
  static_assert(std::is_same_v<R, float> || std::is_same_v<R, double>);
  MPI_Comm comm = comm_of(c, what);
  if (first < 0 || count < 0 || first + count > total) {
    throw value_error(std::string(what) + ": values [" + std::to_string(first) + ", " +
                      std::to_string(first + count) + ") lie outside the global range [0, " +
                      std::to_string(total) + ")");
  }
  // This rank's maximal nodes; those above the leaf level are split into leaf tasks.
  std::vector<task> tasks;
  struct node {
    int level;
    std::size_t first_task;
  };
  std::vector<node> nodes;
  for (std::int64_t pos = first; pos < first + count;) {
    const int l = node_level(pos, first + count);
    nodes.push_back({l, tasks.size()});
    if (l <= leaf_level) {
      tasks.push_back({pos - first, l});
    } else {
      const std::int64_t blocks = std::int64_t{1} << (l - leaf_level);
      for (std::int64_t k = 0; k < blocks; ++k) {
        tasks.push_back({pos - first + (k << leaf_level), leaf_level});
      }
    }
    pos += std::int64_t{1} << l;
  }
  std::vector<R> sums(tasks.size());
  if (!tasks.empty()) {
    tack::parallel_for(tack::cpu(), static_cast<index_t>(tasks.size()),
                       task_kernel<R, S>{{a, b}, tasks.data(), sums.data()});
  }
  wire w{};
  w.first = first;
  w.end = first + count;
  w.is_float = std::is_same_v<R, float> ? 1 : 0;
  if (nodes.size() > static_cast<std::size_t>(max_nodes)) {
    throw value_error(std::string(what) + ": too many nodes");  // cannot happen below 2^63 values
  }
  for (std::size_t n = 0; n < nodes.size(); ++n) {
    const int l = nodes[n].level;
    R v;
    if (l <= leaf_level) {
      v = sums[nodes[n].first_task];
    } else {
      // The leaf sums of this node, added pairwise level by level (the same tree above them).
      std::size_t m = std::size_t{1} << (l - leaf_level);
      R* s = sums.data() + nodes[n].first_task;
      while (m > 1) {
        for (std::size_t i = 0; i < m / 2; ++i) s[i] = s[2 * i] + s[2 * i + 1];
        m /= 2;
      }
      v = s[0];
    }
    w.levels[n] = static_cast<std::int8_t>(l);
    w.values[n] = static_cast<double>(v);
  }
  w.count = static_cast<std::int32_t>(nodes.size());
  if (count == 0) w.first = w.end = 0;

  wire out{};
  const auto& o = objects();
  check(MPI_Allreduce(&w, &out, 1, o.type, o.op, comm), what, "MPI_Allreduce");
  if (total == 0) return R{};
  if (out.broken || out.first != 0 || out.end != total) {
    throw value_error(std::string(what) + ": the ranks' ranges do not tile [0, " +
                      std::to_string(total) + ") in rank order (joined: [" +
                      std::to_string(out.first) + ", " + std::to_string(out.end) + ")" +
                      (out.broken ? ", with gaps or overlaps" : "") + ")");
  }
  normalize<R>(out);
  R result = static_cast<R>(out.values[0]);
  for (int i = 1; i < out.count; ++i) result = result + static_cast<R>(out.values[i]);
  return result;
}

#define TACK_IMPL_ORDERED_SUM(R, S)                                                                \
  template R ordered_sum<R, S>(const communicator&, const S*, const S*, index_t, index_t, index_t, \
                               const char*);
TACK_IMPL_ORDERED_SUM(float, float)
TACK_IMPL_ORDERED_SUM(double, double)
TACK_IMPL_ORDERED_SUM(double, float)
TACK_IMPL_ORDERED_SUM(double, std::int8_t)
TACK_IMPL_ORDERED_SUM(double, std::int16_t)
TACK_IMPL_ORDERED_SUM(double, std::int32_t)
TACK_IMPL_ORDERED_SUM(double, std::int64_t)
TACK_IMPL_ORDERED_SUM(double, std::uint8_t)
TACK_IMPL_ORDERED_SUM(double, std::uint16_t)
TACK_IMPL_ORDERED_SUM(double, std::uint32_t)
TACK_IMPL_ORDERED_SUM(double, std::uint64_t)
TACK_IMPL_ORDERED_SUM(double, bool)
#undef TACK_IMPL_ORDERED_SUM

}  // namespace tack::mpi::detail
