#include "hetflow/app/ftle/ftle_ridges.hpp"

#include <cstdio>
#include <utility>

#include "hetflow/ftle/body.hpp"

namespace hetflow::app {

ftle::Config reversed(const ftle::Config& config) {
  ftle::Config opposite = config;
  opposite.duration = -config.duration;
  return opposite;
}

std::string direction(const ftle::Config& config) { return config.duration > 0 ? "forward" : "backward"; }

OppositeField opposite_field(const FtleSetup& setup, std::vector<double> values, const NanSeeds& nan) {
  const ftle::Config reverse = reversed(setup.config);
  OppositeField other{"ftle_" + direction(reverse), std::move(values), reverse.duration, {}};
  if (!nan.mask.empty()) ftle::mask_seeds(nan.mask, other.values);
  other.stats = statistics(other.values, setup.seeds, nan.mask);
  return other;
}

RidgeRanges write_ridges_file(const casefile::Case& c, RunDirectory& dir, display::Progress& progress,
                              const std::vector<double>& own, const OppositeField& opposite, const FtleSetup& setup) {
  const bool forward_first = setup.config.duration > 0;
  const RidgeRanges ranges = write_ridges_png(dir.file("ridges.png"), c, forward_first ? own : opposite.values,
                                              forward_first ? opposite.values : own, setup.seeds, setup.config);
  dir.add_output("ridges.png", std::string("forward FTLE (reds) times backward FTLE (blues) over one frame") +
                                   (setup.seeds.dimension == 3 ? ", middle z-plane" : "") +
                                   ", a colour bar each: the repelling and attracting ridges; dark purple where "
                                   "both are high (hyperbolic points)");
  progress.note("wrote " + dir.file("ridges.png").string());
  return ranges;
}

nlohmann::json ridges_json(const casefile::Case& c, const FtleSetup& setup, const std::optional<OppositeSolve>& solve,
                           const OppositeField* written, const nlohmann::json& memory,
                           const std::optional<RidgeRanges>& png) {
  const std::string which = direction(reversed(setup.config));
  nlohmann::json r = {{"direction", which},
                      {"integration_time", -setup.config.duration},
                      {"steps", solve ? solve->steps : 0},
                      {"completed", written != nullptr}};
  if (!written) {
    r["note"] = solve ? "interrupted after " + std::to_string(solve->steps) + " of " +
                            std::to_string(setup.config.steps) + " steps: the " + which + " field is not written"
                      : "not computed: the run was interrupted before the " + which + " solve";
    return r;
  }
  const FieldStats& stats = written->stats;
  r.update({{"array", written->name},
            {"mean_ftle", stats.mean},
            {"min_ftle", stats.min},
            {"max_ftle", stats.max},
            {"interior_mean_ftle", stats.interior_mean},
            {"negative_ftle_share", stats.negative_share},
            {"stopped_tracers", solve->stopped_tracers},
            {"device_seconds", solve->device_seconds},
            {"memory", memory}});
  if (png) {
    r["png"] = "ridges.png";
    r["png_range"] = {{"forward", png->forward}, {"backward", png->backward}};
    r["png_range_source"] = c.get<std::vector<double>>("output.range").size() == 2
                                ? "output.range"
                                : "auto: each field's median to its max (NaN left out)";
  }
  if (c.get<bool>("output.npy")) r["npy"] = written->name + ".npy";
  return r;
}

std::string ridges_headline(const OppositeField& other) {
  char text[160];
  std::snprintf(text, sizeof text, "; %s: mean FTLE %.4f (min %.4f, max %.4f)",
                other.duration > 0 ? "forward" : "backward", other.stats.mean, other.stats.min, other.stats.max);
  return text;
}

}  // namespace hetflow::app
