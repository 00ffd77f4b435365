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
#include "hetflow/core/plan.hpp"
#include "hetflow/lbm/geometry.hpp"

namespace hetflow::lbm {

// How populations move through memory (thesis App. B): two arrays, or one array in place.
enum class Pattern { ab, aa, lagrangian };
// Storage precision of the populations; arithmetic is float for fp32 and fp16, double for fp64.
enum class Storage { fp32, fp16, fp64 };

Pattern parse_pattern(std::string_view text);
Storage parse_storage(std::string_view text);
const char* to_string(Pattern p);
const char* to_string(Storage s);

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

struct Config {
  double tau = 0.8;                        // relaxation time; viscosity (tau - 1/2) / 3
  std::array<double, 3> force{0, 0, 0};    // body force density (lattice units)
  Pattern pattern = Pattern::aa;
  Storage storage = Storage::fp32;
  std::size_t work_group = 0;              // work-items along x per group; 0: 64 (best in the H200 sweep)
  // No fused multiply-adds and correctly rounded division, so devices of different kinds compute the
  // same bits (a few percent slower); always on when the devices belong to different platforms.
  bool exact_arithmetic = false;
  std::optional<ShanChen> shan_chen;       // set: single-component multiphase flow
  // Zou-He open boundaries on the z-faces, used by inlet nodes (z = 0) and outlet nodes (z = nz - 1).
  std::array<double, 3> inlet_velocity{0, 0, 0};
  double outlet_density = 1.0;
};

// Density and velocity of every node (x fastest), walls 0; velocity includes half the force.
struct Fields {
  std::array<int, 3> dims{};
  std::vector<double> rho;
  std::vector<double> u;  // 3 components per node
};

// A D3Q19 BGK lattice-Boltzmann flow on the devices of a DeviceSet: configure with a voxel mask
// (Geometry), initialise, advance, read fields. Several devices split the lattice into z-slabs with
// one halo plane on each side; after each step that pushes packets into the halos they go to the
// neighbour, which merges them into its boundary plane (A-A also fills the halos before its odd step),
// so the fields are bit-identical to one device's. The step loop only enqueues work; the host waits
// only to relay halos between devices.
class Solver {
 public:
  Solver(const core::DeviceSet& devices, const Geometry& geometry, const Config& config);

  // Equilibrium with density rho and velocity u everywhere: step 0.
  void initialise(double rho = 1.0, std::array<double, 3> u = {0, 0, 0});
  // Equilibrium with a density per node (x fastest) and velocity u: step 0.
  void initialise(std::span<const double> rho, std::array<double, 3> u = {0, 0, 0});
  // Enqueues `steps` time steps and returns the event of the last one on the first device.
  core::Event advance(long steps);
  void finish() const { devices_->finish(); }
  long step() const { return step_; }

  Fields fields() const;
  // Total mass of the fluid nodes, summed on the host in double precision.
  double mass() const;

  const Config& config() const { return config_; }
  std::array<int, 3> dims() const { return dims_; }
  std::size_t nodes() const;
  std::size_t parts() const { return parts_.size(); }
  double viscosity() const { return (config_.tau - 0.5) / 3.0; }
  // Device-memory traffic of one node update (populations read and written once, plus the flag; the
  // wall bits are read only beside walls).
  std::size_t bytes_per_update() const;
  // Device memory the lattice occupies on all devices together.
  std::size_t device_bytes() const { return required_bytes(dims_, config_); }
  // Device memory a lattice of `dims` needs with `config`, known before any mask or solver exists.
  static std::size_t required_bytes(const std::array<int, 3>& dims, const Config& config);

 private:
  // One device's slab: planes [z0, z0 + nz) of the lattice, with halo planes when there are several.
  struct Part {
    int z0 = 0;
    int nz = 0;
    core::Buffer<std::uint8_t> flags;       // node type, plus NEAR_WALL for nodes beside a wall
    core::Buffer<std::uint32_t> wall_bits;  // bit i: the neighbour at x + c_i is a wall
    core::Buffer<std::uint8_t> psi;         // psi_'s part (real_t per node), else one unused byte
    core::Kernel ab[2], aa[2], lagrangian, init, fields, merge[2], psi_pass;  // merge: per population array
  };

  bool halos() const { return parts_.size() > 1; }
  // How the current pre-collision state is laid out for readers (see lbm_fields).
  int layout() const;
  std::size_t real_bytes() const { return config_.storage == Storage::fp64 ? 8 : 4; }
  // Uniform density `rho` when `local_rho` is empty, else one density vector per slab (halos included).
  void initialise(const std::vector<std::vector<double>>& local_rho, std::array<double, 3> u, double rho);
  // Enqueues lbm_psi on every device: the Shan-Chen pseudo-potential of the current state.
  void psi_pass() const;
  // Sets the state-reading arguments (layout, Lagrangian shift) of lbm_fields or lbm_psi from `first`.
  void set_state(core::Kernel& k, cl_uint first) const;
  int local_planes(const Part& p) const { return p.nz + (halos() ? 2 : 0); }
  std::size_t work_group() const;
  core::NDRange range(int planes) const;
  core::NDRange local() const;
  void build_part(std::size_t k, const Geometry& geometry);
  core::Buffer<std::uint8_t>& populations(std::size_t array, std::size_t k) { return f_[array]->buffer(k); }
  void set_dims(core::Kernel& k, cl_uint first, const Part& p) const;
  // Sets the inlet velocity and outlet density arguments from `first`.
  void set_open_boundaries(core::Kernel& k, cl_uint first) const;
  // Sets a real_t argument: float or double as the storage's arithmetic precision.
  void set_real(core::Kernel& k, cl_uint index, double value) const;
  // Launches `kernel` on device k over own planes [first, first + count) of its slab.
  core::Event launch_planes(const core::Kernel& kernel, std::size_t k, int first, int count,
                            std::span<const core::Event> wait) const;
  // Launches `pick(part)` on every device after `pending_`; with halos, then fills or swaps them (and
  // merges what a swap brought), overlapping the exchange with the interior planes.
  core::Event launch_all(const std::function<const core::Kernel&(const Part&)>& pick, std::size_t array,
                         std::optional<core::HaloFlow> flow) const;

  const core::DeviceSet* devices_;
  std::array<int, 3> dims_;
  Config config_;
  std::size_t store_bytes_;
  bool exact_arithmetic_ = false;
  std::vector<Part> parts_;
  std::unique_ptr<core::Plan<std::uint8_t>> f_[2];  // populations; the second only for A-B
  std::unique_ptr<core::Plan<std::uint8_t>> psi_;   // Shan-Chen pseudo-potential
  mutable std::vector<core::Event> pending_;        // what the next launch on each device waits for
  long step_ = 0;
};

}  // namespace hetflow::lbm
