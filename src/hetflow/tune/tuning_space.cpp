#include "hetflow/tune/tuning_space.hpp"

#include <algorithm>
#include <cmath>
#include <set>

#include "hetflow/core/error.hpp"
#include "hetflow/core/number_text.hpp"

namespace hetflow::tune {

Dimension Dimension::ordered(std::string name, std::vector<std::string> values) {
  return {std::move(name), Kind::ordered, std::move(values), 0, 0, 0};
}

Dimension Dimension::choice(std::string name, std::vector<std::string> values) {
  return {std::move(name), Kind::choice, std::move(values), 0, 0, 0};
}

Dimension Dimension::real(std::string name, double lower, double upper, double step) {
  return {std::move(name), Kind::real, {}, lower, upper, step};
}

std::vector<std::string> powers_of_two(std::size_t lowest, std::size_t highest) {
  std::vector<std::string> values;
  for (std::size_t v = std::max<std::size_t>(lowest, 1); v <= highest; v *= 2) values.push_back(std::to_string(v));
  return values;
}

namespace {

optim::Parameter parameter(const Dimension& d) {
  if (d.kind != Dimension::Kind::real && d.values.empty())
    throw core::Error("tuning parameter '" + d.name + "' has no values (nothing fits the device?)");
  switch (d.kind) {
    case Dimension::Kind::ordered:
      return optim::Parameter::integer(d.name, 0, static_cast<long long>(d.values.size()) - 1);
    case Dimension::Kind::choice:
      return optim::Parameter::categorical(d.name, d.values);
    case Dimension::Kind::real:
      break;
  }
  return optim::Parameter::real(d.name, d.lower, d.upper, d.step);
}

std::vector<optim::Parameter> parameters(const std::vector<Dimension>& dimensions) {
  std::set<std::string> names;
  std::vector<optim::Parameter> out;
  for (const Dimension& d : dimensions) {
    if (!names.insert(d.name).second) throw core::Error("tuning parameter '" + d.name + "' is named twice");
    out.push_back(parameter(d));
  }
  return out;
}

Setting setting_of(const std::vector<Dimension>& dimensions, const optim::Point& point) {
  Setting s;
  for (std::size_t i = 0; i < dimensions.size(); ++i) {
    const Dimension& d = dimensions[i];
    s[d.name] = d.kind == Dimension::Kind::real ? core::shortest_text(point.at(i))
                                                : d.values.at(static_cast<std::size_t>(point.at(i)));
  }
  return s;
}

// The Space's constraint holds its own copies, so a TuningSpace can be copied and moved freely.
optim::Space::Constraint point_constraint(const std::vector<Dimension>& dimensions, const TuningSpace::Constraint& feasible) {
  if (!feasible) return {};
  return [dimensions, feasible](const optim::Point& p) { return feasible(setting_of(dimensions, p)); };
}

}  // namespace

TuningSpace::TuningSpace(std::vector<Dimension> dimensions, Constraint feasible)
    : dimensions_(std::move(dimensions)),
      feasible_(std::move(feasible)),
      space_(parameters(dimensions_), point_constraint(dimensions_, feasible_)) {}

Setting TuningSpace::setting(const optim::Point& point) const { return setting_of(dimensions_, point); }

optim::Point TuningSpace::point(const Setting& setting) const {
  optim::Point p;
  for (const Dimension& d : dimensions_) {
    const auto it = setting.find(d.name);
    if (it == setting.end()) throw core::Error("the setting " + describe(setting) + " has no '" + d.name + "'");
    if (d.kind == Dimension::Kind::real) {
      double v = 0;
      try {
        v = std::stod(it->second);
      } catch (const std::exception&) {
        throw core::Error("tuning parameter '" + d.name + "' = '" + it->second + "' is not a number");
      }
      p.push_back(v);
      continue;
    }
    const auto k = std::find(d.values.begin(), d.values.end(), it->second);
    if (k == d.values.end()) throw core::Error("tuning parameter '" + d.name + "' has no value '" + it->second + "'");
    p.push_back(static_cast<double>(k - d.values.begin()));
  }
  if (!space_.contains(p)) throw core::Error("the setting " + describe(setting) + " lies outside the tuning space");
  return p;
}

std::vector<Setting> TuningSpace::neighbours(const Setting& setting) const {
  const optim::Point p = point(setting);
  std::vector<Setting> out;
  const auto add = [&](std::size_t i, double v) {
    optim::Point q = p;
    q[i] = v;
    if (space_.contains(q) && space_.feasible(q)) out.push_back(this->setting(q));
  };
  for (std::size_t i = 0; i < dimensions_.size(); ++i) {
    const Dimension& d = dimensions_[i];
    if (d.kind == Dimension::Kind::choice) {
      for (std::size_t k = 0; k < d.values.size(); ++k)
        if (static_cast<double>(k) != p[i]) add(i, static_cast<double>(k));
    } else {
      const double step = d.kind == Dimension::Kind::ordered ? 1.0 : d.step;
      if (step == 0) continue;
      add(i, p[i] - step);
      add(i, p[i] + step);
    }
  }
  return out;
}

std::size_t TuningSpace::feasible_size() const {
  const auto n = space_.size();
  if (!n) return 0;
  std::size_t count = 0;
  for (std::size_t k = 0; k < *n; ++k) count += space_.feasible(space_.at(k)) ? 1 : 0;
  return count;
}

std::string describe(const Setting& setting) {
  std::string s;
  for (const auto& [name, value] : setting) s += (s.empty() ? "" : ", ") + name + "=" + value;
  return s;
}

}  // namespace hetflow::tune
