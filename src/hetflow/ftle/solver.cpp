#include "hetflow/ftle/solver.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#include "hetflow/core/program.hpp"
#include "hetflow/ftle/kernel_codes.hpp"
#include "hetflow/ftle/messages.hpp"
#include "hetflow/ftle/seed_planes.hpp"
#include "hetflow/ftle/streaming.hpp"

namespace hetflow::ftle {
namespace {

constexpr std::size_t default_work_group = 64;
// Work-groups per compute unit in a launch: 32 x 64 = 2048 work-items, what an NVIDIA SM holds at once.
constexpr std::size_t default_groups_per_unit = 32;
// Tracers per work-item on CPUs for analytic flows: 8 doubles fill an AVX-512 register.
constexpr int cpu_lanes = 8;

void check_config(const Config& c) {
  if (!(c.duration != 0.0) || !std::isfinite(c.duration))
    throw core::Error("FTLE integration time T = " + number(c.duration) + ": expected a finite, non-zero time");
  if (!std::isfinite(c.t0)) throw core::Error("FTLE start time t0 = " + number(c.t0) + " is not finite");
  if (c.steps < 1 || c.steps > std::numeric_limits<cl_uint>::max())
    throw core::Error("FTLE step count " + std::to_string(c.steps) + ": expected 1 .. 2^32 - 1");
  const double finest = finest_rtol(c.precision);
  if (adaptive(c.integrator) && !(c.rtol >= finest && c.atol >= 0 && std::isfinite(c.rtol) && std::isfinite(c.atol)))
    throw core::Error("FTLE " + std::string(to_string(c.integrator)) + " tolerances rtol = " + number(c.rtol) +
                      ", atol = " + number(c.atol) + ": expected rtol >= " + number(finest) + " in " +
                      (c.precision == core::Precision::f64 ? "fp64" : "fp32") + " and a finite atol >= 0");
  if (c.groups_per_unit > 4096)
    throw core::Error("FTLE work-groups per compute unit " + std::to_string(c.groups_per_unit) + ": expected 0 .. 4096");
  for (const double u : c.free_stream) {
    if (!std::isfinite(u))
      throw core::Error("FTLE free-stream velocity " + point(c.free_stream) + ": expected finite components");
  }
}

bool has_free_stream(const Config& c) {
  return c.free_stream[0] != 0.0 || c.free_stream[1] != 0.0 || c.free_stream[2] != 0.0;
}

// What the kernel reads from the parameter buffer for gridded velocity: the grid's origin, inverse
// spacing and upper faces (a tracer's every stage compares with them: no division on the device), then
// the free stream when there is one (FREE_STREAM in ftle.cl).
std::vector<double> grid_parameters(const VelocityGrid& g, const Config& c) {
  std::vector<double> p{g.origin[0], g.origin[1], g.origin[2]};
  for (const double h : g.spacing) p.push_back(1.0 / h);
  for (int d = 0; d < 3; ++d) p.push_back(g.upper(d));
  if (has_free_stream(c)) p.insert(p.end(), c.free_stream.begin(), c.free_stream.end());
  return p;
}

// Gridded velocity: the seeds (unless periodic) and the time window must lie inside the data.
void check_against_grid(const VelocityGrid& g, const SeedGrid& s, const Config& c) {
  if (g.dimension != s.dimension)
    throw core::Error(std::to_string(s.dimension) + "D seeds in " + std::to_string(g.dimension) + "D velocity data");
  if (c.boundary != Boundary::periodic) {
    for (int d = 0; d < s.dimension; ++d) {
      const double lo = s.origin[static_cast<std::size_t>(d)], hi = s.position(d, s.counts[static_cast<std::size_t>(d)] - 1);
      const double slack = 1e-9 * g.spacing[static_cast<std::size_t>(d)];
      if (std::min(lo, hi) < g.origin[static_cast<std::size_t>(d)] - slack || std::max(lo, hi) > g.upper(d) + slack)
        throw core::Error("the seeds span [" + number(std::min(lo, hi)) + ", " + number(std::max(lo, hi)) + "] along " +
                          "xyz"[d] + ", outside the velocity data's [" + number(g.origin[static_cast<std::size_t>(d)]) +
                          ", " + number(g.upper(d)) + "]: expected seeds inside the data (or boundary periodic)");
    }
  }
  if (g.times.size() > 1) {
    const double a = std::min(c.t0, c.t0 + c.duration), b = std::max(c.t0, c.t0 + c.duration);
    const double slack = 1e-9 * (g.times.back() - g.times.front());
    if (a < g.times.front() - slack || b > g.times.back() + slack)
      throw core::Error("the integration window [" + number(a) + ", " + number(b) + "] leaves the velocity snapshots' [" +
                        number(g.times.front()) + ", " + number(g.times.back()) + "]: expected t0 and t0 + T inside it");
  }
}

}  // namespace

double finest_rtol(core::Precision precision) { return precision == core::Precision::f64 ? 1e-14 : 1e-6; }

Solver::Solver(Solver&&) = default;
Solver& Solver::operator=(Solver&&) = default;
Solver::~Solver() = default;

MemoryPlan Solver::memory_plan(const core::DeviceSet& devices, const AnalyticFlow& flow, const SeedGrid& seeds,
                               const Config& config, core::Link* processes) {
  check_config(config);
  seeds.check();
  return plan(devices, place_parts(devices, processes, config), kernel_parameters(flow).size(), nullptr, seeds, config);
}

MemoryPlan Solver::memory_plan(const core::DeviceSet& devices, const VelocityGrid& velocity, const SeedGrid& seeds,
                               const Config& config, core::Link* processes) {
  check_config(config);
  seeds.check();
  velocity.check("velocity data");
  return plan(devices, place_parts(devices, processes, config), grid_parameters(velocity, config).size(), &velocity, seeds,
              config);
}

Solver::Solver(const core::DeviceSet& devices, const AnalyticFlow& flow, const SeedGrid& seeds, const Config& config,
               core::Link* processes)
    : Solver(devices, kernel_code(flow), ftle::dimension(flow), kernel_parameters(flow), nullptr, seeds, config,
             processes) {}

Solver::Solver(const core::DeviceSet& devices, const VelocityGrid& velocity, const SeedGrid& seeds, const Config& config,
               core::Link* processes)
    : Solver(devices, flow_grid, velocity.dimension, grid_parameters(velocity, config), &velocity, seeds, config,
             processes) {}

Solver::Solver(const core::DeviceSet& devices, int flow_code, int velocity_dimension, std::vector<double> params,
               const VelocityGrid* grid, const SeedGrid& seeds, const Config& config, core::Link* processes)
    : devices_(&devices),
      link_(processes),
      seeds_(seeds),
      config_(config),
      freeze_(grid && config.boundary == Boundary::freeze) {
  check_config(config);
  seeds.check();
  if (velocity_dimension != seeds.dimension)
    throw core::Error(std::to_string(seeds.dimension) + "D seeds in a " + std::to_string(velocity_dimension) + "D flow");
  if (grid) {
    grid->check("velocity data");
    check_against_grid(*grid, seeds, config);
  } else if (has_free_stream(config)) {
    throw core::Error("FTLE free-stream velocity " + point(config.free_stream) +
                      " with an analytic flow: a free stream applies to gridded velocity only");
  }
  if (seeds.dimension == 2 && config.free_stream[2] != 0.0)
    throw core::Error("FTLE free-stream velocity " + point(config.free_stream) +
                      " in a 2D flow: expected a zero z component");
  // Every process checks the same inputs above, so all get here or all threw: the placement's collective
  // needs them all.
  const core::PartPlacement placement = place_parts(devices, processes, config);
  const core::Partition split = plane_split(placement, seeds, processes != nullptr);
  for (std::size_t k = 0; k < devices.size(); ++k) {
    if (config.precision == core::Precision::f64 && !devices.device(k).info.fp64)
      throw core::Error(devices.device(k).label() + " has no double precision: use precision fp32");
    if (local().size[0] > devices.device(k).info.max_work_group)
      throw core::Error("FTLE work-group " + std::to_string(local().size[0]) + ": " + devices.device(k).label() +
                        " takes at most " + std::to_string(devices.device(k).info.max_work_group));
  }

  // The velocity source on every device; an analytic flow binds one placeholder value.
  std::vector<double> times{0.0};
  if (grid) {
    times = grid->times;
    snapshots_ = static_cast<cl_uint>(grid->snapshots.size());
    grid_dims_ = cl_int4{{static_cast<cl_int>(grid->dims[0]), static_cast<cl_int>(grid->dims[1]),
                          static_cast<cl_int>(grid->dims[2]), 1}};
  }
  const auto mirror = [&](const std::vector<double>& host) {
    const std::vector<std::uint8_t> bytes = to_reals(host);
    auto m = std::make_unique<core::Mirror<std::uint8_t>>(devices, bytes.size());
    m->broadcast(bytes);
    return m;
  };
  memory_ = plan(devices, placement, params.size(), grid, seeds, config);
  params_ = mirror(params);
  times_ = mirror(times);
  // Snapshots go up one at a time from where they lie (in FP64 without a host copy).
  std::vector<std::uint8_t> scratch;
  if (memory_.streamed) {
    stream_ = std::make_unique<Stream>(memory_.slots, memory_.snapshot_bytes,
                                       StepWindows(grid->times, config.t0, dt(), config.precision));
    stream_->pinned.reserve(snapshots_);
    for (const std::span<const double> snapshot : grid->snapshots) {
      stream_->pinned.emplace_back(devices.transfer(0), memory_.snapshot_bytes);
      const std::span<const std::uint8_t> bytes = as_reals(snapshot, scratch);
      std::copy(bytes.begin(), bytes.end(), stream_->pinned.back().data());
    }
    stream_->rings.assign(devices.size(), std::vector<Stream::Slot>(memory_.slots));
    const StepWindows::Range a = stream_->windows.range(0), b = stream_->windows.range(config.steps - 1);
    stream_->first = stream_->windows.forward() ? a.lo : a.hi;
    stream_->last = stream_->windows.forward() ? b.hi : b.lo;
    velocity_ = std::make_unique<core::Mirror<std::uint8_t>>(devices, memory_.slots * memory_.snapshot_bytes);
  } else if (grid) {
    velocity_ = std::make_unique<core::Mirror<std::uint8_t>>(devices, memory_.slots * memory_.snapshot_bytes);
    for (std::size_t u = 0; u < grid->snapshots.size(); ++u)
      velocity_->broadcast(as_reals(grid->snapshots[u], scratch), u * memory_.snapshot_bytes);
  } else {
    velocity_ = mirror({0.0});
  }

  core::BuildOptions options(config.precision);
  options.define("DIM", seeds.dimension).define("FLOW", flow_code).define("INTEGRATOR", order(config.integrator));
  if (grid) {
    if (config.interpolation == Interpolation::m4prime) options.define("INTERP_M4", 1);
    options.define("BOUNDARY", static_cast<long long>(config.boundary));
    if (memory_.streamed) options.define("VELOCITY_SLOTS", static_cast<long long>(memory_.slots));
    if (has_free_stream(config)) options.define("FREE_STREAM", 1);
    // Real-valued offsets into the series (3D multiplies node indices by DIM) must fit in 31 bits.
    const std::size_t reals = memory_.slots * grid->nodes() * static_cast<std::size_t>(grid->dimension);
    if (reals >= (std::size_t{1} << 31)) options.define("VELOCITY_INDEX64", 1);
  }

  parts_.resize(devices.size());
  pending_.resize(devices.size());
  for (std::size_t k = 0; k < devices.size(); ++k) {
    Part& p = parts_[k];
    const PartPlanes planes = part_planes(split.share(placement.first() + k), seeds.planes());
    p.own0 = planes.own0;
    p.own_planes = planes.own;
    p.first = planes.first;
    p.planes = planes.planes;
    const core::Context& ctx = devices.context(k);
    p.positions = core::Buffer<std::uint8_t>(ctx, tracers(p) * static_cast<std::size_t>(dimension()) * real_bytes());
    p.status = core::Buffer<cl_uint2>(ctx, tracers(p));
    p.ftle = core::Buffer<std::uint8_t>(ctx, p.own_planes * seeds.plane() * real_bytes());
    if (freeze_) p.exits = core::Buffer<std::uint8_t>(ctx, tracers(p) * real_bytes());
    if (adaptive(config.integrator)) {
      p.step_size = core::Buffer<std::uint8_t>(ctx, tracers(p) * real_bytes());
      p.substeps = core::Buffer<cl_uint2>(ctx, tracers(p));
    }

    // A CPU's compiler vectorizes vector builtins but not the scalar path across work-items.
    core::BuildOptions device_options = options;
    if (!grid && devices.device(k).info.kind == core::DeviceKind::cpu) device_options.define("LANES", cpu_lanes);
    bind_kernels(p, k, ctx.program("ftle/ftle.cl", device_options));
  }
  initialise();
}

std::span<const std::uint8_t> Solver::as_reals(std::span<const double> values,
                                               std::vector<std::uint8_t>& scratch) const {
  if (config_.precision == core::Precision::f64)
    return {reinterpret_cast<const std::uint8_t*>(values.data()), values.size_bytes()};
  scratch.resize(values.size() * 4);
  for (std::size_t i = 0; i < values.size(); ++i) {
    const auto f = static_cast<float>(values[i]);
    std::memcpy(scratch.data() + 4 * i, &f, 4);
  }
  return scratch;
}

std::vector<std::uint8_t> Solver::to_reals(std::span<const double> values) const {
  std::vector<std::uint8_t> scratch;
  const std::span<const std::uint8_t> bytes = as_reals(values, scratch);
  return {bytes.begin(), bytes.end()};
}

std::vector<double> Solver::to_doubles(const std::vector<std::uint8_t>& bytes) const {
  std::vector<double> out(bytes.size() / real_bytes());
  if (config_.precision == core::Precision::f64) {
    std::memcpy(out.data(), bytes.data(), bytes.size());
  } else {
    for (std::size_t i = 0; i < out.size(); ++i) {
      float f;
      std::memcpy(&f, bytes.data() + 4 * i, 4);
      out[i] = f;
    }
  }
  return out;
}

void Solver::initialise() {
  for (std::size_t k = 0; k < parts_.size(); ++k) {
    pending_[k] = parts_[k].seed.launch(devices_->compute(k), launch_range(devices_->device(k)), local());
  }
  step_ = 0;
  if (stream_) {
    // The run's first snapshots go up while the tracers are seeded.
    const long dir = stream_->windows.forward() ? 1 : -1;
    const long n = std::min(static_cast<long>(stream_->slots), dir * (stream_->last - stream_->first) + 1);
    for (std::size_t k = 0; k < parts_.size(); ++k) {
      for (long i = 0; i < n; ++i) stream_->load(*devices_, velocity_->buffer(k), k, stream_->first + dir * i);
      devices_->transfer(k).flush();
    }
  }
}

core::Event Solver::advance(long steps) {
  if (steps < 0 || steps > config_.steps - step_)
    throw core::Error("cannot advance " + std::to_string(steps) + " steps: " + std::to_string(config_.steps - step_) +
                      " of the configured " + std::to_string(config_.steps) + " are left");
  if (steps == 0) return pending_.back();
  if (stream_) {
    advance_streamed(step_, steps);
  } else {
    for (std::size_t k = 0; k < parts_.size(); ++k) {
      Part& p = parts_[k];
      set_steps(p, step_, steps);
      // In-order queues keep the order; the event is kept for the caller and for timing.
      pending_[k] = p.advect.launch(devices_->compute(k), launch_range(devices_->device(k)), local());
      devices_->compute(k).flush();
    }
  }
  step_ += steps;
  return pending_.back();
}

// One launch per run of steps that read the same snapshots (about two per snapshot interval: the steps
// inside it, and the one across its end). After each launch the snapshots that the next launches read are
// uploaded into the slots no later launch reads, on the transfer queue, so they arrive while this launch
// computes (the overlap of Conti et al. 2012, Section 3.5 and Fig. 9).
void Solver::advance_streamed(long first, long steps) {
  Stream& st = *stream_;
  const long end = first + steps, slots = static_cast<long>(st.slots);
  const bool forward = st.windows.forward();
  for (long s = first; s < end;) {
    const StepWindows::Range r = st.windows.range(s);
    const long next = st.windows.group_end(s, end);
    if (r.size() > slots)
      throw core::Error("internal: step " + std::to_string(s) + " reads " + std::to_string(r.size()) +
                        " snapshots, more than the ring's " + std::to_string(slots));
    for (std::size_t k = 0; k < parts_.size(); ++k) {
      Part& p = parts_[k];
      core::Buffer<std::uint8_t>& ring = velocity_->buffer(k);
      std::vector<core::Event> wait;
      for (long u = r.lo; u <= r.hi; ++u) wait.push_back(st.load(*devices_, ring, k, u));
      devices_->transfer(k).flush();
      set_steps(p, s, next - s);
      const core::Event done =
          p.advect.launch(devices_->compute(k), launch_range(devices_->device(k)), local(), wait);
      for (long u = r.lo; u <= r.hi; ++u) st.rings[k][static_cast<std::size_t>(u % slots)].last_read = done;
      pending_[k] = done;
      devices_->compute(k).flush();
      // Prefetch into the slots of snapshots behind this launch's window.
      if (forward) {
        for (long u = r.hi + 1; u <= std::min(r.lo + slots - 1, st.last); ++u) st.load(*devices_, ring, k, u);
      } else {
        for (long u = r.lo - 1; u >= std::max(r.hi - slots + 1, st.last); --u) st.load(*devices_, ring, k, u);
      }
      devices_->transfer(k).flush();
    }
    s = next;
  }
}

core::NDRange Solver::local() const {
  return core::NDRange(config_.work_group ? config_.work_group : default_work_group);
}

// Every FTLE kernel launch on a device has one global size, set by the device and the configuration
// alone, and the kernels stride over their tracers (FOR_EACH in ftle.cl).
core::NDRange Solver::launch_range(const core::Device& device) const {
  return core::strided_range(device.info, local().size[0],
                             config_.groups_per_unit ? config_.groups_per_unit : default_groups_per_unit);
}

std::size_t Solver::uploads() const { return stream_ ? stream_->uploads : 0; }

std::size_t Solver::device_bytes() const {
  std::size_t bytes = 0;
  for (std::size_t k = 0; k < parts_.size(); ++k) {
    const Part& p = parts_[k];
    bytes += p.positions.bytes() + p.status.bytes() + p.exits.bytes() + p.step_size.bytes() + p.substeps.bytes() +
             p.ftle.bytes() + params_->buffer(k).bytes() + velocity_->buffer(k).bytes() + times_->buffer(k).bytes();
  }
  return bytes;
}

}  // namespace hetflow::ftle
