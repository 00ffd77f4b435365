#pragma once
#include <array>
#include <cstddef>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <variant>
#include <vector>

#include "hetflow/io/image.hpp"

namespace hetflow::display {

// A 2-D scalar field to picture: nx * ny values, x fastest, j = 0 drawn at the bottom (y up).
struct PreviewField {
  std::variant<std::span<const double>, std::span<const float>> values;
  std::size_t nx = 0;
  std::size_t ny = 0;
};

// A picture's frame and, for render_preview, its one field's look. render_layers takes colormap, min, max
// and value_label from each layer instead.
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

// One field of a layered picture, with its own colour map, range and colour bar.
struct PreviewLayer {
  PreviewField field;
  std::string colormap = "viridis";
  std::optional<double> min;  // colour range; unset ends come from the finite values' min / max
  std::optional<double> max;
  std::string value_label;  // beside this layer's colour bar
};

// A colour bar and the value range it shows.
struct ColorbarLayout {
  PixelRect rect;  // top row is the colour of vmax, bottom row that of vmin
  double vmin = 0.0;
  double vmax = 1.0;
};

// Where things landed, for tests and for callers that annotate the image further.
struct PreviewLayout {
  PixelRect plot;
  PixelRect colorbar;  // the first layer's bar: top row is the colour of vmax, bottom row that of vmin
  double vmin = 0.0;   // the first layer's range
  double vmax = 1.0;
  std::vector<ColorbarLayout> colorbars;  // one per layer, left to right in layer order
};

// Colour-mapped field with a frame, axis ticks in domain units, axis labels, title and a vertical colour
// bar with tick labels. NaN and infinities are drawn grey and ignored by the automatic range. The
// one-layer case of render_layers.
io::Image render_preview(const PreviewField& field, int width, int height, const PreviewOptions& options = {},
                     PreviewLayout* layout = nullptr);

// Several fields of one grid over one frame: each pixel is the product of the layers' colours (per
// channel, in [0, 1]), so white-to-colour maps stay white where every layer is low and darken where
// several are high; grey where any layer is not finite. One colour bar per layer, side by side on the
// right. Throws IoError for no layers or layers of different grid sizes.
io::Image render_layers(std::span<const PreviewLayer> layers, int width, int height, const PreviewOptions& options = {},
                        PreviewLayout* layout = nullptr);

void write_preview_png(const std::filesystem::path& path, const PreviewField& field, int width, int height,
                       const PreviewOptions& options = {});

// Grey used for non-finite values.
constexpr io::Rgb kNanColor{128, 128, 128};

}  // namespace hetflow::display
