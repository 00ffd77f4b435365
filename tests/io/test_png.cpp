#include <gtest/gtest.h>

#include "hetflow/io/error.hpp"
#include "hetflow/io/png_image.hpp"
#include "temp_dir.hpp"

namespace hetflow::io {
namespace {

TEST(IoPng, PixelsRoundTrip) {
  test::TempDir dir;
  Image img(7, 5, {10, 20, 30});
  img.set(0, 0, {255, 0, 0});
  img.set(6, 4, {0, 255, 1});
  img.set(3, 2, {1, 2, 3});
  write_png(dir / "a.png", img);
  EXPECT_EQ(dir.entries(), std::vector<std::string>{"a.png"});
  const PngPixels p = read_png(dir / "a.png");
  EXPECT_EQ(p.width, 7);
  EXPECT_EQ(p.height, 5);
  EXPECT_EQ(p.channels, 3);
  EXPECT_EQ(p.rgb_at(0, 0), (Rgb{255, 0, 0}));
  EXPECT_EQ(p.rgb_at(6, 4), (Rgb{0, 255, 1}));
  EXPECT_EQ(p.rgb_at(3, 2), (Rgb{1, 2, 3}));
  EXPECT_EQ(p.rgb_at(1, 1), (Rgb{10, 20, 30}));
  EXPECT_EQ(p.data, img.rgb);
}

TEST(IoPng, NotAPngIsAFormatError) {
  test::TempDir dir;
  test::spit(dir / "x.png", "GIF89a....");
  EXPECT_THROW(read_png(dir / "x.png"), FormatError);
  EXPECT_THROW(write_png(dir / "y.png", Image{}), IoError);
}

}  // namespace
}  // namespace hetflow::io
