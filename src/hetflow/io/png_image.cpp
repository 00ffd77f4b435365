#include "hetflow/io/png_image.hpp"

#include <png.h>

#include <cstdlib>
#include <cstring>
#include <string>

#include "hetflow/io/atomic_file.hpp"
#include "hetflow/io/error.hpp"

namespace hetflow::io {

// libpng's simplified API reports errors through png_image::message instead of longjmp, which would
// skip C++ destructors; it is why the classic png_struct interface is not used here.

void write_png(const std::filesystem::path& path, const Image& image) {
  if (image.width <= 0 || image.height <= 0 ||
      image.rgb.size() != static_cast<std::size_t>(image.width) * static_cast<std::size_t>(image.height) * 3)
    throw IoError("cannot write '" + path.string() + "': image is empty or its pixel buffer has the wrong size");
  png_image png;
  std::memset(&png, 0, sizeof png);
  png.version = PNG_IMAGE_VERSION;
  png.width = static_cast<png_uint_32>(image.width);
  png.height = static_cast<png_uint_32>(image.height);
  png.format = PNG_FORMAT_RGB;
  png_alloc_size_t size = 0;
  if (!png_image_write_get_memory_size(png, size, 0, image.rgb.data(), 0, nullptr))
    throw IoError("cannot encode '" + path.string() + "': " + png.message);
  std::vector<std::uint8_t> encoded(size);
  if (!png_image_write_to_memory(&png, encoded.data(), &size, 0, image.rgb.data(), 0, nullptr))
    throw IoError("cannot encode '" + path.string() + "': " + png.message);
  AtomicFile file(path);
  file.write(encoded.data(), size);
  file.commit();
}

Rgb PngPixels::rgb_at(int x, int y) const {
  if (x < 0 || y < 0 || x >= width || y >= height) throw IoError("pixel (" + std::to_string(x) + ", " + std::to_string(y) + ") outside the image");
  const std::size_t i =
      (static_cast<std::size_t>(y) * static_cast<std::size_t>(width) + static_cast<std::size_t>(x)) * static_cast<std::size_t>(channels);
  return {data[i], data[i + 1], data[i + 2]};
}

PngPixels read_png(const std::filesystem::path& path) {
  const auto bytes = read_file_bytes(path);
  png_image png;
  std::memset(&png, 0, sizeof png);
  png.version = PNG_IMAGE_VERSION;
  if (!png_image_begin_read_from_memory(&png, bytes.data(), bytes.size()))
    throw FormatError("cannot decode '" + path.string() + "': " + png.message);
  PngPixels out;
  const bool alpha = (png.format & PNG_FORMAT_FLAG_ALPHA) != 0;
  png.format = alpha ? PNG_FORMAT_RGBA : PNG_FORMAT_RGB;
  out.channels = alpha ? 4 : 3;
  out.width = static_cast<int>(png.width);
  out.height = static_cast<int>(png.height);
  out.data.resize(PNG_IMAGE_SIZE(png));
  if (!png_image_finish_read(&png, nullptr, out.data.data(), 0, nullptr)) {
    const std::string msg = png.message;
    png_image_free(&png);
    throw FormatError("cannot decode '" + path.string() + "': " + msg);
  }
  return out;
}

}  // namespace hetflow::io
