#include "hetflow/ftle/field_args.hpp"

namespace hetflow::ftle {

cl_int4 seed_dims(const SeedGrid& seeds) {
  return cl_int4{{static_cast<cl_int>(seeds.counts[0]), static_cast<cl_int>(seeds.counts[1]),
                  static_cast<cl_int>(seeds.counts[2]), 1}};
}

void bind_field_args(core::KernelArgs& args, std::size_t count, const SeedGrid& seeds, std::size_t first_plane,
                     std::size_t own_plane) {
  args.add(static_cast<cl_uint>(count)).add(seed_dims(seeds));
  args.add(static_cast<cl_int>(first_plane)).add(static_cast<cl_int>(own_plane)).reals(seeds.spacing);
}

}  // namespace hetflow::ftle
