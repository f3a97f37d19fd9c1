// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
#pragma once
// VTK's names of tack's scalar types (the `type` attribute of a <DataArray>), shared by the VTK
// writer and reader: the VTK column of tack's scalar table (types/scalar.hpp).

#include <tack/types/scalar.hpp>

#include <iterator>
#include <optional>
#include <string_view>

namespace tack::dataset::detail {

/// The scalar types a VTK file holds: tack's, but `bool`, which VTK stores as UInt8 (and which
/// reads back as `u8`). `tack::visit_scalar_kind(k, f, vtk_scalar_types{})`
using vtk_scalar_types = type_list<f32, f64, i8, i16, i32, i64, u8, u16, u32, u64>;

/// VTK's name of the scalar type of kind `k`: `"Float32"`, …, `"UInt8"` for `bool`.
/// `vtk_type_name(tack::scalar_kind::i64) == "Int64"`
constexpr std::string_view vtk_type_name(scalar_kind k) noexcept {
  constexpr std::string_view names[] = {"Float32", "Float64", "Int8",   "Int16",  "Int32", "Int64",
                                        "UInt8",   "UInt16",  "UInt32", "UInt64", "UInt8"};
  static_assert(std::size(names) == scalar_kind_count,
                "vtk_type_name: every tack scalar kind needs its VTK name");
  return names[static_cast<int>(k)];
}

/// The kind a VTK type reads as (UInt8: `u8`), or none for a name tack does not read.
/// `vtk_scalar_kind("Float64") == tack::scalar_kind::f64`
constexpr std::optional<scalar_kind> vtk_scalar_kind(std::string_view name) noexcept {
  for (int i = 0; i < scalar_kind_count; ++i) {
    const auto k = static_cast<scalar_kind>(i);
    if (k != scalar_kind::boolean && vtk_type_name(k) == name) return k;
  }
  return std::nullopt;
}

}  // namespace tack::dataset::detail
