#include "hetflow/fem/edge_operators.hpp"

#include <string>

#include "hetflow/core/error.hpp"

namespace hetflow::fem {

void check_size(const EdgeData& data, std::size_t size, const char* field) {
  if (size != data.node_count())
    throw core::Error(std::string("the field ") + field + " has " + std::to_string(size) + " values for " +
                      std::to_string(data.node_count()) + " nodes");
}

namespace {

double dot_slots(const double* r, const Vec3& v) { return r[0] * v[0] + r[1] * v[1] + r[2] * v[2]; }
Vec3 difference(const Vec3& a, const Vec3& b) { return {a[0] - b[0], a[1] - b[1], a[2] - b[2]}; }
Vec3 scaled(const double* r, double s) { return {r[0] * s, r[1] * s, r[2] * s}; }

void add(double& sum, double term) { sum += term; }
void add(Vec3& sum, const Vec3& term) {
  for (std::size_t c = 0; c < 3; ++c) sum[c] += term[c];
}

// out_I = Σ_{J ∈ row I} term(I, J, record of IJ): the one loop every operator is.
template <class T, class Term>
std::vector<T> row_sums(const EdgeData& data, Term&& term) {
  std::vector<T> out(data.node_count(), T{});
  for (std::size_t i = 0; i < out.size(); ++i)
    for (std::size_t k = data.row_start[i]; k < data.row_start[i + 1]; ++k) add(out[i], term(i, data.col[k], data.record(k)));
  return out;
}

}  // namespace

std::vector<Vec3> strong_gradient(const EdgeData& data, std::span<const double> p) {
  check_size(data, p.size(), "p");
  return row_sums<Vec3>(data, [&](std::size_t i, std::size_t j, const double* r) { return scaled(r + edge_slot::d, p[j] - p[i]); });
}

std::vector<Vec3> weak_gradient(const EdgeData& data, std::span<const double> p) {
  check_size(data, p.size(), "p");
  return row_sums<Vec3>(data, [&](std::size_t i, std::size_t j, const double* r) {
    return difference(scaled(r + edge_slot::g, p[j]), scaled(r + edge_slot::d, p[i]));
  });
}

std::vector<double> strong_divergence(const EdgeData& data, std::span<const Vec3> v) {
  check_size(data, v.size(), "v");
  return row_sums<double>(data, [&](std::size_t i, std::size_t j, const double* r) {
    return dot_slots(r + edge_slot::d, difference(v[j], v[i]));
  });
}

std::vector<double> weak_divergence(const EdgeData& data, std::span<const Vec3> xi) {
  check_size(data, xi.size(), "xi");
  return row_sums<double>(data, [&](std::size_t i, std::size_t j, const double* r) {
    return dot_slots(r + edge_slot::g, xi[j]) - dot_slots(r + edge_slot::d, xi[i]);
  });
}

std::vector<double> stiffness(const EdgeData& data, std::span<const double> phi) {
  check_size(data, phi.size(), "phi");
  return row_sums<double>(data, [&](std::size_t i, std::size_t j, const double* r) {
    const double l = r[edge_slot::laplacian] + r[edge_slot::laplacian + 4] + r[edge_slot::laplacian + 8];
    return l * (phi[j] - phi[i]);
  });
}

std::vector<Vec3> convection(const EdgeData& data, std::span<const Vec3> a, std::span<const Vec3> u) {
  check_size(data, a.size(), "a");
  check_size(data, u.size(), "u");
  return row_sums<Vec3>(data, [&](std::size_t i, std::size_t j, const double* r) {
    const Vec3 du = difference(u[j], u[i]);
    return scaled(du.data(), dot_slots(r + edge_slot::d, a[i]));
  });
}

std::vector<Vec3> oss_low(const EdgeData& data, std::span<const Vec3> a, std::span<const Vec3> u) {
  check_size(data, a.size(), "a");
  check_size(data, u.size(), "u");
  return row_sums<Vec3>(data, [&](std::size_t i, std::size_t j, const double* r) {
    const double* lambda = r + edge_slot::laplacian;
    double w = 0;
    for (std::size_t row = 0; row < 3; ++row) w += a[i][row] * dot_slots(lambda + 3 * row, a[i]);
    const Vec3 du = difference(u[j], u[i]);
    return scaled(du.data(), w);
  });
}

// S^high is minus the convection of Π by a: the same edge weights a_I · d_IJ.
std::vector<Vec3> oss_high(const EdgeData& data, std::span<const Vec3> a, std::span<const Vec3> projection) {
  check_size(data, projection.size(), "projection");
  std::vector<Vec3> out = convection(data, a, projection);
  for (Vec3& v : out)
    for (double& c : v) c = -c;
  return out;
}

}  // namespace hetflow::fem
