#include "hetflow/app/run_command.hpp"

#include <iostream>

#include "hetflow/app/build_notices.hpp"
#include "hetflow/app/case_record.hpp"
#include "hetflow/app/case_type.hpp"
#include "hetflow/app/ranks.hpp"
#include "hetflow/core/build_notice.hpp"
#include "hetflow/core/device_set.hpp"
#include "hetflow/core/selection.hpp"
#include "hetflow/io/interrupt.hpp"

namespace hetflow::app {
namespace {

nlohmann::json device_json(const core::Device& d) {
  const core::DeviceInfo& i = d.info;
  return {{"name", i.name},       {"platform", i.platform},     {"driver", i.driver},
          {"opencl_c", i.opencl_c}, {"type", core::to_string(i.kind)}, {"global_mem_bytes", i.global_mem},
          {"compute_units", i.compute_units}, {"fp64", i.fp64}, {"index", i.index}};
}

// The case's devices: device.select, or with `tuned` the choice stored for the case's solver over all of
// this machine's devices (`auto` where none is stored; `choice` says which, or why none).
core::DeviceSet select_devices(const casefile::Case& c, const CaseType& type, const Ranks& ranks,
                               std::vector<double>& weights, nlohmann::json& choice) {
  const std::string spec = c.get<std::string>("device.select");
  if (spec != "tuned") return core::DeviceSet::select(spec);
  const std::string where = c.where("device.select") + ": device.select: tuned: ";
  const std::optional<ChoiceKey> key = type.device_choice(c);
  if (!key) throw core::Error(where + "a " + c.type() + " case has no device choice to take (lbm and ftle cases have)");
  if (ranks.size() > 1) throw core::Error(where + "the tuner chooses one process's devices: start it without mpiexec");
  const std::vector<core::Device> all = core::select_devices("all");
  if (std::optional<ChosenDevices> chosen = tuned_devices(*key, all, choice)) {
    weights = std::move(chosen->weights);
    return core::DeviceSet(chosen->devices);
  }
  return core::DeviceSet::select("auto");
}

}  // namespace

// The double gyre's FTLE with the ftle defaults (401 x 201 seeds on [0, 2] x [0, 1], t0 = 0, T = 15,
// RK4) but dt = 0.2: 75 steps, about 1.3 s on 2 PoCL cores, and a mean FTLE within 1e-6 of dt = 0.1's.
// The device self-test is `type: selftest` (examples/selftest.yaml).
std::string default_case_yaml() { return "type: ftle\nftle:\n  dt: 0.2\noutput:\n  dir: runs/default\n"; }

RunReport run_command(const RunRequest& request, core::Link* processes) {
  const Ranks ranks(processes);
  std::vector<std::string> overrides;
  if (request.device) overrides.push_back("device.select=" + *request.device);
  if (request.output) overrides.push_back("output.dir=" + *request.output);
  overrides.insert(overrides.end(), request.overrides.begin(), request.overrides.end());

  // Every rank reads the case and selects its own devices; no rank goes on unless all could, so that one
  // that could not leaves none waiting in the solver's first collective.
  const casefile::Case c = ranks.make_together([&] {
    if (!request.case_file.empty()) return casefile::load_case(request.case_file, case_registry(), overrides);
    if (request.case_yaml) return casefile::parse_case(*request.case_yaml, case_registry(), overrides, "<case text>");
    return casefile::parse_case(default_case_yaml(), case_registry(), overrides, "<built-in default case>");
  });
  const CaseType& type = find_case_type(c.type());
  std::vector<double> weights;
  nlohmann::json choice;
  core::DeviceSet devices = ranks.make_together([&] {
    type.check(c);
    if (ranks.size() > 1 && !type.runs_across_processes()) {
      throw core::Error("a " + c.type() + " case runs on one process: start it without mpiexec");
    }
    core::DeviceSet selected = select_devices(c, type, ranks, weights, choice);
    selected.set_extra_build_options(c.get<std::string>("device.build_options"));
    return selected;
  });
  nlohmann::json here = {{"host", host_name()}, {"devices", nlohmann::json::array()}};
  for (std::size_t k = 0; k < devices.size(); ++k) here["devices"].push_back(device_json(devices.device(k)));
  const std::vector<std::string> everywhere = ranks.gather_texts(here.dump());

  // From here a signal is a request to stop: none kills one rank while the others go on.
  const io::InterruptGuard guard(ranks.root());
  RunDirectory dir = ranks.make_together([&] {
    RunDirectory made(c.get<std::string>("output.dir"), ranks.root(), request.command_line);
    made.manifest()["command"] = request.command_line;
    made.manifest()["case"] = c.to_json();
    made.manifest()["case_source"] = c.source();
    made.manifest()["overrides"] = c.overrides();
    record_case(c, type, made, ranks.root());
    made.manifest()["devices"] = here["devices"];
    if (!choice.is_null()) made.manifest()["device_choice"] = choice;
    made.manifest()["processes"] = {{"count", ranks.size()}, {"ranks", nlohmann::json::array()}};
    for (const std::string& rank : everywhere) made.manifest()["processes"]["ranks"].push_back(nlohmann::json::parse(rank));
    made.write_manifest("running");
    return made;
  });

  // Other ranks print only their errors.
  const display::Verbosity verbosity = ranks.root() ? request.verbosity : display::Verbosity::quiet;
  if (verbosity != display::Verbosity::quiet) {
    for (const std::string& note : dir.notes()) std::cerr << "hetflow: " << note << "\n";
    if (choice.is_string()) std::cerr << "hetflow: device.select tuned: " << choice.get<std::string>() << "; running on auto\n";
    std::cerr << "hetflow: running " << c.type() << " on";
    for (std::size_t k = 0; k < devices.size(); ++k) std::cerr << (k ? "," : "") << " " << devices.device(k).label();
    if (ranks.size() > 1) std::cerr << " (rank 0 of " << ranks.size() << ")";
    std::cerr << "\n";
  }
  RunContext context{devices, dir, verbosity, ranks, weights};
  RunOutcome outcome = RunOutcome::complete;
  const double compiled_before = core::compile_seconds();
  try {
    const BuildNotices notices(verbosity);
    ranks.together([&] { outcome = type.run(c, context); });
  } catch (const std::exception& e) {
    dir.manifest()["error"] = e.what();
    dir.write_manifest("failed");
    throw;
  }
  // Compiling kernels that missed the cache, apart from the case's own timings (which may include it).
  dir.add_timing("kernel_build", core::compile_seconds() - compiled_before);
  const bool interrupted = outcome == RunOutcome::interrupted;
  dir.write_manifest(interrupted ? "interrupted" : "complete");
  if (ranks.root()) {
    std::cout << (interrupted ? "interrupted; final outputs written to " : "results in ") << dir.path().string()
              << "\n";
  }
  return {interrupted ? 130 : 0, dir.path()};
}

}  // namespace hetflow::app
