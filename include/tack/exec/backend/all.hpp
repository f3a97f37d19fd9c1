// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
#pragma once
/// @file Every backend this translation unit can use: serial always, OpenMP when tack is built
/// with it, CUDA in a CUDA build and only under nvcc (its kernels are templates only nvcc compiles).

#include <tack/config.hpp>

#include <tack/exec/backend/serial/parallel_for.hpp>
#include <tack/exec/backend/serial/parallel_reduce.hpp>
#include <tack/exec/backend/serial/parallel_scan.hpp>

#if TACK_HAS_OPENMP
#include <tack/exec/backend/openmp/parallel_for.hpp>
#include <tack/exec/backend/openmp/parallel_reduce.hpp>
#include <tack/exec/backend/openmp/parallel_scan.hpp>
#endif

#if TACK_HAS_CUDA && defined(__CUDACC__)
#include <tack/exec/backend/cuda/parallel_for.hpp>
#include <tack/exec/backend/cuda/parallel_reduce.hpp>
#include <tack/exec/backend/cuda/parallel_scan.hpp>
#endif
