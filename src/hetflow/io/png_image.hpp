#pragma once
#include <cstdint>
#include <filesystem>
#include <vector>

#include "hetflow/io/image.hpp"

namespace hetflow::io {

// 8-bit RGB PNG through libpng, written atomically.
void write_png(const std::filesystem::path& path, const Image& image);

struct PngPixels {
  int width = 0;
  int height = 0;
  int channels = 3;  // 3 (RGB) or 4 (RGBA, when the file has alpha)
  std::vector<std::uint8_t> data;  // row 0 first

  Rgb rgb_at(int x, int y) const;
};

// Decodes any PNG libpng reads (palette, grey, 16-bit are converted to 8-bit RGB/RGBA).
PngPixels read_png(const std::filesystem::path& path);

}  // namespace hetflow::io
