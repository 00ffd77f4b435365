#include "hetflow/mrag/hlle_flux.hpp"

#include <algorithm>
#include <cmath>

#include "hetflow/mrag/stiffened_gas.hpp"

namespace hetflow::mrag {
namespace {

double total_energy(const FaceState& s) {
  return s.big_gamma * s.p + s.big_pi + 0.5 * s.rho * (s.un * s.un + s.ut * s.ut);
}

}  // namespace

std::array<double, 6> conserved(const FaceState& s) {
  return {s.rho, s.rho * s.un, s.rho * s.ut, total_energy(s), s.big_gamma, s.big_pi};
}

FaceState primitive(const std::array<double, 6>& q) {
  const double u = q[1] / q[0], v = q[2] / q[0];
  return {q[0], u, v, pressure(q[4], q[5], 0.5 * q[0] * (u * u + v * v), q[3]), q[4], q[5]};
}

std::array<double, 6> physical_flux(const FaceState& s) {
  return {s.rho * s.un,        s.rho * s.un * s.un + s.p,
          s.rho * s.un * s.ut, (total_energy(s) + s.p) * s.un,
          s.big_gamma * s.un,  s.big_pi * s.un};
}

WaveSpeeds einfeldt_speeds(const FaceState& left, const FaceState& right) {
  const double wl = std::sqrt(left.rho), wr = std::sqrt(right.rho), w = wl + wr;
  const auto roe = [&](double l, double r) { return (wl * l + wr * r) / w; };
  const double enthalpy_l = (total_energy(left) + left.p) / left.rho;
  const double enthalpy_r = (total_energy(right) + right.p) / right.rho;
  const double un = roe(left.un, right.un), ut = roe(left.ut, right.ut);
  const double c2 = (roe(enthalpy_l, enthalpy_r) - 0.5 * (un * un + ut * ut)) / roe(left.big_gamma, right.big_gamma);
  const double c = std::sqrt(std::max(c2, 0.0));
  const double cl = sound_speed(left.big_gamma, left.big_pi, left.rho, left.p);
  const double cr = sound_speed(right.big_gamma, right.big_pi, right.rho, right.p);
  return {std::min(left.un - cl, un - c), std::max(right.un + cr, un + c)};
}

FaceFlux hlle_flux(const FaceState& left, const FaceState& right) {
  const WaveSpeeds s = einfeldt_speeds(left, right);
  const double b_minus = std::min(s.left, 0.0), b_plus = std::max(s.right, 0.0);
  const std::array<double, 6> ql = conserved(left), qr = conserved(right);
  const std::array<double, 6> fl = physical_flux(left), fr = physical_flux(right);
  FaceFlux out;
  const double span = b_plus - b_minus;
  for (std::size_t k = 0; k < 6; ++k)
    out.f[k] = (b_plus * fl[k] - b_minus * fr[k] + b_plus * b_minus * (qr[k] - ql[k])) / span;
  out.u_star = (b_plus * left.un - b_minus * right.un) / span;
  return out;
}

FaceFlux hllc_flux(const FaceState& left, const FaceState& right) {
  const WaveSpeeds s = einfeldt_speeds(left, right);
  FaceFlux out;
  if (s.left >= 0 || s.right <= 0) {  // supersonic: the upwind side's flux
    const FaceState& k = s.left >= 0 ? left : right;
    out.f = physical_flux(k);
    out.u_star = k.un;
    return out;
  }
  const double ml = left.rho * (s.left - left.un), mr = right.rho * (s.right - right.un);
  const double s_star = (right.p - left.p + left.un * ml - right.un * mr) / (ml - mr);
  const bool from_left = s_star >= 0;
  const FaceState& k = from_left ? left : right;
  const double sk = from_left ? s.left : s.right;
  // The star state is the side's state compressed by f = (S_K − u_K)/(S_K − S*), moving at S*.
  const double f = (sk - k.un) / (sk - s_star);
  const std::array<double, 6> q = conserved(k), flux = physical_flux(k);
  const std::array<double, 4> star = {k.rho * f, k.rho * f * s_star, k.rho * f * k.ut,
                                      f * (q[3] + (s_star - k.un) * (k.rho * s_star + k.p / (sk - k.un)))};
  for (std::size_t i = 0; i < 4; ++i) out.f[i] = flux[i] + sk * (star[i] - q[i]);
  out.u_star = k.un + sk * (f - 1);
  out.f[4] = k.big_gamma * out.u_star;
  out.f[5] = k.big_pi * out.u_star;
  return out;
}

FaceFlux face_flux(RiemannSolver solver, const FaceState& left, const FaceState& right) {
  return solver == RiemannSolver::hllc ? hllc_flux(left, right) : hlle_flux(left, right);
}

}  // namespace hetflow::mrag
