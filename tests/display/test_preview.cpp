#include <gtest/gtest.h>

#include <cmath>
#include <limits>

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

}  // namespace
}  // namespace hetflow::display
