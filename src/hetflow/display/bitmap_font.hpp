#pragma once
#include <string_view>

#include "hetflow/io/image.hpp"

namespace hetflow::display {

// A 5x7 pixel font (cap height 7, descenders 2 below) for labels on previews: digits, A-Z, a-z and
// . , - + : ( ) / = _ % [ ] * ^ < > ! ? ' # | ~ and space; anything else draws as an open box.
// Each glyph advances 6 pixels; a line is 10 pixels tall. `scale` multiplies both.
struct BitmapFont {
  static constexpr int kGlyphWidth = 5;
  static constexpr int kCapHeight = 7;
  static constexpr int kAdvance = 6;
  static constexpr int kLineHeight = 10;
};

int text_width(std::string_view text, int scale = 1);
int text_height(int scale = 1);  // cap height plus descender, i.e. the ink box of a line

// (x, y) is the top-left corner of the first glyph's cap box.
void draw_text(io::Image& image, int x, int y, std::string_view text, io::Rgb color, int scale = 1);
// Rotated 90 degrees counter-clockwise (reads bottom to top, for a y-axis label); (x, y) is the
// top-left corner of the rotated text's bounding box.
void draw_text_vertical(io::Image& image, int x, int y, std::string_view text, io::Rgb color, int scale = 1);

}  // namespace hetflow::display
