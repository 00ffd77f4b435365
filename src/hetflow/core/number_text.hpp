#pragma once
#include <cstdio>
#include <string>

namespace hetflow::core {

// v with `digits` significant digits, as %g writes it: 17 shows every double exactly, for errors that
// name the value they reject; fewer for progress notes and summaries.
inline std::string number_text(double v, int digits = 17) {
  char text[40];
  std::snprintf(text, sizeof text, "%.*g", digits, v);
  return text;
}

}  // namespace hetflow::core
