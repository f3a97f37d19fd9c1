// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
#pragma once
/// @file Every algorithm that lives in `tack/algorithms/`: reductions, statistics,
/// scans and sorts. (`fill` and `copyto` are members / functions of `tack::array`, in array/.)
/// `#include <tack/algorithms/all.hpp>  float s = tack::sum(a);`

#include <tack/algorithms/reduce.hpp>
#include <tack/algorithms/scan.hpp>
#include <tack/algorithms/sort.hpp>
#include <tack/algorithms/statistics.hpp>
