#pragma once
#include <array>
#include <cstddef>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "hetflow/app/fem/fem_output_config.hpp"
#include "hetflow/display/preview.hpp"
#include "hetflow/fem/edge_operators.hpp"
#include "hetflow/fem/point_locator.hpp"

namespace hetflow::app {

// The PNG preview of one field on a cut plane. The plane is sampled at the centres of a regular grid
// over the mesh's bounding box (as many samples along the longer side as the image is wide), each
// sample located once here; a sample outside the mesh is drawn grey and left out of the colour range.
class FemCutPreview {
 public:
  // Throws std::invalid_argument for a plane fem_output_problems rejects.
  FemCutPreview(const fem::PointLocator& locator, const FemCutPlane& plane);

  // The preview of the fields at one step; `vorticity` is read only for the vorticity fields. `layout`
  // receives where the plot landed.
  io::Image render(long step, double time, std::span<const fem::Vec3> velocity, std::span<const double> pressure,
                   std::span<const fem::Vec3> vorticity, display::PreviewLayout* layout = nullptr) const;
  // The same as a PNG file.
  void write(const std::filesystem::path& path, long step, double time, std::span<const fem::Vec3> velocity,
             std::span<const double> pressure, std::span<const fem::Vec3> vorticity) const;

  // The file-name stem, "<field>_<axis>" (speed_z), and what the files show, for the manifest.
  std::string stem() const;
  std::string description() const;
  int width() const { return plane_.width; }
  int height() const { return height_; }
  bool needs_vorticity() const;

 private:
  FemCutPlane plane_;
  std::size_t h_ = 0, v_ = 0;    // the in-plane axes: x-y, x-z or y-z
  std::size_t nh_ = 0, nv_ = 0;  // samples along them
  std::array<double, 4> extent_{};
  int height_ = 0;
  std::vector<std::optional<fem::Location>> samples_;  // h fastest, bottom row first
};

}  // namespace hetflow::app
