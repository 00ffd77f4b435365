#include "hetflow/app/karst/karst_inversion_setup.hpp"

#include <cmath>

#include "hetflow/core/error.hpp"

namespace hetflow::app {
namespace {

karst::HeatPoint heat_point(const casefile::Case& c, const char* key) {
  const auto v = c.get<std::vector<double>>(key);
  return {v[0], v[1], v[2]};
}

}  // namespace

void declare_inversion_keys(casefile::Schema& s) {
  auto& v = s.section("inversion", "the method, its start and bounds (defaults: thesis Table 7.3)");
  v.key<std::string>("method", "nlcg", "nlcg (non-linear conjugate gradients) or lm (Levenberg-Marquardt)")
      .one_of({"nlcg", "lm"});
  v.key<std::vector<double>>("start", std::vector<double>{2000.0, 10.0, 4.5}, "start [Pe, St, Theta]").length(3);
  v.key<std::vector<double>>("lower", std::vector<double>{1900.0, 0.75, 0.1}, "lower bounds [Pe, St, Theta]").length(3);
  v.key<std::vector<double>>("upper", std::vector<double>{2050.0, 20.0, 6.0}, "upper bounds [Pe, St, Theta]").length(3);
  v.key<double>("psi", 2.235, "heat capacity ratio (not inverted)").above(0);
  v.key<double>("noise", 0.0, "standard deviation of the observations; 0: estimated from the residuals").at_least(0);
  v.key<long>("max_evaluations", 1000, "budget of forward runs for the method").at_least(1);
  v.key<std::string>("on_failure", "stop",
                     "a failed forward run ends the inversion (stop) or is a rejected trial (skip)")
      .one_of({"stop", "skip"});
}

void check_inversion_keys(const casefile::Case& c, std::vector<std::string>& problems) {
  try {
    inversion_box(c).check(heat_point(c, "inversion.start"));
  } catch (const core::Error& e) {
    problems.push_back(c.where("inversion.start") + ": " + e.what());
  }
}

karst::ParameterBox inversion_box(const casefile::Case& c) {
  return {heat_point(c, "inversion.lower"), heat_point(c, "inversion.upper")};
}

karst::InversionOptions inversion_options(const casefile::Case& c, optim::EvaluationLog* log) {
  karst::InversionOptions options;
  options.method =
      c.get<std::string>("inversion.method") == "lm" ? karst::Method::levenberg_marquardt : karst::Method::nlcg;
  options.start = heat_point(c, "inversion.start");
  options.noise = c.get<double>("inversion.noise");
  options.run.max_evaluations = static_cast<std::size_t>(c.get<long>("inversion.max_evaluations"));
  options.run.on_failure =
      c.get<std::string>("inversion.on_failure") == "skip" ? optim::OnFailure::skip : optim::OnFailure::stop;
  options.run.log = log;
  return options;
}

nlohmann::json inversion_summary(const casefile::Case& c, const karst::InversionResult& r, double seconds) {
  const optim::Result& o = r.optimisation;
  nlohmann::json best, sigma, failures = nlohmann::json::array();
  const double x[3] = {r.best.Pe, r.best.St, r.best.Theta};
  for (std::size_t i = 0; i < 3; ++i) {
    best[karst::heat_point_names[i]] = x[i];
    sigma[karst::heat_point_names[i]] = std::isfinite(r.sigma[i]) ? nlohmann::json(r.sigma[i]) : nlohmann::json();
  }
  for (const optim::FailedEvaluation& f : o.failures) failures.push_back({{"batch", f.batch}, {"reason", f.reason}});
  return {{"method", c.get<std::string>("inversion.method")},
          {"start", c.get<std::vector<double>>("inversion.start")},
          {"lower", c.get<std::vector<double>>("inversion.lower")},
          {"upper", c.get<std::vector<double>>("inversion.upper")},
          {"parameters", best},
          {"sigma", sigma},
          {"Psi", r.best.Psi},
          {"rms", r.rms},
          {"noise", r.noise},
          {"noise_given", c.get<double>("inversion.noise") > 0},
          {"converged", o.converged},
          {"stop_reason", o.stop_reason},
          {"iterations", o.iterations},
          {"evaluations", o.evaluations},
          {"batches", o.batches},
          {"forward_runs", r.forward_runs},
          {"failures", failures},
          {"seconds", seconds},
          {"forward_runs_per_second", static_cast<double>(r.forward_runs) / seconds}};
}

}  // namespace hetflow::app
