#pragma once
#include <array>
#include <filesystem>
#include <optional>
#include <span>
#include <vector>

#include "hetflow/casefile/case.hpp"
#include "hetflow/ftle/seed_grid.hpp"
#include "hetflow/ftle/solver.hpp"

namespace hetflow::app {

// The shown plane of a field: the whole 2D field, or the middle z-plane in 3D.
std::span<const double> shown_plane(const std::vector<double>& field, const ftle::SeedGrid& seeds);

// One FTLE field (its shown plane) in output.colormap with a colour bar, axes in domain units and a title
// with t0 and the time integrated (`steps` of config.steps). The colour range is output.range, else
// `range`, else auto (the plane's min and max).
void write_ftle_png(const std::filesystem::path& path, const casefile::Case& c, const std::vector<double>& field,
                    const ftle::SeedGrid& seeds, const ftle::Config& config, long steps,
                    std::optional<std::array<double, 2>> range = std::nullopt);

// The colour ranges ridges.png used: [min, max] of the forward and the backward layer.
struct RidgeRanges {
  std::array<double, 2> forward{}, backward{};
};

// The forward FTLE (repelling structures) in reds times the backward FTLE (attracting ones) in blues over
// one frame, each with its colour bar (output.ridges): high in both, at hyperbolic points, is dark purple.
// Both fields span |config.duration| from config.t0. Each layer's colour range is output.range, else
// from its shown plane's median to its max: an FTLE field is moderate over much of the domain, and
// leaving the lower half white keeps the blend from muddying, so that the ridges stand out.
RidgeRanges write_ridges_png(const std::filesystem::path& path, const casefile::Case& c,
                             const std::vector<double>& forward, const std::vector<double>& backward,
                             const ftle::SeedGrid& seeds, const ftle::Config& config);

}  // namespace hetflow::app
