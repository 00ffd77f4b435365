#include "hetflow/app/bench_command.hpp"

#include <filesystem>
#include <iostream>
#include <regex>

#include "hetflow/app/bench/registry.hpp"
#include "hetflow/core/error.hpp"

namespace hetflow::app {

int bench_command(const std::string& name, const std::string& device, const std::string& output, int repeats,
                  const std::string& build_options, const std::string& only) {
  const Benchmark& b = find_benchmark(name);
  BenchOptions options;
  options.repeats = repeats;
  if (!only.empty()) options.only = std::regex(only);  // the command line checked it
  core::DeviceSet devices = core::DeviceSet::select(device);
  devices.set_extra_build_options(build_options);
  // Every case measured is kept on disk at once: a run stopped by Ctrl-C, a time limit or an error keeps
  // the cases before it in NAME-partial.json.
  keep_partial_reports(output, [&](const std::string& case_name) { return options.wants(case_name); });
  BenchReport report;
  try {
    report = b.run(devices, options);
  } catch (const std::exception&) {
    const BenchReport named{name, devices.device(0).info, 0, {}};
    if (std::filesystem::exists(partial_report_path(output, named)))
      std::cerr << "hetflow bench: the cases measured before the error are in "
                << partial_report_path(output, named).string() << "\n";
    throw;
  }
  if (options.only) {
    std::erase_if(report.cases, [&](const BenchCase& c) { return !options.wants(c.name); });
    if (report.cases.empty()) throw core::Error("--only '" + only + "': no case of " + name + " matches");
    report.subset = only;
  }
  report.print_table(std::cout);
  std::cout << "wrote " << report.write(output).string() << "\n";
  std::filesystem::remove(partial_report_path(output, report));
  return 0;
}

}  // namespace hetflow::app
