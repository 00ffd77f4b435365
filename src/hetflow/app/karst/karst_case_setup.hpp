#pragma once
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "hetflow/casefile/case.hpp"
#include "hetflow/karst/model.hpp"
#include "hetflow/karst/series.hpp"

namespace hetflow::app {

// What the karst case types (`karst`, `karst_inversion`) share: the `forcing:` section (inlet and velocity
// series from CSV files), the `grid:` section of karst::Grid, and reading a time series with errors that
// name the file and line.

void declare_forcing_keys(casefile::Schema& schema);
void declare_grid_keys(casefile::Schema& schema);

// The series in the CSV file at `key`: a header, then rows of two columns, the first named t (t*), the
// second the value. Problems go to `problems` and name the file and line ("storm.csv:7: t = 3 is not
// after t = 3 on line 6"): an unreadable or malformed file, times not strictly increasing, and with
// `positive` a value <= 0. Nothing when there was a problem.
std::optional<karst::Series> read_case_series(const casefile::Case& c, const std::string& key, bool positive,
                                              std::vector<std::string>& problems);

struct KarstForcing {
  karst::Series inlet, velocity;
};
// Both forcing series, or nothing (the problems are in `problems`).
std::optional<KarstForcing> case_forcing(const casefile::Case& c, std::vector<std::string>& problems);

// The grid: space and model options from `grid:`; times left empty.
karst::Grid case_grid(const casefile::Case& c);

}  // namespace hetflow::app
