#include "hetflow/lbm/references.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace hetflow::lbm {
namespace {

constexpr double pi = 3.14159265358979323846;

// The duct series with its pure-cosine part summed in closed form: since
//   16 w^2/pi^3 sum_{n odd} (-1)^((n-1)/2) n^-3 cos(n pi t/2w) = (w^2 - t^2)/2,
// u = g/nu [(w^2 - t^2)/2 - 16 w^2/pi^3 sum (...) n^-3 cosh(n pi s/2w)/cosh(n pi l/2w) cos(n pi t/2w)].
// The remaining terms fall like exp(-n pi (l - |s|)/2w), so they converge geometrically except on the
// walls s = +-l; the caller picks the orientation that converges faster. t runs across the width 2w
// (cosine direction), s along the length 2l (cosh direction).
double duct_series(double t, double s, double w, double l) {
  const double as = std::abs(s);
  // Later terms shrink at least by this factor per step of n, so the tail after a term is below
  // term / (1 - factor). The cosine sum at the centre is pi^3/32 ~ 1: stop when the tail is below
  // 1e-17 of it. Within half a lattice cell of a corner the cap (2e6 terms) ends the loop first,
  // leaving an error below 1e-13 of the centre value there.
  const double one_minus_factor = -std::expm1(-pi * (l - as) / w);
  double sum = 0.0;
  for (long n = 1; n < 4'000'001; n += 2) {
    const double alpha = static_cast<double>(n) * pi / (2.0 * w);
    // cosh(alpha s)/cosh(alpha l) without overflow: both cosh grow like exp, so take the ratio of exps.
    const double ratio = std::exp(alpha * (as - l)) * (1.0 + std::exp(-2.0 * alpha * as)) / (1.0 + std::exp(-2.0 * alpha * l));
    const double nd = static_cast<double>(n);
    const double magnitude = ratio / (nd * nd * nd);
    const double sign = ((n - 1) / 2) % 2 == 0 ? 1.0 : -1.0;
    sum += sign * magnitude * std::cos(alpha * t);
    if (magnitude < 1e-17 * one_minus_factor) break;
  }
  return 0.5 * (w * w - t * t) - 16.0 * w * w / (pi * pi * pi) * sum;
}

void require_positive(const char* fn, const char* name, double v) {
  if (!(v > 0.0) || !std::isfinite(v))
    throw std::invalid_argument(std::string(fn) + ": " + name + " = " + std::to_string(v) + ": expected a positive number");
}

}  // namespace

double duct_poiseuille(double x, double y, double a, double b, double g, double nu) {
  require_positive("duct_poiseuille", "a", a);
  require_positive("duct_poiseuille", "b", b);
  require_positive("duct_poiseuille", "nu", nu);
  if (!(std::abs(x) < a && std::abs(y) < b)) return 0.0;
  // Decay rates of the two orientations; near a wall one of them stalls and the other does not.
  const double rate_x = (b - std::abs(y)) / a;
  const double rate_y = (a - std::abs(x)) / b;
  const double u = rate_x >= rate_y ? duct_series(x, y, a, b) : duct_series(y, x, b, a);
  return g / nu * u;
}

double duct_poiseuille_mean(double a, double b, double g, double nu) {
  require_positive("duct_poiseuille_mean", "a", a);
  require_positive("duct_poiseuille_mean", "b", b);
  require_positive("duct_poiseuille_mean", "nu", nu);
  // The flow rate is symmetric in a and b; the form with the short side as 'a' keeps the correction
  // below 1 and free of cancellation.
  const double p = std::min(a, b), q = std::max(a, b);
  double sum = 0.0;
  for (long n = 1;; n += 2) {
    const double nd = static_cast<double>(n);
    const double inv5 = 1.0 / (nd * nd * nd * nd * nd);
    sum += std::tanh(nd * pi * q / (2.0 * p)) * inv5;
    if (inv5 < 1e-18) break;
  }
  return p * p * g / (3.0 * nu) * (1.0 - 192.0 * p / (std::pow(pi, 5.0) * q) * sum);
}

