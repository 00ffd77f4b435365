#pragma once
#include "hetflow/core/cl.hpp"

namespace hetflow::ftle {

// ftle.cl's codes that the host passes or reads: FLOW_GRID (the gridded velocity source),
// BOUNDARY_CLAMP, the tracer status codes TRACER_STOPPED, TRACER_BAD_VELOCITY and TRACER_STEP_UNDERFLOW in the bits
// TRACER_CODE_BITS of a status, and its flag TRACER_MET_WALL.
inline constexpr int flow_grid = 6;
inline constexpr int boundary_clamp = 0;
inline constexpr cl_uint tracer_stopped = 1, tracer_bad_velocity = 2, tracer_step_underflow = 4;
inline constexpr cl_uint tracer_code_bits = 0xff, tracer_met_wall = 0x100;

}  // namespace hetflow::ftle
