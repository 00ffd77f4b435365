#pragma once
#include <functional>
#include <optional>
#include <regex>
#include <string>
#include <vector>

#include "hetflow/app/bench/report.hpp"
#include "hetflow/core/device_set.hpp"

namespace hetflow::app {

struct BenchOptions {
  int repeats = 15;  // timed repeats per case, after warm-up
  // `--only`: the cases to run, by name (searched, ECMAScript syntax); none means every case. A
  // benchmark may skip the work of cases it does not want; bench_command drops whatever else it reports.
  std::optional<std::regex> only;
  bool wants(const std::string& case_name) const { return !only || std::regex_search(case_name, *only); }
};

struct Benchmark {
  std::string name;
  std::string summary;
  std::function<BenchReport(const core::DeviceSet&, const BenchOptions&)> run;
};

// Every benchmark `hetflow bench NAME` can run: those of solvers(), in its order.
const std::vector<Benchmark>& benchmarks();
// Throws core::Error naming the known benchmarks when `name` is not one of them.
const Benchmark& find_benchmark(const std::string& name);

}  // namespace hetflow::app
