#include "hetflow/ftle/solver.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#include "hetflow/core/number_text.hpp"
#include "hetflow/core/partition.hpp"
#include "hetflow/core/program.hpp"

namespace hetflow::ftle {
namespace {

// ftle.cl's FLOW_GRID and tracer status codes.
constexpr int flow_grid = 6;
constexpr cl_uint tracer_stopped = 1, tracer_bad_velocity = 2;

constexpr std::size_t default_work_group = 64;
// Work-groups per compute unit in a launch: 32 x 64 = 2048 work-items, what an NVIDIA SM holds at once.
constexpr std::size_t default_groups_per_unit = 32;

std::string number(double v) { return core::number_text(v, 9); }

std::string point(std::span<const double> x) {
  std::string s = "(";
  for (std::size_t d = 0; d < x.size(); ++d) s += (d ? ", " : "") + number(x[d]);
  return s + ")";
}

void check_config(const Config& c) {
  if (!(c.duration != 0.0) || !std::isfinite(c.duration))
    throw core::Error("FTLE integration time T = " + number(c.duration) + ": expected a finite, non-zero time");
  if (!std::isfinite(c.t0)) throw core::Error("FTLE start time t0 = " + number(c.t0) + " is not finite");
  if (c.steps < 1 || c.steps > std::numeric_limits<cl_uint>::max())
    throw core::Error("FTLE step count " + std::to_string(c.steps) + ": expected 1 .. 2^32 - 1");
  if (c.groups_per_unit > 4096)
    throw core::Error("FTLE work-groups per compute unit " + std::to_string(c.groups_per_unit) + ": expected 0 .. 4096");
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

// Which snapshots the steps of a run read, as the kernel's interval search (velocity_at in ftle.cl) finds
// them. Step s evaluates the velocity at times inside [t0 + s dt, t0 + (s + 1) dt] (ordered), computed
// on the device in real_t; a margin of 1e-3 |dt| plus a few hundred ulps of real_t covers that
// rounding, so a step is never launched without a snapshot it reads (it may wait for one more).
class StepWindows {
 public:
  struct Range {
    long lo = 0, hi = 0;  // snapshots lo .. hi
    bool operator==(const Range&) const = default;
    long size() const { return hi - lo + 1; }
  };

  StepWindows(std::vector<double> times, double t0, double dt, core::Precision precision)
      : times_(std::move(times)), t0_(t0), dt_(dt), relative_(precision == core::Precision::f64 ? 1e-13 : 1e-5) {}

  bool forward() const { return dt_ > 0; }
  Range range(long s) const {
    return around(t0_ + static_cast<double>(s) * dt_, t0_ + static_cast<double>(s + 1) * dt_);
  }
  // The snapshots read at times in [min(a, b), max(a, b)].
  Range around(double a, double b) const {
    const double lo = std::min(a, b), hi = std::max(a, b);
    const double margin = 1e-3 * std::abs(dt_) + relative_ * std::max(std::abs(lo), std::abs(hi));
    return {interval(lo - margin), interval(hi + margin) + 1};
  }
  // One past the last step of [s, end) that reads what step s reads. Ranges move monotonically with
  // the step, so the steps that read one range are consecutive.
  long group_end(long s, long end) const {
    const Range r = range(s);
    long lo = s, hi = end - 1;
    while (lo < hi) {
      const long mid = lo + (hi - lo + 1) / 2;
      if (range(mid) == r) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  }

 private:
  // The kernel's interval [k, k + 1]: the largest k <= n - 2 with times[k] <= t, else 0.
  long interval(double t) const {
    const long k = static_cast<long>(std::upper_bound(times_.begin(), times_.end(), t) - times_.begin()) - 1;
    return std::clamp(k, 0L, static_cast<long>(times_.size()) - 2);
  }

  std::vector<double> times_;
  double t0_, dt_, relative_;
};

// The seed planes of every part, one per device of every process in rank order, weighted as one
// process splits them over its devices.
core::Partition plane_split(const core::PartPlacement& placement, const SeedGrid& seeds, bool processes) {
  if (seeds.planes() < placement.parts())
    throw core::Error("a seed grid of " + std::to_string(seeds.planes()) + " planes cannot be split over " +
                      std::to_string(placement.parts()) + " devices" + (processes ? " of all processes" : ""));
  return core::Partition(seeds.planes(), 1, placement.weights());
}

core::PartPlacement place_parts(const core::DeviceSet& devices, core::Link* processes) {
  return core::PartPlacement(processes, core::distribution_weights(core::Distribution::uniform, devices));
}

// A part's own seed planes and the planes it advects: one more on either side where there is one.
struct PartPlanes {
  std::size_t own0, own, first, planes;
};

PartPlanes part_planes(const core::Share& share, std::size_t total) {
  const std::size_t first = share.offset > 0 ? share.offset - 1 : 0;
  return {share.offset, share.count, first, std::min(share.offset + share.count + 1, total) - first};
}

}  // namespace

// A streamed series: every snapshot in pinned host memory (CL_MEM_ALLOC_HOST_PTR buffers of the first
// device's context, kept mapped; every device's uploads read them), and per device a ring of slots in
// velocity_: snapshot u lives in slot u % slots. An upload into a slot waits for the last launch that
// read the slot's previous snapshot; a launch waits for the uploads of the snapshots it reads.
struct Solver::Stream {
  struct Slot {
    long snapshot = -1;
    core::Event upload, last_read;
  };

  Stream(std::size_t slot_count, std::size_t bytes, StepWindows w) : slots(slot_count), snapshot_bytes(bytes), windows(std::move(w)) {}
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;
  // The pinned memory must outlive every upload that reads it, on every device's queue.
  ~Stream() {
    for (const auto& ring : rings)
      for (const Slot& slot : ring)
        if (slot.upload) slot.upload.wait();
  }

  // Enqueues snapshot u into its slot of device k's ring unless it is there; returns the upload's event.
  core::Event load(const core::DeviceSet& devices, core::Buffer<std::uint8_t>& ring, std::size_t k, long u) {
    const std::size_t index = static_cast<std::size_t>(u) % slots;
    Slot& slot = rings[k][index];
    if (slot.snapshot == u) return slot.upload;
    std::vector<core::Event> wait;
    if (slot.last_read) wait.push_back(slot.last_read);
    slot.upload = ring.write(devices.transfer(k), pinned[static_cast<std::size_t>(u)].span(), index * snapshot_bytes,
                             core::Blocking::no, wait);
    slot.snapshot = u;
    slot.last_read = core::Event();
    if (k == 0) ++uploads;
    return slot.upload;
  }

  std::size_t slots, snapshot_bytes;
  StepWindows windows;
  long first = 0, last = 0;  // the snapshots the whole run reads, first and last in the run's direction
  std::vector<core::PinnedBuffer<std::uint8_t>> pinned;
  std::vector<std::vector<Slot>> rings;
  std::size_t uploads = 0;  // into the first device's ring
};

Solver::Solver(Solver&&) = default;
Solver& Solver::operator=(Solver&&) = default;
Solver::~Solver() = default;

MemoryPlan Solver::memory_plan(const core::DeviceSet& devices, const AnalyticFlow& flow, const SeedGrid& seeds,
                               const Config& config, core::Link* processes) {
  check_config(config);
  seeds.check();
  return plan(devices, place_parts(devices, processes), kernel_parameters(flow).size(), nullptr, seeds, config);
}

MemoryPlan Solver::memory_plan(const core::DeviceSet& devices, const VelocityGrid& velocity, const SeedGrid& seeds,
                               const Config& config, core::Link* processes) {
  check_config(config);
  seeds.check();
  velocity.check("velocity data");
  return plan(devices, place_parts(devices, processes), 6, &velocity, seeds, config);
}

MemoryPlan Solver::plan(const core::DeviceSet& devices, const core::PartPlacement& placement, std::size_t params,
                        const VelocityGrid* grid, const SeedGrid& seeds, const Config& config) {
  const core::Partition split = plane_split(placement, seeds, placement.parts() > devices.size());
  const std::size_t real = config.precision == core::Precision::f64 ? 8 : 4;
  MemoryPlan m;
  std::size_t times = 1;
  m.slots = 1;
  m.snapshot_bytes = real;
  if (grid && !grid->snapshots.empty()) {
    const std::size_t n = grid->snapshots.size();
    times = n;
    m.slots = n;
    m.snapshot_bytes = grid->nodes() * static_cast<std::size_t>(grid->dimension) * real;
    std::uint64_t memory = std::numeric_limits<std::uint64_t>::max(), max_alloc = memory;
    for (std::size_t k = 0; k < devices.size(); ++k) {
      memory = std::min(memory, devices.device(k).info.global_mem);
      max_alloc = std::min(max_alloc, devices.device(k).info.max_alloc);
    }
    const std::size_t budget = config.velocity_budget_bytes ? config.velocity_budget_bytes : memory / 2;
    const std::size_t room = std::min<std::size_t>(budget, max_alloc);
    if (n > 1 && n * m.snapshot_bytes > room) {
      // The ring holds what the widest launch reads plus one slot being uploaded meanwhile, at least 3.
      const StepWindows w(grid->times, config.t0, config.duration / static_cast<double>(config.steps),
                          config.precision);
      long widest = 2;
      for (long s = 0; s < config.steps; s = w.group_end(s, config.steps)) widest = std::max(widest, w.range(s).size());
      const std::size_t slots = std::max(static_cast<std::size_t>(widest) + 1, room / m.snapshot_bytes);
      if (slots < n) {
        m.streamed = true;
        m.slots = slots;
        m.pinned_bytes = n * m.snapshot_bytes;
      }
    }
  }
  const std::size_t dim = static_cast<std::size_t>(seeds.dimension);
  for (std::size_t k = 0; k < devices.size(); ++k) {
    const PartPlanes part = part_planes(split.share(placement.first() + k), seeds.planes());
    const std::size_t tracers = part.planes * seeds.plane();
    m.device_bytes += tracers * dim * real + tracers * sizeof(cl_uint2) + part.own * seeds.plane() * real +
                      params * real + m.slots * m.snapshot_bytes + times * real;
  }
  return m;
}

Solver::Solver(const core::DeviceSet& devices, const AnalyticFlow& flow, const SeedGrid& seeds, const Config& config,
               core::Link* processes)
    : Solver(devices, kernel_code(flow), ftle::dimension(flow), kernel_parameters(flow), nullptr, seeds, config,
             processes) {}

Solver::Solver(const core::DeviceSet& devices, const VelocityGrid& velocity, const SeedGrid& seeds, const Config& config,
               core::Link* processes)
    : Solver(devices, flow_grid, velocity.dimension,
             // The kernel reads the grid's origin and inverse spacing from the parameter buffer.
             {velocity.origin[0], velocity.origin[1], velocity.origin[2], 1.0 / velocity.spacing[0],
              1.0 / velocity.spacing[1], 1.0 / velocity.spacing[2]},
             &velocity, seeds, config, processes) {}

Solver::Solver(const core::DeviceSet& devices, int flow_code, int velocity_dimension, std::vector<double> params,
               const VelocityGrid* grid, const SeedGrid& seeds, const Config& config, core::Link* processes)
    : devices_(&devices), link_(processes), seeds_(seeds), config_(config) {
  check_config(config);
  seeds.check();
  if (velocity_dimension != seeds.dimension)
    throw core::Error(std::to_string(seeds.dimension) + "D seeds in a " + std::to_string(velocity_dimension) + "D flow");
  if (grid) {
    grid->check("velocity data");
    check_against_grid(*grid, seeds, config);
  }
  // Every process checks the same inputs above, so all get here or all threw: the placement's collective
  // needs them all.
  const core::PartPlacement placement = place_parts(devices, processes);
  const core::Partition split = plane_split(placement, seeds, processes != nullptr);
  for (std::size_t k = 0; k < devices.size(); ++k) {
    if (config.precision == core::Precision::f64 && !devices.device(k).info.fp64)
      throw core::Error(devices.device(k).label() + " has no double precision: use precision fp32");
    if (local().size[0] > devices.device(k).info.max_work_group)
      throw core::Error("FTLE work-group " + std::to_string(local().size[0]) + ": " + devices.device(k).label() +
                        " takes at most " + std::to_string(devices.device(k).info.max_work_group));
  }

  // The velocity source on every device.
  std::vector<double> times{0.0};
  std::vector<double> values{0.0};
  if (grid) {
    times = grid->times;
    values.clear();
    values.reserve(grid->snapshots.size() * grid->snapshots.front().size());
    for (const auto& snap : grid->snapshots) values.insert(values.end(), snap.begin(), snap.end());
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
  if (memory_.streamed) {
    const std::size_t per_snapshot = grid->nodes() * static_cast<std::size_t>(grid->dimension);
    stream_ = std::make_unique<Stream>(memory_.slots, memory_.snapshot_bytes,
                                       StepWindows(grid->times, config.t0, dt(), config.precision));
    stream_->pinned.reserve(snapshots_);
    for (std::size_t u = 0; u < snapshots_; ++u) {
      stream_->pinned.emplace_back(devices.transfer(0), memory_.snapshot_bytes);
      const std::vector<std::uint8_t> bytes =
          to_reals(std::span<const double>(values).subspan(u * per_snapshot, per_snapshot));
      std::copy(bytes.begin(), bytes.end(), stream_->pinned.back().data());
    }
    stream_->rings.assign(devices.size(), std::vector<Stream::Slot>(memory_.slots));
    const StepWindows::Range a = stream_->windows.range(0), b = stream_->windows.range(config.steps - 1);
    stream_->first = stream_->windows.forward() ? a.lo : a.hi;
    stream_->last = stream_->windows.forward() ? b.hi : b.lo;
    velocity_ = std::make_unique<core::Mirror<std::uint8_t>>(devices, memory_.slots * memory_.snapshot_bytes);
  } else {
    velocity_ = mirror(values);
  }

  core::BuildOptions options(config.precision);
  options.define("DIM", seeds.dimension).define("FLOW", flow_code).define("INTEGRATOR", order(config.integrator));
  if (grid) {
    if (config.interpolation == Interpolation::m4prime) options.define("INTERP_M4", 1);
    options.define("BOUNDARY", static_cast<long long>(config.boundary));
    if (memory_.streamed) options.define("VELOCITY_SLOTS", static_cast<long long>(memory_.slots));
    // Real-valued offsets into the series (3D multiplies node indices by DIM) must fit in 31 bits.
    const std::size_t reals = memory_.slots * grid->nodes() * static_cast<std::size_t>(grid->dimension);
    if (reals >= (std::size_t{1} << 31)) options.define("VELOCITY_INDEX64", 1);
  }

  const cl_int4 seed_dims{{static_cast<cl_int>(seeds.counts[0]), static_cast<cl_int>(seeds.counts[1]),
                           static_cast<cl_int>(seeds.counts[2]), 1}};
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

    const core::Program& program = ctx.program("ftle/ftle.cl", options);
    p.seed = program.kernel("ftle_seed");
    p.advect = program.kernel("ftle_advect");
    p.field = program.kernel("ftle_field");
    p.velocity = program.kernel("ftle_velocity");
    p.direction = program.kernel("ftle_field_direction");

    p.seed.set(0, p.positions);
    p.seed.set(1, p.status);
    p.seed.set(2, static_cast<cl_uint>(tracers(p)));
    p.seed.set(3, static_cast<cl_ulong>(p.first * seeds.plane()));
    p.seed.set(4, seed_dims);
    for (cl_uint d = 0; d < 3; ++d) {
      set_real(p.seed, 5 + d, seeds.origin[d]);
      set_real(p.seed, 8 + d, seeds.spacing[d]);
    }

    p.advect.set(0, p.positions);
    p.advect.set(1, p.status);
    p.advect.set(2, static_cast<cl_uint>(tracers(p)));
    p.advect.set(7, params_->buffer(k));
    p.advect.set(8, velocity_->buffer(k));
    p.advect.set(9, times_->buffer(k));
    p.advect.set(10, snapshots_);
    p.advect.set(11, grid_dims_);

    // ftle_field's arguments; the direction kernel takes its direction buffer (set per call) at 2 and
    // the rest one place later.
    const auto field_args = [&](core::Kernel& kernel, cl_uint shift) {
      kernel.set(0, p.positions);
      kernel.set(1, p.ftle);
      kernel.set(2 + shift, static_cast<cl_uint>(p.own_planes * seeds.plane()));
      kernel.set(3 + shift, seed_dims);
      kernel.set(4 + shift, static_cast<cl_int>(p.first));
      kernel.set(5 + shift, static_cast<cl_int>(p.own0));
      for (cl_uint d = 0; d < 3; ++d) set_real(kernel, 6 + shift + d, seeds.spacing[d]);
    };
    field_args(p.field, 0);
    field_args(p.direction, 1);
  }
  initialise();
}

void Solver::set_real(core::Kernel& k, cl_uint index, double value) const {
  if (config_.precision == core::Precision::f64) k.set(index, value);
  else k.set(index, static_cast<float>(value));
}

std::vector<std::uint8_t> Solver::to_reals(std::span<const double> values) const {
  std::vector<std::uint8_t> bytes(values.size() * real_bytes());
  if (config_.precision == core::Precision::f64) {
    std::memcpy(bytes.data(), values.data(), bytes.size());
  } else {
    for (std::size_t i = 0; i < values.size(); ++i) {
      const auto f = static_cast<float>(values[i]);
      std::memcpy(bytes.data() + 4 * i, &f, 4);
    }
  }
  return bytes;
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
      set_real(p.advect, 3, config_.t0);
      set_real(p.advect, 4, dt());
      p.advect.set(5, static_cast<cl_uint>(steps));
      p.advect.set(6, static_cast<cl_uint>(step_));
      // In-order queues keep the order; the event is kept for the caller and for timing.
      pending_[k] = p.advect.launch(devices_->compute(k), launch_range(devices_->device(k)), local());
      devices_->compute(k).flush();
    }
  }
  step_ += steps;
  return pending_.back();
}

// One launch per run of steps that read the same snapshots (about two per snapshot interval: the steps
// inside it, and the one across its end). After each launch the snapshots that the next launches read
// are uploaded into the slots no later launch reads, on the transfer queue, so they arrive while this
// launch computes (the paper's overlap, spec section 3.6).
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
      set_real(p.advect, 3, config_.t0);
      set_real(p.advect, 4, dt());
      p.advect.set(5, static_cast<cl_uint>(next - s));
      p.advect.set(6, static_cast<cl_uint>(s));
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

std::vector<double> Solver::first_failure() const {
  for (std::size_t k = 0; k < parts_.size(); ++k) {
    const Part& p = parts_[k];
    const std::vector<cl_uint2> status = p.status.to_vector(devices_->compute(k));
    for (std::size_t i = 0; i < status.size(); ++i) {
      const cl_uint code = status[i].s[0];
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
                        (code == tracer_bad_velocity ? "the velocity is not finite" : "the position is not finite") +
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

std::vector<double> Solver::ftle() const {
  if (step_ == 0) throw core::Error("no FTLE before the first step: the integration time is zero");
  check_tracers();
  const double elapsed = std::abs(static_cast<double>(step_) * dt());
  std::vector<double> out(seeds_.size());
  for (std::size_t k = 0; k < parts_.size(); ++k) {
    const Part& p = parts_[k];
    set_real(p.field, 9, 1.0 / elapsed);
    p.field.launch(devices_->compute(k), launch_range(devices_->device(k)), local());
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
    p.direction.set(2, direction);
    set_real(p.direction, 10, 1.0 / elapsed);
    p.direction.launch(devices_->compute(k), launch_range(devices_->device(k)), local());
    const std::vector<double> values = to_doubles(direction.to_vector(devices_->compute(k)));
    std::copy(values.begin(), values.end(), out.begin() + static_cast<std::ptrdiff_t>(p.own0 * seeds_.plane() * dim));
  }
  gather(out, dim);
  return out;
}

std::size_t Solver::stopped_tracers() const {
  std::size_t n = 0;
  for (std::size_t k = 0; k < parts_.size(); ++k) {
    const Part& p = parts_[k];
    const std::vector<cl_uint2> status = p.status.to_vector(devices_->compute(k));
    // Count own seeds only: the neighbour planes are counted by their owner.
    const auto own = status.begin() + static_cast<std::ptrdiff_t>((p.own0 - p.first) * seeds_.plane());
    n += static_cast<std::size_t>(std::count_if(own, own + static_cast<std::ptrdiff_t>(p.own_planes * seeds_.plane()),
                                                [](const cl_uint2& s) { return s.s[0] == tracer_stopped; }));
  }
  if (!link_) return n;
  // Counts below 2^53 travel exactly as doubles.
  const auto mine = static_cast<double>(n);
  std::size_t total = 0;
  for (const std::vector<double>& count : link_->all_gather(std::span(&mine, 1)))
    total += static_cast<std::size_t>(count[0]);
  return total;
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
  core::Kernel& k = parts_[0].velocity;
  k.set(0, in);
  k.set(1, out);
  k.set(2, static_cast<cl_uint>(n));
  set_real(k, 3, t);
  k.set(4, params_->buffer(0));
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
  k.set(5, stream_ ? ring : velocity_->buffer(0));
  k.set(6, times_->buffer(0));
  k.set(7, snapshots_);
  k.set(8, grid_dims_);
  k.launch(q, launch_range(devices_->device(0)), local());
  return to_doubles(out.to_vector(q));
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
    bytes += p.positions.bytes() + p.status.bytes() + p.ftle.bytes() + params_->buffer(k).bytes() +
             velocity_->buffer(k).bytes() + times_->buffer(k).bytes();
  }
  return bytes;
}

}  // namespace hetflow::ftle
