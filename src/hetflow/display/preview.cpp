#include "hetflow/display/preview.hpp"

#include <algorithm>
#include <cmath>
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

Range value_range(const PreviewField& f, const PreviewOptions& o) {
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
  if (!o.min && !o.max && lo == hi) {  // a constant field still gets a readable bar
    const double d = lo == 0.0 ? 0.5 : 0.5 * std::abs(lo);
    lo -= d;
    hi += d;
  }
  Range r{o.min.value_or(lo), o.max.value_or(hi)};
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

}  // namespace

io::Image render_preview(const PreviewField& field, int width, int height, const PreviewOptions& options,
                     PreviewLayout* layout) {
  const std::size_t count = std::visit([](auto s) { return s.size(); }, field.values);
  if (field.nx == 0 || field.ny == 0 || count != field.nx * field.ny)
    throw io::IoError("preview field has " + std::to_string(count) + " values for a " + std::to_string(field.nx) + " x " +
                  std::to_string(field.ny) + " grid");
  if (width < 160 || height < 120 || width > 16384 || height > 16384)
    throw io::IoError("preview size " + std::to_string(width) + " x " + std::to_string(height) +
                  " is outside 160 x 120 .. 16384 x 16384");
  const Colormap& cmap = colormap(options.colormap);
  const Range vr = value_range(field, options);

  std::array<double, 4> ext = options.extent;
  if (ext == std::array<double, 4>{0, 0, 0, 0}) ext = {0.0, static_cast<double>(field.nx), 0.0, static_cast<double>(field.ny)};
  if (!(ext[1] > ext[0]) || !(ext[3] > ext[2]))
    throw io::IoError("preview extent must have x1 > x0 and y1 > y0");

  const int s = std::clamp(std::min(width, height) / 220, 1, 4);  // font scale
  const int pad = 8 * s;
  const int tick = 4 * s;
  const int th = text_height(s);
  const int cap = BitmapFont::kCapHeight * s;

  // Colour-bar and y labels first: their widths decide the margins.
  double cstep = 1.0;
  const auto cticks = nice_ticks(vr.lo, vr.hi, 5, cstep);
  const auto clabels = tick_labels(cticks, cstep, vr);
  double ystep = 1.0;
  const auto yticks = nice_ticks(ext[2], ext[3], 5, ystep);
  const auto ylabels = tick_labels(yticks, ystep, {ext[2], ext[3]});

  const int left = pad + (options.y_label.empty() ? 0 : th + pad / 2) + widest(ylabels, s) + tick + 2 * s;
  const int top = options.title.empty() ? pad + cap / 2 : pad + th + pad;
  const int bottom = tick + 2 * s + th + (options.x_label.empty() ? 0 : pad / 2 + th) + pad;
  const int bar_gap = 12 * s;
  const int bar_w = 14 * s;
  const int right = bar_gap + bar_w + tick + 2 * s + widest(clabels, s) + (options.value_label.empty() ? 0 : pad / 2 + th) + pad;

  const int avail_w = width - left - right;
  const int avail_h = height - top - bottom;
  if (avail_w < 16 || avail_h < 16) throw io::IoError("preview is too small for its labels");
  int pw = avail_w;
  int ph = avail_h;
  if (options.keep_aspect) {
    const double aspect = (ext[1] - ext[0]) / (ext[3] - ext[2]);
    if (static_cast<double>(avail_w) > aspect * avail_h) pw = std::max(1, static_cast<int>(std::lround(aspect * avail_h)));
    else ph = std::max(1, static_cast<int>(std::lround(avail_w / aspect)));
  }
  const PixelRect plot{left + (avail_w - pw) / 2, top + (avail_h - ph) / 2, pw, ph};
  const PixelRect bar{plot.x + plot.width + bar_gap, plot.y, bar_w, plot.height};

  io::Image img(width, height);

  for (int py = 0; py < plot.height; ++py) {
    const double v = (plot.height - py - 0.5) / plot.height * static_cast<double>(field.ny);
    for (int px = 0; px < plot.width; ++px) {
      const double u = (px + 0.5) / plot.width * static_cast<double>(field.nx);
      const double val = sample(field, u, v, options.bilinear);
      img.set(plot.x + px, plot.y + py, std::isfinite(val) ? cmap((val - vr.lo) / (vr.hi - vr.lo)) : kNanColor);
    }
  }
  frame(img, plot);

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
    const int y = plot.y + plot.height - static_cast<int>(std::lround((yticks[k] - ext[2]) / (ext[3] - ext[2]) * plot.height));
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

  // Colour bar: top row is exactly cmap(1), bottom row cmap(0).
  for (int r = 0; r < bar.height; ++r) {
    const double t = bar.height > 1 ? 1.0 - static_cast<double>(r) / (bar.height - 1) : 1.0;
    img.fill_rect(bar.x, bar.y + r, bar.width, 1, cmap(t));
  }
  frame(img, bar);
  for (std::size_t k = 0; k < cticks.size(); ++k) {
    const double t = (cticks[k] - vr.lo) / (vr.hi - vr.lo);
    const int y = bar.y + static_cast<int>(std::lround((1.0 - t) * (bar.height - 1)));
    img.fill_rect(bar.x + bar.width + 1, y, tick, s, kInk);
    draw_text(img, bar.x + bar.width + 1 + tick + 2 * s, y - cap / 2, clabels[k], kInk, s);
  }
  if (!options.value_label.empty())
    draw_text_vertical(img, bar.x + bar.width + 1 + tick + 2 * s + widest(clabels, s) + pad / 2,
                       bar.y + (bar.height - text_width(options.value_label, s)) / 2, options.value_label, kInk, s);

  if (layout != nullptr) *layout = {plot, bar, vr.lo, vr.hi};
  return img;
}

void write_preview_png(const std::filesystem::path& path, const PreviewField& field, int width, int height,
                       const PreviewOptions& options) {
  io::write_png(path, render_preview(field, width, height, options));
}

}  // namespace hetflow::display
