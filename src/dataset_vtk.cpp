// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
// VTK XML files for tack::dataset: the writer (ASCII, inline base64, appended raw), a small XML
// tokenizer and the reader, and the .pvd collection writer.
#include <tack/dataset/vtk.hpp>

#include <tack/array/factories.hpp>
#include <tack/exec/parallel_for.hpp>
#include <tack/exec/threads.hpp>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstdint>
#include <cstring>
#include <fcntl.h>
#include <functional>
#include <limits>
#include <memory>
#include <string>
#include <string_view>
#include <sys/stat.h>
#include <unistd.h>
#include <utility>
#include <variant>
#include <vector>

namespace tack::dataset {
namespace {

// ---- output file: a temporary in the same folder, renamed into place -------------------------

std::string os_message(int err) { return std::strerror(err); }

class output_file {
public:
  output_file(std::string path, const char* op) : path_(std::move(path)), op_(op) {
    const auto slash = path_.rfind('/');
    const std::string dir =
        slash == std::string::npos ? "." : (slash == 0 ? "/" : path_.substr(0, slash));
    const std::string base = slash == std::string::npos ? path_ : path_.substr(slash + 1);
    tmp_ = (slash == std::string::npos ? std::string() : path_.substr(0, slash + 1)) + "." + base +
           ".tmp.XXXXXX";
    fd_ = ::mkstemp(tmp_.data());
    if (fd_ < 0) {
      const int err = errno;
      throw error(std::string("tack::dataset::") + op_ + ": cannot write '" + path_ +
                  "' (creating a file in '" + dir + "'): " + os_message(err));
    }
    ::fchmod(fd_, 0644);
    buf_.reserve(buffer_size);
  }
  output_file(const output_file&) = delete;
  output_file& operator=(const output_file&) = delete;
  ~output_file() {
    if (fd_ >= 0) ::close(fd_);
    if (!committed_) ::unlink(tmp_.c_str());
  }

