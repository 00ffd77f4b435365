#pragma once

namespace hetflow::karst {

// Ogata & Banks (1961): advection-dispersion of a step c(0, t) = 1 into c(x, 0) = 0 on x >= 0,
//   c = 1/2 [erfc((x - v t)/(2 sqrt(D t))) + exp(v x/D) erfc((x + v t)/(2 sqrt(D t)))].
// The second term is evaluated as exp(-(x - v t)^2/(4 D t)) erfcx((x + v t)/(2 sqrt(D t))), which stays
// finite for large v x/D (large Pe). In the karst model's variables D = 1/Pe, v = v*. t > 0, x >= 0.
double ogata_banks(double x, double t, double velocity, double dispersion);

// exp(z^2) erfc(z) for z >= 0.
double erfcx(double z);

}  // namespace hetflow::karst
