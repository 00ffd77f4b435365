#pragma once
#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "hetflow/core/buffer.hpp"
#include "hetflow/core/device_set.hpp"
#include "hetflow/core/kernel.hpp"
#include "hetflow/core/kernel_args.hpp"
#include "hetflow/core/link.hpp"
#include "hetflow/core/plan.hpp"
#include "hetflow/lbm/device_grid.hpp"
#include "hetflow/lbm/geometry.hpp"
#include "hetflow/lbm/halo_exchange.hpp"

namespace hetflow::lbm {

// How populations move through memory (Myre 2013, App. B): two arrays, or one array in place.
enum class Pattern { ab, aa, lagrangian };
// Storage precision of the populations; arithmetic is float for fp32 and fp16, double for fp64.
enum class Storage { fp32, fp16, fp64 };
// The collision operator: one relaxation time (BGK); Ginzburg's two, which relax the even and the odd
// part of each pair of opposite populations separately (TRT); or a rate per moment (MRT, d'Humieres et
// al. 2002, with their rates for the moments the viscosity does not set). docs/lbm.md, Method.
enum class Collision { bgk, trt, mrt };

Pattern parse_pattern(std::string_view text);
Storage parse_storage(std::string_view text);
Collision parse_collision(std::string_view text);
const char* to_string(Pattern p);
const char* to_string(Storage s);
const char* to_string(Collision c);

// TRT's odd relaxation time from the even one (tau, which sets the viscosity) and the magic parameter
// Lambda = (tau - 1/2)(tau_minus - 1/2): tau_minus = 1/2 + Lambda / (tau - 1/2).
double trt_tau_minus(double tau, double magic);

// Shan-Chen single-component multiphase (Shan & Chen 1993): pseudo-potential psi = psi0 exp(-rho0/rho)
// and interaction force F = -G psi(x) sum_i w_i psi(x + c_i) c_i; G < 0 attracts, separating liquid and
// vapour below the critical temperature. Defaults are the classic set (Sukop & Thorne), for which the
// coexisting densities are about 524 and 86. The thesis prints psi0 exp(-rho/rho0), which decreases with
// density and so cannot separate phases with an attractive G: read as a misprint of this form.
struct ShanChen {
  double g = -120;
  double psi0 = 4;
  double rho0 = 200;
};

// Pressure of the Shan-Chen fluid: p = rho/3 + G psi(rho)^2 / 6.
double shan_chen_pressure(double rho, const ShanChen& sc);

// Two-component multiphase flow (Shan-Chen MCMP; Myre 2013, Eqs. 3.5-3.6): components a and b, psi = rho
// for each, the force on a from b F_a = -G rho_a(x) sum_i w_i rho_b(x + c_i) c_i (and on b from a
// alike); G > 0 repels. Both relax to equilibria at Shan-Chen's common velocity shifted by
// tau_s F_s / rho_s; the body force density is shared in proportion to the densities. Wall nodes carry
// a virtual density per component, which sets the contact angle (0, 0: no wall adhesion). At tau = 1 an
// even mixture of total density 2 separates once G exceeds 0.5; with the default G a flat interface
// divides phases holding 2.23 of one component and 0.029 of the other (see docs/lbm.md).
struct TwoComponent {
  double g = 1.0;
  double tau_b = 1.0;                      // component a relaxes with Config::tau
  std::array<double, 2> wall_density{0, 0};  // a, b
};

// Pressure of the two-component fluid: p = (rho_a + rho_b)/3 + G rho_a rho_b / 3.
double two_component_pressure(double rho_a, double rho_b, const TwoComponent& tc);

struct Config {
  double tau = 0.8;                        // relaxation time; viscosity (tau - 1/2) / 3
  Collision collision = Collision::bgk;
  // TRT's magic parameter Lambda (Ginzburg, Verhaeghe & d'Humieres 2008): 3/16 puts a half-way
  // bounce-back wall exactly half-way for any tau (Poiseuille flow exact); 1/4 is the most stable.
  double magic = 3.0 / 16;
  std::array<double, 3> force{0, 0, 0};    // body force density (lattice units)
  Pattern pattern = Pattern::aa;
  Storage storage = Storage::fp32;
  std::size_t work_group = 0;              // work-items along x per group; 0: 64 (docs/lbm-validation.md)
  std::size_t work_group_y = 0;            // and along y (rows of x sharing the group's caches); 0: 1
  // Registers per work-item on NVIDIA GPUs (-cl-nv-maxrregcount); 0: the compiler's choice. Fewer
  // registers let more groups share a multiprocessor; other devices ignore it.
  unsigned max_registers = 0;
  // Boxes along x, y and z, one per device of every process (see DeviceGrid); {0, 0, 0}: z-slabs.
  Extent device_grid{0, 0, 0};
  // The share of the z-planes each device of every process takes (z-slabs only; see DeviceGrid);
  // empty: even. Devices of different speeds finish a step together when weighted by their rates.
  std::vector<double> device_weights;
  // Boxes per device, each cut from the device's box along z, with its own buffers and halos (same
  // bits as one box); 0: the fewest whose every buffer fits one allocation of every device, so that a
  // lattice can fill a device's memory beyond its largest allocation.
  std::size_t boxes_per_device = 0;
  // No fused multiply-adds and correctly rounded division, so devices of different kinds compute the
  // same bits (a few percent slower); always on when the devices belong to different platforms.
  bool exact_arithmetic = false;
  std::optional<ShanChen> shan_chen;       // set: single-component multiphase flow
  std::optional<TwoComponent> two_component;  // set: two-component multiphase flow (not with shan_chen)
  // Zou-He open boundaries on the z-faces, used by inlet nodes (z = 0) and outlet nodes (z = nz - 1).
  std::array<double, 3> inlet_velocity{0, 0, 0};
  double outlet_density = 1.0;
  // The pressure drop over one period along z (a pressure-jump periodic boundary): populations crossing
  // the periodic z boundary upwards gain w_i 3 dp of density, those crossing downwards lose it, so the
  // flow feels the mean gradient dp / nz, as from a body force density dp / nz. Not with open boundaries.
  double pressure_drop = 0.0;
};

// Density and velocity of every node (x fastest), walls 0; velocity includes half the force.
struct Fields {
  std::array<int, 3> dims{};
  std::vector<double> rho;  // two components: their sum
  std::vector<double> u;    // 3 components per node; two components: the mixture's (total momentum / rho)
  std::vector<double> rho_a, rho_b;  // each component's density; empty with one component
};

// A D3Q19 lattice-Boltzmann flow (BGK, TRT or MRT collision) on the devices of a DeviceSet: configure with a
// voxel mask (Geometry), initialise, advance, read fields. Several devices split the lattice into the boxes
// of a DeviceGrid (z-slabs unless Config::device_grid says otherwise), with one halo layer on each side of
// every split axis; after each step that pushes packets into the halos they go to the neighbour, which
// merges them into its boundary layer (A-A also fills the halos before its odd step), so the fields are
// bit-identical to one device's. Each step updates the boxes' boundary layers first and their interiors
// while the halos travel. The step loop only enqueues work; the host waits only to relay halos between devices.
class Solver {
 public:
  // With `processes` (e.g. an mpi::Communicator, outliving the solver) this is one process's share of
  // the lattice: the boxes span the devices of every process in rank order, this one allocates and
  // updates only its own, and the halo layers between processes travel through `processes`. Every
  // process passes the whole geometry and the same config, and calls every method but the accessors
  // collectively (fields() and mass() too).
  Solver(const core::DeviceSet& devices, const Geometry& geometry, const Config& config,
         core::Link* processes = nullptr);

