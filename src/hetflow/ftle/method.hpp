#pragma once
#include <string_view>

namespace hetflow::ftle {

// Time integration of dx/dt = u(x, t). With a fixed step: Euler (1st order), Heun's RK2 (2nd order, the
// paper's Eq. 16: the second stage at t + dt), classic RK4 (4th order). Adaptive, each tracer choosing
// its own substeps within every step by error control (Config::rtol, atol): Dormand & Prince's 5(4)
// pair (DOPRI5) and their 8th-order pair with 5th- and 3rd-order error estimates (DOP853), as in
// Hairer, Norsett & Wanner, Solving ODEs I (1993), II.5 and II.10.
enum class Integrator { euler, heun, rk4, dopri5, dop853 };

// Whether the integrator chooses its substeps by error control.
bool adaptive(Integrator integrator);

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

Integrator parse_integrator(std::string_view text);  // euler | heun (or rk2) | rk4 | dopri5 | dop853
Interpolation parse_interpolation(std::string_view text);  // m4prime (or m4) | linear
Boundary parse_boundary(std::string_view text);  // clamp | stop | periodic | extrapolate | free_stream | freeze
const char* to_string(Integrator i);
const char* to_string(Interpolation i);
const char* to_string(Boundary b);

}  // namespace hetflow::ftle
