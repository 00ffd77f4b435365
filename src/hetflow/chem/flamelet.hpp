#pragma once
#include <cstddef>
#include <memory>
#include <vector>

#include "hetflow/chem/flamelet_diffusion.hpp"
#include "hetflow/chem/mechanism.hpp"
#include "hetflow/chem/reactor_source.hpp"
#include "hetflow/core/device_set.hpp"
#include "hetflow/core/error.hpp"
#include "hetflow/ode/radau5.hpp"

namespace hetflow::chem {

// The order in which a step applies diffusion D and chemistry C: Lie, C(dt) D(dt) (first order), or
// Strang, D(dt/2) C(dt) D(dt/2) (second order).
enum class Splitting { lie, strang };
const char* splitting_name(Splitting s);  // "lie", "strang"

// The unsteady flamelet with unity Lewis numbers (docs/chem.md, Flamelets):
//   dY_k/dt = (chi/2) d^2Y_k/dz^2 + W_k w_k / rho,   dT/dt = (chi/2) d^2T/dz^2 - sum_k h_k w_k / (rho c_p),
// the c_p-gradient terms of T's equation left out, on a z-grid with the oxidizer held at z = 0 and the
// fuel at z = 1.
struct FlameletConfig {
  std::vector<double> z;      // the nodes, z_0 = 0 to z_{N+1} = 1 (flamelet_grid)
  std::vector<double> chi;    // the scalar dissipation rate at every node [1/s] (dissipation_rates)
  double pressure = one_atm;  // Pa
  Splitting splitting = Splitting::strang;
  ode::Options options;  // RADAU5's, for every reactor of a chemistry sub-step
  ReactorJacobian jacobian = ReactorJacobian::analytic;
};

// A step that cannot give a state: RADAU5 failing at a node, or a value that is not finite. what() names
// the step, its time, the node and its z.
class FlameletError : public core::Error {
 public:
  using core::Error::Error;
};

// What one step did.
struct FlameletStep {
  // How fast the state still changes: the largest |dY_k| and |dT| / T_max over the interior nodes, per
  // second of the step. A steady flamelet has it near 0.
  double rate = 0.0;
  long reactor_steps = 0;       // RADAU5's accepted steps, summed over the nodes
  long most_reactor_steps = 0;  // the most at one node
};

// The flamelet advanced by operator splitting: diffusion on one device (FlameletDiffusion), chemistry as
// one batch of constant-pressure adiabatic reactors, one per interior node, integrated by ode::Radau5
// over the step (reactor_system). The state is node-major, (Y_1..Y_K, T) at each of the N + 2 nodes; the
// boundary nodes are the streams and stay as set.
class Flamelet {
 public:
  // Builds the diffusion kernel on the first device and RADAU5's reactor kernel on every device.
  Flamelet(const core::DeviceSet& devices, const Mechanism& mechanism, FlameletConfig config);

  const FlameletConfig& config() const { return config_; }
  std::size_t points() const { return config_.z.size() - 2; }  // interior nodes
  std::size_t components() const { return species_ + 1; }
  const std::vector<double>& state() const { return state_; }
  double time() const { return time_; }
  long steps() const { return steps_; }

  // A new state (nodes x components values) at time 0, e.g. mixing_line or equilibrium_profile.
  void set_state(std::vector<double> state);
  // New dissipation rates (one per node), keeping the state and time: continuation along an S-curve.
  void set_dissipation_rates(std::vector<double> chi);

  // Advances by one split step of dt. Throws FlameletError, leaving the state and time as they were, when
  // RADAU5 fails at a node or a value stops being finite.
  FlameletStep step(double dt);

 private:
  void check_finite(const std::vector<double>& state, const char* after, double dt) const;

  std::size_t species_;
  FlameletConfig config_;
  FlameletDiffusion diffusion_;
  ode::Radau5 reactors_;
  std::vector<double> state_;
  double time_ = 0.0;
  long steps_ = 0;
};

// The largest T - T_mix over the nodes: how far a flamelet burns above its mixing line (mixing_line of the
// same grid); near 0 for an extinguished one.
double temperature_rise(const std::vector<double>& state, const std::vector<double>& mixing, std::size_t components);

}  // namespace hetflow::chem
