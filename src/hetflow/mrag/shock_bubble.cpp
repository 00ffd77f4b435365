#include "hetflow/mrag/shock_bubble.hpp"

#include <cmath>

namespace hetflow::mrag {

double ShockBubble::velocity_scale() { return air_sound_speed / std::sqrt(air.gamma); }

double ShockBubble::microseconds_per_unit() { return metres_per_unit / velocity_scale() * 1e6; }

FaceState ShockBubble::shocked() {
  const double g = air.gamma, m2 = mach * mach, c = std::sqrt(g);
  return {(g + 1) * m2 / ((g - 1) * m2 + 2),
          2 * c * (mach - 1 / mach) / (g + 1),
          0,
          1 + 2 * g * (m2 - 1) / (g + 1),
          air.big_gamma(),
          0};
}

double ShockBubble::contact_time() { return (centre_x - radius - shock_x) / (mach * std::sqrt(air.gamma)); }

FaceState ShockBubble::initial(double x, double y) {
  if (std::hypot(x - centre_x, y) < radius) return {0.182, 0, 0, 1, helium.big_gamma(), 0};
  return x < shock_x ? shocked() : FaceState{1, 0, 0, 1, air.big_gamma(), 0};
}

Sides ShockBubble::sides() {
  Sides walls = mrag::sides(Edge::outflow, Edge::wall);
  walls.west = Edge::inflow;
  walls.inflow[0] = shocked();
  return walls;
}

}  // namespace hetflow::mrag
