// Reading a Solver's results back: tracer failures, the flow map, the FTLE fields (largest and smallest
// exponent), stretch directions, stopped tracers, boundary hits and exit times, and the velocity the
// tracers see.
#include <algorithm>
#include <cmath>
#include <limits>

#include "hetflow/ftle/kernel_codes.hpp"
#include "hetflow/ftle/messages.hpp"
#include "hetflow/ftle/solver.hpp"
#include "hetflow/ftle/streaming.hpp"

namespace hetflow::ftle {

std::vector<double> Solver::first_failure() const {
  for (std::size_t k = 0; k < parts_.size(); ++k) {
    const Part& p = parts_[k];
    const std::vector<cl_uint2> status = p.status.to_vector(devices_->compute(k));
    for (std::size_t i = 0; i < status.size(); ++i) {
      const cl_uint code = status[i].s[0] & tracer_code_bits;
      if (code == 0 || code == tracer_stopped) continue;
      std::vector<std::uint8_t> bytes(static_cast<std::size_t>(dimension()) * real_bytes());
      p.positions.read(devices_->compute(k), bytes, i * bytes.size());
      // Doubles hold seed indices (below 2^53), codes and steps exactly.
      std::vector<double> failure{static_cast<double>(p.first * seeds_.plane() + i), static_cast<double>(code),
                                  static_cast<double>(status[i].s[1])};
      const std::vector<double> where = to_doubles(bytes);
      failure.insert(failure.end(), where.begin(), where.end());
      return failure;
    }
  }
  return {};
}

void Solver::check_tracers() const {
  std::vector<double> failure = first_failure();
  if (link_) {
    // Every process throws the same error, for the first failed seed of all, so that none goes on alone
    // into a collective that the others left.
    for (const std::vector<double>& other : link_->all_gather(failure)) {
      if (!other.empty() && (failure.empty() || other[0] < failure[0])) failure = other;
    }
  }
  if (failure.empty()) return;
  const auto seed = static_cast<std::size_t>(failure[0]);
  const auto code = static_cast<cl_uint>(failure[1]);
  const auto step = static_cast<long>(failure[2]);
  std::vector<double> start;
  std::string index;
  for (int d = 0; d < dimension(); ++d) {
    const std::size_t stride = d == 0 ? 1 : d == 1 ? seeds_.counts[0] : seeds_.counts[0] * seeds_.counts[1];
    const std::size_t id = seed / stride % seeds_.counts[static_cast<std::size_t>(d)];
    start.push_back(seeds_.position(d, id));
    index += (d ? ", " : "") + std::to_string(id);
  }
  const double t = config_.t0 + static_cast<double>(step) * dt();
  throw TracerError("tracer of seed " + std::to_string(seed) + " (grid index (" + index + "), started at " +
                        point(start) + "): " +
                        (code == tracer_bad_velocity       ? "the velocity is not finite"
                         : code == tracer_step_underflow ? "the error control needed a substep below the time's "
                                                           "resolution, or over 100000 substeps in one step (rtol "
                                                           "and atol too tight for the precision, or the velocity "
                                                           "too fast or not smooth there)"
                                                         : "the position is not finite") +
                        " in the step from t = " + number(t) + " at " + point(std::span(failure).subspan(3)),
                    seed, step + 1);
}

void Solver::gather(std::vector<double>& whole, std::size_t per_seed) const {
  if (!link_) return;
  // A process's parts are consecutive, so its own seeds are one piece of the array.
  const std::size_t own0 = parts_.empty() ? 0 : parts_.front().own0;
  const std::size_t end = parts_.empty() ? 0 : parts_.back().own0 + parts_.back().own_planes;
  const std::size_t plane_bytes = seeds_.plane() * per_seed * sizeof(double);
  link_->gather(std::as_writable_bytes(std::span(whole)), own0 * plane_bytes, (end - own0) * plane_bytes);
}

std::vector<double> Solver::flow_map() const {
  check_tracers();
  const std::size_t plane = seeds_.plane() * static_cast<std::size_t>(dimension());
  std::vector<double> out(seeds_.size() * static_cast<std::size_t>(dimension()));
  for (std::size_t k = 0; k < parts_.size(); ++k) {
    const Part& p = parts_[k];
    std::vector<std::uint8_t> bytes(p.own_planes * plane * real_bytes());
    p.positions.read(devices_->compute(k), bytes, (p.own0 - p.first) * plane * real_bytes());
    const std::vector<double> own = to_doubles(bytes);
    std::copy(own.begin(), own.end(), out.begin() + static_cast<std::ptrdiff_t>(p.own0 * plane));
  }
  gather(out, static_cast<std::size_t>(dimension()));
  return out;
}

std::vector<double> Solver::ftle() const { return exponent_field(false); }

std::vector<double> Solver::ftle_min() const { return exponent_field(true); }

std::vector<double> Solver::exponent_field(bool smallest) const {
  if (step_ == 0) throw core::Error("no FTLE before the first step: the integration time is zero");
  check_tracers();
  const double elapsed = std::abs(static_cast<double>(step_) * dt());
  std::vector<double> out(seeds_.size());
  for (std::size_t k = 0; k < parts_.size(); ++k) {
    const Part& p = parts_[k];
    core::Kernel& kernel = smallest ? p.field_min : p.field;
    core::KernelArgs(kernel, config_.precision, smallest ? p.at.field_min_duration : p.at.field_duration)
        .real(1.0 / elapsed);
    kernel.launch(devices_->compute(k), launch_range(devices_->device(k)), local());
    const std::vector<double> values = to_doubles(p.ftle.to_vector(devices_->compute(k)));
    std::copy(values.begin(), values.end(), out.begin() + static_cast<std::ptrdiff_t>(p.own0 * seeds_.plane()));
  }
  gather(out, 1);
  return out;
}

std::vector<double> Solver::stretch_direction() const {
  if (step_ == 0) throw core::Error("no stretch direction before the first step: the integration time is zero");
  check_tracers();
  const double elapsed = std::abs(static_cast<double>(step_) * dt());
  const std::size_t dim = static_cast<std::size_t>(dimension());
  std::vector<double> out(seeds_.size() * dim);
  for (std::size_t k = 0; k < parts_.size(); ++k) {
    const Part& p = parts_[k];
    const std::size_t own = p.own_planes * seeds_.plane();
    // Held only for the call: the solver's device memory (memory_plan) stays what it was.
    core::Buffer<std::uint8_t> direction(devices_->context(k), own * dim * real_bytes());
    core::KernelArgs(p.direction, config_.precision, p.at.direction_out).add(direction);
    core::KernelArgs(p.direction, config_.precision, p.at.direction_duration).real(1.0 / elapsed);
    p.direction.launch(devices_->compute(k), launch_range(devices_->device(k)), local());
    const std::vector<double> values = to_doubles(direction.to_vector(devices_->compute(k)));
    std::copy(values.begin(), values.end(), out.begin() + static_cast<std::ptrdiff_t>(p.own0 * seeds_.plane() * dim));
  }
  gather(out, dim);
  return out;
}

std::size_t Solver::count_tracers(cl_uint mask, cl_uint value) const {
  std::size_t n = 0;
  for (std::size_t k = 0; k < parts_.size(); ++k) {
    const Part& p = parts_[k];
    const std::vector<cl_uint2> status = p.status.to_vector(devices_->compute(k));
    // Count own seeds only: the neighbour planes are counted by their owner.
    const auto own = status.begin() + static_cast<std::ptrdiff_t>((p.own0 - p.first) * seeds_.plane());
    n += static_cast<std::size_t>(std::count_if(own, own + static_cast<std::ptrdiff_t>(p.own_planes * seeds_.plane()),
                                                [&](const cl_uint2& s) { return (s.s[0] & mask) == value; }));
  }
  if (!link_) return n;
  // Counts below 2^53 travel exactly as doubles.
  const auto mine = static_cast<double>(n);
  std::size_t total = 0;
  for (const std::vector<double>& count : link_->all_gather(std::span(&mine, 1)))
    total += static_cast<std::size_t>(count[0]);
  return total;
}

Solver::Substeps Solver::substeps() const {
  double counts[2] = {0, 0};  // below 2^53: exact as doubles
  for (std::size_t k = 0; k < parts_.size() && adaptive(config_.integrator); ++k) {
    const Part& p = parts_[k];
    const std::vector<cl_uint2> all = p.substeps.to_vector(devices_->compute(k));
    const auto own = all.begin() + static_cast<std::ptrdiff_t>((p.own0 - p.first) * seeds_.plane());
    for (auto s = own; s != own + static_cast<std::ptrdiff_t>(p.own_planes * seeds_.plane()); ++s) {
      counts[0] += s->s[0];
      counts[1] += s->s[1];
    }
  }
  if (link_) {
    const std::vector<std::vector<double>> every = link_->all_gather(counts);
    counts[0] = counts[1] = 0;
    for (const std::vector<double>& c : every) {
      counts[0] += c[0];
      counts[1] += c[1];
    }
  }
  return {static_cast<std::uint64_t>(counts[0]), static_cast<std::uint64_t>(counts[1])};
}

std::size_t Solver::stopped_tracers() const { return count_tracers(tracer_code_bits, tracer_stopped); }

std::size_t Solver::boundary_hits() const { return count_tracers(tracer_met_wall, tracer_met_wall); }

std::vector<double> Solver::exit_times() const {
  if (!freeze_)
    throw core::Error("no exit times: they are kept under boundary freeze with gridded velocity, and this solver has " +
                      (config_.boundary == Boundary::freeze ? std::string("an analytic flow")
                                                            : std::string("boundary ") + to_string(config_.boundary)));
  std::vector<double> out(seeds_.size(), 0.0);
  const std::size_t plane = seeds_.plane();
  for (std::size_t k = 0; k < parts_.size(); ++k) {
    const Part& p = parts_[k];
    const std::vector<cl_uint2> status = p.status.to_vector(devices_->compute(k));
    const std::vector<double> fraction = to_doubles(p.exits.to_vector(devices_->compute(k)));
    const std::size_t skip = (p.own0 - p.first) * plane;
    for (std::size_t i = 0; i < p.own_planes * plane; ++i) {
      const cl_uint2 s = status[skip + i];
      const bool left = (s.s[0] & tracer_code_bits) == tracer_stopped;
      out[p.own0 * plane + i] = left ? config_.t0 + (static_cast<double>(s.s[1]) + fraction[skip + i]) * dt()
                                     : std::numeric_limits<double>::quiet_NaN();
    }
  }
  gather(out, 1);
  return out;
}

std::vector<double> Solver::velocity_at(std::span<const double> points, double t) const {
  const std::size_t dim = static_cast<std::size_t>(dimension());
  if (points.size() % dim != 0)
    throw core::Error(std::to_string(points.size()) + " coordinates are not whole " + std::to_string(dim) + "D points");
  const std::size_t n = points.size() / dim;
  if (n == 0) return {};
  const core::Context& ctx = devices_->context(0);
  const core::Queue& q = devices_->compute(0);
  core::Buffer<std::uint8_t> in(ctx, points.size() * real_bytes()), out(ctx, points.size() * real_bytes());
  in.write(q, to_reals(points));
  core::Buffer<std::uint8_t> ring;  // streamed: the snapshots read at t, in their slots
  if (stream_) {
    const StepWindows::Range r = stream_->windows.around(t, t);
    if (r.size() > static_cast<long>(stream_->slots))
      throw core::Error("the velocity at t = " + number(t) + " reads more snapshots than the ring holds");
    ring = core::Buffer<std::uint8_t>(ctx, stream_->slots * stream_->snapshot_bytes);
    for (long u = r.lo; u <= r.hi; ++u) {
      const std::size_t slot = static_cast<std::size_t>(u) % stream_->slots;
      ring.write(q, stream_->pinned[static_cast<std::size_t>(u)].span(), slot * stream_->snapshot_bytes);
    }
  }
  // ftle_velocity: points, out, count, t, VELOCITY_SOURCE_ARGS.
  core::Kernel& k = parts_[0].velocity;
  core::KernelArgs args(k, config_.precision);
  args.add(in).add(out).add(static_cast<cl_uint>(n)).real(t);
  bind_velocity_source(args, 0, stream_ ? ring : velocity_->buffer(0));
  k.launch(q, launch_range(devices_->device(0)), local());
  return to_doubles(out.to_vector(q));
}

}  // namespace hetflow::ftle
