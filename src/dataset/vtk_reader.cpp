// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
// The VTK XML reader of tack::dataset: read_vtk of ImageData, RectilinearGrid and
// UnstructuredGrid files (ASCII, inline base64, appended raw or base64 data arrays). The XML is
// read up to <AppendedData>; appended arrays are read with pread where they lie in the file.
#include "../io/base64.hpp"
#include "../io/xml.hpp"
#include "vtk_types.hpp"

#include <tack/dataset/vtk.hpp>

#include <tack/array/factories.hpp>
#include <tack/exec/parallel_for.hpp>
#include <tack/exec/threads.hpp>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cstdint>
#include <cstring>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace tack::dataset {
namespace {

class reader_error_context {
public:
  explicit reader_error_context(std::string path) : path_(std::move(path)) {}
  [[noreturn]] void fail(const std::string& what) const { throw value_error(prefix() + what); }
  /// What every error about the file starts with.
  std::string prefix() const { return "tack::dataset::read_vtk: '" + path_ + "': "; }
  const std::string& path() const { return path_; }

private:
  std::string path_;
};

// ---- reading ---------------------------------------------------------------------------------

using tack::detail::xml_element;
using tack::detail::xml_parser;

std::string os_message(int err) { return std::strerror(err); }

/// Bytes per value of VTK type `t`; 0 for a type tack does not read.
std::size_t vtk_type_size(std::string_view t) {
  const auto k = detail::vtk_scalar_kind(t);
  return k ? static_cast<std::size_t>(scalar_kind_size(*k)) : 0;
}

/// Calls `f.template operator()<S>()` with the C++ scalar of VTK type `t`; nothing for a type tack
/// does not read.
template <class F>
void with_vtk_scalar(std::string_view t, F&& f) {
  if (const auto k = detail::vtk_scalar_kind(t)) visit_scalar_kind(*k, f, detail::vtk_scalar_types{});
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
    if (!xml_.has_raw()) fail("is appended but the file has no <AppendedData>");
    const std::string* off = e_.attr("offset");
    std::size_t offset = 0;
    if (!off || !parse_number(trim(*off), offset)) fail("has no valid offset attribute");
    const std::string* enc = xml_.raw_element().attr("encoding");
    const std::string encoding = enc ? *enc : std::string("raw");
    if (encoding == "raw") {
      std::size_t at = 0;
      if (__builtin_add_overflow(xml_.raw_start(), offset, &at))
        fail("has an offset past the file");
      const std::size_t h = read_header_raw(at);
      if (h != nbytes)
        fail("holds " + std::to_string(h) + " bytes; expected " + std::to_string(nbytes));
      file_.pread_parallel(dst, nbytes, at + header_size_, "DataArray '" + name_ + "'");
    } else if (encoding == "base64") {
      const std::string& tail = file_.tail(xml_.raw_start());
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
    if (nbytes / 3 > text.size())
      fail("has too little base64 text for " + std::to_string(nbytes) + " bytes");
    tack::detail::base64_decoder decoder(text);
    unsigned char header[8] = {};
    const std::size_t header_got = decoder.read(header, header_size_);
    const std::size_t got = header_got == header_size_ ? decoder.read(dst, nbytes) : 0;
    if (!decoder.error().empty()) fail(decoder.error());
    if (got < nbytes) {
      fail("is truncated: its base64 text holds " + std::to_string(got) + " bytes; expected " +
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
  xml_parser xml(file.text(), ctx.prefix(), "AppendedData");
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

mesh read_vtk(const std::string& path) { return read_file(path); }

}  // namespace tack::dataset
