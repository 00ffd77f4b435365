#include "hetflow/fem/derived_fields.hpp"

namespace hetflow::fem {

std::vector<Gradient> velocity_gradient(const EdgeData& data, std::span<const Vec3> u) {
  check_size(data, u.size(), "u");
  const std::size_t n = u.size();
  std::vector<Gradient> g(n);
  std::vector<double> component(n);
  for (std::size_t k = 0; k < 3; ++k) {
    for (std::size_t i = 0; i < n; ++i) component[i] = u[i][k];
    const std::vector<Vec3> pi = strong_gradient(data, component);
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t l = 0; l < 3; ++l) g[i][3 * k + l] = pi[i][l] * data.inv_lumped_mass[i];
  }
  return g;
}

Vec3 vorticity(const Gradient& g) { return {g[7] - g[5], g[2] - g[6], g[3] - g[1]}; }

// ‖Ω‖² − ‖S‖² = −Σ_kl G_kl G_lk: the squares of the entries cancel, leaving the cross products.
double q_criterion(const Gradient& g) {
  double trace_g2 = 0.0;
  for (std::size_t k = 0; k < 3; ++k)
    for (std::size_t l = 0; l < 3; ++l) trace_g2 += g[3 * k + l] * g[3 * l + k];
  return -0.5 * trace_g2;
}

double divergence(const Gradient& g) { return g[0] + g[4] + g[8]; }

DerivedFields derived_fields(const EdgeData& data, std::span<const Vec3> u) {
  const std::vector<Gradient> g = velocity_gradient(data, u);
  DerivedFields out;
  out.vorticity.reserve(g.size());
  out.q.reserve(g.size());
  out.divergence.reserve(g.size());
  for (const Gradient& gi : g) {
    out.vorticity.push_back(vorticity(gi));
    out.q.push_back(q_criterion(gi));
    out.divergence.push_back(divergence(gi));
  }
  return out;
}

}  // namespace hetflow::fem
