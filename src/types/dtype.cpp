// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
// The non-template parts of tack::dtype: parsing names and the error paths of its factories.

#include <tack/core/error.hpp>
#include <tack/types/dtype.hpp>

#include <optional>
#include <string>
#include <string_view>

namespace tack {

namespace detail {

void throw_bad_scalar_kind(const char* operation, int kind) {
  throw value_error(std::string(operation) + ": scalar kind " + std::to_string(kind) +
                    " is not a tack::scalar_kind (0 to " + std::to_string(scalar_kind_count - 1) +
                    ")");
}

void throw_bad_vector_length(int length) {
  if (length < 1) {
    throw value_error("tack::dtype::vector: length " + std::to_string(length) +
                      " must be at least 1");
  }
  throw value_error("tack::dtype::vector: length " + std::to_string(length) + " is above " +
                    std::to_string(dtype_runtime_vector_max) +
                    ", the longest vector a run-time dtype can name; use "
                    "tack::dtype_of<tack::vec<T, " +
                    std::to_string(length) + ">>() for longer vectors");
}

void throw_bad_matrix_shape(int rows, int cols) {
  throw value_error("tack::dtype::matrix: shape " + std::to_string(rows) + "x" +
                    std::to_string(cols) + " is outside 1..4 x 1..4");
}

}  // namespace detail

namespace {

std::optional<scalar_kind> parse_scalar_kind(std::string_view text) {
  for (int k = 0; k < scalar_kind_count; ++k) {
    const auto kind = static_cast<scalar_kind>(k);
    if (text == scalar_kind_name(kind)) {
      return kind;
    }
  }
  return std::nullopt;
}

// Reads a positive decimal number without sign or leading zero at the front of `text`, consuming
// it; nullopt when there is none or it exceeds `limit` (the caller reports the value as text).
std::optional<int> take_count(std::string_view& text, int limit) {
  std::size_t n = 0;
  while (n < text.size() && text[n] >= '0' && text[n] <= '9') {
    ++n;
  }
  if (n == 0 || text[0] == '0' || n > 9) {
    return std::nullopt;
  }
  int value = 0;
  for (std::size_t i = 0; i < n; ++i) {
    value = value * 10 + (text[i] - '0');
  }
  if (value > limit) {
    return std::nullopt;
  }
  text.remove_prefix(n);
  return value;
}

[[noreturn]] void throw_parse_error(std::string_view text, const char* why) {
  throw value_error("tack::dtype::parse: \"" + std::string(text) + "\" is not a dtype name (" +
                    why +
                    "); expected a scalar (f32, f64, i8, i16, i32, i64, u8, u16, u32, u64, bool), "
                    "vecN(scalar) with N in 1.." +
                    std::to_string(detail::dtype_runtime_vector_max) +
                    ", matN(scalar) or matRxC(scalar) with R, C in 1..4");
}

}  // namespace

dtype dtype::parse(std::string_view text) {
  if (auto k = parse_scalar_kind(text)) {
    return dtype(*k);
  }
  std::string_view rest = text;
  const bool is_vec = rest.substr(0, 3) == "vec";
  const bool is_mat = rest.substr(0, 3) == "mat";
  if (!is_vec && !is_mat) {
    throw_parse_error(text, "unknown scalar, and no vec or mat prefix");
  }
  rest.remove_prefix(3);
  const int limit = is_vec ? detail::dtype_runtime_vector_max : 4;
  const auto rows = take_count(rest, limit);
  if (!rows) {
    throw_parse_error(text, is_vec ? "the vector length is missing or out of range"
                                   : "the matrix rows are missing or out of range");
  }
  int cols = is_vec ? 1 : *rows;
  if (is_mat && !rest.empty() && rest.front() == 'x') {
    rest.remove_prefix(1);
    const auto c = take_count(rest, 4);
    if (!c) {
      throw_parse_error(text, "the matrix columns are missing or out of range");
    }
    cols = *c;
  }
  if (rest.size() < 2 || rest.front() != '(' || rest.back() != ')') {
    throw_parse_error(text, "the scalar must follow in parentheses, as in vec3(f32)");
  }
  const auto kind = parse_scalar_kind(rest.substr(1, rest.size() - 2));
  if (!kind) {
    throw_parse_error(text, "unknown scalar in parentheses");
  }
  return is_vec ? vector(*kind, *rows) : matrix(*kind, *rows, cols);
}

}  // namespace tack
