// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
#pragma once
/// @file Distributed arrays over MPI (`tack::mpi`, library target `tack::mpi`); not part of
/// `tack/tack.hpp`, since MPI is optional. `#include <tack/mpi.hpp>`

#include <tack/mpi/all.hpp>
