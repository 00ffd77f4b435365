#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "hetflow/core/buffer.hpp"
#include "hetflow/core/build_options.hpp"
#include "hetflow/core/device_set.hpp"
#include "hetflow/core/error.hpp"
#include "hetflow/core/kernel.hpp"
#include "hetflow/core/kernel_args.hpp"
#include "hetflow/core/link.hpp"
#include "hetflow/core/plan.hpp"
#include "hetflow/core/program.hpp"
#include "hetflow/ftle/analytic_flow.hpp"
#include "hetflow/ftle/method.hpp"
#include "hetflow/ftle/seed_grid.hpp"
#include "hetflow/ftle/velocity_grid.hpp"

namespace hetflow::ftle {

struct Config {
  double t0 = 0.0;
  double duration = 1.0;  // T: > 0 forward in time, < 0 backward
  long steps = 100;       // dt = duration / steps; adaptive integrators: the span each tracer's substeps fill
  Integrator integrator = Integrator::rk4;
  // Adaptive integrators: a substep is kept when its local error estimate, per component scaled by
  // atol + rtol max(|x|, |x_new|), is at most 1 in the root mean square (Hairer et al. 1993, II.4).
  double rtol = 1e-6;
  double atol = 1e-9;
  Interpolation interpolation = Interpolation::m4prime;  // gridded velocity only
  Boundary boundary = Boundary::clamp;                   // gridded velocity only
  core::Precision precision = core::Precision::f64;      // positions and velocity arithmetic
  // Device memory per device for gridded snapshots: a series that fits (and fits one allocation) is
  // resident; a larger one is streamed from pinned host memory through a ring of as many snapshot slots
  // as fit (at least the snapshots one step reads plus one being uploaded). 0: half the smallest
  // device memory of the set.
  std::size_t velocity_budget_bytes = 0;
  // The launch shape of every kernel: work-items per work-group, and work-groups per compute unit (a
  // launch has work_group x groups_per_unit x compute units work-items, which stride over the tracers).
  // 0: the defaults, 64 and 32. `hetflow tune ftle` measures them.
  std::size_t work_group = 0;
  std::size_t groups_per_unit = 0;
  // The share of the seed planes each device of this process takes (positive, one per device; across
  // processes every process gives its own devices'); empty: even. Devices of different speeds finish
  // together when weighted by their rates. The field does not depend on the split.
  std::vector<double> device_weights;
  // Gridded velocity only: a uniform free-stream velocity U added to the interpolated velocity everywhere
  // (data recorded in a body's frame, or a disturbance about a mean flow), x, y[, z]; a 2D flow takes a
  // zero z component. All zero: none.
  std::array<double, 3> free_stream{0.0, 0.0, 0.0};
};

// The finest relative tolerance the adaptive integrators take in `precision`: a few ulps of the
// positions; finer, no substep could meet it.
double finest_rtol(core::Precision precision);

// How a solver holds its velocity and what that needs, known before anything is allocated.
struct MemoryPlan {
  bool streamed = false;         // gridded snapshots streamed through a ring of slots
  std::size_t slots = 0;         // snapshots each device holds (all of them when resident; 1 analytic)
  std::size_t snapshot_bytes = 0;
  // On all devices of this process together (of the DeviceSet; across processes each has its own
  // plan): what Solver::device_bytes() reports.
  std::size_t device_bytes = 0;
  std::size_t pinned_bytes = 0;  // page-locked host copy of a streamed series
};

// A tracer's velocity or position became non-finite: what() names the seed (index, grid index and
// position), where the tracer last was and the step.
class TracerError : public core::Error {
 public:
  TracerError(const std::string& what, std::size_t seed, long step) : core::Error(what), seed_(seed), step_(step) {}
  std::size_t seed() const { return seed_; }
  long step() const { return step_; }  // the failed step, counted from 1

