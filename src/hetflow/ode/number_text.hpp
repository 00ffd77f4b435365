#pragma once
#include <cstdio>
#include <string>

namespace hetflow::ode {

// A double with all 17 significant digits, so an error message shows the exact value it rejects.
inline std::string number_text(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

}  // namespace hetflow::ode
