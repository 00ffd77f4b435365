#pragma once
#include <array>
#include <cstddef>
#include <span>
#include <string>
#include <vector>

#include "hetflow/core/link.hpp"
#include "hetflow/karst/device_solver.hpp"
#include "hetflow/karst/model.hpp"
#include "hetflow/karst/series.hpp"
#include "hetflow/optim/evaluation.hpp"
#include "hetflow/optim/run.hpp"

namespace hetflow::karst {

// Inversion of the heat model's (Pe, St, Theta) from an observed outlet series (Myre 2013, Secs. 6.3 and
// 7.3.2). Psi is a property of water and rock, not inverted.
using HeatPoint = std::array<double, 3>;  // (Pe, St, Theta)
inline constexpr std::array<const char*, 3> heat_point_names = {"Pe", "St", "Theta"};

// The box of (Pe, St, Theta). The methods see u = (x - lower) / (upper - lower) in [0, 1]^3, the
// parameters normalised by their bounds: Pe ~ 2000 and Theta ~ 4 differ by 500x, and a finite-difference
// step or a conjugate direction must mean the same fraction of every range.
struct ParameterBox {
  HeatPoint lower{1900, 0.75, 0.1};  // thesis Table 7.3
  HeatPoint upper{2050, 20, 6};

  // core::Error naming the parameter: a limit not finite, lower >= upper, a box reaching outside the
  // model's domain (Pe, Theta > 0, St >= 0), or a start outside the box
  // ("karst inversion: start Theta = 7 is outside its bounds [0.1, 6]").
  void check(const HeatPoint& start) const;
  optim::Point to_unit(const HeatPoint& x) const;
  HeatPoint from_unit(std::span<const double> u) const;
};

// What the misfit compares: the model driven by inlet and velocity against `observed` (outlet values at
// observed.t). The model steps `substeps` times per observation interval (uniformly from t* = 0 to the
// first observation, then between observations), so loggers may sample coarser than the scheme needs.
struct MisfitProblem {
  Series inlet, velocity, observed;
  Grid grid;  // space and model options; its times are set from observed.t and substeps
  std::size_t substeps = 1;
  double Psi = 1;
};

// The least-squares misfit as an optim::BatchObjective over unit points: every batch is one
// KarstDevice::run, the residuals are model - observed at the observation times. A candidate whose
// parameters the model rejects, or whose outlet is not finite, fails alone with its reason; the others of
// its batch keep their values. An error of the device run itself fails the whole batch (nothing else in
// it can be trusted), so a method stops or skips cleanly instead of losing its log to an exception.
class KarstMisfit {
 public:
  // Validates forcing, observations (strictly increasing, t* > 0, finite) and grid: core::Error.
  KarstMisfit(KarstDevice& device, MisfitProblem problem, ParameterBox box);

  std::vector<optim::Evaluation> operator()(std::span<const optim::Point> unit_points);

  // The modelled outlet at the observation times for each set, by one device run (throws on failure).
  std::vector<Series> outlet(std::span<const KarstParameters> sets);
  KarstParameters parameters(std::span<const double> unit_point) const;

  const ParameterBox& box() const { return box_; }
  const Series& observed() const { return problem_.observed; }
  std::size_t forward_runs() const { return forward_runs_; }

 private:
  std::vector<double> at_observations(std::span<const double> model_values) const;

  KarstDevice& device_;
  MisfitProblem problem_;
  ParameterBox box_;
  std::size_t forward_runs_ = 0;
};

enum class Method { nlcg, levenberg_marquardt };

struct InversionOptions {
  Method method = Method::nlcg;
  HeatPoint start{2000, 10, 4.5};  // thesis Table 7.3
  // Standard deviation of the observations, for the parameter uncertainties; 0: estimated from the
  // residuals at the solution (RMS with K - 3 degrees of freedom).
  double noise = 0;
  // Budget, stop-or-skip on failed candidates and the log (points in unit coordinates).
  optim::RunOptions run{1000, optim::OnFailure::stop, nullptr};
};

struct InversionResult {
  optim::Result optimisation;  // the method's result, points in unit coordinates
  KarstParameters best;        // Pe, St, Theta found, Psi given
  // One standard deviation of each parameter from the Gauss-Newton covariance noise^2 (J^T J)^-1 at the
  // solution; NaN when that Jacobian could not be formed or is singular.
  HeatPoint sigma{};
  double noise = 0;  // the standard deviation used for sigma
  double rms = 0;    // RMS of the residuals at the solution
  Series fit;        // the modelled outlet at the observation times
  std::size_t forward_runs = 0;  // over all processes
};

// Runs the method on a unit-coordinate objective from box.to_unit(start) in [0, 1]^3. Checks the box and
// the start first.
optim::Result minimise(const optim::BatchObjective& objective, const ParameterBox& box, const InversionOptions& options);

// minimise() on the misfit, then the fit and the uncertainties at the solution. A run that ended on a
// failed candidate still returns its best point so far (optimisation.stop_reason says why). With
// `processes` every batch of forward runs is spread over them (optim::spread_over): collective, each
// process calls it with the same options and its own misfit on its own devices, and all get the result.
InversionResult invert(KarstMisfit& misfit, const InversionOptions& options, core::Link* processes = nullptr);

}  // namespace hetflow::karst