  void put(std::string_view s) { put(s.data(), s.size()); }
  void put(const void* data, std::size_t n) {
    if (buf_.size() + n <= buffer_size) {
      buf_.append(static_cast<const char*>(data), n);
      return;
    }
    flush();
    if (n >= buffer_size) {
      raw_write(data, n);
    } else {
      buf_.append(static_cast<const char*>(data), n);
    }
  }
  void flush() {
    if (!buf_.empty()) raw_write(buf_.data(), buf_.size());
    buf_.clear();
  }
  /// Flushes, closes and renames the temporary file onto the path.
  void commit() {
    flush();
    const int fd = fd_;
    fd_ = -1;
    if (::close(fd) != 0) fail(errno);
    if (::rename(tmp_.c_str(), path_.c_str()) != 0) fail(errno);
    committed_ = true;
  }

private:
  static constexpr std::size_t buffer_size = std::size_t{1} << 20;
  void raw_write(const void* data, std::size_t n) {
    const char* p = static_cast<const char*>(data);
    while (n > 0) {
      const ssize_t w = ::write(fd_, p, std::min<std::size_t>(n, std::size_t{1} << 30));
      if (w < 0) {
        if (errno == EINTR) continue;
        fail(errno);
      }
      p += w;
      n -= static_cast<std::size_t>(w);
    }
  }
  [[noreturn]] void fail(int err) {
    throw error(std::string("tack::dataset::") + op_ + ": cannot write '" + path_ +
                "': " + os_message(err));
  }
  std::string path_;
  const char* op_;
  std::string tmp_;
  int fd_ = -1;
  bool committed_ = false;
  std::string buf_;
};

// ---- base64 ---------------------------------------------------------------------------------

constexpr char b64_chars[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// Streams bytes into base64 text (one continuous encoding, as VTK writes header and data).
class base64_encoder {
public:
  explicit base64_encoder(output_file& out) : out_(out) {}
  void put(const void* data, std::size_t n) {
    const auto* p = static_cast<const unsigned char*>(data);
    while (n > 0 && held_ > 0 && held_ < 3) {
      carry_[held_++] = *p++;
      --n;
      if (held_ == 3) {
        emit(carry_, 3);
        held_ = 0;
      }
    }
    if (held_ == 0) {
      const std::size_t whole = n / 3 * 3;
      std::size_t i = 0;
      while (i < whole) {
        const std::size_t m = std::min<std::size_t>(whole - i, 3 * 16384);
        text_.resize(m / 3 * 4);
        char* t = text_.data();
        for (std::size_t k = 0; k < m; k += 3) {
          const unsigned v =
              (unsigned(p[i + k]) << 16) | (unsigned(p[i + k + 1]) << 8) | p[i + k + 2];
          *t++ = b64_chars[(v >> 18) & 63];
          *t++ = b64_chars[(v >> 12) & 63];
          *t++ = b64_chars[(v >> 6) & 63];
          *t++ = b64_chars[v & 63];
        }
        out_.put(text_.data(), text_.size());
        i += m;
      }
      p += whole;
      n -= whole;
    }
    while (n > 0) {
      carry_[held_++] = *p++;
      --n;
      if (held_ == 3) {
        emit(carry_, 3);
        held_ = 0;
      }
    }
  }
  void finish() {
    if (held_ > 0) emit(carry_, held_);
    held_ = 0;
  }

private:
  void emit(const unsigned char* b, int n) {
    const unsigned v =
        (unsigned(b[0]) << 16) | (n > 1 ? unsigned(b[1]) << 8 : 0u) | (n > 2 ? b[2] : 0u);
    char t[4] = {b64_chars[(v >> 18) & 63], b64_chars[(v >> 12) & 63],
                 n > 1 ? b64_chars[(v >> 6) & 63] : '=', n > 2 ? b64_chars[v & 63] : '='};
    out_.put(t, 4);
  }
  output_file& out_;
  unsigned char carry_[3] = {};
  int held_ = 0;
  std::string text_;
};

int b64_value(unsigned char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '+') return 62;
  if (c == '/') return 63;
  return -1;
}

// ---- data arrays to write -------------------------------------------------------------------

using chunk_sink = std::function<void(const void*, std::size_t)>;

struct out_array {
  std::string name;      // empty: no Name attribute
  std::string vtk_type;  // "Float32"
  std::string scalar;    // tack scalar name: "f32"
  int components = 1;
  index_t tuples = 0;
  std::size_t scalar_size = 4;
  std::function<void(const chunk_sink&)> produce;
  std::size_t nbytes() const {
    return static_cast<std::size_t>(tuples) * static_cast<std::size_t>(components) * scalar_size;
  }
};

const char* vtk_type_of(std::string_view scalar) {
  if (scalar == "f32") return "Float32";
  if (scalar == "f64") return "Float64";
  if (scalar == "i8") return "Int8";
  if (scalar == "i16") return "Int16";
  if (scalar == "i32") return "Int32";
  if (scalar == "i64") return "Int64";
  if (scalar == "u8" || scalar == "bool") return "UInt8";
  if (scalar == "u16") return "UInt16";
  if (scalar == "u32") return "UInt32";
  if (scalar == "u64") return "UInt64";
  return nullptr;
}

template <class T, int R>
out_array array_of(std::string name, const array<T, R>& a) {
  using V = std::remove_const_t<T>;
  out_array o;
  o.name = std::move(name);
  o.scalar = std::string(dtype_of<scalar_t<V>>().name());
  o.vtk_type = vtk_type_of(o.scalar);
  o.components = components_v<V>;
  o.tuples = a.size();
  o.scalar_size = sizeof(scalar_t<V>);
  o.produce = [a](const chunk_sink& sink) { detail::for_each_interleaved_chunk(a, sink); };
  return o;
}

out_array field_array(const std::string& name, const any_field& f) {
  out_array o;
  o.name = name;
  o.scalar = std::string(f.scalar_dtype().name());
  const char* t = vtk_type_of(o.scalar);
  if (!t)
    throw value_error("tack::dataset::write_vtk: field '" + name + "' has element type " +
                      std::string(f.dtype().name()) + ", which VTK files cannot hold");
  o.vtk_type = t;
  o.components = f.components();
  o.tuples = f.size();
  o.scalar_size = f.scalar_dtype().itemsize();
  o.produce = [f](const chunk_sink& sink) { f.for_each_chunk(sink); };
  return o;
}

template <class S>
void put_ascii_values(std::string& line, const void* data, std::size_t n) {
  const S* v = static_cast<const S*>(data);
  char tmp[64];
  for (std::size_t i = 0; i < n; ++i) {
    std::to_chars_result r;
    if constexpr (std::is_same_v<S, std::int8_t> || std::is_same_v<S, std::uint8_t>) {
      r = std::to_chars(tmp, tmp + sizeof tmp, static_cast<int>(v[i]));
    } else {
      r = std::to_chars(tmp, tmp + sizeof tmp, v[i]);
    }
    line.append(tmp, r.ptr);
    line.push_back(' ');
  }
}

void put_ascii(std::string& text, std::string_view scalar, const void* data, std::size_t bytes) {
  if (scalar == "f32") return put_ascii_values<float>(text, data, bytes / 4);
  if (scalar == "f64") return put_ascii_values<double>(text, data, bytes / 8);
  if (scalar == "i8") return put_ascii_values<std::int8_t>(text, data, bytes);
  if (scalar == "u8" || scalar == "bool") return put_ascii_values<std::uint8_t>(text, data, bytes);
  if (scalar == "i16") return put_ascii_values<std::int16_t>(text, data, bytes / 2);
  if (scalar == "u16") return put_ascii_values<std::uint16_t>(text, data, bytes / 2);
  if (scalar == "i32") return put_ascii_values<std::int32_t>(text, data, bytes / 4);
  if (scalar == "u32") return put_ascii_values<std::uint32_t>(text, data, bytes / 4);
  if (scalar == "i64") return put_ascii_values<std::int64_t>(text, data, bytes / 8);
  if (scalar == "u64") return put_ascii_values<std::uint64_t>(text, data, bytes / 8);
}

std::string xml_escape(const std::string& s) {
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

std::string num(double v) {
  char tmp[64];
  auto r = std::to_chars(tmp, tmp + sizeof tmp, v);
  return std::string(tmp, r.ptr);
}

/// Writes the XML of one file; `pieces` is called to write the piece's content through
/// `write_array(indent, array)`; appended data follows the XML.
class vtk_writer {
public:
  vtk_writer(output_file& out, const vtk_options& o) : out_(out), opt_(o) {}

  void data_array(const std::string& indent, const out_array& a) {
    std::string head = indent + "<DataArray type=\"" + a.vtk_type + "\"";
    if (!a.name.empty()) head += " Name=\"" + xml_escape(a.name) + "\"";
    if (a.components != 1) head += " NumberOfComponents=\"" + std::to_string(a.components) + "\"";
    switch (opt_.encoding) {
      case vtk_encoding::ascii: {
        out_.put(head + " format=\"ascii\">\n");
        std::string text;
        a.produce([&](const void* d, std::size_t n) {
          put_ascii(text, a.scalar, d, n);
          if (text.size() > (1u << 20)) {
            out_.put(text);
            text.clear();
          }
        });
        out_.put(text);
        out_.put("\n" + indent + "</DataArray>\n");
        break;
      }
      case vtk_encoding::binary: {
        out_.put(head + " format=\"binary\">\n");
        base64_encoder enc(out_);
        put_header(a.nbytes(), [&](const void* h, std::size_t n) { enc.put(h, n); });
        a.produce([&](const void* d, std::size_t n) { enc.put(d, n); });
        enc.finish();
        out_.put("\n" + indent + "</DataArray>\n");
        break;
      }
      case vtk_encoding::appended: {
        out_.put(head + " format=\"appended\" offset=\"" + std::to_string(offset_) + "\"/>\n");
        offset_ += header_size() + a.nbytes();
        appended_.push_back(a);
        break;
      }
    }
  }
  std::string header_type() const {
    return opt_.header == vtk_header::uint32 ? "UInt32" : "UInt64";
  }
  void finish() {
    if (opt_.encoding == vtk_encoding::appended) {
      out_.put("  <AppendedData encoding=\"raw\">\n   _");
      for (const auto& a : appended_) {
        put_header(a.nbytes(), [&](const void* h, std::size_t n) { out_.put(h, n); });
        a.produce([&](const void* d, std::size_t n) { out_.put(d, n); });
      }
      out_.put("\n  </AppendedData>\n");
    }
    out_.put("</VTKFile>\n");
  }

private:
  std::size_t header_size() const { return opt_.header == vtk_header::uint32 ? 4 : 8; }
  template <class F>
  void put_header(std::size_t nbytes, F&& f) {
    if (opt_.header == vtk_header::uint32) {
      if (nbytes > std::numeric_limits<std::uint32_t>::max()) {
        throw value_error("tack::dataset::write_vtk: an array of " + std::to_string(nbytes) +
                          " bytes does not fit a UInt32 header; use vtk_header::uint64");
      }
      const auto h = static_cast<std::uint32_t>(nbytes);
      f(&h, 4);
    } else {
      const auto h = static_cast<std::uint64_t>(nbytes);
      f(&h, 8);
    }
  }
  output_file& out_;
  vtk_options opt_;
  std::size_t offset_ = 0;
  std::vector<out_array> appended_;
};

void check_extension(const std::string& path, const char* want, const std::string& mesh) {
  const auto dot = path.rfind('.');
  const std::string ext = dot == std::string::npos ? std::string() : path.substr(dot);
  if (ext != want) {
    throw value_error("tack::dataset::write_vtk: a " + mesh + " is written as a " + want +
                      " file; got '" + path + "'");
  }
}

std::string file_head(const char* type, const vtk_writer& w) {
  return std::string("<?xml version=\"1.0\"?>\n<VTKFile type=\"") + type +
         "\" version=\"1.0\" byte_order=\"LittleEndian\" header_type=\"" + w.header_type() +
         "\">\n";
}

template <class Mesh>
void write_fields(vtk_writer& w, output_file& out, const Mesh& mesh) {
  for (space_kind kind : {space_kind::H1, space_kind::L2}) {
    out.put(kind == space_kind::H1 ? "      <PointData>\n" : "      <CellData>\n");
    for (const auto& [name, f] : mesh.fields) {
      if (f.space().kind() != kind) continue;
      w.data_array("        ", field_array(name, f));
    }
    out.put(kind == space_kind::H1 ? "      </PointData>\n" : "      </CellData>\n");
  }
}

std::string extent_string(const std::array<index_t, 3>& d) {
  return "0 " + std::to_string(d[0] - 1) + " 0 " + std::to_string(d[1] - 1) + " 0 " +
         std::to_string(d[2] - 1);
}

// ---- XML tokenizer --------------------------------------------------------------------------

struct xml_element {
  std::string name;
  std::vector<std::pair<std::string, std::string>> attrs;
  std::vector<xml_element> children;
  std::size_t text_begin = 0, text_end = 0;  // content between the tags (in the parsed text)
  const std::string* attr(std::string_view key) const {
    for (auto& a : attrs)
      if (a.first == key) return &a.second;
    return nullptr;
  }
  const xml_element* child(std::string_view n) const {
    for (auto& c : children)
      if (c.name == n) return &c;
    return nullptr;
  }
};

class reader_error_context {
public:
  explicit reader_error_context(std::string path) : path_(std::move(path)) {}
  [[noreturn]] void fail(const std::string& what) const {
    throw value_error("tack::dataset::read_vtk: '" + path_ + "': " + what);
  }
  const std::string& path() const { return path_; }

private:
  std::string path_;
};

/// Parses the XML of a VTK file up to `<AppendedData ...>` (whose raw bytes are not XML): the
/// root element, and where the appended section starts. Refuses malformed input.
class xml_parser {
public:
  xml_parser(const std::string& text, const reader_error_context& ctx) : s_(text), ctx_(ctx) {}

  xml_element parse() {
    skip_misc();
    if (pos_ >= s_.size() || s_[pos_] != '<') fail("no XML element at the start");
    xml_element root;
    if (!element(root, 0) && !appended_) fail("the root element ends early");
    return root;
  }
  bool has_appended() const { return appended_; }
  const xml_element& appended_element() const { return appended_elem_; }
  std::size_t appended_start() const { return appended_start_; }

private:
  [[noreturn]] void fail(const std::string& what) const {
    ctx_.fail("malformed XML at byte " + std::to_string(pos_) + ": " + what);
  }
  bool starts(std::string_view p) const { return s_.compare(pos_, p.size(), p) == 0; }
  void skip_ws() {
    while (pos_ < s_.size() &&
           (s_[pos_] == ' ' || s_[pos_] == '\n' || s_[pos_] == '\r' || s_[pos_] == '\t'))
      ++pos_;
  }
  void skip_to(std::string_view end, const char* what) {
    const auto e = s_.find(end, pos_);
    if (e == std::string::npos) fail(std::string("unterminated ") + what);
    pos_ = e + end.size();
  }
  // whitespace, comments, processing instructions, DOCTYPE
  void skip_misc() {
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
  static bool name_char(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
           c == '-' || c == ':' || c == '.';
  }
  std::string name() {
    const std::size_t b = pos_;
    while (pos_ < s_.size() && name_char(s_[pos_])) ++pos_;
    if (pos_ == b) fail("expected a name");
    return s_.substr(b, pos_ - b);
  }
  std::string unescape(std::string_view v) {
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
  // Parses one element at pos_ ('<'). Returns false when parsing stopped at <AppendedData>.
  bool element(xml_element& e, int depth) {
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
    if (e.name == "AppendedData") {
      // Raw bytes follow the '_' marker: stop parsing here.
      const auto u = s_.find('_', pos_);
      if (u == std::string::npos) fail("<AppendedData> has no '_' marker");
      for (std::size_t k = pos_; k < u; ++k)
        if (s_[k] != ' ' && s_[k] != '\n' && s_[k] != '\r' && s_[k] != '\t')
          fail("unexpected text before the '_' of <AppendedData>");
      appended_ = true;
      appended_elem_ = e;
      appended_start_ = u + 1;
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

  const std::string& s_;
  const reader_error_context& ctx_;
  std::size_t pos_ = 0;
  bool appended_ = false;
  xml_element appended_elem_;
  std::size_t appended_start_ = 0;
};

// ---- reading ---------------------------------------------------------------------------------

struct vtk_scalar {
  std::string_view name;
  std::size_t size;
};

std::size_t vtk_type_size(std::string_view t) {
  if (t == "Int8" || t == "UInt8") return 1;
  if (t == "Int16" || t == "UInt16") return 2;
  if (t == "Int32" || t == "UInt32" || t == "Float32") return 4;
  if (t == "Int64" || t == "UInt64" || t == "Float64") return 8;
  return 0;
}

/// Calls `f.template operator()<S>()` with the C++ scalar of VTK type `t`.
template <class F>
void with_vtk_scalar(std::string_view t, F&& f) {
  if (t == "Float32")
    f.template operator()<float>();
  else if (t == "Float64")
    f.template operator()<double>();
  else if (t == "Int8")
    f.template operator()<std::int8_t>();
  else if (t == "UInt8")
    f.template operator()<std::uint8_t>();
  else if (t == "Int16")
    f.template operator()<std::int16_t>();
  else if (t == "UInt16")
    f.template operator()<std::uint16_t>();
  else if (t == "Int32")
    f.template operator()<std::int32_t>();
  else if (t == "UInt32")
    f.template operator()<std::uint32_t>();
  else if (t == "Int64")
    f.template operator()<std::int64_t>();
  else if (t == "UInt64")
    f.template operator()<std::uint64_t>();
}

class vtk_file {
public:
  explicit vtk_file(const std::string& path) : ctx_(path) {
    fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd_ < 0) {
      const int err = errno;
      if (err == ENOENT || err == EACCES || err == EISDIR) {
        throw value_error("tack::dataset::read_vtk: cannot open '" + path +
                          "': " + os_message(err));
      }
      throw error("tack::dataset::read_vtk: cannot open '" + path + "': " + os_message(err));
    }
    struct stat st {};
    if (::fstat(fd_, &st) != 0) ctx_.fail("cannot stat the file: " + os_message(errno));
    if (!S_ISREG(st.st_mode)) ctx_.fail("not a regular file");
    size_ = static_cast<std::size_t>(st.st_size);
    read_prefix();
  }
  vtk_file(const vtk_file&) = delete;
  vtk_file& operator=(const vtk_file&) = delete;
  ~vtk_file() {
    if (fd_ >= 0) ::close(fd_);
  }
  const reader_error_context& ctx() const { return ctx_; }
  const std::string& text() const { return text_; }
  std::size_t size() const { return size_; }

  /// Refuses a read past the end of the file ("truncated").
  void pread_check(std::size_t n, std::size_t off, const std::string& what) const {
    if (off > size_ || n > size_ - off) {
      ctx_.fail(what + " is truncated: it needs bytes up to " + std::to_string(off + n) +
                " but the file has " + std::to_string(size_));
    }
  }
  /// Reads `n` bytes at file offset `off` into `dst`; a short read is "truncated".
  void pread_exact(void* dst, std::size_t n, std::size_t off, const std::string& what) const {
    pread_check(n, off, what);
    char* p = static_cast<char*>(dst);
    while (n > 0) {
      const ssize_t r =
          ::pread(fd_, p, std::min<std::size_t>(n, std::size_t{1} << 30), static_cast<off_t>(off));
      if (r < 0) {
        if (errno == EINTR) continue;
        ctx_.fail("reading " + what + ": " + os_message(errno));
      }
      if (r == 0) ctx_.fail(what + " is truncated (the file ends early)");
      p += r;
      off += static_cast<std::size_t>(r);
      n -= static_cast<std::size_t>(r);
    }
  }
  /// `pread_exact` of a large block in pieces on tack's CPU threads: reading from the page cache
  /// is a copy by the CPU, so two threads copy about twice as fast as one.
  void pread_parallel(void* dst, std::size_t n, std::size_t off, const std::string& what) const {
    constexpr std::size_t piece = std::size_t{8} << 20;
    if (n < 2 * piece || tack::num_threads() < 2) {
      pread_exact(dst, n, off, what);
      return;
    }
    pread_check(n, off, what);
    const auto pieces = static_cast<index_t>((n + piece - 1) / piece);
    char* base = static_cast<char*>(dst);
    tack::parallel_for(tack::cpu(), pieces, [&](index_t k) {
      const std::size_t begin = static_cast<std::size_t>(k) * piece;
      pread_exact(base + begin, std::min(piece, n - begin), off + begin, what);
    });
  }
  /// The rest of the file after `off` (appended base64 data).
  const std::string& tail(std::size_t off) {
    if (!tail_loaded_) {
      tail_.resize(size_ - std::min(off, size_));
      if (!tail_.empty()) pread_exact(tail_.data(), tail_.size(), off, "the appended data");
      tail_loaded_ = true;
    }
    return tail_;
  }

private:
  // Reads the file up to the '_' of <AppendedData ...> (or all of it when there is none).
  void read_prefix() {
    constexpr std::size_t block = std::size_t{1} << 16;
    std::size_t searched = 0;
    while (text_.size() < size_) {
      const std::size_t old = text_.size();
      const std::size_t n = std::min(block, size_ - old);
      text_.resize(old + n);
      pread_exact(text_.data() + old, n, old, "the XML");
      const auto a = text_.find("<AppendedData", searched);
      searched = text_.size() > 16 ? text_.size() - 16 : 0;
      if (a != std::string::npos) {
        const auto u =
            text_.find('_', text_.find('>', a) == std::string::npos ? a : text_.find('>', a));
        if (u != std::string::npos && text_.find('>', a) != std::string::npos) {
          text_.resize(u + 1);
          return;
        }
        searched = a;
      }
    }
  }
  reader_error_context ctx_;
  int fd_ = -1;
  std::size_t size_ = 0;
  std::string text_;
  std::string tail_;
  bool tail_loaded_ = false;
};

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

template <class S>
bool parse_number(std::string_view tok, S& out) {
  if constexpr (std::is_floating_point_v<S>) {
    // from_chars refuses a leading '+'; VTK never writes one, other writers might
    if (!tok.empty() && tok.front() == '+') tok.remove_prefix(1);
    if (tok == "nan" || tok == "NaN" || tok == "-nan") {
      out = std::numeric_limits<S>::quiet_NaN();
      return true;
    }
    if (tok == "inf" || tok == "Infinity") {
      out = std::numeric_limits<S>::infinity();
      return true;
    }
    if (tok == "-inf" || tok == "-Infinity") {
      out = -std::numeric_limits<S>::infinity();
      return true;
    }
    auto r = std::from_chars(tok.data(), tok.data() + tok.size(), out);
    return r.ec == std::errc() && r.ptr == tok.data() + tok.size();
  } else {
    using W = std::conditional_t<std::is_signed_v<S>, long long, unsigned long long>;
    W w{};
    auto r = std::from_chars(tok.data(), tok.data() + tok.size(), w);
    if (r.ec != std::errc() || r.ptr != tok.data() + tok.size()) return false;
    if (w < static_cast<W>(std::numeric_limits<S>::min()) ||
        w > static_cast<W>(std::numeric_limits<S>::max()))
      return false;
    out = static_cast<S>(w);
    return true;
  }
}

/// A `<DataArray>` of the file and how to read its values.
class array_reader {
public:
  array_reader(vtk_file& file, const xml_parser& xml, const xml_element& e, std::size_t header_size)
      : file_(file), xml_(xml), e_(e), header_size_(header_size) {
    const std::string* n = e.attr("Name");
    name_ = n ? *n : std::string();
    const std::string* t = e.attr("type");
    if (!t) fail("has no type attribute");
    type_ = *t;
    if (vtk_type_size(type_) == 0) fail("has type \"" + type_ + "\", which tack does not read");
    const std::string* c = e.attr("NumberOfComponents");
    if (c && (!parse_number(*c, comps_) || comps_ < 1 || comps_ > 64))
      fail("has NumberOfComponents \"" + *c + "\"");
    const std::string* f = e.attr("format");
    format_ = f ? *f : std::string("ascii");
    if (format_ != "ascii" && format_ != "binary" && format_ != "appended")
      fail("has format \"" + format_ + "\"");
  }
  const std::string& name() const { return name_; }
  const std::string& type() const { return type_; }
  int components() const { return comps_; }
  [[noreturn]] void fail(const std::string& what) const {
    file_.ctx().fail("DataArray" + (name_.empty() ? std::string() : " '" + name_ + "'") + " " +
                     what);
  }

  /// Reads `count` scalars of type `S` (the file's type) into `dst`.
  template <class S>
  void read(S* dst, std::size_t count) {
    std::size_t nbytes = 0;
    if (__builtin_mul_overflow(count, sizeof(S), &nbytes)) fail("is too large");
    if (format_ == "ascii") {
      std::string_view text =
          std::string_view(file_.text()).substr(e_.text_begin, e_.text_end - e_.text_begin);
      text =
          text.substr(0, text.find('<'));  // the values precede any nested element (InformationKey)
      if (count > text.size())
        fail("has " + std::to_string(text.size()) + " characters for " + std::to_string(count) +
             " values");
      std::size_t k = 0, i = 0;
      while (k < count) {
        while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
        if (i >= text.size())
          fail("has " + std::to_string(k) + " values; expected " + std::to_string(count));
        std::size_t j = i;
        while (j < text.size() && !std::isspace(static_cast<unsigned char>(text[j]))) ++j;
        if (!parse_number(text.substr(i, j - i), dst[k])) {
          fail("value " + std::to_string(k) + " \"" +
               std::string(text.substr(i, std::min<std::size_t>(j - i, 32))) + "\" is not a " +
               type_);
        }
        ++k;
        i = j;
      }
      while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
      if (i != text.size()) fail("has more than the " + std::to_string(count) + " values expected");
      return;
    }
    if (format_ == "binary") {
      std::string_view text =
          std::string_view(file_.text()).substr(e_.text_begin, e_.text_end - e_.text_begin);
      decode_base64(text, dst, nbytes);
      return;
    }
    // appended
    if (!xml_.has_appended()) fail("is appended but the file has no <AppendedData>");
    const std::string* off = e_.attr("offset");
    std::size_t offset = 0;
    if (!off || !parse_number(trim(*off), offset)) fail("has no valid offset attribute");
    const std::string* enc = xml_.appended_element().attr("encoding");
    const std::string encoding = enc ? *enc : std::string("raw");
    if (encoding == "raw") {
      std::size_t at = 0;
      if (__builtin_add_overflow(xml_.appended_start(), offset, &at))
        fail("has an offset past the file");
      const std::size_t h = read_header_raw(at);
      if (h != nbytes)
        fail("holds " + std::to_string(h) + " bytes; expected " + std::to_string(nbytes));
      file_.pread_parallel(dst, nbytes, at + header_size_, "DataArray '" + name_ + "'");
    } else if (encoding == "base64") {
      const std::string& tail = file_.tail(xml_.appended_start());
      if (offset > tail.size()) fail("has an offset past the appended data");
      decode_base64(std::string_view(tail).substr(offset), dst, nbytes);
    } else {
      fail("is in <AppendedData encoding=\"" + encoding + "\">, which tack does not read");
    }
  }

  /// The values as `Out` (converted from the file's type), `count` of them.
  template <class Out>
  std::vector<Out> read_as(std::size_t count) {
    std::vector<Out> out(count);
    bool done = false;
    with_vtk_scalar(type_, [&]<class S>() {
      if constexpr (std::is_same_v<S, Out>) {
        read(out.data(), count);
      } else {
        std::vector<S> tmp(count);
        read(tmp.data(), count);
        for (std::size_t i = 0; i < count; ++i) out[i] = static_cast<Out>(tmp[i]);
      }
      done = true;
    });
    if (!done) fail("has an unreadable type");
    return out;
  }

private:
  std::size_t read_header_raw(std::size_t at) {
    if (header_size_ == 4) {
      std::uint32_t h = 0;
      file_.pread_exact(&h, 4, at, "the header of DataArray '" + name_ + "'");
      return h;
    }
    std::uint64_t h = 0;
    file_.pread_exact(&h, 8, at, "the header of DataArray '" + name_ + "'");
    if (h > std::numeric_limits<std::size_t>::max())
      fail("has a header of " + std::to_string(h) + " bytes");
    return static_cast<std::size_t>(h);
  }
  // Decodes header + data from base64 text (quartet by quartet, so either one continuous
  // encoding or separately padded parts read alike).
  void decode_base64(std::string_view text, void* dst, std::size_t nbytes) {
    unsigned char header[8] = {};
    std::size_t got = 0;
    const std::size_t total = header_size_ + nbytes;
    if (nbytes / 3 > text.size())
      fail("has too little base64 text for " + std::to_string(nbytes) + " bytes");
    auto* out = static_cast<unsigned char*>(dst);
    int q[4];
    int nq = 0;
    auto emit = [&](unsigned char b) {
      if (got < header_size_)
        header[got] = b;
      else if (got < total)
        out[got - header_size_] = b;
      ++got;
    };
    for (std::size_t i = 0; i < text.size() && got < total; ++i) {
      const unsigned char c = static_cast<unsigned char>(text[i]);
      if (std::isspace(c)) continue;
      if (c == '<' || c == '_') break;
      int v = c == '=' ? -2 : b64_value(c);
      if (v == -1) fail("has a character that is not base64 at position " + std::to_string(i));
      q[nq++] = v;
      if (nq == 4) {
        if (q[0] < 0 || q[1] < 0 || (q[2] == -2 && q[3] != -2))
          fail("has malformed base64 padding");
        const int n = q[2] == -2 ? 1 : (q[3] == -2 ? 2 : 3);
        const unsigned v24 = (unsigned(q[0]) << 18) | (unsigned(q[1]) << 12) |
                             (n > 1 ? unsigned(q[2]) << 6 : 0u) | (n > 2 ? unsigned(q[3]) : 0u);
        emit(static_cast<unsigned char>(v24 >> 16));
        if (n > 1) emit(static_cast<unsigned char>(v24 >> 8));
        if (n > 2) emit(static_cast<unsigned char>(v24));
        nq = 0;
      }
    }
    if (got < total) {
      fail("is truncated: its base64 text holds " +
           std::to_string(got > header_size_ ? got - header_size_ : 0) + " bytes; expected " +
           std::to_string(nbytes));
    }
    std::uint64_t h = 0;
    if (header_size_ == 4) {
      std::uint32_t h32;
      std::memcpy(&h32, header, 4);
      h = h32;
    } else {
      std::memcpy(&h, header, 8);
    }
    if (h != nbytes)
      fail("holds " + std::to_string(h) + " bytes; expected " + std::to_string(nbytes));
  }

  vtk_file& file_;
  const xml_parser& xml_;
  const xml_element& e_;
  std::size_t header_size_;
  std::string name_;
  std::string type_;
  int comps_ = 1;
  std::string format_;
};

/// Reads a data array of `tuples` values into a field on `space` of `fields`.
template <class Mesh>
void read_field(array_reader& a, index_t tuples, const function_space& space, Mesh& mesh) {
  if (a.name().empty()) a.fail("has no Name");
  if (mesh.fields.contains(a.name())) a.fail("repeats the name of another array of this mesh");
  bool done = false;
  auto make = [&]<class T>() {
    auto values = tack::empty<T>(tuples);
    if (tuples > 0)
      a.read(reinterpret_cast<scalar_t<T>*>(values.data()),
             static_cast<std::size_t>(tuples) * components_v<T>);
    mesh.fields[a.name()] = field<T>(space, values);
    done = true;
  };
  const std::string& t = a.type();
  const int c = a.components();
  if (c == 1) {
    with_vtk_scalar(t, [&]<class S>() { make.template operator()<S>(); });
  } else if (t == "Float32" || t == "Float64") {
    auto by = [&]<class S>() {
      switch (c) {
        case 2:
          make.template operator()<vec<S, 2>>();
          break;
        case 3:
          make.template operator()<vec<S, 3>>();
          break;
        case 4:
          make.template operator()<vec<S, 4>>();
          break;
        case 9:
          make.template operator()<mat<S, 3, 3>>();
          break;
        case 16:
          make.template operator()<mat<S, 4, 4>>();
          break;
        default:
          break;
      }
    };
    if (t == "Float32")
      by.template operator()<float>();
    else
      by.template operator()<double>();
  }
  if (!done) {
    a.fail("has " + std::to_string(c) + " components of " + t +
           "; tack reads 1 component of any type, or 2, 3, 4, 9 or 16 of Float32/Float64");
  }
}

std::array<index_t, 6> parse_extent(const reader_error_context& ctx, const xml_element& e,
                                    const char* attr) {
  const std::string* s = e.attr(attr);
  if (!s) ctx.fail("<" + e.name + "> has no " + attr);
  std::array<index_t, 6> x{};
  std::string_view v = *s;
  for (int k = 0; k < 6; ++k) {
    v = trim(v);
    const auto sp = v.find_first_of(" \t\n\r");
    const auto tok = v.substr(0, sp);
    if (tok.empty() || !parse_number(tok, x[static_cast<std::size_t>(k)]))
      ctx.fail("<" + e.name + "> " + attr + "=\"" + *s + "\" is not 6 integers");
    v = sp == std::string_view::npos ? std::string_view() : v.substr(sp);
  }
  if (!trim(v).empty())
    ctx.fail("<" + e.name + "> " + attr + "=\"" + *s + "\" has more than 6 integers");
  for (int d = 0; d < 3; ++d) {
    const index_t lo = x[static_cast<std::size_t>(2 * d)],
                  hi = x[static_cast<std::size_t>(2 * d + 1)];
    if (hi < lo || hi - lo >= (index_t{1} << 31))
      ctx.fail("<" + e.name + "> " + attr + "=\"" + *s + "\" is not a valid extent");
  }
  return x;
}

vec3d parse_vec3(const reader_error_context& ctx, const xml_element& e, const char* attr,
                 vec3d fallback) {
  const std::string* s = e.attr(attr);
  if (!s) return fallback;
  vec3d out{};
  std::string_view v = *s;
  for (int k = 0; k < 3; ++k) {
    v = trim(v);
    const auto sp = v.find_first_of(" \t\n\r");
    if (!parse_number(v.substr(0, sp), out[k]))
      ctx.fail("<" + e.name + "> " + attr + "=\"" + *s + "\" is not 3 numbers");
    v = sp == std::string_view::npos ? std::string_view() : v.substr(sp);
  }
  return out;
}

const xml_element& need(const reader_error_context& ctx, const xml_element& parent,
                        const char* name) {
  const xml_element* c = parent.child(name);
  if (!c) ctx.fail("<" + parent.name + "> has no <" + name + ">");
  return *c;
}

const xml_element& single_piece(const reader_error_context& ctx, const xml_element& grid) {
  int pieces = 0;
  for (auto& c : grid.children) pieces += c.name == "Piece";
  if (pieces != 1)
    ctx.fail("<" + grid.name + "> has " + std::to_string(pieces) +
             " pieces; tack reads files of exactly one");
  return need(ctx, grid, "Piece");
}

index_t count_attr(const reader_error_context& ctx, const xml_element& e, const char* attr) {
  const std::string* s = e.attr(attr);
  index_t n = -1;
  if (!s || !parse_number(trim(*s), n) || n < 0) ctx.fail("<" + e.name + "> has no valid " + attr);
  return n;
}

template <class Mesh>
void read_point_and_cell_data(vtk_file& file, const xml_parser& xml, std::size_t hs,
                              const xml_element& piece, Mesh& mesh) {
  for (const char* section : {"PointData", "CellData"}) {
    const xml_element* d = piece.child(section);
    if (!d) continue;
    const bool points = section[0] == 'P';
    const index_t n = points ? mesh.n_points() : mesh.n_cells();
    for (auto& c : d->children) {
      if (c.name != "DataArray") continue;
      array_reader a(file, xml, c, hs);
      read_field(a, n, points ? H1(mesh) : L2(mesh), mesh);
    }
  }
}

/// Checks that `count * comps` values of the element could fit the file before allocating.
void check_plausible(const vtk_file& file, const array_reader& a, index_t count) {
  std::size_t bytes = 0;
  if (__builtin_mul_overflow(static_cast<std::size_t>(count),
                             static_cast<std::size_t>(a.components()), &bytes) ||
      __builtin_mul_overflow(bytes, vtk_type_size(a.type()), &bytes) || bytes / 8 > file.size()) {
    a.fail("claims " + std::to_string(count) + " values of " + std::to_string(a.components()) +
           " components, more than the file of " + std::to_string(file.size()) + " bytes can hold");
  }
}

mesh read_file(const std::string& path) {
  vtk_file file(path);
  const auto& ctx = file.ctx();
  xml_parser xml(file.text(), ctx);
  const xml_element root = xml.parse();
  if (root.name != "VTKFile") ctx.fail("the root element is <" + root.name + ">, not <VTKFile>");
  const std::string* type = root.attr("type");
  if (!type) ctx.fail("<VTKFile> has no type");
  if (const std::string* bo = root.attr("byte_order"); bo && *bo != "LittleEndian") {
    ctx.fail("byte_order is " + *bo + "; tack reads LittleEndian files");
  }
  if (root.attr("compressor"))
    ctx.fail("the data is compressed (" + *root.attr("compressor") +
             "); tack reads uncompressed files");
  std::size_t hs = 4;
  if (const std::string* h = root.attr("header_type")) {
    if (*h == "UInt64")
      hs = 8;
    else if (*h != "UInt32")
      ctx.fail("header_type is " + *h + "; expected UInt32 or UInt64");
  }
  auto attach = [&]<class Mesh>(Mesh& m, const xml_element& piece) -> mesh {
    try {
      read_point_and_cell_data(file, xml, hs, piece, m);
    } catch (const value_error&) {
      throw;
    } catch (const error& e) {
      ctx.fail(e.what());
    }
    return mesh(std::move(m));
  };
  if (*type == "ImageData") {
    const xml_element& g = need(ctx, root, "ImageData");
    const auto ext = parse_extent(ctx, g, "WholeExtent");
    const vec3d origin = parse_vec3(ctx, g, "Origin", vec3d{0, 0, 0});
    const vec3d spacing = parse_vec3(ctx, g, "Spacing", vec3d{1, 1, 1});
    if (const std::string* dir = g.attr("Direction")) {
      std::string_view v = *dir;
      double m[9];
      for (int k = 0; k < 9; ++k) {
        v = trim(v);
        const auto sp = v.find_first_of(" \t\n\r");
        if (!parse_number(v.substr(0, sp), m[k]))
          ctx.fail("<ImageData> Direction=\"" + *dir + "\" is not 9 numbers");
        v = sp == std::string_view::npos ? std::string_view() : v.substr(sp);
      }
      for (int k = 0; k < 9; ++k)
        if (m[k] != (k % 4 == 0 ? 1.0 : 0.0))
          ctx.fail("<ImageData> has Direction=\"" + *dir +
                   "\"; tack reads axis-aligned images only");
    }
    const xml_element& piece = single_piece(ctx, g);
    if (piece.attr("Extent") && parse_extent(ctx, piece, "Extent") != ext)
      ctx.fail("the piece's Extent is not the WholeExtent");
    const std::array<index_t, 3> dims = {ext[1] - ext[0] + 1, ext[3] - ext[2] + 1,
                                         ext[5] - ext[4] + 1};
    vec3d o = origin;
    for (int d = 0; d < 3; ++d)
      o[d] += static_cast<double>(ext[static_cast<std::size_t>(2 * d)]) * spacing[d];
    std::optional<uniform_grid> m;
    try {
      if (static_cast<double>(dims[0]) * static_cast<double>(dims[1]) *
              static_cast<double>(dims[2]) >
          1e15)
        ctx.fail("WholeExtent is too large");
      m.emplace(dims, o, spacing);
    } catch (const value_error& e) {
      if (std::string(e.what()).find("read_vtk") != std::string::npos) throw;
      ctx.fail(e.what());
    }
    return attach(*m, piece);
  }
  if (*type == "RectilinearGrid") {
    const xml_element& g = need(ctx, root, "RectilinearGrid");
    const auto ext = parse_extent(ctx, g, "WholeExtent");
    const xml_element& piece = single_piece(ctx, g);
    const xml_element& coords = need(ctx, piece, "Coordinates");
    std::vector<const xml_element*> arrays;
    for (auto& c : coords.children)
      if (c.name == "DataArray") arrays.push_back(&c);
    if (arrays.size() != 3)
      ctx.fail("<Coordinates> has " + std::to_string(arrays.size()) + " DataArrays; expected 3");
    array<double> axes[3];
    for (int d = 0; d < 3; ++d) {
      array_reader a(file, xml, *arrays[static_cast<std::size_t>(d)], hs);
      const index_t n =
          ext[static_cast<std::size_t>(2 * d + 1)] - ext[static_cast<std::size_t>(2 * d)] + 1;
      if (a.components() != 1)
        a.fail("has " + std::to_string(a.components()) + " components; a coordinate array has 1");
      check_plausible(file, a, n);
      axes[d] = array_from(a.read_as<double>(static_cast<std::size_t>(n)));
    }
    std::optional<rectilinear_grid> m;
    try {
      m.emplace(axes[0], axes[1], axes[2]);
    } catch (const value_error& e) {
      ctx.fail(e.what());
    }
    return attach(*m, piece);
  }
  if (*type == "UnstructuredGrid") {
    const xml_element& g = need(ctx, root, "UnstructuredGrid");
    const xml_element& piece = single_piece(ctx, g);
    const index_t np = count_attr(ctx, piece, "NumberOfPoints");
    const index_t nc = count_attr(ctx, piece, "NumberOfCells");
    const xml_element& pts = need(ctx, piece, "Points");
    const xml_element* pa = pts.child("DataArray");
    if (!pa) ctx.fail("<Points> has no DataArray");
    array_reader p(file, xml, *pa, hs);
    if (p.components() != 3)
      p.fail("has " + std::to_string(p.components()) + " components; points have 3");
    check_plausible(file, p, np);
    std::variant<array<vec3f>, array<vec3d>> points;
    if (p.type() == "Float32") {
      auto a = tack::empty<vec3f>(np);
      if (np) p.read(reinterpret_cast<float*>(a.data()), static_cast<std::size_t>(np) * 3);
      points = a;
    } else if (p.type() == "Float64") {
      auto a = tack::empty<vec3d>(np);
      if (np) p.read(reinterpret_cast<double*>(a.data()), static_cast<std::size_t>(np) * 3);
      points = a;
    } else {
      auto v = p.read_as<double>(static_cast<std::size_t>(np) * 3);
      points = array_from_components<vec3d>(std::span<const double>(v));
    }
    const xml_element& cells = need(ctx, piece, "Cells");
    const xml_element *ce = nullptr, *oe = nullptr, *te = nullptr;
    for (auto& c : cells.children) {
      const std::string* n = c.attr("Name");
      if (c.name != "DataArray" || !n) continue;
      if (*n == "connectivity")
        ce = &c;
      else if (*n == "offsets")
        oe = &c;
      else if (*n == "types")
        te = &c;
    }
    if (!ce || !oe || !te)
      ctx.fail("<Cells> needs DataArrays named connectivity, offsets and types");
    array_reader oa(file, xml, *oe, hs), ta(file, xml, *te, hs), ca(file, xml, *ce, hs);
    check_plausible(file, oa, nc);
    check_plausible(file, ta, nc);
    auto ends = oa.read_as<index_t>(static_cast<std::size_t>(nc));
    auto types = ta.read_as<std::int64_t>(static_cast<std::size_t>(nc));
    const index_t nconn = nc ? ends.back() : 0;
    if (nconn < 0) oa.fail("ends at " + std::to_string(nconn));
    check_plausible(file, ca, nconn);
    auto conn = ca.read_as<index_t>(static_cast<std::size_t>(nconn));
    std::vector<index_t> offsets(static_cast<std::size_t>(nc) + 1, 0);
    std::copy(ends.begin(), ends.end(), offsets.begin() + 1);
    for (std::size_t i = 0; i < types.size(); ++i) {
      if (types[i] < 0 || types[i] > 255 || cell_type_points(static_cast<int>(types[i])) == 0) {
        ta.fail("cell " + std::to_string(i) + " has cell type " + std::to_string(types[i]) + " (" +
                cell_type_name(static_cast<int>(types[i])) +
                "), which tack does not read; supported: " + supported_cell_types());
      }
    }
    std::vector<std::uint8_t> t8(types.begin(), types.end());
    std::optional<unstructured_grid> m;
    try {
      std::visit(
          [&](const auto& pp) {
            m.emplace(pp, array_from(conn), array_from(offsets), array_from(t8));
          },
          points);
    } catch (const value_error& e) {
      ctx.fail(e.what());
    }
    return attach(*m, piece);
  }
  ctx.fail("VTKFile type \"" + *type + "\" is not ImageData, RectilinearGrid or UnstructuredGrid");
}

}  // namespace

void write_vtk(const uniform_grid& mesh, const std::string& path, const vtk_options& options) {
  check_extension(path, ".vti", "uniform_grid");
  output_file out(path, "write_vtk");
  vtk_writer w(out, options);
  const auto d = mesh.point_dims();
  const vec3d o = mesh.origin(), s = mesh.spacing();
  out.put(file_head("ImageData", w));
  out.put("  <ImageData WholeExtent=\"" + extent_string(d) + "\" Origin=\"" + num(o[0]) + " " +
          num(o[1]) + " " + num(o[2]) + "\" Spacing=\"" + num(s[0]) + " " + num(s[1]) + " " +
          num(s[2]) + "\" Direction=\"1 0 0 0 1 0 0 0 1\">\n");
  out.put("    <Piece Extent=\"" + extent_string(d) + "\">\n");
  write_fields(w, out, mesh);
  out.put("    </Piece>\n  </ImageData>\n");
  w.finish();
  out.commit();
}

void write_vtk(const rectilinear_grid& mesh, const std::string& path, const vtk_options& options) {
  check_extension(path, ".vtr", "rectilinear_grid");
  output_file out(path, "write_vtk");
  vtk_writer w(out, options);
  const auto d = mesh.point_dims();
  out.put(file_head("RectilinearGrid", w));
  out.put("  <RectilinearGrid WholeExtent=\"" + extent_string(d) + "\">\n");
  out.put("    <Piece Extent=\"" + extent_string(d) + "\">\n");
  write_fields(w, out, mesh);
  out.put("      <Coordinates>\n");
  const char* names[3] = {"x", "y", "z"};
  for (int k = 0; k < 3; ++k) w.data_array("        ", array_of(names[k], mesh.axis(k)));
  out.put("      </Coordinates>\n    </Piece>\n  </RectilinearGrid>\n");
  w.finish();
  out.commit();
}

void write_vtk(const unstructured_grid& mesh, const std::string& path, const vtk_options& options) {
  check_extension(path, ".vtu", "unstructured_grid");
  output_file out(path, "write_vtk");
  vtk_writer w(out, options);
  out.put(file_head("UnstructuredGrid", w));
  out.put("  <UnstructuredGrid>\n    <Piece NumberOfPoints=\"" + std::to_string(mesh.n_points()) +
          "\" NumberOfCells=\"" + std::to_string(mesh.n_cells()) + "\">\n");
  write_fields(w, out, mesh);
  out.put("      <Points>\n");
  std::visit([&](const auto& p) { w.data_array("        ", array_of("Points", p)); },
             mesh.points());
  out.put("      </Points>\n      <Cells>\n");
  w.data_array("        ", array_of("connectivity", mesh.connectivity()));
  const auto off = mesh.offsets();
  w.data_array("        ", array_of("offsets", off.rows(1, off.size())));
  w.data_array("        ", array_of("types", mesh.cell_types()));
  out.put("      </Cells>\n    </Piece>\n  </UnstructuredGrid>\n");
  w.finish();
  out.commit();
}

mesh read_vtk(const std::string& path) { return read_file(path); }

void write_pvd(const std::string& path, const std::vector<pvd_entry>& entries) {
  output_file out(path, "write_pvd");
  out.put(
      "<?xml version=\"1.0\"?>\n<VTKFile type=\"Collection\" version=\"0.1\" "
      "byte_order=\"LittleEndian\">\n  <Collection>\n");
  for (const auto& e : entries) {
    out.put("    <DataSet timestep=\"" + num(e.time) + "\" group=\"\" part=\"" +
            std::to_string(e.part) + "\" file=\"" + xml_escape(e.file) + "\"/>\n");
  }
  out.put("  </Collection>\n</VTKFile>\n");
  out.commit();
}

}  // namespace tack::dataset
