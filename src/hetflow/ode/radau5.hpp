#pragma once
#include <array>
#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "hetflow/core/device_set.hpp"
#include "hetflow/ode/options.hpp"
#include "hetflow/ode/sparse_lu.hpp"
#include "hetflow/ode/statistics.hpp"

namespace hetflow::ode {

// An ODE system y' = f(t, y) of n equations, given as OpenCL C source that defines
//   void rhs(double t, const double* y, double* f, __global const double* p)
// and, when analytic_jacobian is set,
//   void jac(double t, const double* y, double* dfdy, __global const double* p)
// with dfdy column-major: dfdy[i + j * n] = d f_i / d y_j. y, f and dfdy are private arrays of the
// work-item; p points at this system's `parameters` doubles (unusable when parameters is 0). The source
// may use the macro ODE_N (= n) and define helpers; it is compiled with FP contraction off.
// Without an analytic Jacobian, RADAU5's forward differences are used.
//
// With group_rhs set, the source also defines the right-hand side for mapping 2, one work-group per
// system, where every work-item of the group calls
//   void rhs_group(double t, const SHARED double* y, SHARED double* f, __global const double* p,
//                  __global const double* tables, WORK_SPACE double* work)
// y is complete when it is called, and f must be complete once every work-item has returned and passed
// a barrier; it may split the work with mapping.cl's FOR_OWN, SYNC and LEADER. SHARED is the group's
// address space (mapping.cl: __local where RADAU5's scratch fits a GPU's local memory, else
// __global). `tables` holds System::tables (uploaded once per device), `work` the group's group_work
// doubles of scratch. It must give the bits of rhs(), which mapping 1 calls, so that results do not
// depend on the mapping. With group_jac (and group_rhs) likewise
//   void jac_group(double t, const SHARED double* y, MATRIX_SPACE double* dfdy, __global const double* p,
//                  __global const double* tables, WORK_SPACE double* work)
// with the bits of jac(). With group_only set (which needs group_rhs, analytic_jacobian and group_jac)
// the source defines no rhs() or jac() at all, and every mapping but the phased one calls the group
// functions: mapping 1 as a group of one work-item (SYNC a no-op), its y and f private, its dfdy and
// work in global memory (jac_group's dfdy is MATRIX_SPACE and the work WORK_SPACE, mapping.cl). Such a
// system runs at any n that memory takes: a mechanism of hundreds of species, whose generated rhs()
// and jac() would take long to compile and whose constants would not fit __constant memory, reads
// everything from `tables`. With stage_lanes set, the source also defines, under #if ODE_STAGE_LANES,
//   void rhs_lanes(double4 t, const double4* y, double4* f, __global const double* p)
// which evaluates rhs() at four states at once, one per lane; on CPUs mapping 1 and the phased mapping
// evaluate the three Newton stages of an iteration with it, so that PoCL runs them in SIMD registers.
// A lane's last bits may differ from rhs()'s (vector exp and log differ from scalar ones in PoCL), but
// both mappings make the same calls, so they still agree bit for bit.
//
// A jacobian_pattern, the (row, column) pairs where J may be nonzero, makes the decompositions sparse
// (sparse_lu.hpp): jac() or jac_group still fill the dense array, zero outside the pattern, and the
// factors of c I - J follow a minimum-degree order of the pattern without pivoting, so their bits differ
// from the dense LU's (both mappings still agree). With jacobian_low_rank set (a group_only system),
// J = S + u vᵀ: jac_group writes S, zero outside the pattern, in the n x n array and u and v in the 2 n
// doubles after it, and the solves add the rank-one part (Sherman and Morrison), so that a few dense
// rows and columns, such as a reactor's density coupling, leave the factors sparse. A system with a
// pattern runs in mappings 1 and 2, not the phased one. Built by name, e.g. System{.n = 2, .source = src,
// .analytic_jacobian = true}: every member has a default (as every Batch member does), so designated initializers may
// leave any out.
struct System {
  int n = 0;
  std::string source{};
  bool analytic_jacobian = false;
  std::size_t parameters = 0;
  bool group_rhs = false;
  bool group_jac = false;
  std::size_t group_work = 0;
  std::vector<double> tables{};
  bool group_only = false;
  bool stage_lanes = false;
  std::vector<std::array<int, 2>> jacobian_pattern{};
  bool jacobian_low_rank = false;
};

// Independent initial-value problems of one System: size() systems, each with its initial state,
// parameters and time interval.
struct Batch {
  std::vector<double> y0{};      // n per system
  std::vector<double> params{};  // System::parameters per system
  // One entry for every system, or one per system; t_end != t0 (t_end < t0 integrates backwards).
  std::vector<double> t0{0.0};
  std::vector<double> t_end{1.0};
  // Empty, or one value per system: integrate() then runs the systems in the order of these keys and
  // returns them in batch order. Systems with close keys should take similar paths: work-items side by
  // side on a GPU run their systems in step, and a system that needs another branch or more iterations
  // holds its neighbours back. Empty: Options::order.
  std::vector<double> sort_key{};
  // Dense output: times at which integrate() also returns every system's state (Result::samples), from
  // the collocation polynomial of the step that reaches each (Hairer & Wanner's CONTR5); sampling changes
  // no other result. One list for all systems, or with per_system_samples one list per system, all of one
  // length, system after system (samples.size() = that length x systems). Every time lies within the
  // system's [t0, t_end] and the list runs in the direction of integration: non-decreasing from t0 to
  // t_end (non-increasing when t_end < t0). Empty: no samples.
  std::vector<double> samples{};
  bool per_system_samples = false;
};

// A batch read where its arrays lie: a Batch, or arrays its caller holds (numpy's, say), so that no
// caller copies its states to integrate them. The members mean what Batch's do.
struct BatchView {
  std::span<const double> y0, params, t0, t_end, sort_key, samples;
  bool per_system_samples = false;

