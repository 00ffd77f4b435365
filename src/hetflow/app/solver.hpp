#pragma once
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "hetflow/app/bench/registry.hpp"
#include "hetflow/app/case_type.hpp"
#include "hetflow/app/tune_request.hpp"
#include "hetflow/core/device_set.hpp"
#include "hetflow/tune/measurement.hpp"
#include "hetflow/tune/tuner.hpp"

namespace CLI {
class App;
}

namespace hetflow::app {

// One `hetflow tune NAME`: what it tunes and what the shared options mean for it, as the help shows them,
// and how to build its tune::Tunable from the request.
struct TuneTarget {
  std::string name{};
  std::string help{};               // what it tunes
  std::string size_help{};          // what --size means for it; empty: it takes no size
  std::string storage_help{};       // what --storage means for it; empty: it ignores --storage
  bool fp16 = false;                // whether fp16 is one of its --storage precisions
  std::string case_help{};          // what --case means for it; empty: it takes no case file
  std::string every_device_help{};  // how it is tuned on every selected device; empty: on the first alone
  // Whether it chooses among the selected devices (of any kinds; `auto` selects all of them), and is
  // stored for the machine's devices together (app/device_choice.hpp).
  bool chooses_devices = false;
  std::function<tune::Tunable(const TuneRequest&, const core::DeviceSet&, const tune::MeasureOptions&)> make{};
};

// A subcommand of a solver's own (`hetflow nnls`): added to the command line before parsing; `run`
// runs it when the command line chose it.
struct Command {
  const CLI::App* command = nullptr;
  std::function<int()> run{};
};

// A solver as the `hetflow` command knows it: its case types (`run`, `cases`), benchmarks (`bench`),
// tunables (`tune`) and commands of its own. The CLI and its help are built from solvers(). Every member
// has a default, so that a description names only what the solver has.
struct Solver {
  std::string name{};
  std::vector<std::shared_ptr<const CaseType>> case_types{};
  std::vector<Benchmark> benchmarks{};
  std::vector<TuneTarget> tunables{};
  std::vector<std::function<Command(CLI::App&)>> commands{};
};

// --size when given, else `on_gpu` where a GPU is among the devices and `elsewhere` otherwise.
int size_or_default(const TuneRequest& request, const core::DeviceSet& devices, int on_gpu, int elsewhere);

}  // namespace hetflow::app
