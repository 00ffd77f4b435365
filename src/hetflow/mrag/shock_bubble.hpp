#pragma once
#include "hetflow/mrag/ghost_table.hpp"
#include "hetflow/mrag/hlle_flux.hpp"
#include "hetflow/mrag/stiffened_gas.hpp"

namespace hetflow::mrag {

// Haas & Sturtevant's (1987) Mach 1.22 shock in air meeting a cylinder of helium contaminated with air
// (γ 1.648, ρ_b/ρ_air = 0.182), D = 50 mm in a tube 89 mm wide, as Quirk & Karni (1996) computed it
// (docs/mrag.md, Shock–bubble). Non-dimensional: air at rest ρ = 1, p = 1 (γ 1.4); the upper half of the
// tube [0, 3] × [0, 0.5] (6 × 1 roots of 0.5) with a wall at y = 0 for the axis, so one length unit is
// 89 mm and the disc's radius 25/89; the shocked air flows in through the west side, the east is outflow.
struct ShockBubble {
  static constexpr double mach = 1.22;
  static constexpr double radius = 25.0 / 89;
  static constexpr double shock_x = 0.2;            // the shock at t = 0
  static constexpr double centre_x = 0.5 + radius;  // the disc's upstream edge at x = 0.5
  static constexpr int roots_x = 6, roots_y = 1;
  static constexpr double root_size = 0.5;
  static constexpr double metres_per_unit = 0.05 / (2 * radius);
  // The experiment's air at 20 °C: c = 343 m/s scales the velocities (c = √1.4 in the units here).
  static constexpr double air_sound_speed = 343;  // m/s
  static constexpr StiffenedGas air{1.4, 0}, helium{1.648, 0};

  static double velocity_scale();
  static double microseconds_per_unit();
  // The Rankine–Hugoniot state behind the shock, and the time it meets the disc.
  static FaceState shocked();
  static double contact_time();
  static FaceState initial(double x, double y);
  static Sides sides();
};

}  // namespace hetflow::mrag
