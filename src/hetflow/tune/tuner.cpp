#include "hetflow/tune/tuner.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

#include "hetflow/core/error.hpp"
#include "hetflow/io/timestamp.hpp"
#include "hetflow/optim/exhaustive.hpp"
#include "hetflow/optim/simulated_annealing.hpp"

namespace hetflow::tune {

Search parse_search(const std::string& text) {
  if (text == "exhaustive") return Search::exhaustive;
  if (text == "annealing") return Search::annealing;
  throw core::Error("unknown search '" + text + "' (exhaustive or annealing)");
}

const char* to_string(Search s) {
  switch (s) {
    case Search::exhaustive:
      return "exhaustive";
    case Search::annealing:
      return "annealing";
    case Search::automatic:
      break;
  }
  return "automatic";
}

namespace {

// Annealing proposals per step: few, so that the budget buys many temperature steps.
constexpr std::size_t annealing_batch = 4;
// The share of an annealing budget kept for the final greedy polish.
constexpr double polish_share = 0.2;

std::size_t annealing_budget(std::size_t space_size) { return std::max<std::size_t>(8, space_size / 4); }

// Thrown by the objective when the budget of measurements is spent: the tuner, not optim, owns the
// budget, because it counts distinct settings measured across restarts.
struct BudgetSpent {};

optim::AnnealingOptions annealing_options(const TuningSpace& space, const Setting& start, std::size_t budget,
                                          std::uint64_t seed) {
  optim::AnnealingOptions a;
  a.start = space.point(start);
  a.batch_size = annealing_batch;
  a.seed = seed;
  a.run.on_failure = optim::OnFailure::skip;
  // A schedule that reaches its final temperature after about twice budget / batch steps: memoised
  // proposals cost nothing, so a schedule sized to the budget alone would end with budget to spare.
  const double steps = 2.0 * static_cast<double>(budget) / static_cast<double>(annealing_batch);
  a.cooling = std::clamp(std::pow(a.final_temperature_ratio, 1.0 / steps), 0.5, 0.99);
  return a;
}

// The measured trial of least time (the first of equals).
const Setting& best_of(const std::vector<Trial>& trials) {
  const Trial* best = nullptr;
  for (const Trial& t : trials)
    if (t.failure.empty() && (!best || t.seconds < best->seconds)) best = &t;
  if (!best) throw core::Error("no setting could be measured" + (trials.empty() ? std::string() : ": " + trials.front().failure));
  return best->setting;
}

void summarise(TuneResult& r) {
  r.best = best_of(r.trials);
  double sum = 0;
  std::size_t measured = 0;
  r.worst_seconds = 0;
  for (const Trial& t : r.trials) {
    if (!t.failure.empty()) continue;
    if (t.setting == r.best) r.best_seconds = t.seconds;
    sum += t.seconds;
    ++measured;
    r.worst_seconds = std::max(r.worst_seconds, t.seconds);
  }
  r.mean_seconds = sum / static_cast<double>(measured);
}

}  // namespace

SearchPlan plan_search(const TuningSpace& space, const TunerOptions& options) {
  const std::size_t size = space.feasible_size();
  SearchPlan plan{options.search, options.budget};
  if (plan.search == Search::automatic)
    plan.search = size > 0 && (options.budget == 0 || size <= options.budget) ? Search::exhaustive : Search::annealing;
  if (plan.budget == 0) plan.budget = plan.search == Search::exhaustive ? size : annealing_budget(size);
  return plan;
}

TuneResult tune(const TuningSpace& space, const Objective& seconds, const Setting& start, const TunerOptions& options,
                const TrialObserver& observe) {
  TuneResult result;
  result.space_size = space.feasible_size();
  const SearchPlan plan = plan_search(space, options);
  result.search = plan.search;
  const std::size_t budget = plan.budget;

  // Times span orders of magnitude between settings: searching on log-time weighs a 2x change the
  // same at every scale, and the argmin is unchanged. Each setting is measured once; a restarted
  // annealing run gets the earlier answers back for free.
  std::map<Setting, optim::Evaluation> known;
  std::size_t limit = budget;
  const optim::BatchObjective objective = [&](std::span<const optim::Point> points) {
    std::vector<optim::Evaluation> out;
    for (const optim::Point& p : points) {
      Setting setting = space.setting(p);
      if (const auto it = known.find(setting); it != known.end()) {
        out.push_back(it->second);
        continue;
      }
      if (result.trials.size() >= limit) throw BudgetSpent{};
      Trial t{setting, std::numeric_limits<double>::quiet_NaN(), {}};
      try {
        t.seconds = seconds(t.setting);
        out.push_back(optim::Evaluation::of(std::log(t.seconds)));
      } catch (const core::Error& e) {
        t.failure = e.what();
        out.push_back(optim::Evaluation::failed(t.failure));
      }
      known.emplace(std::move(setting), out.back());
      if (observe) observe(t);
      result.trials.push_back(std::move(t));
    }
    return out;
  };

  if (result.search == Search::exhaustive) {
    optim::ExhaustiveOptions e;
    e.run.on_failure = optim::OnFailure::skip;
    e.run.max_evaluations = budget;
    optim::exhaustive_search(space.space(), objective, e);
  } else {
    // Annealing until all but the polish's share of the budget is spent: a run whose schedule ends
    // first is restarted from the best setting so far with a new seed, reheated.
    const std::size_t annealing_share = budget - static_cast<std::size_t>(polish_share * static_cast<double>(budget));
    Setting from = start;
    limit = annealing_share;
    for (std::uint64_t seed = options.seed; result.trials.size() < annealing_share; ++seed) {
      const std::size_t before = result.trials.size();
      try {
        optim::simulated_annealing(space.space(), objective, annealing_options(space, from, annealing_share, seed));
      } catch (const BudgetSpent&) {
      }
      if (result.trials.size() == before) break;
      from = best_of(result.trials);
    }
    // Polish: greedy descent over the single-parameter neighbours of the best, until none is better
    // or the budget is spent. Annealing may stop beside the optimum without having tried it.
    limit = budget;
    try {
      for (Setting best = best_of(result.trials);;) {
        std::vector<optim::Point> around;
        for (const Setting& n : space.neighbours(best)) around.push_back(space.point(n));
        objective(around);
        if (best_of(result.trials) == best) break;
        best = best_of(result.trials);
      }
    } catch (const BudgetSpent&) {
    }
  }
  summarise(result);
  return result;
}

Entry entry_of(const Tunable& tunable, const TuneResult& result) {
  Entry e;
  e.best = result.best;
  e.best_seconds = result.best_seconds;
  e.mean_seconds = result.mean_seconds;
  e.worst_seconds = result.worst_seconds;
  if (tunable.rate) {
    e.best_rate = tunable.rate(result.best_seconds);
    e.unit = tunable.unit;
  }
  e.search = to_string(result.search);
  e.evaluations = result.trials.size();
  e.space_size = result.space_size;
  e.problem = tunable.problem;
  e.tuned_at = io::utc_timestamp();
  e.cost_unit = tunable.cost_unit;
  return e;
}

}  // namespace hetflow::tune
