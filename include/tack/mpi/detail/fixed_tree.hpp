// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
#pragma once
/// @file The fixed binary tree of tack's deterministic global sums (`tack::mpi::sum`, `dot`,
/// `mean` of floating-point values), without MPI: the library's `ordered_sum` (src/mpi) and the
/// Python package's `tack.mpi` both compute with these functions, and only move `node_range`s
/// between ranks their own way.
///
/// The global scalar index space [0, total) is summed in one fixed tree: the node at level l
/// covering [k 2^l, (k+1) 2^l) is the sum of its two children, and a leaf is one value. A rank
/// owning [first, first + count) computes the maximal aligned nodes inside its range
/// (`local_nodes`: the same values any other partition computes for those nodes); joining the
/// ranks' ranges in rank order and adding sibling nodes (`join`) leaves the maximal nodes of
/// [0, total), added from left to right (`finish`). No step depends on how the range was split,
/// so the result is bit-identical for every number of ranks and every partition. A translation
/// unit that instantiates `local_nodes` is compiled with -ffp-contract=off: a fused
/// multiply-add in one program and not in another would break that.
///
/// `auto mine = local_nodes<double>(x, nullptr, first, n, what); join(lower, mine);`

#include <tack/core/error.hpp>
#include <tack/core/index.hpp>
#include <tack/core/macros.hpp>
#include <tack/exec/parallel_for.hpp>
#include <tack/memory/device.hpp>

#include <bit>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