  BatchView() = default;
  BatchView(const Batch& b)  // NOLINT(google-explicit-constructor): every Batch is readable as a view
      : y0(b.y0),
        params(b.params),
        t0(b.t0),
        t_end(b.t_end),
        sort_key(b.sort_key),
        samples(b.samples),
        per_system_samples(b.per_system_samples) {}
};

// How one device runs its share of a batch: in `chunks` launches of at most `chunk_systems` systems,
// each with its own device buffers (two in rotation when there are several chunks, so one chunk's
// transfers overlap another's integration).
struct ChunkPlan {
  std::size_t first = 0;          // the device's share: its first system in run order (Batch::sort_key)
  std::size_t systems = 0;        // and its size
  std::size_t chunks = 0;         // launches; 0 for an empty share
  std::size_t chunk_systems = 0;  // systems per chunk (the last may have fewer)
  std::size_t system_bytes = 0;   // device memory one system takes in one chunk buffer
  std::size_t device_bytes = 0;   // device memory the run holds: per-device data plus the chunk buffers
  std::size_t budget = 0;         // the budget applied (Options::memory_budget or its default)
};

struct Result {
  std::vector<double> y;               // n per system: at t_end, or at the last accepted step on failure
  std::vector<Statistics> statistics;  // per system
  // Dense output (Batch::samples): n values per sample per system, system after system (sample j of
  // system s from (s * sample_count + j) * n). A sample at t0 is the initial state, one at t_end the final
  // state's bits; one that a failed system never reached, or of a system an interrupted run did not
  // start, is NaN.
  std::vector<double> samples;
  std::size_t sample_count = 0;     // samples per system
  long nmax = 0;                    // the nmax the batch ran with, for describe()
  std::vector<ChunkPlan> chunking;  // per device of the DeviceSet

  std::size_t failures() const;
  // The systems that ran, to t_end or to their failure: all but those an interrupted run never started.
  std::size_t started() const;
  // Every failed system, one per line: "system 3: IDID = -4: ...".
  std::string report() const;
};

// Hairer & Wanner's RADAU5 (3-stage Radau IIA, order 5) on a batch of independent systems, one
// work-item per system (mapping 1) or one work-group per system (mapping 2), as Options::mapping says
// or, when automatic, as suits the batch size (mapping()); both give the same statistics and the same
// bits on one device. The batch is split into contiguous shares across the devices of the DeviceSet,
// uniformly, and every device integrates its share concurrently, in chunks that fit
// Options::memory_budget and Options::chunk_systems (plan()). Each mapping's kernel is built on a device
// the first time a batch runs in it (so a compile error in the system's source surfaces from
// integrate()); integrate() may be called again with other batches, and keeps its device buffers and
// pinned host staging for them (growing to the largest chunk seen; plan()'s device_bytes is what one run
// needs). The DeviceSet must outlive the solver; one integrate() at a time (it sets the kernels'
// arguments and fills the buffers).
class Radau5 {
 public:
  Radau5(const core::DeviceSet& devices, System system, Options options = {});
  Radau5(Radau5&&) noexcept;
  Radau5& operator=(Radau5&&) noexcept;
  ~Radau5();

