#pragma once
#include <charconv>
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

// The shortest text that reads back as v ("3", "0.2", not "0.20000000000000001"): the value as a user
// would have written it in an input file.
inline std::string shortest_text(double v) {
  char text[32];
  const auto end = std::to_chars(text, text + sizeof text, v).ptr;
  return std::string(text, end);
}

}  // namespace hetflow::core
