#include "hetflow/ftle/flow_map_kernels.hpp"

#include <array>
#include <cmath>
#include <cstring>

#include "hetflow/core/build_options.hpp"
#include "hetflow/core/kernel_args.hpp"
#include "hetflow/core/program.hpp"
#include "hetflow/ftle/field_args.hpp"
#include "hetflow/ftle/kernel_codes.hpp"

namespace hetflow::ftle {
namespace {

// One launch width per kernel and device, whatever the seed count, as the Solver does (kernel.hpp says
// why PoCL needs it); the kernels stride over their items.
constexpr std::size_t work_group = 64;
constexpr std::size_t groups_per_unit = 32;

}  // namespace

FlowMapKernels::FlowMapKernels(const core::DeviceSet& devices, const SeedGrid& seeds, const Config& config,
                               Interpolation composition)
    : queue_(&devices.compute(0)),
      global_(core::strided_range(devices.device(0).info, work_group, groups_per_unit)),
      local_(work_group),
      precision_(config.precision),
      seeds_(seeds.size()) {
  const core::Context& ctx = devices.context(0);
  core::BuildOptions options(config.precision);
  options.define("DIM", seeds.dimension).define("FLOW", flow_grid).define("INTEGRATOR", 1);
  options.define("BOUNDARY", boundary_clamp);
  if (composition == Interpolation::m4prime) options.define("INTERP_M4", 1);
  const std::size_t reals = seeds.size() * static_cast<std::size_t>(seeds.dimension);
  if (reals >= (std::size_t{1} << 31)) options.define("VELOCITY_INDEX64", 1);  // see ftle.cl
  const core::Program& program = ctx.program("ftle/flow_map.cl", options);
  start_ = program.kernel("flow_map_start");
  compose_ = program.kernel("flow_map_compose");
  chain_ = program.kernel("flow_map_chain");
  field_ = program.kernel("ftle_field");
  ftle_ = core::Buffer<std::uint8_t>(ctx, seeds_ * (config.precision == core::Precision::f64 ? 8 : 4));

  const auto count = static_cast<cl_uint>(seeds_);
  const std::array<double, 3> inverse{1.0 / seeds.spacing[0], 1.0 / seeds.spacing[1], 1.0 / seeds.spacing[2]};
  // flow_map_start: pos, disp (set per launch), count, seeds, ox, oy, oz, hx, hy, hz.
  core::KernelArgs start(start_, precision_);
  start.skip(2).add(count).add(seed_dims(seeds)).reals(seeds.origin).reals(seeds.spacing);
  // flow_map_compose: in, out, disp (set per launch), count, seeds, ox, oy, oz, inv_hx, inv_hy, inv_hz.
  core::KernelArgs compose(compose_, precision_);
  compose.skip(3).add(count).add(seed_dims(seeds)).reals(seeds.origin).reals(inverse);
  // flow_map_chain: first, second, out (set per launch), count, seeds, ox, oy, oz, hx, hy, hz, inv_hx,
  // inv_hy, inv_hz, positions (set per launch).
  core::KernelArgs chain(chain_, precision_);
  chain.skip(3).add(count).add(seed_dims(seeds)).reals(seeds.origin).reals(seeds.spacing).reals(inverse);
  chain_positions_ = chain.next();
  // ftle_field: pos (set per launch), ftle, FIELD_ARGS: every seed, one plane set, over |T|.
  core::KernelArgs field(field_, precision_);
  field.skip().add(ftle_);
  bind_field_args(field, seeds_, seeds, 0, 0);
  field.real(1.0 / std::abs(config.duration));
}

void FlowMapKernels::start(const core::Buffer<std::uint8_t>& positions, const core::Buffer<std::uint8_t>& map) {
  core::KernelArgs(start_, precision_).add(positions).add(map);
  start_.launch(*queue_, global_, local_);
}

void FlowMapKernels::compose(const core::Buffer<std::uint8_t>& in, const core::Buffer<std::uint8_t>& out,
                             const core::Buffer<std::uint8_t>& map) {
  core::KernelArgs(compose_, precision_).add(in).add(out).add(map);
  compose_.launch(*queue_, global_, local_);
}

void FlowMapKernels::chain(const core::Buffer<std::uint8_t>& first, const core::Buffer<std::uint8_t>& second,
                           const core::Buffer<std::uint8_t>& out, int positions) {
  core::KernelArgs(chain_, precision_).add(first).add(second).add(out);
  core::KernelArgs(chain_, precision_, chain_positions_).add(cl_int{positions});
  chain_.launch(*queue_, global_, local_);
}

std::vector<double> FlowMapKernels::field(const core::Buffer<std::uint8_t>& positions) {
  core::KernelArgs(field_, precision_).add(positions);
  field_.launch(*queue_, global_, local_);
  const std::vector<std::uint8_t> bytes = ftle_.to_vector(*queue_);
  std::vector<double> f(seeds_);
  for (std::size_t i = 0; i < seeds_; ++i) {
    if (precision_ == core::Precision::f64) {
      std::memcpy(&f[i], bytes.data() + 8 * i, 8);
    } else {
      float v;
      std::memcpy(&v, bytes.data() + 4 * i, 4);
      f[i] = v;
    }
  }
  return f;
}

}  // namespace hetflow::ftle
