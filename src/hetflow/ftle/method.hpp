#pragma once
#include <string_view>

namespace hetflow::ftle {

// Time integration of dx/dt = u(x, t) with a fixed step: Euler (1st order), Heun's RK2 (2nd order, the
// paper's Eq. 16: the second stage at t + dt), classic RK4 (4th order).
enum class Integrator { euler, heun, rk4 };

// Gridded velocity between nodes: M4' (Monaghan; 4 nodes per axis, reproduces quadratics, the paper's
// choice) or linear (2 nodes per axis, reproduces linear fields only).
enum class Interpolation { m4prime, linear };

// What happens at the faces of a gridded velocity's box [origin, origin + (n - 1) h] (docs/ftle.md,
// "Boundary modes"); the values are ftle.cl's BOUNDARY_* codes:
//   clamp        every stage point and new position is pulled back into the box, coordinate by
//                coordinate, so tracers slide along walls; velocity outside the box is that of the
//                nearest box point (the paper's "first-order no-flux" reading, and its default);
//   stop         a step whose stage point or end point leaves the box is not taken: the tracer keeps the
//                position where that step began and moves no more (counted as stopped);
//   periodic     the grid repeats with period n h per axis (node n is node 0); positions stay unwrapped
//                so the flow-map gradient sees the true separation of neighbours;
//   extrapolate  outside the box the velocity continues linearly: the nearest box point's plus, per axis,
//                the distance beyond the face times the difference across the last cell there (a linear
//                field continues exactly); tracers go on wherever it takes them;
//   free_stream  the nodes beyond the faces hold no disturbance: the data part of the velocity falls to
//                0 within the interpolation's reach beyond the faces and only Config::free_stream remains
//                (none: fluid at rest outside); tracers go on;
//   freeze       a tracer whose step ends outside the box stops at the point where that step's chord
//                crosses a face, and the time it got there is kept (Solver::exit_times).
// Analytic flows have no walls and ignore the mode.
enum class Boundary { clamp, stop, periodic, extrapolate, free_stream, freeze };

// Order of accuracy of the flow map at fixed final time.
int order(Integrator integrator);

Integrator parse_integrator(std::string_view text);  // euler | heun (or rk2) | rk4
Interpolation parse_interpolation(std::string_view text);  // m4prime (or m4) | linear
Boundary parse_boundary(std::string_view text);  // clamp | stop | periodic | extrapolate | free_stream | freeze
const char* to_string(Integrator i);
const char* to_string(Interpolation i);
const char* to_string(Boundary b);

}  // namespace hetflow::ftle
