#pragma once
#include <string>
#include <vector>

#include "hetflow/app/run_directory.hpp"
#include "hetflow/chem/mechanism.hpp"

namespace hetflow::app {

// What became of one stoichiometric dissipation rate of a flamelet sweep.
struct FlameletPoint {
  double chi_st = 0.0;  // 1/s
  // steady, extinct, end_time, not_steady (chem::outcome_name), failed, interrupted, or not_run (a sweep
  // stopped before it).
  std::string status = "not_run";
  std::string reason;
  std::vector<double> state;  // the profile reached, node-major (Y, T); empty when failed or not run
  std::vector<double> chi;    // chi(z) at every node [1/s]
  long steps = 0;
  double time = 0.0;               // s of this rate's run
  double rate = 0.0;               // the last step's chem::FlameletStep::rate [1/s]
  double t_max = 0.0, rise = 0.0;  // K
  long reactor_steps = 0, most_reactor_steps = 0;
};

// The grid and mixing line of the sweep, for the outputs.
struct FlameletGridData {
  std::vector<double> z, mixing;  // mixing: chem::mixing_line's state
  double z_st = 0.0;
};

// flamelet.csv (chi_st, z, chi, T, the mixing line's T and every Y_k per node of every rate with a profile), scurve.csv
// (one row per rate) and, with output.png, temperature.png (T(z) per rate with the mixing line), species.png (the main
// mass fractions of the first profile) and, for several rates, scurve.png (T_max against chi_st).
void write_flamelet_outputs(RunDirectory& dir, const chem::Mechanism& m, const FlameletGridData& grid,
                            const std::vector<FlameletPoint>& points, bool png);

}  // namespace hetflow::app