 private:
  std::size_t seed_;
  long step_;
};

// Finite-time Lyapunov exponents on the devices of a DeviceSet: configure with a velocity source and a
// seed grid, initialise (tracers at their seeds, time t0), advance by steps, read the flow map or the
// FTLE field. The seed grid is split across devices in planes of its last axis; each device also
// advects the one plane on either side of its share (when there is one), so the flow-map gradient needs
// no exchange between devices and every device count gives the same field. The velocity (analytic
// parameters, or every gridded snapshot) is mirrored to every device; a gridded series over the
// velocity budget is streamed instead: each device holds a ring of snapshot slots, refilled from pinned
// host memory on its transfer queue while its compute queue integrates (docs/ftle.md, "Streamed
// snapshots"), with the same field bit for bit.
//
// Across processes (hosts): with `processes` (e.g. an mpi::Communicator, outliving the solver) this is
// one process's share of the run. The parts, one per device of every process in rank order, split the
// seed planes as one process's devices would; each process holds and advances only its own parts
// (with their neighbour planes, so nothing travels while advancing), its own copy of the velocity, and
// streams it by its own budget. Every process passes the same flow, seeds and config. The
// constructors, memory_plan() with `processes`, flow_map(), ftle(), stretch_direction() and
// stopped_tracers() are collective: every process calls them, in the same order. The fields come whole
// on rank 0; another rank gets the whole-sized array with only its own seeds filled (zeros elsewhere),
// as lbm::Solver::fields(). A failed tracer throws the same TracerError (the first failed seed of all
// processes) on every process. Everything else is per process: parts(), device_bytes(), memory(),
// uploads() and velocity_at() (on this process's first device) answer for this process alone.
class Solver {
 public:
  Solver(const core::DeviceSet& devices, const AnalyticFlow& flow, const SeedGrid& seeds, const Config& config,
         core::Link* processes = nullptr);
  Solver(const core::DeviceSet& devices, const VelocityGrid& velocity, const SeedGrid& seeds, const Config& config,
         core::Link* processes = nullptr);
  Solver(Solver&&);
  Solver& operator=(Solver&&);
  ~Solver();

  // What a solver of this configuration would hold (resident or streamed, device and pinned bytes),
  // without building it: for a case to print or refuse before it runs. With `processes`, this
  // process's share (collective: it learns the other processes' devices).
  static MemoryPlan memory_plan(const core::DeviceSet& devices, const AnalyticFlow& flow, const SeedGrid& seeds,
                                const Config& config, core::Link* processes = nullptr);
  static MemoryPlan memory_plan(const core::DeviceSet& devices, const VelocityGrid& velocity, const SeedGrid& seeds,
                                const Config& config, core::Link* processes = nullptr);

  // Tracers back to their seeds at t0.
  void initialise();
  // Enqueues `steps` steps (at most the configured steps in all) and returns this process's last
  // device's event. Needs no other process.
  core::Event advance(long steps);
  // All configured steps left.
  core::Event advance_to_end() { return advance(config_.steps - step_); }
  void finish() const { devices_->finish(); }

  long step() const { return step_; }
  double dt() const { return config_.duration / static_cast<double>(config_.steps); }
  double time() const { return config_.t0 + static_cast<double>(step_) * dt(); }

