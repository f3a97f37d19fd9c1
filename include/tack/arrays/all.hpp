// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
#pragma once
/// @file Every implicit array of `tack::arrays` and the array expressions.
/// `#include <tack/arrays/all.hpp>`

#include <tack/arrays/cartesian_product.hpp>
#include <tack/arrays/cast.hpp>
#include <tack/arrays/components.hpp>
#include <tack/arrays/concatenate.hpp>
#include <tack/arrays/constant.hpp>
#include <tack/arrays/counting.hpp>
#include <tack/arrays/expressions.hpp>
#include <tack/arrays/extract_component.hpp>
#include <tack/arrays/function.hpp>
#include <tack/arrays/implicit.hpp>
#include <tack/arrays/permutation.hpp>
#include <tack/arrays/random.hpp>
#include <tack/arrays/strided.hpp>
#include <tack/arrays/transform.hpp>
#include <tack/arrays/uniform_coordinates.hpp>
#include <tack/arrays/view.hpp>