  // Equilibrium with density rho and velocity u everywhere: step 0.
  void initialise(double rho = 1.0, std::array<double, 3> u = {0, 0, 0});
  // Equilibrium with a density per node (x fastest) and velocity u: step 0.
  void initialise(std::span<const double> rho, std::array<double, 3> u = {0, 0, 0});
  // Equilibrium with a density and a velocity per node (x fastest): step 0.
  void initialise(std::span<const double> rho, std::span<const std::array<double, 3>> u);
  // Two components: each at equilibrium with its own density per node and the common velocity u.
  void initialise(std::span<const double> rho_a, std::span<const double> rho_b, std::array<double, 3> u = {0, 0, 0});
  // Enqueues `steps` time steps and returns the event of the last one on the first device.
  core::Event advance(long steps);
  void finish() const { devices_->finish(); }
  long step() const { return step_; }

  // Across processes, rank 0 gets the whole lattice; the others their own nodes (zeros elsewhere).
  Fields fields() const;
  // Total mass of the fluid nodes (both components), summed on the host in double precision.
  double mass() const;
  // The velocity of every node as fields() has it, left on the device for a solver there (in situ):
  // the first `components` (2: a flat lattice's plane, or 3) of each node's, x fastest, in the
  // arithmetic's precision (float, double with FP64 storage), walls 0, into `u` of the device's
  // context. One component, in one box on one device. Returns the event of the write.
  core::Event velocity_on_device(core::Buffer<std::uint8_t>& u, int components) const;

