// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
#pragma once
// Base64 (RFC 4648 alphabet, '=' padding) as VTK's XML files use it: a streaming encoder, and a
// decoder that reads quartet by quartet so that one continuous encoding and separately padded parts
// decode alike.

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>
#include <utility>

namespace tack::detail {

/// Streams bytes into base64 text handed to `sink` in blocks (one continuous encoding across
/// `put` calls, as VTK writes header and data). `finish()` writes the last, padded quartet.
/// `base64_encoder enc(sink); enc.put(&header, 8); enc.put(data, n); enc.finish();`
class base64_encoder {
public:
  using sink = std::function<void(const char*, std::size_t)>;
  explicit base64_encoder(sink out) : out_(std::move(out)) {}
  void put(const void* data, std::size_t n);
  void finish();

private:
  void emit(const unsigned char* b, int n);
  sink out_;
  unsigned char carry_[3] = {};
  int held_ = 0;
  std::string text_;
};

/// Decodes base64 text into bytes on request. Whitespace is skipped; '<' or '_' ends the text (the
/// next tag, or the marker of VTK's appended data). A malformed text stops the decoding and says
/// why in `error()`.
/// `base64_decoder d(text); if (d.read(&header, 8) < 8 || !d.error().empty()) ...`
class base64_decoder {
public:
  explicit base64_decoder(std::string_view text) : text_(text) {}
  /// Decodes up to `n` bytes into `dst`; returns how many it wrote (fewer when the text ends or
  /// is malformed). Bytes of a quartet past `n` are kept for the next call.
  std::size_t read(void* dst, std::size_t n);
  /// Empty, or what is wrong with the text ("has malformed base64 padding").
  const std::string& error() const { return error_; }

private:
  std::string_view text_;
  std::size_t pos_ = 0;
  int quartet_[4] = {};
  int in_quartet_ = 0;
  unsigned char pending_[3] = {};
  int pending_at_ = 0, pending_end_ = 0;
  std::string error_;
};

}  // namespace tack::detail
