#pragma once
#include "hetflow/core/cl.hpp"

namespace hetflow::ftle {

// ftle.cl's codes that the host passes or reads: FLOW_GRID (the gridded velocity source),
// BOUNDARY_CLAMP, and the tracer status codes TRACER_STOPPED and TRACER_BAD_VELOCITY.
inline constexpr int flow_grid = 6;
inline constexpr int boundary_clamp = 0;
inline constexpr cl_uint tracer_stopped = 1, tracer_bad_velocity = 2;

}  // namespace hetflow::ftle
