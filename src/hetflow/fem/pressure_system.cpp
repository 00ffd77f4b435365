#include "hetflow/fem/pressure_system.hpp"

#include <string>

#include "hetflow/core/error.hpp"

namespace hetflow::fem {
namespace {

double trace_laplacian(const double* r) {
  return r[edge_slot::laplacian] + r[edge_slot::laplacian + 4] + r[edge_slot::laplacian + 8];
}
double dot_slots(const double* r, const Vec3& v) { return r[0] * v[0] + r[1] * v[1] + r[2] * v[2]; }

void check_nodes(const EdgeData& data, std::size_t size, const char* field) {
  if (size != data.node_count())
    throw core::Error(std::string("the field ") + field + " has " + std::to_string(size) + " values for " +
                      std::to_string(data.node_count()) + " nodes");
}

}  // namespace

std::vector<std::uint8_t> fixed_node_mask(std::size_t nodes, std::span<const std::uint32_t> fixed, const char* what) {
  std::vector<std::uint8_t> mask(nodes, 0);
  for (std::uint32_t i : fixed) {
    if (i >= nodes)
      throw core::Error(std::string(what) + " node " + std::to_string(i) + " is out of range: the mesh has " +
                        std::to_string(nodes) + " nodes");
    mask[i] = 1;
  }
  return mask;
}

CsrMatrix pressure_matrix(const EdgeData& data, std::span<const double> tau, const PressureParameters& param,
                          std::span<const std::uint8_t> fixed) {
  check_nodes(data, tau.size(), "tau");
  check_nodes(data, fixed.size(), "fixed");
  const std::size_t n = data.node_count();
  CsrMatrix h;
  h.n = n;
  h.row_start.assign(data.matrix_row_start.begin(), data.matrix_row_start.end());
  h.col.assign(data.matrix_col.begin(), data.matrix_col.end());
  h.values.assign(h.col.size(), 0.0);
  for (std::size_t i = 0; i < n; ++i) {
    double diagonal = 0;
    std::size_t diagonal_at = 0;
    for (std::size_t k = data.matrix_row_start[i]; k < data.matrix_row_start[i + 1]; ++k) {
      const std::uint32_t e = data.matrix_edge[k];
      if (e == no_edge) {
        diagonal_at = k;
        continue;
      }
      const std::uint32_t j = data.col[e];
      const double value = (param.theta_dt() + 0.5 * (tau[i] + tau[j])) * trace_laplacian(data.record(e));
      diagonal -= value;
      h.values[k] = fixed[i] || fixed[j] ? 0.0 : value;
    }
    h.values[diagonal_at] = fixed[i] ? 1.0 : diagonal;
  }
  return h;
}

std::vector<double> pressure_increment_rhs(const EdgeData& data, std::span<const double> tau,
                                           const PressureParameters& param, std::span<const Vec3> u_hat,
                                           std::span<const Vec3> xi, std::span<const double> p,
                                           std::span<const std::uint8_t> fixed, std::span<const Vec3> u_n) {
  check_nodes(data, tau.size(), "tau");
  if (param.mass_correction) check_nodes(data, u_n.size(), "u_n");
  check_nodes(data, u_hat.size(), "u_hat");
  check_nodes(data, xi.size(), "xi");
  check_nodes(data, p.size(), "p");
  check_nodes(data, fixed.size(), "fixed");
  std::vector<double> b(data.node_count(), 0.0);
  for (std::size_t i = 0; i < b.size(); ++i) {
    if (fixed[i]) continue;
    double divergence = 0, stabilisation = 0;
    for (std::size_t k = data.row_start[i]; k < data.row_start[i + 1]; ++k) {
      const std::uint32_t j = data.col[k];
      const double* r = data.record(k);
      const Vec3 du{u_hat[j][0] - u_hat[i][0], u_hat[j][1] - u_hat[i][1], u_hat[j][2] - u_hat[i][2]};
      divergence += dot_slots(r + edge_slot::d, du);
      if (param.mass_correction)
        divergence += dot_slots(r + edge_slot::d, Vec3{u_n[j][0] - u_n[i][0], u_n[j][1] - u_n[i][1], u_n[j][2] - u_n[i][2]});
      stabilisation += 0.5 * (tau[i] + tau[j]) *
                       (dot_slots(r + edge_slot::g, xi[j]) - dot_slots(r + edge_slot::d, xi[i]) -
                        trace_laplacian(r) * (p[j] - p[i]));
    }
    b[i] = -param.density * divergence + stabilisation;
  }
  return b;
}

std::vector<Vec3> pressure_projection(const EdgeData& data, std::span<const double> p) {
  std::vector<Vec3> xi = strong_gradient(data, p);
  for (std::size_t i = 0; i < xi.size(); ++i)
    for (double& c : xi[i]) c *= data.inv_lumped_mass[i];
  return xi;
}

std::vector<Vec3> corrected_velocity(const EdgeData& data, const PressureParameters& param,
                                     std::span<const Vec3> u_hat, std::span<const double> delta) {
  check_nodes(data, u_hat.size(), "u_hat");
  const std::vector<Vec3> grad = strong_gradient(data, delta);
  const double scale = param.theta_dt() / param.density;
  std::vector<Vec3> u(u_hat.begin(), u_hat.end());
  for (std::size_t i = 0; i < u.size(); ++i)
    for (std::size_t c = 0; c < 3; ++c) u[i][c] -= scale * data.inv_lumped_mass[i] * grad[i][c];
  return u;
}

}  // namespace hetflow::fem
