#pragma once
#include <filesystem>
#include <string>
#include <vector>

#include "hetflow/io/image.hpp"

namespace hetflow::display {

// One curve of a line plot; points with a non-finite coordinate (or <= 0 on a log axis) break the line.
struct PlotSeries {
  std::string label;  // shown in the legend; empty: not listed
  std::vector<double> x, y;
  bool markers = false;  // a filled square on every point, for sparse data such as a delay sweep
};

struct PlotAxis {
  std::string label;
  bool log = false;  // decades; the range is widened to whole decades
};

struct LinePlot {
  std::string title;
  PlotAxis x, y;
  std::vector<PlotSeries> series;
};

// Where the data landed: the plot rectangle (pixels, y down), the data range it spans and the legend's
// rectangle, so callers and tests can find the pixel of a data point.
struct PlotFrame {
  int left = 0, top = 0, width = 0, height = 0;
  double x0 = 0, x1 = 1, y0 = 0, y1 = 1;  // on a log axis: log10 of the range
  bool x_log = false, y_log = false;
  int legend_left = 0, legend_top = 0, legend_width = 0, legend_height = 0;  // 0 wide: no legend
  int pixel_x(double x) const;
  int pixel_y(double y) const;
};

// The colour of series i: a fixed palette, cycled.
io::Rgb series_color(std::size_t i);

// Axes with ticks and tick labels, axis labels, a title, the series as lines (and markers) in
// series_color order, and a legend in the first corner of the plot area where it hides no curve (top
// right, top left, bottom right, bottom left), else right of a narrowed plot area. Ranges come from the finite data, widened
// to round tick values, so a series never touches the frame unseen.
io::Image render_line_plot(const LinePlot& plot, int width, int height, PlotFrame* frame = nullptr);
void write_line_plot_png(const std::filesystem::path& path, const LinePlot& plot, int width, int height);

}  // namespace hetflow::display
