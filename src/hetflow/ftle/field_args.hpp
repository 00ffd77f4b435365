#pragma once
#include <cstddef>

#include "hetflow/core/kernel_args.hpp"
#include "hetflow/ftle/seed_grid.hpp"

namespace hetflow::ftle {

// The seed grid's node counts as the kernels' `int4 seeds`.
cl_int4 seed_dims(const SeedGrid& seeds);

// Binds FIELD_ARGS (ftle.cl) up to inv_duration, which comes next: `count` own seeds from global plane
// `own_plane`, positions held from global plane `first_plane` on.
void bind_field_args(core::KernelArgs& args, std::size_t count, const SeedGrid& seeds, std::size_t first_plane,
                     std::size_t own_plane);

}  // namespace hetflow::ftle
