#include <gtest/gtest.h>

#include <cmath>

#include "hetflow/display/bitmap_font.hpp"
#include "hetflow/display/colormap.hpp"
#include "hetflow/io/error.hpp"
#include "hetflow/io/image.hpp"

namespace hetflow::display {
namespace {

// Published 8-bit values of the 256-entry tables at chosen points (matplotlib's viridis/inferno,
// coolwarm); our 33-point tables must reproduce them within 2/255.
struct Reference {
  const char* map;
  double t;
  int r, g, b;
};
constexpr Reference kReferences[] = {
    {"viridis", 0.0, 68, 1, 84},     {"viridis", 0.13, 71, 46, 124},  {"viridis", 0.5, 33, 145, 140},
    {"viridis", 0.61, 37, 171, 130}, {"viridis", 0.87, 168, 219, 52}, {"viridis", 1.0, 253, 231, 37},
    {"inferno", 0.0, 0, 0, 4},       {"inferno", 0.13, 35, 12, 76},   {"inferno", 0.5, 188, 55, 84},
    {"inferno", 0.61, 224, 85, 54},  {"inferno", 0.87, 249, 199, 47}, {"inferno", 1.0, 252, 255, 164},
    {"coolwarm", 0.0, 59, 76, 192},  {"coolwarm", 0.13, 99, 132, 235}, {"coolwarm", 0.5, 221, 220, 220},
    {"coolwarm", 0.61, 243, 200, 178}, {"coolwarm", 0.87, 223, 99, 78}, {"coolwarm", 1.0, 180, 4, 38},
};

TEST(Colormap, MatchesPublishedValues) {
  for (const auto& ref : kReferences) {
    const io::Rgb c = colormap(ref.map)(ref.t);
    EXPECT_NEAR(c.r, ref.r, 2) << ref.map << " at " << ref.t;
    EXPECT_NEAR(c.g, ref.g, 2) << ref.map << " at " << ref.t;
    EXPECT_NEAR(c.b, ref.b, 2) << ref.map << " at " << ref.t;
  }
}

double lightness(const std::array<double, 3>& srgb) {
  auto lin = [](double c) { return c <= 0.04045 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4); };
  const double y = 0.2126 * lin(srgb[0]) + 0.7152 * lin(srgb[1]) + 0.0722 * lin(srgb[2]);
  return y > 216.0 / 24389.0 ? 116.0 * std::cbrt(y) - 16.0 : y * 24389.0 / 27.0;
}

TEST(Colormap, SequentialMapsGrowMonotonicallyInLightness) {
  for (const char* name : {"viridis", "inferno"}) {
    double previous = -1.0;
    for (int k = 0; k <= 255; ++k) {
      const double l = lightness(colormap(name).rgb(k / 255.0));
      EXPECT_GT(l, previous) << name << " at " << k;
      previous = l;
    }
    EXPECT_GT(previous - lightness(colormap(name).rgb(0.0)), 60.0) << name;  // a wide lightness range
  }
  // The diverging map is lightest in the middle and about equally dark at both ends.
  const auto& cw = colormap("coolwarm");
  EXPECT_GT(lightness(cw.rgb(0.5)), lightness(cw.rgb(0.25)));
  EXPECT_GT(lightness(cw.rgb(0.5)), lightness(cw.rgb(0.75)));
  EXPECT_NEAR(lightness(cw.rgb(0.0)), lightness(cw.rgb(1.0)), 5.0);
}

TEST(Colormap, UnknownNameListsTheValidOnes) {
  try {
    (void)colormap("jet");
    FAIL();
  } catch (const io::IoError& e) {
    EXPECT_NE(std::string(e.what()).find("'jet'"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("viridis, inferno, coolwarm"), std::string::npos) << e.what();
  }
  EXPECT_EQ(colormap("viridis")(-3.0), colormap("viridis")(0.0));  // clamped
  EXPECT_EQ(colormap("viridis")(7.0), colormap("viridis")(1.0));
}

TEST(BitmapFont, GlyphsDrawTheirBitmaps) {
  io::Image img(20, 12, {255, 255, 255});
  draw_text(img, 1, 1, "1", {0, 0, 0});
  // '1' is rows 00100 01100 00100 00100 00100 00100 01110.
  const char* rows[] = {"..#..", ".##..", "..#..", "..#..", "..#..", "..#..", ".###."};
  for (int r = 0; r < 7; ++r)
    for (int c = 0; c < 5; ++c)
      EXPECT_EQ(img.pixel(1 + c, 1 + r) == (io::Rgb{0, 0, 0}), rows[r][c] == '#') << r << "," << c;
  EXPECT_EQ(text_width("abc", 1), 17);
  EXPECT_EQ(text_width("abc", 2), 34);
  io::Image scaled(40, 30);
  draw_text(scaled, 0, 0, "1", {0, 0, 0}, 3);
  EXPECT_EQ(scaled.pixel(6, 0), (io::Rgb{0, 0, 0}));  // column 2 of row 0, scaled by 3
  EXPECT_EQ(scaled.pixel(5, 0), (io::Rgb{255, 255, 255}));
}

}  // namespace
}  // namespace hetflow::display
