// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
#pragma once
/// @file The exception hierarchy. Every refusal throws one of these with a message that
/// names the operation, the array (shape, dtype, device) and the offending value.

#include <stdexcept>
#include <string>

namespace tack {

/// Base of every tack exception. `try { ... } catch (const tack::error& e) { log(e.what()); }`
class error : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

/// A value is out of its domain: a bad shape, a ratio, mismatched sizes, mixed devices.
/// `throw tack::value_error("reshape: ...");`
class value_error : public error {
public:
  using error::error;
};

/// The element type or rank does not match what was asked (`any_array::as<T, Rank>()`).
class type_error : public error {
public:
  using error::error;
};

/// An index or a row range is outside what exists (host element access, a view after a shrink).
class index_error : public error {
public:
  using error::error;
};

/// A write was attempted into read-only memory (borrowed, imported read-only, `array<const T>`).
class read_only_error : public error {
public:
  using error::error;
};

/// A device is missing or failed (no GPU backend for it, a CUDA or HIP error, host access to device
/// memory).
class device_error : public error {
public:
  using error::error;
};

/// An allocation failed; nothing was leaked and the array that asked is unchanged.
class out_of_memory : public error {
public:
  using error::error;
};

}  // namespace tack
