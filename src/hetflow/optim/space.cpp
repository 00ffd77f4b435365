#include "hetflow/optim/space.hpp"

#include <cmath>
#include <limits>

#include "hetflow/core/number_text.hpp"
#include "hetflow/core/error.hpp"

namespace hetflow::optim {

using core::number_text;

Parameter Parameter::integer(std::string name, long long lower, long long upper, long long step) {
  return {std::move(name), Kind::integer, static_cast<double>(lower), static_cast<double>(upper), static_cast<double>(step), {}};
}

Parameter Parameter::real(std::string name, double lower, double upper, double step) {
  return {std::move(name), Kind::real, lower, upper, step, {}};
}

Parameter Parameter::categorical(std::string name, std::vector<std::string> choices) {
  return {std::move(name), Kind::categorical, 0, 0, 0, std::move(choices)};
}

std::size_t Parameter::size() const {
  if (kind == Kind::categorical) return choices.size();
  if (!enumerable()) return 0;
  // The tolerance keeps an upper limit reached by k steps in exact arithmetic (0.1 … 1 by 0.1).
  return static_cast<std::size_t>(std::floor((upper - lower) / step * (1 + 1e-12) + 1e-9)) + 1;
}

double Parameter::value(std::size_t k) const {
  return kind == Kind::categorical ? static_cast<double>(k) : lower + static_cast<double>(k) * step;
}

bool Parameter::holds(double v) const {
  if (kind == Kind::real && step == 0) return v >= lower && v <= upper;
  const double origin = kind == Kind::categorical ? 0.0 : lower;
  const double spacing = kind == Kind::categorical ? 1.0 : step;
  const double k = std::round((v - origin) / spacing);
  return k >= 0 && k < static_cast<double>(size()) && value(static_cast<std::size_t>(k)) == v;
}

Space::Space(std::vector<Parameter> parameters, Constraint feasible)
    : parameters_(std::move(parameters)), feasible_(std::move(feasible)) {
  if (parameters_.empty()) throw core::Error("a search space needs at least one parameter");
  for (const Parameter& p : parameters_) {
    const std::string which = "parameter '" + p.name + "'";
    if (p.name.empty()) throw core::Error("a parameter of the search space has no name");
    switch (p.kind) {
      case Parameter::Kind::categorical:
        if (p.choices.empty()) throw core::Error(which + " has no choices");
        break;
      case Parameter::Kind::integer:
        if (p.lower != std::round(p.lower) || p.upper != std::round(p.upper) || p.step != std::round(p.step))
          throw core::Error(which + " is an integer range but its limits or step are not integers");
        [[fallthrough]];
      case Parameter::Kind::real:
        if (!std::isfinite(p.lower) || !std::isfinite(p.upper) || !(p.lower <= p.upper))
          throw core::Error(which + ": the range [" + number_text(p.lower) + ", " + number_text(p.upper) + "] is not a finite range");
        if (p.kind == Parameter::Kind::integer ? !(p.step > 0) : !(p.step >= 0) || !std::isfinite(p.step))
          throw core::Error(which + ": the step " + number_text(p.step) + " must be positive" +
                      (p.kind == Parameter::Kind::real ? " (or 0 for a continuous range)" : ""));
        if (!p.enumerable() && !(p.lower < p.upper))
          throw core::Error(which + ": the continuous range [" + number_text(p.lower) + ", " + number_text(p.upper) + "] is empty");
        break;
    }
  }
}

std::optional<std::size_t> Space::size() const {
  std::size_t total = 1;
  for (const Parameter& p : parameters_) {
    if (!p.enumerable() || p.size() > std::numeric_limits<std::size_t>::max() / total) return std::nullopt;
    total *= p.size();
  }
  return total;
}

Point Space::at(std::size_t k) const {
  Point p(parameters_.size());
  for (std::size_t i = parameters_.size(); i-- > 0;) {
    const std::size_t count = parameters_[i].size();
    p[i] = parameters_[i].value(k % count);
    k /= count;
  }
  return p;
}

bool Space::contains(const Point& p) const {
  if (p.size() != parameters_.size()) return false;
  for (std::size_t i = 0; i < p.size(); ++i)
    if (!parameters_[i].holds(p[i])) return false;
  return true;
}

std::string Space::describe(const Point& p) const {
  std::string text;
  for (std::size_t i = 0; i < parameters_.size() && i < p.size(); ++i) {
    const Parameter& q = parameters_[i];
    text += (i ? ", " : "") + q.name + "=";
    if (q.kind == Parameter::Kind::categorical && q.holds(p[i])) text += q.choices[static_cast<std::size_t>(p[i])];
    else text += number_text(p[i], 10);
  }
  return text;
}

}  // namespace hetflow::optim
