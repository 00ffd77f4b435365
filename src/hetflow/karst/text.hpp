#pragma once
#include <charconv>
#include <string>

namespace hetflow::karst {

// The shortest text that reads back as v ("3", "0.2", not "0.20000000000000001"): errors name the value
// they reject as the user wrote it.
inline std::string text(double v) {
  char buf[32];
  const auto end = std::to_chars(buf, buf + sizeof buf, v).ptr;
  return std::string(buf, end);
}

}  // namespace hetflow::karst
