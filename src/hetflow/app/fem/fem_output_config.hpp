#pragma once
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "hetflow/fem/mesh.hpp"
#include "hetflow/fem/point_locator.hpp"

namespace hetflow::app {

// What the cut-plane preview shows: |u|, p, |ω|, or ω's component along the plane's normal (the signed
// vorticity of a quasi-2D flow in a z plane).
enum class FemCutField { speed, pressure, vorticity, vorticity_normal };

// The names a case file uses for FemCutField, in enum order: speed, pressure, vorticity, vorticity_normal.
const std::vector<std::string>& fem_cut_field_names();
std::optional<FemCutField> fem_cut_field(std::string_view name);

// The plane normal to `axis` (0 x, 1 y, 2 z) at `position`, sampled across the mesh's bounding box.
struct FemCutPlane {
  int axis = 2;
  double position = 0.0;
  FemCutField field = FemCutField::speed;
  int width = 900;  // pixels; the height follows the plane's aspect ratio
};

struct FemProbe {
  std::string name;
  fem::Point point{};
};

// `points` samples equally spaced from `from` to `to`, both ends included.
struct FemLine {
  std::string name;
  fem::Point from{}, to{};
  std::size_t points = 2;
};

// Point k of the line's `points`, from `from` (k = 0) to `to` (k = points − 1).
fem::Point fem_line_point(const FemLine& line, std::size_t k);

// "x", "y" or "z" for the axis 0, 1 or 2.
const char* fem_axis_name(int axis);
// A number in 4 significant digits, for titles and descriptions.
std::string fem_four_digits(double v);

// The outputs of an incompressible-flow run besides its forces and log.
struct FemOutputConfig {
  bool vtu = true;
  std::optional<FemCutPlane> cut_plane;
  std::vector<FemProbe> probes;
  std::vector<FemLine> lines;
};

// Every problem of `config` on the mesh the locator was built for, one sentence each: probe and line
// points outside the mesh (naming the probe or line and the point), a cut plane outside the mesh's
// bounding box or with a bad axis or width, lines of fewer than 2 points, and probe or line names that
// are empty, repeated or hold characters other than letters, digits, '_', '-' and '.' (they become
// column and file names). Empty when the configuration is usable.
std::vector<std::string> fem_output_problems(const fem::PointLocator& locator, const FemOutputConfig& config);

// The smallest cut-plane width in pixels: below it the preview's labels crowd the plot.
inline constexpr int kFemCutPlaneMinWidth = 300;

}  // namespace hetflow::app
