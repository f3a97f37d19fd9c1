// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
#pragma once
/// @file The headers most kernels compiled from Python use: the runtime of Python's semantics,
/// both kernel views and the atomics. One header, so that it can be precompiled once per compiler
/// and flags (the kernel cache keeps it beside the variants) and loaded ahead of a variant's own
/// includes, which it makes no-ops.
///
/// `#include <tack/pykernel/prelude.hpp>`

#include <tack/pykernel/runtime.hpp>

#include <tack/exec/atomic.hpp>
#include <tack/view/soa_view.hpp>
#include <tack/view/view.hpp>
