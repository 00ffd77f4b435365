#pragma once
#include "hetflow/app/case_type.hpp"
#include "hetflow/app/run_directory.hpp"
#include "hetflow/casefile/case.hpp"

namespace hetflow::app {

// Records the case a run was given so that the run can be repeated from anywhere: case.yaml in the run
// directory (written when `writes`, i.e. on rank 0) and the manifest's "case_given". Both hold the keys
// the case gave, in its file or by --set, with path-valued keys absolute, and not the defaults: whether
// a key was given at all still decides some things (ftle's steps and dt), and a short record reads as
// the case did. Keys the case type says another given key overrules are left out. `hetflow run DIR/case.yaml` and
// `hetflow run DIR/manifest.json` run this case again.
void record_case(const casefile::Case& c, const CaseType& type, RunDirectory& dir, bool writes);

// The text of case.yaml: a header saying what it is and how to run it again, then the keys.
std::string recorded_case_yaml(const casefile::Case& c, const CaseType& type, const std::filesystem::path& dir);

}  // namespace hetflow::app
