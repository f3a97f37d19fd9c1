// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
#pragma once
// The little XML that VTK files need: escaping attribute values for the writer, and a tokenizer
// for the reader that builds the element tree and stops at an element whose content is raw bytes
// (VTK's <AppendedData>), which is not XML.

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace tack::detail {

/// `s` with `<`, `>`, `&` and `"` replaced by entities, for an attribute value.
/// `xml_escape("a<b") == "a&lt;b"`
std::string xml_escape(std::string_view s);

/// An element: name, attributes (unescaped), children, and where its content lies in the text.
struct xml_element {
  std::string name;
  std::vector<std::pair<std::string, std::string>> attrs;
  std::vector<xml_element> children;
  std::size_t text_begin = 0, text_end = 0;  ///< content between the tags (in the parsed text)
  /// The value of attribute `key`, or null.
  const std::string* attr(std::string_view key) const {
    for (auto& a : attrs)
      if (a.first == key) return &a.second;
    return nullptr;
  }
  /// The first child named `n`, or null.
  const xml_element* child(std::string_view n) const {
    for (auto& c : children)
      if (c.name == n) return &c;
    return nullptr;
  }
};

/// Parses XML text into its root element, up to the first element named `raw_name` (whose content,
/// after a `_` marker, is raw bytes): parsing stops at the marker, and `raw_start()` says where the
/// bytes begin. Malformed input is a `value_error` that starts with `error_prefix` and gives the
/// byte offset. Comments, processing instructions and declarations are skipped.
/// `xml_parser p(text, "read: ", "AppendedData"); xml_element root = p.parse();`
class xml_parser {
public:
  xml_parser(const std::string& text, std::string error_prefix, std::string raw_name)
      : s_(text), prefix_(std::move(error_prefix)), raw_name_(std::move(raw_name)) {}

  xml_element parse();
  /// Whether parsing stopped at the raw element.
  bool has_raw() const { return raw_; }
  /// The raw element (its attributes; no children).
  const xml_element& raw_element() const { return raw_elem_; }
  /// Where the raw bytes start in the text: one past the `_` marker.
  std::size_t raw_start() const { return raw_start_; }

private:
  [[noreturn]] void fail(const std::string& what) const;
  bool starts(std::string_view p) const { return s_.compare(pos_, p.size(), p) == 0; }
  void skip_ws();
  void skip_to(std::string_view end, const char* what);
  void skip_misc();
  std::string name();
  std::string unescape(std::string_view v);
  bool element(xml_element& e, int depth);

  const std::string& s_;
  std::string prefix_;
  std::string raw_name_;
  std::size_t pos_ = 0;
  bool raw_ = false;
  xml_element raw_elem_;
  std::size_t raw_start_ = 0;
};

}  // namespace tack::detail
