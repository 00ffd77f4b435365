#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

namespace hetflow::io {

struct Rgb {
  std::uint8_t r = 0, g = 0, b = 0;
  friend bool operator==(const Rgb&, const Rgb&) = default;
};

// An 8-bit RGB raster, row 0 at the top (PNG order), 3 bytes per pixel.
struct Image {
  int width = 0;
  int height = 0;
  std::vector<std::uint8_t> rgb;

  Image() = default;
  Image(int w, int h, Rgb fill = {255, 255, 255})
      : width(w), height(h), rgb(static_cast<std::size_t>(w > 0 ? w : 0) * static_cast<std::size_t>(h > 0 ? h : 0) * 3) {
    fill_rect(0, 0, w, h, fill);
  }

  bool contains(int x, int y) const { return x >= 0 && y >= 0 && x < width && y < height; }
  Rgb pixel(int x, int y) const {
    const std::size_t i = index(x, y);
    return {rgb[i], rgb[i + 1], rgb[i + 2]};
  }
  // Drawing clips silently: callers draw text and frames near the edges without bounds arithmetic.
  void set(int x, int y, Rgb c) {
    if (!contains(x, y)) return;
    const std::size_t i = index(x, y);
    rgb[i] = c.r;
    rgb[i + 1] = c.g;
    rgb[i + 2] = c.b;
  }
  void fill_rect(int x0, int y0, int w, int h, Rgb c) {
    for (int y = y0; y < y0 + h; ++y)
      for (int x = x0; x < x0 + w; ++x) set(x, y, c);
  }

 private:
  std::size_t index(int x, int y) const {
    return (static_cast<std::size_t>(y) * static_cast<std::size_t>(width) + static_cast<std::size_t>(x)) * 3;
  }
};

}  // namespace hetflow::io