namespace tack::mpi::detail {

/// Nodes at this level and below are summed by one task of the local kernel (4096 values).
inline constexpr int tree_leaf_level = 12;
/// A range's maximal nodes: at most two per level below 64.
inline constexpr int tree_max_nodes = 128;

/// The maximal tree nodes of a range of the global index space, as they travel between ranks
/// (one block of contiguous bytes).
struct node_range {
  std::int64_t first;  ///< the range [first, end); first == end: empty
  std::int64_t end;
  std::int32_t count;     ///< nodes in `levels` and `values`
  std::int32_t is_float;  ///< node sums in float (else double) arithmetic
  std::int32_t broken;    ///< ranges were not contiguous in rank order
  std::int32_t pad;
  std::int8_t levels[tree_max_nodes];
  double values[tree_max_nodes];
};

/// The largest aligned level at `pos` whose node ends at or before `end`.
inline int tree_node_level(std::int64_t pos, std::int64_t end) {
  int l = pos == 0 ? 62 : std::countr_zero(static_cast<std::uint64_t>(pos));
  while (l > 0 && (pos + (std::int64_t{1} << l) > end)) --l;
  return l;
}

template <class R, class S>
struct tree_reader {
  const S* a;
  const S* b;  // null: a sum; else a dot product
  TACK_INLINE R operator()(index_t i) const {
    if (b) return static_cast<R>(a[i]) * static_cast<R>(b[i]);
    return static_cast<R>(a[i]);
  }
};

/// The node of `2^level` values starting at local index `start`, by the fixed tree: groups of
/// eight as ((x0 + x1) + (x2 + x3)) + ((x4 + x5) + (x6 + x7)), then a binary counter that adds
/// each pair of equal-level partial sums as soon as both exist (the same tree, level by level).
template <class R, class Get>
TACK_INLINE R tree_node_sum(const Get& get, index_t start, int level) {
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

struct tree_task {
  index_t start;  // local index
  int level;
};

template <class R, class S>
struct tree_task_kernel {
  tree_reader<R, S> get;
  const tree_task* tasks;
  R* out;
  TACK_INLINE void operator()(index_t t) const {
    out[t] = tree_node_sum<R>(get, tasks[t].start, tasks[t].level);
  }
};

/// The maximal nodes of the values `a[0, count)` (or products `a[i] * b[i]`, `b` non-null),
/// which sit at `[first, first + count)` of the global index space, summed in `R` (float or
/// double) on tack's CPU threads.
template <class R, class S>
node_range local_nodes(const S* a, const S* b, index_t first, index_t count, const char* what) {
  static_assert(std::is_same_v<R, float> || std::is_same_v<R, double>);
  // This range's maximal nodes; those above the leaf level are split into leaf tasks.
  std::vector<tree_task> tasks;
  struct node {
    int level;
    std::size_t first_task;
  };
  std::vector<node> nodes;
  for (std::int64_t pos = first; pos < first + count;) {
    const int l = tree_node_level(pos, first + count);
    nodes.push_back({l, tasks.size()});
    if (l <= tree_leaf_level) {
      tasks.push_back({pos - first, l});
    } else {
      const std::int64_t blocks = std::int64_t{1} << (l - tree_leaf_level);
      for (std::int64_t k = 0; k < blocks; ++k) {
        tasks.push_back({pos - first + (k << tree_leaf_level), tree_leaf_level});
      }
    }
    pos += std::int64_t{1} << l;
  }
  if (nodes.size() > static_cast<std::size_t>(tree_max_nodes)) {
    throw value_error(std::string(what) + ": too many nodes");  // cannot happen below 2^63 values
  }
  std::vector<R> sums(tasks.size());
  if (!tasks.empty()) {
    tack::parallel_for(tack::cpu(), static_cast<index_t>(tasks.size()),
                       tree_task_kernel<R, S>{{a, b}, tasks.data(), sums.data()});
  }
  node_range w{};
  w.first = first;
  w.end = first + count;
  w.is_float = std::is_same_v<R, float> ? 1 : 0;
  for (std::size_t n = 0; n < nodes.size(); ++n) {
    const int l = nodes[n].level;
    R v;
    if (l <= tree_leaf_level) {
      v = sums[nodes[n].first_task];
    } else {
      // The leaf sums of this node, added pairwise level by level (the same tree above them).
      std::size_t m = std::size_t{1} << (l - tree_leaf_level);
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
  return w;
}

template <class R>
double tree_add(double a, double b) {
  return static_cast<double>(static_cast<R>(static_cast<R>(a) + static_cast<R>(b)));
}

/// Adds adjacent siblings until none are left: the maximal nodes of the covered range.
template <class R>
void normalize(node_range& w) {
  std::int64_t starts[tree_max_nodes];
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
        w.values[i] = tree_add<R>(w.values[i], w.values[i + 1]);
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

/// `higher` becomes `lower` (the lower ranks' range) joined with `higher` (the next ranks'),
/// sibling nodes added; a gap or an overlap marks it broken.
inline void join(const node_range& lower, node_range& higher) {
  const node_range& a = lower;
  node_range& b = higher;
  b.broken |= a.broken;
  if (a.first == a.end) return;
  if (b.first == b.end) {
    const std::int32_t broken = b.broken;
    b = a;
    b.broken = broken;
    return;
  }
  if (a.end != b.first || a.count + b.count > tree_max_nodes) {
    b.broken = 1;
    return;
  }
  node_range j = a;
  j.broken = b.broken;
  j.end = b.end;
  for (int i = 0; i < b.count; ++i) {
    j.levels[j.count + i] = b.levels[i];
    j.values[j.count + i] = b.values[i];
  }
  j.count += b.count;
  if (j.is_float) {
    normalize<float>(j);
  } else {
    normalize<double>(j);
  }
  b = j;
}

/// The sum of every rank's range joined (`all`): its maximal nodes added from left to right.
/// A join that does not tile `[0, total)` in rank order is a `value_error` naming `what`.
template <class R>
R finish(node_range all, index_t total, const char* what) {
  if (total == 0) return R{};
  if (all.broken || all.first != 0 || all.end != total) {
    throw value_error(std::string(what) + ": the ranks' ranges do not tile [0, " +
                      std::to_string(total) + ") in rank order (joined: [" +
                      std::to_string(all.first) + ", " + std::to_string(all.end) + ")" +
                      (all.broken ? ", with gaps or overlaps" : "") + ")");
  }
  normalize<R>(all);
  R result = static_cast<R>(all.values[0]);
  for (int i = 1; i < all.count; ++i) result = result + static_cast<R>(all.values[i]);
  return result;
}

}  // namespace tack::mpi::detail
