#pragma once
// The `ignition:` keys, how an ignition is found: an ignition case's section, and hetflow.ignition_delays's
// keyword arguments (the Python package), with the same defaults and checks.
#include <string>
#include <vector>

#include "hetflow/app/chem/ignition_search.hpp"
#include "hetflow/casefile/case.hpp"
#include "hetflow/casefile/schema.hpp"

namespace hetflow::app {

// criterion, rise, end_time, first_sample, samples_per_decade, refinements, candidates and reactor.
void declare_ignition_keys(casefile::Section& section);

// What the keys' own checks cannot see: first_sample below end_time.
void check_ignition_keys(const casefile::Case& c, std::vector<std::string>& problems);

IgnitionSettings ignition_settings(const casefile::Case& c);

}  // namespace hetflow::app
