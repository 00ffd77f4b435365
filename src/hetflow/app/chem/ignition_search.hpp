#pragma once
#include <functional>
#include <string>
#include <vector>

#include "hetflow/chem/mechanism.hpp"
#include "hetflow/chem/reactor.hpp"
#include "hetflow/ode/radau5.hpp"

namespace hetflow::app {

enum class IgnitionCriterion {
  temperature_rise,  // the first time T reaches T0 + rise
  max_slope          // the time of the largest dT/dt, for systems that reach T0 + rise
};

struct IgnitionSettings {
  IgnitionCriterion criterion = IgnitionCriterion::temperature_rise;
  double rise = 400.0;             // K
  double end_time = 0.1;           // s
  double first_sample = 1e-7;      // s: the first sample time after t = 0
  int samples_per_decade = 20;     // the sample grid is geometric from first_sample to end_time
  int refinements = 3;             // levels of bracket refinement
  int candidates = 15;             // sample times per refinement level inside the bracket
};

// One system's outcome. `status`: ignited, no_ignition (T0 + rise not reached by end_time), failed (the
// integrator's reason in `reason`) or interrupted. delay and final_temperature are NaN unless known.
struct IgnitionRun {
  std::string status;
  std::string reason;
  double delay = 0.0;
  double final_temperature = 0.0;
  std::vector<double> temperature;  // at IgnitionSweep::times; NaN after a failure or an interruption
};

struct IgnitionSweep {
  std::vector<double> times;  // the sample grid, 0 first
  std::vector<IgnitionRun> runs;
  long launches = 0;     // ode::Radau5::integrate calls
  bool stopped = false;  // keep_going said stop: the sweep or its refinement ended early
};

// Integrates every system (y0: mass fractions in mechanism order, then T; params each system's reactor
// parameter: its pressure [Pa], or for `kind` constant_volume its density [kg/m³]) through the
// sample grid, one batch launch per interval, each continuing from the previous states; then brackets
// each system's ignition between two samples and refines the bracket: every level integrates
// `candidates` times inside it from the state at its lower end (one launch for all systems), so the
// bracket shrinks by candidates + 1 (temperature_rise) or (candidates + 1) / 2 (max_slope) per level.
// The delay is the root of the cubic Hermite interpolant of T (values and host dT/dt) on the last
// bracket, or the vertex of the parabola through the largest dT/dt and its neighbours.
// `keep_going(launches_done, launches_planned)` is asked after every launch; false stops the sweep.
IgnitionSweep find_ignition(const ode::Radau5& solver, const chem::Mechanism& mechanism, chem::ReactorKind kind,
                            const std::vector<std::vector<double>>& y0, const std::vector<double>& params,
                            const IgnitionSettings& settings,
                            const std::function<bool(long, long)>& keep_going);

}  // namespace hetflow::app
