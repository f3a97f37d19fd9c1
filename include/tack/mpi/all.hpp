// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
#pragma once
/// @file Every header of `tack::mpi` (link `tack::mpi`). `#include <tack/mpi/all.hpp>`

#include <tack/mpi/amr.hpp>
#include <tack/mpi/collectives.hpp>
#include <tack/mpi/communicator.hpp>
#include <tack/mpi/distributed_array.hpp>
#include <tack/mpi/grid.hpp>
#include <tack/mpi/native.hpp>
#include <tack/mpi/partition.hpp>
#include <tack/mpi/reduce.hpp>
