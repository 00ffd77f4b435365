#include "hetflow/chem/flamelet_diffusion.hpp"

#include <string>

#include "hetflow/core/build_options.hpp"
#include "hetflow/core/error.hpp"
#include "hetflow/core/program.hpp"

namespace hetflow::chem {

DiffusionOperator flamelet_diffusion_operator(const std::vector<double>& z, const std::vector<double>& chi) {
  if (z.size() < 3 || chi.size() != z.size())
    throw core::Error("flamelet diffusion: " + std::to_string(z.size()) + " nodes and " + std::to_string(chi.size()) +
                      " dissipation rates: expected at least 3 nodes and one rate per node");
  DiffusionOperator op;
  for (std::size_t i = 1; i + 1 < z.size(); ++i) {
    const double left = z[i] - z[i - 1], right = z[i + 1] - z[i];
    if (!(left > 0.0 && right > 0.0))
      throw core::Error("flamelet diffusion: the grid does not rise at node " + std::to_string(i));
    op.lower.push_back(chi[i] / (left * (left + right)));
    op.upper.push_back(chi[i] / (right * (left + right)));
  }
  return op;
}

std::vector<double> thomas_factors(const DiffusionOperator& op, double h) {
  const std::size_t n = op.lower.size();
  std::vector<double> f(3 * n);
  double previous_upper = 0.0;
  for (std::size_t i = 0; i < n; ++i) {
    const double lower = -h * op.lower[i], upper = -h * op.upper[i];
    const double diagonal = 1.0 + h * (op.lower[i] + op.upper[i]);
    const double pivot = 1.0 / (diagonal - lower * previous_upper);
    f[i] = lower;
    f[n + i] = previous_upper = upper * pivot;
    f[2 * n + i] = pivot;
  }
  return f;
}

FlameletDiffusion::FlameletDiffusion(const core::DeviceSet& devices, std::size_t device, std::size_t points,
                                     std::size_t components)
    : queue_(&devices.compute(device)),
      points_(points),
      components_(components),
      state_(devices.context(device), (points + 2) * components),
      scratch_(devices.context(device), (points + 2) * components),
      factors_(devices.context(device), 6 * points, CL_MEM_READ_ONLY) {
  const core::Program& program =
      devices.context(device).program("chem/flamelet_diffusion.cl", core::BuildOptions(core::Precision::f64));
  kernel_ = program.kernel("flamelet_diffuse");
}

void FlameletDiffusion::set_operator(DiffusionOperator op) {
  if (op.lower.size() != points_ || op.upper.size() != points_)
    throw core::Error("flamelet diffusion: an operator of " + std::to_string(op.lower.size()) +
                      " points for a grid of " + std::to_string(points_));
  op_ = std::move(op);
  factored_dt_ = 0.0;
}

void FlameletDiffusion::advance(std::vector<double>& state, double dt) {
  if (state.size() != (points_ + 2) * components_)
    throw core::Error("flamelet diffusion: a state of " + std::to_string(state.size()) + " values, expected " +
                      std::to_string((points_ + 2) * components_));
  if (dt != factored_dt_) {
    std::vector<double> f = thomas_factors(op_, dt);
    const std::vector<double> half = thomas_factors(op_, 0.5 * dt);
    f.insert(f.end(), half.begin(), half.end());
    factors_.write(*queue_, std::span<const double>(f));
    factored_dt_ = dt;
  }
  state_.write(*queue_, std::span<const double>(state));
  kernel_.args(state_, scratch_, factors_, static_cast<cl_uint>(points_), static_cast<cl_uint>(components_));
  kernel_.enqueue(*queue_, core::NDRange(components_));
  state_.read(*queue_, std::span<double>(state));
}

}  // namespace hetflow::chem
