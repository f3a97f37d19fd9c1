// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
#include "base64.hpp"

#include <algorithm>
#include <cctype>

namespace tack::detail {
namespace {

constexpr char b64_chars[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

int b64_value(unsigned char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '+') return 62;
  if (c == '/') return 63;
  return -1;
}

}  // namespace

void base64_encoder::put(const void* data, std::size_t n) {
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
    // Whole triples straight from the input, in blocks of 64 KiB of text.
    const std::size_t whole = n / 3 * 3;
    std::size_t i = 0;
    while (i < whole) {
      const std::size_t m = std::min<std::size_t>(whole - i, 3 * 16384);
      text_.resize(m / 3 * 4);
      char* t = text_.data();
      for (std::size_t k = 0; k < m; k += 3) {
        const unsigned v = (unsigned(p[i + k]) << 16) | (unsigned(p[i + k + 1]) << 8) | p[i + k + 2];
        *t++ = b64_chars[(v >> 18) & 63];
        *t++ = b64_chars[(v >> 12) & 63];
        *t++ = b64_chars[(v >> 6) & 63];
        *t++ = b64_chars[v & 63];
      }
      out_(text_.data(), text_.size());
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

void base64_encoder::finish() {
  if (held_ > 0) emit(carry_, held_);
  held_ = 0;
}

void base64_encoder::emit(const unsigned char* b, int n) {
  const unsigned v =
      (unsigned(b[0]) << 16) | (n > 1 ? unsigned(b[1]) << 8 : 0u) | (n > 2 ? b[2] : 0u);
  const char t[4] = {b64_chars[(v >> 18) & 63], b64_chars[(v >> 12) & 63],
                     n > 1 ? b64_chars[(v >> 6) & 63] : '=', n > 2 ? b64_chars[v & 63] : '='};
  out_(t, 4);
}

std::size_t base64_decoder::read(void* dst, std::size_t n) {
  auto* out = static_cast<unsigned char*>(dst);
  std::size_t got = 0;
  while (got < n && pending_at_ < pending_end_) out[got++] = pending_[pending_at_++];
  while (got < n && pos_ < text_.size() && error_.empty()) {
    const auto c = static_cast<unsigned char>(text_[pos_]);
    if (std::isspace(c)) {
      ++pos_;
      continue;
    }
    if (c == '<' || c == '_') {
      pos_ = text_.size();
      break;
    }
    const int v = c == '=' ? -2 : b64_value(c);
    if (v == -1) {
      error_ = "has a character that is not base64 at position " + std::to_string(pos_);
      break;
    }
    ++pos_;
    quartet_[in_quartet_++] = v;
    if (in_quartet_ < 4) continue;
    in_quartet_ = 0;
    const int* q = quartet_;
    if (q[0] < 0 || q[1] < 0 || (q[2] == -2 && q[3] != -2)) {
      error_ = "has malformed base64 padding";
      break;
    }
    const int k = q[2] == -2 ? 1 : (q[3] == -2 ? 2 : 3);
    const unsigned v24 = (unsigned(q[0]) << 18) | (unsigned(q[1]) << 12) |
                         (k > 1 ? unsigned(q[2]) << 6 : 0u) | (k > 2 ? unsigned(q[3]) : 0u);
    pending_[0] = static_cast<unsigned char>(v24 >> 16);
    pending_[1] = static_cast<unsigned char>(v24 >> 8);
    pending_[2] = static_cast<unsigned char>(v24);
    pending_at_ = 0;
    pending_end_ = k;
    while (got < n && pending_at_ < pending_end_) out[got++] = pending_[pending_at_++];
  }
  return got;
}

}  // namespace tack::detail
