// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
#pragma once
/// @file The kinds of scalar atomic operation each target implements (exec/atomic.hpp).

namespace tack::detail {

/// The kinds of atomic operations (one implementation per kind and target).
enum class atomic_kind { add, min, max, exchange };

}  // namespace tack::detail