  const Config& config() const { return config_; }
  std::array<int, 3> dims() const { return dims_; }
  std::size_t nodes() const;
  std::size_t parts() const { return parts_.size(); }
  const DeviceGrid& grid() const { return grid_; }
  double viscosity() const { return (config_.tau - 0.5) / 3.0; }
  // Device-memory traffic of one node update (populations read and written once, plus the flag; the
  // wall bits are read only beside walls).
  std::size_t bytes_per_update() const;
  // Device memory the lattice occupies on all devices together.
  std::size_t device_bytes() const { return required_bytes(dims_, config_); }
  // Device memory a lattice of `dims` needs with `config`, known before any mask or solver exists.
  static std::size_t required_bytes(const std::array<int, 3>& dims, const Config& config);
  // The largest single allocation of a box of `local` nodes (halos included) with `config`.
  static std::size_t largest_buffer(const Extent& local, const Config& config);
  // Boxes per device of this run (Config::boxes_per_device, or the one chosen for it).
  std::size_t boxes_per_device() const { return boxes_; }

 private:
  // One box of the DeviceGrid: its own nodes and their halo layers, on device device_of(k) for local part k.
  struct Part {
    Extent local{};                         // nodes along x, y, z, halos included
    core::Buffer<std::uint8_t> flags;       // node type, plus NEAR_WALL for nodes beside a wall
    core::Buffer<std::uint32_t> wall_bits;  // bit i: the neighbour at x + c_i is a wall
    // Populations per component: array 0, and array 1 for A-B.
    core::Buffer<std::uint8_t> f[2][2];
    // Shan-Chen pseudo-potential (a real per node), or two components' mixture field (five per node);
    // else one unused byte.
    core::Buffer<std::uint8_t> psi;
    // One component's kernels; the second component's only with two components.
    struct Kernels {
      core::Kernel ab[2], aa[2], lagrangian, fields;
    };
    Kernels component[2];
    // Nodes along x that a work-item of the collision kernels updates: LBM_VEC on CPUs, else 1.
    int lanes = 1;
    // The local z of this part's own nodes on the global planes z = 0 and z = nz - 1 (-1: none), where
    // a pressure jump applies (lbm.cl, BOUNDARY_ARGS).
    int jump_low = -1, jump_high = -1;
    core::Kernel init, psi_pass;
    const core::Program* program = nullptr;
    // Where the arguments set per launch start, remembered from the binder when the kernels are bound.
    struct LaunchArgs {
      cl_uint shift = 0;         // lbm_lagrangian: tx, ty, tz
      cl_uint fields_out = 0;    // lbm_fields: rho_out, u_out, components, fin
      cl_uint fields_state = 0;  // lbm_fields: layout, tx, ty, tz
      cl_uint psi_in = 0;        // psi_pass (lbm_psi, lbm_mix): fin, or fa
      cl_uint psi_state = 0;     // psi_pass: layout, tx, ty, tz
      cl_uint psi_in_b = 0;      // lbm_mix: fb
    } at;
  };
  // A box of a part's nodes in its local coordinates.
  struct Region {
    Extent first{};
    Extent count{};
    std::size_t nodes() const { return static_cast<std::size_t>(count[0]) * count[1] * count[2]; }
  };

