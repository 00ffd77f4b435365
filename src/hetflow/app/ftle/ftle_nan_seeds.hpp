#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "hetflow/app/ftle/ftle_case_setup.hpp"

namespace hetflow::app {

// The seeds whose values a run writes as NaN and leaves out of its statistics: those in the body
// (ftle.body), which start in no fluid, and with output.edges: nan those on the seed grid's faces, whose
// one-sided differences the case asked not to show.
struct NanSeeds {
  std::vector<std::uint8_t> mask;  // one flag per seed, x fastest; empty when no seed is flagged
  std::size_t body = 0;            // seeds in the body
  std::size_t edges = 0;           // seeds on the faces and outside the body
};

NanSeeds nan_seeds(const FtleSetup& setup);

}  // namespace hetflow::app
