#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "hetflow/display/colormap.hpp"
#include "hetflow/io/error.hpp"
#include "hetflow/io/png_image.hpp"
#include "hetflow/display/preview.hpp"
#include "temp_dir.hpp"

namespace hetflow::display {
namespace {

// f = i + 2j on a 40 x 20 grid: minimum at the bottom-left cell, maximum at the top-right.
std::vector<double> ramp(std::size_t nx, std::size_t ny) {
  std::vector<double> v(nx * ny);
  for (std::size_t j = 0; j < ny; ++j)
    for (std::size_t i = 0; i < nx; ++i) v[i + nx * j] = static_cast<double>(i) + 2.0 * static_cast<double>(j);
  return v;
}

TEST(IoPreview, ColoursFollowTheFieldAndTheBar) {
  const auto v = ramp(40, 20);
  PreviewOptions o;
  o.title = "ramp f = i + 2j";
  o.value_label = "f (1)";
  PreviewLayout L;
  const io::Image img = render_preview({std::span<const double>(v), 40, 20}, 640, 400, o, &L);
  EXPECT_EQ(img.width, 640);
  EXPECT_EQ(img.height, 400);
  EXPECT_EQ(L.vmin, 0.0);
  EXPECT_EQ(L.vmax, 39.0 + 38.0);
  // keep_aspect: a 40 x 20 domain is drawn twice as wide as tall (to a pixel).
  EXPECT_NEAR(static_cast<double>(L.plot.width) / L.plot.height, 2.0, 0.02);
  const auto& cmap = colormap("viridis");
  EXPECT_EQ(img.pixel(L.plot.x, L.plot.y + L.plot.height - 1), cmap(0.0));
  EXPECT_EQ(img.pixel(L.plot.x + L.plot.width - 1, L.plot.y), cmap(1.0));
  // Nearest sampling: the pixel centre of the plot lands in cell (20, 10) (value 40) or its neighbour.
  const io::Rgb centre = img.pixel(L.plot.x + L.plot.width / 2, L.plot.y + L.plot.height / 2);
  EXPECT_TRUE(centre == cmap(40.0 / 77.0) || centre == cmap(39.0 / 77.0) || centre == cmap(38.0 / 77.0) ||
              centre == cmap(41.0 / 77.0));
  EXPECT_EQ(img.pixel(L.colorbar.x + 1, L.colorbar.y), cmap(1.0));
  EXPECT_EQ(img.pixel(L.colorbar.x + 1, L.colorbar.y + L.colorbar.height - 1), cmap(0.0));
  // Frames, ticks and text put dark ink outside the plot: the title row, left of the plot, below it.
  auto dark_pixels = [&](int x0, int y0, int w, int h) {
    int n = 0;
    for (int y = y0; y < y0 + h; ++y)
      for (int x = x0; x < x0 + w; ++x) {
        const io::Rgb p = img.pixel(x, y);
        if (p.r < 60 && p.g < 60 && p.b < 60) ++n;
      }
    return n;
  };
  EXPECT_GT(dark_pixels(0, 0, 640, L.plot.y - 2), 50);
  EXPECT_GT(dark_pixels(0, L.plot.y, L.plot.x - 2, L.plot.height), 50);
  EXPECT_GT(dark_pixels(0, L.plot.y + L.plot.height + 2, 640, 400 - L.plot.y - L.plot.height - 2), 50);
}

TEST(IoPreview, NanIsGreyAndExplicitRangeClamps) {
  std::vector<float> v(16, 5.0f);
  v[0] = std::numeric_limits<float>::quiet_NaN();  // bottom-left cell
  v[15] = -100.0f;                                  // top-right cell, below the range
  PreviewOptions o;
  o.colormap = "coolwarm";
  o.min = 0.0;
  o.max = 10.0;
  o.bilinear = true;
  PreviewLayout L;
  const io::Image img = render_preview({std::span<const float>(v), 4, 4}, 300, 240, o, &L);
  EXPECT_EQ(img.pixel(L.plot.x, L.plot.y + L.plot.height - 1), kNanColor);
  EXPECT_EQ(img.pixel(L.plot.x + L.plot.width - 1, L.plot.y), colormap("coolwarm")(0.0));
  EXPECT_EQ(img.pixel(L.plot.x + L.plot.width / 2, L.plot.y + L.plot.height / 2), colormap("coolwarm")(0.5));
}

TEST(IoPreview, WrittenPngHasTheBarEndpoints) {
  test::TempDir dir;
  const auto v = ramp(30, 30);
  PreviewOptions o;
  o.colormap = "inferno";
  PreviewLayout L;
  (void)render_preview({std::span<const double>(v), 30, 30}, 500, 400, o, &L);
  write_preview_png(dir / "p.png", {std::span<const double>(v), 30, 30}, 500, 400, o);
  const io::PngPixels p = io::read_png(dir / "p.png");
  EXPECT_EQ(p.width, 500);
  EXPECT_EQ(p.height, 400);
  EXPECT_EQ(p.rgb_at(L.colorbar.x + 2, L.colorbar.y), colormap("inferno")(1.0));
  EXPECT_EQ(p.rgb_at(L.colorbar.x + 2, L.colorbar.y + L.colorbar.height - 1), colormap("inferno")(0.0));
}

TEST(IoPreview, BadInputsAreErrors) {
  std::vector<double> v(10);
  EXPECT_THROW(render_preview({std::span<const double>(v), 3, 3}, 300, 200), io::IoError);
  EXPECT_THROW(render_preview({std::span<const double>(v), 5, 2}, 20, 20), io::IoError);
  PreviewOptions o;
  o.min = 2.0;
  o.max = 1.0;
  EXPECT_THROW(render_preview({std::span<const double>(v), 5, 2}, 300, 200, o), io::IoError);
  o = {};
  o.colormap = "rainbow";
  EXPECT_THROW(render_preview({std::span<const double>(v), 5, 2}, 300, 200, o), io::IoError);
}

PreviewLayer layer(std::span<const double> values, std::size_t nx, std::size_t ny, const char* map,
                   const char* label = "") {
  PreviewLayer l;
  l.field = {values, nx, ny};
  l.colormap = map;
  l.value_label = label;
  return l;
}

// Two layers over one frame: f = i (reds) and g = j (blues) on a 40 x 20 grid, nearest sampling. Each
// pixel is the per-channel product of the two maps' colours at the cell it shows (within 1/255: the
// product is rounded once to 8 bits); the two colour bars stand side by side right of the plot, each
// running from its own map's top colour to its bottom colour: ColorBrewer's Reds #67000d .. #fff5f0
// and Blues #08306b .. #f7fbff.
TEST(IoPreview, TwoLayersMultiplyTheirColoursAndGetABarEach) {
  const std::size_t nx = 40, ny = 20;
  std::vector<double> f(nx * ny), g(nx * ny);
  for (std::size_t j = 0; j < ny; ++j)
    for (std::size_t i = 0; i < nx; ++i) {
      f[i + nx * j] = static_cast<double>(i);
      g[i + nx * j] = static_cast<double>(j);
    }
  const std::array<PreviewLayer, 2> layers{layer(f, nx, ny, "reds", "f"), layer(g, nx, ny, "blues", "g")};
  PreviewOptions o;
  o.title = "f times g";
  PreviewLayout L;
  const io::Image img = render_layers(layers, 800, 400, o, &L);
  ASSERT_EQ(L.colorbars.size(), 2u);
  EXPECT_EQ(L.colorbars[0].vmin, 0.0);
  EXPECT_EQ(L.colorbars[0].vmax, 39.0);
  EXPECT_EQ(L.colorbars[1].vmin, 0.0);
  EXPECT_EQ(L.colorbars[1].vmax, 19.0);
  EXPECT_NEAR(static_cast<double>(L.plot.width) / L.plot.height, 2.0, 0.02);

  const Colormap& reds = colormap("reds");
  const Colormap& blues = colormap("blues");
  // Pixels across the plot: the cell each shows is the one nearest sampling picks.
  for (const double fx : {0.0, 0.13, 0.5, 0.77, 0.999}) {
    for (const double fy : {0.0, 0.31, 0.5, 0.9, 0.999}) {
      const int px = static_cast<int>(fx * L.plot.width), py = static_cast<int>(fy * L.plot.height);
      const auto i = static_cast<std::size_t>((px + 0.5) / L.plot.width * nx);
      const auto j = static_cast<std::size_t>((L.plot.height - py - 0.5) / L.plot.height * ny);
      const auto a = reds.rgb(static_cast<double>(i) / 39.0), b = blues.rgb(static_cast<double>(j) / 19.0);
      const io::Rgb p = img.pixel(L.plot.x + px, L.plot.y + py);
      EXPECT_NEAR(p.r, 255.0 * a[0] * b[0], 1.0) << px << ", " << py;
      EXPECT_NEAR(p.g, 255.0 * a[1] * b[1], 1.0) << px << ", " << py;
      EXPECT_NEAR(p.b, 255.0 * a[2] * b[2], 1.0) << px << ", " << py;
    }
  }
  // Where both are high the blend is far darker than either map alone.
  const io::Rgb both = img.pixel(L.plot.x + L.plot.width - 1, L.plot.y);
  EXPECT_LT(both.r + both.g + both.b, 20) << int(both.r) << " " << int(both.g) << " " << int(both.b);

  const PixelRect& left = L.colorbars[0].rect;
  const PixelRect& right = L.colorbars[1].rect;
  EXPECT_EQ(L.colorbar.x, left.x);
  EXPECT_GT(left.x, L.plot.x + L.plot.width);
  EXPECT_GT(right.x, left.x + left.width + 20);  // room for the first bar's tick labels
  EXPECT_LE(right.x + right.width, 800);
  EXPECT_EQ(left.y, L.plot.y);
  EXPECT_EQ(right.height, L.plot.height);
  EXPECT_EQ(img.pixel(left.x + 1, left.y), (io::Rgb{0x67, 0x00, 0x0d}));
  EXPECT_EQ(img.pixel(left.x + 1, left.y + left.height - 1), (io::Rgb{0xff, 0xf5, 0xf0}));
  EXPECT_EQ(img.pixel(right.x + 1, right.y), (io::Rgb{0x08, 0x30, 0x6b}));
  EXPECT_EQ(img.pixel(right.x + 1, right.y + right.height - 1), (io::Rgb{0xf7, 0xfb, 0xff}));
}

// One layer through render_layers is render_preview's picture, pixel for pixel; NaN in any layer is grey.
TEST(IoPreview, OneLayerIsThePreviewAndNanInAnyLayerIsGrey) {
  const auto v = ramp(30, 15);
  PreviewOptions o;
  o.colormap = "inferno";
  o.title = "one layer";
  o.value_label = "f";
  const io::Image single = render_preview({std::span<const double>(v), 30, 15}, 500, 300, o);
  const PreviewLayer one = layer(v, 30, 15, "inferno", "f");
  const io::Image layered = render_layers(std::span<const PreviewLayer>(&one, 1), 500, 300, o);
  ASSERT_EQ(layered.width, single.width);
  ASSERT_EQ(layered.height, single.height);
  int differing = 0;
  for (int y = 0; y < single.height; ++y)
    for (int x = 0; x < single.width; ++x) differing += layered.pixel(x, y) == single.pixel(x, y) ? 0 : 1;
  EXPECT_EQ(differing, 0);

  std::vector<double> holed = v;
  holed[0] = std::numeric_limits<double>::quiet_NaN();  // bottom-left cell of the second layer only
  const std::array<PreviewLayer, 2> two{one, layer(holed, 30, 15, "blues")};
  PreviewLayout L;
  const io::Image img = render_layers(two, 600, 300, o, &L);
  EXPECT_EQ(img.pixel(L.plot.x, L.plot.y + L.plot.height - 1), kNanColor);
  EXPECT_NE(img.pixel(L.plot.x + L.plot.width - 1, L.plot.y), kNanColor);
}

// No layers, or layers of different grids, are errors that say what is wrong.
TEST(IoPreview, BadLayersAreErrors) {
  const std::vector<double> a(40 * 20, 1.0), b(10 * 5, 1.0);
  auto message = [](std::span<const PreviewLayer> layers) {
    try {
      (void)render_layers(layers, 600, 300);
    } catch (const io::IoError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(message({}).find("preview has no layers"), std::string::npos) << message({});
  const std::array<PreviewLayer, 2> mixed{layer(a, 40, 20, "reds"), layer(b, 10, 5, "blues")};
  EXPECT_NE(message(mixed).find("layer 1 is a 10 x 5 grid, layer 0 a 40 x 20 grid"), std::string::npos)
      << message(mixed);
  const std::array<PreviewLayer, 2> short_values{layer(a, 40, 20, "reds"), layer(b, 40, 20, "blues")};
  EXPECT_NE(message(short_values).find("50 values for a 40 x 20 grid (layer 1)"), std::string::npos)
      << message(short_values);
}

}  // namespace
}  // namespace hetflow::display
