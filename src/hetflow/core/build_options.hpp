#pragma once
#include <string>
#include <string_view>

namespace hetflow::core {

enum class Precision { f32, f64 };

const char* to_string(Precision p);
// "float"/"single" -> f32, "double" -> f64; throws Error otherwise.
Precision parse_precision(std::string_view text);

// Compiler options for one kernel build: the precision (`-D REAL=float|double`, seen as real_t through
// core/common.cl), feature defines and tuned sizes. The option string is part of the binary-cache key.
class BuildOptions {
 public:
  BuildOptions() = default;
  explicit BuildOptions(Precision real) { precision(real); }

  BuildOptions& precision(Precision real);
  BuildOptions& define(std::string_view name, std::string_view value);
  BuildOptions& define(std::string_view name, long long value);
  BuildOptions& raw(std::string_view options);

  bool needs_fp64() const { return fp64_; }
  const std::string& str() const { return text_; }

 private:
  std::string text_;
  bool fp64_ = false;
};

}  // namespace hetflow::core