  const System& system() const { return system_; }
  const Options& options() const { return options_; }
  // The mapping a batch of `systems` systems runs in: options().mapping, or `automatic` resolved for
  // this system's n, the devices and the batch size.
  Mapping mapping(std::size_t systems) const;
  // How a batch of `systems` systems is launched on device k: its mapping, work-items per work-group and
  // work-groups per compute unit (Options::work_group and groups_per_unit, or the mapping's defaults),
  // and how its kernel is built.
  struct LaunchShape {
    Mapping mapping;
    std::size_t work_group, groups_per_unit;
    std::size_t max_registers;  // the kernel's register budget per work-item; 0: the compiler's choice
    int lu_panel;               // the panel width of the decompositions (Options::lu_panel); 0: none
  };
  LaunchShape launch_shape(std::size_t systems, std::size_t k = 0) const;
  // Whether the kernels use the system's jac(): options().jacobian resolved for the system.
  bool analytic_jacobian() const { return analytic_jacobian_; }

  // Builds, on every device, the kernel a batch of `systems` systems runs in (integrate() would build it
  // on first use): for callers that time or report the build apart from the integration.
  void prepare(std::size_t systems) const;

  // Asked between chunks with the systems finished so far and the batch's size; false stops the run.
  using KeepGoing = std::function<bool(std::size_t done, std::size_t total)>;

  // Integrates every system of the batch; throws core::Error for malformed input (naming the value),
  // never for a system that fails: that system's Statistics say why. keep_going, when given, is asked
  // before every chunk after the first, once the chunk before the last has come down (so one chunk is
  // in flight); when it says stop, the chunks in flight finish and the systems of later chunks keep
  // Status::not_run.
  Result integrate(BatchView batch, const KeepGoing& keep_going = {}) const;

  // What Order::initial_rate sorts by, per system in batch order: the norm of rhs(t0, y0) scaled by the
  // error tolerances, sqrt(sum((f_i / (atol'_i + rtol'_i |y0_i|))^2) / n), at least 1e-10, one rhs per
  // system on the devices (as integrate() checks the batch).
  std::vector<double> initial_rates(BatchView batch) const;

  // How integrate() splits a batch of `systems` systems (with one time interval per system, or one for
  // all, and `samples` dense-output times per system, one list per system or one for all) over the
  // devices and into chunks that fit Options::memory_budget and chunk_systems. Throws core::Error when
  // the budget cannot hold one system, naming the budget and the bytes one system needs.
  std::vector<ChunkPlan> plan(std::size_t systems, bool per_system_times, std::size_t samples = 0,
                              bool per_system_samples = false) const;

 private:
  struct Device;
  const core::DeviceSet* devices_;
  System system_;
  Options options_;
  bool analytic_jacobian_;
  std::optional<SparseLu> sparse_;  // the plan of the decompositions, for a system with a jacobian_pattern
  std::vector<double> settings_;    // the kernel's settings array (radau5.cl, S_*)
  std::vector<double> tolerances_;  // rtol' then atol', n each
  Device& part(std::size_t k, const LaunchShape& shape) const;
  // The batch's system count; throws core::Error for malformed input (naming the value).
  std::size_t checked_count(BatchView batch) const;
  // The batch's systems in the order they run (Batch::sort_key, else Options::order).
  std::vector<std::size_t> run_order(BatchView batch, std::size_t count) const;
  std::vector<double> rates(BatchView batch, std::size_t count) const;  // initial_rates() unchecked
  // One call's chunks of a checked batch through the devices (radau5_run.cpp), for integrate() and for
  // rates().
  struct Run;
  // Per device, the kernel of each mapping (work_item, work_group, phased), each with the compiler's
  // registers and with a budget (parts_[k][2 * mapping + budget]), each built on first use.
  mutable std::vector<std::array<std::unique_ptr<Device>, 6>> parts_;
  struct Pipeline;
  // `phased`: with the phased mapping's buffers, which also hold mapping 1's system matrices; `samples`
  // dense-output times per system, their times in the slots with per_system_samples.
  Pipeline& pipeline(std::size_t k, const ChunkPlan& plan, bool per_system_times, bool phased, std::size_t samples,
                     bool per_system_samples) const;
  // Per device, integrate()'s buffers, kept from one call to the next (made on first use).
  mutable std::vector<std::unique_ptr<Pipeline>> pipes_;
};

}  // namespace hetflow::ode