  // Current tracer positions, dimension() per seed, seeds x-fastest. Throws TracerError when a tracer
  // failed (first failed seed). Across processes: collective, whole on rank 0 (see the class comment).
  std::vector<double> flow_map() const;
  // ln(sigma_max(F)) / |t - t0| per seed over the steps taken so far (at least one): F is the flow map's
  // gradient on the seed grid (central differences, one-sided on the grid's faces). Throws TracerError
  // when a tracer failed. Across processes: collective, whole on rank 0.
  std::vector<double> ftle() const;
  // The smallest exponent ln(sigma_min(F)) / |t - t0| = ln(lambda_min(F^T F)) / 2|t - t0| per seed, F as for
  // ftle(): ftle_min <= ftle, and ftle + ftle_min = ln|det F| / |t - t0| (0 for an area-preserving 2D
  // flow); -inf where F is singular. Throws TracerError when a tracer failed. Across processes:
  // collective, whole on rank 0.
  std::vector<double> ftle_min() const;
  // The direction of largest stretching per seed over the steps taken so far (at least one): the unit
  // eigenvector of the largest eigenvalue of C = F^T F (F as for ftle(), computed by the same kernel
  // code), dimension() per seed, signed so that its first non-zero component is positive (an isotropic C
  // gives the x axis). Throws TracerError when a tracer failed. Across processes: collective, whole on
  // rank 0.
  std::vector<double> stretch_direction() const;
  // Tracers that the `stop` boundary halted or `freeze` froze at their exit; across processes collective,
  // the total of all on every process.
  std::size_t stopped_tracers() const;
  // Tracers that met the faces of the gridded velocity's box so far: clamp pulled one of their stage
  // points or positions back into it, stop halted them, freeze froze them, extrapolate and free_stream
  // ended a step of theirs outside it. 0 for periodic data and analytic flows, which have no walls.
  // Across processes collective, the total of all on every process.
  std::size_t boundary_hits() const;
  // Adaptive integrators: the substeps the own seeds' tracers took so far, accepted and rejected (both
  // 0 for a fixed step). Across processes collective, the totals of all on every process.
  struct Substeps {
    std::uint64_t accepted = 0, rejected = 0;
  };
  Substeps substeps() const;
  // Boundary freeze with gridded velocity only: per seed, the time t0 + (n + f) dt at which its tracer
  // reached a face of the box (n the step it left in, f the share of that step before the face), NaN for
  // a tracer that has not left. Throws core::Error for another mode. Across processes collective, whole
  // on rank 0.
  std::vector<double> exit_times() const;

  // The velocity the tracers see at `points` (dimension() per point) at time t, evaluated on the first
  // device (of this process; not collective): analytic, or interpolated with the configured kernel and
  // boundary mode.
  std::vector<double> velocity_at(std::span<const double> points, double t) const;
  // In situ: snapshot `index` of the gridded velocity becomes `values`, a device buffer of this solver's
  // one device holding dimension() components per node in the run's precision, x fastest (as
  // lbm::Solver::velocity_on_device leaves them), copied on the device. Resident velocity on one device
  // of one process; the next initialise() and advance() see it.
  void load_snapshot(std::size_t index, const core::Buffer<std::uint8_t>& values);

  const Config& config() const { return config_; }
  const SeedGrid& seeds() const { return seeds_; }
  int dimension() const { return seeds_.dimension; }
  // This process's parts (one per device of its DeviceSet).
  std::size_t parts() const { return parts_.size(); }
  // Device memory held on this process's devices together (memory().device_bytes).
  std::size_t device_bytes() const;
  const MemoryPlan& memory() const { return memory_; }
  // Snapshot uploads into the first device's ring so far (0 when resident): more than memory().slots
  // means slots were reused.
  std::size_t uploads() const;

 private:
  // One device's share: own seed planes [own0, own0 + own_planes), tracers for planes [first, first + planes).
  struct Part {
    std::size_t first = 0, planes = 0;
    std::size_t own0 = 0, own_planes = 0;
    core::Buffer<std::uint8_t> positions;  // real_t, dimension() per tracer
    core::Buffer<cl_uint2> status;         // (code, step) per tracer, see ftle.cl
    core::Buffer<std::uint8_t> exits;      // freeze only: real_t per tracer, the share of its last step
    core::Buffer<std::uint8_t> step_size;  // adaptive only: real_t per tracer, its next substep (0: dt)
    core::Buffer<cl_uint2> substeps;       // adaptive only: (accepted, rejected) substeps per tracer
    core::Buffer<std::uint8_t> ftle;       // real_t per own seed
    // Arguments change between launches (times, step counts) also in const accessors.
    mutable core::Kernel seed, advect, field, field_min, velocity, direction;
    // Where the arguments set per launch start, remembered from the binder when the kernels are bound.
    struct LaunchArgs {
      cl_uint steps = 0;               // ftle_advect: t_start, dt, steps, first_step
      cl_uint field_duration = 0;      // ftle_field: inv_duration
      cl_uint field_min_duration = 0;  // ftle_field_min: inv_duration
      cl_uint direction_out = 0;       // ftle_field_direction: direction
      cl_uint direction_duration = 0;  // ftle_field_direction: inv_duration
    } at;
  };

