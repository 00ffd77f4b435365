#pragma once
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

#include "hetflow/ftle/analytic_flow.hpp"
#include "hetflow/ftle/body.hpp"
#include "hetflow/ftle/seed_grid.hpp"
#include "hetflow/ftle/sequence.hpp"
#include "hetflow/ftle/solver.hpp"
#include "hetflow/ftle/velocity_grid.hpp"
#include "hetflow/casefile/case.hpp"

namespace hetflow::app {

// A `type: ftle` case resolved into what ftle::Solver takes: the velocity (an analytic flow or gridded
// snapshots read from files), the seed grid and the solver configuration.
struct FtleSetup {
  std::variant<ftle::AnalyticFlow, std::shared_ptr<const ftle::VelocityGrid>> flow;
  ftle::SeedGrid seeds;
  ftle::Config config;
  // The `sequence:` section: fields = 1 is a single field (no sequence); more run ftle::Sequence with
  // start times config.t0 + k interval.
  ftle::SequenceSpec sequence;
  // ftle.body: seeds inside it get FTLE = NaN (ftle::body_mask); none without a body.
  std::optional<ftle::Body> body;
  // output.edges: nan: the seeds on the seed grid's faces get NaN as well (ftle::edge_mask).
  bool nan_edges = false;
  nlohmann::json info;  // the flow as run, for the manifest
};

// The keys of the `ftle:` and `seeds:` sections and the ftle-specific `output:` keys.
void declare_ftle_keys(casefile::Schema& schema);

// What the schema cannot express, each problem with file:line and key: T = 0, steps and dt both given,
// parameters of another flow, seed lists of different lengths or of the wrong dimension, an unreadable
// or non-finite velocity file, seeds outside the velocity data, an integration window outside the
// snapshots (with output.ridges also the opposite one, from t0 to t0 - T), a free stream of the wrong
// length, a malformed body (check_body_keys), a bad colour range, a sequence the chosen method cannot run
// (flow_maps: |T| not a whole number of intervals, a step count that does not split into them, a gridded
// boundary other than clamp; output.flow_map, eigenvector, lambda_min, npy or ridges with a sequence).
// Reads the velocity and voxel files; make_ftle_setup reuses what was read. A `given` grid (the Python
// package's arrays, checked by VelocityGrid::check) is the velocity of ftle.flow = file instead of what
// ftle.velocity.files would read.
void check_ftle_case(const casefile::Case& c, std::vector<std::string>& problems,
                     std::shared_ptr<const ftle::VelocityGrid> given = {});

// Of ftle.steps and ftle.dt, the one the case gave but the other overrules (a --set of one overrides the
// other written in the case): empty unless both are given and steps is > 0.
std::vector<std::string> ftle_overruled_keys(const casefile::Case& c);

// The setup of a case that passed check_ftle_case (with the same `given` grid).
FtleSetup make_ftle_setup(const casefile::Case& c, std::shared_ptr<const ftle::VelocityGrid> given = {});

}  // namespace hetflow::app
