#include "hetflow/ftle/messages.hpp"

#include "hetflow/core/number_text.hpp"

namespace hetflow::ftle {

std::string number(double v) { return core::number_text(v, 9); }

std::string point(std::span<const double> x) {
  std::string s = "(";
  for (std::size_t d = 0; d < x.size(); ++d) s += (d ? ", " : "") + number(x[d]);
  return s + ")";
}

}  // namespace hetflow::ftle
