#include "hetflow/app/bench_command.hpp"

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
  BenchReport report = b.run(devices, options);
  if (options.only) {
    std::erase_if(report.cases, [&](const BenchCase& c) { return !options.wants(c.name); });
    if (report.cases.empty()) throw core::Error("--only '" + only + "': no case of " + name + " matches");
    report.subset = only;
  }
  report.print_table(std::cout);
  std::cout << "wrote " << report.write(output).string() << "\n";
  return 0;
}

}  // namespace hetflow::app
