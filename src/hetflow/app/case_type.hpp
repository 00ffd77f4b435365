#pragma once
#include <optional>
#include <string>
#include <vector>

#include "hetflow/app/device_choice.hpp"
#include "hetflow/app/ranks.hpp"
#include "hetflow/app/run_directory.hpp"
#include "hetflow/core/device_set.hpp"
#include "hetflow/casefile/case.hpp"
#include "hetflow/casefile/registry.hpp"
#include "hetflow/display/progress.hpp"

namespace hetflow::app {

// What a case type's run gets: this rank's devices, the run directory (written on rank 0 alone), how
// chatty to be (quiet on other ranks) and the ranks of a run under mpiexec (one without).
struct RunContext {
  const core::DeviceSet& devices;
  RunDirectory& directory;
  display::Verbosity verbosity;
  Ranks ranks{nullptr};
  // The share of the work each device takes, where the tuner chose devices of different kinds
  // (device.select: tuned); empty: the solver's even split.
  std::vector<double> device_weights{};
};

enum class RunOutcome { complete, interrupted };

// A solver as `hetflow run` sees it: a schema for its case files and a run that writes into a run
// directory. Runs poll io::interrupted() after each step and still write final outputs when it is set.
class CaseType {
 public:
  virtual ~CaseType() = default;
  virtual casefile::Schema schema() const = 0;
  // What the schema cannot express (keys one variant needs, sizes that must agree), checked before any
  // device is opened or the run directory is created, so a bad case leaves nothing behind.
  virtual void check(const casefile::Case&) const {}
  virtual RunOutcome run(const casefile::Case& c, RunContext& context) const = 0;
  // Keys the case gave that another given key overrules, which the recorded case (case.yaml) leaves out so
  // that it runs the same without the --set that did the overruling.
  virtual std::vector<std::string> overruled_keys(const casefile::Case&) const { return {}; }
  // Whether run() spreads over the ranks of context.ranks (mpiexec -n N, N > 1): its collective calls
  // in the same order on every rank, files written on rank 0 alone. Others refuse to start under MPI.
  virtual bool runs_across_processes() const { return false; }
  // The tuning entry that chooses the case's devices under `device.select: tuned` (for its storage or
  // precision); nothing where the type has no device choice.
  virtual std::optional<ChoiceKey> device_choice(const casefile::Case&) const { return std::nullopt; }
};

// For CaseType::check: throws casefile::CaseError with the problems in file order, as the schema reports its
// own (overrides and defaults, which have no line, last); nothing when there are none.
void throw_problems(const casefile::Case& c, std::vector<std::string> problems);

// Prints a line of the run's headline result ("lbm: permeability k = ...") on stdout, where `hetflow run`
// then says where the results are; nothing when quiet (as on every rank but the first). Runs call it at
// their end, interrupted or not, so that the result is on the terminal without opening the manifest.
void print_headline(const RunContext& context, const std::string& line);

// Every case type (those of solvers(), in its order), and the registry of their schemas that case files
// are validated against.
const std::vector<const CaseType*>& case_types();
const casefile::CaseRegistry& case_registry();
const CaseType& find_case_type(const std::string& name);

}  // namespace hetflow::app
