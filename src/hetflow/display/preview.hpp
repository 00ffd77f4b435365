#pragma once
#include <array>
#include <cstddef>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <variant>

#include "hetflow/io/image.hpp"

namespace hetflow::display {

// A 2-D scalar field to picture: nx * ny values, x fastest, j = 0 drawn at the bottom (y up).
struct PreviewField {
  std::variant<std::span<const double>, std::span<const float>> values;
  std::size_t nx = 0;
  std::size_t ny = 0;
};

struct PreviewOptions {
  std::string colormap = "viridis";
  std::optional<double> min;  // colour range; unset ends come from the finite values' min / max
  std::optional<double> max;
  bool bilinear = false;       // else nearest sample, which shows the grid honestly
  bool keep_aspect = true;     // one physical unit is as long in x as in y
  std::array<double, 4> extent{0.0, 0.0, 0.0, 0.0};  // x0 x1 y0 y1 of the domain; all zero: 0..nx, 0..ny
  std::string title;
  std::string x_label = "x";
  std::string y_label = "y";
  std::string value_label;  // beside the colour bar, e.g. "|u| (m/s)"
};

struct PixelRect {
  int x = 0, y = 0, width = 0, height = 0;
};

// Where things landed, for tests and for callers that annotate the image further.
struct PreviewLayout {
  PixelRect plot;
  PixelRect colorbar;  // top row is the colour of vmax, bottom row that of vmin
  double vmin = 0.0;
  double vmax = 1.0;
};

// Colour-mapped field with a frame, axis ticks in domain units, axis labels, title and a vertical colour
// bar with tick labels. NaN and infinities are drawn grey and ignored by the automatic range.
io::Image render_preview(const PreviewField& field, int width, int height, const PreviewOptions& options = {},
                     PreviewLayout* layout = nullptr);

void write_preview_png(const std::filesystem::path& path, const PreviewField& field, int width, int height,
                       const PreviewOptions& options = {});

// Grey used for non-finite values.
constexpr io::Rgb kNanColor{128, 128, 128};

}  // namespace hetflow::display
