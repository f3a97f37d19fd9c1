// SPDX-License-Identifier: BSD-3-Clause
// SPDX-FileCopyrightText: tack contributors
#pragma once
/// @file The umbrella header: `#include <tack/tack.hpp>` gives the whole public API.

#include <tack/config.hpp>
#include <tack/core/concepts.hpp>
#include <tack/core/error.hpp>
#include <tack/core/index.hpp>
#include <tack/core/kernel_form.hpp>
#include <tack/core/layout.hpp>
#include <tack/core/macros.hpp>
#include <tack/core/precondition.hpp>
#include <tack/core/slice.hpp>

#include <tack/types/dtype.hpp>
#include <tack/types/format.hpp>
#include <tack/types/item.hpp>
#include <tack/types/mat.hpp>
#include <tack/types/scalar.hpp>
#include <tack/types/vec.hpp>

#include <tack/memory/allocator.hpp>
#include <tack/memory/buffer.hpp>
#include <tack/memory/device.hpp>
#include <tack/memory/memory_space.hpp>

#include <tack/array/any_array.hpp>
#include <tack/array/array.hpp>
#include <tack/array/copyto.hpp>
#include <tack/array/factories.hpp>
#include <tack/array/format.hpp>
#include <tack/array/shape.hpp>
#include <tack/array/soa.hpp>
#include <tack/array/stack_array.hpp>

#include <tack/view/array_view.hpp>
#include <tack/view/extents.hpp>
#include <tack/view/layout.hpp>
#include <tack/view/make_view.hpp>
#include <tack/view/mdview.hpp>
#include <tack/view/soa_view.hpp>
#include <tack/view/view.hpp>

#include <tack/arrays/all.hpp>

#include <tack/algorithms/all.hpp>
#include <tack/interop/dlpack.hpp>
#include <tack/interop/dlpack_abi.hpp>

#include <tack/exec/atomic.hpp>
#include <tack/exec/backend.hpp>
#include <tack/exec/fence.hpp>
#include <tack/exec/launch.hpp>
#include <tack/exec/ops.hpp>
#include <tack/exec/parallel_for.hpp>
#include <tack/exec/parallel_reduce.hpp>
#include <tack/exec/parallel_scan.hpp>
#include <tack/exec/range.hpp>
#include <tack/exec/stream.hpp>
#include <tack/exec/threads.hpp>

#include <tack/dataset/all.hpp>
#include <tack/amr/all.hpp>
