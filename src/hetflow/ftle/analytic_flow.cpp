#include "hetflow/ftle/analytic_flow.hpp"

#include <cmath>

#include "hetflow/core/error.hpp"

namespace hetflow::ftle {
namespace {

template <class... F>
struct Overloaded : F... {
  using F::operator()...;
};

}  // namespace

LinearFlow LinearFlow::saddle(const std::vector<double>& rates) {
  if (rates.size() != 2 && rates.size() != 3) {
    throw core::Error("a linear saddle takes 2 or 3 strain rates, one per axis; got " + std::to_string(rates.size()));
  }
  LinearFlow f;
  f.dimension = static_cast<int>(rates.size());
  for (int d = 0; d < f.dimension; ++d) f.gradient[static_cast<std::size_t>(d * f.dimension + d)] = rates[static_cast<std::size_t>(d)];
  return f;
}

LinearFlow LinearFlow::rotation(double omega, int dimension) {
  if (dimension != 2 && dimension != 3) throw core::Error("a rotation is 2D or 3D, not " + std::to_string(dimension) + "D");
  LinearFlow f;
  f.dimension = dimension;
  f.gradient[1] = -omega;                                      // du/dy
  f.gradient[static_cast<std::size_t>(dimension)] = omega;     // dv/dx
  return f;
}

int dimension(const AnalyticFlow& flow) {
  return std::visit(Overloaded{[](const LinearFlow& f) { return f.dimension; },
                               [](const AbcFlow&) { return 3; },
                               [](const auto&) { return 2; }},
                    flow);
}

const char* name(const AnalyticFlow& flow) {
  return std::visit(Overloaded{[](const DoubleGyre&) { return "double_gyre"; },
                               [](const LinearFlow&) { return "linear"; },
                               [](const BickleyJet&) { return "bickley_jet"; },
                               [](const AbcFlow&) { return "abc"; },
                               [](const CellularFlow&) { return "cellular"; }},
                    flow);
}

int kernel_code(const AnalyticFlow& flow) {
  // ftle.cl's FLOW_DOUBLE_GYRE .. FLOW_CELLULAR follow the variant's order.
  return static_cast<int>(flow.index()) + 1;
}

std::vector<double> kernel_parameters(const AnalyticFlow& flow) {
  return std::visit(
      Overloaded{[](const DoubleGyre& f) { return std::vector<double>{f.a, f.epsilon, f.omega}; },
                 [](const LinearFlow& f) {
                   return std::vector<double>(f.gradient.begin(),
                                              f.gradient.begin() + f.dimension * f.dimension);
                 },
                 [](const BickleyJet& f) {
                   const double c3 = 0.461 * f.u, c2 = 0.205 * f.u;
                   const double c1 = c3 + (std::sqrt(5.0) - 1.0) * (c2 - c3);
                   std::vector<double> p{f.u, f.length, f.epsilon[0], f.epsilon[1], f.epsilon[2]};
                   for (int n = 1; n <= 3; ++n) p.push_back(2.0 * n / f.radius);
                   for (double c : {c1, c2, c3}) p.push_back(c);
                   return p;
                 },
                 [](const AbcFlow& f) { return std::vector<double>{f.a, f.b, f.c, f.epsilon, f.omega}; },
                 [](const CellularFlow& f) { return std::vector<double>{f.scale}; }},
      flow);
}

}  // namespace hetflow::ftle
