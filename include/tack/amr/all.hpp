// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
#pragma once
/// @file `tack::amr`: block-structured AMR level buffers (docs/amr.md).

#include <tack/amr/baseline.hpp>
#include <tack/amr/box.hpp>
#include <tack/amr/hierarchy.hpp>
#include <tack/amr/level.hpp>
#include <tack/amr/operations.hpp>
#include <tack/amr/synthetic.hpp>
#include <tack/amr/vtk.hpp>
