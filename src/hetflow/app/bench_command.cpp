#include "hetflow/app/bench_command.hpp"

#include <iostream>

#include "bench/registry.hpp"

namespace hetflow::app {

int bench_command(const std::string& name, const std::string& device, const std::string& output, int repeats,
                  const std::string& build_options) {
  const bench::Benchmark& b = bench::find_benchmark(name);
  core::DeviceSet devices = core::DeviceSet::select(device);
  devices.set_extra_build_options(build_options);
  bench::Options options;
  options.repeats = repeats;
  const bench::Report report = b.run(devices, options);
  report.print_table(std::cout);
  std::cout << "wrote " << report.write(output).string() << "\n";
  return 0;
}

}  // namespace hetflow::app
