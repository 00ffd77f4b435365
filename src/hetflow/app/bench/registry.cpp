#include "hetflow/app/bench/registry.hpp"

#include "hetflow/app/solvers.hpp"
#include "hetflow/core/error.hpp"

namespace hetflow::app {

const std::vector<Benchmark>& benchmarks() {
  static const std::vector<Benchmark> all = [] {
    std::vector<Benchmark> v;
    for (const Solver& s : solvers()) v.insert(v.end(), s.benchmarks.begin(), s.benchmarks.end());
    return v;
  }();
  return all;
}

const Benchmark& find_benchmark(const std::string& name) {
  std::string known;
  for (const Benchmark& b : benchmarks()) {
    if (b.name == name) return b;
    known += (known.empty() ? "" : ", ") + b.name;
  }
  throw core::Error("no benchmark named '" + name + "'; known: " + known);
}

}  // namespace hetflow::app
