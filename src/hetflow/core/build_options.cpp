#include "hetflow/core/build_options.hpp"

#include "hetflow/core/error.hpp"

namespace hetflow::core {

const char* to_string(Precision p) { return p == Precision::f64 ? "double" : "float"; }

Precision parse_precision(std::string_view text) {
  if (text == "float" || text == "single" || text == "fp32") return Precision::f32;
  if (text == "double" || text == "fp64") return Precision::f64;
  throw Error("precision '" + std::string(text) + "' is not known: expected float or double");
}

BuildOptions& BuildOptions::precision(Precision real) {
  fp64_ = fp64_ || real == Precision::f64;
  return define("REAL", to_string(real));
}

BuildOptions& BuildOptions::define(std::string_view name, std::string_view value) {
  return raw("-D " + std::string(name) + "=" + std::string(value));
}

BuildOptions& BuildOptions::define(std::string_view name, long long value) {
  return define(name, std::to_string(value));
}

BuildOptions& BuildOptions::raw(std::string_view options) {
  if (options.empty()) return *this;
  if (!text_.empty()) text_ += ' ';
  text_ += options;
  return *this;
}

}  // namespace hetflow::core
