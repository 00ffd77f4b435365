// display::render_line_plot: the image size, data points on the pixels the frame maps them to (linear and
// log axes), the range widened to ticks, and the PNG written at the asked size.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <unistd.h>

#include "hetflow/display/line_plot.hpp"
#include "hetflow/io/png_image.hpp"

namespace hetflow::display {
namespace {

LinePlot two_series(bool log_y) {
  LinePlot p;
  p.title = "test";
  p.x = {"x", false};
  p.y = {"y", log_y};
  p.series.push_back({"a", {0, 1, 2, 3, 4}, {1, 10, 100, 1000, 10000}, true});
  p.series.push_back({"b", {0, 4}, {2, 20}, false});
  return p;
}

TEST(LinePlot, MarkersLandOnTheirPixelsOnALogAxis) {
  PlotFrame f;
  const io::Image img = render_line_plot(two_series(true), 640, 480, &f);
  EXPECT_EQ(img.width, 640);
  EXPECT_EQ(img.height, 480);
  // Whole decades 1e0 .. 1e4 and x ticks 0 .. 4 bound the data exactly: the ends are the frame's edges.
  EXPECT_DOUBLE_EQ(f.y0, 0.0);
  EXPECT_DOUBLE_EQ(f.y1, 4.0);
  EXPECT_EQ(f.pixel_x(0), f.left);
  EXPECT_EQ(f.pixel_x(4), f.left + f.width - 1);
  EXPECT_EQ(f.pixel_y(1), f.top + f.height - 1);
  EXPECT_EQ(f.pixel_y(10000), f.top);
  // One decade per quarter of the height: 100 sits in the middle.
  EXPECT_NEAR(f.pixel_y(100), f.top + (f.height - 1) / 2.0, 1.0);
  // Points 1..3 of series a (the ends may be under the legend or the frame) are drawn in its colour.
  for (const double x : {1.0, 2.0, 3.0}) {
    const double y = std::pow(10.0, x);
    EXPECT_EQ(img.pixel(f.pixel_x(x), f.pixel_y(y)), series_color(0)) << x;
    EXPECT_EQ(img.pixel(f.pixel_x(x) + 2, f.pixel_y(y) - 2), series_color(0)) << x;  // the marker's corner
  }
}

TEST(LinePlot, LinearAxisIsWidenedToTicksAndLinesJoinPoints) {
  LinePlot p;
  p.x = {"t", false};
  p.y = {"T", false};
  p.series.push_back({"", {0.0, 10.0}, {1012.0, 1388.0}, false});
  PlotFrame f;
  const io::Image img = render_line_plot(p, 400, 300, &f);
  EXPECT_LE(f.y0, 1012.0);
  EXPECT_GE(f.y1, 1388.0);
  EXPECT_DOUBLE_EQ(f.y0, 1000.0);  // ticks of 100 K: [1000, 1400]
  EXPECT_DOUBLE_EQ(f.y1, 1400.0);
  // The midpoint of the straight line lies on it (within the line's two pixels).
  const int mx = f.pixel_x(5.0), my = f.pixel_y(1200.0);
  bool found = false;
  for (int dy = -2; dy <= 2; ++dy) found = found || img.pixel(mx, my + dy) == series_color(0);
  EXPECT_TRUE(found);
  // Away from the line the plot area is white or grid grey, never the series colour.
  EXPECT_NE(img.pixel(f.pixel_x(1.0), f.pixel_y(1350.0)), series_color(0));
}

TEST(LinePlot, PngHasTheAskedSize) {
  const auto path = std::filesystem::temp_directory_path() / ("hetflow-line-plot-" + std::to_string(::getpid()) + ".png");
  write_line_plot_png(path, two_series(false), 500, 350);
  const io::PngPixels png = io::read_png(path);
  EXPECT_EQ(png.width, 500);
  EXPECT_EQ(png.height, 350);
  std::filesystem::remove(path);
}

}  // namespace
}  // namespace hetflow::display

namespace hetflow::display {
namespace {

// Whether pixel (x, y) lies in the frame's legend rectangle.
bool in_legend(const PlotFrame& f, double x, double y) {
  return x >= f.legend_left && x < f.legend_left + f.legend_width && y >= f.legend_top &&
         y < f.legend_top + f.legend_height;
}

// Every point of every segment of the plot, 100 per segment in pixels, lies outside the legend.
void expect_legend_clear(const LinePlot& p, const PlotFrame& f) {
  ASSERT_GT(f.legend_width, 0);
  for (const PlotSeries& s : p.series)
    for (std::size_t i = 0; i + 1 < s.x.size(); ++i) {
      const double x0 = f.pixel_x(s.x[i]), y0 = f.pixel_y(s.y[i]), x1 = f.pixel_x(s.x[i + 1]), y1 = f.pixel_y(s.y[i + 1]);
      for (int k = 0; k <= 100; ++k) {
        const double u = k / 100.0;
        EXPECT_FALSE(in_legend(f, x0 + u * (x1 - x0), y0 + u * (y1 - y0))) << s.label << " segment " << i;
      }
    }
}

// Ignition curves on log time: each flat at T0, then rising to a plateau that reaches the top right.
LinePlot ignition_curves(int count) {
  LinePlot p{"temperature", {"t (s)", true}, {"T (K)", false}, {}};
  for (int c = 0; c < count; ++c) {
    PlotSeries s{"T0 = " + std::to_string(1300 + 100 * c) + " K, p = 1, phi = 1", {}, {}, false};
    const double delay = 1e-2 / std::pow(3.0, c), T0 = 1300.0 + 100.0 * c;
    for (double t = 1e-7; t <= 0.05; t *= 1.12) {
      s.x.push_back(t);
      s.y.push_back(T0 + (2700.0 + 20.0 * c - T0) / (1.0 + std::pow(delay / t, 8.0)));
    }
    p.series.push_back(std::move(s));
  }
  return p;
}

// The plateaus fill the top right, where the legend used to hide them: it moves to a clear corner.
TEST(LinePlot, LegendHidesNoCurve) {
  const LinePlot p = ignition_curves(4);
  PlotFrame f;
  render_line_plot(p, 800, 560, &f);
  expect_legend_clear(p, f);
  EXPECT_GE(f.legend_left, f.left);  // inside the plot area
  EXPECT_LE(f.legend_left + f.legend_width, f.left + f.width);
}

// Curves through every corner leave no room inside: the legend goes right of the narrowed plot area.
TEST(LinePlot, LegendGoesOutsideWhenEveryCornerHasACurve) {
  LinePlot p{"", {"x", false}, {"y", false}, {}};
  p.series.push_back({"rising", {0, 1}, {0, 1}, false});
  p.series.push_back({"falling", {0, 1}, {1, 0}, false});
  PlotFrame f;
  const io::Image img = render_line_plot(p, 400, 300, &f);
  expect_legend_clear(p, f);
  EXPECT_GE(f.legend_left, f.left + f.width + 1);
  EXPECT_LE(f.legend_left + f.legend_width, img.width);
}

}  // namespace
}  // namespace hetflow::display
