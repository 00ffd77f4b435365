#include "hetflow/mrag/reference_1d.hpp"

#include <algorithm>
#include <cmath>

#include "hetflow/mrag/stiffened_gas.hpp"
#include "hetflow/mrag/weno5.hpp"

namespace hetflow::mrag {
namespace {

constexpr int ghosts = 3;  // WENO5's stencil reaches three cells past a face

// The reconstructed primitives, in the order WENO sees them.
std::array<double, 5> fields(const FaceState& s) { return {s.rho, s.un, s.p, s.big_gamma, s.big_pi}; }

FaceState from_fields(const std::array<double, 5>& f) { return {f[0], f[1], 0, f[2], f[3], f[4]}; }

}  // namespace

Reference1d::Reference1d(const std::vector<FaceState>& cells, double h, Boundary boundary, RiemannSolver solver)
    : h_(h), boundary_(boundary), solver_(solver) {
  for (const FaceState& s : cells) q_.push_back(conserved(s));
}

double Reference1d::stable_dt(double cfl) const {
  double fastest = 0;
  for (const Conserved& q : q_) {
    const FaceState s = primitive(q);
    fastest = std::max(fastest, std::abs(s.un) + sound_speed(s.big_gamma, s.big_pi, s.rho, s.p));
  }
  return cfl * h_ / fastest;
}

std::vector<Reference1d::Conserved> Reference1d::rate(const std::vector<Conserved>& q) const {
  const int n = static_cast<int>(q.size());
  // Primitives with ghosts: wrapped, or the edge cells repeated.
  std::vector<std::array<double, 5>> w(static_cast<std::size_t>(n + 2 * ghosts));
  for (int i = -ghosts; i < n + ghosts; ++i) {
    const int from = boundary_ == Boundary::periodic ? (i % n + n) % n : std::clamp(i, 0, n - 1);
    w[static_cast<std::size_t>(i + ghosts)] = fields(primitive(q[static_cast<std::size_t>(from)]));
  }
  const auto at = [&](int i, int k) { return w[static_cast<std::size_t>(i + ghosts)][static_cast<std::size_t>(k)]; };
  // Face f sits between cells f − 1 and f.
  std::vector<FaceFlux> faces(static_cast<std::size_t>(n + 1));
  for (int f = 0; f <= n; ++f) {
    std::array<double, 5> left{}, right{};
    for (int k = 0; k < 5; ++k) {
      left[k] = weno5_face(at(f - 3, k), at(f - 2, k), at(f - 1, k), at(f, k), at(f + 1, k));
      right[k] = weno5_face(at(f + 2, k), at(f + 1, k), at(f, k), at(f - 1, k), at(f - 2, k));
    }
    faces[static_cast<std::size_t>(f)] = face_flux(solver_, from_fields(left), from_fields(right));
  }
  std::vector<Conserved> dq(q.size());
  for (int i = 0; i < n; ++i) {
    const FaceFlux& west = faces[static_cast<std::size_t>(i)];
    const FaceFlux& east = faces[static_cast<std::size_t>(i + 1)];
    Conserved& d = dq[static_cast<std::size_t>(i)];
    for (std::size_t k = 0; k < 6; ++k) d[k] = -(east.f[k] - west.f[k]) / h_;
    const double divergence = (east.u_star - west.u_star) / h_;
    d[4] += q[static_cast<std::size_t>(i)][4] * divergence;
    d[5] += q[static_cast<std::size_t>(i)][5] * divergence;
  }
  return dq;
}

void Reference1d::step(double dt) {
  // q1 = q + dt L(q); q2 = 3/4 q + 1/4 (q1 + dt L(q1)); q = 1/3 q + 2/3 (q2 + dt L(q2)).
  const auto advance = [&](const std::vector<Conserved>& from, double a, const std::vector<Conserved>& base, double b) {
    const std::vector<Conserved> d = rate(from);
    std::vector<Conserved> out(from.size());
    for (std::size_t i = 0; i < from.size(); ++i)
      for (std::size_t k = 0; k < 6; ++k) out[i][k] = a * base[i][k] + b * (from[i][k] + dt * d[i][k]);
    return out;
  };
  const std::vector<Conserved> q1 = advance(q_, 0, q_, 1);
  const std::vector<Conserved> q2 = advance(q1, 0.75, q_, 0.25);
  q_ = advance(q2, 1.0 / 3, q_, 2.0 / 3);
}

std::vector<FaceState> Reference1d::primitives() const {
  std::vector<FaceState> out;
  for (const Conserved& q : q_) out.push_back(primitive(q));
  return out;
}

}  // namespace hetflow::mrag
