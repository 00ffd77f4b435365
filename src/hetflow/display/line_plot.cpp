#include "hetflow/display/line_plot.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <limits>

#include "hetflow/display/bitmap_font.hpp"
#include "hetflow/io/png_image.hpp"

namespace hetflow::display {
namespace {

constexpr io::Rgb black{0, 0, 0};
constexpr io::Rgb grid_grey{225, 225, 225};

bool usable(double v, bool log) { return std::isfinite(v) && (!log || v > 0); }
double scaled(double v, bool log) { return log ? std::log10(v) : v; }

// The scaled data range of one axis over every series, with an empty or degenerate range opened up.
std::array<double, 2> data_range(const LinePlot& plot, bool for_x) {
  const bool log = for_x ? plot.x.log : plot.y.log;
  double lo = std::numeric_limits<double>::infinity(), hi = -lo;
  for (const auto& s : plot.series) {
    const auto& values = for_x ? s.x : s.y;
    for (const double v : values) {
      if (!usable(v, log)) continue;
      lo = std::min(lo, scaled(v, log));
      hi = std::max(hi, scaled(v, log));
    }
  }
  if (lo > hi) return {0, 1};
  if (hi - lo < 1e-12 * std::max(1.0, std::abs(lo))) return {lo - 0.5, hi + 0.5};
  return {lo, hi};
}

// Tick spacing of 1, 2 or 5 times a power of ten giving about `target` intervals; a log axis ticks
// whole decades (every second one when there are many).
double tick_step(double lo, double hi, bool log, int target) {
  if (log) return std::max(1.0, std::ceil((hi - lo) / (2.0 * target)));
  const double raw = (hi - lo) / target;
  const double power = std::pow(10.0, std::floor(std::log10(raw)));
  for (const double m : {1.0, 2.0, 5.0})
    if (m * power >= raw) return m * power;
  return 10.0 * power;
}

std::string tick_text(double v, double step, bool log) {
  char text[32];
  if (log) {
    std::snprintf(text, sizeof text, "1e%d", static_cast<int>(std::lround(v)));
  } else {
    const int decimals = std::clamp(static_cast<int>(-std::floor(std::log10(step) + 1e-9)), 0, 6);
    std::snprintf(text, sizeof text, "%.*f", decimals, std::abs(v) < 1e-9 * step ? 0.0 : v);
  }
  return text;
}

// Widens [lo, hi] outward to multiples of the tick step, so the frame's ends carry ticks.
std::vector<double> axis_ticks(double& lo, double& hi, bool log, int target) {
  const double step = tick_step(lo, hi, log, target);
  lo = std::floor(lo / step + 1e-9) * step;
  hi = std::ceil(hi / step - 1e-9) * step;
  std::vector<double> ticks;
  for (double t = lo; t <= hi + 1e-9 * step; t += step) ticks.push_back(t);
  return ticks;
}

// A line of two pixels' width (Bresenham, doubled downwards and rightwards), clipped to the frame.
void draw_line(io::Image& img, const PlotFrame& f, int x0, int y0, int x1, int y1, io::Rgb c) {
  const auto inside = [&](int x, int y) {
    return x >= f.left && x < f.left + f.width && y >= f.top && y < f.top + f.height;
  };
  const int dx = std::abs(x1 - x0), dy = -std::abs(y1 - y0);
  const int sx = x0 < x1 ? 1 : -1, sy = y0 < y1 ? 1 : -1;
  int err = dx + dy;
  for (;;) {
    for (const auto& [ox, oy] : {std::pair{0, 0}, std::pair{1, 0}, std::pair{0, 1}})
      if (inside(x0 + ox, y0 + oy)) img.set(x0 + ox, y0 + oy, c);
    if (x0 == x1 && y0 == y1) break;
    const int e2 = 2 * err;
    if (e2 >= dy) {
      err += dy;
      x0 += sx;
    }
    if (e2 <= dx) {
      err += dx;
      y0 += sy;
    }
  }
}

}  // namespace

int PlotFrame::pixel_x(double x) const {
  const double u = (scaled(x, x_log) - x0) / (x1 - x0);
  return left + static_cast<int>(std::lround(u * (width - 1)));
}

int PlotFrame::pixel_y(double y) const {
  const double v = (scaled(y, y_log) - y0) / (y1 - y0);
  return top + height - 1 - static_cast<int>(std::lround(v * (height - 1)));
}

io::Rgb series_color(std::size_t i) {
  // Tableau 10: distinct in hue and readable on white.
  static constexpr std::array<io::Rgb, 10> palette{{{31, 119, 180}, {255, 127, 14}, {44, 160, 44}, {214, 39, 40},
                                                 {148, 103, 189}, {140, 86, 75}, {227, 119, 194}, {127, 127, 127},
                                                 {188, 189, 34}, {23, 190, 207}}};
  return palette[i % palette.size()];
}

namespace {

// The axes and the series, with the plot area `legend_room` pixels narrower than the image allows.
io::Image render_axes_and_series(const LinePlot& plot, int width, int height, int legend_room, PlotFrame& f) {
  io::Image img(width, height);
  f.x_log = plot.x.log;
  f.y_log = plot.y.log;
  auto [x0, x1] = data_range(plot, true);
  auto [y0, y1] = data_range(plot, false);
  const std::vector<double> xt = axis_ticks(x0, x1, f.x_log, 6);
  const std::vector<double> yt = axis_ticks(y0, y1, f.y_log, 6);
  f.x0 = x0;
  f.x1 = x1;
  f.y0 = y0;
  f.y1 = y1;
  const double ystep = yt.size() > 1 ? yt[1] - yt[0] : 1.0, xstep = xt.size() > 1 ? xt[1] - xt[0] : 1.0;
  int label_width = 0;
  for (const double t : yt) label_width = std::max(label_width, text_width(tick_text(t, ystep, f.y_log)));
  f.left = 16 + text_height() + label_width + 8;
  f.top = plot.title.empty() ? 12 : 30;
  f.width = width - f.left - 16 - legend_room;
  f.height = height - f.top - (2 * text_height() + 24);

  // Through f, not the structured bindings: clang before 16 cannot capture those.
  const auto tick_px_x = [&](double t) { return f.left + static_cast<int>(std::lround((t - f.x0) / (f.x1 - f.x0) * (f.width - 1))); };
  const auto tick_px_y = [&](double t) {
    return f.top + f.height - 1 - static_cast<int>(std::lround((t - f.y0) / (f.y1 - f.y0) * (f.height - 1)));
  };
  for (const double t : xt) {
    const int x = tick_px_x(t);
    img.fill_rect(x, f.top, 1, f.height, grid_grey);
    img.fill_rect(x, f.top + f.height, 1, 5, black);
    const std::string s = tick_text(t, xstep, f.x_log);
    draw_text(img, x - text_width(s) / 2, f.top + f.height + 8, s, black);
  }
  for (const double t : yt) {
    const int y = tick_px_y(t);
    img.fill_rect(f.left, y, f.width, 1, grid_grey);
    img.fill_rect(f.left - 5, y, 5, 1, black);
    const std::string s = tick_text(t, ystep, f.y_log);
    draw_text(img, f.left - 8 - text_width(s), y - BitmapFont::kCapHeight / 2, s, black);
  }
  // The frame, one pixel outside the plot area so data on the range's ends stay visible.
  img.fill_rect(f.left - 1, f.top - 1, f.width + 2, 1, black);
  img.fill_rect(f.left - 1, f.top + f.height, f.width + 2, 1, black);
  img.fill_rect(f.left - 1, f.top - 1, 1, f.height + 2, black);
  img.fill_rect(f.left + f.width, f.top - 1, 1, f.height + 2, black);
  draw_text(img, f.left + (f.width - text_width(plot.x.label)) / 2, height - text_height() - 6, plot.x.label, black);
  draw_text_vertical(img, 6, f.top + (f.height - text_width(plot.y.label)) / 2, plot.y.label, black);
  if (!plot.title.empty()) draw_text(img, f.left + (f.width - text_width(plot.title)) / 2, 10, plot.title, black);

  for (std::size_t s = 0; s < plot.series.size(); ++s) {
    const PlotSeries& series = plot.series[s];
    const io::Rgb c = series_color(s);
    bool have_last = false;
    int lx = 0, ly = 0;
    for (std::size_t i = 0; i < std::min(series.x.size(), series.y.size()); ++i) {
      if (!usable(series.x[i], f.x_log) || !usable(series.y[i], f.y_log)) {
        have_last = false;
        continue;
      }
      const int px = f.pixel_x(series.x[i]), py = f.pixel_y(series.y[i]);
      if (have_last) draw_line(img, f, lx, ly, px, py, c);
      if (series.markers) img.fill_rect(px - 2, py - 2, 5, 5, c);
      lx = px;
      ly = py;
      have_last = true;
    }
  }
  return img;
}

// Whether any pixel of the rectangle (with a margin of 2) has a series' colour.
bool covers_series(const io::Image& img, const LinePlot& plot, int x, int y, int w, int h) {
  for (int py = y - 2; py < y + h + 2; ++py)
    for (int px = x - 2; px < x + w + 2; ++px) {
      if (!img.contains(px, py)) continue;
      const io::Rgb c = img.pixel(px, py);
      for (std::size_t s = 0; s < plot.series.size(); ++s)
        if (c == series_color(s)) return true;
    }
  return false;
}

}  // namespace

io::Image render_line_plot(const LinePlot& plot, int width, int height, PlotFrame* frame_out) {
  PlotFrame f;
  io::Image img = render_axes_and_series(plot, width, height, 0, f);
  // The legend: a swatch and the label per named series, in the first corner of the plot area where it
  // hides no curve (top right, top left, bottom right, bottom left), else right of the plot area, which
  // is narrowed for it.
  int widest = 0, rows = 0;
  for (const auto& s : plot.series)
    if (!s.label.empty()) {
      widest = std::max(widest, text_width(s.label));
      ++rows;
    }
  if (rows > 0) {
    const int w = widest + 30, h = rows * 14 + 6;
    const std::array<std::array<int, 2>, 4> corners{{{f.left + f.width - w - 6, f.top + 6},
                                                      {f.left + 6, f.top + 6},
                                                      {f.left + f.width - w - 6, f.top + f.height - h - 6},
                                                      {f.left + 6, f.top + f.height - h - 6}}};
    const auto clear = std::find_if(corners.begin(), corners.end(),
                                    [&](const auto& c) { return !covers_series(img, plot, c[0], c[1], w, h); });
    int x = 0, y = f.top;
    if (clear != corners.end()) {
      x = (*clear)[0];
      y = (*clear)[1];
    } else {
      img = render_axes_and_series(plot, width, height, w + 12, f);
      x = f.left + f.width + 12;
    }
    img.fill_rect(x, y, w, h, {255, 255, 255});
    int row = 0;
    for (std::size_t s = 0; s < plot.series.size(); ++s) {
      if (plot.series[s].label.empty()) continue;
      const int ty = y + 5 + 14 * row++;
      img.fill_rect(x + 5, ty + 2, 16, 3, series_color(s));
      draw_text(img, x + 25, ty, plot.series[s].label, black);
    }
    f.legend_left = x;
    f.legend_top = y;
    f.legend_width = w;
    f.legend_height = h;
  }
  if (frame_out) *frame_out = f;
  return img;
}

void write_line_plot_png(const std::filesystem::path& path, const LinePlot& plot, int width, int height) {
  io::write_png(path, render_line_plot(plot, width, height));
}

}  // namespace hetflow::display
