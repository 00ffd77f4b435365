#pragma once
#include <cstddef>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "hetflow/app/ftle/ftle_case_setup.hpp"
#include "hetflow/app/ftle/ftle_nan_seeds.hpp"
#include "hetflow/app/ftle/ftle_png.hpp"
#include "hetflow/app/ftle/ftle_statistics.hpp"
#include "hetflow/app/run_directory.hpp"
#include "hetflow/casefile/case.hpp"
#include "hetflow/display/progress.hpp"
#include "hetflow/ftle/solver.hpp"

namespace hetflow::app {

// output.ridges: what a single-field run adds when it also computes the opposite direction's field.

// The case's configuration with T -> -T, everything else the same.
ftle::Config reversed(const ftle::Config& config);

// "forward" for T > 0, "backward" for T < 0.
std::string direction(const ftle::Config& config);

// The opposite direction's field as the run writes it.
struct OppositeField {
  std::string name;  // its array and .npy name: ftle_backward, or ftle_forward when the case's T < 0
  std::vector<double> values;
  double duration = 0;  // its T, -T of the case
  FieldStats stats;
};

// The opposite field read back from its solve, masked as the case's own, with its statistics.
OppositeField opposite_field(const FtleSetup& setup, std::vector<double> values, const NanSeeds& nan);

// ridges.png in the run directory, the forward field in reds and the backward in blues whichever of them is
// the case's own, listed among the outputs; its colour ranges.
RidgeRanges write_ridges_file(const casefile::Case& c, RunDirectory& dir, display::Progress& progress,
                              const std::vector<double>& own, const OppositeField& opposite, const FtleSetup& setup);

// How far the opposite direction's solve got.
struct OppositeSolve {
  long steps = 0;
  std::size_t stopped_tracers = 0;
  double device_seconds = 0;
};

// result.ridges: the opposite field's statistics and files, or why it was not written: `solve` empty when
// the case's own field was interrupted and the second solve never ran, `written` null when it was
// interrupted. `memory` is its memory plan, `png` ridges.png's colour ranges where it was written.
nlohmann::json ridges_json(const casefile::Case& c, const FtleSetup& setup, const std::optional<OppositeSolve>& solve,
                           const OppositeField* written, const nlohmann::json& memory,
                           const std::optional<RidgeRanges>& png);

// "; backward: mean FTLE ..." to follow the headline of the case's own field.
std::string ridges_headline(const OppositeField& other);

}  // namespace hetflow::app
