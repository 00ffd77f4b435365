#pragma once
#include <cstddef>
#include <cstdint>
#include <iosfwd>
#include <string>

#include <nlohmann/json.hpp>

#include "hetflow/core/device_set.hpp"
#include "hetflow/io/case_file.hpp"
#include "hetflow/lbm/solver.hpp"
#include "hetflow/nnls/device_dense.hpp"
#include "hetflow/tune/database.hpp"

namespace CLI {
class App;
}

namespace hetflow::app {

// What `hetflow tune` was asked to do.
struct TuneRequest {
  std::string name;            // lbm, karst, nnls, ftle, radau5, probe
  std::string device = "auto"; // the first selected device is tuned (lbm: all, with the device grid)
  std::string search;          // exhaustive, annealing; empty: exhaustive when the space fits the budget
  std::size_t budget = 0;      // settings measured at most; 0: the tuner's default
  std::string db;              // empty: tune::default_database_path()
  int size = 0;                // lbm: lattice edge (0: 192 on a GPU, 64 elsewhere); karst: water nodes (0: 1000, 100);
                               // nnls: matrix order (0: 2000, 200); ftle: grid nodes along x (0: 2048, 256);
                               // radau5: systems (0: the case's batch.count)
  std::string storage;         // lbm: population storage, empty fp32; nnls, ftle: fp64 (empty) or fp32; each its own class
  std::string case_file;       // radau5: the reactor_batch case whose batch is measured
  int repeats = 5;             // timed runs per setting, after one warm-up
  std::uint64_t seed = 1;
};

// Adds the `tune` subcommand and its options (writing into `request`) to `app`.
CLI::App* add_tune_command(CLI::App& app, TuneRequest& request);

// `hetflow tune NAME`: measures the settings, prints each and the best with its best/mean and
// best/worst ratios, and writes the best into the tuning database.
int tune_command(const TuneRequest& request, std::ostream& out);

// The database key the LBM uses on `device` for `config`'s storage and physics model on `devices` devices.
tune::Key lbm_tuning_key(const core::DeviceInfo& device, const lbm::Config& config, std::size_t devices);

// `config` with its work-group, pattern and device grid taken from the tuning database where the case
// leaves them open (lbm.work_group 0; lbm.pattern and lbm.device_grid not given, and one process only,
// since every process must use the same ones), all devices share one name and driver, and
// HETFLOW_NO_TUNE is unset; on several devices from the entry tuned on as many. What was taken, or
// why nothing, goes into `record` (the manifest's "tuning").
lbm::Config with_lbm_tuning(lbm::Config config, const io::Case& c, const core::DeviceSet& devices,
                            std::size_t processes, nlohmann::json& record);

// The karst solver's work-items per set from the tuning database (`hetflow tune karst`), under the
// same conditions; 0 (the solver's default) when nothing applies. Recorded in `record` likewise.
std::size_t karst_tuned_work_group(const core::DeviceSet& devices, nlohmann::json& record);

// TNT's dense-kernel sizes for `devices` in FP32 or FP64 from the tuning database (`hetflow tune nnls`),
// under the same conditions; the defaults when nothing applies or the entry does not fit the device.
// Recorded in `record` likewise.
nnls::DenseTuning nnls_tuned_dense(const core::DeviceSet& devices, bool fp32, nlohmann::json& record);

}  // namespace hetflow::app
