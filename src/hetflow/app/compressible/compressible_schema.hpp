#pragma once
#include <string>
#include <vector>

#include "hetflow/casefile/case.hpp"
#include "hetflow/casefile/schema.hpp"

namespace hetflow::app {

// The sections of a compressible case: domain, boundary, materials, initial, scheme, time, adapt and
// the compressible keys of output (docs/compressible.md lists them all).
void declare_compressible(casefile::Schema& schema);

// What the schema cannot express, each problem naming the file, line, key and value: a block size the
// ghost band does not fit, sides periodic on one side of an axis only, material names that are not
// declared, keys of another region shape, a pressure at or below −p∞ of its material, an inflow state
// of a side that is not an inflow, HDF5 asked of a build without it.
void check_compressible_case(const casefile::Case& c, std::vector<std::string>& problems);

// The regions of initial.regions in the order the case file gives them (regions given by --set alone
// come after, by name): a later region paints over an earlier one.
std::vector<std::string> region_order(const casefile::Case& c);

}  // namespace hetflow::app