  // How the current pre-collision state is laid out for readers (see lbm_fields).
  int layout() const;
  // The population array that holds the current state (A-B alternates between two).
  std::size_t layout_array() const;
  std::size_t real_bytes() const { return config_.storage == Storage::fp64 ? 8 : 4; }
  std::size_t component_count() const { return config_.two_component ? 2 : 1; }
  std::size_t global_part(std::size_t k) const { return placement_.first() + k; }
  // The local device that holds local part k: a device's boxes are consecutive parts.
  std::size_t device_of(std::size_t k) const { return k / boxes_; }
  // The part's own nodes.
  Region own(std::size_t k) const;
  // The layers of the own nodes beside each split axis's faces (what the halo exchange sends), and
  // what is left of the own nodes inside them (`interior`, possibly empty).
  std::vector<Region> boundary_layers(std::size_t k, Region& interior) const;
  // Uniform density `rho` when `local_rho` is empty, else one density vector per part (halos
  // included), and likewise uniform velocity `u` or `local_u` (3 per node), for the populations of
  // `component`.
  void initialise(const std::vector<std::vector<double>>& local_rho, const std::vector<std::vector<double>>& local_u,
                  std::array<double, 3> u, double rho, std::size_t component = 0);
  // A device buffer of the values in the storage's arithmetic precision (one byte when empty).
  core::Buffer<std::uint8_t> real_buffer(std::size_t k, const std::vector<double>& values) const;
  // Each part's box of a global per-node field, halos included, taken periodically.
  std::vector<std::vector<double>> boxes(std::span<const double> field, const char* what) const;
  // Enqueues lbm_psi (Shan-Chen pseudo-potential) or lbm_mix (two components' densities and common
  // velocity) on every device for the current state, then fills psi's halos.
  void psi_pass() const;
  std::size_t work_group() const;
  std::size_t work_group_y() const;
  core::NDRange local() const;
  // The build's real_t: double with FP64 storage, else float.
  core::Precision real() const {
    return config_.storage == Storage::fp64 ? core::Precision::f64 : core::Precision::f32;
  }
  // Allocates device k's part, builds its program and binds its kernels.
  void build_part(std::size_t k, const Geometry& geometry);
  // Binds every kernel's arguments but those set per launch, whose indices go to `p.at`.
  void bind_kernels(Part& p, const core::Program& program, bool vectors) const;
  // A binder for a node kernel, past its region (set by launch()).
  core::KernelArgs node_args(core::Kernel& kernel) const;
  // Binders of parameter blocks that several kernels share (solver_kernels.cpp names what each mirrors).
  void bind_dims(core::KernelArgs& args, const Part& p) const;
  void bind_flags(core::KernelArgs& args, const Part& p) const;
  void bind_boundaries(core::KernelArgs& args, const Part& p) const;
  void bind_physics(core::KernelArgs& args, const Part& p, double omega, double g, int other) const;
  void bind_shift(core::KernelArgs& args) const;
  void bind_state(core::KernelArgs& args) const;
  // Launches node kernel `kernel` on device k over `region`, a work-item for every `lanes` nodes along x.
  core::Event launch(core::Kernel kernel, std::size_t k, const Region& region, std::span<const core::Event> wait,
                     int lanes = 1) const;
  // Launches `pick(part)` on every device after `pending_`; with halos, the boundary layers first, then
  // the interiors while the halos of population array `array` of `component` are filled or swapped.
  // Each work-item takes the part's `lanes` nodes.
  core::Event launch_all(const std::function<const core::Kernel&(const Part&)>& pick, std::size_t array,
                         std::optional<core::HaloFlow> flow, std::size_t component) const;

  static constexpr int q = 19;  // D3Q19: populations per node
  // Every node kernel's first parameter, `const int8 region`: the box it updates.
  static constexpr cl_uint region_arg = 0;

  const core::DeviceSet* devices_;
  core::Link* link_;  // the other processes, if any
  std::array<int, 3> dims_;
  Config config_;
  std::size_t store_bytes_;
  std::size_t boxes_;  // per device
  core::PartPlacement placement_;
  DeviceGrid grid_;
  bool exact_arithmetic_ = false;
  std::vector<Part> parts_;
  std::unique_ptr<HaloExchange> population_halos_, psi_halos_;  // with halos only
  mutable std::vector<core::Event> pending_;  // what the next launch on each part waits for
  long step_ = 0;
};

}  // namespace hetflow::lbm