double plane_poiseuille(double y, double h, double g, double nu) {
  require_positive("plane_poiseuille", "h", h);
  require_positive("plane_poiseuille", "nu", nu);
  if (!(std::abs(y) < 0.5 * h)) return 0.0;
  return g / (2.0 * nu) * (0.25 * h * h - y * y);
}

LatticeDuct lattice_duct(std::size_t nx, std::size_t ny) {
  if (nx < 3 || ny < 3)
    throw std::invalid_argument("lattice_duct(" + std::to_string(nx) + ", " + std::to_string(ny) +
                                "): expected nx, ny >= 3 (two wall layers and fluid between)");
  return {0.5 * static_cast<double>(nx - 2), 0.5 * static_cast<double>(ny - 2), nx, ny};
}

std::vector<double> lattice_duct_profile(std::size_t nx, std::size_t ny, double g, double nu) {
  const LatticeDuct d = lattice_duct(nx, ny);
  std::vector<double> u(nx * ny, 0.0);
  for (std::size_t j = 1; j + 1 < ny; ++j)
    for (std::size_t i = 1; i + 1 < nx; ++i) u[i + nx * j] = duct_poiseuille(d.x(i), d.y(j), d.a, d.b, g, nu);
  return u;
}

LaplaceFit laplace_fit(std::span<const double> radii, std::span<const double> pressure_jumps) {
  if (radii.size() != pressure_jumps.size())
    throw std::invalid_argument("laplace_fit: " + std::to_string(radii.size()) + " radii but " +
                                std::to_string(pressure_jumps.size()) + " pressure jumps: expected one per radius");
  if (radii.size() < 2) throw std::invalid_argument("laplace_fit: expected at least two droplets");
  const double n = static_cast<double>(radii.size());
  double mx = 0.0, my = 0.0;
  for (std::size_t i = 0; i < radii.size(); ++i) {
    if (!(radii[i] > 0.0) || !std::isfinite(radii[i]) || !std::isfinite(pressure_jumps[i]))
      throw std::invalid_argument("laplace_fit: droplet " + std::to_string(i) + " has radius " +
                                  std::to_string(radii[i]) + ": expected finite values and radii > 0");
    mx += 1.0 / radii[i];
    my += pressure_jumps[i];
  }
  mx /= n;
  my /= n;
  // Centred sums: the raw normal equations lose digits when 1/R varies little.
  double sxx = 0.0, sxy = 0.0, syy = 0.0;
  for (std::size_t i = 0; i < radii.size(); ++i) {
    const double dx = 1.0 / radii[i] - mx, dy = pressure_jumps[i] - my;
    sxx += dx * dx;
    sxy += dx * dy;
    syy += dy * dy;
  }
  if (!(sxx > 0.0)) throw std::invalid_argument("laplace_fit: all radii are equal: expected at least two distinct radii");
  LaplaceFit fit;
  fit.sigma = sxy / sxx;
  fit.intercept = my - fit.sigma * mx;
  double ss_res = 0.0;
  for (std::size_t i = 0; i < radii.size(); ++i) {
    const double r = pressure_jumps[i] - (fit.sigma / radii[i] + fit.intercept);
    ss_res += r * r;
  }
  // Equal pressure jumps lie exactly on a flat line.
  fit.r_squared = syy > 0.0 ? 1.0 - ss_res / syy : 1.0;
  return fit;
}

double darcy_permeability(double mean_velocity, double nu, double g) {
  require_positive("darcy_permeability", "nu", nu);
  if (g == 0.0 || !std::isfinite(g)) throw std::invalid_argument("darcy_permeability: g must be finite and nonzero");
  return nu * mean_velocity / g;
}

}  // namespace hetflow::lbm
