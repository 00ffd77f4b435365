#pragma once
// When HETFLOW_VALIDATION_OUT names a folder, the validation tests leave their data there as CSV, from
// which scripts/plot_lbm_validation.py and scripts/plot_fem_validation.py draw the validation figures.
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "hetflow/io/csv.hpp"

namespace hetflow::test {

// A number in three significant digits, for test properties and messages.
inline std::string sci(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3e", v);
  return buf;
}

inline void write_validation_csv(const std::string& name, const std::vector<std::string>& columns,
                                 const std::vector<std::vector<double>>& rows) {
  const char* dir = std::getenv("HETFLOW_VALIDATION_OUT");
  if (!dir || !*dir) return;
  std::filesystem::create_directories(dir);
  io::CsvWriter csv(std::filesystem::path(dir) / name, columns);
  for (const auto& row : rows) csv.add_row(row);
  csv.close();
}

}  // namespace hetflow::test
