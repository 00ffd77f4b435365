#pragma once
#include <array>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "hetflow/core/buffer.hpp"
#include "hetflow/core/device_set.hpp"
#include "hetflow/core/kernel.hpp"
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

struct Config {
  double tau = 0.8;                        // relaxation time; viscosity (tau - 1/2) / 3
  std::array<double, 3> force{0, 0, 0};    // body force density (lattice units)
  Pattern pattern = Pattern::aa;
  Storage storage = Storage::fp32;
  std::size_t work_group = 0;              // work-items along x per group; 0: 64 (best in the H200 sweep)
};

// Density and velocity of every node (x fastest), walls 0; velocity includes half the force.
struct Fields {
  std::array<int, 3> dims{};
  std::vector<double> rho;
  std::vector<double> u;  // 3 components per node
};

// A D3Q19 BGK lattice-Boltzmann flow on one device: configure with a voxel mask (Geometry),
// initialise, advance, read fields. The step loop only enqueues kernels; nothing waits for the device
// until fields are read.
class Solver {
 public:
  Solver(const core::DeviceSet& devices, const Geometry& geometry, const Config& config);

  // Equilibrium with density rho and velocity u everywhere: step 0.
  void initialise(double rho = 1.0, std::array<double, 3> u = {0, 0, 0});
  // Enqueues `steps` time steps and returns the event of the last one.
  core::Event advance(long steps);
  void finish() const { queue().finish(); }
  long step() const { return step_; }

  Fields fields() const;
  // Total mass of the fluid nodes, summed on the host in double precision.
  double mass() const;

  const Config& config() const { return config_; }
  std::array<int, 3> dims() const { return dims_; }
  std::size_t nodes() const;
  double viscosity() const { return (config_.tau - 0.5) / 3.0; }
  // Device-memory traffic of one node update (populations read and written once, plus the flag; the
  // wall bits are read only beside walls).
  std::size_t bytes_per_update() const;
  // Device memory the lattice occupies.
  std::size_t device_bytes() const;

 private:
  const core::Queue& queue() const { return devices_->compute(0); }
  std::size_t work_group() const;
  core::NDRange global() const;
  core::NDRange local() const;
  void set_common(core::Kernel& k, cl_uint first) const;
  // Sets a real_t argument: float or double as the storage's arithmetic precision.
  void set_real(core::Kernel& k, cl_uint index, double value) const;

  const core::DeviceSet* devices_;
  std::array<int, 3> dims_;
  Config config_;
  std::size_t store_bytes_;
  core::Buffer<std::uint8_t> flags_;       // node type, plus NEAR_WALL for nodes beside a wall
  core::Buffer<std::uint32_t> wall_bits_;  // bit i: the neighbour at x + c_i is a wall
  core::Buffer<std::uint8_t> f_[2];  // the second only for the A-B pattern
  mutable core::Kernel ab_[2], aa_[2], lagrangian_, init_, fields_;
  long step_ = 0;
};

}  // namespace hetflow::lbm
