#include "hetflow/app/ftle/ftle_png.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <string>

#include "hetflow/core/number_text.hpp"
#include "hetflow/display/preview.hpp"
#include "hetflow/io/png_image.hpp"

namespace hetflow::app {
namespace {

std::string number(double v) { return core::number_text(v, 6); }

// The frame every FTLE picture shares: the seed grid's extent and, in 3D, the shown plane's z after the
// title's times.
display::PreviewOptions frame_of(const ftle::SeedGrid& seeds, const std::string& title) {
  const std::size_t nx = seeds.counts[0], ny = seeds.counts[1];
  display::PreviewOptions look;
  look.extent = {seeds.origin[0], seeds.position(0, nx - 1), seeds.origin[1], seeds.position(1, ny - 1)};
  const std::size_t z = seeds.dimension == 3 ? seeds.counts[2] / 2 : 0;
  look.title = title + (seeds.dimension == 3 ? "  z = " + number(seeds.position(2, z)) : std::string());
  return look;
}

// Pixel rows for a picture 900 pixels wide with one colour bar: taller for a taller domain, within bounds.
int picture_height(const ftle::SeedGrid& seeds) {
  const std::size_t nx = seeds.counts[0], ny = seeds.counts[1];
  const double width = std::abs(seeds.position(0, nx - 1) - seeds.origin[0]);
  const double height = std::abs(seeds.position(1, ny - 1) - seeds.origin[1]);
  const double aspect = width > 0 ? height / width : 1.0;
  return static_cast<int>(std::clamp(200.0 + 600.0 * aspect, 440.0, 760.0));
}

std::optional<std::array<double, 2>> case_range(const casefile::Case& c) {
  const auto given = c.get<std::vector<double>>("output.range");
  if (given.size() != 2) return std::nullopt;
  return std::array<double, 2>{given[0], given[1]};
}

// The median of the finite values where it lies below their max; nothing for no finite value or a field
// that is its max over half the seeds, whose range the preview then takes whole.
std::optional<double> median_below_max(std::span<const double> plane) {
  std::vector<double> finite;
  for (const double v : plane)
    if (std::isfinite(v)) finite.push_back(v);
  if (finite.empty()) return std::nullopt;
  const auto middle = finite.begin() + static_cast<std::ptrdiff_t>(finite.size() / 2);
  std::nth_element(finite.begin(), middle, finite.end());
  const double median = *middle;
  if (!(median < *std::max_element(middle, finite.end()))) return std::nullopt;
  return median;
}

display::PreviewLayer ridge_layer(const std::vector<double>& field, const ftle::SeedGrid& seeds, const char* colormap,
                                  const char* label, const std::optional<std::array<double, 2>>& range) {
  display::PreviewLayer layer;
  layer.field = {shown_plane(field, seeds), seeds.counts[0], seeds.counts[1]};
  layer.colormap = colormap;
  layer.value_label = label;
  if (range) {
    layer.min = (*range)[0];
    layer.max = (*range)[1];
  } else {
    layer.min = median_below_max(shown_plane(field, seeds));
  }
  return layer;
}

}  // namespace

std::span<const double> shown_plane(const std::vector<double>& field, const ftle::SeedGrid& seeds) {
  const std::size_t nx = seeds.counts[0], ny = seeds.counts[1];
  const std::size_t z = seeds.dimension == 3 ? seeds.counts[2] / 2 : 0;
  return std::span<const double>(field).subspan(z * nx * ny, nx * ny);
}

void write_ftle_png(const std::filesystem::path& path, const casefile::Case& c, const std::vector<double>& field,
                    const ftle::SeedGrid& seeds, const ftle::Config& config, long steps,
                    std::optional<std::array<double, 2>> range) {
  const double elapsed = static_cast<double>(steps) * config.duration / static_cast<double>(config.steps);
  display::PreviewOptions look = frame_of(seeds, std::string(config.duration > 0 ? "forward" : "backward") +
                                                     " FTLE  t0 = " + number(config.t0) + "  T = " + number(elapsed));
  look.colormap = c.get<std::string>("output.colormap");
  if (const auto given = case_range(c)) range = given;
  if (range) {
    look.min = (*range)[0];
    look.max = (*range)[1];
  }
  look.value_label = "FTLE (1/time)";
  display::write_preview_png(path, display::PreviewField{shown_plane(field, seeds), seeds.counts[0], seeds.counts[1]},
                             900, picture_height(seeds), look);
}

RidgeRanges write_ridges_png(const std::filesystem::path& path, const casefile::Case& c,
                             const std::vector<double>& forward, const std::vector<double>& backward,
                             const ftle::SeedGrid& seeds, const ftle::Config& config) {
  const display::PreviewOptions look =
      frame_of(seeds, "FTLE ridges  t0 = " + number(config.t0) + "  |T| = " + number(std::abs(config.duration)));
  const auto range = case_range(c);
  const std::array<display::PreviewLayer, 2> layers{
      ridge_layer(forward, seeds, "reds", "forward FTLE (repelling)", range),
      ridge_layer(backward, seeds, "blues", "backward FTLE (attracting)", range)};
  // Wider than ftle.png by about one colour bar's column, so that the plot keeps ftle.png's size.
  display::PreviewLayout layout;
  io::write_png(path, display::render_layers(layers, 1060, picture_height(seeds), look, &layout));
  const auto& bars = layout.colorbars;
  return {{bars[0].vmin, bars[0].vmax}, {bars[1].vmin, bars[1].vmax}};
}

}  // namespace hetflow::app
