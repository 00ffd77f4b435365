// Exact derivatives of the production rates ω̇(T, C) of kinetics.cpp with respect to the
// concentrations and the temperature, for the analytic Jacobian of the reactor (reactor_jacobian.cpp).
// Every value (k_f, k_r, [M], Pr, F, the concentration products) comes from the same functions the rate
// evaluation uses (kinetics_parts.hpp); this file adds only the slopes. The generated OpenCL jac()
// (reactor_jacobian_source.cpp) repeats these formulas in the same order.
#include <cmath>
#include <numbers>

#include "hetflow/chem/kinetics.hpp"
#include "hetflow/chem/kinetics_parts.hpp"

namespace hetflow::chem {
namespace {

constexpr double ln10 = std::numbers::ln10;

// Slopes of ln F, F the falloff broadening: with respect to log10 Pr at fixed T, and to T at fixed Pr.
struct BroadeningSlopes {
  double dlog10_pr = 0.0, dT = 0.0;
};

// log10 F = L / (1 + f1²), L = log10 F_cent(T), f1 = u / d with u = log10 Pr + c(L), d = n(L) - 0.14 u.
BroadeningSlopes troe_slopes(const Troe& troe, double T, double fcent, double log10_pr) {
  double dfcent = 0.0;
  if (troe.t3 != 0.0) dfcent -= (1.0 - troe.a) * std::exp(-T / troe.t3) / troe.t3;
  if (troe.t1 != 0.0) dfcent -= troe.a * std::exp(-T / troe.t1) / troe.t1;
  if (troe.t2) dfcent += *troe.t2 * std::exp(-*troe.t2 / T) / (T * T);
  const bool clamped = fcent < parts::tiny;  // then L, and with it F, no longer follows F_cent
  const double log_fcent = std::log10(clamped ? parts::tiny : fcent);
  const double c = -0.4 - 0.67 * log_fcent;
  const double n = 0.75 - 1.27 * log_fcent;
  const double u = log10_pr + c;
  const double d = n - 0.14 * u;
  const double f1 = u / d;
  const double den = 1.0 + f1 * f1;
  const double df1_dx = n / (d * d);  // ∂u/∂x = 1, ∂d/∂x = -0.14
  // ∂u/∂L = -0.67 and ∂d/∂L = -1.27 + 0.14 * 0.67 = -1.1762
  const double df1_dl = (1.1762 * u - 0.67 * d) / (d * d);
  const double s = 2.0 * log_fcent * f1 / (den * den);
  const double dlogf_dx = -s * df1_dx;
  const double dlogf_dl = 1.0 / den - s * df1_dl;
  // ln F = ln 10 log10 F and dL/dT = F_cent' / (F_cent ln 10): the ln 10 cancel in the T slope.
  return {ln10 * dlogf_dx, clamped ? 0.0 : dlogf_dl * dfcent / fcent};
}

// ln F = ln d + X ln B + e ln T, X = 1 / (1 + x²), B = a exp(-b/T) + exp(-T/c), x = log10 Pr.
BroadeningSlopes sri_slopes(const Sri& s, double T, double log10_pr) {
  const double x = 1.0 / (1.0 + log10_pr * log10_pr);
  const double ea = s.a * std::exp(-s.b / T);
  const double ec = std::exp(-T / s.c);
  const double base = ea + ec;
  return {-2.0 * log10_pr * x * x * std::log(base), x * (ea * s.b / (T * T) - ec / s.c) / base + s.e / T};
}

// Σ dk/dT of the Arrhenius rates a PLOG pressure adds up.
double plog_sum_slope(const std::vector<Arrhenius>& rates, double T) {
  double dk = 0.0;
  for (const Arrhenius& a : rates) dk += arrhenius(a, T) * arrhenius_log_slope(a, T);
  return dk;
}

}  // namespace

Kinetics::Slopes Kinetics::forward_slopes(std::size_t j, double T, double p, double m, double kf) const {
  const Reaction& r = m_.reactions[j];
  switch (r.kind) {
    case RateKind::elementary:
    case RateKind::three_body:
      return {kf * arrhenius_log_slope(r.rate, T), 0.0};
    case RateKind::falloff:
    case RateKind::chemically_activated: {
      const parts::Falloff f = parts::falloff(r, T, m);
      BroadeningSlopes b;
      if (r.falloff == FalloffForm::troe) b = troe_slopes(r.troe, T, f.fcent, f.log10_pr);
      if (r.falloff == FalloffForm::sri) b = sri_slopes(r.sri, T, f.log10_pr);
      // Below the clamp F is flat in Pr. Above it Pr > 0, so [M] != 0, and d log10 Pr = d[M] / ([M] ln 10).
      const bool live = !(f.pr < parts::tiny);
      const double a0 = arrhenius_log_slope(r.low, T);
      const double ainf = arrhenius_log_slope(r.high, T);
      const double dlnf_dT = b.dT + (live ? b.dlog10_pr / ln10 * (a0 - ainf) : 0.0);
      const double dlnf_dm = live ? b.dlog10_pr / (ln10 * m) : 0.0;
      // d(Pr/(1+Pr))/dPr = 1/(1+Pr)², dPr/d[M] = k0/k_inf, d ln Pr/dT = a0 - ainf.
      const double blend = f.k0 * f.f / ((1.0 + f.pr) * (1.0 + f.pr));
      if (r.kind == RateKind::falloff)
        return {f.k * (ainf + (a0 - ainf) / (1.0 + f.pr) + dlnf_dT), blend + f.k * dlnf_dm};
      return {f.k * (a0 - (a0 - ainf) * f.pr / (1.0 + f.pr) + dlnf_dT), -blend * (f.k0 / f.kinf) + f.k * dlnf_dm};
    }
    case RateKind::plog: {
      // ln k = ln k_lo + w (ln k_hi - ln k_lo) with w = ln(p/p_lo) / ln(p_hi/p_lo); outside the table k
      // does not move with p.
      const Prepared& q = prepared_[j];
      const parts::PlogBracket b = parts::plog_bracket(q.plog_pressures, p);
      const double k_lo = parts::plog_sum(q.plog_rates[b.lo], T);
      const double slope_lo = plog_sum_slope(q.plog_rates[b.lo], T) / k_lo;
      if (b.lo == b.hi) return {kf * slope_lo, 0.0, 0.0};
      const double k_hi = parts::plog_sum(q.plog_rates[b.hi], T);
      const double slope_hi = plog_sum_slope(q.plog_rates[b.hi], T) / k_hi;
      const double dlnk_dlnp =
          (std::log(k_hi) - std::log(k_lo)) / std::log(q.plog_pressures[b.hi] / q.plog_pressures[b.lo]);
      return {kf * (slope_lo + b.w * (slope_hi - slope_lo)), 0.0, kf * dlnk_dlnp};
    }
  }
  return {};
}

Kinetics::Jacobian Kinetics::production_rate_jacobian(double T, double p, std::span<const double> c) const {
  const std::size_t nk = m_.species.size();
  const ReactionRates rates = this->rates(T, p, c);
  Jacobian out{production_rates(rates), std::vector<double>(nk * nk, 0.0), std::vector<double>(nk, 0.0),
               std::vector<double>(nk, 0.0)};
  const SpeciesThermo thermo = species_thermo(m_, T);
  const double log_standard_concentration = std::log(one_atm / (gas_constant * T));
  std::vector<std::pair<std::size_t, double>> dq_dc;  // ∂q/∂C_s through the concentration products
  // ∂ω̇_k/∂[M] at the default efficiencies, which every column of row k gains once after the reactions:
  // one pass over J instead of one per third-body term.
  std::vector<double> dwdm_default(nk, 0.0);
  for (std::size_t j = 0; j < m_.reactions.size(); ++j) {
    const Reaction& r = m_.reactions[j];
    const Prepared& q = prepared_[j];
    const double m = r.uses_third_body() ? parts::third_body_concentration(r.third_body, c) : 1.0;
    const double kf = rates.kf[j], kr = rates.kr[j];
    const Slopes forward = forward_slopes(j, T, p, m, kf);
    Slopes reverse;
    if (r.reverse) {
      reverse.dT = kr * arrhenius_log_slope(*r.reverse, T);
    } else if (r.reversible) {
      // k_r = k_f / K_c with d ln(1/K_c)/dT = -ΔH°/(R T²) + Δν/T, as d(g/RT)/dT = -h/(R T²).
      const double ratio = parts::inverse_equilibrium_constant(r, thermo, T, log_standard_concentration, q.delta_nu);
      double delta_h = 0.0;
      for (const Term& t : r.products) delta_h += t.coefficient * thermo.h[static_cast<std::size_t>(t.species)];
      for (const Term& t : r.reactants) delta_h -= t.coefficient * thermo.h[static_cast<std::size_t>(t.species)];
      reverse.dT = forward.dT * ratio + kr * (q.delta_nu / T - delta_h / (gas_constant * T * T));
      reverse.dm = forward.dm * ratio;
      reverse.dlnp = forward.dlnp * ratio;
    }
    const double pf = parts::concentration_product(q.forward, c);
    const double pr = r.reversible ? parts::concentration_product(q.reverse, c) : 0.0;
    // [M] multiplies three-body rates; in falloff rates it acts through k.
    const bool three_body = r.kind == RateKind::three_body;
    const double scale = three_body ? m : 1.0;
    const double dq_dT = scale * (forward.dT * pf - reverse.dT * pr);
    const double dq_dm = three_body ? kf * pf - kr * pr : forward.dm * pf - reverse.dm * pr;
    const double dq_dlnp = forward.dlnp * pf - reverse.dlnp * pr;  // PLOG only: never a three-body rate
    dq_dc.clear();
    for (std::size_t u = 0; u < q.forward.size(); ++u)
      dq_dc.emplace_back(q.forward[u].species, scale * kf * parts::concentration_product_derivative(q.forward, u, c));
    if (r.reversible)
      for (std::size_t u = 0; u < q.reverse.size(); ++u)
        dq_dc.emplace_back(q.reverse[u].species, -(scale * kr * parts::concentration_product_derivative(q.reverse, u, c)));

    // ω̇_k gains ν_k q: reactants with -ν, products with +ν, as production_rates adds them.
    auto scatter = [&](const Term& t, double nu) {
      const std::size_t k = static_cast<std::size_t>(t.species);
      out.dwdT[k] += nu * dq_dT;
      out.dwdlnp[k] += nu * dq_dlnp;
      for (const auto& [s, v] : dq_dc) out.dwdc[k + s * nk] += nu * v;
      if (!r.uses_third_body()) return;
      const ThirdBody& tb = r.third_body;
      if (tb.collider >= 0) {
        out.dwdc[k + static_cast<std::size_t>(tb.collider) * nk] += nu * dq_dm;
        return;
      }
      // ∂[M]/∂C_i: the default efficiency for every species, plus the listed species' excess.
      dwdm_default[k] += nu * (dq_dm * tb.default_efficiency);
      for (const auto& [s, eff] : tb.efficiencies)
        out.dwdc[k + static_cast<std::size_t>(s) * nk] += nu * (dq_dm * (eff - tb.default_efficiency));
    };
    for (const Term& t : r.reactants) scatter(t, -t.coefficient);
    for (const Term& t : r.products) scatter(t, t.coefficient);
  }
  for (std::size_t i = 0; i < nk; ++i)
    for (std::size_t k = 0; k < nk; ++k) out.dwdc[k + i * nk] += dwdm_default[k];
  return out;
}

}  // namespace hetflow::chem
