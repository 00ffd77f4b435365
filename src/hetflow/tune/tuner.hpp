#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "hetflow/tune/database.hpp"
#include "hetflow/tune/measurement.hpp"
#include "hetflow/tune/tuning_space.hpp"

namespace hetflow::tune {

// The cost of one setting: its median seconds per timed run (measure() of a TimedRun), or a positive
// deterministic count of work where the Tunable says so (cost_unit). A core::Error (e.g. a work-group
// the kernel cannot run with) makes the setting a failed trial, not a failed tuning.
using Objective = std::function<double(const Setting&)>;

// Something the tuner knows how to tune on one device: its space, its defaults (what runs where
// nothing is tuned), its cost, and what keys its database entries.
struct Tunable {
  std::string name;                       // "lbm"
  std::vector<std::string> kernel_files;  // registered kernel files whose text keys the entry
  std::string problem_class;              // the class of problems the setting is for
  std::string problem;                    // the problem measured, for the record
  TuningSpace space;
  Setting defaults;                        // a feasible setting: the annealing's start
  Objective seconds;
  // The figure of merit of a run of `s` seconds (MLUPs/s from nodes × steps / s); empty: none.
  std::function<double(double)> rate;
  std::string unit;
  // Empty: `seconds` returns seconds. Else the unit of the deterministic cost it returns instead: a
  // count of work that, unlike a time, repeats exactly and lets a test assert what the search found.
  std::string cost_unit = {};
  // Whether the cost is the same on every device (a count of operations): its entry is then stored for
  // tune::any_device, where a run on any device finds it.
  bool device_independent = false;
};

enum class Search { automatic, exhaustive, annealing };

// "exhaustive" / "annealing" → Search; core::Error otherwise.
Search parse_search(const std::string& text);
const char* to_string(Search s);

struct TunerOptions {
  // automatic: exhaustive when every feasible setting fits the budget, else annealing (thesis spaces
  // are tiny; enumerating them costs little more than searching).
  Search search = Search::automatic;
  // Settings measured at most; 0: the whole space for exhaustive search, a quarter of it (at least 8)
  // for annealing.
  std::size_t budget = 0;
  std::uint64_t seed = 1;
};

struct Trial;
// Called with every trial as soon as it is measured (a tuning run can take minutes: `hetflow tune`
// prints each as it comes).
using TrialObserver = std::function<void(const Trial&)>;

struct Trial {
  Setting setting;
  double seconds = 0;   // NaN for a failed one
  std::string failure;  // empty when measured
};

struct TuneResult {
  Setting best;
  double best_seconds = 0, mean_seconds = 0, worst_seconds = 0;  // over the measured trials
  Search search = Search::exhaustive;                             // what ran
  std::size_t space_size = 0;                                     // feasible settings
  std::vector<Trial> trials;                                      // in the order measured

  // The thesis's two figures: how much faster the best setting is than the mean and than the worst
  // of those evaluated.
  double best_over_mean() const { return mean_seconds / best_seconds; }
  double best_over_worst() const { return worst_seconds / best_seconds; }
};

// What tune() runs for `space` under `options`: the search (automatic resolved) and the most settings
// it measures.
struct SearchPlan {
  Search search = Search::exhaustive;
  std::size_t budget = 0;
};
SearchPlan plan_search(const TuningSpace& space, const TunerOptions& options);

// Searches the space for the setting of least cost, measuring each setting at most once and at most
// `budget` settings. Exhaustive search enumerates the feasible settings (core::Error if they outnumber
// the budget). Annealing (optim::simulated_annealing on log-time, from `start`) runs on 80 % of the
// budget, restarted from the best so far when its schedule ends early, and a greedy descent over the
// best's one-parameter neighbours spends the rest. core::Error if nothing could be measured.
TuneResult tune(const TuningSpace& space, const Objective& seconds, const Setting& start, const TunerOptions& options,
                const TrialObserver& observe = {});

// The database record of a result, rating the best with the tunable's figure of merit.
Entry entry_of(const Tunable& tunable, const TuneResult& result);

}  // namespace hetflow::tune
