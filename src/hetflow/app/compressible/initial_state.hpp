#pragma once
#include <array>
#include <string>
#include <vector>

#include "hetflow/mrag/hlle_flux.hpp"

namespace hetflow::app {

// Where a region of the initial state lies, in domain coordinates.
struct RegionShape {
  enum class Kind { half_plane, box, disc, quadrant };
  Kind kind = Kind::box;
  int axis = 0;                            // half_plane: 0 x, 1 y
  bool below = true;                       // half_plane: coordinate < at, else > at
  double at = 0;                           // half_plane
  std::array<double, 2> lower{}, upper{};  // box
  std::array<double, 2> centre{};          // disc; the corner point of a quadrant
  double radius = 0;                       // disc
  int quadrant = 1;                        // 1: x > cx, y > cy; 2: x < cx, y > cy; 3: both below; 4: x > cx, y < cy

  bool contains(double x, double y) const;
};

// A uniform primitive state of one material, as the flow samples it (un = u, ut = v).
struct MaterialState {
  std::string material;
  mrag::FaceState state;
};

struct InitialRegion {
  std::string name;
  RegionShape shape;
  MaterialState fill;
};

// The initial state as a background painted over by regions in order, a later region winning where
// regions overlap (a shock's half-plane, then a bubble inside it).
class InitialState {
 public:
  InitialState() = default;
  InitialState(MaterialState background, std::vector<InitialRegion> regions);

  const mrag::FaceState& operator()(double x, double y) const;
  const MaterialState& background() const { return background_; }
  const std::vector<InitialRegion>& regions() const { return regions_; }

 private:
  MaterialState background_;
  std::vector<InitialRegion> regions_;
};

}  // namespace hetflow::app
