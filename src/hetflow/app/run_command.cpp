#include "hetflow/app/run_command.hpp"

#include <iostream>

#include "hetflow/app/case_type.hpp"
#include "hetflow/core/device_set.hpp"
#include "hetflow/io/interrupt.hpp"

namespace hetflow::app {
namespace {

nlohmann::json device_json(const core::Device& d) {
  const core::DeviceInfo& i = d.info;
  return {{"name", i.name},       {"platform", i.platform},     {"driver", i.driver},
          {"opencl_c", i.opencl_c}, {"type", core::to_string(i.kind)}, {"global_mem_bytes", i.global_mem},
          {"compute_units", i.compute_units}, {"fp64", i.fp64}, {"index", i.index}};
}

}  // namespace

// The double gyre's FTLE with the ftle defaults (401 x 201 seeds on [0, 2] x [0, 1], t0 = 0, T = 15,
// RK4) but dt = 0.2: 75 steps, about 1.3 s on 2 PoCL cores, and a mean FTLE within 1e-6 of dt = 0.1's.
// The device self-test is `type: selftest` (examples/selftest.yaml).
std::string default_case_yaml() { return "type: ftle\nftle:\n  dt: 0.2\noutput:\n  dir: runs/default\n"; }

int run_command(const RunRequest& request) {
  std::vector<std::string> overrides;
  if (request.device) overrides.push_back("device.select=" + *request.device);
  if (request.output) overrides.push_back("output.dir=" + *request.output);
  overrides.insert(overrides.end(), request.overrides.begin(), request.overrides.end());

  const io::Case c = request.case_file.empty()
                         ? io::parse_case(default_case_yaml(), case_registry(), overrides, "<built-in default case>")
                         : io::load_case(request.case_file, case_registry(), overrides);

  const CaseType& type = find_case_type(c.type());
  type.check(c);
  core::DeviceSet devices = core::DeviceSet::select(c.get<std::string>("device.select"));
  devices.set_extra_build_options(c.get<std::string>("device.build_options"));

  RunDirectory dir(c.get<std::string>("output.dir"));
  dir.manifest()["command"] = request.command_line;
  dir.manifest()["case"] = c.to_json();
  dir.manifest()["case_source"] = c.source();
  dir.manifest()["overrides"] = c.overrides();
  for (std::size_t k = 0; k < devices.size(); ++k) dir.manifest()["devices"].push_back(device_json(devices.device(k)));
  dir.write_manifest("running");

  if (request.verbosity != io::Verbosity::quiet) {
    std::cerr << "hetflow: running " << c.type() << " on";
    for (std::size_t k = 0; k < devices.size(); ++k) std::cerr << (k ? "," : "") << " " << devices.device(k).label();
    std::cerr << "\n";
  }
  const io::InterruptGuard guard;
  RunContext context{devices, dir, request.verbosity};
  RunOutcome outcome;
  try {
    outcome = type.run(c, context);
  } catch (const std::exception& e) {
    dir.manifest()["error"] = e.what();
    dir.write_manifest("failed");
    throw;
  }
  const bool interrupted = outcome == RunOutcome::interrupted;
  dir.write_manifest(interrupted ? "interrupted" : "complete");
  std::cout << (interrupted ? "interrupted; final outputs written to " : "results in ") << dir.path().string()
            << "\n";
  return interrupted ? 130 : 0;
}

}  // namespace hetflow::app
