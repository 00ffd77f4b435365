#include "hetflow/app/nnls/tnt_constants_tunable.hpp"

#include <cstdio>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "hetflow/app/nnls/nnls_tunable.hpp"
#include "hetflow/core/error.hpp"
#include "hetflow/core/number_text.hpp"
#include "hetflow/nnls/tnt.hpp"
#include "hetflow/nnls/tnt_work.hpp"

namespace hetflow::app {
namespace {

const std::vector<std::string>& tnt_files() {
  static const std::vector<std::string> files{"nnls/dense.cl", "nnls/tnt.cl"};
  return files;
}

// Two decimals, so the database holds the constants as a user writes them.
std::string two_decimals(double value) {
  char text[16];
  std::snprintf(text, sizeof text, "%.2f", value);
  return text;
}

// "0.05", "0.10", ...
std::vector<std::string> grid(double lowest, double highest, double step) {
  std::vector<std::string> values;
  for (int k = 0; lowest + step * k <= highest + 1e-9; ++k) values.push_back(two_decimals(lowest + step * k));
  return values;
}

// Everything one evaluation needs, shared by the copies of the Tunable's objective.
struct Workload {
  Workload(const core::DeviceSet& devices, const nnls::DenseTuning& tuning, std::vector<TntClassProblem> p)
      : tnt(devices, 0, tuning), problems(std::move(p)) {}
  nnls::Tnt tnt;
  std::vector<TntClassProblem> problems;
};

// Throws core::Error (a failed trial) naming the setting and the problem when a right-hand side did not
// converge: constants that lose the answer are not a candidate, however fast.
void require_converged(const std::vector<nnls::TntResult>& results, const tune::Setting& s, const TntClassProblem& p) {
  for (std::size_t j = 0; j < results.size(); ++j)
    if (!results[j].converged)
      throw core::Error(tune::describe(s) + ": " + p.label + ", right-hand side " + std::to_string(j + 1) +
                        " did not converge: " + results[j].diagnosis);
}

}  // namespace

TntObjective parse_tnt_objective(const std::string& text) {
  if (text == "time") return TntObjective::time;
  if (text == "work") return TntObjective::work;
  throw core::Error("--objective " + text + ": expected time or work");
}

const char* to_string(TntObjective objective) { return objective == TntObjective::work ? "work" : "time"; }

tune::Key tnt_constants_key(const core::DeviceInfo& device, const std::string& class_name, TntObjective objective) {
  tune::Key key = tune::make_key(tnt_constants_name, device, tnt_files(), class_name);
  return objective == TntObjective::work ? tune::for_any_device(std::move(key)) : key;
}

tune::Tunable tnt_constants_tunable(const core::DeviceSet& devices, const TntClass& problem_class,
                                    TntObjective objective, const tune::MeasureOptions& measure) {
  // The kernel sizes `hetflow nnls` would take, so that timed constants suit the runs that use them.
  nlohmann::json unused;
  auto work =
      std::make_shared<Workload>(devices, nnls_tuned_dense(devices, false, unused), tnt_class_problems(problem_class));
  std::string problem = describe(problem_class);
  if (objective == TntObjective::work)
    problem +=
        "; work = factorisations + " + core::shortest_text(nnls::tnt_work_per_cg_iteration) + " PCGNR iterations";
  const nnls::TntOptions defaults;  // the search starts from them
  tune::Tunable t{tnt_constants_name,
                  tnt_files(),
                  problem_class.name,
                  std::move(problem),
                  tune::TuningSpace({tune::Dimension::ordered("rc", grid(0.05, 0.95, 0.05)),
                                     tune::Dimension::ordered("ec", grid(1.05, 2.0, 0.15))}),
                  {{"rc", two_decimals(defaults.reduction)}, {"ec", two_decimals(defaults.expansion)}},
                  {},
                  {},
                  "",
                  objective == TntObjective::work ? "work" : "",
                  objective == TntObjective::work};
  t.seconds = [work, objective, measure](const tune::Setting& s) {
    nnls::TntOptions options;
    options.reduction = std::stod(s.at("rc"));
    options.expansion = std::stod(s.at("ec"));
    double cost = 0;
    for (const TntClassProblem& p : work->problems) {
      std::vector<nnls::TntResult> results;
      const auto solve = [&] { results = work->tnt.solve(p.A, p.B, options); };
      if (objective == TntObjective::time) {
        cost += tune::measure(tune::wall_clock(solve), measure).median;
      } else {
        solve();
        for (const nnls::TntResult& r : results) cost += nnls::tnt_work(r);
      }
      require_converged(results, s, p);
    }
    return cost;
  };
  return t;
}

}  // namespace hetflow::app