  struct Stream;

  Solver(const core::DeviceSet& devices, int flow_code, int velocity_dimension, std::vector<double> params,
         const VelocityGrid* grid, const SeedGrid& seeds, const Config& config, core::Link* processes);
  // This process's plan; `placement` places the parts of all processes.
  static MemoryPlan plan(const core::DeviceSet& devices, const core::PartPlacement& placement, std::size_t params,
                         const VelocityGrid* grid, const SeedGrid& seeds, const Config& config);
  // Streamed: enqueues steps [first, first + steps) in launches of one snapshot window each.
  void advance_streamed(long first, long steps);
  std::size_t real_bytes() const { return config_.precision == core::Precision::f64 ? 8 : 4; }
  core::NDRange local() const;
  // The global size of every launch on `device`: one width per device (core::strided_range says why).
  core::NDRange launch_range(const core::Device& device) const;
  std::size_t tracers(const Part& p) const { return p.planes * seeds_.plane(); }
  // Creates part p's kernels on device k and binds their arguments but those set per launch.
  void bind_kernels(Part& p, std::size_t k, const core::Program& program) const;
  // Binds VELOCITY_SOURCE_ARGS (ftle.cl) of device k, with `velocity` as the snapshots.
  void bind_velocity_source(core::KernelArgs& args, std::size_t k, const core::Buffer<std::uint8_t>& velocity) const;
  // Sets ftle_advect's run of `count` steps from step `first`.
  void set_steps(Part& p, long first, long count) const;
  std::vector<double> to_doubles(const std::vector<std::uint8_t>& bytes) const;
  // ftle() (ftle_field), or with `smallest` ftle_min() (ftle_field_min): one value per seed over the steps
  // taken so far, through Part::ftle.
  std::vector<double> exponent_field(bool smallest) const;
  // `values` as the device's reals: their own bytes in FP64, converted into `scratch` in FP32.
  std::span<const std::uint8_t> as_reals(std::span<const double> values, std::vector<std::uint8_t>& scratch) const;
  std::vector<std::uint8_t> to_reals(std::span<const double> values) const;
  // Throws TracerError for the first failed tracer (by seed order, over all processes).
  void check_tracers() const;
  // This process's first failed tracer as {seed, status code, step, position...}; empty when none failed.
  std::vector<double> first_failure() const;
  // Own tracers whose status has (status & mask) == value, summed over processes.
  std::size_t count_tracers(cl_uint mask, cl_uint value) const;
  // Across processes, collects every process's own seeds (`per_seed` values each) into rank 0's `whole`.
  void gather(std::vector<double>& whole, std::size_t per_seed) const;

  const core::DeviceSet* devices_;
  core::Link* link_;  // the other processes, if any
  SeedGrid seeds_;
  Config config_;
  std::vector<Part> parts_;
  bool freeze_ = false;  // gridded velocity with boundary freeze: exit fractions kept (Part::exits)
  // The velocity source on every device: parameters, gridded snapshots and their times.
  std::unique_ptr<core::Mirror<std::uint8_t>> params_, velocity_, times_;
  cl_uint snapshots_ = 1;
  cl_int4 grid_dims_{{1, 1, 1, 1}};
  std::vector<core::Event> pending_;
  long step_ = 0;
  MemoryPlan memory_;
  std::unique_ptr<Stream> stream_;  // set when streamed
};

}  // namespace hetflow::ftle
