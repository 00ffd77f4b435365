#include "hetflow/app/compressible/initial_state.hpp"

#include <cmath>
#include <utility>

namespace hetflow::app {

bool RegionShape::contains(double x, double y) const {
  switch (kind) {
    case Kind::half_plane: {
      const double v = axis == 0 ? x : y;
      return below ? v < at : v > at;
    }
    case Kind::box:
      return x > lower[0] && x < upper[0] && y > lower[1] && y < upper[1];
    case Kind::disc:
      return std::hypot(x - centre[0], y - centre[1]) < radius;
    case Kind::quadrant: {
      const bool right = x > centre[0], up = y > centre[1];
      switch (quadrant) {
        case 1:
          return right && up;
        case 2:
          return !right && up;
        case 3:
          return !right && !up;
        default:
          return right && !up;
      }
    }
  }
  return false;
}

InitialState::InitialState(MaterialState background, std::vector<InitialRegion> regions)
    : background_(std::move(background)), regions_(std::move(regions)) {}

const mrag::FaceState& InitialState::operator()(double x, double y) const {
  for (auto r = regions_.rbegin(); r != regions_.rend(); ++r)
    if (r->shape.contains(x, y)) return r->fill.state;
  return background_.state;
}

}  // namespace hetflow::app
