#pragma once
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "hetflow/casefile/case.hpp"
#include "hetflow/ftle/body.hpp"
#include "hetflow/ftle/seed_grid.hpp"

namespace hetflow::app {

// The `ftle.body` section: a solid body whose seeds get FTLE = NaN (docs/ftle.md, "Free stream and
// bodies"), analytic (circle, cylinder, sphere, box) or a voxel file in the lbm geometry formats.
void declare_body_keys(casefile::Section& ftle);

// Each problem with file:line and key: keys of another shape, a shape of the other dimension, a centre
// or corner of the wrong length, a radius that is not positive, an empty box, an unreadable voxel file
// or one of the wrong dimension, and a body that covers every seed of `seeds` (null: not checked, when
// the seeds are malformed already).
void check_body_keys(const casefile::Case& c, int dimension, const ftle::SeedGrid* seeds,
                     std::vector<std::string>& problems);

// The body of a case that passed check_body_keys; none for shape none.
std::optional<ftle::Body> make_body(const casefile::Case& c, int dimension);

// The body as run, for the manifest's flow.body.
nlohmann::json body_info(const ftle::Body& body, const casefile::Case& c);

}  // namespace hetflow::app
