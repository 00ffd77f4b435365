#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace hetflow::app {

// What `hetflow tune` was asked to do. --size, --storage and --case mean what each tunable says
// (TuneTarget's size_help, storage_help and case_help).
struct TuneRequest {
  std::string name;            // a TuneTarget's name
  std::string device = "auto"; // the first selected device is tuned (TuneTarget::every_device: all)
  std::string search;          // exhaustive, annealing; empty: exhaustive when the space fits the budget
  std::size_t budget = 0;      // settings measured at most; 0: the tuner's default
  std::string db;              // empty: tune::default_database_path()
  int size = 0;                // 0: the tunable's default
  std::string storage;         // empty: the tunable's default precision; each precision is its own class
  std::string case_file;       // the case whose workload is measured, for tunables that take one
  int repeats = 5;             // timed runs per setting, after one warm-up
  std::uint64_t seed = 1;
  // nnls-constants only: the problem class (app/nnls/tnt_class.hpp) and how a setting is costed.
  std::string problem_class;          // the name its entry is stored under
  std::vector<double> kappas;         // SVC condition numbers; empty: the class's default
  std::vector<double> active;         // fractions of the variables active in the solutions; empty: default
  std::vector<std::string> problems;  // matrix and right-hand-side files, in pairs, instead of SVC problems
  std::string objective;              // time or work; empty: time
};

}  // namespace hetflow::app
