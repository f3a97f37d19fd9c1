// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
#include "xml.hpp"

#include <tack/core/error.hpp>

namespace tack::detail {

std::string xml_escape(std::string_view s) {
  std::string o;
  for (char c : s) {
    switch (c) {
      case '<':
        o += "&lt;";
        break;
      case '>':
        o += "&gt;";
        break;
      case '&':
        o += "&amp;";
        break;
      case '"':
        o += "&quot;";
        break;
      default:
        o += c;
    }
  }
  return o;
}

xml_element xml_parser::parse() {
  skip_misc();
  if (pos_ >= s_.size() || s_[pos_] != '<') fail("no XML element at the start");
  xml_element root;
  if (!element(root, 0) && !raw_) fail("the root element ends early");
  return root;
}

void xml_parser::fail(const std::string& what) const {
  throw value_error(prefix_ + "malformed XML at byte " + std::to_string(pos_) + ": " + what);
}

void xml_parser::skip_ws() {
  while (pos_ < s_.size() &&
         (s_[pos_] == ' ' || s_[pos_] == '\n' || s_[pos_] == '\r' || s_[pos_] == '\t'))
    ++pos_;
}

void xml_parser::skip_to(std::string_view end, const char* what) {
  const auto e = s_.find(end, pos_);
  if (e == std::string::npos) fail(std::string("unterminated ") + what);
  pos_ = e + end.size();
}

// whitespace, comments, processing instructions, DOCTYPE
void xml_parser::skip_misc() {
  for (;;) {
    skip_ws();
    if (starts("<?"))
      skip_to("?>", "processing instruction");
    else if (starts("<!--"))
      skip_to("-->", "comment");
    else if (starts("<!"))
      skip_to(">", "declaration");
    else
      return;
  }
}

namespace {
bool name_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
         c == '-' || c == ':' || c == '.';
}
}  // namespace

std::string xml_parser::name() {
  const std::size_t b = pos_;
  while (pos_ < s_.size() && name_char(s_[pos_])) ++pos_;
  if (pos_ == b) fail("expected a name");
  return s_.substr(b, pos_ - b);
}

std::string xml_parser::unescape(std::string_view v) {
  std::string o;
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (v[i] != '&') {
      o += v[i];
      continue;
    }
    const auto semi = v.find(';', i);
    if (semi == std::string_view::npos) fail("unterminated entity in an attribute");
    const auto ent = v.substr(i + 1, semi - i - 1);
    if (ent == "lt")
      o += '<';
    else if (ent == "gt")
      o += '>';
    else if (ent == "amp")
      o += '&';
    else if (ent == "quot")
      o += '"';
    else if (ent == "apos")
      o += '\'';
    else
      fail("unknown entity &" + std::string(ent) + ";");
    i = semi;
  }
  return o;
}

// Parses one element at pos_ ('<'). Returns false when parsing stopped at the raw element.
bool xml_parser::element(xml_element& e, int depth) {
  if (depth > 64) fail("elements nested more than 64 deep");
  ++pos_;  // '<'
  e.name = name();
  for (;;) {
    skip_ws();
    if (pos_ >= s_.size()) fail("the tag <" + e.name + "> is not closed");
    if (s_[pos_] == '/') {
      if (!starts("/>")) fail("expected '/>'");
      pos_ += 2;
      return true;
    }
    if (s_[pos_] == '>') {
      ++pos_;
      break;
    }
    std::string key = name();
    skip_ws();
    if (pos_ >= s_.size() || s_[pos_] != '=') fail("expected '=' after attribute " + key);
    ++pos_;
    skip_ws();
    if (pos_ >= s_.size() || (s_[pos_] != '"' && s_[pos_] != '\''))
      fail("expected a quoted value for " + key);
    const char q = s_[pos_++];
    const auto end = s_.find(q, pos_);
    if (end == std::string::npos) fail("unterminated value of attribute " + key);
    e.attrs.emplace_back(std::move(key), unescape(std::string_view(s_).substr(pos_, end - pos_)));
    pos_ = end + 1;
  }
  if (e.name == raw_name_) {
    // Raw bytes follow the '_' marker: stop parsing here.
    const auto u = s_.find('_', pos_);
    if (u == std::string::npos) fail("<" + raw_name_ + "> has no '_' marker");
    for (std::size_t k = pos_; k < u; ++k)
      if (s_[k] != ' ' && s_[k] != '\n' && s_[k] != '\r' && s_[k] != '\t')
        fail("unexpected text before the '_' of <" + raw_name_ + ">");
    raw_ = true;
    raw_elem_ = e;
    raw_start_ = u + 1;
    return false;
  }
  e.text_begin = pos_;
  for (;;) {
    const auto lt = s_.find('<', pos_);
    if (lt == std::string::npos) {
      pos_ = s_.size();
      fail("the element <" + e.name + "> is not closed (the file ends)");
    }
    pos_ = lt;
    if (starts("<!--")) {
      skip_to("-->", "comment");
      continue;
    }
    if (starts("</")) {
      e.text_end = lt;
      pos_ += 2;
      const std::string n = name();
      if (n != e.name) fail("</" + n + "> closes <" + e.name + ">");
      skip_ws();
      if (pos_ >= s_.size() || s_[pos_] != '>') fail("expected '>' after </" + n);
      ++pos_;
      return true;
    }
    if (starts("<?")) {
      skip_to("?>", "processing instruction");
      continue;
    }
    xml_element c;
    const bool more = element(c, depth + 1);
    e.children.push_back(std::move(c));
    if (!more) {
      e.text_end = pos_;
      return false;
    }
  }
}

}  // namespace tack::detail
