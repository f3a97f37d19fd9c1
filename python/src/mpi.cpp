// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
/// @file `tack._core._mpi`: the parts of `tack::mpi` that need no MPI, for the Python package's
/// `tack.mpi` (which moves data with mpi4py): `tack::mpi::partition`, and the fixed tree of the
/// deterministic global sums (tack/mpi/detail/fixed_tree.hpp), so that `tack.mpi.sum` computes
/// with the C++ library's code and equals `tack::mpi::sum` bit for bit. Compiled with
/// -ffp-contract=off, as that header requires.

#include "common.hpp"

#include <tack/interop/dlpack.hpp>
#include <tack/mpi/detail/fixed_tree.hpp>
#include <tack/mpi/partition.hpp>

#include <nanobind/ndarray.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <cstring>
#include <optional>
#include <string>
#include <vector>

namespace tackpy {
namespace {

using namespace nb::literals;
namespace tm = tack::mpi;
namespace tmd = tack::mpi::detail;

using host_values = nb::ndarray<nb::ro, nb::c_contig, nb::device::cpu>;

/// The scalar kind of a NumPy array's dtype (`TypeError` naming `what` for any other).
tack::scalar_kind kind_of(const host_values& a, const std::string& what) {
  const auto dt = a.dtype();
  std::optional<tack::scalar_kind> kind;
  tack::detail::dlpack_with_scalar_type(tack::dlpack::DLDataType{dt.code, dt.bits, dt.lanes},
                                        [&]<class S>() { kind = tack::scalar_kind_of_v<S>; });
  if (!kind) {
    throw nb::type_error((what + ": the values are not of a tack scalar type").c_str());
  }
  return *kind;
}

/// This rank's nodes of the fixed tree over `a` (or the products `a[i] * b[i]`), which sit at
/// `[first, first + len(a))` of the global index space, summed in f32 (`in_float`, f32 values
/// only) or f64; as the bytes another rank's `finish` reads.
nb::bytes local_nodes(const host_values& a, const std::optional<host_values>& b, std::int64_t first,
                      bool in_float, const std::string& what) {
  const tack::scalar_kind k = kind_of(a, what);
  if (b && (kind_of(*b, what) != k || b->size() != a.size())) {
    throw nb::value_error((what + ": the two arrays' values differ in type or count").c_str());
  }
  if (in_float && k != tack::scalar_kind::f32) {
    throw nb::value_error((what + ": an f32 sum of values that are not f32").c_str());
  }
  const auto n = static_cast<index_t>(a.size());
  tmd::node_range mine{};
  {
    nb::gil_scoped_release release;
    tack::visit_scalar_kind(k, [&]<class S>() {
      const S* pa = static_cast<const S*>(a.data());
      const S* pb = b ? static_cast<const S*>(b->data()) : nullptr;
      if constexpr (std::is_same_v<S, float>) {
        mine = in_float ? tmd::local_nodes<float>(pa, pb, first, n, what.c_str())
                        : tmd::local_nodes<double>(pa, pb, first, n, what.c_str());
      } else {
        mine = tmd::local_nodes<double>(pa, pb, first, n, what.c_str());
      }
    });
  }
  return nb::bytes(reinterpret_cast<const char*>(&mine), sizeof mine);
}

/// Every rank's nodes (in rank order) joined, and their sum: what MPI_Allreduce with tack's
/// join operation and the final additions give the C++ library.
double finish(const std::vector<nb::bytes>& ranges, std::int64_t total, bool in_float,
              const std::string& what) {
  tmd::node_range all{};
  for (const nb::bytes& r : ranges) {
    if (r.size() != sizeof(tmd::node_range)) {
      throw nb::value_error((what + ": a rank sent " + std::to_string(r.size()) +
                             " bytes of tree nodes, not " + std::to_string(sizeof all))
                                .c_str());
    }
    tmd::node_range next;
    std::memcpy(&next, r.c_str(), sizeof next);
    tmd::join(all, next);
    all = next;
  }
  return in_float ? static_cast<double>(tmd::finish<float>(all, total, what.c_str()))
                  : tmd::finish<double>(all, total, what.c_str());
}

}  // namespace

void bind_mpi(nb::module_& m) {
  nb::module_ k = m.def_submodule(
      "_mpi", "The parts of tack::mpi that need no MPI (tack.mpi moves the data with mpi4py).");

  nb::class_<tm::partition>(k, "Partition",
                            "Rank `r` owns global rows `[first(r), end(r))`, consecutive in rank "
                            "order (tack::mpi::partition).")
      .def(
          "__init__",
          [](tm::partition* self, const std::vector<index_t>& offsets) {
            if (offsets.empty() || offsets.front() != 0) {
              throw nb::value_error("tack.mpi.Partition: offsets start at 0, one more than ranks");
            }
            std::vector<index_t> counts;
            for (std::size_t r = 0; r + 1 < offsets.size(); ++r) {
              counts.push_back(offsets[r + 1] - offsets[r]);
            }
            if (counts.empty()) {
              new (self) tm::partition();
            } else {
              new (self) tm::partition(tm::partition::from_counts(counts));
            }
          },
          "offsets"_a, "The partition with these offsets (ranks + 1 values from 0).")
      .def_static("block", &tm::partition::block, "rows"_a, "ranks"_a,
                  "`rows` in `ranks` blocks differing by at most one row, larger first.")
      .def_static("from_counts", &tm::partition::from_counts, "counts"_a,
                  "Rank `r` owns `counts[r]` rows.")
      .def_prop_ro("ranks", &tm::partition::ranks)
      .def_prop_ro("rows", &tm::partition::rows)
      .def_prop_ro("offsets", [](const tm::partition& p) { return p.offsets(); })
      .def("first", &tm::partition::first, "r"_a)
      .def("end", &tm::partition::end, "r"_a)
      .def("count", &tm::partition::count, "r"_a)
      .def("owner", &tm::partition::owner, "row"_a)
      .def("__eq__",
           [](const tm::partition& a, nb::handle b) {
             const tm::partition* p = nullptr;
             return nb::try_cast<const tm::partition*>(b, p) && p != nullptr &&
                    a.offsets() == p->offsets();
           })
      .def("__hash__",
           [](const tm::partition& p) {
             std::size_t h = 0;
             for (auto o : p.offsets()) h = h * 1000003u ^ static_cast<std::size_t>(o);
             return h;
           })
      .def("__repr__", [](const tm::partition& p) {
        std::string s = "Partition([";
        for (std::size_t i = 0; i < p.offsets().size(); ++i) {
          s += (i ? ", " : "") + std::to_string(p.offsets()[i]);
        }
        return s + "])";
      });

  k.def("local_nodes", &local_nodes, "a"_a, "b"_a.none(), "first"_a, "in_float"_a, "what"_a,
        "This rank's nodes of the fixed tree of tack's ordered sums, as bytes.");
  k.def("finish", &finish, "ranges"_a, "total"_a, "in_float"_a, "what"_a,
        "Every rank's nodes (rank order) joined and summed, as tack::mpi::sum does.");
}

}  // namespace tackpy
