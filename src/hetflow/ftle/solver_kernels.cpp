// The arguments of ftle.cl's kernels, bound in the order of their parameter lists.
#include "hetflow/core/program.hpp"
#include "hetflow/ftle/field_args.hpp"
#include "hetflow/ftle/solver.hpp"

namespace hetflow::ftle {

void Solver::bind_kernels(Part& p, std::size_t k, const core::Program& program) const {
  p.seed = program.kernel("ftle_seed");
  p.advect = program.kernel("ftle_advect");
  p.field = program.kernel("ftle_field");
  p.field_min = program.kernel("ftle_field_min");
  p.velocity = program.kernel("ftle_velocity");  // bound by velocity_at()
  p.direction = program.kernel("ftle_field_direction");

  // ftle_seed: pos, status, count, first_seed, seeds, ox, oy, oz, hx, hy, hz, and for adaptive integrators
  // step_size and substeps.
  core::KernelArgs seed(p.seed, config_.precision);
  seed.add(p.positions).add(p.status).add(static_cast<cl_uint>(tracers(p)));
  seed.add(static_cast<cl_ulong>(p.first * seeds_.plane())).add(seed_dims(seeds_));
  seed.reals(seeds_.origin).reals(seeds_.spacing);
  if (adaptive(config_.integrator)) seed.add(p.step_size).add(p.substeps);

  // ftle_advect: pos, status, count, the launch's steps (set_steps()), VELOCITY_SOURCE_ARGS, under freeze
  // exit_fraction, and for adaptive integrators step_size, substeps, rtol and atol.
  core::KernelArgs advect(p.advect, config_.precision);
  advect.add(p.positions).add(p.status).add(static_cast<cl_uint>(tracers(p)));
  p.at.steps = advect.next();
  advect.skip(4);
  bind_velocity_source(advect, k, velocity_->buffer(k));
  if (freeze_) advect.add(p.exits);
  if (adaptive(config_.integrator))
    advect.add(p.step_size).add(p.substeps).real(config_.rtol).real(config_.atol);

  // ftle_field: pos, ftle, FIELD_ARGS, inv_duration set per call.
  const std::size_t own = p.own_planes * seeds_.plane();
  core::KernelArgs field(p.field, config_.precision);
  field.add(p.positions).add(p.ftle);
  bind_field_args(field, own, seeds_, p.first, p.own0);
  p.at.field_duration = field.next();

  // ftle_field_min: as ftle_field.
  core::KernelArgs field_min(p.field_min, config_.precision);
  field_min.add(p.positions).add(p.ftle);
  bind_field_args(field_min, own, seeds_, p.first, p.own0);
  p.at.field_min_duration = field_min.next();

  // ftle_field_direction: pos, ftle, direction (set per call), FIELD_ARGS, inv_duration set per call.
  core::KernelArgs direction(p.direction, config_.precision);
  direction.add(p.positions).add(p.ftle);
  p.at.direction_out = direction.next();
  direction.skip();
  bind_field_args(direction, own, seeds_, p.first, p.own0);
  p.at.direction_duration = direction.next();
}

// VELOCITY_SOURCE_ARGS: params, velocity, times, snapshots, dims.
void Solver::bind_velocity_source(core::KernelArgs& args, std::size_t k,
                                  const core::Buffer<std::uint8_t>& velocity) const {
  args.add(params_->buffer(k)).add(velocity).add(times_->buffer(k)).add(snapshots_).add(grid_dims_);
}

// ftle_advect's t_start, dt, steps, first_step.
void Solver::set_steps(Part& p, long first, long count) const {
  core::KernelArgs(p.advect, config_.precision, p.at.steps)
      .real(config_.t0)
      .real(dt())
      .add(static_cast<cl_uint>(count))
      .add(static_cast<cl_uint>(first));
}

}  // namespace hetflow::ftle
