#include "hetflow/app/fem/fem_output_config.hpp"

#include <algorithm>
#include <cstdio>
#include <set>

#include "hetflow/app/csv_text.hpp"

namespace hetflow::app {
namespace {

std::string point_text(const fem::Point& p) {
  std::string text = "(";
  text.append(exact_number(p[0])).append(", ").append(exact_number(p[1])).append(", ").append(exact_number(p[2]));
  return text + ")";
}

bool safe_name(const std::string& name) {
  return !name.empty() && std::all_of(name.begin(), name.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-' || c == '.';
  }) && name != "." && name != "..";
}

void check_name(const char* what, const std::string& name, std::set<std::string>& seen, std::vector<std::string>& problems) {
  if (!safe_name(name))
    problems.push_back(std::string(what) + " name '" + name +
                       "' must be non-empty and hold only letters, digits, '_', '-' and '.'");
  else if (!seen.insert(name).second)
    problems.push_back(std::string("two ") + what + "s are named '" + name + "'");
}

}  // namespace

fem::Point fem_line_point(const FemLine& line, std::size_t k) {
  const double t = static_cast<double>(k) / static_cast<double>(line.points - 1);
  fem::Point x{};
  for (std::size_t a = 0; a < 3; ++a) x[a] = line.from[a] + t * (line.to[a] - line.from[a]);
  return x;
}

const char* fem_axis_name(int axis) {
  static constexpr const char* names[3] = {"x", "y", "z"};
  return names[axis];
}

std::string fem_four_digits(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%.4g", v);
  return text;
}

const std::vector<std::string>& fem_cut_field_names() {
  static const std::vector<std::string> names{"speed", "pressure", "vorticity", "vorticity_normal"};
  return names;
}

std::optional<FemCutField> fem_cut_field(std::string_view name) {
  const auto& names = fem_cut_field_names();
  const auto it = std::find(names.begin(), names.end(), name);
  if (it == names.end()) return std::nullopt;
  return static_cast<FemCutField>(it - names.begin());
}

std::vector<std::string> fem_output_problems(const fem::PointLocator& locator, const FemOutputConfig& config) {
  std::vector<std::string> problems;
  std::set<std::string> probe_names, line_names;
  for (const FemProbe& p : config.probes) {
    check_name("probe", p.name, probe_names, problems);
    if (!locator.locate(p.point)) problems.push_back("probe '" + p.name + "' at " + point_text(p.point) + " is outside the mesh");
  }
  for (const FemLine& l : config.lines) {
    check_name("line", l.name, line_names, problems);
    if (l.points < 2) {
      problems.push_back("line '" + l.name + "' has " + std::to_string(l.points) + " points; it needs at least 2");
      continue;
    }
    for (std::size_t k = 0; k < l.points; ++k) {
      const fem::Point x = fem_line_point(l, k);
      if (!locator.locate(x)) {
        problems.push_back("line '" + l.name + "' from " + point_text(l.from) + " to " + point_text(l.to) + ": point " +
                           std::to_string(k) + " at " + point_text(x) + " is outside the mesh");
        break;
      }
    }
  }
  if (const auto& c = config.cut_plane) {
    if (c->axis < 0 || c->axis > 2) {
      problems.push_back("the cut plane's axis " + std::to_string(c->axis) + " is not 0, 1 or 2 (x, y or z)");
    } else {
      const auto a = static_cast<std::size_t>(c->axis);
      const std::string axis = fem_axis_name(c->axis);
      if (!(c->position >= locator.lower()[a] && c->position <= locator.upper()[a]))
        problems.push_back("the cut plane " + axis + " = " + exact_number(c->position) + " misses the mesh, which spans " +
                           axis + " = " + exact_number(locator.lower()[a]) + " .. " + exact_number(locator.upper()[a]));
    }
    if (c->width < kFemCutPlaneMinWidth || c->width > 8192)
      problems.push_back("the cut plane's width " + std::to_string(c->width) + " is outside " +
                         std::to_string(kFemCutPlaneMinWidth) + " .. 8192 pixels");
  }
  return problems;
}

}  // namespace hetflow::app
