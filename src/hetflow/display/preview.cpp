#include "hetflow/display/preview.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <vector>

#include "hetflow/display/bitmap_font.hpp"
#include "hetflow/display/colormap.hpp"
#include "hetflow/io/error.hpp"
#include "hetflow/io/png_image.hpp"

namespace hetflow::display {
namespace {

constexpr io::Rgb kInk{25, 25, 25};

struct Range {
  double lo;
  double hi;
};

double value_at(const PreviewField& f, std::size_t i) {
  return std::visit([i](auto s) { return static_cast<double>(s[i]); }, f.values);
}

// Ticks at 1, 2 or 5 times a power of ten, about `target` of them inside [lo, hi].
std::vector<double> nice_ticks(double lo, double hi, int target, double& step) {
  const double raw = (hi - lo) / std::max(target, 1);
  const double mag = std::pow(10.0, std::floor(std::log10(raw)));
  const double r = raw / mag;
  step = (r < 1.5 ? 1.0 : r < 3.0 ? 2.0 : r < 7.0 ? 5.0 : 10.0) * mag;
  std::vector<double> ticks;
  const double eps = step * 1e-9;
  for (double k = std::ceil((lo - eps) / step); k * step <= hi + eps && ticks.size() < 50; k += 1.0) {
    const double v = k * step;
    ticks.push_back(std::abs(v) < eps ? 0.0 : v);
  }
  return ticks;
}

std::string format_tick(double v, double step, double magnitude) {
  std::array<char, 48> buf{};
  if (v == 0.0) return "0";
  if (magnitude >= 1e5 || magnitude < 1e-3) {
    const int p = std::clamp(static_cast<int>(std::floor(std::log10(magnitude)) - std::floor(std::log10(step))), 0, 6);
    std::snprintf(buf.data(), buf.size(), "%.*e", p, v);
  } else {
    const int d = std::clamp(static_cast<int>(-std::floor(std::log10(step) + 1e-9)), 0, 8);
    std::snprintf(buf.data(), buf.size(), "%.*f", d, v);
  }
  return buf.data();
}

std::vector<std::string> tick_labels(const std::vector<double>& ticks, double step, Range r) {
  const double magnitude = std::max(std::abs(r.lo), std::abs(r.hi));
  std::vector<std::string> out;
  for (const double t : ticks) out.push_back(format_tick(t, step, magnitude));
  return out;
}

int widest(const std::vector<std::string>& labels, int scale) {
  int w = 0;
  for (const auto& l : labels) w = std::max(w, text_width(l, scale));
  return w;
}

void frame(io::Image& img, const PixelRect& r) {
  img.fill_rect(r.x - 1, r.y - 1, r.width + 2, 1, kInk);
  img.fill_rect(r.x - 1, r.y + r.height, r.width + 2, 1, kInk);
  img.fill_rect(r.x - 1, r.y - 1, 1, r.height + 2, kInk);
  img.fill_rect(r.x + r.width, r.y - 1, 1, r.height + 2, kInk);
}

Range value_range(const PreviewLayer& layer) {
  const PreviewField& f = layer.field;
  double lo = std::numeric_limits<double>::infinity();
  double hi = -lo;
  for (std::size_t i = 0; i < f.nx * f.ny; ++i) {
    const double v = value_at(f, i);
    if (!std::isfinite(v)) continue;
    lo = std::min(lo, v);
    hi = std::max(hi, v);
  }
  if (!(lo <= hi)) {  // no finite value at all
    lo = 0.0;
    hi = 1.0;
  }
  if (!layer.min && !layer.max && lo == hi) {  // a constant field still gets a readable bar
    const double d = lo == 0.0 ? 0.5 : 0.5 * std::abs(lo);
    lo -= d;
    hi += d;
  }
  Range r{layer.min.value_or(lo), layer.max.value_or(hi)};
  if (!std::isfinite(r.lo) || !std::isfinite(r.hi) || !(r.lo < r.hi))
    throw io::IoError("preview colour range [" + std::to_string(r.lo) + ", " + std::to_string(r.hi) + "] is empty or not finite");
  return r;
}

double sample(const PreviewField& f, double u, double v, bool bilinear) {
  const auto nx = static_cast<double>(f.nx);
  const auto ny = static_cast<double>(f.ny);
  auto at = [&](std::size_t i, std::size_t j) { return value_at(f, i + f.nx * j); };
  const auto in = static_cast<std::size_t>(std::clamp(std::floor(u), 0.0, nx - 1));
  const auto jn = static_cast<std::size_t>(std::clamp(std::floor(v), 0.0, ny - 1));
  const double nearest = at(in, jn);
  if (!bilinear) return nearest;
  // Samples sit at cell centres; interpolate between the four around (u, v).
  const double fx = std::clamp(u - 0.5, 0.0, nx - 1);
  const double fy = std::clamp(v - 0.5, 0.0, ny - 1);
  const auto i0 = static_cast<std::size_t>(fx);
  const auto j0 = static_cast<std::size_t>(fy);
  const std::size_t i1 = std::min(i0 + 1, f.nx - 1);
  const std::size_t j1 = std::min(j0 + 1, f.ny - 1);
  const double wx = fx - static_cast<double>(i0);
  const double wy = fy - static_cast<double>(j0);
  const double a = at(i0, j0), b = at(i1, j0), c = at(i0, j1), d = at(i1, j1);
  if (!std::isfinite(a) || !std::isfinite(b) || !std::isfinite(c) || !std::isfinite(d)) return nearest;
  return (1 - wy) * ((1 - wx) * a + wx * b) + wy * ((1 - wx) * c + wx * d);
}

// Sizes in pixels that scale with the picture: font scale s and the spacings built on it.
struct Metrics {
  int s, pad, tick, th, cap, bar_gap, bar_w;
};

Metrics metrics(int width, int height) {
  const int s = std::clamp(std::min(width, height) / 220, 1, 4);  // font scale
  return {s, 8 * s, 4 * s, text_height(s), BitmapFont::kCapHeight * s, 12 * s, 14 * s};
}

// A layer's colour bar: its map, range and tick labels, and the width its column takes right of the plot.
struct BarColumn {
  const Colormap* cmap;
  Range range;
  std::vector<double> ticks;
  std::vector<std::string> labels;
  std::string value_label;
  int width;
};

BarColumn bar_column(const PreviewLayer& layer, const Metrics& m) {
  BarColumn b{&colormap(layer.colormap), value_range(layer), {}, {}, layer.value_label, 0};
  double step = 1.0;
  b.ticks = nice_ticks(b.range.lo, b.range.hi, 5, step);
  b.labels = tick_labels(b.ticks, step, b.range);
  b.width = m.bar_gap + m.bar_w + m.tick + 2 * m.s + widest(b.labels, m.s) +
            (b.value_label.empty() ? 0 : m.pad / 2 + m.th) + m.pad;
  return b;
}

void check_layers(std::span<const PreviewLayer> layers, int width, int height) {
  if (layers.empty()) throw io::IoError("preview has no layers: expected at least one field to draw");
  for (std::size_t k = 0; k < layers.size(); ++k) {
    const PreviewField& f = layers[k].field;
    const std::size_t count = std::visit([](auto s) { return s.size(); }, f.values);
    if (f.nx == 0 || f.ny == 0 || count != f.nx * f.ny)
      throw io::IoError("preview field has " + std::to_string(count) + " values for a " + std::to_string(f.nx) + " x " +
                        std::to_string(f.ny) + " grid" +
                        (layers.size() > 1 ? " (layer " + std::to_string(k) + ")" : ""));
    if (f.nx != layers[0].field.nx || f.ny != layers[0].field.ny)
      throw io::IoError("preview layer " + std::to_string(k) + " is a " + std::to_string(f.nx) + " x " +
                        std::to_string(f.ny) + " grid, layer 0 a " + std::to_string(layers[0].field.nx) + " x " +
                        std::to_string(layers[0].field.ny) + " grid: expected layers of one grid");
  }
  if (width < 160 || height < 120 || width > 16384 || height > 16384)
    throw io::IoError("preview size " + std::to_string(width) + " x " + std::to_string(height) +
                      " is outside 160 x 120 .. 16384 x 16384");
}

std::array<double, 4> domain_extent(const PreviewField& field, const PreviewOptions& options) {
  std::array<double, 4> ext = options.extent;
  if (ext == std::array<double, 4>{0, 0, 0, 0})
    ext = {0.0, static_cast<double>(field.nx), 0.0, static_cast<double>(field.ny)};
  if (!(ext[1] > ext[0]) || !(ext[3] > ext[2])) throw io::IoError("preview extent must have x1 > x0 and y1 > y0");
  return ext;
}

// The plot inside the margins, centred, at the domain's aspect when asked.
PixelRect place_plot(int width, int height, int left, int top, int bottom, int right, const std::array<double, 4>& ext,
                     bool keep_aspect) {
  const int avail_w = width - left - right;
  const int avail_h = height - top - bottom;
  if (avail_w < 16 || avail_h < 16) throw io::IoError("preview is too small for its labels");
  int pw = avail_w;
  int ph = avail_h;
  if (keep_aspect) {
    const double aspect = (ext[1] - ext[0]) / (ext[3] - ext[2]);
    if (static_cast<double>(avail_w) > aspect * avail_h)
      pw = std::max(1, static_cast<int>(std::lround(aspect * avail_h)));
    else
      ph = std::max(1, static_cast<int>(std::lround(avail_w / aspect)));
  }
  return {left + (avail_w - pw) / 2, top + (avail_h - ph) / 2, pw, ph};
}

// Rounds as Colormap::operator() does, so that one layer's pixels are its map's colours exactly.
io::Rgb to_rgb8(const std::array<double, 3>& c) {
  auto to8 = [](double v) { return static_cast<std::uint8_t>(std::lround(std::clamp(v, 0.0, 1.0) * 255.0)); };
  return {to8(c[0]), to8(c[1]), to8(c[2])};
}

void draw_field(io::Image& img, const PixelRect& plot, std::span<const PreviewLayer> layers,
                const std::vector<BarColumn>& bars, bool bilinear) {
  const PreviewField& grid = layers[0].field;
  for (int py = 0; py < plot.height; ++py) {
    const double v = (plot.height - py - 0.5) / plot.height * static_cast<double>(grid.ny);
    for (int px = 0; px < plot.width; ++px) {
      const double u = (px + 0.5) / plot.width * static_cast<double>(grid.nx);
      std::array<double, 3> colour{1.0, 1.0, 1.0};
      bool finite = true;
      for (std::size_t k = 0; k < layers.size(); ++k) {
        const double val = sample(layers[k].field, u, v, bilinear);
        finite = std::isfinite(val);
        if (!finite) break;
        const Range& r = bars[k].range;
        const std::array<double, 3> c = bars[k].cmap->rgb((val - r.lo) / (r.hi - r.lo));
        for (std::size_t ch = 0; ch < 3; ++ch) colour[ch] *= c[ch];
      }
      img.set(plot.x + px, plot.y + py, finite ? to_rgb8(colour) : kNanColor);
    }
  }
  frame(img, plot);
}

// Ticks and labels of both axes, axis names and the title, around the plot.
void draw_axes(io::Image& img, const PixelRect& plot, const std::array<double, 4>& ext,
               const std::vector<double>& yticks, const std::vector<std::string>& ylabels,
               const PreviewOptions& options, const Metrics& m) {
  const int s = m.s, pad = m.pad, tick = m.tick, th = m.th, cap = m.cap;
  // x axis: as many ticks as fit without labels touching.
  for (int target = 6; target >= 2; --target) {
    double xstep = 1.0;
    const auto xticks = nice_ticks(ext[0], ext[1], target, xstep);
    const auto xlabels = tick_labels(xticks, xstep, {ext[0], ext[1]});
    const int room = plot.width / std::max<int>(1, static_cast<int>(xticks.size()));
    if (target > 2 && widest(xlabels, s) + 4 * s > room) continue;
    for (std::size_t k = 0; k < xticks.size(); ++k) {
      const int x = plot.x + static_cast<int>(std::lround((xticks[k] - ext[0]) / (ext[1] - ext[0]) * plot.width));
      img.fill_rect(x, plot.y + plot.height + 1, s, tick, kInk);
      draw_text(img, x - text_width(xlabels[k], s) / 2, plot.y + plot.height + 1 + tick + 2 * s, xlabels[k], kInk, s);
    }
    break;
  }
  for (std::size_t k = 0; k < yticks.size(); ++k) {
    const int y =
        plot.y + plot.height - static_cast<int>(std::lround((yticks[k] - ext[2]) / (ext[3] - ext[2]) * plot.height));
    img.fill_rect(plot.x - 1 - tick, y, tick, s, kInk);
    draw_text(img, plot.x - 1 - tick - 2 * s - text_width(ylabels[k], s), y - cap / 2, ylabels[k], kInk, s);
  }
  if (!options.x_label.empty())
    draw_text(img, plot.x + (plot.width - text_width(options.x_label, s)) / 2,
              plot.y + plot.height + 1 + tick + 2 * s + th + pad / 2, options.x_label, kInk, s);
  if (!options.y_label.empty())
    draw_text_vertical(img, pad, plot.y + (plot.height - text_width(options.y_label, s)) / 2, options.y_label, kInk, s);
  if (!options.title.empty())
    // Just above the plot, not at the image top: keep_aspect may leave slack above and below.
    draw_text(img, std::max(pad, plot.x + (plot.width - text_width(options.title, s)) / 2),
              std::max(pad, plot.y - 1 - th - pad / 2), options.title, kInk, s);
}

// A colour bar: top row is exactly cmap(1), bottom row cmap(0); ticks and the value label on its right.
void draw_bar(io::Image& img, const PixelRect& bar, const BarColumn& column, const Metrics& m) {
  const int s = m.s, tick = m.tick, cap = m.cap;
  for (int r = 0; r < bar.height; ++r) {
    const double t = bar.height > 1 ? 1.0 - static_cast<double>(r) / (bar.height - 1) : 1.0;
    img.fill_rect(bar.x, bar.y + r, bar.width, 1, (*column.cmap)(t));
  }
  frame(img, bar);
  const Range& vr = column.range;
  for (std::size_t k = 0; k < column.ticks.size(); ++k) {
    const double t = (column.ticks[k] - vr.lo) / (vr.hi - vr.lo);
    const int y = bar.y + static_cast<int>(std::lround((1.0 - t) * (bar.height - 1)));
    img.fill_rect(bar.x + bar.width + 1, y, tick, s, kInk);
    draw_text(img, bar.x + bar.width + 1 + tick + 2 * s, y - cap / 2, column.labels[k], kInk, s);
  }
  if (!column.value_label.empty())
    draw_text_vertical(img, bar.x + bar.width + 1 + tick + 2 * s + widest(column.labels, s) + m.pad / 2,
                       bar.y + (bar.height - text_width(column.value_label, s)) / 2, column.value_label, kInk, s);
}

}  // namespace

io::Image render_layers(std::span<const PreviewLayer> layers, int width, int height, const PreviewOptions& options,
                        PreviewLayout* layout) {
  check_layers(layers, width, height);
  const Metrics m = metrics(width, height);
  std::vector<BarColumn> bars;
  for (const PreviewLayer& layer : layers) bars.push_back(bar_column(layer, m));
  const std::array<double, 4> ext = domain_extent(layers[0].field, options);

  // The colour bars' and y labels' widths decide the margins.
  double ystep = 1.0;
  const auto yticks = nice_ticks(ext[2], ext[3], 5, ystep);
  const auto ylabels = tick_labels(yticks, ystep, {ext[2], ext[3]});
  const int left = m.pad + (options.y_label.empty() ? 0 : m.th + m.pad / 2) + widest(ylabels, m.s) + m.tick + 2 * m.s;
  const int top = options.title.empty() ? m.pad + m.cap / 2 : m.pad + m.th + m.pad;
  const int bottom = m.tick + 2 * m.s + m.th + (options.x_label.empty() ? 0 : m.pad / 2 + m.th) + m.pad;
  int right = 0;
  for (const BarColumn& b : bars) right += b.width;
  const PixelRect plot = place_plot(width, height, left, top, bottom, right, ext, options.keep_aspect);

  io::Image img(width, height);
  draw_field(img, plot, layers, bars, options.bilinear);
  draw_axes(img, plot, ext, yticks, ylabels, options, m);
  std::vector<ColorbarLayout> placed;
  int column_x = plot.x + plot.width;
  for (const BarColumn& b : bars) {
    const PixelRect rect{column_x + m.bar_gap, plot.y, m.bar_w, plot.height};
    draw_bar(img, rect, b, m);
    placed.push_back({rect, b.range.lo, b.range.hi});
    column_x += b.width;
  }
  if (layout != nullptr) *layout = {plot, placed[0].rect, placed[0].vmin, placed[0].vmax, placed};
  return img;
}

io::Image render_preview(const PreviewField& field, int width, int height, const PreviewOptions& options,
                         PreviewLayout* layout) {
  const PreviewLayer layer{field, options.colormap, options.min, options.max, options.value_label};
  return render_layers(std::span<const PreviewLayer>(&layer, 1), width, height, options, layout);
}

void write_preview_png(const std::filesystem::path& path, const PreviewField& field, int width, int height,
                       const PreviewOptions& options) {
  io::write_png(path, render_preview(field, width, height, options));
}

}  // namespace hetflow::display
