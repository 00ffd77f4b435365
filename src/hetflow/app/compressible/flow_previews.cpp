#include "hetflow/app/compressible/flow_previews.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "hetflow/app/compressible/block_vtk_series.hpp"
#include "hetflow/core/number_text.hpp"
#include "hetflow/display/preview.hpp"
#include "hetflow/io/png_image.hpp"

namespace hetflow::app {
namespace {

constexpr io::Rgb kOutline{255, 255, 255};

// Draws each leaf's outline over the plot rectangle that shows the domain.
void draw_outlines(io::Image& image, const display::PixelRect& plot, const FlowSnapshot& snapshot) {
  const auto px = [&](double x) { return plot.x + static_cast<int>(std::lround(x / snapshot.width() * plot.width)); };
  const auto py = [&](double y) {
    return plot.y + plot.height - static_cast<int>(std::lround(y / snapshot.height() * plot.height));
  };
  for (const mrag::BlockKey& leaf : snapshot.leaves) {
    const double size = snapshot.root_size / static_cast<double>(1L << leaf.level);
    const int x0 = px(leaf.x * size), x1 = px((leaf.x + 1) * size);
    const int y0 = py((leaf.y + 1) * size), y1 = py(leaf.y * size);
    for (int x = x0; x <= x1; ++x) {
      image.set(x, y0, kOutline);
      image.set(x, y1, kOutline);
    }
    for (int y = y0; y <= y1; ++y) {
      image.set(x0, y, kOutline);
      image.set(x1, y, kOutline);
    }
  }
}

}  // namespace

int preview_level(const FlowSnapshot& snapshot, int max_cells_x) {
  int level = snapshot.finest_level();
  while (level > 0 && (static_cast<long>(snapshot.roots_x) * snapshot.block_size << level) > max_cells_x) --level;
  return level;
}

std::vector<double> density_gradient(const UniformFields& f) {
  std::vector<double> g(f.nx * f.ny);
  const auto difference = [&](std::size_t i, std::size_t j, bool along_x) {
    const std::size_t n = along_x ? f.nx : f.ny, k = along_x ? i : j;
    if (n < 2) return 0.0;
    const std::size_t lo = k > 0 ? k - 1 : k, hi = k + 1 < n ? k + 1 : k;
    const double a = f.rho[along_x ? f.index(lo, j) : f.index(i, lo)];
    const double b = f.rho[along_x ? f.index(hi, j) : f.index(i, hi)];
    return (b - a) / (static_cast<double>(hi - lo) * f.h);
  };
  for (std::size_t j = 0; j < f.ny; ++j)
    for (std::size_t i = 0; i < f.nx; ++i)
      g[f.index(i, j)] = std::hypot(difference(i, j, true), difference(i, j, false));
  return g;
}

FlowPreviews::FlowPreviews(RunDirectory& directory, const Look& look) : dir_(directory), look_(look) {
  const std::string outlined = look.outlines ? ", the leaves outlined in white" : "";
  dir_.add_output("rho_*.png", "the density at the step its name gives" + outlined);
  dir_.add_output("p_*.png", "the pressure at the step its name gives" + outlined);
  dir_.add_output("schlieren_*.png", "the numerical schlieren exp(-k |grad rho| / max |grad rho|), k = " +
                                         core::number_text(look.schlieren_k, 4) + outlined);
}

void FlowPreviews::write(const FlowSnapshot& snapshot, const UniformFields& fields) {
  std::vector<double> schlieren = density_gradient(fields);
  const double steepest = *std::max_element(schlieren.begin(), schlieren.end());
  for (double& g : schlieren) g = std::exp(-look_.schlieren_k * (steepest > 0 ? g / steepest : 0.0));
  const double aspect = snapshot.height() / snapshot.width();
  const int height = static_cast<int>(std::clamp(160.0 + 0.85 * look_.width * aspect, 300.0, 2.0 * look_.width));
  const std::string when = "t = " + core::number_text(snapshot.time, 5) + ", step " + std::to_string(snapshot.step);
  struct Shown {
    const char* stem;
    const std::vector<double>& values;
    const char* colormap;
    const char* label;
  };
  const Shown shown[] = {{"rho", fields.rho, "viridis", "rho"},
                         {"p", fields.p, "inferno", "p"},
                         {"schlieren", schlieren, "inferno", "exp(-k|grad rho|/max)"}};
  for (const Shown& s : shown) {
    display::PreviewOptions options;
    options.colormap = s.colormap;
    options.extent = {0.0, snapshot.width(), 0.0, snapshot.height()};
    options.title = std::string(s.stem) + ", " + when;
    options.value_label = s.label;
    if (s.values.data() == schlieren.data()) {
      options.min = 0.0;
      options.max = 1.0;
    }
    display::PreviewLayout layout;
    io::Image image = display::render_preview({std::span<const double>(s.values), fields.nx, fields.ny}, look_.width,
                                              height, options, &layout);
    if (look_.outlines) draw_outlines(image, layout.plot, snapshot);
    io::write_png(dir_.file(step_name(s.stem, snapshot.step) + ".png"), image);
  }
}

}  // namespace hetflow::app
