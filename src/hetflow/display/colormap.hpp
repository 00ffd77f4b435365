#pragma once
#include <array>
#include <string>
#include <string_view>
#include <vector>

#include "hetflow/io/image.hpp"

namespace hetflow::display {

// A colour map as evenly spaced control points in [0, 1] (sRGB, 0..1), linearly interpolated. The
// built-in tables sample the published maps at 33 points, close enough that interpolation stays within
// about 1/255 of the 256-entry originals.
class Colormap {
 public:
  Colormap(std::string name, std::vector<std::array<float, 3>> points);

  // t is clamped to [0, 1]; NaN is the caller's business (previews draw it grey).
  std::array<double, 3> rgb(double t) const;
  io::Rgb operator()(double t) const;
  const std::string& name() const { return name_; }
  const std::vector<std::array<float, 3>>& points() const { return points_; }

 private:
  std::string name_;
  std::vector<std::array<float, 3>> points_;
};

// "viridis", "inferno" (perceptually uniform, sequential), "coolwarm" (Moreland's diverging
// blue-white-red), and "reds" and "blues" (ColorBrewer's white-to-colour maps, which blend
// multiplicatively in overlays). Unknown names throw IoError listing the valid ones.
const Colormap& colormap(std::string_view name);
std::vector<std::string> colormap_names();

}  // namespace hetflow::display
