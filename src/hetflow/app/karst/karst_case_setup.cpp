#include "hetflow/app/karst/karst_case_setup.hpp"

#include <cmath>

#include "hetflow/core/number_text.hpp"
#include "hetflow/io/atomic_file.hpp"
#include "hetflow/io/csv.hpp"
#include "hetflow/io/error.hpp"
#include "hetflow/io/text_lines.hpp"

namespace hetflow::app {
namespace {

namespace fs = std::filesystem;
using core::shortest_text;

// The line number of each data row: read_csv skips empty lines, so row i is not simply line i + 2.
std::vector<std::size_t> data_lines(const fs::path& file) {
  const std::vector<char> bytes = io::read_file_bytes(file);
  std::vector<std::size_t> lines;
  bool header = true;
  io::for_each_line(std::string_view(bytes.data(), bytes.size()), [&](std::string_view line, std::size_t number) {
    if (line.empty()) return;
    if (!header) lines.push_back(number);
    header = false;
  });
  return lines;
}

}  // namespace

void declare_forcing_keys(casefile::Schema& s) {
  auto& f = s.section("forcing", "the driving series (CSV: a header, then t*, value per row)");
  f.key<std::string>("inlet", "inlet temperature (or concentration) series, in the unit of grid.initial").path();
  f.key<std::string>("velocity", "velocity series v* = V(t) / V̄, every value > 0").path();
}

void declare_grid_keys(casefile::Schema& s) {
  auto& g = s.section("grid", "discretisation and model options (docs/karst.md)");
  g.key<long>("nodes", 200, "water nodes N along the conduit").at_least(2);
  g.key<long>("rock_nodes", 40, "rock nodes M per water node (heat)").at_least(3);
  g.key<double>("rock_extent", 5.0, "r* - 1 of the far-field rock node").above(0);
  g.key<std::string>("outlet", "outflow", "outlet row: outflow (conservative) or thesis (Eq. 4.20 as printed)")
      .one_of({"outflow", "thesis"});
  g.key<std::string>("far_field", "fixed", "far-field rock node: fixed (thesis) or insulated").one_of({"fixed", "insulated"});
  g.key<double>("initial", 1.0, "water and rock temperature at t* = 0 (T*, or °C with the rock's background)");
}

std::optional<karst::Series> read_case_series(const casefile::Case& c, const std::string& key, bool positive,
                                              std::vector<std::string>& problems) {
  const fs::path file = c.get<std::string>(key);
  if (!fs::is_regular_file(file)) {
    problems.push_back(c.missing_file(key));
    return std::nullopt;
  }
  io::CsvTable table;
  std::vector<std::size_t> lines;
  try {
    table = io::read_csv(file);
    lines = data_lines(file);
  } catch (const io::IoError& e) {
    problems.push_back(e.what());
    return std::nullopt;
  }
  const std::string name = file.string();
  if (table.columns.size() != 2 || table.columns[0] != "t") {
    problems.push_back(name + ":1: expected two columns, t and the value (" + key + ")");
    return std::nullopt;
  }
  if (table.rows.empty()) {
    problems.push_back(name + ": no data rows (" + key + ")");
    return std::nullopt;
  }
  const std::string& value_name = table.columns[1];
  karst::Series s;
  for (std::size_t i = 0; i < table.rows.size(); ++i) {
    const double t = table.rows[i][0], v = table.rows[i][1];
    const std::string where = name + ":" + std::to_string(lines[i]) + ": ";
    if (!std::isfinite(t) || !std::isfinite(v)) {
      problems.push_back(where + "t and " + value_name + " must be finite");
      return std::nullopt;
    }
    if (i > 0 && !(t > s.t.back())) {
      problems.push_back(where + "t = " + shortest_text(t) + " is not after t = " + shortest_text(s.t.back()) + " on line " +
                         std::to_string(lines[i - 1]) + ": times must increase strictly");
      return std::nullopt;
    }
    if (positive && !(v > 0)) {
      problems.push_back(where + value_name + " = " + shortest_text(v) +
                         " is not > 0: the flow runs from the inlet at x* = 0 to the outlet at x* = 1");
      return std::nullopt;
    }
    s.t.push_back(t);
    s.value.push_back(v);
  }
  return s;
}

std::optional<KarstForcing> case_forcing(const casefile::Case& c, std::vector<std::string>& problems) {
  auto inlet = read_case_series(c, "forcing.inlet", false, problems);
  auto velocity = read_case_series(c, "forcing.velocity", true, problems);
  if (!inlet || !velocity) return std::nullopt;
  return KarstForcing{std::move(*inlet), std::move(*velocity)};
}

karst::Grid case_grid(const casefile::Case& c) {
  karst::Grid g;
  g.nodes = static_cast<std::size_t>(c.get<long>("grid.nodes"));
  g.rock_nodes = static_cast<std::size_t>(c.get<long>("grid.rock_nodes"));
  g.rock_extent = c.get<double>("grid.rock_extent");
  g.outlet = c.get<std::string>("grid.outlet") == "thesis" ? karst::Outlet::thesis : karst::Outlet::outflow;
  g.far_field = c.get<std::string>("grid.far_field") == "insulated" ? karst::FarField::insulated : karst::FarField::fixed;
  g.initial = c.get<double>("grid.initial");
  return g;
}

}  // namespace hetflow::app
