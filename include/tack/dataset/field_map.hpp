// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
#pragma once
/// @file `tack::dataset::field_map`: a mesh's named fields, in insertion order.

#include <tack/dataset/field.hpp>

#include <cstddef>
#include <list>
#include <memory>
#include <string>
#include <utility>

namespace tack::dataset {

/// A mesh's fields by name, iterated in insertion order; each must be on a space of this mesh.
/// `grid.fields["velocity"] = tack::dataset::field(tack::dataset::H1(grid), v);
///  for (auto& [name, f] : grid.fields) { ... }`
class field_map {
public:
  using value_type = std::pair<const std::string, any_field>;
  using iterator = std::list<value_type>::iterator;
  using const_iterator = std::list<value_type>::const_iterator;

  explicit field_map(std::shared_ptr<const detail::mesh_geometry> geometry)
      : geometry_(std::move(geometry)) {}

  /// What `fields[name]` returns: assignable from a field (inserts or replaces), readable as the
  /// `any_field` held (a missing name is an `index_error`).
  class slot {
  public:
    slot(field_map& m, std::string name) : map_(&m), name_(std::move(name)) {}
    template <class T>
    slot& operator=(const field<T>& f) {
      map_->assign(name_, any_field(f));
      return *this;
    }
    slot& operator=(const any_field& f) {
      map_->assign(name_, f);
      return *this;
    }
    const any_field& get() const { return map_->at(name_); }
    operator const any_field&() const { return get(); }
    /// The typed field (`type_error` for another element type).
    template <class T>
    const field<T>& as() const {
      return get().template as<T>();
    }

  private:
    field_map* map_;
    std::string name_;
  };

  slot operator[](std::string name) { return slot(*this, std::move(name)); }
  /// The field named `name`; `index_error` naming it and the fields there are when missing.
  const any_field& at(const std::string& name) const {
    for (auto& e : items_)
      if (e.first == name) return e.second;
    std::string names;
    for (auto& e : items_) names += (names.empty() ? "'" : ", '") + e.first + "'";
    throw index_error("tack::dataset::field_map::at: no field named '" + name +
                      "' (fields: " + (names.empty() ? "none" : names) + ")");
  }
  bool contains(const std::string& name) const {
    for (auto& e : items_)
      if (e.first == name) return true;
    return false;
  }
  /// Removes the field named `name`; returns how many were removed (0 or 1).
  std::size_t erase(const std::string& name) {
    for (auto it = items_.begin(); it != items_.end(); ++it) {
      if (it->first == name) {
        items_.erase(it);
        return 1;
      }
    }
    return 0;
  }
  /// Adds or replaces `name` (replacing keeps its place in the order).
  void assign(const std::string& name, const any_field& f) {
    if (!f.has_value()) {
      throw value_error("tack::dataset::field_map: assigning an empty any_field to '" + name + "'");
    }
    if (f.space().geometry_ptr() != geometry_) {
      throw value_error("tack::dataset::field_map: field '" + name + "' (" + f.describe() +
                        ") is on another mesh than this " + geometry_->describe() +
                        "; make its space from this mesh");
    }
    for (auto& e : items_) {
      if (e.first == name) {
        e.second = f;
        return;
      }
    }
    items_.emplace_back(name, f);
  }
  std::size_t size() const noexcept { return items_.size(); }
  bool empty() const noexcept { return items_.empty(); }
  iterator begin() noexcept { return items_.begin(); }
  iterator end() noexcept { return items_.end(); }
  const_iterator begin() const noexcept { return items_.begin(); }
  const_iterator end() const noexcept { return items_.end(); }

private:
  std::shared_ptr<const detail::mesh_geometry> geometry_;
  std::list<value_type> items_;
};

}  // namespace tack::dataset
